"""Compile a checked spec and a map into the IR (:mod:`gridlang.ir`).

The lowering of each construct:

``decide D: bool on S``
    one variable ``D[r,c]`` per cell of S.
Cell-set expressions
    evaluated cell by cell to ``True``, ``False`` or a literal; constants
    are folded, and a compound of two or more literals gets one auxiliary
    variable per cell, defined by its Tseitin clauses (``aux[r,c]=k``).
``region R = reach from A through P`` (the flood fill)
    one member variable ``R[r,c]`` per cell that can be a member, with
    (``m`` the member literal, ``p`` the cell's P literal)::

        m(a) = 1                        for every cell a of A
        m(v) -> p(v)                    for every other cell
        m(u) & p(v) -> m(v)             for every edge (u, v)
        Connected(m, roots=A)

    The first three make the set closed (a superset of the flood fill); the
    connectivity node makes it the flood fill itself. Without it a solver
    would count sealed pockets the roots cannot reach.
``require A avoids B`` / ``require A in B``
    one clause per cell: ``~a | ~b`` / ``~a | b``.
``require L OP R``, ``maximize E``
    a :class:`~gridlang.ir.Linear` or the objective, with constants moved to
    the right-hand side (``<`` becomes ``<= -1``).
``decide D: {a, b} | P on S`` (an enumeration)
    one-hot: one variable ``D[r,c]=v`` per cell of S and value v, and an
    exactly-one :class:`~gridlang.ir.Linear` per cell. ``D = v`` is then the
    cell set of those literals; ``D = value`` picks, at each cell, the literal
    of that cell's own tile value (False where it is not in the domain).
``require S is connected [with size N]``
    ``Connected(S, size=N)`` and, with a size, ``count(S) == N``. A set of at
    most one cell needs no connectivity node. A cell that S always contains
    becomes the node's (single) root.
``require S is a path between E`` (E: exactly two fixed cells)
    ``s(e) = 1`` for both ends; ``sum of s over e's neighbours == 1`` for each
    end; ``s(u) -> sum of s over u's neighbours == 2`` (a Linear with
    enforcement literal ``s(u)``) for every other cell; ``Connected(S,
    roots=E, path=True)``. The degrees leave only one path from one end to the other
    plus closed cycles; connectivity to the ends removes the cycles. (With
    two roots the IR would allow one piece per root, but a piece holding
    only one end would have one cell of odd degree, which no graph has.) Also the
    redundant clause ``~(s(p) & s(q) & s(r) & s(t))`` for each 2x2 block (a
    full block would be a cycle, or give an end two neighbours in S), and the
    chessboard colour count of a path (:meth:`_Compiler.path_parity`).
``require for each k in P: RULE``
    RULE compiled once per value of P, with ``k`` bound to it.
``require for each neighbours a, b: F``
    for every ordered pair (u, v) of adjacent cells, F with a = u and b = v
    turned into clauses by distribution (NNF, then CNF, no auxiliaries);
    ``D[a] = D[b]`` is ``D[a]=x <-> D[b]=x`` for every value x.

After lowering, one exact strengthening pass (:func:`anchor_connected`):
an unrooted ``Connected`` node with a member fixed true by a unit clause is
rooted there, and with a size N every cell farther than N - 1 steps from
that root (inside the candidate cells) is excluded.

A rule that fails whatever the decisions (a constant comparison, a fixed cell
of A that can never be in B) is reported as an error located in the map or
in the parameter that makes it fail, not left to the solver as INFEASIBLE.
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

from . import ast
from .checker import Symbols, check
from .errors import GridlangError, MapError, ParamError, SemanticError, Span, raise_all
from .formulas import FormulaLowering
from .grid import Grid
from .limits import MAX_CONSTRAINTS, MAX_ROW_MAGNITUDE, MAX_VARIABLES
from .ir import Clause, Cmp, Connected, Constraint, Decision, Linear, Model, Objective, Sense, Var
from .maps import MapData, build_grid, read_map
from .params import resolve_params
from .parser import parse_file

CellValue = Union[bool, int]
"""Per-cell value of a cell-set expression: a constant or a literal."""


def compile_puzzle(spec_path: str | Path, map_path: str | Path, params: dict[str, str] | None = None) -> Model:
    """Parse, check and compile a spec against a map.

    Args:
        spec_path: the ``.grid`` file.
        map_path: the map or instance file.
        params: parameter values from the command line, as text, by name.

    Returns:
        The compiled model.

    Raises:
        GridlangError: any problem in the spec, the map or the parameters,
            located in its file.
    """
    spec = parse_file(spec_path)
    symbols = check(spec)
    data = read_map(map_path)
    grid = build_grid(symbols, data)
    values = resolve_params(symbols, data, params)
    return compile_spec(spec, symbols, grid, values, map_path=str(map_path), map_data=data)


def compile_spec(spec: ast.Spec, symbols: Symbols, grid: Grid, params: dict[str, object],
                 map_path: str = "", map_data: MapData | None = None) -> Model:
    """Compile a checked spec over a built grid.

    Args:
        spec: the parsed spec.
        symbols: its symbol table (from :func:`gridlang.checker.check`).
        grid: the map's graph.
        params: every parameter's value.
        map_path: recorded in ``Model.info``.
        map_data: the map as read, used to locate errors in it (a rule
            that cannot hold at a map cell, a parameter from its header).

    Returns:
        The model.

    Raises:
        SemanticError: a construct that cannot be compiled (a region used
            before its definition, a negated ``D[a] = D[b]``).
        MapError: a rule cannot hold at some map cell (a clue whose size is
            not in the domain), or a path does not have exactly two ends.
        ParamError: a parameter value makes a rule fail whatever the
            decisions (sizes that leave no room for a path), or repeats a
            value of an enumerated domain.
    """
    return _Compiler(spec, symbols, grid, params, map_path, map_data).run()


class _Compiler(FormulaLowering):
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
        self.grid = grid
        self.params = params
        self.map_path = map_path
        self.variables: list[Var] = []
        self.constraints: list = []
        self.decision_lits: dict[str, list[CellValue]] = {}
        self.region_lits: dict[str, list[CellValue]] = {}
        self.decisions: list[Decision] = []
        self.aux_cache: dict[tuple, int] = {}
        self.aux_count = 0
        self.objective: Objective | None = None
        self.statement: ast.Stmt | None = None  # the one being compiled, for errors of size
        # `for each` variables of the newer constructs (see gridlang.formulas).
        self.bound: dict[str, tuple[str, object]] = {}
        # Enumerated decisions: their values, in order.
        self.domain_values: dict[str, tuple] = {}
        self.components: dict[tuple, dict[int, CellValue]] = {}
        self.component_count = 0
        self.reified: dict[tuple, int] = {}
        # `S is a piece of F` stated as a rule: S's cells -> {placement: its variable}.
        self.pieces: dict[tuple, dict[frozenset[int], int]] = {}
        self.piece_count = 0
        self.forms: dict[frozenset[int], tuple] = {}
        # The statement being compiled (for locating its errors).
        self.current = None

    # variables and constraints -------------------------------------------
    def new_var(self, family: str, cell: int | None = None, value=None) -> int:
        if len(self.variables) >= MAX_VARIABLES:
            self.check_size()
        rowcol = self.grid.cell(cell) if cell is not None else None
        self.variables.append(Var(family, cell, value, rowcol))
        return len(self.variables)

    def clause(self, values: list[CellValue], span: Span | None) -> None:
        lits = []
        for v in values:
            if v is True:
                return
            if v is False:
                continue
            lits.append(v)
        self.constraints.append(Clause(tuple(dict.fromkeys(lits)), span))
        if len(self.constraints) > MAX_CONSTRAINTS:
            self.check_size()

    def check_size(self) -> None:
        """Refuse a model past :data:`~gridlang.limits.MAX_VARIABLES` or
        :data:`~gridlang.limits.MAX_CONSTRAINTS`, at the statement being compiled.

        Raises:
            SemanticError: the model is too large, located at the statement.
        """
        for count, limit, what in ((len(self.variables), MAX_VARIABLES, "variables"),
                                   (len(self.constraints), MAX_CONSTRAINTS, "constraints")):
            if count >= limit:
                raise self.size_error(count, limit, what)

    def size_error(self, count: int, limit: int, what: str) -> SemanticError:
        """The error for a model of ``count`` (or more) ``what``, at the statement being compiled."""
        return SemanticError(f"on this {self.grid.rows}x{self.grid.cols} map the statement makes the model "
                             f"larger than {limit:,} {what}, the most gridlang builds",
                             getattr(self.statement, "span", None), source=self.spec.source)

    def check_row(self, terms: tuple[tuple[int, int], ...], constant: int, span: Span | None, what: str) -> None:
        """Refuse a row or objective beyond :data:`~gridlang.limits.MAX_ROW_MAGNITUDE`.

        Raises:
            SemanticError: its coefficients and constant add up to more, in
                magnitude; located at the statement.
        """
        total = sum(abs(c) for c, _ in terms) + abs(constant)
        if total > MAX_ROW_MAGNITUDE:
            raise SemanticError(
                f"{what}'s coefficients and constant add up to {_magnitude(total)} on this map, beyond the "
                f"limit of {MAX_ROW_MAGNITUDE:,} up to which every backend computes exactly",
                span, source=self.spec.source)

    # driver ---------------------------------------------------------------
    def run(self) -> Model:
        for st in self.spec.statements:
            if isinstance(st, ast.Decide):
                self.statement = st
                self.decide(st)
                self.check_size()
        for st in self.spec.statements:
            self.statement = st
            if isinstance(st, ast.Region):
                self.region(st)
            elif isinstance(st, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath,
                                 ast.ForEach, ast.ForPairs, ast.Holds)):
                self.current = st
                self.rule(st)
            elif isinstance(st, ast.Objective):
                terms, const = self.linear(st.expr)
                self.check_row(terms, const, st.span, "the objective")
                sense = Sense.MAXIMIZE if st.sense == "maximize" else Sense.MINIMIZE
                self.objective = Objective(sense, terms, const, st.span)
            self.check_size()
        puzzle = self.spec.puzzle
        info = {"spec": self.spec.path, "map": self.map_path}
        if puzzle is not None and puzzle.variant:
            info["variant"] = puzzle.variant
        regions = {name: tuple((i, v) for i, v in enumerate(vals) if not isinstance(v, bool))
                   for name, vals in self.region_lits.items()}
        return Model(
            name=puzzle.name if puzzle else Path(self.spec.path).stem,
            grid=self.grid,
            variables=tuple(self.variables),
            constraints=anchor_connected(self.grid, tuple(self.constraints)),
            objective=self.objective,
            decisions=tuple(self.decisions),
            regions=regions,
            params=dict(self.params),
            info=info,
            source=(self.spec, self.sym),
        )

    # statements -------------------------------------------------------------
    def decide(self, st: ast.Decide) -> None:
        if st.is_enum:
            self.decide_enum(st)
            return
        on = self.cells(st.on)
        lits: list[CellValue] = [False] * self.grid.size
        cells = []
        for i, v in enumerate(on):
            if v is True:
                lits[i] = self.new_var(st.name, i)
                cells.append((i, ((True, lits[i]),)))
        self.decision_lits[st.name] = lits
        self.decisions.append(Decision(st.name, (True,), tuple(cells)))

    def decide_enum(self, st: ast.Decide) -> None:
        values: list[object] = []
        for part in st.domain:
            if isinstance(part, ast.Symbol):
                values.append(part.id)
            elif isinstance(part, ast.IntLit):
                values.append(part.value)
            elif isinstance(part, ast.DomainRange):
                low, high = (self._constant(b) for b in (part.low, part.high))
                for v in range(low, high + 1):
                    if v in values:
                        raise SemanticError(f"the range {low}..{high} repeats the value {v} of {st.name!r}",
                                            part.span, source=self.spec.source)
                    values.append(v)
                if high < low:
                    raise SemanticError(f"the range {low}..{high} is empty", part.span, source=self.spec.source)
            else:
                seen = set()
                for v in self.params[part.id]:
                    if v in seen or v in values:
                        raise self.param_error(
                            part.id, f"{part.id} = {_show_set(self.params[part.id])} repeats the value {v}, but the "
                            f"values of the enumerated decision {st.name!r} must be distinct", part.span)
                    seen.add(v)
                values.extend(self.params[part.id])
        on = self.cells(st.on)
        if len(self.variables) + sum(v is True for v in on) * len(values) >= MAX_VARIABLES:
            raise self.size_error(len(self.variables) + sum(v is True for v in on) * len(values),
                                  MAX_VARIABLES, "variables")
        per_cell: list[dict[object, int] | None] = [None] * self.grid.size
        cells = []
        for i, v in enumerate(on):
            if v is True:
                lits = {value: self.new_var(st.name, i, value) for value in values}
                per_cell[i] = lits
                self.constraints.append(Linear(tuple((1, l) for l in lits.values()), Cmp.EQ, 1, (), st.span))
                cells.append((i, tuple(lits.items())))
        self.enum_lits[st.name] = per_cell
        self.domain_values[st.name] = tuple(values)
        self.decisions.append(Decision(st.name, tuple(values), tuple(cells)))

    def region(self, st: ast.Region) -> None:
        roots_set = self.cells(st.roots)
        passable = self.cells(st.through)
        roots = [i for i, v in enumerate(roots_set) if v is True]
        member: list[CellValue] = [False] * self.grid.size
        if roots:
            for i in range(self.grid.size):
                if i in roots or passable[i] is not False:
                    member[i] = self.new_var(st.name, i)
        root_set = set(roots)
        for i in roots:
            self.clause([member[i]], st.span)
        for i, m in enumerate(member):
            if m is False or i in root_set:
                continue
            if passable[i] is not True:
                self.clause([-m, passable[i]], st.span)
        for u, mu in enumerate(member):
            if mu is False:
                continue
            for v in self.grid.neighbours[u]:
                mv = member[v]
                if mv is False or v in root_set:
                    continue
                pv = passable[v]
                self.clause([-mu, _neg(pv), mv], st.span)
        self.region_lits[st.name] = member
        members = tuple((i, m) for i, m in enumerate(member) if m is not False)
        self.constraints.append(Connected(members, tuple(roots), None, st.name, st.span))

    def rule(self, st) -> None:
        if isinstance(st, ast.Avoids):
            self.avoids(st)
        elif isinstance(st, ast.Subset):
            self.subset(st)
        elif isinstance(st, ast.Compare):
            self.compare(st)
        elif isinstance(st, ast.IsConnected):
            self.is_connected(st)
        elif isinstance(st, ast.IsPath):
            self.is_path(st)
        elif isinstance(st, ast.ForEach):
            for kind, value in self.bindings(st.var, st.domain):
                self.bind(st.var.id, kind, value)
                self.rule(st.body)
                self.check_size()
            self.unbind(st.var.id)
        elif isinstance(st, ast.ForPairs):
            self.for_pairs(st)
        elif isinstance(st, ast.Holds):
            self.holds(st)
        else:
            raise TypeError(f"unknown rule {st!r}")

    def avoids(self, st: ast.Avoids) -> None:
        a, b = self.cells(st.left), self.cells(st.right)
        for x, y in zip(a, b):
            if x is not False and y is not False:
                self.clause([_neg(x), _neg(y)], st.span)

    def subset(self, st: ast.Subset) -> None:
        a, b = self.cells(st.left), self.cells(st.right)
        errors: list[GridlangError] = []
        for i, (x, y) in enumerate(zip(a, b)):
            if x is True and y is False:
                errors.append(self.cell_error(st, i, self.why_not(st.right, i)))
            elif x is not False and y is not True:
                self.clause([_neg(x), y], st.span)
        raise_all(errors)

    def is_connected(self, st: ast.IsConnected) -> None:
        values = self.cells(st.cells)
        size = None
        if st.size is not None:
            size = self._constant(st.size)
            if size is None:
                raise SemanticError("a size is an integer known before solving", st.size.span,
                                    source=self.spec.source)
        members = tuple((i, self.lit(v)) for i, v in enumerate(values) if v is not False)
        always = [i for i, v in enumerate(values) if v is True]
        # One root only: with several, the IR allows one piece per root.
        roots = tuple(always[:1])
        if size is not None:
            terms = tuple((1, lit) for i, lit in members if values[i] is not True)
            rhs = size - len(always)
            self.check_row(terms, rhs, st.span, "this rule")
            if terms:
                self.constraints.append(Linear(terms, Cmp.EQ, rhs, (), st.span))
            elif rhs != 0:
                self.constraints.append(Clause((), st.span))
        if size is not None and size <= 1 and not roots:
            return  # at most one cell: always connected
        self.constraints.append(Connected(members, roots, size, self.describe(st.cells), st.span))

    def is_path(self, st: ast.IsPath) -> None:
        values = self.cells(st.cells)
        ends = [i for i, v in enumerate(self.cells(st.ends)) if v is True]
        if len(ends) != 2:
            raise self.ends_error(st, ends)
        end_set = set(ends)
        errors: list[GridlangError] = []
        for e in ends:
            if values[e] is False:
                errors.append(self.cell_error(st, e, self.why_not(st.cells, e)))
            self.clause([values[e]], st.span)
        raise_all(errors)
        for u, su in enumerate(values):
            if su is False:
                continue
            target = 1 if u in end_set else 2
            terms, const = [], 0
            for v in self.grid.neighbours[u]:
                sv = values[v]
                if sv is True:
                    const += 1
                elif sv is not False:
                    terms.append((1, sv))
            rhs = target - const
            enforce = () if (su is True or u in end_set) else (su,)
            if not terms:
                if rhs != 0:
                    self.clause([_neg(su)] if enforce else [], st.span)
                continue
            self.constraints.append(Linear(tuple(terms), Cmp.EQ, rhs, enforce, st.span))
        # Redundant: no 2x2 block lies wholly in the path.
        cols = self.grid.cols
        for r in range(self.grid.rows - 1):
            for c in range(cols - 1):
                block = [values[r * cols + c], values[r * cols + c + 1],
                         values[(r + 1) * cols + c], values[(r + 1) * cols + c + 1]]
                if all(v is not False for v in block):
                    self.clause([_neg(v) for v in block], st.span)
        self.path_parity(values, ends, st.span)
        members = tuple((i, self.lit(v)) for i, v in enumerate(values) if v is not False)
        self.constraints.append(Connected(members, tuple(ends), None, self.describe(st.cells), st.span, path=True))

    def path_parity(self, values: list[CellValue], ends: list[int], span: Span | None) -> None:
        """Redundant colour count of a path in a bipartite grid graph.

        Colour the cells like a chessboard. Consecutive cells of a path have
        different colours, so a path from end a to end b holds as many cells
        of each colour, plus one of the ends' colour when both ends share it:
        ``sum(black s) - sum(white s) = (1 if both black, -1 if both white,
        else 0)``. Valid only when every edge joins two colours: skipped when
        links (portals) make the graph non-bipartite.
        """
        colour = [sum(self.grid.cell(i)) % 2 for i in range(self.grid.size)]
        if any(colour[u] == colour[v] for u, v in self.grid.links):
            return
        a, b = ends
        target = (colour[a] == colour[b]) * (1 if colour[a] == 0 else -1)
        terms, const = [], 0
        for i, v in enumerate(values):
            sign = 1 if colour[i] == 0 else -1
            if v is True:
                const += sign
            elif v is not False:
                terms.append((sign, v))
        if terms:
            self.constraints.append(Linear(tuple(terms), Cmp.EQ, target - const, (), span))

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
            self.check_size()
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
                out = [a | b for a in out for b in p if not _tautology(a | b)]
                if len(out) > 10000:
                    raise SemanticError("this pair formula expands to more than 10000 clauses; simplify it",
                                        f.span, source=self.spec.source)
            return out
        if isinstance(f, ast.PMember):
            name = f.ref.name.id
            if name not in cache:
                cache[name] = self.cells(f.ref.name)
            return _unit(cache[name][self.env[f.ref.cell.id]], positive)
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
                    out += _unit_clause([_neg(x), y]) + _unit_clause([x, _neg(y)])
                return out
            value = self.resolve_value(f.left.name.id, f.right, None)
            return _unit(left.get(value, False), positive)
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
            return self.sym.tiles[self.grid.tiles[cell]].value_of(self.grid.chars[cell])
        decl = self.sym.decisions[decision]
        if any(isinstance(p, ast.Symbol) and p.id == value.id for p in decl.domain):
            return value.id
        if value.id in self.env:
            return self.env[value.id]
        return int(self.params[value.id])

    # errors that depend on the map --------------------------------------------
    def rule_text(self, st) -> str:
        sp = st.span
        line = self.spec.source.splitlines()[sp.line - 1]
        end = sp.end_column if sp.end_column else len(line) + 1
        return line[sp.column - 1 : end - 1].strip()

    def cell_error(self, st, cell: int, reason: str | None) -> GridlangError:
        r, c = self.grid.cell(cell)
        ch = self.grid.chars[cell]
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) cannot hold at row {r + 1}, column {c + 1} "
               f"({ch!r})" + (f": {reason}" if reason else ""))
        if self.map_data is not None:
            return MapError(msg, self.map_data.span(r, c), source=self.map_data.source)
        return SemanticError(msg, st.span, source=self.spec.source)

    def why_not(self, e: ast.Expr, cell: int) -> str | None:
        """Why the cell set ``e`` can never hold ``cell``, when that is simple to say."""
        if isinstance(e, ast.Is):
            value = self.resolve_value(e.decision.id, e.value, cell)
            per_cell = self.enum_lits[e.decision.id][cell]
            if per_cell is None:
                return f"{e.decision.id!r} is not decided on this cell"
            values = list(per_cell)
            return f"{value!r} is not a value of {e.decision.id!r} ({_show_set(values)})"
        return None

    def ends_error(self, st: ast.IsPath, ends: list[int]) -> GridlangError:
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) needs exactly two end cells; "
               f"the map has {len(ends)}")
        if self.map_data is None:
            return SemanticError(msg, st.span, source=self.spec.source)
        r, c = self.grid.cell(ends[2]) if len(ends) > 2 else (0, 0)
        return MapError(msg, self.map_data.span(r, c), source=self.map_data.source)

    def param_error(self, name: str, message: str, fallback: Span | None) -> GridlangError:
        """An error about parameter ``name``, located where its value was given."""
        if self.map_data is not None and name in self.map_data.params:
            return ParamError(message, self.map_data.params[name][1], source=self.map_data.source)
        return ParamError(message, fallback, source=self.spec.source if fallback else None)

    def constant_rule_error(self, st: ast.Compare, left: int, right: int) -> GridlangError:
        names = [n for n in _names(st) if n in self.params]
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) fails whatever the decisions: "
               f"{left} {st.op} {right} is false")
        if names:
            values = ", ".join(f"{n} = {_show_set(self.params[n]) if isinstance(self.params[n], tuple) else self.params[n]}"
                               for n in names)
            msg += f" with {values}"
            given = [n for n in names if self.map_data is not None and n in self.map_data.params]
            if given:
                return self.param_error(given[0], msg, st.span)
        return SemanticError(msg, st.span, source=self.spec.source)

    def describe(self, e: ast.Expr) -> str:
        """A short name for a cell set, for connectivity nodes: ``kind=3``."""
        if isinstance(e, ast.Is):
            value = e.value
            if isinstance(value, ast.Name):
                return f"{e.decision.id}={self.resolve_value(e.decision.id, value, None)}"
            if isinstance(value, ast.IntLit):
                return f"{e.decision.id}={value.value}"
            return f"{e.decision.id}=value"
        if isinstance(e, ast.Name):
            return e.id
        return "region"

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
                raise self.constant_rule_error(st, lc, rc)
            return
        self.check_row(terms, rhs, st.span, "this rule")
        if self.never(terms, cmp, rhs) and any(kind == "cell" for kind, _ in self.bound.values()):
            self.fails((), st)
        self.constraints.append(Linear(terms, cmp, rhs, (), st.span))

    # expressions ------------------------------------------------------------
    def cells(self, e: ast.Expr) -> list[CellValue]:
        """The cell set ``e`` as one value per cell (``False`` where never a member)."""
        members = self.members(e)
        return [members.get(i, False) for i in range(self.grid.size)]

    def combine(self, is_and: bool, values: list[CellValue], cell: int | None) -> CellValue:
        absorbing, neutral = (False, True) if is_and else (True, False)
        lits = []
        for v in values:
            if v is absorbing:
                return absorbing
            if v is not neutral:
                lits.append(v)
        lits = sorted(set(lits))
        if not lits:
            return neutral
        if len(lits) == 1:
            return lits[0]
        if any(-l in lits for l in lits):
            return absorbing
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

    def linear(self, e: ast.Expr) -> tuple[tuple[tuple[int, int], ...], int]:
        """Return ``(((coef, var), ...), constant)`` with positive literals only."""
        coef: dict[int, int] = {}
        const = self._linear(e, 1, coef)
        terms = tuple((c, v) for v, c in sorted(coef.items()) if c)
        return terms, const

    def _linear(self, e: ast.Expr, scale: int, coef: dict[int, int]) -> int:
        if isinstance(e, ast.IntLit):
            return scale * e.value
        if isinstance(e, ast.Name):
            if e.id in self.env:
                return scale * int(self.env[e.id])
            value = self.params[e.id]
            return scale * int(value)
        if isinstance(e, ast.SumOf):
            return scale * sum(self.params[e.operand.id])
        if isinstance(e, ast.At):
            # an integer decision's value at a cell: sum of v * [D = v] (0 off the grid)
            p = self.cell_of(e.cell)
            const = 0
            for value, lit in ((self.enum_lits[e.name.id][p] or {}) if p is not None else {}).items():
                const += self._linear_lit(lit, scale * value, coef)
            return const
        if isinstance(e, ast.Aggregate):
            parts = self.over(e, (lambda body: self.lit_of(body)) if e.fn == "count" else
                              (lambda body: self._linear(body, scale, coef)))
            if e.fn == "count":
                return sum(self._linear_lit(lit, scale, coef) for lit in parts)
            return sum(parts)
        if isinstance(e, (ast.Count, ast.Value)):
            const = 0
            for i, v in sorted(self.members(e.operand).items()):
                w = 1 if isinstance(e, ast.Count) else \
                    self.sym.tiles[self.grid.tiles[i]].value_of(self.grid.chars[i])
                w *= scale
                if v is False or w == 0:
                    continue
                if v is True:
                    const += w
                elif v > 0:
                    coef[v] = coef.get(v, 0) + w
                else:  # w * (1 - x)
                    const += w
                    coef[-v] = coef.get(-v, 0) - w
            return const
        if isinstance(e, ast.Add):
            return self._linear(e.left, scale, coef) + self._linear(e.right, scale * e.sign, coef)
        if isinstance(e, ast.Neg):
            return self._linear(e.operand, -scale, coef)
        if isinstance(e, ast.Mul):
            left_const = self._constant(e.left)
            if left_const is not None:
                return self._linear(e.right, scale * left_const, coef)
            right_const = self._constant(e.right)
            return self._linear(e.left, scale * right_const, coef)
        raise SemanticError("expected a number", getattr(e, "span", None), source=self.spec.source)

    @staticmethod
    def _linear_lit(v: CellValue, w: int, coef: dict[int, int]) -> int:
        """Add ``w * v`` (a constant or literal) to ``coef``; return the constant part."""
        if v is False or w == 0:
            return 0
        if v is True:
            return w
        if v > 0:
            coef[v] = coef.get(v, 0) + w
            return 0
        coef[-v] = coef.get(-v, 0) - w
        return w

    def _constant(self, e: ast.Expr) -> int | None:
        probe: dict[int, int] = {}
        try:
            value = self._linear(e, 1, probe)
        except SemanticError:
            return None
        return None if any(probe.values()) else value


def _magnitude(n: int) -> str:
    """A large integer as digits with separators, or as a power of ten when longer."""
    return f"{n:,}" if n < 10**21 else f"about 10**{len(str(n)) - 1}"


def _neg(v: CellValue) -> CellValue:
    if v is True:
        return False
    if v is False:
        return True
    return -v


def _tautology(clause: frozenset[int]) -> bool:
    return any(-l in clause for l in clause)


def _unit(v: CellValue, positive: bool) -> list[frozenset[int]]:
    """The clause set of one literal (or of its negation)."""
    v = v if positive else _neg(v)
    if v is True:
        return []
    if v is False:
        return [frozenset()]
    return [frozenset((v,))]


def _unit_clause(values: list[CellValue]) -> list[frozenset[int]]:
    """The clause set of one disjunction of cell values."""
    if any(v is True for v in values):
        return []
    clause = frozenset(v for v in values if v is not False)
    return [] if _tautology(clause) else [clause]


def _show_set(values) -> str:
    """``1..5`` for a run of integers, else ``path, 1, 2`` or ``2, 2, 3``."""
    values = list(values)
    ints = [v for v in values if isinstance(v, int)]
    names = [str(v) for v in values if not isinstance(v, int)]
    if len(ints) > 2 and ints == list(range(ints[0], ints[0] + len(ints))):
        return ", ".join(names + [f"{ints[0]}..{ints[-1]}"])
    return ", ".join(names + [str(v) for v in ints])


def _names(node) -> list[str]:
    """Every name an AST node mentions, in order, without repeats."""
    out: list[str] = []

    def walk(x) -> None:
        if isinstance(x, ast.Name):
            out.append(x.id)
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        elif hasattr(x, "__dataclass_fields__"):
            for f in x.__dataclass_fields__:
                if f != "span":
                    walk(getattr(x, f))

    walk(node)
    return list(dict.fromkeys(out))


def anchor_connected(grid: Grid, constraints: tuple[Constraint, ...]) -> tuple[Constraint, ...]:
    """Strengthen connectivity nodes with exact consequences (a pure pass IR -> IR).

    For a :class:`~gridlang.ir.Connected` node:

    * Candidates fixed false by a unit clause leave the node.
    * Without roots, a member fixed true by a unit clause becomes the root:
      the set is connected exactly when it is connected to that cell, so no
      solution changes and the backends are spared the root choice.
    * Without a size, an unconditional :class:`~gridlang.ir.Linear` that
      counts exactly the node's members (``x_1 + ... + x_n == N``, unit
      coefficients; candidates fixed false may appear in it) gives the node
      its size N. A path rule with a count rule gets its length this way,
      for encodings that need it (the MILP's position formulation).
    * With a size N >= 2, every member has a member neighbour (clause
      ``~x_u | x_v1 | x_v2 | ...``); not for a path, whose degree rows say
      more.
    * With a size N and one root r, a candidate N or more steps from r
      (inside the candidate cells) cannot be a member (unit clause ``~x``).

    Every added clause holds in every solution, so the solution set is
    unchanged; the clauses only help propagation. Size: at most one clause
    per candidate.

    Not added: for a size N >= 4 and no root, ``~x_u | ~x_v`` for two
    candidates N or more steps apart (valid, since a connected set of N
    cells joins any two of its cells in at most N - 1 steps). On the two
    published 10x10 instances in ``puzzles/instances/`` they are some 13,000
    of 17,000 constraints; without them CP-SAT's solve and uniqueness proof
    fell from a median of 2.47 s to 1.89 s, while MaxSAT's rose from 1.8 s and
    0.7 s to 2.0 s and 0.9 s of CPU (cuts).

    Args:
        grid: the model's grid graph.
        constraints: the lowered constraints.

    Returns:
        The constraints with such nodes replaced and the new clauses appended.
    """
    forced = {c.lits[0] for c in constraints if isinstance(c, Clause) and len(c.lits) == 1}
    out: list[Constraint] = []
    extra: list[Constraint] = []
    for con in constraints:
        if not isinstance(con, Connected):
            out.append(con)
            continue
        members = tuple((cell, lit) for cell, lit in con.members if -lit not in forced)
        roots = con.roots
        if not roots:
            fixed = [cell for cell, lit in members if lit in forced]
            roots = (fixed[0],) if fixed else ()
        size = con.size
        if size is None:
            size = _counted_size(constraints, members, forced)
        if size is not None:
            lit_of = dict(members)
            cand = set(lit_of)
            if len(roots) == 1:
                dist = grid.distances(cand, roots[0])
                far = {cell for cell in cand if dist.get(cell, size) >= size}
                extra.extend(Clause((-lit_of[cell],), con.span) for cell in sorted(far))
                members = tuple(m for m in members if m[0] not in far)
                lit_of = dict(members)
                cand = set(lit_of)
            if size >= 2 and not con.path:
                for cell, lit in members:
                    nbrs = tuple(lit_of[v] for v in grid.neighbours[cell] if v in cand)
                    extra.append(Clause((-lit,) + nbrs, con.span))
        out.append(Connected(members, roots, size, con.name, con.span, con.path))
    return tuple(out + extra)


def _counted_size(constraints: tuple[Constraint, ...], members: tuple[tuple[int, int], ...],
                  forced: set[int]) -> int | None:
    """The N of an unconditional ``sum of the members == N`` among ``constraints``, if any.

    Members fixed true that the sum leaves out (a root the compiler folded
    into the count's constant) count once each on top of it.
    """
    fixed = {lit for _, lit in members if lit in forced}
    want = {lit for _, lit in members} - fixed
    for con in constraints:
        if (isinstance(con, Linear) and con.op is Cmp.EQ and not con.enforce
                and all(coef == 1 and lit > 0 for coef, lit in con.terms)):
            lits = {lit for _, lit in con.terms}
            if len(lits) == len(con.terms) and {l for l in lits if -l not in forced} - fixed == want:
                return con.rhs + len(fixed - lits)
    return None
