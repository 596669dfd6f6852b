"""The Star Battle plug-in: its rules, checked on an answer.

Published rules (Hans Eendebak's Star Battle, as on puzz.link): place stars
so that every row, every column and every outlined room holds exactly N
stars (N is the instance's ``stars``, 1 when absent), and no two stars touch,
not even at a corner. The answer is the decision ``star`` (its true cells).
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import cells_text, rooms, touching, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Star Battle"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Star Battle answer against the rules.

    Args:
        grid: the instance: its size and room labels are read.
        solution: the answer; ``star`` lists the cells with a star.
        params: ``stars`` (default 1).
        variant: unused.
    """
    stars = set(solution.true_cells("star"))
    n = int(params.get("stars", 1))
    rows, cols = grid.rows, grid.cols
    problems = []
    lines = [(f"row {r + 1}", range(r * cols, (r + 1) * cols)) for r in range(rows)]
    lines += [(f"column {c + 1}", range(c, rows * cols, cols)) for c in range(cols)]
    lines += [(f"the room at {cell_name(*divmod(room[0], cols))}", room) for room in rooms(grid)]
    if not rooms(grid):
        problems.append("the map has no rooms")
    for name, cells in lines:
        held = [i for i in cells if i in stars]
        if len(held) != n:
            problems.append(f"{name} holds {len(held)} stars, not {n}")
    for i in sorted(stars):
        close = [j for j in touching(rows, cols, i) if j in stars and j > i]
        if close:
            problems.append(f"the stars at {cells_text(grid, [i] + close)} touch")
    return verdict(NAME, problems, stars=len(stars))


class StarBattlePlugin(Plugin):
    """Star Battle: the verifier of the published rules (drawn from the spec's looks)."""

    name = "starbattle"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = StarBattlePlugin()
