"""Lowering of regions, connectivity and paths, and the pass that anchors them.

Part of :class:`gridlang.compiler.core._Compiler` (a mixin): ``region R =
reach from A through P``, ``S is connected [with size N]`` and ``S is a
path between E``, as the package docstring (:mod:`gridlang.compiler`)
states; then :func:`anchor_connected`, the exact strengthening pass run on
the finished constraints.
"""

from __future__ import annotations

from gridlang.core.deadline import Deadline
from gridlang.core.errors import GridlangError, SemanticError, Span, raise_all
from gridlang.core.grid import Grid
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import Clause, Cmp, Connected, Constraint, GraphConnected, Linear
from gridlang.language import ast


class RegionLowering:
    """Regions, connectivity and paths (a mixin of :class:`~gridlang.compiler.core._Compiler`)."""

    def region(self, st: ast.Region) -> None:
        roots_set = self.cells(st.roots)
        passable = self.cells(st.through)
        roots = [i for i, v in enumerate(roots_set) if v is True]
        root_set = set(roots)
        member: list[CellValue] = [False] * self.grid.size
        if roots:
            for i in range(self.grid.size):
                if i in root_set or passable[i] is not False:
                    member[i] = self.new_var(st.name, i)
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
                self.clause([-mu, neg(pv), mv], st.span)
        self.region_lits[st.name] = member
        members = tuple((i, m) for i, m in enumerate(member) if m is not False)
        gates = tuple((i, passable[i]) for i, m in members if i not in root_set and passable[i] is not True)
        self.constraints.append(Connected(members, tuple(roots), None, st.name, st.span, through=gates))

    def is_connected(self, st: ast.IsConnected) -> None:
        values = self.members(st.cells)  # sparse: linear in the set, not in the grid, under a `for each`
        size = None
        if st.size is not None:
            size = self.constant(st.size)
            if size is None:
                raise SemanticError("a size is an integer known before solving", st.size.span,
                                    source=self.spec.source)
        cells = sorted(values)
        members = tuple((i, self.lit(values[i])) for i in cells)
        always = [i for i in cells if values[i] is True]
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
        if st.diagonal:
            # side and corner neighbours, an explicit graph: an edge is there when both its cells are
            # members (the lazy cuts need an edge's literal to imply its ends)
            where = {i for i, _ in members}
            edges = tuple((u, v, self.lit(self.combine(True, [values[u], values[v]], None)))
                          for u in sorted(where) for v in self.grid.king_neighbours(u) if u < v and v in where)
            self.constraints.append(GraphConnected(members, edges, roots, False, self.describe(st.cells), st.span))
            return
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
                    self.clause([neg(su)] if enforce else [], st.span)
                continue
            self.constraints.append(Linear(tuple(terms), Cmp.EQ, rhs, enforce, st.span))
        # Redundant: no 2x2 block lies wholly in the path.
        cols = self.grid.cols
        for r in range(self.grid.rows - 1):
            for c in range(cols - 1):
                block = [values[r * cols + c], values[r * cols + c + 1],
                         values[(r + 1) * cols + c], values[(r + 1) * cols + c + 1]]
                if all(v is not False for v in block):
                    self.clause([neg(v) for v in block], st.span)
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


def anchor_connected(grid: Grid, constraints: tuple[Constraint, ...], deadline: Deadline | None = None
                     ) -> tuple[Constraint, ...]:
    """Strengthen connectivity nodes with exact consequences (a pure pass IR -> IR).

    For a :class:`~gridlang.ir.model.Connected` node:

    * Candidates fixed false by a unit clause leave the node.
    * Without roots, a member fixed true by a unit clause becomes the root:
      the set is connected exactly when it is connected to that cell, so no
      solution changes and the backends are spared the root choice.
    * Without a size, an unconditional :class:`~gridlang.ir.model.Linear` that
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

    Time: linear in the constraints and their literals (the counts are
    looked up by their unforced literals, not searched per node), plus a
    breadth-first search per node with a size and a root.

    Args:
        grid: the model's grid graph.
        constraints: the lowered constraints.
        deadline: read every 64 nodes (None: no limit).

    Returns:
        The constraints with such nodes replaced and the new clauses appended.

    Raises:
        BuildTimeout: ``deadline`` passed.
    """
    if not any(isinstance(con, Connected) for con in constraints):
        return constraints  # nothing to strengthen (Akari's 100,000 constraints are not copied)
    forced = {c.lits[0] for c in constraints if isinstance(c, Clause) and len(c.lits) == 1}
    counts = _counts(constraints, forced) if any(
        isinstance(con, Connected) and con.size is None for con in constraints) else {}
    out: list[Constraint] = []
    extra: list[Constraint] = []
    nodes = 0
    for con in constraints:
        if not isinstance(con, Connected):
            out.append(con)
            continue
        nodes += 1
        if deadline is not None and not nodes & 0x3F:
            deadline.check()
        members = tuple((cell, lit) for cell, lit in con.members if -lit not in forced)
        roots = con.roots
        if not roots:
            fixed = [cell for cell, lit in members if lit in forced]
            roots = (fixed[0],) if fixed else ()
        size = con.size
        if size is None:
            size = _counted_size(counts, members, forced)
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
        out.append(Connected(members, roots, size, con.name, con.span, con.path, con.through))
    return tuple(out + extra)


def _counts(constraints: tuple[Constraint, ...], forced: set[int]) -> dict[frozenset[int], list[tuple[frozenset[int], int]]]:
    """The unconditional rows that count literals, ``sum of x == N`` (each variable once, every
    coefficient 1 once a negated literal ``-x`` is read as ``1 - x``, or every one -1, the row
    multiplied by -1: ``count(not shaded) == N`` counts the shaded cells too), as ``(positive
    literals, N)``, by their literals that no unit clause fixes: the rows :func:`_counted_size` looks up."""
    out: dict[frozenset[int], list[tuple[frozenset[int], int]]] = {}
    for con in constraints:
        if not isinstance(con, Linear) or con.op is not Cmp.EQ or con.enforce:
            continue
        coefs = {(coef if lit > 0 else -coef) for coef, lit in con.terms}
        if len(coefs) != 1 or abs(next(iter(coefs))) != 1:
            continue
        sign = next(iter(coefs))
        lits = frozenset(abs(lit) for _, lit in con.terms)
        if len(lits) != len(con.terms):
            continue
        const = sum(coef for coef, lit in con.terms if lit < 0)  # sum coef * (1 - x) = const - sum coef * x
        out.setdefault(frozenset(l for l in lits if l not in forced and -l not in forced), []).append(
            (lits, sign * (con.rhs - const)))
    return out


def _counted_size(counts: dict[frozenset[int], list[tuple[frozenset[int], int]]],
                  members: tuple[tuple[int, int], ...], forced: set[int]) -> int | None:
    """The N of an unconditional ``sum of the members == N`` (from :func:`_counts`), if any.

    Members fixed true that the sum leaves out (a root the compiler folded
    into the count's constant) count once each on top of it.
    """
    fixed = {lit for _, lit in members if lit in forced}
    want = {lit for _, lit in members} - fixed
    if any(lit < 0 for lit in want):
        return None
    for lits, n in counts.get(frozenset(l for l in want if -l not in forced), ()):
        if {l for l in lits if -l not in forced} - fixed == want:
            return n + len(fixed - lits)
    return None
