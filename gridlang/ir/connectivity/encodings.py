"""What the backends' native connectivity encodings share: the arcs of a flow.

The encodings themselves are stated in the package docstring
(:mod:`gridlang.ir.connectivity`) and lowered by each backend in its own
terms (integer flows for CP-SAT, continuous ones for the MILP, clauses for
MaxSAT); the graph they run on is computed here once.
"""

from __future__ import annotations

from gridlang.core.grid import Grid
from gridlang.ir.model import Connected


def flow_arcs(grid: Grid, con: Connected) -> list[tuple[int, int]]:
    """Directed arcs ``(u, v)`` of the grid graph between candidate members.

    Returns:
        Both directions of every edge whose two ends appear in ``con.members``,
        sorted; arcs into a root are left out (roots only send flow).
    """
    cand = {cell for cell, _ in con.members}
    roots = set(con.roots)
    arcs = []
    for u in sorted(cand):
        for v in grid.neighbours[u]:
            if v in cand and v not in roots:
                arcs.append((u, v))
    return arcs
