"""One incremental SAT solver over a model's rule instances, each switched by a selector.

The three tools of :mod:`gridlang.why` ask one question many times: do
*these* rule instances, with *these* cells known, leave an answer? The
oracle answers it on one PySAT solver that keeps what it learns between
calls (incremental SAT with assumptions: N. Een and N. Sorensson, "Temporal
induction by incremental SAT solving", ENTCS 89(4), 2003):

* every instance ``g`` (:mod:`gridlang.compiler.tags`) gets a selector
  variable ``s_g``, and each clause of its constraints gets ``~s_g``: the
  instance holds in a call that assumes ``s_g``, and is void in one that
  does not. Definitions (tag None) are always on;
* linear rows become clauses by :func:`gridlang.ir.transforms.to_cnf.linear_clauses`
  (the same encodings as the maxsat backend);
* connectivity is left to lazy cuts, as on the maxsat backend: a call's
  answer is checked against the connectivity nodes of the instances it
  assumed, and the separator cuts it breaks
  (:func:`~gridlang.ir.connectivity.separation.separator_cuts`,
  :func:`~gridlang.ir.connectivity.graph.graph_cuts`) are added, each guarded by its
  instance's selector, until an answer is connected or the call is
  unsatisfiable. A cut holds in every answer of its node, so it is kept for
  every later call: the oracle is exact whatever it has learned. Blocks of
  equal values (:class:`~gridlang.ir.model.EqualBlocks`) are the same: their seed
  clauses at once, their block cuts lazily; a table of allowed rows is one
  clause per row it forbids.
* a definition that holds a connectivity node (``component of p in S``:
  closure clauses and a node) has a selector of its own, assumed in a
  call only when some assumed instance reads what it defines, directly or
  through other definitions. Left unread, it can be switched off: it holds
  for every value of its inputs, so its members can always be set to fit.
  (Kept on, every call would have to build every such component, cut
  round after cut round.)

An unsatisfiable call returns its *core*: the assumed selectors and cells
the solver's final conflict used (a subset that is itself unsatisfiable;
not minimal). A call is a few milliseconds on a 10 x 10 puzzle.

Unit propagation (:meth:`Oracle.propagate`) is the cheap, incomplete
question: what follows from some instances and cells by unit propagation
over the clauses and the cuts learned so far. What it derives is implied;
what it misses, a full call can still find.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Hashable, Iterable

from gridlang.core.deadline import Deadline, SolverAbandoned, quiet_pysat_sigint, run_sat
from gridlang.ir.connectivity.graph import graph_cuts
from gridlang.ir.connectivity.separation import cut_clause, seed_cuts, separator_cuts
from gridlang.ir.connectivity.blocks import block_cuts, seed_block_cuts
from gridlang.ir.model import Assignment, Clause, Connected, EqualBlocks, GraphConnected, Linear, Model, Table

SOLVER = "g4"
"""The PySAT solver (Glucose 4.1, G. Audemard and L. Simon): incremental, with
assumptions, cores and unit propagation, and a conflict budget per call."""

SLICE_CONFLICTS = 20_000
"""Conflicts per slice of one call; the deadline is read between slices."""

DIRECT_CONFLICTS = 1_000
"""The conflicts of a call's first slice, run in this thread; only a call that needs more goes on
in slices under :func:`~gridlang.core.deadline.run_sat`, whose watcher thread (started per slice)
cost 3 to 4 ms a call, most of a hint's time on a 9x9 Sudoku, whose calls settle in a few dozen
conflicts. A Ctrl-C during it is seen when it returns (its signal handler runs then)."""


@dataclass
class Check:
    """What one call proved.

    Attributes:
        status: ``"sat"``, ``"unsat"`` or ``"unknown"`` (the deadline passed).
        assignment: for ``sat``, an answer of the assumed instances and cells
            (over the model's variables, connected).
        groups: for ``unsat``, the instances of the core.
        lits: for ``unsat``, the assumed cell literals of the core.
    """

    status: str
    assignment: Assignment | None = None
    groups: list[Hashable] = field(default_factory=list)
    lits: list[int] = field(default_factory=list)


class Oracle:
    """An incremental SAT solver over ``model`` with a selector per rule instance.

    Args:
        model: the model (from :func:`gridlang.compiler.compile_tagged`).
        tagging: its :class:`~gridlang.compiler.tags.TaggedConstraints`
            (``tags``: each constraint's instance, None for a definition,
            always on; ``definitions`` and ``outputs``: which definition
            made it and the variables each made), or a plain sequence of
            tags.
        deadline: the command's deadline, read between slices of every call.

    Attributes:
        groups: the instances, in the order of their first constraint.
        calls: solver calls so far (a call with cut rounds counts each round).
        seconds: time spent in the solver.
    """

    def __init__(self, model: Model, tagging, deadline: Deadline | None = None):
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        # imported on use, not at start-up
        from gridlang.ir.transforms.to_cnf import linear_clauses

        quiet_pysat_sigint()
        self.model = model
        self.deadline = deadline or Deadline(None)
        self.pool = IDPool(start_from=model.num_vars + 1)
        self.selector: dict[Hashable, int] = {}
        self.of_selector: dict[int, Hashable] = {}
        self.members: dict[Hashable, list] = {}  # instance -> its constraints
        # connectivity left to cuts: (node, guard, the instances it needs, its definition)
        self.lazy: list[tuple[Connected | GraphConnected, tuple[int, ...], frozenset, int | None]] = []
        self.solver = Solver(name=SOLVER)
        self.calls = 0
        self.seconds = 0.0
        self.cuts = 0
        self.abandoned = False  # a call did not stop when interrupted: the solver is not used again
        tags = getattr(tagging, "tags", tagging)
        made = getattr(tagging, "definitions", [None] * len(tags))
        self._readers(model, tags, made, getattr(tagging, "outputs", {}))
        # definition -> its selector, for the definitions that hold a connectivity node
        self.switch = {d: self.pool.id(("definition", d)) for con, tag, d in zip(model.constraints, tags, made)
                       if tag is None and d is not None and isinstance(con, (Connected, GraphConnected))}
        self.switches = set(self.switch.values())
        for con, tag, definition in zip(model.constraints, tags, made):
            guard: tuple[int, ...] = ()
            if tag is not None:
                guard = (-self._selector(tag),)
                self.members[tag].append(con)
            elif definition in self.switch:
                guard = (-self.switch[definition],)
            if isinstance(con, Clause):
                self.solver.add_clause(list(con.lits) + list(guard))
            elif isinstance(con, Linear):
                if self.abandoned or self.deadline.expired():
                    # The time (or the memory) ran out while rows were encoded (300 rows of 100
                    # weighted terms on a 5x5 Ichimaga-X take minutes and gigabytes): no call is made.
                    self.abandoned = True
                    continue
                for cl in linear_clauses(con, self.pool):
                    self.solver.add_clause(list(cl) + list(guard))
            elif isinstance(con, Table):
                for cl in _table_clauses(con):
                    self.solver.add_clause(cl + list(guard))
            elif isinstance(con, EqualBlocks):  # the seed clauses now, the cuts lazily
                for cl in seed_block_cuts(model.grid, con):
                    self.solver.add_clause(list(cl) + list(guard))
                self.lazy.append((con, guard, frozenset(() if tag is None else (tag,)), definition))
            else:
                lit_of = dict(con.members)
                for r in con.roots:
                    self.solver.add_clause(([lit_of[r]] if r in lit_of else []) + list(guard))
                if isinstance(con, Connected):
                    for cut in seed_cuts(model.grid, con):
                        self.solver.add_clause(cut_clause(cut) + list(guard))
                self.lazy.append((con, guard, frozenset(() if tag is None else (tag,)), definition))
        self._anchor(model, tags)
        self.groups = list(self.selector)
        self.switches |= set(self.of_selector)

    def _anchor(self, model: Model, tags) -> None:
        """Root each unrooted connectivity rule at a member another instance fixes, as the
        compiler's :func:`~gridlang.compiler.regions.anchor_connected` does, but switched by both
        instances: the node rooted there (cells farther than its size from the root excluded)
        holds when both do, and the rule alone keeps its own node. Without a root, the cuts of
        a region of known size are weak, and Snake Eggs' calls took minutes."""
        units: dict[int, Hashable | None] = {}
        for con, tag in zip(model.constraints, tags):
            if isinstance(con, Clause) and len(con.lits) == 1:
                units.setdefault(con.lits[0], tag)
        grid = model.grid
        for con, guard, needs, definition in list(self.lazy):
            if not isinstance(con, Connected) or con.roots or not needs:
                continue
            fixed = [(cell, units[lit]) for cell, lit in con.members if lit in units]
            if not fixed:
                continue
            root, by = fixed[0]
            both = needs | ({by} if by is not None else set())
            guard = tuple(-self.selector[t] for t in sorted(both, key=self.groups_order))
            lit_of = dict(con.members)
            if con.size is not None:
                dist = grid.distances(set(lit_of), root)
                for cell in sorted(lit_of):
                    if dist.get(cell, con.size) >= con.size:
                        self.solver.add_clause([-lit_of[cell]] + list(guard))
            rooted = Connected(con.members, (root,), con.size, con.name, con.span, con.path, con.through)
            for cut in seed_cuts(grid, rooted):
                self.solver.add_clause(cut_clause(cut) + list(guard))
            self.lazy.append((rooted, guard, frozenset(both), definition))

    def groups_order(self, tag: Hashable) -> int:
        """A tag's place among the instances (the order of their selectors)."""
        return self.selector[tag]

    def _readers(self, model: Model, tags, made, outputs: dict[int, tuple[int, int]]) -> None:
        """For each definition, the instances and definitions whose constraints read its variables
        (``always`` when a constraint of no definition and no instance does)."""
        owner = {v: d for d, (first, last) in outputs.items() for v in range(first, last + 1)}
        self.read_by: dict[int, set] = {d: set() for d in outputs}
        self.read_in: dict[int, set] = {d: set() for d in outputs}
        self.always: set[int] = set()
        for con, tag, definition in zip(model.constraints, tags, made):
            for d in {owner[v] for v in _variables(con) if v in owner} - {definition}:
                if tag is not None:
                    self.read_by[d].add(tag)
                elif definition is not None:
                    self.read_in[d].add(definition)
                else:
                    self.always.add(d)

    def _read(self, definition: int, active: set, memo: dict) -> bool:
        """Whether an assumed instance reads what ``definition`` defines (directly or through others)."""
        if definition in memo:
            return memo[definition]
        memo[definition] = False  # definitions read one another without cycles; a cycle adds nothing
        found = (definition in self.always or not self.read_by[definition].isdisjoint(active)
                 or any(self._read(d, active, memo) for d in self.read_in[definition]))
        memo[definition] = found
        return found

    def _selector(self, tag: Hashable) -> int:
        if tag not in self.selector:
            v = self.pool.id(("instance", tag))
            self.selector[tag] = v
            self.of_selector[v] = tag
            self.members[tag] = []
        return self.selector[tag]

    def prefer(self, assignment: Assignment) -> None:
        """Let the solver try the values of ``assignment`` first (its phases): a call that an
        answer close to it satisfies is then found quickly."""
        self.solver.set_phases([v if value else -v for v, value in enumerate(assignment.values, start=1)])

    def new_var(self) -> int:
        """A fresh variable (for activation literals)."""
        return self.pool.id(("fresh", self.pool.top + 1))

    def add_clause(self, lits: Iterable[int]) -> None:
        """Add a clause for every later call (none, once the solver is abandoned)."""
        if not self.abandoned:
            self.solver.add_clause(list(lits))

    def _assumptions(self, groups: Iterable[Hashable], lits: Iterable[int]) -> tuple[list[int], set, dict]:
        """The literals first, then the selectors in the order given: the solver assumes them in
        that order, so a core leans on the literals (known cells) and on the first instances.
        Then the selectors of the definitions the instances read."""
        groups = list(groups)
        active = set(groups)
        memo: dict[int, bool] = {}
        read = [v for d, v in self.switch.items() if self._read(d, active, memo)]
        return list(lits) + [self.selector[g] for g in groups] + read, active, memo

    def check(self, groups: Iterable[Hashable], lits: Iterable[int] = (), budget: int | None = None) -> Check:
        """Whether the instances ``groups`` and the literals ``lits`` have an answer.

        Args:
            groups: instances assumed to hold (the others are void); a
                core favours those given first.
            lits: literals assumed true (known cells, a negated conclusion),
                assumed before the instances.
            budget: give up (unknown) after this many conflicts, over all
                the call's cut rounds; None for no limit but the deadline.

        Returns:
            The :class:`Check`: an answer, a core, or unknown when the
            deadline passed or the budget was spent.
        """
        if self.abandoned:
            return Check("unknown")
        assumptions, active, memo = self._assumptions(groups, lits)
        before = self.solver.accum_stats().get("conflicts", 0)
        while True:
            left = None if budget is None else budget - (self.solver.accum_stats().get("conflicts", 0) - before)
            if left is not None and left <= 0:
                return Check("unknown")
            ok = self._solve(assumptions, left)
            if ok is None:
                return Check("unknown")
            if not ok:
                core = self.solver.get_core() or []
                return Check("unsat", groups=[self.of_selector[l] for l in core if l in self.of_selector],
                             lits=[l for l in core if l not in self.switches])
            assignment = self._assignment()
            cuts = 0
            for con, guard, needs, definition in self.lazy:
                if not needs <= active:
                    continue
                if not needs and definition is not None and not self._read(definition, active, memo):
                    continue
                found = (graph_cuts(con, assignment) if isinstance(con, GraphConnected)
                         else block_cuts(self.model.grid, con, assignment) if isinstance(con, EqualBlocks)
                         else separator_cuts(self.model.grid, con, assignment))
                for cut in found:
                    self.solver.add_clause(cut_clause(cut) + list(guard))
                cuts += len(found)
            self.cuts += cuts
            if not cuts:
                return Check("sat", assignment)

    def propagate(self, groups: Iterable[Hashable], lits: Iterable[int] = ()) -> set[int] | None:
        """The literals unit propagation derives from ``groups`` and ``lits`` (None: a conflict).

        Literals the solver holds at its top level (implied by the
        definitions alone) are not in the set; the selectors are. Once the
        solver is abandoned (:meth:`_solve`), nothing is derived.
        """
        if self.abandoned:
            return set()
        assumptions, _, _ = self._assumptions(groups, lits)
        ok, implied = self.solver.propagate(assumptions=assumptions)
        return set(implied) if ok else None

    def trail(self, groups: Iterable[Hashable], lits: Iterable[int] = ()) -> tuple[bool, list[int]]:
        """Unit propagation from ``groups`` and ``lits`` as :meth:`propagate`, with what it set:
        ``(no conflict, the literals set in the order the solver set them)``; on a conflict, those
        set before it. The instances are assumed first and the literals last, so that what
        follows the last literal comes last. Nothing is set once the solver is abandoned."""
        if self.abandoned:
            return True, []
        assumptions, _, _ = self._assumptions(groups, [])
        ok, implied = self.solver.propagate(assumptions=assumptions + list(lits))
        return bool(ok), list(implied)

    def _solve(self, assumptions: list[int], budget: int | None = None) -> bool | None:
        """One solver call: a first slice of :data:`DIRECT_CONFLICTS` in this thread, then slices of
        :data:`SLICE_CONFLICTS`; None when the deadline passed, or after ``budget`` conflicts. A
        slice after the first runs under :func:`~gridlang.core.deadline.run_sat`, which
        interrupts it at the deadline: a slice of a 10x10 Snake Eggs can last 10 s, and a hint run
        read the clock only between slices ended 11 s past a limit of 600 s. A slice that does not
        stop when interrupted is left behind (:class:`~gridlang.core.deadline.SolverAbandoned`); its
        solver is then used no more, every later call is unknown, and the tools end with what
        they found, as at the deadline."""
        t = time.perf_counter()
        spent = 0
        solver = self.solver
        try:
            if not self.deadline.expired() and (budget is None or budget > 0):
                self.calls += 1
                size = DIRECT_CONFLICTS if budget is None else min(DIRECT_CONFLICTS, budget)
                before = solver.accum_stats().get("conflicts", 0)
                solver.conf_budget(size)
                ok = solver.solve_limited(assumptions=assumptions)
                if ok is not None:
                    return ok
                spent += max(solver.accum_stats().get("conflicts", 0) - before, 1)
            while not self.deadline.expired() and (budget is None or spent < budget):
                self.calls += 1
                size = SLICE_CONFLICTS if budget is None else min(SLICE_CONFLICTS, budget - spent)
                before = solver.accum_stats().get("conflicts", 0)
                solver.conf_budget(size)
                try:
                    ok = run_sat(solver, SOLVER, assumptions, self.deadline, size)
                except SolverAbandoned:
                    self.abandoned = True
                    return None
                if ok is not None:
                    return ok
                spent += max(solver.accum_stats().get("conflicts", 0) - before, 1)
            return None
        finally:
            self.seconds += time.perf_counter() - t

    def _assignment(self) -> Assignment:
        model = self.solver.get_model() or []
        n = self.model.num_vars
        values = [False] * n
        for lit in model[:n]:
            if lit > 0:
                values[lit - 1] = True
        return Assignment(tuple(values))

    def close(self) -> None:
        """Free the solver (an abandoned one is left to the process's end: its call still runs)."""
        if self.abandoned:
            return
        self.solver.delete()


def _variables(con) -> set[int]:
    """The variables a constraint mentions."""
    if isinstance(con, Clause):
        return {abs(l) for l in con.lits}
    if isinstance(con, Linear):
        return {abs(l) for _, l in con.terms} | {abs(l) for l in con.enforce}
    if isinstance(con, Table):
        return {abs(l) for l in con.lits}
    if isinstance(con, EqualBlocks):
        return {abs(l) for _, opts in con.cells for _, l in opts}
    out = {abs(l) for _, l in con.members}
    if isinstance(con, GraphConnected):
        out |= {abs(l) for _, _, l in con.edges}
    elif con.through:
        out |= {abs(l) for _, l in con.through}
    return out



def _table_clauses(con: Table) -> list[list[int]]:
    """A table constraint as clauses: one per row of truth values it does not allow (its
    literals are few: a ring of 8 cells at most gives 256 rows)."""
    allowed = set(con.allowed)
    return [[-l if v else l for l, v in zip(con.lits, row)]
            for row in itertools.product((False, True), repeat=len(con.lits)) if row not in allowed]
