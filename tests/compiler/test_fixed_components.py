"""A component inside a set known from the map is known too: ``for each`` and the aggregates run over all of it.

``component of p in S`` with S fixed by the map (tiles, rooms) was lowered as for a set that depends on
the decisions, a variable per cell; ``any(F for x in component of p in S)`` and ``for each x in ...``
then ran over p alone (the only member known to be in), so a rule about the rest of the component
was dropped or, under ``any``, demanded of p: Oyakodori's instance came out INFEASIBLE on every
backend while the verifier accepted pzprjs's answer. Each case is counted against brute force (every
assignment judged by the interpreter) on every backend.
"""

from __future__ import annotations

import functools

import pytest
from tiny import judged_answers, solved_answers
from tiny import spec_judge as _judge

from gridlang.solving.pipeline import load_checked

HEAD = "tile blank '.'\ntile mark 'm'\ndecide s: bool on all\n"
MAP = "mm.m\n.m.m\n....\n"  # the marks: one group of three cells, one of two
CASES = {
    "any over a component": HEAD + "require for each p in mark: any(s[x] for x in component of p in mark)\n"
                                   "require count(s) <= 2\n",
    "count over a component": HEAD + "require for each p in mark: count(s[x] for x in component of p in mark) == 1\n",
    "for each over a component": HEAD + "require for each p in mark: for each x in component of p in mark: "
                                        "s[x] implies count(s and neighbours(x)) == 0\n"
                                        "require count(s and mark) == 2\n",
}


@functools.cache
def brute_force(name: str) -> frozenset[tuple[bool, ...]]:
    *_, grid, judge = _judge(CASES[name], MAP)
    return judged_answers(judge, grid, "s")


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_cases_are_not_trivial(name):
    assert 0 < len(brute_force(name)) < 2 ** 12


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_brute_force(name, backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, _ = _judge(CASES[name], MAP)
    assert solved_answers(spec, symbols, data, grid, backend, "s", brute_force(name)) == brute_force(name)


def test_a_fixed_component_is_no_variable_and_no_connectivity():
    from gridlang.ir.model import Connected

    spec, symbols, data, grid, judge = _judge(CASES["count over a component"], MAP)
    model, _ = load_checked(spec, symbols, data, {})
    assert not any(isinstance(c, Connected) for c in model.constraints)
    assert len(model.decisions) == 1 and model.num_vars == grid.size  # the 12 cells of s, nothing more
