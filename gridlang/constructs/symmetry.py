"""Point symmetry: ``S is symmetric about x``, a region unchanged by the half-turn about a point.

``S is symmetric about x`` (a rule of its own, under ``for each`` as any
rule, never inside a condition) says that the half-turn about the point x maps
the cell set S onto itself: for every cell p of S, the cell ``2x - p`` is a
cell of the grid and is in S. The point x is a cell's centre (a cell
variable, ``p + d``), the middle of a border between two cells (a ``for
each`` variable over a tile on borders) or a corner of the cells (a corner
of the lattice: ``for each corner v``, a tile on corners, ``v + d``): the
dot positions of pzprjs's Tentaisho (``tentaisho``: "divide the grid into
regions, each holding exactly one dot and point-symmetric about it";
pzprjs's check ``bkNotSymSt``). The region is any cell set: the cells a
decision gives one value (``owner = c``), a component along a decision on
edges (``component of p along joined``), a Boolean decision's cells. The
empty set is symmetric about every point.

The points are counted on the doubled lattice: cell ``(r, c)`` is ``(2r +
1, 2c + 1)``, the border between cells ``(r, c)`` and ``(r, c + 1)`` is
``(2r + 1, 2c + 2)``, corner ``(r, c)`` (the top-left corner of cell ``(r,
c)``) is ``(2r, 2c)``; the mirror of cell ``(r, c)`` about the point ``(y,
x)`` is the cell ``(y - r - 1, x - c - 1)``.

What it costs: for each cell p the set may hold (its literal ``s(p)``),
one clause, ``not s(p) or s(2x - p)``, or ``not s(p)`` when the mirror is
off the grid or never in S: linear in the cells the set may hold, with
no new variable. A partition into regions symmetric about their dots
(Tentaisho, ``puzzles/tentaisho.grid``) is then the cells times the dots,
never a quantification over pairs of cells; on a component along edges,
the unit clauses leave it only the cells within reach of the dot.

The lowering (``_lower``) reads the compiler's literals; the evaluation
(``_violation``) reads the answer's cells and looks for a cell whose
mirror is missing: they share nothing but the node and the arithmetic of
the doubled lattice, which is the meaning itself.
"""

from __future__ import annotations

from typing import ClassVar

from gridlang.core.errors import SemanticError, Span
from gridlang.core.nodes import field, node
from gridlang.ir.literals import neg
from gridlang.language import ast
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import Construct, register


@node
class Symmetric:
    """``S is symmetric about x``: the half-turn about the point x (a cell, a border, a corner) maps
    the cell set S onto itself."""

    region: object
    point: object
    span: Span | None = field(default=None, compare=False)


def mirror(point: tuple[int, int], r: int, c: int, rows: int, cols: int) -> tuple[int, int] | None:
    """The cell ``(row, col)`` the half-turn about ``point`` (on the doubled lattice: a cell ``(2r + 1,
    2c + 1)``, a border between two cells, a corner ``(2r, 2c)``) maps cell ``(r, c)`` to, or None
    when that cell is off an ``rows x cols`` grid."""
    mr, mc = point[0] - r - 1, point[1] - c - 1
    return (mr, mc) if 0 <= mr < rows and 0 <= mc < cols else None


def _where(e) -> Span | None:
    return getattr(e, "span", None)


def _type(checker, e: Symmetric) -> Type | None:
    if checker.nested:
        checker.error("'is symmetric about' is a rule of its own: it cannot stand inside not, and, or or an "
                      "aggregate; state it on its own line", e.span)
        return None
    ok = True
    if not (checker.is_cell(e.point) or checker.is_corner(e.point) or checker.is_border(e.point)):
        t = checker.type_of(e.point)
        what = t.value if t is not None else "not a point"
        checker.error(f"'is symmetric about' takes a point: one cell (a 'for each' cell variable, p + d), one "
                      f"border (for each b in a tile on borders) or one corner (for each corner v, a tile on "
                      f"corners, v + d); this is {what}", _where(e.point) or e.span)
        ok = False
    t = checker.type_of(e.region)
    if t is not None and not t.is_cells:
        checker.error(f"'is symmetric about' applies to a set of cells; this is {t.value}",
                      _where(e.region) or e.span)
        ok = False
    return Type.BOOL if ok and t is not None else None


