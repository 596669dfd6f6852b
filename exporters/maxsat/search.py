"""The MaxSAT backend's oracles for the lazy-cut driver: RC2 (in this process or a forked child), the
linear SAT-UNSAT search, and a plain SAT solver for models without an objective."""

from __future__ import annotations

import threading
import time

from gridlang.core.deadline import Deadline, run_sat, run_solver, sat_interruptible
from gridlang.core.errors import BackendError
from gridlang.core.forked import ForkedSolver
from gridlang.exporters.maxsat.cardinality import CostBound
from gridlang.exporters.maxsat.form import Lowered
from gridlang.exporters.maxsat.settings import SMALL_CELLS, MaxSatSettings
from gridlang.ir.connectivity.separation import cut_clause
from gridlang.ir.connectivity.driver import Round
from gridlang.ir.model import Assignment, Linear, Model, Sense


class Oracle:
    """What the three MaxSAT oracles share: the lowered model and the answer's decoding."""

    improving = False

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        self.model = model
        self.low = low
        self.settings = settings
        self.hard_added = 0

    def assignment(self, lits) -> Assignment:
        n = self.model.num_vars
        if len(lits) >= n and (n == 0 or abs(lits[n - 1]) == n):
            return Assignment(tuple(l > 0 for l in lits[:n]))  # PySAT's models list variables 1, 2, ... in order
        values = [False] * n
        for l in lits:
            if 0 < abs(l) <= n:
                values[abs(l) - 1] = l > 0
        return Assignment(tuple(values))

    def score(self, cost: int) -> int:
        return self.low.offset - cost if self.low.sense is Sense.MAXIMIZE else self.low.offset + cost

    def cost(self, value: int) -> int:
        return self.low.offset - value if self.low.sense is Sense.MAXIMIZE else value - self.low.offset

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        """SAT solvers keep their phases between calls; nothing to hint."""

    def close(self) -> None:
        """Free the solver."""


class Rc2(Oracle):
    """RC2 (A. Ignatiev, A. Morgado, J. Marques-Silva, JSAT 2019): each call
    returns the relaxation's optimum; cuts are added to the same RC2 object,
    whose cores stay valid when hard clauses are added."""

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        from pysat.examples.rc2 import RC2, RC2Stratified
        from pysat.formula import WCNF

        super().__init__(model, low, settings)
        s = settings.rc2
        wcnf = WCNF()
        for cl in low.hard:
            wcnf.append(cl)
        for w, cl in low.soft:
            wcnf.append(cl, weight=w)
        wcnf.nv = max(wcnf.nv, low.top)
        kwargs = dict(solver=s.solver, exhaust=s.exhaust, minz=s.minz, adapt=s.adapt)
        # Hardening is sound only for a fixed formula; cuts come later. With no
        # soft clause there is nothing to stratify, and RC2Stratified fails on
        # such a formula (PySAT 1.9: "'NoneType' object is not iterable").
        stratified = s.stratified and bool(low.soft)
        self.rc2 = RC2Stratified(wcnf, blo="div", nohard=True, **kwargs) if stratified else RC2(wcnf, **kwargs)
        self.interruptible = sat_interruptible(s.solver)

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        rc2 = self.rc2
        if self.interruptible:
            lits = run_solver(deadline, lambda: rc2.compute(expect_interrupt=True), rc2.interrupt)
        else:
            lits = rc2.compute()  # the deadline is read between calls only
        if lits is None:
            return Round("unknown" if rc2.interrupted or deadline.expired() else "infeasible")
        answer = self.assignment(lits)
        if self.score(rc2.cost) != self.model.objective.value(answer):
            raise BackendError(f"RC2 reports the objective {self.score(rc2.cost)}, but its answer scores "
                               f"{self.model.objective.value(answer)} in the model")
        return Round("optimal", answer, bound=self.score(rc2.cost))

    def add(self, cuts: list[Linear]) -> None:
        for cut in cuts:
            self.rc2.add_clause(cut_clause(cut))
        self.hard_added += len(cuts)

    def close(self) -> None:
        self.rc2.delete()


class ForkedRc2(Oracle):
    """:class:`Rc2` built and called in a child process (:class:`gridlang.core.forked.ForkedSolver`).

    RC2 minimises and exhausts each core by SAT calls that hold the GIL and
    that its ``interrupt`` does not reach; in this process they kept the
    thread that enforces the time limit from running (a 60 s limit ran
    75.5 s on the 900-cell near-empty map, budget 40). Across a pipe the
    wait needs no GIL of RC2's, and a call that outlives its stop is killed.
    """

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        super().__init__(model, low, settings)
        self.child = ForkedSolver(lambda: Rc2(model, low, settings), "RC2")

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        return self.child.timed_call(deadline, "solve", incumbent)

    def add(self, cuts: list[Linear]) -> None:
        self.child.call("add", cuts)
        self.hard_added += len(cuts)

    def close(self) -> None:
        self.child.close()


