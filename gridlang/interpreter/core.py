"""The interpreter's driver: the answer's decisions, then each statement in turn.

The meaning of every construct is stated in the package's docstring
(:mod:`gridlang.interpreter`); sets and numbers are evaluated by
:class:`~gridlang.interpreter.expressions.Expressions`, conditions by
:class:`~gridlang.interpreter.conditions.Conditions`. Each rule, set, number
and condition is evaluated by the method its node's type names in a
dictionary (``_RULES`` here); what does not depend on the bindings is found
once per node (``facts``, ``owners``, ``numeric``) or, for a set, once per
answer (``sets``).
"""


from __future__ import annotations

from typing import Mapping

from gridlang.core.errors import ParamError
from gridlang.core.grid import Grid, cell_name
from gridlang.interpreter.clues import ClueMeanings
from gridlang.interpreter.conditions import _compare, _same
from gridlang.interpreter.expressions import Expressions, _counted, _rooms_of, closed_sets, free_of
from gridlang.interpreter.graph import adjacency, components, reached
from gridlang.interpreter.verdict import _MAX_SHOWN, SpecVerdict, Violation, _rc, _s, _show, statement_text
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.constructs import construct_of, decision_of

Decisions = Mapping[str, Mapping[int, object]]
"""Decision name -> {cell index: value}: a Boolean decision lists its true
cells (value True), an enumeration each cell's value."""



