"""The Heyawake plug-in: its rules, checked on an answer.

Published rules (Nikoli's Heyawake, as on puzz.link): shade cells so that
no two shaded cells share a side; the unshaded cells form one side-connected
area; a room with a number holds exactly that many shaded cells; and no
horizontal or vertical run of consecutive unshaded cells crosses more than
one room border. The answer is the decision ``shaded``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import cells_text, number, pieces, room_index, rooms, side_neighbours, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Heyawake"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Heyawake answer: room counts, shaded cells apart, unshaded connected, short runs."""
    shaded = set(solution.true_cells("shaded"))
    rows, cols = grid.rows, grid.cols
    problems = []
    room_of = room_index(grid)
    if room_of is None:
        return verdict(NAME, ["the map has no rooms"])
    for room in rooms(grid):
        numbers = [number(grid.chars[i]) for i in room if number(grid.chars[i]) is not None]
        count = sum(1 for i in room if i in shaded)
        for n in numbers:
            if n != count:
                problems.append(f"the room at {cell_name(*divmod(room[0], cols))} has {count} shaded cells, not {n}")
    for i in sorted(shaded):
        close = [j for j in side_neighbours(rows, cols, i) if j in shaded and j > i]
        if close:
            problems.append(f"the shaded cells {cells_text(grid, [i] + close)} share a side")
    if len(pieces(rows, cols, set(range(rows * cols)) - shaded)) > 1:
        problems.append("the unshaded cells are not one connected area")
    lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
    lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
    for line in lines:
        run: list[int] = []
        for i in line + [None]:
            if i is not None and i not in shaded:
                run.append(i)
                continue
            borders = sum(1 for a, b in zip(run, run[1:]) if room_of[a] != room_of[b])
            if borders > 1:
                problems.append(f"the unshaded run {cells_text(grid, run)} crosses {borders} room borders")
            run = []
    return verdict(NAME, problems, shaded=len(shaded))


class HeyawakePlugin(Plugin):
    """Heyawake: the verifier of the published rules (drawn from the spec's looks)."""

    name = "heyawake"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = HeyawakePlugin()
