"""The compiler's lowering of decisions on edges: lines and bridges between cells and on the lattice
of cell corners.

Each function is given the compiler (:mod:`gridlang.compiler`, its methods
as :mod:`gridlang.language.constructs` lists them) and imports nothing of
it, nor of the evaluation (:mod:`.evaluate`); what it keeps while
compiling (the edges of each decision, the components along them) is an
:class:`Edges` in ``compiler.collected``. A literal is ``True``, ``False``
or a variable's number, negative when negated. Everything lowers to
existing IR nodes plus one, :class:`~gridlang.ir.model.GraphConnected`
(connectivity over an explicit graph whose edges carry literals):

``decide line: bool on edges`` / ``on corner edges``
    one Boolean variable per edge: between side neighbours (vertices are
    the cells), or between adjacent corners of the cell lattice (vertices
    ``r * (cols + 1) + c`` for the ``(rows + 1) x (cols + 1)`` corners).
``decide bridge: 0..2 on edges`` (integer values)
    the one-hot encoding of enumerated cell decisions, per edge: a variable
    ``bridge=(r1,c1)-(r2,c2)=v`` per value v and a row ``sum == 1``
    (the compiler's ``one_hot``). The edge's value is
    the linear term ``sum of v * x_v``; the edge is *chosen* (for loops,
    components, bends) when its value is not 0: the literal ``~x_0``, or
    true when 0 is not a value. Size: ``|values|`` variables and one row
    per edge.
``line[p, q]``
    the edge's chosen literal (Boolean), or its value's term (integer);
    false (0) when p and q are not side neighbours. Two cells on edges
    between cells, two corners on corner edges.
``degree(line, p)``
    the sum of the values of p's edges: the up to four at a cell on edges
    between cells, the four framing cell p on corner edges, the up to four
    meeting at corner v on corner edges. A linear term.
``straight(line, p)`` / ``turn(line, p)``
    Tseitin ``or`` of the ``and`` of two chosen sides and two unchosen
    ones: opposite sides for straight, sides meeting at a corner for turn.
``line is a loop``
    a vertex literal ``o(v)`` per vertex with ``sum of v's chosen edges -
    2 o(v) == 0`` (degree 0 or 2, ``o`` true exactly on the loop), one
    clause asking for an edge, and a :class:`GraphConnected` node with
    ``loop`` set: the chosen edges form one cycle. Size: one variable and
    one row per vertex, one clause, one node.
``line is connected``
    a vertex literal per vertex, the ``or`` of its chosen edges (Tseitin),
    and an unrooted :class:`GraphConnected` over the chosen edges. Size: one
    variable per vertex with two or more edges, one node.
``component of p along line``
    a member literal ``m(v)`` per cell, ``m(p)`` true, the closure ``m(u) &
    e(u, v) -> m(v)`` both ways along every edge, and a
    :class:`GraphConnected` node rooted at p over the same edges, so that
    the members are exactly what the chosen edges join to p. Size: one
    variable per cell, two clauses per edge, one node, per (p, line).
Corners
    ``for each corner v`` binds v to each corner ``(r, c)`` in turn, row
    major; ``corners(p)`` is the four corners of cell ``(r, c)``: ``(r,
    c)``, ``(r, c + 1)``, ``(r + 1, c)``, ``(r + 1, c + 1)``; ``v + d`` the
    next corner in direction d, none off the lattice. Corners are only
    bound at compile time: they add no variables.
"""

from __future__ import annotations

from gridlang.constructs.edges.nodes import (
    Bend,
    ComponentAlong,
    CornersOf,
    Degree,
    EdgeAt,
    IsLoop,
)
from gridlang.core.errors import MapError, SemanticError, show_set
from gridlang.core.grid import border_ends, lattice_edges
from gridlang.core.nodes import Record
from gridlang.ir.literals import CellValue, add_literal, neg
from gridlang.ir.model import Cmp, Decision, GraphConnected, Linear
from gridlang.language import ast

Key = tuple[int, int]
"""An edge as its two vertex numbers, smaller first."""

