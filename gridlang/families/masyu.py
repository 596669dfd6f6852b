"""The Masyu plug-in: its rules, checked on an answer.

Published rules (Nikoli's Masyu, as on puzz.link ``mashu``): draw one
single loop through the centres of cells, moving between side neighbours,
without crossing or branching. It passes through every circle. On a black
circle it turns, and it goes straight through the next cell on both sides.
On a white circle it goes straight, and it turns in at least one of the
two cells next to it along the loop. The answer is the decision ``line``,
on edges between cells; ``o`` is a white circle in the map, ``*`` a black one.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name, edge_adjacency
from gridlang.families.common import verdict
from gridlang.families.lines import chosen_edges, loop_problems
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Masyu"


def _shape(adj, p) -> str:
    """``straight``, ``turn`` or ``none`` for the line at cell p."""
    ws = adj.get(p, [])
    if len(ws) != 2:
        return "none"
    (r1, c1), (r2, c2) = ws
    return "straight" if r1 == r2 or c1 == c2 else "turn"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Masyu answer: one loop, through every circle, turning and going straight as the circles say."""
    edges = chosen_edges(solution)
    problems = loop_problems(edges)
    adj = edge_adjacency(edges)
    for i, ch in enumerate(grid.chars):
        if ch not in ("o", "*"):
            continue
        p = divmod(i, grid.cols)
        if p not in adj:
            problems.append(f"the loop misses the circle at {cell_name(*p)}")
            continue
        here = _shape(adj, p)
        near = [_shape(adj, q) for q in adj[p]]
        if ch == "*":
            if here != "turn":
                problems.append(f"the loop does not turn on the black circle at {cell_name(*p)}")
            elif any(s != "straight" for s in near):
                problems.append(f"the loop does not go straight next to the black circle at {cell_name(*p)}")
        else:
            if here != "straight":
                problems.append(f"the loop does not go straight through the white circle at {cell_name(*p)}")
            elif all(s != "turn" for s in near):
                problems.append(f"the loop turns next to the white circle at {cell_name(*p)} on neither side")
    return verdict(NAME, problems, edges=len(edges))


class MasyuPlugin(Plugin):
    """Masyu: the verifier of the published rules (drawn from the spec's looks)."""

    name = "masyu"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = MasyuPlugin()
