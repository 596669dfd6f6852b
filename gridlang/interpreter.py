"""The spec's rules, evaluated on one complete answer: the spec-level verifier.

An answer (each decision's value on each cell) is checked by walking the
spec's AST (:mod:`gridlang.ast`) over the map with plain sets and
breadth-first search. Nothing here reads the compiled model, so a mistake in
the compiler, an encoding or a solver cannot hide behind the same mistake in
the check. The meaning of every construct is the one stated in
``docs/language.md`` and in the design notes' "Exact semantics":

Grid graph
    Cells are numbered row-major (cell ``i`` is row ``i // cols``, column
    ``i % cols``). Two cells are adjacent when they share a side, or when
    both are cells of one ``linked`` tile kind written with the same map
    character (portals). The adjacency is built here from the map's
    characters and the spec's tiles, not taken from :class:`Grid`'s own.
Cell sets
    A tile's name: its cells. A tag: the cells of every tile carrying it.
    ``border``: the first and last row and column. ``all``: every cell.
    ``not S``, ``S and T``, ``S or T``: complement, intersection, union. A
    Boolean decision's name: the cells where it is true. A region's name:
    its members. ``D = V``: the cells where the enumerated decision D takes
    the value V; V is a value name of D's domain, an integer, a ``for each``
    variable or an ``int`` parameter (looked up in that order), or ``value``,
    each cell's own tile value. A cell D is not made on is never in
    ``D = V``, so it is in ``D != V``.
Numbers
    Integer literals, ``int`` parameters and ``for each`` variables;
    ``count(S)``: cells of S; ``value(S)``: the sum of S's tile values
    (``value N``, or for ``value digit`` the character read in base 36);
    ``sum(P)``: the sum of a ``set of int`` parameter's entries; ``+``,
    ``-``, ``*``, negation.
``region R = reach from A through P``
    The flood fill: the smallest set that holds every cell of A and every
    cell of P adjacent to a member. A cell of A is a member even when it is
    not in P, and its P-neighbours join. No cell of A: the region is empty.
    Regions are computed in statement order; naming one before its
    ``region`` statement is an error, as in the compiler.
Rules
    ``A avoids B``: no cell in both. ``A in B``: every cell of A in B.
    ``X OP Y``: the comparison of two integers. ``S is connected [with size
    N]``: S induces a connected subgraph (the empty set and a single cell
    are connected) and, with a size, has exactly N cells. ``S is a path
    between E``: E has exactly two cells; both are in S and have exactly one
    neighbour in S; every other cell of S has exactly two; S is connected
    (an induced simple path). ``for each k in P: RULE``: RULE for every
    entry of P, in order (a repeated entry repeats the rule). ``for each
    neighbours a, b: F``: F holds for every ordered pair of adjacent cells.
``for each``
    Over a ``set of int`` parameter (an integer variable), over the cells of
    a cell set known from the map, or over a family: ``cell p`` (every
    cell), ``row r``, ``column k`` (each row, column, as a set of cells),
    ``room m`` (each room: a maximal orthogonally connected group of cells
    with equal labels in the map's room layer), ``H x W window w`` (every
    H-by-W rectangle inside the grid), ``H x W block b`` (the rectangles
    that tile the grid from its top-left corner). A cell variable is the set
    of its one cell.
Geometry
    ``neighbours(p)``: p's neighbours in the grid graph; ``diagonal
    neighbours(p)``: the cells sharing only a corner with p; ``king
    neighbours(p)``: both, the eight king moves; ``row(p)``, ``column(p)``,
    ``room(p)``: the line or room holding p. ``p + d`` (``p - d``): the cell
    one step from p in direction d (``up``, ``right``, ``down``, ``left``, or a
    ``for each direction`` variable); off the grid, no cell: ``S[p + d]`` is
    false, ``D[p + d]`` is 0, and sets around it are empty. ``component of p in S``: the
    cells of S joined to p by a path inside S (the empty set when p is not
    in S).
Conditions
    ``S[p]``: p is in S; ``D[p]``: an integer decision's value at p (a
    number); ``D[p] = V``; ``p = q``: the same cell; relations (``A in B``,
    ``A avoids B``, comparisons, ``all different D in S``: no value of D
    twice among the cells of S) combined with ``not``, ``and``, ``or``,
    ``implies``. ``count(F for q in S)``: the cells q of S where F holds;
    ``sum(N for q in S)``; ``all(F for q in S)``, ``any(F for q in S)``. A
    rule that is a condition is broken for each binding of its ``for each``
    variables that makes it false.
Sight and shapes
    ``sight from p toward q through S``: walking from p over its side
    neighbour q and on in that direction, the cells met before the first
    cell not in S (or the edge). ``S is a piece of F``: S's cells, moved,
    rotated or reflected, are one shape of the family F (``tetrominoes``,
    ``pentominoes``, ``polyominoes(k)``: every free polyomino of k cells,
    or one shape bound by ``for each shape s in F``). ``S consists of F``:
    the side-connected pieces of S are, shape for shape, the entries of F
    (as many of each as F lists).
Formulas over a pair of cells
    ``S[a]``: cell a is in S (a tile, tag, Boolean decision or region).
    ``D[a] = V``: the enumerated decision D takes value V at a (false where
    D is not made). ``D[a] = D[b]``: D's values at the two cells are equal,
    where a cell D is not made on has no value (two such cells are equal)
    and, for a Boolean D, a cell counts as true only where D is true.
    ``not``, ``and``, ``or``, ``implies``.
Objective
    ``maximize E`` / ``minimize E``: the integer E on this answer.

The answer itself is checked first, against the ``decide`` statements: a
Boolean decision true on a cell it is not made on, an enumerated decision
with a value outside its domain, with no value on one of its cells or with a
value on a cell it is not made on, and a decision name the spec does not
declare are each a violation located at the ``decide`` statement. Values on
cells a decision is not made on are then ignored, as the decision does not
exist there.

A broken rule becomes a :class:`Violation` located at its ``require``
statement, with the cells that show it: the cells in both sets, the cells
missing from the superset, the pieces off the largest component, the cells
of wrong degree, the pair of neighbours. The objective is computed whether
or not the rules hold.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Mapping, Sequence

from . import ast
from .checker import Symbols
from .errors import ParamError, SemanticError, Span
from .grid import Cell, Grid, room_label
from .shapes import polyominoes

Decisions = Mapping[str, Mapping[int, object]]
"""Decision name -> {cell index: value}: a Boolean decision lists its true
cells (value True), an enumeration each cell's value."""