_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""Up, right, down, left."""


class EdgeSet(Record, frozen=False, slots=False):
    """The edges of one decision on edges.

    Attributes:
        lattice: ``"edges"`` (vertices are cells) or ``"corners"``.
        width, height: vertices per row and per column (``cols``, ``rows``
            between cells; ``cols + 1``, ``rows + 1`` on the corners).
        lits: edge -> its chosen literal (True when every value of the
            domain is nonzero).
        terms: edge -> ``(value, literal)`` pairs whose sum is the edge's
            value (``((1, lit),)`` for a Boolean decision; the nonzero
            values of an integer one).
    """

    lattice: str
    width: int
    height: int
    lits: dict[Key, CellValue]
    terms: dict[Key, tuple[tuple[int, CellValue], ...]]

    def key(self, u: int | None, v: int | None) -> Key | None:
        """The edge between vertices u and v, or None when there is none."""
        if u is None or v is None:
            return None
        k = (min(u, v), max(u, v))
        return k if k in self.lits else None

    def around(self, v: int) -> list[Key | None]:
        """v's edges up, right, down, left (None where there is none)."""
        r, c = divmod(v, self.width)
        return [self.key(v, (r + dr) * self.width + c + dc)
                if 0 <= r + dr < self.height and 0 <= c + dc < self.width else None for dr, dc in _STEPS]

    def incident(self, v: int) -> list[CellValue]:
        """The chosen literals of v's edges, in the order up, right, down, left (only the existing ones)."""
        return [self.lits[k] for k in self.around(v) if k is not None]


class Edges:
    """What the construct keeps while compiling (in ``compiler.collected``).

    Attributes:
        sets: decision name -> its :class:`EdgeSet`.
        along: ``(roots, decision)`` -> the member literal per cell of ``component of p along line``.
    """

    def __init__(self) -> None:
        self.sets: dict[str, EdgeSet] = {}
        self.along: dict[tuple, dict[int, CellValue]] = {}


def decide_edges(compiler, st: ast.Decide, edges: Edges) -> None:
    """``decide NAME: bool on edges`` (or ``0..2``, or ``on corner edges``): one variable per
    edge, or one per edge and value."""
    rows, cols = compiler.grid.rows, compiler.grid.cols
    width, height = (cols, rows) if st.lattice == "edges" else (cols + 1, rows + 1)
    lits: dict[Key, CellValue] = {}
    terms: dict[Key, tuple] = {}
    entries = []
    pairs = lattice_edges(rows, cols, st.lattice)
    values = compiler.domain_of(st, len(pairs)) if st.is_enum else None
    if values is not None:
        compiler.reserve(len(pairs) * len(values))
    for a, b in pairs:
        key = (a[0] * width + a[1], b[0] * width + b[1])
        label = f"({a[0]},{a[1]})-({b[0]},{b[1]})"
        if values is None:
            lit = compiler.new_var(st.name, None, label)
            lits[key], terms[key] = lit, ((1, lit),)
            entries.append(((a, b), ((True, lit),)))
            continue
        hot = compiler.one_hot(st.name, None, values, st.span, label)
        lits[key] = -hot[0] if 0 in hot else True
        terms[key] = tuple((v, lit) for v, lit in hot.items() if v != 0)
        entries.append(((a, b), tuple(hot.items())))
    edges.sets[st.name] = EdgeSet(st.lattice, width, height, lits, terms)
    compiler.decisions.append(Decision(st.name, (True,) if values is None else tuple(values), tuple(entries),
                                       st.lattice))


# points: cells and corners --------------------------------------------------------
def corner_members(compiler, e: CornersOf) -> list[tuple[int, int]]:
    """The corners of ``corners(p)``: top-left, top-right, bottom-left, bottom-right; of ``corners(b)``, the
    two at the ends of border b, the upper or left one first."""
    bound = compiler.bound.get(e.cell.id) if isinstance(e.cell, ast.Name) else None
    if bound is not None and bound[0] == "border":
        return list(border_ends(compiler.grid.rows, compiler.grid.cols, bound[1]))
    p = compiler.cell_of(e.cell)
    if p is None:
        return []
    r, c = compiler.grid.cell(p)
    return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]


