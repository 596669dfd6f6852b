"""Capped components that fill their set: every member of the set is in one of them.

When the components of seeds in one set S are each held to exactly k_i cells, no seed can lie in
another's component, and a rule counts S at the sum of the k_i, the compiler adds for every cell of S
the clause "not in S, or in one of the components that reach it" and, where two or more reach it, at
most one of them (:mod:`gridlang.compiler.partition`). Counted against brute force on every backend;
the clauses are counted on the model, and left out where the components are not shown disjoint or
no rule counts the set. A count of ``not s`` gives the region of ``s`` its size as well
(:func:`gridlang.compiler.regions.anchor_connected`).
"""

from __future__ import annotations

import functools

import pytest
from tiny import judged_answers, solved_answers, spec_judge

from gridlang.ir.model import Clause, Cmp, Connected, Linear
from gridlang.solving.pipeline import load_checked

HEAD = "tile blank '.'\ntile clue number\ndecide s: bool on blank\nrequire s is connected\n"
CAP = "require for each c in clue: count(component of c in not s) == value(c)\n"
ONE_CLUE = "require for each c in clue: count(clue and component of c in not s) == 1\n"
COUNT = "require count(not s) == 6\n"  # the line the clauses point at: line 7 with ONE_CLUE, else 6
MAP = "3...3\n.....\n"  # two 3s at row 1, columns 1 and 5: each reaches two steps, both row 1, column 3


@functools.cache
def _brute_force(text: str, map_text: str) -> frozenset[tuple[bool, ...]]:
    _, _, _, grid, judge = spec_judge(text, map_text)
    return judged_answers(judge, grid, "s", [i for i in range(grid.size) if grid.tiles[i] == "blank"])


def _model(text: str, map_text: str = MAP):
    spec, symbols, data, _, _ = spec_judge(text, map_text)
    return load_checked(spec, symbols, data, {})[0]


def _cover(model, line: int) -> tuple[int, int, int]:
    """(clauses, of them unit clauses, at-most-one rows) the count rule at ``line`` brought."""
    clauses = [
        c
        for c in model.constraints
        if isinstance(c, Clause) and c.span is not None and c.span.line == line
    ]
    rows = [
        c
        for c in model.constraints
        if isinstance(c, Linear)
        and c.op is Cmp.LE
        and c.rhs == 1
        and c.span is not None
        and c.span.line == line
    ]
    return len(clauses), sum(1 for c in clauses if len(c.lits) == 1), len(rows)


def test_the_case_is_not_trivial():
    assert len(_brute_force(HEAD + CAP + ONE_CLUE + COUNT, MAP)) == 4


def test_the_cover_means_the_same(backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    text = HEAD + CAP + ONE_CLUE + COUNT
    expected = _brute_force(text, MAP)
    spec, symbols, data, grid, _ = spec_judge(text, MAP)
    assert solved_answers(spec, symbols, data, grid, backend, "s", expected) == expected


def test_every_cell_of_the_set_gets_its_clause():
    """8 blank cells: row 1, column 3 reached by both 3s (an at-most-one row), three cells by each 3
    alone, and row 2, column 3 by neither (shaded: a unit clause)."""
    assert _cover(_model(HEAD + CAP + ONE_CLUE + COUNT), 7) == (8, 1, 1)


def test_no_cover_where_the_components_may_meet():
    """A 3 two steps from the other may lie in its component when no rule keeps clues apart: the
    components are not shown disjoint, and nothing is added; nor without a count of the set."""
    assert _cover(_model(HEAD + CAP + COUNT, "3.3..\n.....\n"), 6) == (0, 0, 0)
    assert _cover(_model(HEAD + CAP + ONE_CLUE), 7) == (0, 0, 0)


def test_a_count_of_the_complement_sizes_the_region():
    """``count(not s) == 6`` on 10 cells: the region of s has 4 cells."""
    model = _model(HEAD + CAP + ONE_CLUE + COUNT)
    (region,) = [
        c for c in model.constraints if isinstance(c, Connected) and c.name == "s"
    ]
    assert region.size == 4


def test_a_cell_beside_another_clue_is_out_of_reach():
    """The 3 at row 1, column 1 reaches two steps, but row 1, column 2 touches the 1, which its
    island may not hold (the rule that an island holds one clue fixes the 1's member literal false):
    that cell's is fixed false too, and nothing else is."""
    model = _model(HEAD + CAP + ONE_CLUE, "3.1\n...\n")
    names = {i + 1: v for i, v in enumerate(model.variables)}
    fixed = [
        names[-c.lits[0]].rowcol
        for c in model.constraints
        if isinstance(c, Clause)
        and len(c.lits) == 1
        and c.lits[0] < 0
        and names[-c.lits[0]].family == "component"
    ]
    assert sorted(fixed) == [(0, 1), (0, 2)]