class Lsu(Oracle):
    """Linear SAT-UNSAT search on the cost (QMaxSAT, M. Koshimura et al., JSAT
    2012; LSU in A. Morgado et al., Constraints 2013): one incremental SAT
    solver holds the hard clauses and the cuts; an incremental totalizer
    (O. Bailleux, Y. Boufkhad, CP 2003; PySAT ``ITotalizer``, R. Martins et
    al., CP 2014) counts the falsified soft literals, each repeated by its
    weight, built once over the first incumbent's cost. Each call asks for
    an answer cheaper than the incumbent; UNSAT then proves the incumbent
    optimal, since the cuts remove no solution. On a near-empty map the
    counter counts the satisfied units instead
    (:class:`gridlang.exporters.maxsat.cardinality.CostBound`)."""

    improving = True
    starting = False
    """True while the search runs on ``lsu.start``."""
    switched = False
    """True once it has moved to ``lsu.solver``."""

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        super().__init__(model, low, settings)
        lsu = settings.lsu
        small = model.grid.size < SMALL_CELLS
        start = ("mgh" if small else "none") if lsu.start == "auto" else lsu.start
        self.starting = start not in ("none", lsu.solver)
        self.first = start if self.starting else lsu.solver
        self.added: list[list[int]] = []  # every clause given after the hard ones, while ``start`` runs
        self.started = 0.0  # seconds ``start`` has searched
        self.phases = lsu.phases == "soft" or lsu.phases == "auto" and small
        self._new_solver(self.first)
        self.tot = CostBound([-cl[0] for w, cl in low.soft for _ in range(w)])

    def _new_solver(self, name: str) -> None:
        """Load the hard clauses, and every clause added since, into a new SAT solver ``name``."""
        from pysat.solvers import Solver

        self.name = name
        self.solver = Solver(name=name, bootstrap_with=self.low.hard)
        self.solver.append_formula(self.added)
        if self.phases:
            try:
                self.solver.set_phases([cl[0] for _, cl in self.low.soft if len(cl) == 1])
            except NotImplementedError:
                pass  # a solver without preferred phases searches as it would

    @property
    def solvers(self) -> str:
        """The SAT solvers that ran: ``start``, then ``solver`` once the search moved on."""
        return f"{self.first}, then {self.name}" if self.switched else self.name

    def _append(self, clauses: list[list[int]]) -> None:
        self.solver.append_formula(clauses)
        if self.starting:
            self.added.extend(clauses)

    def _call(self, assumptions: list[int], deadline: Deadline) -> bool | None:
        """One SAT call: on ``start`` while its seconds last, then on ``solver``."""
        if self.starting:
            left = self.settings.lsu.start_seconds - self.started
            if left > 0:
                timer = threading.Timer(left, self.solver.interrupt)
                t = time.perf_counter()
                timer.start()
                try:
                    ok = run_sat(self.solver, self.name, assumptions, deadline, self.settings.conflicts)
                finally:
                    timer.cancel()
                    timer.join()
                self.started += time.perf_counter() - t
                if ok is not None or deadline.expired():
                    self.solver.clear_interrupt()  # the timer may have fired after the answer
                    return ok
            self.solver.delete()
            self.starting, self.switched = False, True
            self._new_solver(self.settings.lsu.solver)
            self.added = []
        return run_sat(self.solver, self.name, assumptions, deadline, self.settings.conflicts)

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        assumptions: list[int] = []
        if incumbent is not None:
            best = self.cost(incumbent)
            if best <= 0:
                return Round("infeasible")  # nothing is cheaper than cost 0
            assumption, clauses = self.tot.below(best, max(self.low.top, self.solver.nof_vars()))
            self._append(clauses)
            if assumption is None:
                return Round("infeasible")  # no answer satisfies more units than there are
            if assumption:
                assumptions = [assumption]
        ok = self._call(assumptions, deadline)
        trivial = self.score(0)  # no answer beats cost 0
        if ok is None:
            return Round("unknown", bound=trivial)
        if not ok:
            return Round("infeasible")
        return Round("feasible", self.assignment(self.solver.get_model()), bound=trivial)

    def add(self, cuts: list[Linear]) -> None:
        self._append([cut_clause(cut) for cut in cuts])
        self.hard_added += len(cuts)

    def close(self) -> None:
        if self.tot is not None:
            self.tot.delete()
        self.solver.delete()


class Sat(Lsu):
    """A plain incremental SAT solver, for models without an objective."""

    improving = False

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        from pysat.solvers import Solver

        Oracle.__init__(self, model, low, settings)
        self.name = settings.sat.solver
        self.solver = Solver(name=self.name, bootstrap_with=low.hard)
        self.tot = None

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        ok = run_sat(self.solver, self.name, [], deadline, self.settings.conflicts)
        if ok is None:
            return Round("unknown")
        if not ok:
            return Round("infeasible")
        return Round("optimal", self.assignment(self.solver.get_model() or []))