class Interpreter(ClueMeanings, Expressions):
    """The rules of one spec on one map, ready to judge many answers.

    Args:
        spec, symbols, grid, params: as in :func:`evaluate`.

    Raises:
        ParamError: a parameter of the spec has no value in ``params``.
    """

    def __init__(self, spec: ast.Spec, symbols: Symbols, grid: Grid, params: Mapping[str, object]):
        self.spec = spec
        self.sym = symbols
        self.grid = grid
        self.n = grid.rows * grid.cols
        for name, decl in symbols.params.items():
            if name not in params:
                raise ParamError(f"parameter {name!r} has no value", decl.span, source=spec.source)
        self.params = dict(params)
        self.adj = adjacency(grid, symbols)
        self.all = frozenset(range(self.n))
        cols, n = grid.cols, self.n  # the first and last row and column:
        self.border = frozenset((*range(cols), *range(n - cols, n), *range(0, n, cols), *range(cols - 1, n, cols))
                                if n else ())
        values: dict[tuple[str, str], int | None] = {}  # by tile and character: most cells share theirs
        for key in zip(grid.tiles, grid.chars):
            if key not in values:
                values[key] = symbols.tiles[key[0]].value_of(key[1]) if key[0] in symbols.tiles else 0
        self.tile_values = tuple(values[key] for key in zip(grid.tiles, grid.chars))
        self.texts: dict[int, str] = {}
        self.fixed: dict[str, frozenset[int]] = {}
        # Per answer (env: `for each` integers; cellvars, setvars: `for each`
        # cells and cell sets; pair: the cells of a neighbour pair):
        self.env: dict[str, int] = {}
        self.cellvars: dict[str, int] = {}
        self.setvars: dict[str, tuple[frozenset[int], str]] = {}
        self.shapevars: dict[str, tuple[tuple[int, int], ...]] = {}
        self.dirvars: dict[str, tuple[str, tuple[int, int]]] = {}
        self.cornervars: dict[str, tuple[int, int]] = {}
        self.bordervars: dict[str, int] = {}  # a border by its index in the map's border layer (pzprjs's order)
        self.room_of: tuple[int, ...] | None = _rooms_of(
            grid, frozenset(name for name, tile in symbols.tiles.items() if tile.no_room))
        self.room_groups: dict[int, frozenset[int]] | None = None  # each room's cells, once asked
        self.pair: dict[str, int] = {}
        self.bools: dict[str, frozenset[int]] = {}
        self.enums: dict[str, dict[int, object]] = {}
        self.forms: dict = {}  # a cell set, or ("shape", cells), -> its free shape
        # id of a node -> (the node, what is found once per node): its construct's comparison, whether it
        # compares numbers, whether a construct states it as a rule of its own
        self.owners: dict = {}
        self.numeric: dict = {}
        self.facts: dict = {}
        self.regions: dict[str, frozenset[int]] = {}
        # The set nodes whose cells no binding changes (their ids), and their cells on this answer:
        self.closed = closed_sets(spec.statements)
        self.sets: dict[int, frozenset[int]] = {}
        self.violations: list[Violation] = []
        self.stmt: ast.Stmt | None = None
        # Fixed per map:
        self.on = {d.name: self.cells(d.on) for d in spec.of(ast.Decide) if d.on is not None}
        # What constructs keep of one answer, by construct (the edges of a decision on edges).
        self.kept: dict = {}
        self.domains = {d.name: self.domain(d) for d in spec.of(ast.Decide) if d.is_enum}
        self.value_names = {d.name: {p.id for p in d.domain if isinstance(p, ast.Symbol)} if d.is_enum else set()
                            for d in spec.of(ast.Decide)}

    # answers -----------------------------------------------------------------
    def evaluate(self, decisions: Decisions) -> SpecVerdict:
        """Judge one answer; see :func:`evaluate`."""
        self.env, self.pair, self.regions, self.violations = {}, {}, {}, []
        self.cellvars, self.setvars, self.shapevars, self.dirvars = {}, {}, {}, {}
        self.cornervars, self.bordervars = {}, {}
        self.bools, self.enums, self.kept, self.sets = {}, {}, {}, {}
        self.check_decisions(decisions)
        self.sets = {}  # after the decisions are read (a construct's reading may ask for cells)
        objective = None
        for st in self.spec.statements:
            self.stmt = st
            if isinstance(st, ast.Region):
                self.regions[st.name] = self.reach(st)
            elif type(st) in _RULES:
                self.rule(st)
            elif isinstance(st, ast.Objective):
                objective = self.number(st.expr)
        return SpecVerdict(not self.violations, objective, list(self.violations), dict(self.regions))

    def check_decisions(self, decisions: Decisions) -> None:
        for name in decisions:
            if name not in self.sym.decisions:
                known = ", ".join(self.sym.decisions) or "none"
                self.violations.append(Violation(
                    None, f"decision {name!r}", (),
                    f"the answer gives a decision {name!r}, which the spec does not declare (it has: {known})"))
        for d in self.spec.of(ast.Decide):
            given = dict(decisions.get(d.name, {}))
            self.stmt = d
            if d.lattice is not None:  # decide line: bool on edges, a construct's
                decision_of(d.lattice).read(self, d, given)
                continue
            on = self.on[d.name]
            strange = [i for i in given if type(i) is not int or not 0 <= i < self.n]
            if strange:
                self.fail(f"{d.name!r} is given on keys that are no cell index of this {self.grid.rows}x"
                          f"{self.grid.cols} map (0 to {self.n - 1}, row-major): "
                          + ", ".join(repr(i) for i in strange[:_MAX_SHOWN]))
                given = {i: v for i, v in given.items() if i not in strange}
            if not d.is_enum:
                true = {i for i, v in given.items() if v is True or v == 1 and not isinstance(v, bool)}
                odd = sorted(i for i, v in given.items() if v not in (True, False, 0, 1))
                if odd:
                    self.fail("a Boolean decision takes the value True (or 1) on its true cells; "
                              "these cells have another value", odd)
                outside = sorted(i for i in true if i not in on)
                if outside:
                    self.fail(f"{d.name!r} is true on cells it is not made on", outside)
                self.bools[d.name] = frozenset(true & on)
                continue
            domain = self.domains[d.name]
            outside = sorted(i for i in given if i not in on)
            if outside:
                self.fail(f"{d.name!r} has a value on cells it is not made on", outside)
            missing = sorted(on - set(given))
            if missing:
                self.fail(f"{d.name!r} has no value on cells it is made on", missing)
            bad = sorted(i for i, v in given.items() if i in on and not any(_same(v, x) for x in domain))
            if bad:
                values = ", ".join(sorted({repr(given[i]) for i in bad}))
                self.fail(f"{d.name!r} takes values outside its domain ({_show(domain)}): {values}", bad)
            self.enums[d.name] = {i: v for i, v in given.items() if i in on}

    def domain(self, d: ast.Decide) -> tuple[object, ...]:
        if d.name in self.sym.cell_decisions:
            return self.cell_values(d)
        values: list[object] = []
        for part in d.domain:
            if isinstance(part, ast.Symbol):
                values.append(part.id)
            elif isinstance(part, ast.IntLit):
                values.append(part.value)
            elif isinstance(part, ast.DomainRange):
                low, high = (self.number(b) for b in (part.low, part.high))
                values.extend(range(low, high + 1))
            elif isinstance(part, ast.DomainValues):
                seen = set(values)
                values.extend(v for v in sorted({self.tile_values[i] for i in range(self.n)
                                                 if self.grid.tiles[i] == part.tile.id} - {None}) if v not in seen)
            else:
                values.extend(self.params[part.id])
        return tuple(values)

    # violations -----------------------------------------------------------------
    def fail(self, reason: str, cells=(), corners=()) -> None:
        """Record a violation of the current statement, naming the ``for each`` bindings in force; its
        ``cells`` (indices) and ``corners`` (``(row, col)`` of the lattice) beside the bound ones are
        the places to show."""
        st = self.stmt
        binding = "; ".join([f"{k} = {v}" for k, v in self.env.items()]
                            + [f"{k} = {_rc(self.grid, i)}" for k, i in self.cellvars.items()]
                            + [f"{k} = {label}" for k, (_, label) in self.setvars.items()]
                            + [f"{k} = {name}" for k, (name, _) in self.dirvars.items()]
                            + [f"{k} = the corner at {cell_name(*v)}" for k, v in self.cornervars.items()]
                            + [f"{k} = {self.grid.border_name(b)}" for k, b in self.bordervars.items()])
        cols = self.grid.cols
        region = sorted({i for members, _ in self.setvars.values() for i in members})
        self.violations.append(Violation(
            st.span, self.text(st),
            tuple(divmod(i, cols) for i in (sorted(cells) if isinstance(cells, (set, frozenset)) else cells)),
            (f"with {binding}: " if binding else "") + reason,
            tuple(divmod(i, cols) for i in region),
            tuple(self.border_cells(b) for b in self.bordervars.values()),
            tuple(tuple(v) for v in self.cornervars.values()) + tuple(tuple(v) for v in corners),
            self.spec.name_of(st)))

    def text(self, st) -> str:
        key = id(st)
        if key not in self.texts:
            text = statement_text(self.spec.source, st, self.spec.of(ast.Let))
            self.texts[key] = f"decide {text}" if isinstance(st, ast.Decide) else text
        return self.texts[key]

    # statements --------------------------------------------------------------------
    def reach(self, st: ast.Region) -> frozenset[int]:
        return frozenset(reached(self.adj, self.cells(st.roots), self.cells(st.through)))

    def lattice_of(self, e: ast.Expr) -> str | None:
        """``"edges"`` or ``"corners"`` when ``e`` names a decision on edges (``line is connected``), else None."""
        decision = self.sym.decisions.get(e.id) if isinstance(e, ast.Name) else None
        return None if decision is None else decision.lattice

    def rule(self, st) -> None:
        """Check the rule ``st`` under the current bindings, each violation recorded (:meth:`fail`); the
        method its node's type names in ``_RULES`` does it.

        Raises:
            TypeError: ``st`` is no rule.
        """
        handler = _RULES.get(type(st))
        if handler is None:
            raise TypeError(f"unknown rule {st!r}")
        handler(self, st)

    def _holds_rule(self, st: ast.Holds) -> None:
        if self.owns_rule(st.formula):
            violation = construct_of(st.formula).rule_violation(self, st.formula)  # line is a loop
            if violation is not None:
                self.fail(*violation)
        elif not self.holds(st.formula):  # most rule instances: one condition
            self.fail("the condition is false", sorted(self.cellvars.values()))

    def _avoids_rule(self, st: ast.Avoids) -> None:
        left, right = self.cells(st.left), self.cells(st.right)
        both = left & right
        if both:
            self.fail(f"{len(both)} cell{_s(both)} in both sets", both)

    def _subset_rule(self, st: ast.Subset) -> None:
        left, right = self.cells(st.left), self.cells(st.right)
        out = left - right
        if out:
            self.fail(f"{len(out)} cell{_s(out)} of the first set not in the second", out)

    def _compare_rule(self, st: ast.Compare) -> None:
        if (owned := self.owner(st)) is not None:
            construct, own, other = owned
            violation = construct.compare_violation(self, st, own, other)
            if violation is not None:
                self.fail(*violation)
        elif not self.of_numbers(st):  # '==' of two conditions
            left, right = self.holds(st.left), self.holds(st.right)
            if left != right:
                self.fail(f"the two sides of '=' differ: the left {'holds' if left else 'does not hold'}, "
                          f"the right {'holds' if right else 'does not hold'}")
        else:
            left, right = self.number(st.left), self.number(st.right)
            if not _compare(left, st.op, right):
                counted = set().union(*(self.cells(e.operand) for e in _counted(st)  # not a clue's corner or border
                                        if not (self.is_corners(e.operand) or self.is_borders(e.operand))))
                self.fail(f"{left} {st.op} {right} is false" + (" (the cells counted)" if counted else ""),
                          counted)

    def _for_each_rule(self, st: ast.ForEach) -> None:
        var = st.var.id
        body = st.body
        handler = _RULES.get(type(body))
        if handler is None:
            raise TypeError(f"unknown rule {body!r}")
        kind, members = self.over(st.domain)
        if not members:
            return
        for guard in self.guards(st):  # false: the condition is false at every member, each rule holds
            if not self.holds(guard):
                return
        table = {"int": self.env, "cell": self.cellvars, "set": self.setvars, "shape": self.shapevars,
                 "direction": self.dirvars, "corner": self.cornervars, "border": self.bordervars}[kind]
        for value in members:
            table[var] = value
            handler(self, body)
        table.pop(var, None)

    def guards(self, st: ast.ForEach) -> list:
        """The conditions a ``for each``'s rule ``A1 and A2 ... implies B`` tests first at every member
        whatever the member: the first conjuncts of its ``A`` that name no variable of this loop and hold no
        construct's node, found once per node. At a member they are the first evaluated, and where one is
        false, ``A`` is at every member, so that the rule holds throughout (``light[p] implies ...`` at
        each q beside p)."""
        found = self.facts.get(id(st))
        if found is None or found[0] is not st:
            guards = []
            body = st.body
            if type(body) is ast.Holds and type(body.formula) is ast.Implies and not self.owns_rule(body.formula):
                left = body.formula.left
                for conjunct in left.operands if type(left) is ast.And else (left,):
                    if not free_of(conjunct, st.var.id):
                        break
                    guards.append(conjunct)
            found = self.facts[id(st)] = (st, guards)
        return found[1]

    def is_connected(self, st: ast.IsConnected) -> None:
        if (lattice := self.lattice_of(st.cells)) is not None:
            violation = decision_of(lattice).connected_violation(self, st)  # line is connected
            if violation is not None:
                self.fail(*violation)
            return
        cells = self.cells(st.cells)
        if st.size is not None:
            size = self.number(st.size)
            if len(cells) != size:
                self.fail(f"the set has {len(cells)} cell{_s(cells)}, not {size}", cells)
        adj = [self.grid.king_neighbours(i) for i in range(self.grid.size)] if st.diagonal else self.adj
        pieces = components(adj, cells)
        if len(pieces) > 1:
            stray = [i for piece in pieces[1:] for i in piece]
            self.fail(f"the set falls into {len(pieces)} pieces ({', '.join(str(len(p)) for p in pieces)} "
                      f"cells); the cells off the largest piece", stray)

    def is_path(self, st: ast.IsPath) -> None:
        cells = self.cells(st.cells)
        ends = sorted(self.cells(st.ends))
        if len(ends) != 2:
            self.fail(f"a path needs exactly two end cells; the map has {len(ends)}", ends)
            return
        out = [e for e in ends if e not in cells]
        if out:
            self.fail(f"{'an end is' if len(out) == 1 else 'both ends are'} not in the set", out)
        degree = {u: sum(1 for v in self.adj[u] if v in cells) for u in set(cells) | set(ends)}
        bad_ends = [e for e in ends if degree[e] != 1]
        if bad_ends:
            self.fail("an end needs exactly one neighbour in the set; "
                      + "; ".join(f"{_rc(self.grid, e)} has {degree[e]}" for e in bad_ends), bad_ends)
        bad = [u for u in sorted(cells) if u not in ends and degree[u] != 2]
        if bad:
            self.fail("a cell other than the ends needs exactly two neighbours in the set; "
                      + "; ".join(f"{_rc(self.grid, u)} has {degree[u]}" for u in bad[:_MAX_SHOWN])
                      + (" ..." if len(bad) > _MAX_SHOWN else ""), bad)
        pieces = components(self.adj, cells)
        if len(pieces) > 1:
            stray = [i for piece in pieces[1:] for i in piece]
            self.fail(f"the set falls into {len(pieces)} pieces; the cells off the largest piece", stray)

    def for_pairs(self, st: ast.ForPairs) -> None:
        a, b = st.a.id, st.b.id
        for u in range(self.n):
            for v in self.adj[u]:
                self.pair[a], self.pair[b] = u, v
                if not self.formula(st.body):
                    self.fail(f"false for {a} = {_rc(self.grid, u)} and {b} = {_rc(self.grid, v)}", (u, v))
        self.pair.pop(a, None)
        self.pair.pop(b, None)

    # formulas over a pair of cells ---------------------------------------------------------
    def formula(self, f) -> bool:
        if isinstance(f, ast.PMember):
            return self.cell_of(f.ref) in self.cells(f.ref.name)
        if isinstance(f, ast.PEq):
            left = self.value_at(f.left)
            if isinstance(f.right, ast.CellRef):
                return _same(left, self.value_at(f.right))
            return _same(left, self.resolve(f.left.name.id, f.right, None))
        if isinstance(f, ast.PNot):
            return not self.formula(f.operand)
        if isinstance(f, ast.PAnd):
            return all(self.formula(g) for g in f.operands)
        if isinstance(f, ast.POr):
            return any(self.formula(g) for g in f.operands)
        if isinstance(f, ast.PImplies):
            return not self.formula(f.left) or self.formula(f.right)
        raise TypeError(f"unknown formula node {f!r}")

    def cell_of(self, ref: ast.CellRef) -> int:
        return self.pair[ref.cell.id]

    def value_at(self, ref: ast.CellRef) -> object:
        """A decision's value at a pair's cell: a Boolean's True/False, an enumeration's value or None."""
        cell = self.cell_of(ref)
        name = ref.name.id
        if name in self.enums:
            return self.enums[name].get(cell)
        return cell in self.bools[name]

    def resolve(self, decision: str, value, cell: int | None) -> object:
        """The domain value a name, integer or ``value`` stands for (at ``cell``, for ``value``)."""
        if isinstance(value, ast.IntLit):
            return value.value
        if isinstance(value, ast.TileValue):
            return self.tile_value(cell, value.span)
        if decision in self.sym.cell_decisions:  # a cell variable: the cell as (row, col)
            return divmod(self.cell(value), self.grid.cols)
        if value.id in self.value_names[decision]:
            return value.id
        if value.id in self.env:
            return self.env[value.id]
        return int(self.params[value.id])

    # expressions -------------------------------------------------------------------------


    # conditions ------------------------------------------------------------------------------


    # geometry ------------------------------------------------------------------------------------


_RULES = {ast.Holds: Interpreter._holds_rule, ast.Avoids: Interpreter._avoids_rule,
          ast.Subset: Interpreter._subset_rule, ast.Compare: Interpreter._compare_rule,
          ast.IsConnected: Interpreter.is_connected, ast.IsPath: Interpreter.is_path,
          ast.ForEach: Interpreter._for_each_rule, ast.ForPairs: Interpreter.for_pairs}
"""A rule's node type -> the method that checks it."""
