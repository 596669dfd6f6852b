"""The Nurikabe plug-in: its rules, checked on an answer.

Published rules (Nikoli's Nurikabe, as on puzz.link): shade cells so that
the shaded cells form one orthogonally connected wall without a 2 x 2 block
of shaded cells; each orthogonally connected area of unshaded cells (an
island) holds exactly one number, and has as many cells as that number;
numbered cells are unshaded. A number not given (``?``, as pzprjs draws
it) is a number whose island may have any size. The answer is the decision
``shaded``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import cells_text, number, pieces, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Nurikabe"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Nurikabe answer: one wall, no 2 x 2 pool, one number per island equal to its size."""
    shaded = set(solution.true_cells("shaded"))
    rows, cols = grid.rows, grid.cols
    problems = []
    clues = {i: number(grid.chars[i]) for i in range(rows * cols)
             if number(grid.chars[i]) is not None or grid.chars[i] == "?"}  # None: a number not given
    on_clue = sorted(set(clues) & shaded)
    if on_clue:
        problems.append(f"numbered cells are shaded: {cells_text(grid, on_clue)}")
    walls = pieces(rows, cols, shaded)
    if len(walls) > 1:
        problems.append(f"the shaded cells fall into {len(walls)} walls")
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = [r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1]
            if all(i in shaded for i in block):
                problems.append(f"the 2 x 2 block at {cell_name(r, c)} is shaded")
    for island in pieces(rows, cols, set(range(rows * cols)) - shaded):
        numbers = [clues[i] for i in island if i in clues]
        if len(numbers) != 1:
            problems.append(f"the island of {cells_text(grid, island[:1])} holds {len(numbers)} numbers, not 1")
        elif numbers[0] is not None and numbers[0] != len(island):
            problems.append(f"the island of {cells_text(grid, island[:1])} has {len(island)} cells, "
                            f"not {numbers[0]}")
    return verdict(NAME, problems, shaded=len(shaded))


class NurikabePlugin(Plugin):
    """Nurikabe: the verifier of the published rules (drawn from the spec's looks)."""

    name = "nurikabe"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = NurikabePlugin()
