"""Cell sets: the sets a spec names, evaluated cell by cell to literals.

Part of the compiler (a mixin of :class:`~gridlang.compiler.core._Compiler`).

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
    A rule that caps it, ``count(component of p in S) OP k`` with OP ``==``,
    ``<=`` or ``<``, k known before solving and no guard, is compiled before
    the other rules (:func:`caps_component`), and the region is then made
    only over the cells of S within k - 1 steps of p (a component of at most
    k cells lies there), with ``not (m(u) and s(v))`` for each edge (u, v)
    leaving that ball: the variables number the cells times k, not the cells
    squared (Nurikabe's islands, one region per clue). Exact while the cap
    holds, which the rule states; the tools that say why (tagged compiles)
    drop a rule instance at a time, so they get the region uncapped.
``sight from p toward q through S``
    with c1 = q, c2, ... the cells in line beyond p: ``in(c1) = s(c1)``,
    ``in(ck) = in(c(k-1)) & s(ck)`` (a Tseitin chain, one auxiliary variable
    per cell at most).
A construct's cell set (``D = D[p]``)
    its construct's ``members`` hook (:mod:`gridlang.language.constructs`).
"""

from __future__ import annotations

from typing import Iterable

from gridlang.compiler.diagnostics import names_in, show_set
from gridlang.compiler.tags import definition
from gridlang.core.errors import SemanticError, Span
from gridlang.core.grid import cell_name
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import Clause, Connected
from gridlang.language import ast
from gridlang.language.constructs import construct_of