def vertex(compiler, es: EdgeSet, e: ast.Expr) -> int | None:
    """The vertex number of a cell (edges between cells) or a corner (corner edges); None off the grid."""
    if compiler.is_corner(e):
        v = compiler.corner_of(e)
        return None if v is None else v[0] * es.width + v[1]
    return compiler.cell_of(e)


def frame(compiler, es: EdgeSet, e: ast.Expr) -> list[Key | None]:
    """The edges of ``es`` at the point ``e``, up, right, down, left: a cell's sides (between cells:
    to its neighbours; on corner edges: the four framing it), or a corner's edges."""
    if es.lattice == "corners" and not compiler.is_corner(e):
        p = compiler.cell_of(e)
        if p is None:
            return [None] * 4
        r, c = compiler.grid.cell(p)
        w = es.width
        tl, tr, bl, br = r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1
        return [es.key(tl, tr), es.key(tr, br), es.key(bl, br), es.key(tl, bl)]
    v = vertex(compiler, es, e)
    return [None] * 4 if v is None else es.around(v)


# expressions ----------------------------------------------------------------------
def edge_key(compiler, f: EdgeAt, edges: Edges) -> Key | None:
    es = edges.sets[f.name.id]
    return es.key(vertex(compiler, es, f.a), vertex(compiler, es, f.b))


def edge_at(compiler, f: EdgeAt, edges: Edges) -> CellValue:
    """``line[p, q]`` as a condition: the edge is chosen."""
    key = edge_key(compiler, f, edges)
    return False if key is None else edges.sets[f.name.id].lits[key]


def _value_terms(es: EdgeSet, key: Key | None, scale: int, coef: dict[int, int]) -> int:
    """Add ``scale *`` the value of edge ``key`` to ``coef``; return its constant part."""
    if key is None:
        return 0
    return sum(add_literal(lit, scale * v, coef) for v, lit in es.terms[key])


def edge_terms(compiler, f: EdgeAt, scale: int, coef: dict[int, int], edges: Edges) -> int:
    """Add ``scale * bridge[p, q]`` (an integer decision's value on the edge) to ``coef``."""
    return _value_terms(edges.sets[f.name.id], edge_key(compiler, f, edges), scale, coef)


def degree_terms(compiler, e: Degree, scale: int, coef: dict[int, int], edges: Edges) -> int:
    """Add ``scale * degree(line, p)`` to ``coef``; return its constant part."""
    es = edges.sets[e.name.id]
    return sum(_value_terms(es, k, scale, coef) for k in frame(compiler, es, e.cell))


def bend_lit(compiler, f: Bend, edges: Edges) -> CellValue:
    """``straight(line, p)`` or ``turn(line, p)``."""
    es = edges.sets[f.name.id]
    if vertex(compiler, es, f.cell) is None:
        return False
    up, right, down, left = [False if k is None else es.lits[k] for k in frame(compiler, es, f.cell)]

    def exactly(a, b, c, d):  # a and b chosen, c and d not
        return compiler.combine(True, [a, b, neg(c), neg(d)], None)

    if f.kind == "straight":
        pairs = [exactly(left, right, up, down), exactly(up, down, left, right)]
    else:
        pairs = [exactly(up, right, down, left), exactly(right, down, left, up),
                 exactly(down, left, up, right), exactly(left, up, right, down)]
    return compiler.combine(False, pairs, None)


def check_value(compiler, f: ast.Compare, side: EdgeAt, other, edges: Edges) -> None:
    """``bridge[p, q] == N`` with N known before solving must name a value of ``bridge`` (else an
    error located where N comes from: the spec, or the map cell of p when N reads it)."""
    name = side.name.id
    if f.op != "==" or name not in compiler.domain_values:
        return
    value = compiler.constant(other)
    if value is None or value in compiler.domain_sets[name]:
        return
    message = (f"{name}[p, q] == {value} cannot hold: {value} is not a value of {name!r} "
               f"({show_set(compiler.domain_values[name])})")
    p = None if compiler.is_corner(side.a) else compiler.cell_of(side.a)
    if edge_key(compiler, side, edges) is None:
        return
    if p is None or not compiler.mentions_cell_value(other):
        raise SemanticError(message, f.span, source=compiler.spec.source)
    if compiler.map_data is not None:
        r, c = compiler.grid.cell(p)
        raise MapError(f"the rule 'require {compiler.rule_text(compiler.current)}' ({compiler.current.span}) "
                       f"cannot hold at row {r + 1}, column {c + 1} ({compiler.grid.chars[p]!r}): {message}",
                       compiler.map_data.span(r, c), source=compiler.map_data.source)
    raise SemanticError(message, f.span, source=compiler.spec.source)


