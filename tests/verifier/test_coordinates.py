"""Text names cells ``row R, column C`` counted from 1, as map errors do: the published-rules
verifiers, the spec-level verifier and the status lines (JSON keeps ``[r, c]`` from 0)."""

from __future__ import annotations

import re

from gridlang.core.grid import Grid, cell_name, cell_names
from gridlang.families.common import cells_text
from gridlang.interpreter.verdict import Violation
from gridlang.ir.solution import Solution
from gridlang.plugins import find_plugin


def grid(rows: list[str]) -> Grid:
    chars = tuple(ch for row in rows for ch in row)
    return Grid(len(rows), len(rows[0]), chars, tuple("t" for _ in chars), ())


def test_the_names_count_from_one():
    assert cell_name(0, 2) == "row 1, column 3"
    assert cell_names([(0, 2), (1, 0), (2, 2)], limit=2) == "row 1, column 3; row 2, column 1; and 1 more"
    assert cells_text(grid(["...", "..."]), [4, 1]) == "row 1, column 2; row 2, column 2"


def test_the_horse_verifier_names_a_wall_on_water_from_one():
    g = grid(["~~~~", "~.H~", "~~~~"])
    verdict = find_plugin("enclose.horse").verify(g, Solution({"wall": {0: True}}, {}), {"budget": 1})
    assert "a wall stands on '~' at row 1, column 1, not on grass" in verdict.problems


def test_the_sudoku_verifier_names_rows_columns_and_boxes_from_one():
    g = grid(["12", "21"])
    digits = {0: 1, 1: 1, 2: 2, 3: 2}
    verdict = find_plugin("Sudoku").verify(g, Solution({"digit": digits}, {}), {"box_rows": 1, "box_cols": 2})
    text = "\n".join(verdict.problems)
    assert "row 1 does not hold each digit once" in text and "column 1 does not hold" in text
    assert "the cell at row 1, column 2 is given 2 but holds 1" in text
    assert not re.search(r"\(\d+, \d+\)|row 0|column 0", text)


def test_a_broken_rule_lists_its_cells_from_one():
    v = Violation(None, "pen avoids border", ((2, 0), (13, 10)), "2 cells in both sets")
    assert v.render().splitlines()[1] == "    2 cells in both sets: row 3, column 1; row 14, column 11"
