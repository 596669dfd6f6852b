"""Triangles: a cell decision whose values are half-cell triangles, Shakashaka's, and ``NAME leaves rectangles``.

``decide tri: {'.', '◣', '◢', '◥', '◤'} on blank`` is an enumerated
decision like any other (``tri[p] = '◣'``, ``count(tri[q] != '.' for q in
neighbours(c))``); what makes four of its values triangles is their
geometry. A triangle is half of its cell, cut along a diagonal, its right
angle in one corner; pzprjs numbers them by that corner (``qans`` of
``shakashaka.js``, turned and flipped by its ``adjustBoardData``):

=====  ============  ===========  =====================================
value  pzprjs qans   right angle  sides of the cell it covers
=====  ============  ===========  =====================================
``◣``  2             bottom-left  left, bottom
``◢``  3             bottom-right bottom, right
``◥``  4             top-right    top, right
``◤``  5             top-left     top, left
=====  ============  ===========  =====================================

A triangle shades its right angle's corner wholly, the two corners at the
ends of its hypotenuse by half (45 degrees, along the side it covers), and
the opposite corner not at all. A value that is no triangle (``'.'``, a
blank) leaves its cell white; a cell the decision is not made on (a clue
cell) counts as black, and so does the outside of the grid.

``covers(tri, p, d)`` (a condition) says that the triangle in cell p
covers p's side toward direction d (``up``, ``down``, ``left``, ``right``,
a ``for each direction`` variable): the right angle's corner is where the
two sides it covers meet, the corners it shades by half the other ends of
those sides. False on a cell without a triangle, the decision or off the
grid. Lowered as the ``or`` of the two values that cover that side (a
Tseitin variable when both can), evaluated from the answer's value.

``NAME leaves rectangles`` (a rule of its own) says that the white area the
decision leaves, cut into its pieces by the triangles and the black cells,
is a set of rectangles, upright or turned by 45 degrees: Shakashaka's rule
(Nikoli; pzprjs's ``checkWhiteArea``, ``cuNotRectx``).

The lowering, local at each cross of the lattice (a corner of cells, the
frame's included): the eight 45-degree angles around a cross, two from
each of the four cells around it, are white or shaded, each angle the
quarter of its cell next to the side it touches (a cell's quarter is cut by
both diagonals, and a triangle covers two whole quarters). A white piece's
outline only turns at crosses, and a polygon whose every angle is 90
degrees is a rectangle; so the white area is rectangles exactly when, at
every cross, every run of white angles around it is 2 long (a right angle:
a corner of a rectangle), 4 (a straight side through the cross) or all 8
(the cross inside a piece). One clause forbids each run of 1, 3, 5, 6 or 7
white angles between shaded ones: at most 40 clauses a cross, 40 (R + 1)
(C + 1) in all, fewer where black cells and the frame fix angles, of up to
8 literals each, and one Tseitin ``or`` per cell side (its quarter shaded
by one of two triangles): no other variable and no connectivity.

The verifier reads the rule from its statement, sharing nothing with that:
the white quarters of the answer's cells are joined into pieces by a
breadth-first search (two quarters touch across a half-diagonal inside a
cell, or across a cell side), and each piece must fill its bounding box,
upright or turned by 45 degrees.
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar

from gridlang.core.errors import GridSyntaxError, SemanticError, Span
from gridlang.core.grid import cell_name
from gridlang.core.nodes import Record, field
from gridlang.ir.literals import neg
from gridlang.language import ast
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import Construct, register
from gridlang.language.looks import TRIANGLE_VALUES

TRIANGLES = TRIANGLE_VALUES
"""The values that are triangles, in pzprjs's order (its ``qans`` 2 to 5): the look ``triangles``'s."""

class Covers(Record):
    """``covers(tri, p, d)``: the triangle in cell p covers p's side toward direction d (a condition)."""

    name: ast.Name
    cell: ast.Expr
    direction: ast.Expr
    span: Span | None = field(default=None, compare=False)


class LeavesRectangles(Record):
    """``tri leaves rectangles``: the white area the triangles (and the cells without the decision) leave
    is a set of rectangles, upright or turned by 45 degrees; a rule of its own."""

    name: ast.Name
    span: Span | None = field(default=None, compare=False)


def is_triangle_decision(decl) -> bool:
    """Whether the decision ``decl`` (an ``ast.Decide``) is made on cells and has a triangle among its values."""
    if decl is None or decl.lattice is not None or not decl.is_enum:
        return False
    return any(isinstance(part, ast.Symbol) and part.id in TRIANGLES for part in decl.domain)


