"""The compiler's driver: variables, clauses, statements and linear expressions.

:class:`_Compiler` walks a checked spec statement by statement and lowers it
to the IR; its mixins lower regions and connectivity
(:mod:`.regions`), cell sets (:mod:`.cellsets`), shapes (:mod:`.pieces`),
conditions and rules (:mod:`.formulas`), and locate its errors
(:mod:`.diagnostics`). The lowering of each construct is stated in the
package's docstring (:mod:`gridlang.compiler`).
"""


from __future__ import annotations

import itertools
import os

from gridlang.compiler.cellsets import caps_component
from gridlang.compiler.clues import ClueLowering
from gridlang.compiler.decisions import DecisionLowering
from gridlang.compiler.diagnostics import Diagnostics
from gridlang.compiler.formulas import FormulaLowering
from gridlang.compiler.numbers import NumberLowering
from gridlang.compiler.partition import cover_clauses
from gridlang.compiler.regions import RegionLowering, anchor_connected
from gridlang.compiler.tags import definition
from gridlang.core import memory
from gridlang.core.deadline import Deadline
from gridlang.core.errors import GridlangError, SemanticError, Span, raise_all
from gridlang.core.grid import Grid
from gridlang.core.limits import BUDGET_TICK, MAX_VARIABLES
from gridlang.formats.maps import MapData
from gridlang.ir.literals import CellValue, neg, tautology, unit, unit_clause
from gridlang.ir.model import (
    Clause,
    Cmp,
    Decision,
    Linear,
    Model,
    Objective,
    Sense,
    Var,
)
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.constructs import decision_of
from gridlang.language.equivalence import is_condition


class _Constraints(list):
    """The model's constraints as they are lowered: every :data:`~gridlang.core.limits.BUDGET_TICK` + 1
    appended, ``tick`` is called, so that no lowering can grow the model
    without the compiler reading its deadline and its size limits."""

    def __init__(self, tick) -> None:
        super().__init__()
        self.tick = tick

    def append(self, con) -> None:
        list.append(self, con)
        if not len(self) & BUDGET_TICK:
            self.tick()


