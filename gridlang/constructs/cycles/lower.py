"""The compiler's lowering of acyclicity, through the faces of the plane: planar duality.

Each function is given the compiler (:mod:`gridlang.compiler`, its methods
as :mod:`gridlang.language.constructs` lists them) and imports nothing of
it, nor of the evaluation (:mod:`.evaluate`).

The graphs acyclicity speaks of are drawn in the plane without crossings:
lines between the centres of side-neighbouring cells, lines along the grid
(the lattice of cell corners), and slants, one diagonal at most in each
cell. For such a drawing, Euler's formula ``V - E + F = 1 + C`` (vertices,
edges, faces, components) makes it a forest exactly when it has one face:
when the plane minus the drawing is connected. Equivalently an edge lies on
a cycle exactly when it has different faces on its two sides (R. Diestel,
*Graph Theory*, 5th ed., Springer 2017, Prop. 4.6.1: the edges of a cycle
are dual to a minimal cut of the dual graph). The faces are unions of
small pieces of the plane, each piece a vertex of a *face graph*, joined
where the drawing leaves a gap between them:

on edges between cells
    the pieces are the squares around the inner corners of the grid, and
    the outside (vertex 0, the frame's corners being outside); the edge
    between two side neighbours crosses the side they share, which joins
    the two corners at its ends, open when the edge is not chosen.
on corner edges
    the pieces are the cells and the outside; an edge of the lattice is a
    side of the cells on either side of it (or of one cell and the
    outside), open when it is not chosen.
cells of a Boolean decision
    the graph whose vertices are the decision's true cells, joined to
    their side neighbours among them: the lines between cells, each
    chosen when both its cells are (a Tseitin ``and`` per pair of
    neighbours); a map that links cells (portals) is refused, as its
    graph is no longer drawn without crossings.
slants
    the pieces are the sides of the cells (the frame's sides are outside);
    within a cell, two sides that meet at a corner are in one piece unless
    the slant between them separates them: top and left, bottom and right
    are open unless the cell holds ``'\\'``; top and right, bottom and left
    unless it holds ``'/'``. A cell without a slant joins all four.

``NAME has no cycle``
    a :class:`~gridlang.ir.model.GraphConnected` node over the face graph,
    every vertex a member, rooted at the outside: every piece reaches the
    outside through open gaps. Each backend lowers it as it lowers lines'
    connectivity (CP-SAT and MILP and MaxSAT by lazy cuts, whose cut is a
    clause "some edge of this cycle is not chosen", or CP-SAT's tree with
    ``--connectivity tree``; asp by reachability). Size: one vertex per
    piece and one edge per gap (about ``2 R C`` of each; four gaps a cell
    for slants, parallel gaps merged by a Tseitin ``or``), no other
    variable; and, redundant, the shortest cycles forbidden by one clause
    each: the four edges of a square (between cells: round an inner
    corner; on corner edges: round a cell), a 2x2 block of true cells,
    and the diamond of four slants round a corner.
``p is on a cycle of slant``
    p's slant lies on a cycle exactly when its two sides (the pieces of
    p's top side and of its bottom side: whichever slant p holds, it
    parts those two) are in different faces. A member literal ``m(u)`` per
    piece, ``m`` true at p's top, the closure ``m(u) and open(u, w) ->
    m(w)`` both ways over every gap, and a :class:`GraphConnected` node
    rooted at p's top over the same gaps, so that ``m`` is exactly the
    face of p's top; the condition is ``not m(bottom of p)``. Size: one
    variable per piece, two clauses per gap, one node, per cell asked about.
"""

from __future__ import annotations

from gridlang.constructs.cycles.nodes import NoCycle, OnCycle
from gridlang.constructs.edges import DECISIONS
from gridlang.core.errors import SemanticError
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import GraphConnected

OUTSIDE = 0
"""The face graph's vertex of the outside of the grid."""

Gap = tuple[int, int, CellValue]
"""Two pieces of the plane and the literal that the gap between them is open."""



class Kept:
    """What the construct keeps while compiling (in ``compiler.collected``).

    Attributes:
        faces: decision name -> its :class:`Faces`.
        face_of: ``(decision, piece)`` -> the member literal per piece of the face that holds it.
    """

    def __init__(self) -> None:
        self.faces: dict[str, Faces] = {}
        self.face_of: dict[tuple[str, int], dict[int, CellValue]] = {}


