"""A component that a rule caps at k cells is made only within k - 1 steps of its cell, and means the same.

``count(component of p in S) == k`` (or ``<=``, ``<``) stated with no guard bounds p's component, so
the compiler makes its members only over the cells of S within k - 1 steps of p
(:mod:`gridlang.compiler.cellsets`): Nurikabe's island of a clue grows with the clue, not with the
grid. Each case is counted against brute force (every assignment judged by the interpreter) on
every backend, with the capping rule first, last (and alone bounding the island: without the
clauses at the edge of the ball an island could run on past it), and strict; the members' count is read off the
model, and the tools that say why, which drop one rule instance at a time, get the region whole.
"""

from __future__ import annotations

import functools

import pytest
from tiny import judged_answers, solved_answers
from tiny import spec_judge as _judge

from gridlang.compiler import compile_tagged
from gridlang.solving.pipeline import load_checked

HEAD = "tile blank '.'\ntile clue number\ndecide s: bool on blank\n"
CAP = "require for each c in clue: count(component of c in not s) == value(c)\n"
ONE_CLUE = "require for each c in clue: count(clue and component of c in not s) == 1\n"
EVERY = "require for each p in blank: not s[p] implies any(p in (component of c in not s) for c in clue)\n"
MAP = "2...\n....\n...3\n"  # 3x4: a 2 at row 1, column 1, a 3 at row 3, column 4
CASES = {
    "cap first": HEAD + CAP + ONE_CLUE + EVERY,
    "cap last": HEAD + ONE_CLUE + CAP,  # no rule that every open cell be an island's: the cap alone bounds it
    "cap strict": HEAD.replace("tile clue number\n", "") + "require for each p in blank: count(component of p in s) < 3\n"
                  "require count(s) == 6\n",
}
MAPS = {"cap strict": "....\n....\n....\n"}


def _case(name: str):
    return _judge(CASES[name], MAPS.get(name, MAP))


@functools.cache
def brute_force(name: str) -> frozenset[tuple[bool, ...]]:
    _, _, _, grid, judge = _case(name)
    return judged_answers(judge, grid, "s", [i for i in range(grid.size) if grid.tiles[i] == "blank"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_cases_are_not_trivial(name):
    assert 1 < len(brute_force(name)) < 2 ** 10


@pytest.mark.parametrize("name", sorted(CASES))
def test_capped_lowering_matches_brute_force(name, backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, _ = _case(name)
    assert solved_answers(spec, symbols, data, grid, backend, "s", brute_force(name)) == brute_force(name)


def _members(model) -> int:
    return sum(1 for v in model.variables if v.family == "component")


@pytest.mark.parametrize("name", ["cap first", "cap last"])
def test_members_stop_at_the_cap(name):
    """The 2 reaches one step (2 members besides itself), the 3 two steps (5); uncapped, each of the
    two regions would hold the other 11 cells of the grid."""
    spec, symbols, data, _, _ = _case(name)
    model, _ = load_checked(spec, symbols, data, {})
    assert _members(model) == 2 + 5
    tagged, _ = compile_tagged(model)
    assert _members(tagged) == 11 + 11


def test_a_cap_under_a_guard_caps_nothing():
    """``s[c] implies count(...) <= 1``: the cap holds only where the guard does, so the region is whole."""
    text = HEAD + "require for each c in clue: s[c] implies count(component of c in not s) <= 1\n"
    spec, symbols, data, _, _ = _judge(text.replace("on blank", "on all"), MAP)
    model, _ = load_checked(spec, symbols, data, {})
    assert _members(model) == 11 + 11
