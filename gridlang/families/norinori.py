"""The Norinori plug-in: its rules, checked on an answer.

Published rules (Nikoli's Norinori, as on puzz.link): shade cells so that
every outlined room holds exactly two shaded cells and every shaded cell
shares a side with exactly one other shaded cell (the shaded cells form
dominoes, which may cross room borders). The answer is the decision
``shaded``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import cells_text, pieces, rooms, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Norinori"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Norinori answer: two shaded cells per room, the shaded cells in dominoes."""
    shaded = set(solution.true_cells("shaded"))
    problems = []
    found = rooms(grid)
    if not found:
        problems.append("the map has no rooms")
    for room in found:
        count = sum(1 for i in room if i in shaded)
        if count != 2:
            problems.append(f"the room at {cell_name(*divmod(room[0], grid.cols))} has {count} shaded cells, not 2")
    for piece in pieces(grid.rows, grid.cols, shaded):
        if len(piece) != 2:
            problems.append(f"the shaded cells {cells_text(grid, piece)} form a piece of {len(piece)}, not a domino")
    return verdict(NAME, problems, shaded=len(shaded))


class NorinoriPlugin(Plugin):
    """Norinori: the verifier of the published rules (drawn from the spec's looks)."""

    name = "norinori"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = NorinoriPlugin()