class Faces:
    """A decision's face graph: its pieces (vertices, 0 the outside) and its gaps, parallel ones
    merged, and the pieces on either side of each cell's slant."""

    def __init__(self, count: int, gaps: dict[tuple[int, int], list[CellValue]], sides: dict[int, tuple[int, int]]):
        self.gaps = gaps
        self.sides = sides
        self.merged: list[Gap] | None = None
        used = {v for pair in gaps for v in pair} | {v for pair in sides.values() for v in pair}
        self.pieces = sorted(used | {OUTSIDE}) if sides else list(range(count))
        """The pieces, ascending (for slants, the numbers of the frame's sides are not pieces)."""

    def edges(self, compiler) -> list[Gap]:
        """The gaps, each pair once with one literal (the ``or`` of parallel gaps, made once), none that
        is never open."""
        if self.merged is None:
            self.merged = []
            for (a, b), lits in sorted(self.gaps.items()):
                lit = compiler.combine(False, lits, None)
                if lit is not False:
                    self.merged.append((a, b, lit))
        return self.merged


def _gap(gaps: dict, a: int, b: int, lit: CellValue) -> None:
    if a != b and lit is not False:
        gaps.setdefault((min(a, b), max(a, b)), []).append(lit)


def faces(compiler, name: str, kept: Kept) -> Faces:
    """The face graph of the decision ``name``: on edges, on corner edges, of slants, or of a Boolean
    decision on cells (its cells joined to their side neighbours in it, drawn as lines between cells)."""
    kept = kept.faces
    if name in kept:
        return kept[name]
    rows, cols = compiler.grid.rows, compiler.grid.cols
    gaps: dict[tuple[int, int], list[CellValue]] = {}
    sides: dict[int, tuple[int, int]] = {}
    if name in compiler.enum_lits:
        count = _slant_faces(compiler.enum_lits[name], rows, cols, gaps, sides)
    elif name in compiler.decision_lits or compiler.collected[DECISIONS].sets[name].lattice == "edges":
        def corner(r, c):  # an inner corner's piece, else the outside
            return 1 + (r - 1) * (cols - 1) + c - 1 if 0 < r < rows and 0 < c < cols else OUTSIDE
        for (u, v), lit in _lines_between_cells(compiler, name).items():
            r, c = divmod(u, cols)
            ends = ((r, c + 1), (r + 1, c + 1)) if v == u + 1 else ((r + 1, c), (r + 1, c + 1))
            _gap(gaps, corner(*ends[0]), corner(*ends[1]), neg(lit))
        count = 1 + max(rows - 1, 0) * max(cols - 1, 0)
    else:  # on corner edges
        def cell(r, c):  # a cell's piece, else the outside
            return 1 + r * cols + c if 0 <= r < rows and 0 <= c < cols else OUTSIDE
        width = cols + 1
        for (u, v), lit in compiler.collected[DECISIONS].sets[name].lits.items():
            r, c = divmod(u, width)
            pair = ((r - 1, c), (r, c)) if v == u + 1 else ((r, c - 1), (r, c))
            _gap(gaps, cell(*pair[0]), cell(*pair[1]), neg(lit))
        count = 1 + rows * cols
    kept[name] = Faces(count, gaps, sides)
    return kept[name]


def _lines_between_cells(compiler, name: str) -> dict[tuple[int, int], CellValue]:
    """The edges between side neighbours of a decision on edges, or of a Boolean decision on cells (the
    edge between two cells in it: the ``and`` of theirs), each with its literal.

    Raises:
        SemanticError: a Boolean decision on a map that links cells (portals), whose graph is no longer
            drawn without crossings.
    """
    if name not in compiler.decision_lits:
        return compiler.collected[DECISIONS].sets[name].lits
    if compiler.grid.links:
        raise SemanticError(f"'{name} has no cycle' takes the cells' side neighbours, and this map links cells "
                            f"(linked tiles), whose graph the rule does not cover", compiler.current.span,
                            source=compiler.spec.source)
    lits = compiler.decision_lits[name]
    rows, cols = compiler.grid.rows, compiler.grid.cols
    out = {}
    for u in range(rows * cols):
        r, c = divmod(u, cols)
        for v in ((u + 1,) if c + 1 < cols else ()) + ((u + cols,) if r + 1 < rows else ()):
            both = compiler.combine(True, [lits[u], lits[v]], None)
            if both is not False:
                out[(u, v)] = both
    return out