_MAX_SHOWN = 12


@dataclass(frozen=True)
class Violation:
    """One broken rule (or one malformed decision) of one answer.

    Attributes:
        span: where the rule or ``decide`` statement starts in the spec;
            None for a decision the spec does not declare.
        rule_text: the statement's source text, on one line.
        cells: the cells that show the violation, as ``(row, col)``,
            0-based, row 0 at the top.
        reason: one sentence saying what is wrong, with any ``for each``
            binding (``k = 3``).
    """

    span: Span | None
    rule_text: str
    cells: tuple[Cell, ...] = ()
    reason: str = ""

    def render(self) -> str:
        """``SPEC:LINE:COL: rule violated: RULE``, then the reason and the cells.

        Returns:
            Two lines: the located head and an indented detail line.
        """
        where = f"{self.span}: " if self.span is not None else ""
        head = f"{where}rule violated: {self.rule_text}"
        detail = self.reason
        if self.cells:
            shown = ", ".join(f"({r}, {c})" for r, c in self.cells[:_MAX_SHOWN])
            more = len(self.cells) - _MAX_SHOWN
            detail += ": " + shown + (f" and {more} more" if more > 0 else "")
        return f"{head}\n    {detail}" if detail else head

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class SpecVerdict:
    """What the spec's rules say of one answer.

    Attributes:
        ok: no violation.
        objective: the objective's value on this answer (an integer, in the
            spec's own units), or None when the spec has no objective.
        violations: every violation, in statement order.
        regions: each region's members (cell indices).
    """

    ok: bool
    objective: int | None
    violations: list[Violation] = field(default_factory=list)
    regions: dict[str, frozenset[int]] = field(default_factory=dict)

    def render(self) -> str:
        """Every violation's rendering, one after the other (empty when ok)."""
        return "\n".join(v.render() for v in self.violations)


def evaluate(spec: ast.Spec, symbols: Symbols, grid: Grid, params: Mapping[str, object],
             decisions: Decisions) -> SpecVerdict:
    """Evaluate a spec's rules and objective on a complete answer.

    Args:
        spec: the parsed spec (its source gives each violation's text).
        symbols: its symbol table (:func:`gridlang.checker.check`).
        grid: the map; its ``rows``, ``cols``, ``chars`` and ``tiles`` are
            read.
        params: every parameter's value (int, or a tuple of ints for
            ``set of int``), as :func:`gridlang.params.resolve_params` gives.
        decisions: decision name -> {cell index: value}, as in
            :attr:`gridlang.solution.Solution.decisions`.

    Returns:
        The verdict.

    Raises:
        ParamError: a parameter of the spec has no value in ``params``.
        SemanticError: a region is named before its ``region`` statement.
    """
    return Interpreter(spec, symbols, grid, params).evaluate(decisions)


