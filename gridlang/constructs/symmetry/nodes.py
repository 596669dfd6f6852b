"""The nodes of point symmetry: ``S is symmetric about x`` and ``wall divides S into regions symmetric about T``.

The one thing the lowering (:mod:`.lower`) and the evaluation
(:mod:`.evaluate`) share besides the AST: the arithmetic of the doubled
lattice (:func:`mirror`, :func:`cells_at`), which is the meaning itself
(:mod:`gridlang.constructs.symmetry` states it).
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field

Point = tuple[int, int]
"""A point of the doubled lattice: cell ``(r, c)`` is ``(2r + 1, 2c + 1)``, the border between cells
``(r, c)`` and ``(r, c + 1)`` is ``(2r + 1, 2c + 2)``, corner ``(r, c)`` is ``(2r, 2c)``."""


class Symmetric(Record):
    """``S is symmetric about x``: the half-turn about the point x (a cell, a border, a corner) maps
    the cell set S onto itself."""

    region: object
    point: object
    span: Span | None = field(default=None, compare=False)


class Divides(Record):
    """``wall divides S into regions symmetric about T, ...``: the chosen edges of ``wall`` cut the cells
    of S into regions, each holding exactly one point of the tiles T (on cells, borders or corners)
    and symmetric about it."""

    wall: object
    cells: object
    points: tuple
    span: Span | None = field(default=None, compare=False)


def mirror(point: Point, r: int, c: int, rows: int, cols: int) -> tuple[int, int] | None:
    """The cell ``(row, col)`` the half-turn about ``point`` maps cell ``(r, c)`` to, or None when that
    cell is off an ``rows x cols`` grid."""
    mr, mc = point[0] - r - 1, point[1] - c - 1
    return (mr, mc) if 0 <= mr < rows and 0 <= mc < cols else None


def cells_at(point: Point) -> tuple[tuple[int, int], ...]:
    """The cells ``(row, col)`` the point touches: its cell, the two cells of its border, the four cells
    of its corner (some of them off the grid for a point on the frame)."""
    y, x = point
    rows = (y // 2,) if y % 2 else (y // 2 - 1, y // 2)
    cols = (x // 2,) if x % 2 else (x // 2 - 1, x // 2)
    return tuple((r, c) for r in rows for c in cols)


def point_name(point: Point) -> str:
    """How a message names the point: ``the dot on row 2, column 3``, ``... on the border right of ...``."""
    y, x = point
    if y % 2 and x % 2:
        return f"row {y // 2 + 1}, column {x // 2 + 1}"
    if y % 2:
        return f"the border between row {y // 2 + 1}, columns {x // 2} and {x // 2 + 1}"
    if x % 2:
        return f"the border between column {x // 2 + 1}, rows {y // 2} and {y // 2 + 1}"
    return f"the corner between rows {y // 2} and {y // 2 + 1}, columns {x // 2} and {x // 2 + 1}"
