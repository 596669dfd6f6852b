"""The LITS plug-in: its rules, checked on an answer.

Published rules (Nikoli's LITS, as on puzz.link): shade a tetromino (four
side-connected cells) in every outlined room; all shaded cells form one
side-connected area; no 2 x 2 block is shaded; two tetrominoes of the same
shape (rotations and reflections count as the same) do not share a side.
The answer is the decision ``shaded``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import cells_text, piece_letter, pieces, room_index, rooms, side_neighbours, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "LITS"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a LITS answer: a tetromino per room, one connected area, no pool, no touching twins."""
    shaded = set(solution.true_cells("shaded"))
    rows, cols = grid.rows, grid.cols
    problems = []
    room_of = room_index(grid)
    if room_of is None:
        return verdict(NAME, ["the map has no rooms"])
    letter: dict[int, str | None] = {}
    for k, room in enumerate(rooms(grid)):
        held = [i for i in room if i in shaded]
        letter[k] = piece_letter(grid, held) if len(held) == 4 and len(pieces(rows, cols, held)) == 1 else None
        if letter[k] is None:
            problems.append(f"the room at {cell_name(*divmod(room[0], cols))} holds {cells_text(grid, held) or 'no cell'}, "
                            f"not a tetromino")
    if len(pieces(rows, cols, shaded)) > 1:
        problems.append("the shaded cells are not one connected area")
    for r in range(rows - 1):
        for c in range(cols - 1):
            if all(i in shaded for i in (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)):
                problems.append(f"the 2 x 2 block at {cell_name(r, c)} is shaded")
    for i in sorted(shaded):
        for j in side_neighbours(rows, cols, i):
            if j > i and j in shaded and room_of[i] != room_of[j] and letter[room_of[i]] is not None \
                    and letter[room_of[i]] == letter[room_of[j]]:
                problems.append(f"two {letter[room_of[i]]} tetrominoes touch at {cells_text(grid, [i, j])}")
    return verdict(NAME, problems, shaded=len(shaded))


class LitsPlugin(Plugin):
    """LITS: the verifier of the published rules (drawn from the spec's looks)."""

    name = "lits"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = LitsPlugin()