def adjacency(grid: Grid, symbols: Symbols) -> tuple[tuple[int, ...], ...]:
    """The grid graph: side neighbours plus the cells of ``linked`` tiles with equal characters.

    Args:
        grid: the map (``rows``, ``cols``, ``chars``, ``tiles``).
        symbols: the spec's tiles, for their ``linked`` flag.

    Returns:
        For each cell index, its neighbours' indices, ascending.
    """
    rows, cols = grid.rows, grid.cols
    adj: list[set[int]] = [set() for _ in range(rows * cols)]
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        if r + 1 < rows:
            adj[i].add(i + cols)
            adj[i + cols].add(i)
        if c + 1 < cols:
            adj[i].add(i + 1)
            adj[i + 1].add(i)
    twins: dict[str, list[int]] = {}
    for i, (tile, ch) in enumerate(zip(grid.tiles, grid.chars)):
        decl = symbols.tiles.get(tile)
        if decl is not None and decl.linked:
            twins.setdefault(ch, []).append(i)
    for cells in twins.values():
        for u in cells:
            adj[u].update(v for v in cells if v != u)
    return tuple(tuple(sorted(a)) for a in adj)


def components(adj: Sequence[Sequence[int]], cells: set[int] | frozenset[int]) -> list[list[int]]:
    """The connected pieces of the subgraph ``cells`` induces, largest first.

    Returns:
        Each piece's cells ascending; ties in size keep the order of their
        smallest cell.
    """
    seen: set[int] = set()
    pieces = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        piece, queue = [start], deque([start])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v in cells and v not in seen:
                    seen.add(v)
                    piece.append(v)
                    queue.append(v)
        pieces.append(sorted(piece))
    pieces.sort(key=len, reverse=True)
    return pieces