class CellSetLowering:
    """Bindings of ``for each`` and the evaluation of cell sets (a mixin)."""

    # bound variables: name -> ("int", value) | ("cell", index) | ("corner", (row, col))
    # | ("set", (frozenset, label)) | ("direction", (name, step)) | ("shape", shape)
    bound: dict

    def bind(self, name: str, kind: str, value) -> None:
        """Bind a ``for each`` variable (integers also go to ``env`` for the older constructs)."""
        self.bound[name] = (kind, value)
        if kind == "int":
            self.env[name] = value

    def unbind(self, name: str) -> None:
        """Forget a ``for each`` variable."""
        self.bound.pop(name, None)
        self.env.pop(name, None)

    def bindings(self, var: ast.Name, domain) -> Iterable[tuple[str, object]]:
        """What a ``for each`` variable takes, in order: ``(kind, value)`` pairs (windows and
        blocks made one at a time, as they are bound)."""
        if isinstance(domain, ast.Shapes):
            # imported on use, not at start-up: a spec without shapes loads no placements
            from gridlang.compiler.pieces import family_shapes

            return [("shape", shape) for shape in family_shapes(self, domain)]
        if isinstance(domain, ast.Family):
            kind = {"cells": "cell", "directions": "direction", "corners": "corner"}.get(domain.kind, "set")
            return ((kind, v) for v in self.family(domain))
        if isinstance(domain, ast.Name) and self.sym.params.get(domain.id) is not None:
            return [("int", v) for v in self.params[domain.id]]
        if self.is_corners(domain):
            return [("corner", v) for v in self.corner_set(domain)]
        if self.is_borders(domain):
            return [("border", b) for b in self.border_set(domain)]
        return [("cell", i) for i in self.fixed_members(domain, "for each")]

    def fixed_members(self, domain: ast.Expr, what: str) -> list[int]:
        """The cells of a set known from the map, ascending (what ``for each`` and the aggregates run over).

        Raises:
            SemanticError: a cell of it depends on the decisions (the checker lets only fixed sets
                through; were one to pass, its cells would otherwise be left out without a word).
        """
        members = self.members(domain)
        if any(v is not True for v in members.values()):
            raise SemanticError(f"{what} runs over a cell set known from the map; this one depends on the "
                                "decisions", getattr(domain, "span", None), source=self.spec.source)
        return sorted(members)

    def family(self, domain: ast.Family) -> Iterable:
        """The members of a family: cell indices, or ``(frozenset of cells, label)`` pairs (windows
        and blocks as a generator: together they can hold many times the grid's cells)."""
        g = self.grid
        if domain.kind == "cells":
            return list(range(g.size))
        if domain.kind == "directions":
            return list(ast.Direction.STEPS.items())
        if domain.kind == "corners":
            return self.all_corners()
        if domain.kind == "rows":
            return [(frozenset(g.row_cells(r)), f"row {r + 1}") for r in range(g.rows)]
        if domain.kind == "columns":
            return [(frozenset(g.column_cells(c)), f"column {c + 1}") for c in range(g.cols)]
        if domain.kind == "rooms":
            self.need_rooms(domain.span)
            return [(frozenset(cells), f"the room at {g.cell_name(cells[0])}") for cells in g.room_cells()]
        h, w = (self.constant(d) for d in (domain.height, domain.width))
        if h is None or w is None or h < 1 or w < 1:
            raise SemanticError(f"a {domain.kind[:-1]}'s size must be at least 1x1, not {h}x{w}", domain.span,
                                source=self.spec.source)
        if domain.kind == "windows":
            return ((frozenset(g.rectangle(r, c, h, w)), f"the {h}x{w} window at {cell_name(r, c)}")
                    for r in range(g.rows - h + 1) for c in range(g.cols - w + 1))
        if g.rows % h or g.cols % w:
            raise SemanticError(f"{h}x{w} blocks do not tile this {g.rows}x{g.cols} map", domain.span,
                                source=self.spec.source)
        return ((frozenset(g.rectangle(r, c, h, w)), f"the {h}x{w} block at {cell_name(r, c)}")
                for r in range(0, g.rows, h) for c in range(0, g.cols, w))

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
            step = self.step_of(e.right)
            if step is None:
                return None
            dr, dc = step
            r, c = self.grid.cell(base)
            r, c = r + e.sign * dr, c + e.sign * dc
            return self.grid.index(r, c) if 0 <= r < self.grid.rows and 0 <= c < self.grid.cols else None
        raise SemanticError("expected one cell (a 'for each' cell variable)", getattr(e, "span", None),
                            source=self.spec.source)

    def step_of(self, e: ast.Expr) -> tuple[int, int] | None:
        """The ``(rows, columns)`` step of a direction (a literal, a ``for each direction`` variable, an
        arrow's ``direction(c)``, a decided direction's case, or ``-d``); None for the arrow of a cell
        off the grid, or a case with no direction."""
        if isinstance(e, ast.Direction):
            return e.step
        if isinstance(e, ast.DirectionOf):
            return self.arrow_step(e)
        if isinstance(e, ast.Neg):
            step = self.step_of(e.operand)
            return None if step is None else (-step[0], -step[1])
        if isinstance(e, ast.At):  # dir[p] where no condition holds it whole (gridlang.compiler.directions)
            # imported on use, not at start-up: only a spec with a decided direction gets here
            from gridlang.compiler.directions import unsplit_step

            raise unsplit_step(self, e)
        return self.bound[e.id][1][1]

    # corners of the lattice: bound by `for each corner v`, stepped by `v + d`, made by a construct's set
    def is_corner(self, e: ast.Expr) -> bool:
        """Whether ``e`` stands for one corner: a bound corner variable, or ``v + d``."""
        if isinstance(e, ast.Name):
            return self.bound.get(e.id, ("",))[0] == "corner"
        return isinstance(e, ast.Add) and self.is_corner(e.left)

    def is_corners(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a set of corners (a construct's, ``corners(p)``, a tile on corners, or one corner)."""
        construct = construct_of(e)
        return construct.corners if construct is not None else self.is_corner(e) or self.is_corner_tile(e)

    def is_corner_tile(self, e: ast.Expr) -> bool:
        """Whether ``e`` names a tile on corners (the corners of the map that hold it)."""
        return isinstance(e, ast.Name) and e.id not in self.bound and e.id in self.sym.corner_tiles

    def corner_of(self, e: ast.Expr) -> tuple[int, int] | None:
        """The ``(row, col)`` corner ``e`` stands for (None off the lattice)."""
        if isinstance(e, ast.Name):
            return self.bound[e.id][1]
        base = self.corner_of(e.left)
        if base is None:
            return None
        step = self.step_of(e.right)
        if step is None:  # a decided direction's case with no direction (or an arrow off the grid)
            return None
        r, c = base[0] + e.sign * step[0], base[1] + e.sign * step[1]
        return (r, c) if 0 <= r <= self.grid.rows and 0 <= c <= self.grid.cols else None

    def corner_set(self, e: ast.Expr) -> list[tuple[int, int]]:
        """The corners of a set of corners (``corners(p)``: its construct's), or of one corner."""
        construct = construct_of(e)
        if construct is not None:
            return construct.corner_members(self, e)
        if self.is_corner_tile(e):
            width = self.grid.cols + 1
            return [divmod(k, width) for k, name in enumerate(self.grid.corner_tiles) if name == e.id]
        v = self.corner_of(e)
        return [] if v is None else [v]

    # borders: bound by `for each b in T` (T a tile on borders) as their index in the map's border layer
    def is_borders(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a set of borders: a tile on borders, or one bound border."""
        if not isinstance(e, ast.Name):
            return False
        if e.id in self.bound:
            return self.bound[e.id][0] == "border"
        return e.id in self.sym.border_tiles

    def border_set(self, e: ast.Expr) -> list[int]:
        """The borders of a set of borders, each by its index in the map's border layer (pzprjs's order, the
        frame's after the others: :func:`gridlang.core.grid.frame_border`)."""
        if e.id in self.bound:
            return [self.bound[e.id][1]]
        return [k for k, name in enumerate(self.grid.border_tiles) if name == e.id]

    def all_corners(self) -> list[tuple[int, int]]:
        """Every corner of the lattice, row-major."""
        return [(r, c) for r in range(self.grid.rows + 1) for c in range(self.grid.cols + 1)]

    @definition
    def define(self, make, *args):
        """``make(*args)``, whose constraints define auxiliary variables (tagged so for gridlang.why):
        for a construct's lowering, which cannot mark its own functions."""
        return make(*args)

    def is_direction(self, e: ast.Expr) -> bool:
        if isinstance(e, (ast.DirectionOf, ast.Direction)):
            return True
        if isinstance(e, ast.Neg):
            return self.is_direction(e.operand)
        return isinstance(e, ast.Name) and self.bound.get(e.id, ("",))[0] == "direction"

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
                return self.fixed(("tile", e.id), lambda: (i for i, t in enumerate(self.grid.tiles) if t in owners),
                                  within)
            if kind == "decision":
                return self.sparse(self.decision_lits[e.id], within)
            if kind == "region":
                if e.id not in self.region_lits:
                    raise SemanticError(f"region {e.id!r} is used before its definition", e.span,
                                        source=self.spec.source)
                return self.sparse(self.region_lits[e.id], within)
            raise SemanticError(f"{e.id!r} is not a cell set", e.span, source=self.spec.source)
        if isinstance(e, ast.Border):
            return self.fixed(("border",), lambda: (i for i in range(self.grid.size) if self.grid.is_border(i)),
                              within)
        if isinstance(e, ast.AllCells):
            return self.fixed(("all",), lambda: range(self.grid.size), within)
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
            if e.kind == "side":
                return keep(g.neighbours[p])
            return keep(g.diagonal_neighbours(p) if e.kind == "diagonal" else g.king_neighbours(p))
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
            if room < 0:
                return {}  # a cell of a tile in no room
            if ("rooms",) not in self.fixed_sets:
                self.fixed_sets[("rooms",)] = [(tuple(cells), frozenset(cells)) for cells in self.grid.room_cells()]
            ordered, cells = self.fixed_sets[("rooms",)][room]
            return self.pick(ordered, cells, within)
        if isinstance(e, ast.Component):
            p = self.cell_of(e.cell)
            comp = {} if p is None else self.component(p, e.within, e.span)
            if within is None:
                return dict(comp)
            if len(within) * 4 < len(comp):  # `q in (component of p in S)`: one cell looked up
                return {i: comp[i] for i in sorted(within) if i in comp}
            return {i: v for i, v in comp.items() if i in within}
        if isinstance(e, ast.Sight):
            line = self.sight_line(e)
            if within is not None:  # the chain up to the last cell asked for, not to the edge
                last = max((k for k, i in enumerate(line) if i in within), default=-1)
                line = line[: last + 1]
            inside = self.members(e.within, set(line))
            out, seen = {}, True
            for i in line:
                seen = self.combine(True, [seen, inside.get(i, False)], i)
                if seen is False:
                    break
                if within is None or i in within:
                    out[i] = seen
            return out
        construct = construct_of(e)
        if construct is not None:
            return construct.members(self, e, within)
        raise SemanticError("expected a cell set", getattr(e, "span", None), source=self.spec.source)

    def fixed(self, key: tuple, make, within) -> dict[int, CellValue]:
        """A set known from the map (a tile, a tag, the border, every cell): its cells are found
        once per compilation (``make()``, ascending), then picked from in time linear in the
        smaller of the set and ``within``."""
        if key not in self.fixed_sets:
            ordered = tuple(make())
            self.fixed_sets[key] = (ordered, frozenset(ordered))
        ordered, cells = self.fixed_sets[key]
        return self.pick(ordered, cells, within)

    @staticmethod
    def pick(ordered: tuple[int, ...], cells: frozenset[int], within) -> dict[int, CellValue]:
        """``{i: True}`` for the cells of a fixed set (ascending) that lie in ``within`` (None: all)."""
        if within is None:
            return dict.fromkeys(ordered, True)
        if len(within) * 4 < len(ordered):
            return {i: True for i in sorted(within) if i in cells}
        return {i: True for i in ordered if i in within}

    def sight_line(self, e: ast.Sight) -> list[int]:
        """The cells ``sight from p toward q`` looks along, in order, to the edge of the grid (before S stops it)."""
        p = self.cell_of(e.cell)
        if p is None:
            return []
        if self.is_direction(e.toward):
            step = self.step_of(e.toward)
            return [] if step is None else self.line_from(p, step)
        q = self.cell_of(e.toward)
        return [] if q is None else self.line_beyond(p, q, e.span)

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
        return list(self.line_range(p, step))

    def line_range(self, p: int, step: tuple[int, int]) -> range:
        """The cells p + d, p + 2d, ... up to the edge of the grid, as a range of indices (read lazily)."""
        (r, c), (dr, dc) = self.grid.cell(p), step
        if dr == dc == 0:
            return range(0)
        # the steps that stay on the grid, along each axis that moves, then the indices as one range
        n = min(((self.grid.rows - 1 - r) // dr if dr > 0 else r // -dr) if dr else self.grid.size,
                ((self.grid.cols - 1 - c) // dc if dc > 0 else c // -dc) if dc else self.grid.size)
        stride = dr * self.grid.cols + dc
        return range(p + stride, p + stride * (n + 1), stride) if n > 0 else range(0)

    @staticmethod
    def sparse(values: list[CellValue], within) -> dict[int, CellValue]:
        """A dense per-cell list as a sparse dict (False left out)."""
        cells = range(len(values)) if within is None else within
        return {i: values[i] for i in cells if values[i] is not False}

    def cost(self, e: ast.Expr) -> int:
        """Evaluation order inside ``and``: small fixed sets first, so later parts are evaluated on few cells."""
        if isinstance(e, ast.Name) and e.id in self.bound:
            return 0
        if isinstance(e, (ast.Around, ast.LineOf, ast.Sight)):
            return 1  # a few cells around one, or a line from it (a sight line stops at its first blocked cell)
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
        # A domain holds value names and integers, never a Boolean (True == 1 in a set).
        if values is None or not isinstance(value, bool) and value in self.domain_sets[decision]:
            return
        if decision in self.sym.cell_decisions:
            raise self.cell_value_missing(decision, value, where)

        raise SemanticError(f"{value!r} is not a value of {decision!r} ({show_set(values)})",
                            getattr(where, "span", None), source=self.spec.source)

    def cap_component(self, f: ast.Compare) -> None:
        """Note the cap a rule ``count(component of p in S) OP k`` (stated with no guard) puts on p's
        component in S: at most k cells for ``==`` and ``<=``, k - 1 for ``<``, with k known before
        solving; :meth:`component` makes the region only within that many steps of p (the module
        docstring). Nothing is noted for a component already made, or for any other comparison."""
        capped = _capped(f)
        if capped is None:
            return
        component, other, op = capped
        p = self.cell_of(component.cell)
        if p is None or construct_of(component.within) is not None:
            return
        k = self.constant(other)
        if k is None:
            return
        key = (p, self.component_set(component.within)[1])
        if key not in self.components:
            most = k - 1 if op == "<" else k
            self.component_caps[key] = min(most, self.component_caps.get(key, most))
            if op == "==":
                self.component_exact[key] = k if self.component_exact.get(key, k) == k else -1

    def binding_key(self, e: ast.Expr) -> tuple:
        """What a set or condition at the node ``e`` depends on besides the model built so far: the
        node (by identity, kept alive in :attr:`node_names` so that its ``id`` stays its own) and the
        values of the ``for each`` names it mentions. Its names are found once per node, so that a key
        costs a look-up per name, not a walk of the node per rule instance."""
        entry = self.node_names.get(id(e))
        if entry is None or entry[0] is not e:
            entry = self.node_names[id(e)] = (e, tuple(names_in(e)))
        bound, env = self.bound, self.env
        return (id(e), *[(bound.get(n), env.get(n)) for n in entry[1]])

    def component_set(self, within: ast.Expr) -> tuple[dict[int, CellValue], int]:
        """``(members, key)`` of the set S of ``component of p in S``: its cells with their literals, and
        a number that stands for those (cell, literal) pairs, the key its components are shared by. Evaluated once per S and
        values of the ``for each`` variables it names, so that ``q in (component of p in S)`` over every
        cell q and clue p costs a look-up each, not S's cells each."""
        frame = (within, tuple((name, self.bound.get(name), self.env.get(name)) for name in names_in(within)))
        found = self.component_sets.get(frame)
        if found is None:
            inside = self.members(within)
            cells = tuple(sorted(inside.items()))  # hashed once here: a tuple does not keep its hash
            found = self.component_sets[frame] = (inside, self.set_ids.setdefault(cells, len(self.set_ids)))
            self.set_members.setdefault(found[1], inside)
        return found

    @definition
    def component(self, p: int, within: ast.Expr, span: Span | None) -> dict[int, CellValue]:
        """The members of ``component of p in S``: see the module docstring."""
        inside, s_key = self.component_set(within)
        key = (p, s_key)
        if key in self.components:
            return self.components[key]
        root = inside.get(p, False)
        if root is False:
            self.components[key] = {}
            return {}
        grid = self.grid
        cand = grid.reach(set(inside), (p,))  # only the cells S may connect to p can be members
        if all(inside[v] is True for v in cand):  # S known from the map: the component is too, no variable
            self.components[key] = dict.fromkeys(sorted(cand), True)
            return self.components[key]
        cap = self.component_caps.get(key)
        if cap is not None and self.cap_components:
            cand = set(grid.distances(cand, p, limit=max(cap - 1, 0)))
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
                if v == p or v not in inside:
                    continue
                # inside the ball: u's neighbour in S is a member; leaving it: u has none
                self.clause([neg(mu), neg(inside[v])] + ([member[v]] if v in cand else []), span)
        lits = tuple((i, self.lit(member[i])) for i in sorted(member))
        self.constraints.append(Connected(lits, (p,) if root is True else (), None, f"component of {grid.cell(p)}",
                                          span))
        self.components[key] = member
        return member


_FLIPPED = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


def _capped(f: ast.Compare) -> tuple[ast.Component, ast.Expr, str] | None:
    """``(component, the other side, op)`` when ``f`` is ``count(component of p in S) OP k`` (either
    way round) with OP ``==``, ``<=`` or ``<`` as the count stands on the left, else None."""
    for side, other, op in ((f.left, f.right, f.op), (f.right, f.left, _FLIPPED[f.op])):
        if op in ("==", "<=", "<") and isinstance(side, ast.Count) and isinstance(side.operand, ast.Component):
            return side.operand, other, op
    return None


def caps_component(rule) -> bool:
    """Whether a rule statement caps a component (:meth:`CellSetLowering.cap_component`): its body,
    through ``for each``, ``require`` and the right side of ``implies``, is such a comparison, or an
    ``and`` holding one. The compiler states these rules first, so that the regions they cap are made
    capped whatever rule uses them first."""
    while True:
        if isinstance(rule, ast.ForEach):
            rule = rule.body
        elif isinstance(rule, ast.Holds):
            rule = rule.formula
        elif isinstance(rule, ast.Implies):
            rule = rule.right
        elif isinstance(rule, ast.And):
            return any(caps_component(g) for g in rule.operands)
        else:
            return isinstance(rule, ast.Compare) and _capped(rule) is not None
