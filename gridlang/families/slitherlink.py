"""The Slitherlink plug-in: its rules, checked on an answer.

Published rules (Nikoli's Slitherlink, as on puzz.link ``slither``): draw
one single loop along the grid lines (between the corners of the cells),
without crossing or branching. A number in a cell tells how many of the
four sides of that cell the loop runs along. The answer is the decision
``line``, on the edges of the lattice of cell corners.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import number, verdict
from gridlang.families.lines import cell_sides, chosen_edges, loop_problems
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Slitherlink"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Slitherlink answer: one loop on the grid lines, each number equal to its cell's sides on it."""
    edges = chosen_edges(solution)
    problems = loop_problems(edges)
    for i, ch in enumerate(grid.chars):
        n = number(ch)
        if n is None:
            continue
        r, c = divmod(i, grid.cols)
        got = cell_sides(edges, r, c)
        if got != n:
            problems.append(f"the cell at {cell_name(r, c)} has {got} sides on the loop, not {n}")
    return verdict(NAME, problems, edges=len(edges))


class SlitherlinkPlugin(Plugin):
    """Slitherlink: the verifier of the published rules (drawn from the spec's looks)."""

    name = "slitherlink"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = SlitherlinkPlugin()