# the checker ------------------------------------------------------------------------
def _type(checker, e: LeavesRectangles) -> Type | None:
    if checker.nested:
        checker.error("'leaves rectangles' is a rule of its own: it cannot stand inside not, and, or, implies or "
                      "an aggregate; state it on its own line", e.span)
        return None
    decl = checker.sym.decisions.get(e.name.id)
    if is_triangle_decision(decl):
        return Type.BOOL
    if decl is not None:
        what = "a decision on edges" if decl.lattice is not None else "a decision whose values are no triangles"
    else:
        kind = checker.env.get(e.name.id) or checker.sym.kind_of(e.name.id)
        what = f"a {kind}" if kind else "not declared" + checker.suggest(e.name.id)
    checker.error(f"'leaves rectangles' takes a decision on cells whose values include the triangles "
                  f"{', '.join(repr(t) for t in TRIANGLES)}; {e.name.id!r} is {what}", e.name.span)
    return None


def _covers_type(checker, e: Covers) -> Type | None:
    ok = True
    if not is_triangle_decision(checker.sym.decisions.get(e.name.id)):
        checker.error(f"covers(...) takes a decision on cells whose values include the triangles "
                      f"{', '.join(repr(t) for t in TRIANGLES)}; {e.name.id!r} has none", e.name.span)
        ok = False
    if not checker.is_direction(e.direction):
        checker.error("the third argument of covers(...) is a direction: up, down, left, right, or a 'for each "
                      "direction' variable", getattr(e.direction, "span", None) or e.span)
        ok = False
    return Type.BOOL if checker.cell(e.cell, "covers(...)") and ok else None


# the compiler's reading -------------------------------------------------------------
_SIDE_OF_STEP = {(-1, 0): "top", (0, 1): "right", (1, 0): "bottom", (0, -1): "left"}
"""A direction's step and the side of a cell it goes through."""


def _covers_lit(compiler, e: Covers):
    p = compiler.cell_of(e.cell)
    step = compiler.step_of(e.direction)
    if p is None or step is None:
        return False
    lits = compiler.enum_lits[e.name.id][p] or {}
    return compiler.combine(False, [lits.get(t, False) for t in _SHADING[_SIDE_OF_STEP[step]]], None)



_SHADING = {"top": ("◥", "◤"), "right": ("◢", "◥"), "bottom": ("◣", "◢"), "left": ("◣", "◤")}
"""The triangles that shade the quarter of a cell next to each of its sides."""

_AROUND = ((-1, 0, "left"), (-1, 0, "bottom"), (0, 0, "top"), (0, 0, "left"),
           (0, -1, "right"), (0, -1, "top"), (-1, -1, "bottom"), (-1, -1, "right"))
"""The eight angles around the cross ``(r, c)`` clockwise from the ray up: the cell (as an offset from the
cross) and the side of it the angle touches."""

_FORBIDDEN_RUNS = (1, 3, 5, 6, 7)
"""The lengths of a run of white angles round a cross that make no rectangle's corner or side."""


def _lower(compiler, e: LeavesRectangles, guard: tuple[int, ...]) -> None:
    if guard:
        raise SemanticError("'leaves rectangles' is a rule of its own; it cannot stand under 'implies'", e.span,
                            source=compiler.spec.source)
    span = compiler.current.span if compiler.current is not None else e.span
    per_cell = compiler.enum_lits[e.name.id]
    rows, cols = compiler.grid.rows, compiler.grid.cols
    white: dict[tuple[int, str], object] = {}

    def quarter(r: int, c: int, side: str):
        if not (0 <= r < rows and 0 <= c < cols):
            return False
        lits = per_cell[r * cols + c]
        if not lits:  # no decision here: a black cell
            return False
        key = (r * cols + c, side)
        if key not in white:
            white[key] = neg(compiler.combine(False, [lits.get(t, False) for t in _SHADING[side]], None))
        return white[key]

    for r in range(rows + 1):
        for c in range(cols + 1):
            w = [quarter(r + dr, c + dc, side) for dr, dc, side in _AROUND]
            if not any(x is not False for x in w):
                continue
            for k in _FORBIDDEN_RUNS:
                for i in range(8):
                    run = [neg(w[(i + j) % 8]) for j in range(k)]
                    bounds = [w[(i - 1) % 8]] if k == 7 else [w[(i - 1) % 8], w[(i + k) % 8]]
                    compiler.clause(bounds + run, span)


# the verifier's reading -------------------------------------------------------------
_COVERED_STEPS = {"◣": ((0, -1), (1, 0)), "◢": ((1, 0), (0, 1)), "◥": ((-1, 0), (0, 1)), "◤": ((-1, 0), (0, -1))}
"""The steps toward the two sides of its cell each triangle covers."""


def _covers_holds(interpreter, e: Covers) -> bool:
    p = interpreter.cell(e.cell)
    step = interpreter.step(e.direction)
    if p is None or step is None:
        return False
    return step in _COVERED_STEPS.get(interpreter.enums[e.name.id].get(p), ())



