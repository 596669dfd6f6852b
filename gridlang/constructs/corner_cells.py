"""The cells around a corner, ``cells(v)``, and the two cells of a border, ``cells(b)``.

A corner of the lattice of cell corners (``for each corner v``, a corner of
a tile ``on corners``, ``v + d``) touches up to four cells: the cells whose
corner it is, two on the frame and one at the frame's corners. ``cells(v)``
is that set, fixed by the map, so that a clue on a corner speaks of the
cells around it as pzprjs's crosses do (Creek's number counts the shaded
cells among the four around it: ``count(shaded and cells(v)) == value(v)``,
pzprjs's ``cellinside`` of the cross). It is the converse of ``corners(p)``
(:mod:`gridlang.constructs.edges`): ``p in cells(v)`` exactly when ``v`` is
one of ``corners(p)``.

A border between two side-adjacent cells (``for each b in T``, T a tile
``on borders``) has two cells, the left or upper one first as pzprjs's
``sidecell``; ``cells(b)`` is that pair, so that a clue on a border speaks
of the cells on either side of it: Kropki's white dot asks them to differ
by one, ``for each b in white, each p in cells(b), each q in cells(b): q =
p + right or q = p + down implies ...`` names them in order.

What it costs: nothing in the model; up to four cells per use and binding
while compiling. Off the lattice (``v + d`` past the frame) it is empty.
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language import ast
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import Construct, register


class CellsOf(Record):
    """``cells(v)``: the up to four cells around the corner ``corner``, or the two cells of a border
    (``corner`` then names the border)."""

    corner: object
    span: Span | None = field(default=None, compare=False)


class CellsAround(Construct):
    """The hooks of :class:`CellsOf` (see :mod:`gridlang.language.constructs`)."""

    node = CellsOf
    rules = {"cells_of": lambda t, meta, c: CellsOf(c[0], t.sp(meta))}

    def type_of(self, checker, e: CellsOf):
        if checker.is_corner(e.corner) or checker.is_border(e.corner):
            return Type.FIXED
        what = "a cell" if checker.is_cell(e.corner) else "not one corner or border"
        checker.error(f"cells(...) takes one corner of the lattice of cell corners (for each corner v, a tile on "
                      f"corners, v + d) or one border (for each b in a tile on borders); this is {what} (the "
                      f"cells around a cell are neighbours(p))", getattr(e.corner, "span", None) or e.span)
        return None

    def members(self, compiler, e: CellsOf, within) -> dict:
        bound = compiler.bound.get(e.corner.id) if isinstance(e.corner, ast.Name) else None
        if bound is not None and bound[0] == "border":
            cells = compiler.grid.border_sides(bound[1])  # the border's two cells, or one on the frame
        else:
            v = compiler.corner_of(e.corner)
            cells = () if v is None else compiler.grid.corner_cells(*v)
        return {i: True for i in cells if within is None or i in within}

    def cells(self, interpreter, e: CellsOf) -> frozenset[int]:
        if isinstance(e.corner, ast.Name) and e.corner.id in interpreter.bordervars:
            # a border: the cells on either side (pzprjs's order of the borders), one for the frame's
            return frozenset(interpreter.grid.border_sides(interpreter.bordervars[e.corner.id]))
        # the cells whose corners(p) hold v: v is the top-left, top-right, bottom-left or bottom-right corner
        v = interpreter.corner(e.corner)
        if v is None:
            return frozenset()
        rows, cols = interpreter.grid.rows, interpreter.grid.cols
        found = set()
        for down, right in ((0, 0), (0, 1), (1, 0), (1, 1)):  # v's offset from the cell's top-left corner
            r, c = v[0] - down, v[1] - right
            if 0 <= r < rows and 0 <= c < cols:
                found.add(r * cols + c)
        return frozenset(found)


register(CellsAround())