def _slant_faces(per_cell: list, rows: int, cols: int, gaps: dict, sides: dict) -> int:
    """Fill the gaps of a slant decision's face graph; return its number of pieces."""
    def across(r, c):  # the side above cell (r, c)
        return 1 + r * cols + c if 0 < r < rows else OUTSIDE

    def upright(r, c):  # the side left of cell (r, c)
        return 1 + (rows + 1) * cols + r * (cols + 1) + c if 0 < c < cols else OUTSIDE

    for p, lits in enumerate(per_cell):
        r, c = divmod(p, cols)
        top, bottom, left, right = across(r, c), across(r + 1, c), upright(r, c), upright(r, c + 1)
        lits = lits or {}
        back, forward = neg(lits.get("\\", False)), neg(lits.get("/", False))
        for a, b, lit in ((top, left, back), (bottom, right, back), (top, right, forward), (bottom, left, forward)):
            _gap(gaps, a, b, lit)
        sides[p] = (top, bottom)
    return 1 + (rows + 1) * cols + rows * (cols + 1)  # the frame's sides, outside, leave their numbers unused


def no_cycle(compiler, f: NoCycle, guard: tuple[int, ...], kept: Kept) -> None:
    """``NAME has no cycle``: every piece of the face graph reaches the outside."""
    if guard:
        raise SemanticError("'has no cycle' is a rule of its own; it cannot stand under 'implies'", f.span,
                            source=compiler.spec.source)
    span = compiler.current.span if compiler.current is not None else f.span
    name = f.name.id
    fg = faces(compiler, name, kept)
    _shortest_cycles(compiler, name, span)
    true = compiler.lit(True)
    members = tuple((v, true) for v in fg.pieces)
    edges = tuple((a, b, compiler.lit(lit)) for a, b, lit in fg.edges(compiler))
    compiler.constraints.append(GraphConnected(members, edges, (OUTSIDE,), False, name, span))


def _shortest_cycles(compiler, name: str, span) -> None:
    """The redundant clauses: no square of four chosen edges, no diamond of four slants."""
    rows, cols = compiler.grid.rows, compiler.grid.cols
    if name in compiler.enum_lits:
        per_cell = compiler.enum_lits[name]
        for r in range(rows - 1):
            for c in range(cols - 1):
                quad = [(per_cell[(r + dr) * cols + c + dc] or {}).get(s, False)
                        for dr, dc, s in ((0, 0, "/"), (0, 1, "\\"), (1, 0, "\\"), (1, 1, "/"))]
                compiler.clause([neg(x) for x in quad], span)
        return
    if name in compiler.decision_lits:  # no 2x2 block of the cells
        lits = compiler.decision_lits[name]
        for r in range(rows - 1):
            for c in range(cols - 1):
                compiler.clause([neg(lits[(r + dr) * cols + c + dc]) for dr in (0, 1) for dc in (0, 1)], span)
        return
    es = compiler.collected[DECISIONS].sets[name]
    w = es.width
    for r in range(es.height - 1):
        for c in range(w - 1):
            tl, tr, bl, br = r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1
            keys = [es.key(tl, tr), es.key(tr, br), es.key(bl, br), es.key(tl, bl)]
            if None not in keys:
                compiler.clause([neg(es.lits[k]) for k in keys], span)


def on_cycle(compiler, e: OnCycle, kept: Kept) -> CellValue:
    """``p is on a cycle of slant``: p's top and bottom sides lie in different faces."""
    p = compiler.cell_of(e.cell)
    name = e.name.id
    if p is None or not (compiler.enum_lits[name][p] or {}):
        return False
    fg = faces(compiler, name, kept)
    top, bottom = fg.sides[p]
    if top == bottom:  # both outside: a one-row grid, where no slant closes a cycle
        return False
    key = (name, top)
    if key not in kept.face_of:
        kept.face_of[key] = compiler.define(_face_of, compiler, fg, name, top, e.span)
    return neg(kept.face_of[key][bottom])


def _face_of(compiler, fg: Faces, name: str, root: int, span) -> dict[int, CellValue]:
    """Member literals of the face that holds piece ``root``: exactly the pieces open gaps join to it."""
    span = compiler.current.span if compiler.current is not None else span
    m: dict[int, CellValue] = {v: True if v == root else compiler.new_var(f"{name}_face_of_{root}", None, v)
                               for v in fg.pieces}
    edges = fg.edges(compiler)
    for a, b, lit in edges:
        for x, y in ((a, b), (b, a)):
            if m[y] is not True:
                compiler.clause([neg(m[x]), neg(lit), m[y]], span)
    members = tuple((v, compiler.lit(x)) for v, x in sorted(m.items()))
    pairs = tuple((a, b, compiler.lit(lit)) for a, b, lit in edges)
    compiler.constraints.append(GraphConnected(members, pairs, (root,), False, name, span))
    return m
