"""The Statue Park plug-in: its rules, checked on an answer.

Published rules (Statue Park, as on puzz.link): place every piece of the
bank on the grid as shaded cells, each exactly once (rotations and
reflections allowed), so that no two pieces share a side, every black circle
is shaded, no white circle is, and the unshaded cells form one side-connected
area. The bank is the parameter ``pieces`` (default: the twelve
pentominoes), a list of shapes; a spec may instead give ``piece_sizes``, all
tetrominoes for each 4 listed and all pentominoes for each 5. The answer is
the decision ``shaded``; map characters ``o`` a white circle, ``*`` a black
circle.
"""

from __future__ import annotations

from collections import Counter

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import PENTOMINOES, TETROMINOES, cells_text, form_letter, free_form, pieces, verdict
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Statue Park"


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Statue Park answer: the pieces of the bank, apart, on the black circles, off the white ones."""
    shaded = set(solution.true_cells("shaded"))
    rows, cols = grid.rows, grid.cols
    problems = []
    bank: Counter = Counter()
    if "pieces" in params:
        bank.update(_name(free_form(shape)) for shape in params["pieces"])
    else:
        sizes = params.get("piece_sizes", (5,))
        for k in sizes if isinstance(sizes, (tuple, list)) else (sizes,):
            table = {4: TETROMINOES, 5: PENTOMINOES}.get(int(k))
            if table is None:
                return verdict(NAME, [f"the verifier knows banks of tetrominoes and pentominoes, not of size {k}"])
            bank.update(f"{k}{letter}" for letter in table)
    placed: Counter = Counter()
    for piece in pieces(rows, cols, shaded):
        name = _name(free_form(divmod(i, cols) for i in piece))
        if name not in bank:
            problems.append(f"the shaded cells {cells_text(grid, piece)} are no piece of the bank")
        else:
            placed[name] += 1
    if placed != bank and not problems:
        missing, extra = bank - placed, placed - bank
        problems.append(f"the pieces placed differ from the bank: missing {sorted(missing.elements())}, "
                        f"extra {sorted(extra.elements())}")
    for i, ch in enumerate(grid.chars):
        if ch == "*" and i not in shaded:
            problems.append(f"the black circle at {cell_name(*divmod(i, cols))} is not covered")
        if ch == "o" and i in shaded:
            problems.append(f"the white circle at {cell_name(*divmod(i, cols))} is covered")
    if len(pieces(rows, cols, set(range(rows * cols)) - shaded)) > 1:
        problems.append("the unshaded cells are not one connected area")
    return verdict(NAME, problems, pieces=sum(placed.values()))


def _name(form: tuple) -> str:
    """A free shape's name: ``4L``, ``5F`` for a tetromino or pentomino, else its rows (``##/#.``)."""
    letter = form_letter(form)
    if letter is not None:
        return f"{len(form)}{letter}"
    height, width = max(r for r, _ in form) + 1, max(c for _, c in form) + 1
    return "/".join("".join("#" if (r, c) in form else "." for c in range(width)) for r in range(height))


class StatueParkPlugin(Plugin):
    """Statue Park: the verifier of the published rules (drawn from the spec's looks)."""

    name = "statuepark"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = StatueParkPlugin()