_COVERS = {"◣": ("W", "S"), "◢": ("S", "E"), "◥": ("N", "E"), "◤": ("N", "W")}
"""The quarters of its cell (by compass point) each triangle covers."""

_STEP = {"N": (-1, 0, "S"), "S": (1, 0, "N"), "E": (0, 1, "W"), "W": (0, -1, "E")}
"""Across a cell's side: the neighbour's offset and the quarter of it that touches this one."""

_INSIDE = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}
"""The quarters of the same cell that touch a quarter along a half-diagonal."""


def _corners(r: int, c: int, q: str) -> tuple[tuple[int, int], ...]:
    """The three corners of cell (r, c)'s quarter q, in half cells (y, x)."""
    y, x = 2 * r, 2 * c
    centre = (y + 1, x + 1)
    return {"N": ((y, x), (y, x + 2)), "S": ((y + 2, x), (y + 2, x + 2)),
            "W": ((y, x), (y + 2, x)), "E": ((y, x + 2), (y + 2, x + 2))}[q] + (centre,)


def _violation(interpreter, e: LeavesRectangles) -> tuple[str, frozenset[int]] | None:
    rows, cols = interpreter.grid.rows, interpreter.grid.cols
    values = interpreter.enums[e.name.id]
    decided = interpreter.on[e.name.id]

    def is_white(r: int, c: int, q: str) -> bool:
        p = r * cols + c
        if not (0 <= r < rows and 0 <= c < cols) or p not in decided:
            return False
        return q not in _COVERS.get(values.get(p), ())

    seen: set[tuple[int, int, str]] = set()
    for r in range(rows):
        for c in range(cols):
            for q in "NESW":
                if (r, c, q) in seen or not is_white(r, c, q):
                    continue
                piece, queue = [], deque([(r, c, q)])
                seen.add((r, c, q))
                while queue:
                    cur = queue.popleft()
                    piece.append(cur)
                    cr, cc, cq = cur
                    dr, dc, back = _STEP[cq]
                    for nxt in [(cr, cc, s) for s in _INSIDE[cq]] + [(cr + dr, cc + dc, back)]:
                        if nxt not in seen and is_white(*nxt):
                            seen.add(nxt)
                            queue.append(nxt)
                points = [pt for cr, cc, cq in piece for pt in _corners(cr, cc, cq)]
                ys, xs = [y for y, _ in points], [x for _, x in points]
                us, vs = [y + x for y, x in points], [y - x for y, x in points]
                upright = (max(ys) - min(ys)) * (max(xs) - min(xs)) == len(piece)
                turned = (max(us) - min(us)) * (max(vs) - min(vs)) == 2 * len(piece)
                if not (upright or turned):
                    cells = frozenset(cr * cols + cc for cr, cc, _ in piece)
                    first = min(cells)
                    sentence = (f"the white area at {cell_name(*divmod(first, cols))} "
                                f"({len(cells)} cells in part or whole) is no rectangle, upright or turned by 45 "
                                f"degrees")
                    return sentence, cells
    return None


# the parse tree and the hooks -------------------------------------------------------
def _parse(transformer, meta, c: list) -> LeavesRectangles:
    """``NAME leaves rectangles``: the parse-tree rule ``leaves_rectangles``, ``[NAME]``.

    Raises:
        GridSyntaxError: the left side is not a name.
    """
    if not isinstance(c[0], ast.Name):
        raise GridSyntaxError("'leaves rectangles' applies to a decision, by its name", transformer.sp(meta))
    return LeavesRectangles(c[0], transformer.sp(meta))


class LeavesRectanglesConstruct(Construct):
    """``NAME leaves rectangles``: a rule of its own."""

    node = LeavesRectangles
    rules: ClassVar[dict] = {"leaves_rectangles": _parse}
    statement = True

    def type_of(self, checker, e: LeavesRectangles):
        return _type(checker, e)

    def assert_rule(self, compiler, e: LeavesRectangles, guard: tuple[int, ...]) -> None:
        _lower(compiler, e, guard)

    def rule_violation(self, interpreter, e: LeavesRectangles):
        return _violation(interpreter, e)


class CoversConstruct(Construct):
    """``covers(tri, p, d)``: a condition."""

    node = Covers
    rules: ClassVar[dict] = {
        "covers": lambda t, meta, c: Covers(ast.Name(str(c[0]), t.sp(c[0])), c[1], c[2], t.sp(meta))}

    def type_of(self, checker, e: Covers):
        return _covers_type(checker, e)

    def condition(self, symbols, e: Covers) -> bool:
        return True

    def children(self, e: Covers) -> tuple:
        return ()

    def lit(self, compiler, e: Covers):
        return _covers_lit(compiler, e)

    def holds(self, interpreter, e: Covers) -> bool:
        return _covers_holds(interpreter, e)


register(LeavesRectanglesConstruct())
register(CoversConstruct())