def _point(compiler, e) -> tuple[int, int] | None:
    """The point ``e`` on the doubled lattice (None off the grid or the lattice)."""
    bound = compiler.bound.get(e.id) if isinstance(e, ast.Name) else None
    if bound is not None and bound[0] == "border":
        (r1, c1), (r2, c2) = (compiler.grid.cell(i) for i in bound[1])
        return r1 + r2 + 1, c1 + c2 + 1
    if compiler.is_corner(e):
        v = compiler.corner_of(e)
        return None if v is None else (2 * v[0], 2 * v[1])
    i = compiler.cell_of(e)
    if i is None:
        return None
    r, c = compiler.grid.cell(i)
    return 2 * r + 1, 2 * c + 1


def _lower(compiler, e: Symmetric, guard: tuple[int, ...]) -> None:
    """One clause per cell the region may hold: its mirror is in the region too."""
    span = compiler.current.span if compiler.current is not None else e.span
    point = _point(compiler, e.point)
    if point is None:
        raise SemanticError("'is symmetric about' names a point off the grid here", _where(e.point) or e.span,
                            source=compiler.spec.source)
    grid = compiler.grid
    members = compiler.members(e.region, None)
    undo = [neg(g) for g in guard]
    for i, lit in sorted(members.items()):
        if lit is False:
            continue
        m = mirror(point, *grid.cell(i), grid.rows, grid.cols)
        other = False if m is None else members.get(grid.index(*m), False)
        if other is True:
            continue
        if lit is True and other is False:
            compiler.fails(guard, e, i)
            continue
        compiler.clause(undo + [neg(lit)] + ([] if other is False else [other]), span)


def _violation(interpreter, e: Symmetric) -> tuple[str, frozenset[int]] | None:
    """None when the region's cells are their own mirror image about the point; else the first cell
    whose mirror is missing."""
    grid = interpreter.grid
    rows, cols = grid.rows, grid.cols
    if isinstance(e.point, ast.Name) and e.point.id in interpreter.bordervars:
        (r1, c1), (r2, c2) = interpreter.border_cells(interpreter.bordervars[e.point.id])
        point = r1 + r2 + 1, c1 + c2 + 1
    elif interpreter.is_corner(e.point):
        v = interpreter.corner(e.point)
        if v is None:
            return None
        point = 2 * v[0], 2 * v[1]
    else:
        i = interpreter.cell(e.point)
        if i is None:
            return None
        point = 2 * (i // cols) + 1, 2 * (i % cols) + 1
    cells = interpreter.cells(e.region)
    for i in sorted(cells):
        m = mirror(point, i // cols, i % cols, rows, cols)
        j = None if m is None else m[0] * cols + m[1]
        if j not in cells:
            where = "off the grid" if j is None else f"row {m[0] + 1}, column {m[1] + 1}, not in it"
            sentence = (f"the region is not symmetric about the point: row {i // cols + 1}, column {i % cols + 1} "
                        f"is in it, and its mirror image is {where}")
            return sentence, frozenset({i})
    return None


class SymmetricConstruct(Construct):
    """The hooks of :class:`Symmetric` (see :mod:`gridlang.language.constructs`)."""

    node = Symmetric
    rules: ClassVar[dict] = {"symmetric": lambda t, meta, c: Symmetric(c[0], c[1], t.sp(meta))}
    statement = True

    def type_of(self, checker, e: Symmetric):
        return _type(checker, e)

    def assert_rule(self, compiler, e: Symmetric, guard: tuple[int, ...]) -> None:
        _lower(compiler, e, guard)

    def rule_violation(self, interpreter, e: Symmetric):
        return _violation(interpreter, e)


register(SymmetricConstruct())
