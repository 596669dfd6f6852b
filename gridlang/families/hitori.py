"""The Hitori plug-in: its rules, checked on an answer.

Published rules (Nikoli's Hitori, as on puzz.link): shade cells so that no
number appears unshaded more than once in a row or a column, no two shaded
cells share a side, and the unshaded cells form one orthogonally connected
area. Cells without a number (``.``) carry no number to repeat. The answer
is the decision ``shaded``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid
from gridlang.families.common import cells_text, number, pieces, side_neighbours, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Hitori"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Hitori answer: no repeated unshaded number in a line, shaded cells apart, unshaded connected."""
    shaded = set(solution.true_cells("shaded"))
    rows, cols = grid.rows, grid.cols
    problems = []
    lines = [(f"row {r + 1}", range(r * cols, (r + 1) * cols)) for r in range(rows)]
    lines += [(f"column {c + 1}", range(c, rows * cols, cols)) for c in range(cols)]
    for name, cells in lines:
        seen: dict[int, int] = {}
        for i in cells:
            value = number(grid.chars[i])
            if value is None or i in shaded:
                continue
            if value in seen:
                problems.append(f"{name} has the number {value} unshaded at {cells_text(grid, [seen[value], i])}")
            seen.setdefault(value, i)
    for i in sorted(shaded):
        close = [j for j in side_neighbours(rows, cols, i) if j in shaded and j > i]
        if close:
            problems.append(f"the shaded cells {cells_text(grid, [i] + close)} share a side")
    open_cells = set(range(rows * cols)) - shaded
    parts = pieces(rows, cols, open_cells)
    if len(parts) > 1:
        problems.append(f"the unshaded cells fall into {len(parts)} areas")
    return verdict(NAME, problems, shaded=len(shaded))


class HitoriPlugin(Plugin):
    """Hitori: the verifier of the published rules (drawn from the spec's looks)."""

    name = "hitori"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = HitoriPlugin()