# rules ----------------------------------------------------------------------------
def is_loop(compiler, f: IsLoop, guard: tuple[int, ...], edges: Edges) -> None:
    """``line is a loop``: degree 0 or 2 at every vertex, an edge, one connected cycle."""
    span = compiler.current.span if compiler.current is not None else f.span
    if guard:
        raise SemanticError("'is a loop' is a rule of its own; it cannot stand under 'implies'", f.span,
                            source=compiler.spec.source)
    es = edges.sets[f.name.id]
    vertices = sorted({v for key in es.lits for v in key})
    members = []
    for v in vertices:
        r, c = divmod(v, es.width)
        on = compiler.new_var(f"{f.name.id}_on", None, f"({r},{c})")
        members.append((v, on))
        coef = {on: -2}
        const = sum(add_literal(lit, 1, coef) for lit in es.incident(v))
        compiler.constraints.append(Linear(tuple((k, x) for x, k in sorted(coef.items()) if k), Cmp.EQ, -const,
                                           (), span))
    compiler.clause(list(es.lits.values()), span)
    pairs = tuple((u, v, compiler.lit(lit)) for (u, v), lit in sorted(es.lits.items()))
    compiler.constraints.append(GraphConnected(tuple(members), pairs, (), True, f.name.id, span))


def lines_connected(compiler, st: ast.IsConnected, edges: Edges) -> None:
    """``line is connected``: a vertex is active when one of its edges is chosen (a Tseitin
    ``or``), and the active vertices are connected through chosen edges (an unrooted
    :class:`GraphConnected`)."""
    name = st.cells.id
    es = edges.sets[name]
    members = []
    for v in sorted({v for key in es.lits for v in key}):
        active = compiler.combine(False, es.incident(v), None)
        if active is not False:
            members.append((v, compiler.lit(active)))
    pairs = tuple((u, v, compiler.lit(lit)) for (u, v), lit in sorted(es.lits.items()) if lit is not False)
    compiler.constraints.append(GraphConnected(tuple(members), pairs, (), False, name, st.span))


def component_along(compiler, e: ComponentAlong, within, edges: Edges) -> dict[int, CellValue]:
    """``component of p along line`` (or ``of S``, a fixed cell set): the cells the chosen edges
    join to p (to some cell of S). Its constraints define its members (``compiler.define``)."""
    roots = tuple(sorted(i for i, v in compiler.members(e.cell).items() if v is True))
    if not roots:
        return {}
    key = (roots, e.name.id)
    if key not in edges.along:
        es = edges.sets[e.name.id]
        span = compiler.current.span if compiler.current is not None else e.span
        m: dict[int, CellValue] = {}
        r0, c0 = compiler.grid.cell(roots[0])
        family = f"{e.name.id}_from_{r0}_{c0}" + ("" if len(roots) == 1 else f"_and_{len(roots) - 1}")
        rooted = set(roots)
        for v in range(compiler.grid.size):
            m[v] = True if v in rooted else compiler.new_var(family, v)
        for (u, v), lit in sorted(es.lits.items()):
            for a, b in ((u, v), (v, u)):
                if m[b] is not True:
                    compiler.clause([neg(m[a]), neg(lit), m[b]], span)
        members = tuple((v, compiler.lit(x)) for v, x in sorted(m.items()))
        pairs = tuple((u, v, compiler.lit(lit)) for (u, v), lit in sorted(es.lits.items()))
        compiler.constraints.append(GraphConnected(members, pairs, roots, False, e.name.id, span))
        edges.along[key] = m
    m = edges.along[key]
    return {i: v for i, v in m.items() if within is None or i in within}