class Interpreter:
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
        self.border = frozenset(i for i in range(self.n) if _on_border(grid, i))
        self.tile_values = tuple(symbols.tiles[t].value_of(ch) if t in symbols.tiles else 0
                                 for t, ch in zip(grid.tiles, grid.chars))
        self.texts: dict[int, str] = {}
        self.fixed: dict[str, frozenset[int]] = {}
        # Per answer (env: `for each` integers; cellvars, setvars: `for each`
        # cells and cell sets; pair: the cells of a neighbour pair):
        self.env: dict[str, int] = {}
        self.cellvars: dict[str, int] = {}
        self.setvars: dict[str, tuple[frozenset[int], str]] = {}
        self.shapevars: dict[str, tuple[tuple[int, int], ...]] = {}
        self.dirvars: dict[str, tuple[str, tuple[int, int]]] = {}
        self.room_of: tuple[int, ...] | None = _rooms_of(grid)
        self.pair: dict[str, int] = {}
        self.bools: dict[str, frozenset[int]] = {}
        self.enums: dict[str, dict[int, object]] = {}
        self.regions: dict[str, frozenset[int]] = {}
        self.violations: list[Violation] = []
        self.stmt: ast.Stmt | None = None
        # Fixed per map:
        self.on = {d.name: self.cells(d.on) for d in spec.of(ast.Decide)}
        self.domains = {d.name: self.domain(d) for d in spec.of(ast.Decide) if d.is_enum}
        self.value_names = {d.name: {p.id for p in d.domain if isinstance(p, ast.Symbol)} if d.is_enum else set()
                            for d in spec.of(ast.Decide)}

    # answers -----------------------------------------------------------------
    def evaluate(self, decisions: Decisions) -> SpecVerdict:
        """Judge one answer; see :func:`evaluate`."""
        self.env, self.pair, self.regions, self.violations = {}, {}, {}, []
        self.cellvars, self.setvars, self.shapevars, self.dirvars = {}, {}, {}, {}
        self.bools, self.enums = {}, {}
        self.check_decisions(decisions)
        objective = None
        for st in self.spec.statements:
            self.stmt = st
            if isinstance(st, ast.Region):
                self.regions[st.name] = self.reach(st)
            elif isinstance(st, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath,
                                 ast.ForEach, ast.ForPairs, ast.Holds)):
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
            on = self.on[d.name]
            self.stmt = d
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
        values: list[object] = []
        for part in d.domain:
            if isinstance(part, ast.Symbol):
                values.append(part.id)
            elif isinstance(part, ast.IntLit):
                values.append(part.value)
            elif isinstance(part, ast.DomainRange):
                low, high = (self.number(b) for b in (part.low, part.high))
                values.extend(range(low, high + 1))
            else:
                values.extend(self.params[part.id])
        return tuple(values)

    # violations -----------------------------------------------------------------
    def fail(self, reason: str, cells=()) -> None:
        """Record a violation of the current statement, naming the ``for each`` bindings in force."""
        st = self.stmt
        binding = ", ".join([f"{k} = {v}" for k, v in self.env.items()]
                            + [f"{k} = {_rc(self.grid, i)}" for k, i in self.cellvars.items()]
                            + [f"{k} = {label}" for k, (_, label) in self.setvars.items()]
                            + [f"{k} = {name}" for k, (name, _) in self.dirvars.items()])
        self.violations.append(Violation(
            st.span, self.text(st),
            tuple(divmod(i, self.grid.cols) for i in (sorted(cells) if isinstance(cells, (set, frozenset)) else cells)),
            (f"with {binding}: " if binding else "") + reason))

    def text(self, st) -> str:
        key = id(st)
        if key not in self.texts:
            text = statement_text(self.spec.source, st)
            self.texts[key] = f"decide {text}" if isinstance(st, ast.Decide) else text
        return self.texts[key]

    # statements --------------------------------------------------------------------
    def reach(self, st: ast.Region) -> frozenset[int]:
        roots = self.cells(st.roots)
        passable = self.cells(st.through)
        members = set(roots)
        queue = deque(sorted(roots))
        while queue:
            u = queue.popleft()
            for v in self.adj[u]:
                if v in passable and v not in members:
                    members.add(v)
                    queue.append(v)
        return frozenset(members)

    def rule(self, st) -> None:
        if isinstance(st, ast.Avoids):
            left, right = self.cells(st.left), self.cells(st.right)
            both = left & right
            if both:
                self.fail(f"{len(both)} cell{_s(both)} in both sets", both)
        elif isinstance(st, ast.Subset):
            left, right = self.cells(st.left), self.cells(st.right)
            out = left - right
            if out:
                self.fail(f"{len(out)} cell{_s(out)} of the first set not in the second", out)
        elif isinstance(st, ast.Compare):
            left, right = self.number(st.left), self.number(st.right)
            if not _compare(left, st.op, right):
                counted = set().union(*(self.cells(e.operand) for e in _counted(st)))
                self.fail(f"{left} {st.op} {right} is false" + (" (the cells counted)" if counted else ""),
                          counted)
        elif isinstance(st, ast.IsConnected):
            self.is_connected(st)
        elif isinstance(st, ast.IsPath):
            self.is_path(st)
        elif isinstance(st, ast.ForEach):
            var = st.var.id
            for kind, value in self.over(st.domain):
                table = {"int": self.env, "cell": self.cellvars, "set": self.setvars, "shape": self.shapevars,
                         "direction": self.dirvars}[kind]
                table[var] = value
                self.rule(st.body)
                table.pop(var, None)
        elif isinstance(st, ast.ForPairs):
            self.for_pairs(st)
        elif isinstance(st, ast.Holds):
            if not self.holds(st.formula):
                self.fail("the condition is false", sorted(self.cellvars.values()))
        else:
            raise TypeError(f"unknown rule {st!r}")

    def is_connected(self, st: ast.IsConnected) -> None:
        cells = self.cells(st.cells)
        if st.size is not None:
            size = self.number(st.size)
            if len(cells) != size:
                self.fail(f"the set has {len(cells)} cell{_s(cells)}, not {size}", cells)
        pieces = components(self.adj, cells)
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
                      + ", ".join(f"{_rc(self.grid, e)} has {degree[e]}" for e in bad_ends), bad_ends)
        bad = [u for u in sorted(cells) if u not in ends and degree[u] != 2]
        if bad:
            self.fail("a cell other than the ends needs exactly two neighbours in the set; "
                      + ", ".join(f"{_rc(self.grid, u)} has {degree[u]}" for u in bad[:_MAX_SHOWN])
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
                    self.fail(f"false for {a} = {_rc(self.grid, u)}, {b} = {_rc(self.grid, v)}", (u, v))
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
            return self.tile_values[cell]
        if value.id in self.value_names[decision]:
            return value.id
        if value.id in self.env:
            return self.env[value.id]
        return int(self.params[value.id])

    # expressions -------------------------------------------------------------------------
    def cells(self, e: ast.Expr) -> frozenset[int]:
        """The cell set ``e`` denotes on this answer (cell indices)."""
        if isinstance(e, ast.Name) and e.id in self.cellvars:
            return frozenset((self.cellvars[e.id],))
        if isinstance(e, ast.Name) and e.id in self.setvars:
            return self.setvars[e.id][0]
        if isinstance(e, ast.Add):
            p = self.cell(e)
            return frozenset(() if p is None else (p,))
        if isinstance(e, ast.Around):
            p = self.cell(e.cell)
            return frozenset() if p is None else self.around(e.kind, p)
        if isinstance(e, ast.LineOf):
            p = self.cell(e.cell)
            if p is None:
                return frozenset()
            if e.kind == "row":
                return frozenset(i for i in range(self.n) if i // self.grid.cols == p // self.grid.cols)
            if e.kind == "column":
                return frozenset(i for i in range(self.n) if i % self.grid.cols == p % self.grid.cols)
            rooms = self.rooms(e.span)
            return frozenset(i for i in range(self.n) if rooms[i] == rooms[p])
        if isinstance(e, ast.Sight):
            p = self.cell(e.cell)
            if p is None:
                return frozenset()
            if isinstance(e.toward, ast.Direction) or isinstance(e.toward, ast.Name) and e.toward.id in self.dirvars:
                q = None
                dr, dc = self.step(e.toward)
                r, c = divmod(p, self.grid.cols)
                r2, c2 = r + dr, c + dc
            else:
                q = self.cell(e.toward)
                if q is None:
                    return frozenset()
                (r, c), (r2, c2) = divmod(p, self.grid.cols), divmod(q, self.grid.cols)
                dr, dc = r2 - r, c2 - c
            if abs(dr) + abs(dc) != 1:
                raise SemanticError(f"'sight from p toward q' needs q beside p; {_rc(self.grid, q)} is not beside "
                                    f"{_rc(self.grid, p)}", e.span, source=self.spec.source)
            within = self.cells(e.within)
            seen = []
            while 0 <= r2 < self.grid.rows and 0 <= c2 < self.grid.cols and r2 * self.grid.cols + c2 in within:
                seen.append(r2 * self.grid.cols + c2)
                r2, c2 = r2 + dr, c2 + dc
            return frozenset(seen)
        if isinstance(e, ast.Component):
            p = self.cell(e.cell)
            within = self.cells(e.within)
            if p is None or p not in within:
                return frozenset()
            return frozenset(next(piece for piece in components(self.adj, within) if p in piece))
        if isinstance(e, ast.Name):
            kind = self.sym.kind_of(e.id)
            if kind in ("tile", "tag"):
                if e.id not in self.fixed:
                    owners = {e.id} if kind == "tile" else set(self.sym.tags[e.id])
                    self.fixed[e.id] = frozenset(i for i, t in enumerate(self.grid.tiles) if t in owners)
                return self.fixed[e.id]
            if kind == "decision":
                return self.bools[e.id]
            if kind == "region":
                if e.id not in self.regions:
                    raise SemanticError(f"region {e.id!r} is used before its definition", e.span,
                                        source=self.spec.source)
                return self.regions[e.id]
            raise SemanticError(f"{e.id!r} is not a cell set", e.span, source=self.spec.source)
        if isinstance(e, ast.Border):
            return self.border
        if isinstance(e, ast.AllCells):
            return self.all
        if isinstance(e, ast.Not):
            return self.all - self.cells(e.operand)
        if isinstance(e, ast.And):
            out = self.cells(e.operands[0])
            for p in e.operands[1:]:
                out = out & self.cells(p)
            return out
        if isinstance(e, ast.Or):
            return frozenset().union(*(self.cells(p) for p in e.operands))
        if isinstance(e, ast.Is):
            name = e.decision.id
            values = self.enums[name]
            if isinstance(e.value, ast.TileValue):
                return frozenset(i for i, v in values.items() if _same(v, self.tile_values[i]))
            target = self.resolve(name, e.value, None)
            return frozenset(i for i, v in values.items() if _same(v, target))
        raise SemanticError("expected a cell set", getattr(e, "span", None), source=self.spec.source)

    def number(self, e: ast.Expr) -> int:
        """The integer ``e`` denotes on this answer."""
        if isinstance(e, ast.IntLit):
            return e.value
        if isinstance(e, ast.At):
            if self.cell(e.cell) is None:
                return 0
            value = self.enums[e.name.id].get(self.cell(e.cell))
            if not isinstance(value, int) or isinstance(value, bool):
                raise SemanticError(f"{e.name.id!r} has no number at {_rc(self.grid, self.cell(e.cell))}", e.span,
                                    source=self.spec.source)
            return value
        if isinstance(e, ast.Aggregate):
            values = self.each(e, self.holds if e.fn == "count" else self.number)
            return sum(1 for v in values if v) if e.fn == "count" else sum(values)
        if isinstance(e, ast.Name):
            if e.id in self.env:
                return int(self.env[e.id])
            return int(self.params[e.id])
        if isinstance(e, ast.SumOf):
            return sum(self.int_set(e.operand))
        if isinstance(e, ast.Count):
            return len(self.cells(e.operand))
        if isinstance(e, ast.Value):
            return sum(self.tile_values[i] for i in self.cells(e.operand))
        if isinstance(e, ast.Add):
            return self.number(e.left) + e.sign * self.number(e.right)
        if isinstance(e, ast.Mul):
            return self.number(e.left) * self.number(e.right)
        if isinstance(e, ast.Neg):
            return -self.number(e.operand)
        raise SemanticError("expected a number", getattr(e, "span", None), source=self.spec.source)

    # conditions ------------------------------------------------------------------------------
    def holds(self, f: ast.Expr) -> bool:
        """Whether the condition ``f`` holds on this answer under the current bindings."""
        if isinstance(f, ast.At):
            p = self.cell(f.cell)
            return p is not None and p in self.cells(f.name)
        if isinstance(f, ast.AtIs) and isinstance(f.value, ast.At):
            p, q = self.cell(f.cell), self.cell(f.value.cell)
            name = f.name.id
            if name in self.enums:
                a, b = self.enums[name].get(p), self.enums[name].get(q)
                return _same(a, b) if a is not None and b is not None else a is None and b is None
            return (p is not None and p in self.bools[name]) == (q is not None and q in self.bools[name])
        if isinstance(f, ast.AtIs):
            p = self.cell(f.cell)
            if p is None or p not in self.enums[f.name.id]:
                return False
            return _same(self.enums[f.name.id][p], self.resolve(f.name.id, f.value, p))
        if isinstance(f, ast.Is):
            return self.cell(f.decision) == self.cell(f.value)
        if isinstance(f, ast.Not):
            return not self.holds(f.operand)
        if isinstance(f, ast.And):
            return all(self.holds(g) for g in f.operands)
        if isinstance(f, ast.Or):
            return any(self.holds(g) for g in f.operands)
        if isinstance(f, ast.Implies):
            return not self.holds(f.left) or self.holds(f.right)
        if isinstance(f, ast.Subset):
            return self.cells(f.left) <= self.cells(f.right)
        if isinstance(f, ast.Avoids):
            return not (self.cells(f.left) & self.cells(f.right))
        if isinstance(f, ast.Compare):
            return _compare(self.number(f.left), f.op, self.number(f.right))
        if isinstance(f, ast.AllDifferent):
            values = [self.enums[f.decision.id][i] for i in sorted(self.cells(f.cells))
                      if i in self.enums[f.decision.id]]
            return len(values) == len({(type(v), v) for v in values})
        if isinstance(f, ast.Aggregate) and f.fn in ("all", "any"):
            values = self.each(f, self.holds)
            return all(values) if f.fn == "all" else any(values)
        if isinstance(f, ast.IsPiece):
            cells = self.cells(f.cells)
            return bool(cells) and self.form(cells) in {_form(s) for s in self.shapes(f.family)}
        if isinstance(f, ast.ConsistsOf):
            cols = self.grid.cols
            parts = _side_pieces(self.cells(f.cells), self.grid.rows, cols)
            return sorted(self.form(p) for p in parts) == sorted(_form(s) for s in self.shapes(f.family))
        raise SemanticError("expected a condition", getattr(f, "span", None), source=self.spec.source)

    def shapes(self, fam: ast.Shapes) -> list:
        """The shapes of a family, one per entry, as cell offsets."""
        if fam.kind == "var":
            return [self.shapevars[fam.arg.id]]
        if isinstance(fam.arg, ast.Name) and fam.arg.id in self.params and isinstance(self.params[fam.arg.id], tuple):
            sizes = list(self.params[fam.arg.id])
        else:
            sizes = [self.number(fam.arg)]
        out = []
        for k in sizes:
            out.extend(polyominoes(k))
        return out

    def form(self, cells) -> tuple:
        """The free shape of a set of cells (see :func:`_form`)."""
        return _form([divmod(i, self.grid.cols) for i in cells])

    def each(self, agg: ast.Aggregate, fn) -> list:
        """``fn(body)`` at each cell of an aggregate's domain, its variable bound to the cell."""
        var = agg.var.id
        out = []
        for i in sorted(self.cells(agg.domain)):
            self.cellvars[var] = i
            out.append(fn(agg.body))
        self.cellvars.pop(var, None)
        return out

    def cell(self, e: ast.Expr) -> int | None:
        """The cell a cell expression stands for: a ``for each`` cell variable, a pair's cell, or
        ``p + d`` (one step from p in direction d; None off the grid)."""
        if isinstance(e, ast.Name) and e.id in self.cellvars:
            return self.cellvars[e.id]
        if isinstance(e, ast.Name) and e.id in self.pair:
            return self.pair[e.id]
        if isinstance(e, ast.Add):
            base = self.cell(e.left)
            if base is None:
                return None
            dr, dc = self.step(e.right)
            r, c = divmod(base, self.grid.cols)
            r, c = r + e.sign * dr, c + e.sign * dc
            return r * self.grid.cols + c if 0 <= r < self.grid.rows and 0 <= c < self.grid.cols else None
        raise SemanticError("expected one cell (a 'for each' cell variable)", getattr(e, "span", None),
                            source=self.spec.source)

    def step(self, e: ast.Expr) -> tuple[int, int]:
        """A direction's step: up (-1, 0), right (0, 1), down (1, 0), left (0, -1)."""
        name = e.name if isinstance(e, ast.Direction) else self.dirvars[e.id][0]
        return {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}[name]

    # geometry ------------------------------------------------------------------------------------
    def around(self, kind: str, p: int) -> frozenset[int]:
        """``neighbours``: the grid graph's; ``diagonal``/``king``: corner or side-and-corner contact."""
        if kind == "side":
            return frozenset(self.adj[p])
        r, c = divmod(p, self.grid.cols)
        out = set()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr, dc) == (0, 0) or kind == "diagonal" and 0 in (dr, dc):
                    continue
                if 0 <= r + dr < self.grid.rows and 0 <= c + dc < self.grid.cols:
                    out.add((r + dr) * self.grid.cols + c + dc)
        return frozenset(out)

    def rooms(self, span: Span | None) -> tuple[int, ...]:
        if self.room_of is None:
            raise SemanticError("rooms come from the map's room layer (a 'rooms:' block under the grid), and "
                                "this map has none", span, source=self.spec.source)
        return self.room_of

    def over(self, domain) -> list[tuple[str, object]]:
        """A ``for each`` domain's members in order: ``(kind, value)``, kind ``int``, ``cell``, ``set`` or ``shape``."""
        rows, cols = self.grid.rows, self.grid.cols
        if isinstance(domain, ast.Shapes):
            return [("shape", s) for s in self.shapes(domain)]
        if isinstance(domain, ast.Family):
            if domain.kind == "cells":
                return [("cell", i) for i in range(self.n)]
            if domain.kind == "directions":
                return [("direction", ("up", (-1, 0))), ("direction", ("right", (0, 1))),
                        ("direction", ("down", (1, 0))), ("direction", ("left", (0, -1)))]
            if domain.kind == "rows":
                return [("set", (frozenset(range(r * cols, (r + 1) * cols)), f"row {r}")) for r in range(rows)]
            if domain.kind == "columns":
                return [("set", (frozenset(range(c, self.n, cols)), f"column {c}")) for c in range(cols)]
            if domain.kind == "rooms":
                rooms = self.rooms(domain.span)
                firsts = sorted({min(i for i in range(self.n) if rooms[i] == k) for k in set(rooms)})
                return [("set", (frozenset(i for i in range(self.n) if rooms[i] == rooms[f]),
                                 f"the room of {_rc(self.grid, f)}")) for f in firsts]
            h, w = self.number(domain.height), self.number(domain.width)
            step_r, step_c = (1, 1) if domain.kind == "windows" else (h, w)
            out = []
            for r in range(0, rows - h + 1, step_r):
                for c in range(0, cols - w + 1, step_c):
                    cells = frozenset((r + dr) * cols + c + dc for dr in range(h) for dc in range(w))
                    out.append(("set", (cells, f"the {h}x{w} {domain.kind[:-1]} at ({r}, {c})")))
            return out
        if isinstance(domain, ast.Name) and domain.id in self.params:
            return [("int", v) for v in self.int_set(domain)]
        return [("cell", i) for i in sorted(self.cells(domain))]

    def int_set(self, e: ast.Expr) -> tuple[int, ...]:
        if isinstance(e, ast.Name) and e.id in self.params:
            return tuple(self.params[e.id])
        raise SemanticError("expected a 'set of int' parameter", getattr(e, "span", None), source=self.spec.source)


def statement_text(source: str, node) -> str:
    """A statement's source text, from its first to its last character, on one line.

    The extent is that of every span inside the node (a statement's own span
    stops at the end of its first line when it runs over several);
    parentheses left open at the end are closed with the text that follows.
    Comments are dropped and runs of white space become one space.

    Args:
        source: the spec's text.
        node: an AST node with spans.

    Returns:
        The text, or ``""`` when the node has no span.
    """
    spans = list(_spans(node))
    if not spans:
        return ""
    lines = source.splitlines()
    start = min((s.line, s.column) for s in spans)
    end = max((s.line, s.end_column if s.end_column else s.column + 1) for s in spans)
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    if start[0] > len(lines):
        return ""
    a = offsets[start[0] - 1] + start[1] - 1
    b = offsets[min(end[0], len(lines)) - 1] + end[1] - 1
    text = source[a:b]
    depth = text.count("(") - text.count(")")
    while depth > 0:
        m = re.compile(r"\s*\)").match(source, b)
        if m is None:
            break
        b, depth = m.end(), depth - 1
    text = re.sub(r"#[^\n]*", "", source[a:b])
    return " ".join(text.split())


def _spans(node):
    if isinstance(node, Span):
        yield node
    elif isinstance(node, (tuple, list)):
        for x in node:
            yield from _spans(x)
    elif hasattr(node, "__dataclass_fields__"):
        for f in fields(node):
            if f.name != "attr_spans":
                yield from _spans(getattr(node, f.name))


def _counted(e) -> list:
    """Every ``count(...)`` and ``value(...)`` inside a number expression."""
    if isinstance(e, (ast.Count, ast.Value)):
        return [e]
    if isinstance(e, ast.Compare):
        return _counted(e.left) + _counted(e.right)
    if isinstance(e, (ast.Add, ast.Mul)):
        return _counted(e.left) + _counted(e.right)
    if isinstance(e, ast.Neg):
        return _counted(e.operand)
    return []


def _same(a: object, b: object) -> bool:
    """Equal values of one kind: ``True`` is not the integer 1 here."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _compare(left: int, op: str, right: int) -> bool:
    return {"<=": left <= right, ">=": left >= right, "==": left == right,
            "<": left < right, ">": left > right}[op]


def _rooms_of(grid: Grid) -> tuple[int, ...] | None:
    """Each cell's room number, from the room labels its text carries; None without a room layer.

    A room is a maximal set of cells with equal labels joined through side
    neighbours (links do not join rooms).
    """
    labels = [room_label(ch) for ch in grid.chars]
    if all(label is None for label in labels):
        return None
    rows, cols = grid.rows, grid.cols
    room: dict[int, int] = {}
    number = -1
    for start in range(rows * cols):
        if start in room:
            continue
        number += 1
        room[start] = number
        queue = deque([start])
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    v = (r + dr) * cols + c + dc
                    if v not in room and labels[v] == labels[start]:
                        room[v] = number
                        queue.append(v)
    return tuple(room[i] for i in range(rows * cols))


def _form(cells) -> tuple:
    """A set of (row, col) cells up to moves, rotations and reflections: the least of its eight images."""
    images = []
    for flip in (False, True):
        for turn in range(4):
            moved = []
            for r, c in cells:
                if flip:
                    r, c = r, -c
                for _ in range(turn):
                    r, c = c, -r
                moved.append((r, c))
            top = min(r for r, _ in moved)
            left = min(c for _, c in moved)
            images.append(tuple(sorted((r - top, c - left) for r, c in moved)))
    return min(images)


def _side_pieces(cells, rows: int, cols: int) -> list[list[int]]:
    """The pieces of a cell set joined through shared sides (links do not join pieces)."""
    left = set(cells)
    out = []
    while left:
        start = min(left)
        piece, queue = {start}, deque([start])
        left.discard(start)
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            for v, ok in ((u - cols, r > 0), (u + cols, r < rows - 1), (u - 1, c > 0), (u + 1, c < cols - 1)):
                if ok and v in left:
                    left.discard(v)
                    piece.add(v)
                    queue.append(v)
        out.append(sorted(piece))
    return out


def _on_border(grid: Grid, i: int) -> bool:
    r, c = divmod(i, grid.cols)
    return r in (0, grid.rows - 1) or c in (0, grid.cols - 1)


def _rc(grid: Grid, i: int) -> str:
    r, c = divmod(i, grid.cols)
    return f"({r}, {c})"


def _s(items) -> str:
    return "" if len(items) == 1 else "s"


def _show(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)
