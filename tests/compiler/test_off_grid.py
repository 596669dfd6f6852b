"""A neighbour off the grid in a comparison of values: ``D[p + d]`` there is 0 (docs/language.md,
"Geometry and values at a cell"), so ``D[p + d] == D[p]`` is false at the edge when 0 is no value of D,
and the spec is not refused for it (it was: ``0 is not a value of 'len'``, even behind a guard).

The rule below, on a 2x2 map with values 1 to 3: two side neighbours may hold the same value only
when it is 1. Of the 81 maps, the interpreter accepts the 35 that a count written apart from it
(:func:`_by_hand`, the four pairs of neighbours) gives, and each backend must enumerate exactly those.
"""

from __future__ import annotations

import itertools

from tiny import spec_judge as _judge

from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

SPEC = ("tile cell '.'\ndecide len: 1..3 on all\n"
        "require for each cell p, each direction d: len[p + d] == len[p] implies len[p] == 1\n")
MAP = "..\n..\n"


def _accepted() -> set[frozenset]:
    *_, judge = _judge(SPEC, MAP)
    found = set()
    for values in itertools.product((1, 2, 3), repeat=4):
        answer = dict(enumerate(values))
        if judge.evaluate({"len": answer}).ok:
            found.add(frozenset(answer.items()))
    return found


def _by_hand() -> int:
    pairs = ((0, 1), (2, 3), (0, 2), (1, 3))
    return sum(all(v[a] != v[b] or v[a] == 1 for a, b in pairs) for v in itertools.product((1, 2, 3), repeat=4))


def test_a_comparison_with_a_neighbour_off_the_grid_is_false_not_an_error(backend):
    expected = _accepted()
    assert len(expected) == _by_hand() == 35
    spec, symbols, data, _, _ = _judge(SPEC, MAP)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    assert {frozenset(s.decisions["len"].items()) for s in report.solutions} == expected
    assert report.complete is True
