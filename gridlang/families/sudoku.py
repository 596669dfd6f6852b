"""The Sudoku plug-in: its rules, checked on an answer.

Published rules: fill an N x N grid with the digits 1 to N, N = box_rows x
box_cols (box_rows and box_cols 3 when not given), so that every row, every
column and every box (the box_rows x box_cols rectangles tiling the grid
from its top-left corner) holds each digit exactly once; the given digits
stay. The answer is the decision ``digit`` (each cell's value).
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import number, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Sudoku"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Sudoku answer: each row, column and box a permutation of 1..N, the givens kept."""
    digits = solution.decisions.get("digit", {})
    height, width = int(params.get("box_rows", 3)), int(params.get("box_cols", 3))
    n = height * width
    rows, cols = grid.rows, grid.cols
    problems = []
    if (rows, cols) != (n, n):
        problems.append(f"a Sudoku with {height} x {width} boxes is {n} x {n}, not {rows} x {cols}")
        return verdict(NAME, problems)
    for i in range(n * n):
        given = number(grid.chars[i])
        if digits.get(i) not in range(1, n + 1):
            problems.append(f"the cell at {cell_name(*divmod(i, n))} holds {digits.get(i)!r}, not a digit 1 to {n}")
        elif given is not None and digits[i] != given:
            problems.append(f"the cell at {cell_name(*divmod(i, n))} is given {given} but holds {digits[i]}")
    groups = [(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
    groups += [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)]
    groups += [(f"the box at {cell_name(r, c)}", [(r + dr) * n + c + dc for dr in range(height) for dc in range(width)])
               for r in range(0, n, height) for c in range(0, n, width)]
    for name, cells in groups:
        values = sorted(digits.get(i, 0) for i in cells)
        if values != list(range(1, n + 1)):
            problems.append(f"{name} does not hold each digit once: {values}")
    return verdict(NAME, problems)


class SudokuPlugin(Plugin):
    """Sudoku: the verifier of the published rules (drawn from the spec's looks)."""

    name = "sudoku"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = SudokuPlugin()
