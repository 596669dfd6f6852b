"""Lowering of decisions on edges: lines and bridges between cells and on the lattice of cell corners.

Part of the compiler (:class:`gridlang.compiler._Compiler` mixes
:class:`EdgeLowering` in). Everything lowers to existing IR nodes plus one,
:class:`~gridlang.ir.model.GraphConnected` (connectivity over an explicit graph
whose edges carry literals):

``decide line: bool on edges`` / ``on corner edges``
    one Boolean variable per edge: between side neighbours (vertices are
    the cells), or between adjacent corners of the cell lattice (vertices
    ``r * (cols + 1) + c`` for the ``(rows + 1) x (cols + 1)`` corners).
``decide bridge: 0..2 on edges`` (integer values)
    the one-hot encoding of enumerated cell decisions, per edge: a variable
    ``bridge=(r1,c1)-(r2,c2)=v`` per value v and a row ``sum == 1``
    (:meth:`~gridlang.compiler.core._Compiler.one_hot`). The edge's value is
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

from gridlang.compiler.literals import CellValue, neg
from gridlang.compiler.tags import definition
from gridlang.core.errors import SemanticError
from gridlang.core.grid import lattice_edges
from gridlang.core.nodes import node
from gridlang.ir.model import Cmp, Decision, GraphConnected, Linear
from gridlang.language import ast

Key = tuple[int, int]
"""An edge as its two vertex numbers, smaller first."""

_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""Up, right, down, left."""


@node(frozen=False, slots=False)
class EdgeSet:
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

    def at(self, u: int | None, v: int | None) -> CellValue:
        """The chosen literal of the edge between vertices u and v (False when there is none)."""
        k = self.key(u, v)
        return False if k is None else self.lits[k]

    def around(self, v: int) -> list[Key | None]:
        """v's edges up, right, down, left (None where there is none)."""
        r, c = divmod(v, self.width)
        return [self.key(v, (r + dr) * self.width + c + dc)
                if 0 <= r + dr < self.height and 0 <= c + dc < self.width else None for dr, dc in _STEPS]

    def incident(self, v: int) -> list[CellValue]:
        """The chosen literals of v's edges, in the order up, right, down, left (only the existing ones)."""
        return [self.lits[k] for k in self.around(v) if k is not None]


