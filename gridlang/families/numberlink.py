"""The Numberlink plug-in: its rules, checked on an answer.

Published rules (Nikoli's Numberlink, as on puzz.link ``numlin``): join
each pair of equal numbers by a line through the centres of cells, moving
between side neighbours. Lines do not cross or branch, and no two lines
share a cell. Every line joins two numbers (no line without numbers, no
loop). As in pzprjs's ``numlin`` (and unlike its ``arukone`` variant), a
cell may stay empty. The answer is the decision ``line``, on edges between
cells.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name, cell_names, edge_adjacency, edge_pieces
from gridlang.families.common import number, verdict
from gridlang.families.lines import chosen_edges
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Numberlink"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Numberlink answer: every line a simple path joining two equal numbers, every number joined."""
    edges = chosen_edges(solution)
    adj = edge_adjacency(edges)
    problems = []
    clues = {divmod(i, grid.cols): number(ch) for i, ch in enumerate(grid.chars) if number(ch) is not None}
    for p, n in sorted(clues.items()):
        d = len(adj.get(p, []))
        if d != 1:
            problems.append(f"the number {n} at {cell_name(*p)} has {d} lines leaving it, not 1")
    branches = sorted(p for p, ws in adj.items() if p not in clues and len(ws) != 2)
    if branches:
        problems.append(f"lines end, branch or cross away from numbers at {cell_names(branches[:6])}")
    for piece in edge_pieces(adj):
        ends = sorted(p for p in piece if p in clues)
        if len(ends) != 2:
            problems.append(f"the line through {cell_name(*min(piece))} joins {len(ends)} numbers, not 2")
        elif clues[ends[0]] != clues[ends[1]]:
            problems.append(f"the line from {cell_name(*ends[0])} joins {clues[ends[0]]} to {clues[ends[1]]}")
    return verdict(NAME, problems, edges=len(edges))


class NumberlinkPlugin(Plugin):
    """Numberlink: the verifier of the published rules (drawn from the spec's looks)."""

    name = "numberlink"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = NumberlinkPlugin()
