"""Lowering of conditions, quantifiers and the map's geometry to the IR.

Part of the compiler (:class:`gridlang.compiler._Compiler` mixes
:class:`FormulaLowering` in). Everything lowers to the IR nodes every backend
already takes: :class:`~gridlang.ir.Clause`, :class:`~gridlang.ir.Linear`
(with enforcement literals) and :class:`~gridlang.ir.Connected` over the
map's grid graph.

Cell sets
    A cell set is evaluated sparsely: ``members(e)`` maps each cell that
    may belong to it to ``True`` or a literal (cells absent are never in
    it). A ``for each`` cell variable is the set of its one cell; a row,
    column, room, window or block variable is a fixed set. ``and`` and
    ``or`` of two or more literals get one auxiliary variable per cell,
    defined by its Tseitin clauses (shared with the rest of the compiler).
``neighbours(p)``, ``diagonal neighbours(p)``, ``king neighbours(p)``, ``row(p)``, ``column(p)``, ``room(p)``
    fixed sets computed from the grid.
``component of p in S``
    with ``s`` the literal of S at each cell: ``m(p) = s(p)``; for every
    other cell that S may hold a new variable ``m(v)`` with ``m(v) -> s(v)``
    and ``m(v) -> m(p)``; ``m(u) & s(v) -> m(v)`` for every edge (u, v); and
    ``Connected(m)``, rooted at p when p is surely in S. The closure makes
    the set a union of whole components of S, connectivity makes it one,
    and ``m(v) -> m(p)`` makes it p's (empty when p is not in S). One such
    region per pair (p, S), shared by every use.
``sight from p toward q through S``
    with c1 = q, c2, ... the cells in line beyond p: ``in(c1) = s(c1)``,
    ``in(ck) = in(c(k-1)) & s(ck)`` (a Tseitin chain, one auxiliary variable
    per cell at most).
``S is a piece of F``
    P ranges over the placements (any rotation or reflection) of F's shapes
    on the cells S may hold. Stated as a rule: one new variable ``y(P)`` per
    placement, ``sum y == 1`` and ``s(c) == sum of y(P) over P holding c``
    for every such cell. As a condition: the ``or`` over P of ``s == P`` on
    those cells, or, when the rule above already holds for the same set,
    the ``or`` of the ``y(P)`` of the shapes asked for.
``S consists of F``
    one variable per entry k of F and placement P: ``sum over P of y(k, P) ==
    1`` for each k; ``s(c) == sum of y(k, P) over the (k, P) holding c``;
    and ``~y(k, P) | ~s(v)`` for every cell v that shares a side with P
    without being in it, so two pieces never touch.
Conditions
    ``lit(F)`` gives a condition one literal (or a constant): membership is
    the set's literal; ``not``, ``and``, ``or``, ``implies`` go through the
    Tseitin definitions; ``A in B`` and ``A avoids B`` are the conjunction
    of their per-cell clauses; a comparison of linear sums is reified
    (:meth:`FormulaLowering.reify`); ``all(...)``/``any(...)`` are the
    conjunction/disjunction of their body over the cells.
Rules
    ``require F`` (:meth:`FormulaLowering.assert_formula`) avoids auxiliary
    variables where it can: a conjunction becomes separate rules; ``A
    implies B`` states B with A's literal as an enforcement literal, so a
    comparison under ``implies`` is one :class:`Linear` with enforcement; a
    disjunction is one clause; ``all different D in S`` is ``sum of
    D[q]=v over S <= 1`` for each value v (``== 1`` when S has as many
    cells as D has values, which follows by counting).
"""

from __future__ import annotations

from typing import Union

from . import ast
from . import shapes as polyomino
from .errors import MapError, SemanticError, Span
from .ir import Clause, Cmp, Connected, Linear

CellValue = Union[bool, int]


def neg(v: CellValue) -> CellValue:
    """The negation of a constant or literal."""
    if v is True:
        return False
    if v is False:
        return True
    return -v