class EdgeLowering:
    """The compiler's methods for decisions on edges and the corners of the lattice (a mixin)."""

    edge_sets: dict[str, EdgeSet]
    along: dict[tuple, dict[int, CellValue]]  # (roots, decision) -> member per cell

    def decide_edges(self, st: ast.Decide) -> None:
        """``decide NAME: bool on edges`` (or ``0..2``, or ``on corner edges``): one variable per
        edge, or one per edge and value."""
        rows, cols = self.grid.rows, self.grid.cols
        width, height = (cols, rows) if st.lattice == "edges" else (cols + 1, rows + 1)
        lits: dict[Key, CellValue] = {}
        terms: dict[Key, tuple] = {}
        entries = []
        edges = lattice_edges(rows, cols, st.lattice)
        values = self.domain_of(st, len(edges)) if st.is_enum else None
        if values is not None:
            self.reserve(len(edges) * len(values))
        for a, b in edges:
            key = (a[0] * width + a[1], b[0] * width + b[1])
            label = f"({a[0]},{a[1]})-({b[0]},{b[1]})"
            if values is None:
                lit = self.new_var(st.name, None, label)
                lits[key], terms[key] = lit, ((1, lit),)
                entries.append(((a, b), ((True, lit),)))
                continue
            hot = self.one_hot(st.name, None, values, st.span, label)
            lits[key] = -hot[0] if 0 in hot else True
            terms[key] = tuple((v, lit) for v, lit in hot.items() if v != 0)
            entries.append(((a, b), tuple(hot.items())))
        self.edge_sets[st.name] = EdgeSet(st.lattice, width, height, lits, terms)
        self.decisions.append(Decision(st.name, (True,) if values is None else tuple(values), tuple(entries),
                                       st.lattice))

    # points: cells and corners ------------------------------------------------------
    def is_corner(self, e: ast.Expr) -> bool:
        """Whether ``e`` stands for one corner: a bound corner variable, or ``v + d``."""
        if isinstance(e, ast.Name):
            return self.bound.get(e.id, ("",))[0] == "corner"
        return isinstance(e, ast.Add) and self.is_corner(e.left)

    def is_corners(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a set of corners (``corners(p)``, or one corner)."""
        return isinstance(e, ast.CornersOf) or self.is_corner(e)

    def corner_of(self, e: ast.Expr) -> tuple[int, int] | None:
        """The ``(row, col)`` corner ``e`` stands for (None off the lattice)."""
        if isinstance(e, ast.Name):
            return self.bound[e.id][1]
        base = self.corner_of(e.left)
        if base is None:
            return None
        dr, dc = self.step_of(e.right)
        r, c = base[0] + e.sign * dr, base[1] + e.sign * dc
        return (r, c) if 0 <= r <= self.grid.rows and 0 <= c <= self.grid.cols else None

    def corner_set(self, e: ast.Expr) -> list[tuple[int, int]]:
        """The corners of ``corners(p)`` (top-left, top-right, bottom-left, bottom-right), or of one corner."""
        if isinstance(e, ast.CornersOf):
            p = self.cell_of(e.cell)
            if p is None:
                return []
            r, c = self.grid.cell(p)
            return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        v = self.corner_of(e)
        return [] if v is None else [v]

    def all_corners(self) -> list[tuple[int, int]]:
        """Every corner of the lattice, row-major."""
        return [(r, c) for r in range(self.grid.rows + 1) for c in range(self.grid.cols + 1)]

    def vertex(self, es: EdgeSet, e: ast.Expr) -> int | None:
        """The vertex number of a cell (edges between cells) or a corner (corner edges); None off the grid."""
        if self.is_corner(e):
            v = self.corner_of(e)
            return None if v is None else v[0] * es.width + v[1]
        return self.cell_of(e)

    def frame(self, name: str, e: ast.Expr) -> list[Key | None]:
        """The edges of decision ``name`` at the point ``e``, up, right, down, left: a cell's sides
        (between cells: to its neighbours; on corner edges: the four framing it), or a corner's edges."""
        es = self.edge_sets[name]
        if es.lattice == "corners" and not self.is_corner(e):
            p = self.cell_of(e)
            if p is None:
                return [None] * 4
            r, c = self.grid.cell(p)
            w = es.width
            tl, tr, bl, br = r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1
            return [es.key(tl, tr), es.key(tr, br), es.key(bl, br), es.key(tl, bl)]
        v = self.vertex(es, e)
        return [None] * 4 if v is None else es.around(v)

    # expressions ------------------------------------------------------------------
    def edge_key(self, f: ast.EdgeAt) -> Key | None:
        es = self.edge_sets[f.name.id]
        return es.key(self.vertex(es, f.a), self.vertex(es, f.b))

    def edge_at(self, f: ast.EdgeAt) -> CellValue:
        """``line[p, q]`` as a condition: the edge is chosen."""
        key = self.edge_key(f)
        return False if key is None else self.edge_sets[f.name.id].lits[key]

    def value_terms(self, name: str, key: Key | None, scale: int, coef: dict[int, int]) -> int:
        """Add ``scale *`` the value of edge ``key`` to ``coef``; return its constant part."""
        if key is None:
            return 0
        return sum(self._linear_lit(lit, scale * v, coef) for v, lit in self.edge_sets[name].terms[key])

    def edge_terms(self, f: ast.EdgeAt, scale: int, coef: dict[int, int]) -> int:
        """Add ``scale * bridge[p, q]`` (an integer decision's value on the edge) to ``coef``."""
        return self.value_terms(f.name.id, self.edge_key(f), scale, coef)

    def sides(self, name: str, e: ast.Expr) -> list[CellValue]:
        """The chosen literals of the point's four sides, up, right, down, left (False where there is no edge)."""
        es = self.edge_sets[name]
        return [False if k is None else es.lits[k] for k in self.frame(name, e)]

    def degree_terms(self, e: ast.Degree, scale: int, coef: dict[int, int]) -> int:
        """Add ``scale * degree(line, p)`` to ``coef``; return its constant part."""
        return sum(self.value_terms(e.name.id, k, scale, coef) for k in self.frame(e.name.id, e.cell))

    def bend_lit(self, f: ast.Bend) -> CellValue:
        """``straight(line, p)`` or ``turn(line, p)``."""
        es = self.edge_sets[f.name.id]
        v = self.vertex(es, f.cell)
        if v is None:
            return False
        up, right, down, left = self.sides(f.name.id, f.cell)

        def exactly(a, b, c, d):  # a and b chosen, c and d not
            return self.combine(True, [a, b, neg(c), neg(d)], None)

        if f.kind == "straight":
            pairs = [exactly(left, right, up, down), exactly(up, down, left, right)]
        else:
            pairs = [exactly(up, right, down, left), exactly(right, down, left, up),
                     exactly(down, left, up, right), exactly(left, up, right, down)]
        return self.combine(False, pairs, None)

    # rules ------------------------------------------------------------------------
    def is_loop(self, f: ast.IsLoop, guard: tuple[int, ...]) -> None:
        """``line is a loop``: degree 0 or 2 at every vertex, an edge, one connected cycle."""
        span = self.current.span if self.current is not None else f.span
        if guard:
            raise SemanticError("'is a loop' is a rule of its own; it cannot stand under 'implies'", f.span,
                                source=self.spec.source)
        es = self.edge_sets[f.name.id]
        vertices = sorted({v for key in es.lits for v in key})
        members = []
        for v in vertices:
            r, c = divmod(v, es.width)
            on = self.new_var(f"{f.name.id}_on", None, f"({r},{c})")
            members.append((v, on))
            coef = {on: -2}
            const = sum(self._linear_lit(lit, 1, coef) for lit in es.incident(v))
            self.constraints.append(Linear(tuple((k, x) for x, k in sorted(coef.items()) if k), Cmp.EQ, -const,
                                           (), span))
        self.clause(list(es.lits.values()), span)
        edges = tuple((u, v, self.lit(lit)) for (u, v), lit in sorted(es.lits.items()))
        self.constraints.append(GraphConnected(tuple(members), edges, (), True, f.name.id, span))

    def lines_connected(self, st: ast.IsConnected) -> None:
        """``line is connected``: a vertex is active when one of its edges is chosen (a Tseitin
        ``or``), and the active vertices are connected through chosen edges (an unrooted
        :class:`GraphConnected`)."""
        name = st.cells.id
        es = self.edge_sets[name]
        members = []
        for v in sorted({v for key in es.lits for v in key}):
            active = self.combine(False, es.incident(v), None)
            if active is not False:
                members.append((v, self.lit(active)))
        edges = tuple((u, v, self.lit(lit)) for (u, v), lit in sorted(es.lits.items()) if lit is not False)
        self.constraints.append(GraphConnected(tuple(members), edges, (), False, name, st.span))

    @definition
    def component_along(self, e: ast.ComponentAlong, within) -> dict[int, CellValue]:
        """``component of p along line`` (or ``of S``, a fixed cell set): the cells the chosen edges
        join to p (to some cell of S)."""
        roots = tuple(sorted(i for i, v in self.members(e.cell).items() if v is True))
        if not roots:
            return {}
        key = (roots, e.name.id)
        if key not in self.along:
            es = self.edge_sets[e.name.id]
            span = self.current.span if self.current is not None else e.span
            m: dict[int, CellValue] = {}
            r0, c0 = self.grid.cell(roots[0])
            family = f"{e.name.id}_from_{r0}_{c0}" + ("" if len(roots) == 1 else f"_and_{len(roots) - 1}")
            rooted = set(roots)
            for v in range(self.grid.size):
                m[v] = True if v in rooted else self.new_var(family, v)
            for (u, v), lit in sorted(es.lits.items()):
                for a, b in ((u, v), (v, u)):
                    if m[b] is not True:
                        self.clause([neg(m[a]), neg(lit), m[b]], span)
            members = tuple((v, self.lit(x)) for v, x in sorted(m.items()))
            edges = tuple((u, v, self.lit(lit)) for (u, v), lit in sorted(es.lits.items()))
            self.constraints.append(GraphConnected(members, edges, roots, False, e.name.id, span))
            self.along[key] = m
        m = self.along[key]
        return {i: v for i, v in m.items() if within is None or i in within}
