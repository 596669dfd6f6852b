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
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

from . import ast
from .checker import Symbols, check
from .errors import SemanticError, Span
from .grid import Grid
from .ir import Clause, Cmp, Connected, Decision, Linear, Model, Objective, Sense, Var
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
        map_data: unused by the lowering; kept for callers that render.

    Returns:
        The model.

    Raises:
        SemanticError: a construct that cannot be compiled (a region used
            before its definition).
    """
    return _Compiler(spec, symbols, grid, params, map_path).run()


class _Compiler:
    def __init__(self, spec: ast.Spec, symbols: Symbols, grid: Grid, params: dict[str, object], map_path: str):
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

    # variables and constraints -------------------------------------------
    def new_var(self, family: str, cell: int | None = None, value=None) -> int:
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

    # driver ---------------------------------------------------------------
    def run(self) -> Model:
        for st in self.spec.statements:
            if isinstance(st, ast.Decide):
                self.decide(st)
        for st in self.spec.statements:
            if isinstance(st, ast.Region):
                self.region(st)
            elif isinstance(st, ast.Avoids):
                self.avoids(st)
            elif isinstance(st, ast.Subset):
                self.subset(st)
            elif isinstance(st, ast.Compare):
                self.compare(st)
            elif isinstance(st, ast.Objective):
                terms, const = self.linear(st.expr)
                sense = Sense.MAXIMIZE if st.sense == "maximize" else Sense.MINIMIZE
                self.objective = Objective(sense, terms, const, st.span)
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
            constraints=tuple(self.constraints),
            objective=self.objective,
            decisions=tuple(self.decisions),
            regions=regions,
            params=dict(self.params),
            info=info,
        )

    # statements -------------------------------------------------------------
    def decide(self, st: ast.Decide) -> None:
        on = self.cells(st.on)
        lits: list[CellValue] = [False] * self.grid.size
        cells = []
        for i, v in enumerate(on):
            if v is True:
                lits[i] = self.new_var(st.name, i)
                cells.append((i, ((True, lits[i]),)))
        self.decision_lits[st.name] = lits
        self.decisions.append(Decision(st.name, (True,), tuple(cells)))

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

    def avoids(self, st: ast.Avoids) -> None:
        a, b = self.cells(st.left), self.cells(st.right)
        for x, y in zip(a, b):
            if x is not False and y is not False:
                self.clause([_neg(x), _neg(y)], st.span)

    def subset(self, st: ast.Subset) -> None:
        a, b = self.cells(st.left), self.cells(st.right)
        for x, y in zip(a, b):
            if x is not False and y is not True:
                self.clause([_neg(x), y], st.span)

    def compare(self, st: ast.Compare) -> None:
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
                self.constraints.append(Clause((), st.span))
            return
        self.constraints.append(Linear(terms, cmp, rhs, (), st.span))

    # expressions ------------------------------------------------------------
    def cells(self, e: ast.Expr) -> list[CellValue]:
        n = self.grid.size
        if isinstance(e, ast.Name):
            kind = self.sym.kind_of(e.id)
            if kind == "tile":
                return [t == e.id for t in self.grid.tiles]
            if kind == "tag":
                owners = set(self.sym.tags[e.id])
                return [t in owners for t in self.grid.tiles]
            if kind == "decision":
                return list(self.decision_lits[e.id])
            if kind == "region":
                if e.id not in self.region_lits:
                    raise SemanticError(f"region {e.id!r} is used before its definition", e.span,
                                        source=self.spec.source)
                return list(self.region_lits[e.id])
            raise SemanticError(f"{e.id!r} is not a cell set", e.span, source=self.spec.source)
        if isinstance(e, ast.Border):
            return [self.grid.is_border(i) for i in range(n)]
        if isinstance(e, ast.AllCells):
            return [True] * n
        if isinstance(e, ast.Not):
            return [_neg(v) for v in self.cells(e.operand)]
        if isinstance(e, (ast.And, ast.Or)):
            parts = [self.cells(p) for p in e.operands]
            is_and = isinstance(e, ast.And)
            return [self.combine(is_and, [p[i] for p in parts], i) for i in range(n)]
        raise SemanticError("expected a cell set", getattr(e, "span", None), source=self.spec.source)

    def combine(self, is_and: bool, values: list[CellValue], cell: int) -> CellValue:
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
            value = self.params[e.id]
            return scale * int(value)
        if isinstance(e, (ast.Count, ast.Value)):
            const = 0
            for i, v in enumerate(self.cells(e.operand)):
                w = 1 if isinstance(e, ast.Count) else self.sym.tiles[self.grid.tiles[i]].value
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

    def _constant(self, e: ast.Expr) -> int | None:
        probe: dict[int, int] = {}
        try:
            value = self._linear(e, 1, probe)
        except SemanticError:
            return None
        return None if any(probe.values()) else value


def _neg(v: CellValue) -> CellValue:
    if v is True:
        return False
    if v is False:
        return True
    return -v