class FormulaLowering:
    """The compiler's methods for conditions and the new cell-set constructs (a mixin)."""

    # bound variables: name -> ("int", value) | ("cell", index) | ("set", (frozenset, label))
    bound: dict

    # ------------------------------------------------------------- bindings
    def bind(self, name: str, kind: str, value) -> None:
        """Bind a ``for each`` variable (integers also go to ``env`` for the older constructs)."""
        self.bound[name] = (kind, value)
        if kind == "int":
            self.env[name] = value

    def unbind(self, name: str) -> None:
        """Forget a ``for each`` variable."""
        self.bound.pop(name, None)
        self.env.pop(name, None)

    def bindings(self, var: ast.Name, domain) -> list[tuple[str, object]]:
        """What a ``for each`` variable takes, in order: ``(kind, value)`` pairs."""
        if isinstance(domain, ast.Shapes):
            return [("shape", shape) for shape in self.family_shapes(domain)]
        if isinstance(domain, ast.Family):
            kind = {"cells": "cell", "directions": "direction"}.get(domain.kind, "set")
            return [(kind, v) for v in self.family(domain)]
        if isinstance(domain, ast.Name) and self.sym.params.get(domain.id) is not None:
            return [("int", v) for v in self.params[domain.id]]
        return [("cell", i) for i in sorted(i for i, v in self.members(domain).items() if v is True)]

    def family(self, domain: ast.Family) -> list:
        """The members of a family: cell indices, or ``(frozenset of cells, label)`` pairs."""
        g = self.grid
        if domain.kind == "cells":
            return list(range(g.size))
        if domain.kind == "directions":
            return list(ast.Direction.STEPS.items())
        if domain.kind == "rows":
            return [(frozenset(g.row_cells(r)), f"row {r}") for r in range(g.rows)]
        if domain.kind == "columns":
            return [(frozenset(g.column_cells(c)), f"column {c}") for c in range(g.cols)]
        if domain.kind == "rooms":
            self.need_rooms(domain.span)
            return [(frozenset(cells), f"the room of {g.cell(cells[0])}") for cells in g.room_cells()]
        h, w = (self._constant(d) for d in (domain.height, domain.width))
        if h is None or w is None or h < 1 or w < 1:
            raise SemanticError(f"a {domain.kind[:-1]}'s size must be at least 1x1, not {h}x{w}", domain.span,
                                source=self.spec.source)
        if domain.kind == "windows":
            return [(frozenset(g.rectangle(r, c, h, w)), f"the {h}x{w} window at {(r, c)}")
                    for r in range(g.rows - h + 1) for c in range(g.cols - w + 1)]
        if g.rows % h or g.cols % w:
            raise SemanticError(f"{h}x{w} blocks do not tile this {g.rows}x{g.cols} map", domain.span,
                                source=self.spec.source)
        return [(frozenset(g.rectangle(r, c, h, w)), f"the {h}x{w} block at {(r, c)}")
                for r in range(0, g.rows, h) for c in range(0, g.cols, w)]

    def family_shapes(self, fam: ast.Shapes) -> list[tuple[tuple[int, int], ...]]:
        """The shapes of a family, one per entry (canonical forms; an entry of a listed size twice, twice)."""
        if fam.kind == "var":
            return [self.bound[fam.arg.id][1]]
        if isinstance(fam.arg, ast.Name) and self.sym.params.get(fam.arg.id) is not None \
                and self.sym.params[fam.arg.id].type == "set of int":
            sizes = list(self.params[fam.arg.id])
        else:
            sizes = [self._constant(fam.arg)]
        out = []
        for k in sizes:
            try:
                out.extend(polyomino.polyominoes(k))
            except ValueError as e:
                raise SemanticError(str(e), fam.span, source=self.spec.source) from e
        return out

    def need_rooms(self, span: Span | None) -> None:
        """Raise when the map has no room layer."""
        if not self.grid.has_rooms:
            where = f"the map {self.map_path}" if self.map_path else "the map"
            raise SemanticError(f"rooms come from the map's room layer (a 'rooms:' block under the grid), and "
                                f"{where} has none", span, source=self.spec.source)

    def cell_of(self, e: ast.Expr) -> int | None:
        """The cell index a cell expression stands for: a bound cell variable, or ``p + d`` (None off the grid)."""
        if isinstance(e, ast.Name):
            kind, value = self.bound.get(e.id, (None, None))
            if kind == "cell":
                return value
            if e.id in self.env and not isinstance(self.env[e.id], bool):
                return self.env[e.id]  # a cell of `for each neighbours a, b`
        if isinstance(e, ast.Add):
            base = self.cell_of(e.left)
            if base is None:
                return None
            dr, dc = self.step_of(e.right)
            r, c = self.grid.cell(base)
            r, c = r + e.sign * dr, c + e.sign * dc
            return self.grid.index(r, c) if 0 <= r < self.grid.rows and 0 <= c < self.grid.cols else None
        raise SemanticError("expected one cell (a 'for each' cell variable)", getattr(e, "span", None),
                            source=self.spec.source)

    def step_of(self, e: ast.Expr) -> tuple[int, int]:
        """The ``(rows, columns)`` step of a direction (a literal or a ``for each direction`` variable)."""
        if isinstance(e, ast.Direction):
            return e.step
        return self.bound[e.id][1][1]

    def is_direction(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.Direction) or isinstance(e, ast.Name) and self.bound.get(e.id, ("",))[0] == "direction"

    # ------------------------------------------------------------ cell sets
    def members(self, e: ast.Expr, within: set[int] | frozenset[int] | None = None) -> dict[int, CellValue]:
        """The cells that may be in the set ``e``, each with True or its literal.

        Args:
            e: a cell-set expression.
            within: when given, only these cells are evaluated.
        """
        def keep(cells):
            return {i: True for i in cells if within is None or i in within}

        if isinstance(e, ast.Name):
            if e.id in self.bound:
                kind, value = self.bound[e.id]
                if kind == "cell":
                    return keep((value,))
                if kind == "set":
                    return keep(value[0])
            kind = self.sym.kind_of(e.id)
            if kind in ("tile", "tag"):
                owners = {e.id} if kind == "tile" else set(self.sym.tags[e.id])
                return keep(i for i, t in enumerate(self.grid.tiles) if t in owners)
            if kind == "decision":
                return self.sparse(self.decision_lits[e.id], within)
            if kind == "region":
                if e.id not in self.region_lits:
                    raise SemanticError(f"region {e.id!r} is used before its definition", e.span,
                                        source=self.spec.source)
                return self.sparse(self.region_lits[e.id], within)
            raise SemanticError(f"{e.id!r} is not a cell set", e.span, source=self.spec.source)
        if isinstance(e, ast.Border):
            return keep(i for i in range(self.grid.size) if self.grid.is_border(i))
        if isinstance(e, ast.AllCells):
            return keep(range(self.grid.size))
        if isinstance(e, ast.Not):
            inner = self.members(e.operand, within)
            universe = range(self.grid.size) if within is None else within
            out = {}
            for i in universe:
                v = neg(inner.get(i, False))
                if v is not False:
                    out[i] = v
            return out
        if isinstance(e, ast.And):
            parts = sorted(e.operands, key=self.cost)
            current = self.members(parts[0], within)
            values = {i: [v] for i, v in current.items()}
            for p in parts[1:]:
                nxt = self.members(p, set(values))
                values = {i: vs + [nxt[i]] for i, vs in values.items() if i in nxt}
            return self.combined(True, values)
        if isinstance(e, ast.Or):
            values: dict[int, list[CellValue]] = {}
            for p in e.operands:
                for i, v in self.members(p, within).items():
                    values.setdefault(i, []).append(v)
            return self.combined(False, values)
        if isinstance(e, ast.Is):
            return self.is_members(e, within)
        if isinstance(e, ast.Add):  # p + d: one cell, or none off the grid
            p = self.cell_of(e)
            return keep(() if p is None else (p,))
        if isinstance(e, ast.Around):
            p = self.cell_of(e.cell)
            if p is None:
                return {}
            g = self.grid
            cells = {"side": g.neighbours[p], "diagonal": g.diagonal_neighbours(p), "king": g.king_neighbours(p)}
            return keep(cells[e.kind])
        if isinstance(e, ast.LineOf):
            p = self.cell_of(e.cell)
            if p is None:
                return {}
            r, c = self.grid.cell(p)
            if e.kind == "row":
                return keep(self.grid.row_cells(r))
            if e.kind == "column":
                return keep(self.grid.column_cells(c))
            self.need_rooms(e.span)
            room = self.grid.rooms[p]
            return keep(i for i, x in enumerate(self.grid.rooms) if x == room)
        if isinstance(e, ast.Component):
            p = self.cell_of(e.cell)
            comp = {} if p is None else self.component(p, e.within, e.span)
            return {i: v for i, v in comp.items() if within is None or i in within}
        if isinstance(e, ast.Sight):
            p = self.cell_of(e.cell)
            if p is None:
                return {}
            if self.is_direction(e.toward):
                line = self.line_from(p, self.step_of(e.toward))
            else:
                q = self.cell_of(e.toward)
                line = [] if q is None else self.line_beyond(p, q, e.span)
            inside = self.members(e.within, set(line))
            out, seen = {}, True
            for i in line:
                seen = self.combine(True, [seen, inside.get(i, False)], i)
                if seen is False:
                    break
                if within is None or i in within:
                    out[i] = seen
            return out
        raise SemanticError("expected a cell set", getattr(e, "span", None), source=self.spec.source)

    def line_beyond(self, p: int, q: int, span: Span | None) -> list[int]:
        """The cells q, q + d, q + 2d, ... to the edge, d the step from p to its side neighbour q."""
        (r, c), (r2, c2) = self.grid.cell(p), self.grid.cell(q)
        dr, dc = r2 - r, c2 - c
        if abs(dr) + abs(dc) != 1:
            raise SemanticError(f"'sight from p toward q' needs q beside p; {self.grid.cell(q)} is not beside "
                                f"{self.grid.cell(p)}", span, source=self.spec.source)
        return self.line_from(p, (dr, dc))

    def line_from(self, p: int, step: tuple[int, int]) -> list[int]:
        """The cells p + d, p + 2d, ... up to the edge of the grid."""
        (r, c), (dr, dc) = self.grid.cell(p), step
        out = []
        r, c = r + dr, c + dc
        while 0 <= r < self.grid.rows and 0 <= c < self.grid.cols:
            out.append(self.grid.index(r, c))
            r, c = r + dr, c + dc
        return out

    @staticmethod
    def sparse(values: list[CellValue], within) -> dict[int, CellValue]:
        """A dense per-cell list as a sparse dict (False left out)."""
        cells = range(len(values)) if within is None else within
        return {i: values[i] for i in cells if values[i] is not False}

    def cost(self, e: ast.Expr) -> int:
        """Evaluation order inside ``and``: small fixed sets first, so later parts are evaluated on few cells."""
        if isinstance(e, ast.Name) and e.id in self.bound:
            return 0
        if isinstance(e, (ast.Around, ast.LineOf)):
            return 1
        if isinstance(e, ast.Name) and self.sym.kind_of(e.id) in ("tile", "tag"):
            return 2
        if isinstance(e, ast.Not):
            return 4
        return 3

    def combined(self, is_and: bool, values: dict[int, list[CellValue]]) -> dict[int, CellValue]:
        out = {}
        for i, vs in values.items():
            v = self.combine(is_and, vs, i)
            if v is not False:
                out[i] = v
        return out

    def is_members(self, e: ast.Is, within) -> dict[int, CellValue]:
        """``D = V``: the literal of value V at each cell D is made on (none where V is not a value there)."""
        per_cell = self.enum_lits[e.decision.id]
        fixed = None if isinstance(e.value, ast.TileValue) else self.resolve_value(e.decision.id, e.value, None)
        if fixed is not None:
            self.check_in_domain(e.decision.id, fixed, e.value)
        out = {}
        for i in range(self.grid.size) if within is None else within:
            lits = per_cell[i]
            if lits is None:
                continue
            value = fixed if fixed is not None else self.resolve_value(e.decision.id, e.value, i)
            v = lits.get(value, False)
            if v is not False:
                out[i] = v
        return out

    def check_in_domain(self, decision: str, value, where) -> None:
        """A value named in the spec (a literal, parameter or loop variable) must be one of the decision's."""
        values = self.domain_values.get(decision)
        if values is None or any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in values):
            return
        from .compiler import _show_set

        raise SemanticError(f"{value!r} is not a value of {decision!r} ({_show_set(values)})",
                            getattr(where, "span", None), source=self.spec.source)

    def component(self, p: int, within: ast.Expr, span: Span | None) -> dict[int, CellValue]:
        """The members of ``component of p in S``: see the module docstring."""
        inside = self.members(within)
        key = (p, tuple(sorted(inside.items())))
        if key in self.components:
            return self.components[key]
        root = inside.get(p, False)
        if root is False:
            self.components[key] = {}
            return {}
        grid = self.grid
        cand = grid.reach(set(inside), (p,))  # only the cells S may connect to p can be members
        self.component_count += 1
        number = self.component_count
        member: dict[int, CellValue] = {p: root}
        for v in sorted(cand - {p}):
            member[v] = self.new_var("component", v, number)
            s = inside[v]
            if s is not True:
                self.constraints.append(Clause((-member[v], s), span))
            if root is not True:
                self.constraints.append(Clause((-member[v], root), span))
        for u in sorted(cand):
            mu = member[u]
            for v in grid.neighbours[u]:
                if v not in cand or v == p:
                    continue
                self.clause([neg(mu), neg(inside[v]), member[v]], span)
        lits = tuple((i, self.lit(member[i])) for i in sorted(member))
        self.constraints.append(Connected(lits, (p,) if root is True else (), None, f"component of {grid.cell(p)}",
                                          span))
        self.components[key] = member
        return member

    # ----------------------------------------------------------- conditions
    def lit_of(self, f: ast.Expr) -> CellValue:
        """One literal (or constant) equivalent to the condition ``f`` under the current bindings."""
        if isinstance(f, ast.At):
            p = self.cell_of(f.cell)
            return False if p is None else self.members(f.name, {p}).get(p, False)
        if isinstance(f, ast.AtIs) and isinstance(f.value, ast.At):
            return self.same_value(f)
        if isinstance(f, ast.AtIs):
            p = self.cell_of(f.cell)
            if p is None:
                return False
            lits = self.enum_lits[f.name.id][p]
            if lits is None:
                return False
            value = self.resolve_value(f.name.id, f.value, p)
            if not isinstance(f.value, ast.TileValue):
                self.check_in_domain(f.name.id, value, f.value)
            return lits.get(value, False)
        if isinstance(f, ast.Is):  # p = q, two cells
            return self.cell_of(f.decision) == self.cell_of(f.value)
        if isinstance(f, ast.Not):
            return neg(self.lit_of(f.operand))
        if isinstance(f, (ast.And, ast.Or)):
            return self.combine(isinstance(f, ast.And), [self.lit_of(g) for g in f.operands], None)
        if isinstance(f, ast.Implies):
            return self.combine(False, [neg(self.lit_of(f.left)), self.lit_of(f.right)], None)
        if isinstance(f, (ast.Subset, ast.Avoids)):
            a = self.members(f.left)
            b = self.members(f.right, set(a))
            parts = [self.combine(False, [neg(x), neg(b.get(i, False)) if isinstance(f, ast.Avoids)
                                          else b.get(i, False)], i) for i, x in a.items()]
            return self.combine(True, parts, None)
        if isinstance(f, ast.Compare):
            terms, rhs, op = self.comparison(f)
            return self.reify(terms, op, rhs)
        if isinstance(f, ast.AllDifferent):
            return self.combine(True, [self.reify(terms, Cmp.LE, 1) for terms in self.value_sums(f)], None)
        if isinstance(f, ast.Aggregate) and f.fn in ("all", "any"):
            return self.combine(f.fn == "all", self.over(f, self.lit_of), None)
        if isinstance(f, ast.IsPiece):
            return self.piece_lit(f)
        raise SemanticError("expected a condition", getattr(f, "span", None), source=self.spec.source)

    # --------------------------------------------------------------- shapes
    def piece_placements(self, cand: dict[int, CellValue], shapes) -> list[tuple[int, frozenset[int]]]:
        """``(entry, placement)`` for each entry of ``shapes`` and each of its placements on the cells of ``cand``."""
        allowed = set(cand)
        out = []
        for k, shape in enumerate(shapes):
            out.extend((k, cells) for cells in polyomino.placements(shape, self.grid.rows, self.grid.cols, allowed))
        return out

    def piece_lit(self, f: ast.IsPiece) -> CellValue:
        """The literal of ``S is a piece of F`` (see the module docstring)."""
        cand = self.members(f.cells)
        wanted = set(self.family_shapes(f.family))
        key = tuple(sorted(cand.items()))
        chosen = self.pieces.get(key)
        if chosen is not None:
            lits = [y for cells, y in chosen.items() if self.form_of(cells) in wanted]
            return self.combine(False, lits, None)
        options = []
        for _, cells in self.piece_placements(cand, list(dict.fromkeys(self.family_shapes(f.family)))):
            options.append(self.combine(True, [cand[i] if i in cells else neg(cand[i]) for i in cand], None))
        return self.combine(False, options, None)

    def form_of(self, cells: frozenset[int]) -> tuple:
        """The free shape of a placement (its canonical form), computed once per placement."""
        form = self.forms.get(cells)
        if form is None:
            form = self.forms[cells] = polyomino.canonical(self.grid.cell(i) for i in cells)
        return form

    def assert_piece(self, f: ast.IsPiece, guard: tuple[int, ...]) -> None:
        """``S is a piece of F`` as a rule: one-hot over the placements."""
        span = self.current.span if self.current is not None else None
        cand = self.members(f.cells)
        shapes = list(dict.fromkeys(self.family_shapes(f.family)))
        options = self.piece_placements(cand, shapes)
        if not options:
            self.clause_under(guard, [], f)
            return
        chosen: dict[frozenset[int], int] = {}
        self.piece_count += 1
        for n, (_, cells) in enumerate(options):
            chosen[cells] = self.new_var("piece", None, f"{self.piece_count}.{n}")
        self.constraints.append(Linear(tuple((1, y) for y in chosen.values()), Cmp.EQ, 1, guard, span))
        self.cover(cand, [(cells, y) for cells, y in chosen.items()], guard, span)
        if not guard:
            self.pieces[tuple(sorted(cand.items()))] = chosen

    def cover(self, cand: dict[int, CellValue], placed: list[tuple[frozenset[int], int]], guard, span) -> None:
        """``s(c) == sum of y over the placements holding c``, for every cell S may hold."""
        for i, v in sorted(cand.items()):
            terms = [(-1, y) for cells, y in placed if i in cells]
            rhs = 0
            if v is True:
                rhs = -1
            else:
                terms.append((1, v))
            if not terms:
                self.clause_under(guard, [neg(v)], None)
                continue
            self.constraints.append(Linear(tuple(terms), Cmp.EQ, rhs, guard, span))

    def assert_consists(self, f: ast.ConsistsOf) -> None:
        """``S consists of F`` (a rule on its own line): one placement per entry, apart."""
        span = self.current.span if self.current is not None else None
        cand = self.members(f.cells)
        shapes = self.family_shapes(f.family)
        options = self.piece_placements(cand, shapes)
        self.piece_count += 1
        placed: list[tuple[frozenset[int], int]] = []
        per_entry: dict[int, list[int]] = {k: [] for k in range(len(shapes))}
        for n, (k, cells) in enumerate(options):
            y = self.new_var("piece", None, f"{self.piece_count}.{k}.{n}")
            placed.append((cells, y))
            per_entry[k].append(y)
        for k, ys in per_entry.items():
            if not ys:
                self.fails((), f)
            self.constraints.append(Linear(tuple((1, y) for y in ys), Cmp.EQ, 1, (), span))
        self.cover(cand, placed, (), span)
        cols = self.grid.cols
        for cells, y in placed:
            rim = set()
            for i in cells:
                r, c = divmod(i, cols)
                for v, ok in ((i - cols, r > 0), (i + cols, r < self.grid.rows - 1), (i - 1, c > 0),
                              (i + 1, c < cols - 1)):
                    if ok and v not in cells and v in cand:
                        rim.add(v)
            for v in sorted(rim):
                self.clause([-y, neg(cand[v])], span)

    def same_value(self, f: ast.AtIs) -> CellValue:
        """``D[p] = D[q]``: the ``or`` over D's values v of ``D[p]=v and D[q]=v``; for a Boolean D,
        both true or both false (a cell off the grid or off D's cells has no value, so it equals only another such)."""
        p, q = self.cell_of(f.cell), self.cell_of(f.value.cell)
        name = f.name.id
        if name in self.enum_lits:
            left = (self.enum_lits[name][p] or {}) if p is not None else {}
            right = (self.enum_lits[name][q] or {}) if q is not None else {}
            if not left or not right:
                return not left and not right
            both = [self.combine(True, [x, right[v]], None) for v, x in left.items() if v in right]
            return self.combine(False, both, None)
        a = False if p is None else self.decision_lits[name][p]
        b = False if q is None else self.decision_lits[name][q]
        return self.combine(False, [self.combine(True, [a, b], None), self.combine(True, [neg(a), neg(b)], None)], None)

    def over(self, agg: ast.Aggregate, fn) -> list:
        """``fn(body)`` for each cell of an aggregate's domain, with its variable bound to it."""
        cells = sorted(i for i, v in self.members(agg.domain).items() if v is True)
        out = []
        for i in cells:
            self.bind(agg.var.id, "cell", i)
            out.append(fn(agg.body))
        self.unbind(agg.var.id)
        return out

    def comparison(self, f: ast.Compare) -> tuple[tuple[tuple[int, int], ...], int, Cmp]:
        """``left OP right`` as ``(terms, rhs, op)`` with op one of ``<=``, ``>=``, ``==``."""
        lt, lc = self.linear(f.left)
        rt, rc = self.linear(f.right)
        coef: dict[int, int] = {v: c for c, v in lt}
        for c, v in rt:
            coef[v] = coef.get(v, 0) - c
        terms = tuple((c, v) for v, c in sorted(coef.items()) if c)
        rhs, op = rc - lc, f.op
        if op == "<":
            op, rhs = "<=", rhs - 1
        elif op == ">":
            op, rhs = ">=", rhs + 1
        self.check_value_compare(f)
        return terms, rhs, {"<=": Cmp.LE, ">=": Cmp.GE, "==": Cmp.EQ}[op]

    def check_value_compare(self, f: ast.Compare) -> None:
        """``D[p] == N`` with N known before solving must name a value of D (else an error located where N comes from)."""
        for side, other in ((f.left, f.right), (f.right, f.left)):
            if not (isinstance(side, ast.At) and side.name.id in self.domain_values) or f.op != "==":
                continue
            value = self._constant(other)
            if value is None or value in self.domain_values[side.name.id]:
                continue
            from .compiler import _show_set

            message = (f"{side.name.id}[...] == {value} cannot hold: {value} is not a value of {side.name.id!r} "
                       f"({_show_set(self.domain_values[side.name.id])})")
            p = self.cell_of(side.cell)
            if p is None:
                continue
            if self.map_data is not None and self.mentions_cell_value(other):
                r, c = self.grid.cell(p)
                raise MapError(f"the rule 'require {self.rule_text(self.current)}' ({self.current.span}) cannot hold "
                               f"at row {r + 1}, column {c + 1} ({self.grid.chars[p]!r}): {message}",
                               self.map_data.span(r, c), source=self.map_data.source)
            raise SemanticError(message, f.span, source=self.spec.source)

    @staticmethod
    def mentions_cell_value(e: ast.Expr) -> bool:
        return isinstance(e, ast.Value) or any(isinstance(x, ast.Value) for x in getattr(e, "operands", ()))

    def value_sums(self, f: ast.AllDifferent) -> list[tuple[tuple[int, int], ...]]:
        """For ``all different D in S``: per value v, the terms of ``sum of D[q]=v over S``."""
        cells = sorted(i for i, v in self.members(f.cells).items() if v is True)
        per_cell = self.enum_lits[f.decision.id]
        out = []
        for value in self.domain_values[f.decision.id]:
            lits = [per_cell[i][value] for i in cells if per_cell[i] is not None and value in per_cell[i]]
            if len(lits) > 1:
                out.append(tuple((1, l) for l in lits))
        return out

    @staticmethod
    def never(terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int) -> bool:
        """Whether ``sum terms OP rhs`` fails for every value of its 0/1 literals."""
        lo = sum(c for c, _ in terms if c < 0)
        hi = sum(c for c, _ in terms if c > 0)
        return op is Cmp.LE and lo > rhs or op is Cmp.GE and hi < rhs or op is Cmp.EQ and not lo <= rhs <= hi

    def reify(self, terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int) -> CellValue:
        """A literal b with ``b <-> (sum terms OP rhs)``.

        Cardinality cases are Tseitin definitions (``sum >= 1`` is the
        ``or`` of the literals, ``sum <= 0`` the ``and`` of their
        negations, and so on); otherwise b gets two half-reified
        :class:`Linear` rows, ``b -> sum OP rhs`` and ``~b -> the negated
        comparison`` (for ``==``, the negation ``<= rhs-1 or >= rhs+1`` takes
        one more auxiliary variable to choose the side).
        """
        lo = sum(c for c, _ in terms if c < 0)
        hi = sum(c for c, _ in terms if c > 0)
        # the literals as seen with positive coefficients: c*l = |c|*(-l) + c for c < 0
        pos = [(c, l) if c > 0 else (-c, -l) for c, l in terms]
        shift = -lo  # sum c l = sum |c| l' + lo
        k = rhs + shift
        if op is Cmp.LE:
            if hi <= rhs:
                return True
            if lo > rhs:
                return False
        elif op is Cmp.GE:
            if lo >= rhs:
                return True
            if hi < rhs:
                return False
        else:
            if not lo <= rhs <= hi:
                return False
            if lo == hi:
                return True
        if all(c == 1 for c, _ in pos):
            lits = [l for _, l in pos]
            n = len(lits)
            if op is Cmp.GE and k == 1 or op is Cmp.LE and k == n - 1:
                return self.combine(False, lits if op is Cmp.GE else [-l for l in lits], None)
            if op is Cmp.LE and k == 0 or op is Cmp.GE and k == n or op is Cmp.EQ and k in (0, n):
                return self.combine(True, [-l for l in lits] if k == 0 else lits, None)
        key = (terms, op, rhs)
        if key in self.reified:
            return self.reified[key]
        self.aux_count += 1
        b = self.new_var("aux", None, self.aux_count)
        span = self.current.span if self.current is not None else None
        if op is Cmp.EQ:
            self.constraints.append(Linear(terms, Cmp.EQ, rhs, (b,), span))
            below, above = rhs - 1 >= lo, rhs + 1 <= hi
            if below and above:
                self.aux_count += 1
                side = self.new_var("aux", None, self.aux_count)
                self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b, side), span))
                self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b, -side), span))
            elif below:
                self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b,), span))
            else:
                self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b,), span))
        elif op is Cmp.LE:
            self.constraints.append(Linear(terms, Cmp.LE, rhs, (b,), span))
            self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b,), span))
        else:
            self.constraints.append(Linear(terms, Cmp.GE, rhs, (b,), span))
            self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b,), span))
        self.reified[key] = b
        return b

    # ----------------------------------------------------------------- rules
    def holds(self, st: ast.Holds) -> None:
        """``require F``."""
        self.assert_formula(st.formula, ())

    def assert_formula(self, f: ast.Expr, guard: tuple[int, ...]) -> None:
        """State that ``f`` holds whenever every literal of ``guard`` does."""
        span = self.current.span if self.current is not None else None
        if isinstance(f, ast.And):
            for g in f.operands:
                self.assert_formula(g, guard)
            return
        if isinstance(f, ast.Aggregate) and f.fn == "all":
            self.over(f, lambda body: self.assert_formula(body, guard))
            return
        if isinstance(f, ast.Implies):
            a = self.lit_of(f.left)
            if a is False:
                return
            self.assert_formula(f.right, guard if a is True else _add(guard, a))
            return
        if isinstance(f, ast.Not):
            pushed = _push_not(f.operand)
            if pushed is not None:
                self.assert_formula(pushed, guard)
                return
        if isinstance(f, ast.Compare):
            terms, rhs, op = self.comparison(f)
            if not terms or self.never(terms, op, rhs):
                if not terms and op.holds(0, rhs):
                    return
                self.fails(guard, f)
                return
            self.constraints.append(Linear(terms, op, rhs, guard, span))
            return
        if isinstance(f, ast.IsPiece):
            self.assert_piece(f, guard)
            return
        if isinstance(f, ast.ConsistsOf):
            self.assert_consists(f)
            return
        if isinstance(f, ast.AllDifferent):
            cells = [i for i, v in self.members(f.cells).items() if v is True]
            exact = not guard and len(cells) == len(self.domain_values[f.decision.id]) and all(
                self.enum_lits[f.decision.id][i] is not None for i in cells)
            for terms in self.value_sums(f):
                self.constraints.append(Linear(terms, Cmp.EQ if exact else Cmp.LE, 1, guard, span))
            return
        if isinstance(f, (ast.Subset, ast.Avoids)):
            a = self.members(f.left)
            b = self.members(f.right, set(a))
            for i, x in a.items():
                y = b.get(i, False)
                self.clause_under(guard, [neg(x), neg(y) if isinstance(f, ast.Avoids) else y], f, i)
            return
        if isinstance(f, ast.Or) or isinstance(f, ast.Aggregate) and f.fn == "any":
            parts = list(f.operands) if isinstance(f, ast.Or) else None
            lits = [self.lit_of(g) for g in parts] if parts is not None else self.over(f, self.lit_of)
            self.clause_under(guard, lits, f)
            return
        self.clause_under(guard, [self.lit_of(f)], f)

    def clause_under(self, guard: tuple[int, ...], lits: list[CellValue], f, cell: int | None = None) -> None:
        """The clause ``~guard | lits``; a rule that can never hold is an error."""
        if any(v is True for v in lits):
            return
        body = [v for v in lits if v is not False]
        if not body and not guard:
            self.fails(guard, f, cell)
            return
        self.clause([-g for g in guard] + body, self.current.span if self.current is not None else None)

    def fails(self, guard: tuple[int, ...], f: ast.Expr, cell: int | None = None) -> None:
        """A rule instance that is false whatever the decisions: an error, or a clause forbidding its guard."""
        if guard:
            self.clause([-g for g in guard], self.current.span if self.current is not None else None)
            return
        st = self.current
        cells = [v for kind, v in self.bound.values() if kind == "cell"]
        if cell is None and cells:
            cell = cells[-1]
        binding = self.binding_text()
        message = (f"the rule 'require {self.rule_text(st)}' ({st.span}) fails whatever the decisions"
                   + (f" with {binding}" if binding else ""))
        if cell is not None and self.map_data is not None:
            r, c = self.grid.cell(cell)
            raise MapError(f"{message}; see row {r + 1}, column {c + 1} ({self.grid.chars[cell]!r})",
                           self.map_data.span(r, c), source=self.map_data.source)
        raise SemanticError(message, st.span, source=self.spec.source)

    def binding_text(self) -> str:
        """``p = (2, 3), r = row 2``: the ``for each`` bindings in force."""
        parts = []
        for name, (kind, value) in self.bound.items():
            if kind == "cell":
                parts.append(f"{name} = {self.grid.cell(value)}")
            elif kind == "set":
                parts.append(f"{name} = {value[1]}")
            elif kind == "direction":
                parts.append(f"{name} = {value[0]}")
            else:
                parts.append(f"{name} = {value}")
        return ", ".join(parts)


def _push_not(f: ast.Expr) -> ast.Expr | None:
    """``not f`` with the negation moved one level in (De Morgan), or None when it cannot move."""
    if isinstance(f, ast.Not):
        return f.operand
    if isinstance(f, (ast.And, ast.Or)):
        parts = tuple(ast.Not(g, g.span) for g in f.operands)
        return ast.Or(parts, f.span) if isinstance(f, ast.And) else ast.And(parts, f.span)
    if isinstance(f, ast.Implies):
        return ast.And((f.left, ast.Not(f.right, f.right.span)), f.span)
    if isinstance(f, ast.Aggregate) and f.fn in ("all", "any"):
        return ast.Aggregate("any" if f.fn == "all" else "all", ast.Not(f.body, f.body.span), f.var, f.domain, f.span)
    if isinstance(f, ast.Compare) and f.op != "==":
        op = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}[f.op]
        return ast.Compare(f.left, op, f.right, f.span)
    return None


def _add(guard: tuple[int, ...], lit: int) -> tuple[int, ...]:
    return guard if lit in guard else guard + (lit,)
