"""Lowering of decisions on edges: lines between cells and on the lattice of cell corners.

Part of the compiler (:class:`gridlang.compiler._Compiler` mixes
:class:`EdgeLowering` in). Everything lowers to existing IR nodes plus one,
:class:`~gridlang.ir.GraphConnected` (connectivity over an explicit graph
whose edges carry literals):

``decide line: bool on edges`` / ``on corner edges``
    one Boolean variable per edge: between side neighbours (vertices are
    the cells), or between adjacent corners of the cell lattice (vertices
    ``r * (cols + 1) + c`` for the ``(rows + 1) x (cols + 1)`` corners).
``line[p, q]``
    the edge's literal; false when p and q are not side neighbours.
``degree(line, p)``
    the sum of the literals of p's edges (on corner edges: the four around
    cell p), a linear term.
``straight(line, p)`` / ``turn(line, p)``
    Tseitin ``or`` of the ``and`` of two chosen sides and two unchosen
    ones: opposite sides for straight, sides meeting at a corner for turn.
``line is a loop``
    a vertex literal ``o(v)`` per vertex with ``sum of v's edges - 2 o(v)
    == 0`` (degree 0 or 2, ``o`` true exactly on the loop), one clause
    asking for an edge, and a :class:`GraphConnected` node with ``loop``
    set: the chosen edges form one cycle. Size: one variable and one row
    per vertex, one clause, one node.
``component of p along line``
    a member literal ``m(v)`` per cell, ``m(p)`` true, the closure ``m(u) &
    e(u, v) -> m(v)`` both ways along every edge, and a
    :class:`GraphConnected` node rooted at p over the same edges, so that
    the members are exactly what the chosen edges join to p. Size: one
    variable per cell, two clauses per edge, one node, per (p, line).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from ..errors import SemanticError
from ..ir import Clause, Cmp, Decision, GraphConnected, Linear
from .cellsets import CellValue, neg


@dataclass
class EdgeSet:
    """The edges of one decision on edges.

    Attributes:
        lattice: ``"edges"`` (vertices are cells) or ``"corners"``.
        width: vertices per row (``cols`` or ``cols + 1``).
        lits: ``(u, v) -> literal`` with ``u < v`` vertex numbers.
    """

    lattice: str
    width: int
    lits: dict[tuple[int, int], int]

    def at(self, u: int, v: int) -> CellValue:
        """The literal of the edge between vertices u and v (False when there is none)."""
        return self.lits.get((min(u, v), max(u, v)), False)

    def incident(self, v: int) -> list[int]:
        """The literals of v's edges, in the order up, right, down, left (only the existing ones)."""
        r, c = divmod(v, self.width)
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            lit = self.lits.get(_key(v, (r + dr) * self.width + c + dc)) if 0 <= c + dc < self.width else None
            if lit is not None:
                out.append(lit)
        return out


def _key(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)


def lattice_edges(rows: int, cols: int, lattice: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The edges of a decision on edges, as pairs of ``(row, col)`` ends, row-major by first end.

    Args:
        rows, cols: the map's size in cells.
        lattice: ``"edges"`` (ends are cells) or ``"corners"`` (ends are
            lattice corners, ``rows + 1`` by ``cols + 1``).
    """
    h, w = (rows, cols) if lattice == "edges" else (rows + 1, cols + 1)
    out = []
    for r in range(h):
        for c in range(w):
            if c + 1 < w:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < h:
                out.append(((r, c), (r + 1, c)))
    return out


class EdgeLowering:
    """The compiler's methods for decisions on edges (a mixin)."""

    edge_sets: dict[str, EdgeSet]
    along: dict[tuple, dict[int, CellValue]]  # (roots, decision) -> member per cell

    def decide_edges(self, st: ast.Decide) -> None:
        """``decide NAME: bool on edges`` (or ``on corner edges``): one variable per edge."""
        width = self.grid.cols if st.lattice == "edges" else self.grid.cols + 1
        lits: dict[tuple[int, int], int] = {}
        entries = []
        for a, b in lattice_edges(self.grid.rows, self.grid.cols, st.lattice):
            lit = self.new_var(st.name, None, f"({a[0]},{a[1]})-({b[0]},{b[1]})")
            lits[(a[0] * width + a[1], b[0] * width + b[1])] = lit
            entries.append(((a, b), ((True, lit),)))
        self.edge_sets[st.name] = EdgeSet(st.lattice, width, lits)
        self.decisions.append(Decision(st.name, (True,), tuple(entries), st.lattice))

    def edge_at(self, f: ast.EdgeAt) -> CellValue:
        """``line[p, q]``."""
        p, q = self.cell_of(f.a), self.cell_of(f.b)
        if p is None or q is None:
            return False
        return self.edge_sets[f.name.id].at(p, q)

    def sides(self, name: str, p: int) -> list[CellValue]:
        """The literals of cell p's four sides, up, right, down, left (False where there is no edge)."""
        es = self.edge_sets[name]
        r, c = self.grid.cell(p)
        if es.lattice == "corners":
            w = es.width
            tl, tr, bl, br = r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1
            return [es.at(tl, tr), es.at(tr, br), es.at(bl, br), es.at(tl, bl)]
        out: list[CellValue] = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            inside = 0 <= rr < self.grid.rows and 0 <= cc < self.grid.cols
            out.append(es.at(p, rr * self.grid.cols + cc) if inside else False)
        return out

    def degree_terms(self, e: ast.Degree, scale: int, coef: dict[int, int]) -> int:
        """Add ``scale * degree(line, p)`` to ``coef``; return its constant part (0)."""
        p = self.cell_of(e.cell)
        if p is None:
            return 0
        return sum(self._linear_lit(v, scale, coef) for v in self.sides(e.name.id, p))

    def bend_lit(self, f: ast.Bend) -> CellValue:
        """``straight(line, p)`` or ``turn(line, p)``."""
        p = self.cell_of(f.cell)
        if p is None:
            return False
        up, right, down, left = self.sides(f.name.id, p)

        def exactly(a, b, c, d):  # a and b chosen, c and d not
            return self.combine(True, [a, b, neg(c), neg(d)], p)

        if f.kind == "straight":
            pairs = [exactly(left, right, up, down), exactly(up, down, left, right)]
        else:
            pairs = [exactly(up, right, down, left), exactly(right, down, left, up),
                     exactly(down, left, up, right), exactly(left, up, right, down)]
        return self.combine(False, pairs, p)

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
            terms = tuple((1, lit) for lit in es.incident(v)) + ((-2, on),)
            self.constraints.append(Linear(terms, Cmp.EQ, 0, (), span))
        self.constraints.append(Clause(tuple(es.lits.values()), span))
        edges = tuple((u, v, lit) for (u, v), lit in sorted(es.lits.items()))
        self.constraints.append(GraphConnected(tuple(members), edges, (), True, f.name.id, span))

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
            for v in range(self.grid.size):
                m[v] = True if v in roots else self.new_var(family, v)
            for (u, v), lit in sorted(es.lits.items()):
                for a, b in ((u, v), (v, u)):
                    if m[b] is not True:
                        self.clause([neg(m[a]), -lit, m[b]], span)
            members = tuple((v, self.lit(x)) for v, x in sorted(m.items()))
            edges = tuple((u, v, lit) for (u, v), lit in sorted(es.lits.items()))
            self.constraints.append(GraphConnected(members, edges, roots, False, e.name.id, span))
            self.along[key] = m
        m = self.along[key]
        return {i: v for i, v in m.items() if within is None or i in within}