class _Compiler(RegionLowering, FormulaLowering, ClueLowering, NumberLowering, DecisionLowering,
                Diagnostics):
    deadline: Deadline | None = None  # read by tick(): past it, BuildTimeout
    anchor: bool = True  # run anchor_connected (off for the rule instances of gridlang.why)
    files: bool = False  # a model for a file: no node that only a cut loop lowers (compile_spec)

    def __init__(self, spec: ast.Spec, symbols: Symbols, grid: Grid, params: dict[str, object], map_path: str,
                 map_data: MapData | None = None):
        self.map_data = map_data
        # Enumerated decisions: per cell, value -> literal (None off the decision's cells).
        self.enum_lits: dict[str, list[dict[object, int] | None]] = {}
        # Names bound by `for each`: loop variable -> int, pair cell -> cell index.
        self.env: dict[str, int] = {}
        self.true_var: int | None = None
        self.spec = spec
        self.sym = symbols
        # The decisions on cells with a direction among their values: a step by one (p + dir[p]) is stated
        # value by value (gridlang.compiler.directions); empty for most specs, which never load it.
        self.decided_directions = frozenset(name for name, d in symbols.decisions.items() if d.has_directions)
        self.grid = grid
        self.params = params
        self.map_path = map_path
        self.variables: list[Var] = []
        self.constraints: list = _Constraints(self.tick)
        self.decision_lits: dict[str, list[CellValue]] = {}
        self.region_lits: dict[str, list[CellValue]] = {}
        self.decisions: list[Decision] = []
        self.aux_cache: dict[tuple, int] = {}
        self.aux_count = 0
        self.objective: Objective | None = None
        self.statement: ast.Stmt | None = None  # the one being compiled, for errors of size
        # `for each` variables of the newer constructs (see gridlang.compiler.cellsets).
        self.bound: dict[str, tuple[str, object]] = {}
        # Enumerated decisions: their values, in order.
        self.domain_values: dict[str, tuple] = {}
        self.components: dict[tuple, dict[int, CellValue]] = {}
        self.component_sets: dict[tuple, tuple] = {}  # (S, bound names' values) -> (S's members, key)
        self.set_ids: dict[tuple, int] = {}  # the (cell, literal) pairs of a set S -> its key
        self.set_members: dict[int, dict[int, CellValue]] = {}  # a set's key -> its members
        self.known_sets: dict[tuple, bool] = {}  # (S, bound names' values) -> whether value(S) is known
        self.component_exact: dict[tuple, int] = {}  # component key -> the cells a rule holds it to (-1: two)
        self.component_count = 0
        self.component_caps: dict[tuple, int] = {}  # component key -> most cells a rule allows it
        self.cap_components = True  # off in a tagged compile (compile_tagged): every region whole
        self.reified: dict[tuple, int] = {}
        # `D[p] = D[q]` rules stated value by value: (D, {p, q}, guard, same) once each.
        self.stated_same: set[tuple] = set()
        # `S is a piece of F` stated as a rule: S's cells -> (shape, variable) per placement.
        self.pieces: dict[tuple, list[tuple[tuple, int]]] = {}
        self.piece_count = 0
        self.piece_sets: dict[tuple, tuple] = {}  # binding_key of S -> (S's members, the key of pieces)
        self.piece_lits: dict[tuple, tuple] = {}  # (S's key, shapes) -> (the pieces read, the literal)
        self.lit_memo: dict[tuple, CellValue] = {}  # binding_key of a connective -> its literal (one statement)
        self.pushed: dict[int, tuple] = {}  # id of a `not` node -> (the node, the negation moved in)
        self.owned: dict = {}  # id of a node (or ("condition", id)) -> (the node, what is found once per node)
        self.node_names: dict[int, tuple] = {}  # id of an AST node -> (the node, the names it mentions)
        # The statement being compiled (for locating its errors).
        self.current = None
        # What constructs keep while compiling, by construct: what they collected from the rules they
        # state their own way (Construct.lower_rule; blocks' sizes, gridlang.constructs.blocks), finished
        # after the last statement; the variables of their decisions (lines: gridlang.constructs.edges).
        self.collected: dict = {}
        # Sets known from the map (tiles, tags, the border, rooms): found once (gridlang.compiler.cellsets).
        self.fixed_sets: dict[tuple, object] = {}
        # Enumerated decisions: their values as a set, for membership tests.
        self.domain_sets: dict[str, frozenset] = {}
        self.steps = 0  # loop steps that may make nothing (step())
        # Literals a one-literal clause of a rule made true (gridlang.compiler.pieces reads them).
        self.units: set[int] = set()

    # variables and constraints -------------------------------------------
    def tick(self) -> None:
        """Read the compiler's budget: the size limits, then the deadline.

        Called every :data:`~gridlang.core.limits.BUDGET_TICK` + 1 variables and constraints (see
        :class:`_Constraints`) and by the steps that can grow with a domain
        or the grid without making either (every 4,096 placements of a
        shape, every 256 bindings of ``for each``: :meth:`step`). A model
        smaller than that compiles whole, whatever the time left. The memory limit reaches the compiler
        through the deadline: :func:`gridlang.core.memory.watch` stops it with
        the reason ``"memory limit"``, and each tick reads the resident size too
        (:func:`gridlang.core.memory.look`).

        Raises:
            SemanticError: the model is past a size limit (located at the statement).
            BuildTimeout: the deadline passed, or was stopped (Ctrl-C, the memory limit).
        """
        self.check_size()
        if self.deadline is not None:
            memory.look()  # the memory limit read here too: a watch's thread can look late
            self.deadline.check()

    def step(self) -> None:
        """One step of a loop that may make nothing (a binding of ``for each``, a cell of ``for each
        neighbours``): the size limits each time, the deadline every 256 steps (:meth:`tick`)."""
        self.steps += 1
        if self.steps & 0xFF:
            self.check_size()
        else:
            self.tick()

    def new_var(self, family: str, cell: int | None = None, value=None) -> int:
        rowcol = self.grid.cell(cell) if cell is not None else None
        self.variables.append(Var(family, cell, value, rowcol))
        count = len(self.variables)
        if not count & BUDGET_TICK or count >= MAX_VARIABLES:
            self.tick()
        return count

    def clause(self, values: list[CellValue], span: Span | None) -> None:
        lits = []
        for v in values:
            if v is True:
                return
            if v is False:
                continue
            lits.append(v)
        self.constraints.append(Clause(tuple(dict.fromkeys(lits)), span))
        if len(lits) == 1:
            self.units.add(lits[0])


    # driver ---------------------------------------------------------------
    def run(self) -> Model:
        for st in self.spec.statements:
            if isinstance(st, ast.Decide):
                self.statement = st
                self.decide(st)
                self.check_size()
        for st in _rule_order(self.spec.statements) if self.cap_components else self.spec.statements:
            self.statement = st
            if isinstance(st, ast.Region):
                self.region(st)
            elif isinstance(st, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath,
                                 ast.ForEach, ast.ForPairs, ast.Holds)):
                self.current = st
                self.lit_memo.clear()
                self.rule(st)
            elif isinstance(st, ast.Objective):
                terms, const = self.linear(st.expr)
                self.check_row(terms, const, st.span, "the objective")
                sense = Sense.MAXIMIZE if st.sense == "maximize" else Sense.MINIMIZE
                self.objective = Objective(sense, terms, const, st.span)
            self.check_size()
        for construct, collected in self.collected.items():
            for con in construct.finish(self, collected):  # appended one by one, as every constraint is (tick)
                self.constraints.append(con)
        if self.cap_components:  # capped components that fill their set (gridlang.compiler.partition)
            exact = {key: k for key, k in self.component_exact.items() if k >= 0}
            for con in cover_clauses(self.grid, self.set_members, self.components, exact, self.constraints):
                self.constraints.append(con)
        puzzle = self.spec.puzzle
        info = {"spec": self.spec.path, "map": self.map_path}
        if puzzle is not None and puzzle.variant:
            info["variant"] = puzzle.variant
        if self.sym.connectivity is not None:
            info["spec_connectivity"] = self.sym.connectivity
        regions = {name: tuple((i, v) for i, v in enumerate(vals) if not isinstance(v, bool))
                   for name, vals in self.region_lits.items()}
        return Model(
            name=puzzle.name if puzzle else os.path.splitext(os.path.basename(self.spec.path))[0],
            grid=self.grid,
            variables=tuple(self.variables),
            constraints=(anchor_connected(self.grid, tuple(self.constraints), self.deadline) if self.anchor
                         else tuple(self.constraints)),
            objective=self.objective,
            decisions=tuple(self.decisions),
            regions=regions,
            params=dict(self.params),
            info=info,
            source=(self.spec, self.sym),
        )

    # statements -------------------------------------------------------------
    def lattice_of(self, e: ast.Expr) -> str | None:
        """``"edges"`` or ``"corners"`` when ``e`` names a decision on edges (``line is connected``), else None."""
        decision = self.sym.decisions.get(e.id) if isinstance(e, ast.Name) else None
        return None if decision is None else decision.lattice

    def rule(self, st) -> None:
        if type(st) is ast.Holds:  # the body of most `for each` rules: once per rule instance
            self.assert_formula(st.formula, ())
        elif isinstance(st, ast.Avoids):
            self.avoids(st)
        elif isinstance(st, ast.Subset):
            self.subset(st)
        elif isinstance(st, ast.Compare) and st.op == "==" and is_condition(st.left, self.sym):
            self.assert_formula(st, ())  # the equivalence of two conditions
        elif isinstance(st, ast.Compare):
            self.compare(st)
        elif isinstance(st, ast.IsConnected) and (lattice := self.lattice_of(st.cells)) is not None:
            decision_of(lattice).connect(self, st)  # line is connected
        elif isinstance(st, ast.IsConnected):
            self.is_connected(st)
        elif isinstance(st, ast.IsPath):
            self.is_path(st)
        elif isinstance(st, ast.ForEach) and self.cap_components and not self.files and _reach_rule(self, st):
            pass  # every S-cell joined to T through S: one node (gridlang.compiler.reaching)
        elif isinstance(st, ast.ForEach):
            values = iter(self.bindings(st.var, st.domain))
            first = next(values, None)
            guard = self.loop_guard(st)
            if first is not None and not (guard is not None and self.lit_of(guard) is False):
                # (`A implies B` with A false whatever the variable: no instance states anything)
                for kind, value in itertools.chain((first,), values):
                    self.bind(st.var.id, kind, value)
                    self.rule(st.body)
                    self.step()
            self.unbind(st.var.id)
        elif isinstance(st, ast.ForPairs):
            self.for_pairs(st)
        elif isinstance(st, ast.Holds):
            self.holds(st)
        else:
            raise TypeError(f"unknown rule {st!r}")

    def avoids(self, st: ast.Avoids) -> None:
        a = self.members(st.left)
        b = self.members(st.right, set(a))
        for i in sorted(a):
            if i in b:
                self.clause([neg(a[i]), neg(b[i])], st.span)

    def subset(self, st: ast.Subset) -> None:
        a = self.members(st.left)
        b = self.members(st.right, set(a))
        errors: list[GridlangError] = []
        for i in sorted(a):
            x, y = a[i], b.get(i, False)
            if x is True and y is False:
                reason = self.why_not(st.right, i)
                if reason is not None:  # a value the decision does not have: the map is wrong
                    errors.append(self.cell_error(st, i, reason))
                else:  # the map puts this cell in A where B cannot hold: no answer
                    self.false_instance(st)
            elif y is not True:
                self.clause([neg(x), y], st.span)
        raise_all(errors)


    def for_pairs(self, st: ast.ForPairs) -> None:
        cache: dict[str, list[CellValue]] = {}
        seen: set[tuple[int, ...]] = set()
        for u in range(self.grid.size):
            for v in self.grid.neighbours[u]:
                self.env[st.a.id], self.env[st.b.id] = u, v
                for clause in self.pcnf(st.body, True, cache):
                    key = tuple(sorted(clause))
                    if key not in seen:
                        seen.add(key)
                        self.constraints.append(Clause(key, st.span))
            self.step()
        self.env.pop(st.a.id, None)
        self.env.pop(st.b.id, None)

    # formulas over a pair of cells -------------------------------------------
    def pcnf(self, f, positive: bool, cache: dict) -> list[frozenset[int]]:
        """Clauses of ``f`` (or of ``not f``) at the cells bound in ``self.env``.

        A clause is a frozenset of literals; ``[]`` is true, ``[frozenset()]``
        false. Tautologies are dropped.
        """
        if isinstance(f, ast.PNot):
            return self.pcnf(f.operand, not positive, cache)
        if isinstance(f, ast.PImplies):
            f = ast.POr((ast.PNot(f.left, f.span), f.right), f.span)
        if isinstance(f, (ast.PAnd, ast.POr)):
            parts = [self.pcnf(g, positive, cache) for g in f.operands]
            if isinstance(f, ast.PAnd) == positive:  # a conjunction of clause sets
                return [c for p in parts for c in p]
            out = [frozenset()]
            for p in parts:
                out = [a | b for a in out for b in p if not tautology(a | b)]
                if len(out) > 10000:
                    raise SemanticError("this pair formula expands to more than 10000 clauses; simplify it",
                                        f.span, source=self.spec.source)
            return out
        if isinstance(f, ast.PMember):
            name = f.ref.name.id
            if name not in cache:
                cache[name] = self.cells(f.ref.name)
            return unit(cache[name][self.env[f.ref.cell.id]], positive)
        if isinstance(f, ast.PEq):
            left = self.at_cell(f.left)
            if isinstance(f.right, ast.CellRef):
                if not positive:
                    raise SemanticError(f"{f.left.name.id}[a] = {f.left.name.id}[b] may not stand under 'not' "
                                        "(write the rule so that it is required, not excluded)", f.span,
                                        source=self.spec.source)
                right = self.at_cell(f.right)
                out = []
                for value in dict.fromkeys(list(left) + list(right)):
                    x, y = left.get(value, False), right.get(value, False)
                    out += unit_clause([neg(x), y]) + unit_clause([x, neg(y)])
                return out
            value = self.resolve_value(f.left.name.id, f.right, None)
            return unit(left.get(value, False), positive)
        raise TypeError(f"unknown formula node {f!r}")

    def at_cell(self, ref: ast.CellRef) -> dict[object, CellValue]:
        """Value -> literal of decision ``ref.name`` at the bound cell (``{True: lit}`` for a Boolean)."""
        cell = self.env[ref.cell.id]
        name = ref.name.id
        if name in self.enum_lits:
            return dict(self.enum_lits[name][cell] or {})
        lit = self.decision_lits[name][cell]
        return {True: lit} if lit is not False else {}

    def resolve_value(self, decision: str, value, cell: int | None) -> object:
        """The domain value that ``value`` (a name, an integer or ``value``) stands for."""
        if isinstance(value, ast.IntLit):
            return value.value
        if isinstance(value, ast.TileValue):
            return self.tile_value(cell, value.span)
        if decision in self.sym.cell_decisions:  # a cell variable: the cell as (row, col)
            kind, index = self.bound.get(value.id, (None, None))
            return self.grid.cell(index if kind == "cell" else self.env[value.id])
        decl = self.sym.decisions[decision]
        if any(isinstance(p, ast.Symbol) and p.id == value.id for p in decl.domain):
            return value.id
        if value.id in self.env:
            return self.env[value.id]
        return int(self.params[value.id])

    # errors that depend on the map --------------------------------------------


    @definition
    def lit(self, v: CellValue) -> int:
        """A literal for a cell value; a constant True gets one shared variable fixed true."""
        if v is True:
            if self.true_var is None:
                self.true_var = self.new_var("true")
                self.constraints.append(Clause((self.true_var,)))
            return self.true_var
        if v is False:
            raise ValueError("no literal for a constant false")
        return v

    def compare(self, st: ast.Compare) -> None:
        if self.construct_rule(st, ()):
            return
        self.cap_component(st)
        if (seen := self.sight_test(st)) is not None and seen is not False:  # False: the error below
            self.clause_under((), [seen], st)
            return
        self.check_value_compare(st)
        lt, lc = self.linear(st.left)
        rt, rc = self.linear(st.right)
        coef: dict[int, int] = {v: c for c, v in lt}
        for c, v in rt:
            coef[v] = coef.get(v, 0) - c
        terms = tuple((c, v) for v, c in sorted(coef.items()) if c)
        rhs = rc - lc
        op = st.op
        if op == "<":
            op, rhs = "<=", rhs - 1
        elif op == ">":
            op, rhs = ">=", rhs + 1
        cmp = {"<=": Cmp.LE, ">=": Cmp.GE, "==": Cmp.EQ}[op]
        if not terms:
            if not cmp.holds(0, rhs):
                if not self.fails_by_map(st):
                    raise self.constant_rule_error(st, lc, rc)
                self.false_instance(st)
            return
        self.check_row(terms, rhs, st.span, "this rule")
        if self.never(terms, cmp, rhs) and any(kind == "cell" for kind, _ in self.bound.values()):
            self.fails((), st)
        allowed = self.one_hot_values(terms, cmp, rhs)
        if allowed is not None:
            self.clause_under((), allowed, st)
            return
        self.constraints.append(Linear(terms, cmp, rhs, (), st.span))

    # expressions ------------------------------------------------------------
    def cells(self, e: ast.Expr) -> list[CellValue]:
        """The cell set ``e`` as one value per cell (``False`` where never a member)."""
        members = self.members(e)
        return [members.get(i, False) for i in range(self.grid.size)]

    @definition
    def combine(self, is_and: bool, values: list[CellValue], cell: int | None) -> CellValue:
        absorbing, neutral = (False, True) if is_and else (True, False)
        if len(values) == 2:  # the commonest: a link of a chain, a pair's and (the same result, fewer steps)
            a, b = values
            if a is absorbing or b is absorbing:
                return absorbing
            if a is neutral:
                return b
            if b is neutral or a == b:  # (a literal 1 is not True: b is tested for neutral first)
                return a
            if a == -b:
                return absorbing
            lits = [a, b] if a < b else [b, a]
        else:
            lits = []
            for v in values:
                if v is absorbing:
                    return absorbing
                if v is not neutral:
                    lits.append(v)
            distinct = set(lits)
            if not distinct:
                return neutral
            if len(distinct) == 1:
                return lits[0]
            if any(-l in distinct for l in distinct):
                return absorbing
            lits = sorted(distinct)
        key = (is_and, tuple(lits))
        if key in self.aux_cache:
            return self.aux_cache[key]
        self.aux_count += 1
        y = self.new_var("aux", cell, self.aux_count)
        if is_and:  # y <-> l1 & l2 & ...
            for l in lits:
                self.constraints.append(Clause((-y, l)))
            self.constraints.append(Clause((y,) + tuple(-l for l in lits)))
        else:  # y <-> l1 | l2 | ...
            for l in lits:
                self.constraints.append(Clause((y, -l)))
            self.constraints.append(Clause((-y,) + tuple(lits)))
        self.aux_cache[key] = y
        return y


def _reach_rule(compiler: _Compiler, st: ast.ForEach) -> bool:
    """:func:`gridlang.compiler.reaching.reach_rule`: the ``for each`` stated as one node when it is a
    reaching rule."""
    # imported on use, not at start-up: a spec without `for each` never asks
    from gridlang.compiler.reaching import reach_rule

    return reach_rule(compiler, st)


def _rule_order(statements) -> list:
    """The statements in the order they are compiled: as written, except that a rule capping a
    component (:func:`~gridlang.compiler.cellsets.caps_component`) moves ahead of the rules before
    it, never ahead of a ``region`` statement (whose regions it may read). The rules are a
    conjunction, so the order changes no answer; it lets the capped regions be made small. A compile
    that caps nothing (``cap_components`` off, as :func:`gridlang.compiler.compile_tagged` sets it)
    keeps the spec's order."""
    order, regions = [], 0
    for k, st in enumerate(statements):
        regions += isinstance(st, ast.Region)
        rank = 0 if isinstance(st, ast.Region) else 1 if caps_component(st) else 2
        order.append((regions, rank, k, st))
    return [st for *_, st in sorted(order, key=lambda t: t[:3])]
