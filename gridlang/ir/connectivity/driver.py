"""The lazy-cut driver: one loop for every backend.

A backend that leaves some :class:`~gridlang.ir.model.Connected` nodes out of its
model (the ``cuts`` strategy) solves a relaxation. This driver runs the
logic-based Benders loop over it (V. Jandhyala, *Solving Puzzles through
Mathematical Programming*, ch. 32):

1. ask the backend's :class:`Oracle` for an answer of the relaxation, with
   the time the command's :class:`~gridlang.core.deadline.Deadline` has left and
   the best true solution so far (an improving search may use it);
2. separate: the vertex-separator cuts every answer violates
   (:func:`~gridlang.ir.connectivity.separation.separator_cuts`, plus any
   extra separators the backend asks for; for blocks of equal labels,
   :func:`~gridlang.ir.connectivity.blocks.block_cuts`);
3. none: the answer is a solution; proved optimal if the relaxation's
   answer was. Otherwise repair the answer (drop its stray components,
   :func:`~gridlang.ir.connectivity.separation.repair`) into an incumbent,
   hand the cuts to the oracle, hint it with the answers, and solve again.

The loop is exact: every cut holds for every solution, so a relaxation
proved optimal (or infeasible below the incumbent) proves the same of the
puzzle, and an incumbent that scores the relaxation's bound is optimal.
An oracle's "optimal" counts only when the answer meets the bound it
reports (:func:`~gridlang.ir.backend.proves_optimum`): a solver stopped by a
gap limit calls its answer optimal without proving it. Such a round counts
as feasible; the loop goes on separating while its answer is disconnected,
and ends FEASIBLE with the bound on the first connected one (unless an
incumbent meets the bound first).
When the deadline passes (or Ctrl-C stops it) the best true solution so
far comes back as FEASIBLE with the relaxation's bound, or UNKNOWN.

The backend supplies only "solve", "add these cuts" and "hint", the
:class:`Oracle` protocol; cut rounds and counts are reported the same way
on every backend (``stats``: ``cut_rounds``, ``cuts``, ``solver_calls``,
``learned_cuts``).
"""

from __future__ import annotations

import time
from typing import Callable, Protocol, Sequence

from gridlang.core.deadline import Deadline, SolverAbandoned
from gridlang.core.errors import BackendError
from gridlang.core.grid import Grid
from gridlang.core.nodes import Record, field
from gridlang.ir.backend import integral_bound, proves_optimum
from gridlang.ir.checks import violations
from gridlang.ir.model import (
    Assignment,
    Connected,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
    Sense,
)

Separator = Callable[[Grid, Connected, Assignment], list[Linear]]
"""A separation routine: the cuts an answer violates for one node."""


class Round(Record, frozen=False, slots=False):
    """One oracle answer.

    Attributes:
        status: ``"optimal"`` (the relaxation's answer, proved optimal, or
            any answer without an objective), ``"feasible"`` (an answer, not
            proved optimal: the time ran out, or an improving search found a
            better one), ``"infeasible"`` (no answer; with an incumbent
            given, no answer better than it), ``"unknown"`` (no answer, no
            proof: the time ran out).
        assignment: the answer, for optimal and feasible.
        bound: a proved bound on the relaxation's objective, or None.
        others: further answers of the same call (a solution pool), whose
            cuts and repairs are used too.
    """

    status: str
    assignment: Assignment | None = None
    bound: float | None = None
    others: Sequence[Assignment] = ()


class Oracle(Protocol):
    """What a backend supplies to the driver."""

    improving: bool
    """True when a feasible answer means "better than the incumbent, search
    on" (a linear SAT-UNSAT search); False when it means "the time ran out"."""

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        """Solve the relaxation with the cuts added so far, within ``deadline``.

        ``incumbent`` is the objective value of the best true solution so
        far (None: none yet, or no objective).
        """

    def add(self, cuts: list[Linear]) -> None:
        """Add cuts (unit-coefficient rows, each equal to a clause) for every later solve."""

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        """Hint the next solve: the last (disconnected) answer, the best solution so far."""


class Outcome(Record, frozen=False, slots=False):
    """What the loop proved.

    Attributes:
        status: ``"optimal"``, ``"feasible"``, ``"infeasible"`` or ``"unknown"``.
        assignment: the best true solution (meets every constraint).
        objective: its objective value (None without an objective).
        bound: a proved bound on the objective (None if unknown).
        stats: ``cut_rounds``, ``cuts``, ``solver_calls``, ``learned_cuts``
            (every cut added, valid for every solution), ``abandoned``
            (the oracle's solver did not stop when asked: it still runs in
            a thread of its own, or its child process was killed; the
            oracle must not be used or freed).
    """

    status: str
    assignment: Assignment | None = None
    objective: int | None = None
    bound: float | None = None
    stats: dict[str, object] = field(default_factory=dict)


def lazy_solve(model: Model, oracle: Oracle, lazy: Sequence[Connected], deadline: Deadline,
               separators: Sequence[Separator] | None = None, start: Assignment | None = None) -> Outcome:
    """Run the lazy-cut loop (see the module docstring) until proof or deadline.

    Args:
        model: the full model; its ``lazy`` nodes are not in the oracle's
            relaxation, everything else is.
        oracle: the backend's solver.
        lazy: the connectivity nodes left to the loop (may be empty: then
            one solve).
        deadline: the command's deadline.
        separators: separation routines applied to every node of ``lazy``
            for every answer; duplicate cuts are dropped. None: the vertex-separator cuts of
            :func:`~gridlang.ir.connectivity.separation.separator_cuts` (the cut routines are
            imported when ``lazy`` holds a node, so a model without one loads none of them).
        start: a solution known before the loop (a window start,
            :mod:`gridlang.ir.connectivity.windows`): the first incumbent, so
            the first call is already asked to beat it.

    Returns:
        The outcome; its assignment meets every constraint of ``model``.
    """
    sense = model.objective.sense if model.objective is not None else None

    def value(a: Assignment) -> int | None:
        return model.objective.value(a) if model.objective is not None else None

    def better(a: int | None, b: int | None) -> bool:
        if b is None or a is None:
            return b is None
        return a > b if sense is Sense.MAXIMIZE else a < b

    # A model with no lazy node (a region clingo states by reachability) has no cut to make: it loads
    # no cut routine, and with no cut the loop never repairs an answer.
    routines, repair = _cut_routines(separators) if lazy else (None, None)
    best: Assignment | None = None
    best_value: int | None = None
    bound: float | None = None
    status = "unknown"
    rounds = calls = 0
    learned: list[Linear] = []
    known: set[tuple] = set()

    def consider(a: Assignment) -> None:
        nonlocal best, best_value
        v = value(a)
        if best is None or better(v, best_value):
            best, best_value = a, v
            deadline.improved(v)

    if start is not None:
        consider(start)
    abandoned: str | None = None
    while not deadline.expired():
        try:
            r = oracle.solve(deadline, best_value if best is not None else None)
        except SolverAbandoned as e:
            abandoned = str(e)  # the oracle's solver still runs, or was killed: it must not be used again
            break
        calls += 1
        within_gap = False
        if sense is not None and r.bound is not None:
            bound = integral_bound(r.bound, sense)
            if r.status == "optimal" and r.assignment is not None \
                    and not proves_optimum(value(r.assignment), r.bound, sense):
                # "Optimal" within a gap the user allowed (a solver setting): the
                # bound is proved, the answer's optimality is not. The loop goes
                # on while the answer is disconnected, so that the answer it ends
                # with is within the gap of a bound of the puzzle's own.
                r = Round("feasible", r.assignment, r.bound, r.others)
                within_gap = True
        if r.status == "infeasible":
            status = "optimal" if best is not None else "infeasible"
            break
        if r.assignment is None:
            break
        answers = [r.assignment, *r.others]
        cuts = _separate(model.grid, lazy, r.assignment, routines, known, strict=True)
        if not cuts:
            consider(r.assignment)
            if r.status == "optimal" or sense is None:
                status = "optimal"
                break
            if not oracle.improving:
                break
            continue
        for other in r.others:
            cuts.extend(_separate(model.grid, lazy, other, routines, known))
        for a in answers:
            fixed = repair(model, a, list(lazy))
            if fixed is not None:
                consider(fixed)
        if best is not None and sense is not None and bound is not None and best_value == bound:
            status = "optimal"
            break
        if r.status != "optimal" and not oracle.improving and not within_gap:
            break  # the time (or a limit of the solver's) ran out on a disconnected answer
        rounds += 1
        learned.extend(cuts)
        oracle.add(cuts)
        oracle.hint(r.assignment, best)
    if best is not None and status != "optimal":
        status = "feasible"
    if best is None and status == "optimal":
        status = "unknown"
    if best is not None:
        problems = violations(model, best)
        if problems:
            raise BackendError("the solver's answer breaks its own model: " + problems[0])
    if status == "optimal" and best_value is not None:
        bound = float(best_value)
    elif bound is not None and best_value is not None:
        # A call asked to beat the incumbent bounds only the answers better than it.
        bound = float(max(bound, best_value) if sense is Sense.MAXIMIZE else min(bound, best_value))
    stats = {"cut_rounds": rounds, "cuts": len(learned), "solver_calls": calls,
             "learned_cuts": tuple(learned), "abandoned": abandoned is not None}
    left = deadline.remaining()
    # A solver given the time left stops a moment before the deadline itself.
    out_of_time = deadline.expired() or (left is not None and left < 0.1)
    if abandoned is not None:  # a solver stopped and left behind, or whose process ended
        fate = abandoned or "the solver, which did not stop when asked, was left behind"
        stats["reason"] = f"{deadline.cause()}, and {fate}" if out_of_time else fate
    elif status in ("unknown", "feasible") and out_of_time:
        stats["reason"] = deadline.cause() + (" before the first solver call" if not calls else "")
    return Outcome(status, best, best_value, bound if status != "infeasible" else None, stats)


def _cut_routines(separators: Sequence[Separator] | None):
    """``(routines, repair)``: the separation routines of a lazy node by its kind (``routines(node)``:
    :func:`~gridlang.ir.connectivity.graph.graph_cuts` for a ``GraphConnected``,
    :func:`~gridlang.ir.connectivity.blocks.block_cuts` for ``EqualBlocks``, ``separators`` or the
    vertex-separator cuts for a ``Connected``) and :func:`~gridlang.ir.connectivity.separation.repair`."""
    # imported on use, not at start-up: only a model with a lazy node makes cuts
    from gridlang.ir.connectivity.blocks import block_cuts
    from gridlang.ir.connectivity.graph import graph_cuts
    from gridlang.ir.connectivity.separation import repair, separator_cuts

    own = tuple(separators) if separators is not None else (separator_cuts,)
    edges = ((lambda _g, c, a: graph_cuts(c, a)),)
    blocks = (block_cuts,)

    def routines(con) -> Sequence[Separator]:
        if isinstance(con, GraphConnected):
            return edges
        return blocks if isinstance(con, EqualBlocks) else own

    return routines, repair


def _separate(grid: Grid, lazy: Sequence[Connected], answer: Assignment,
              routines: Callable[[Connected], Sequence[Separator]] | None, known: set[tuple],
              strict: bool = False) -> list[Linear]:
    """The new cuts ``answer`` violates (``known`` holds the keys of cuts already found); ``routines``
    gives each node of ``lazy`` its separation routines (:func:`_cut_routines`; None when ``lazy`` is
    empty).

    Raises:
        BackendError: with ``strict`` (the oracle's own answer, not a pool
            answer that may predate the cuts), ``answer`` violates only cuts
            the oracle was already given.
    """
    out: list[Linear] = []
    violated = False
    for con in lazy:
        for separate in routines(con):
            for cut in separate(grid, con, answer):
                violated = True
                key = (cut.terms, cut.rhs)
                if key not in known:
                    known.add(key)
                    out.append(cut)
    if strict and violated and not out:
        # Every violated cut was added already, so the relaxation must
        # exclude this answer; a backend that returns it anyway is broken.
        raise BackendError("the solver returned an answer that breaks a cut it was given")
    return out


class LoggedOracle:
    """An oracle that reports each call and each batch of cuts (a backend's ``--log``).

    Args:
        oracle: the backend's oracle, which it wraps.
        model: the model, to give each answer's objective.
        log: prints one line (a backend writes to stderr, so that ``--json``
            keeps stdout to itself).
        detail: optional, the oracle's own figures after a call (conflicts).
    """

    def __init__(self, oracle, model: Model, log: Callable[[str], None], detail: Callable[[object], str] | None = None):
        self.oracle = oracle
        self.model = model
        self.log = log
        self.detail = detail
        self.improving = oracle.improving
        self.calls = 0
        self.cuts = 0

    def __getattr__(self, name: str):
        return getattr(self.oracle, name)  # hard_added, close and the backend's own figures

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        self.calls += 1
        t = time.perf_counter()
        r = self.oracle.solve(deadline, incumbent)
        parts = [f"call {self.calls}" + (f" (to beat {incumbent})" if incumbent is not None else "") + f": {r.status}"]
        if r.assignment is not None and self.model.objective is not None:
            parts.append(f"objective {self.model.objective.value(r.assignment)}")
        if r.bound is not None:
            parts.append(f"bound {r.bound:g}")
        parts.append(f"{time.perf_counter() - t:.2f} s")
        extra = self.detail(self.oracle) if self.detail is not None else ""
        self.log(", ".join(parts + ([extra] if extra else [])))
        return r

    def add(self, cuts: list[Linear]) -> None:
        self.cuts += len(cuts)
        self.log(f"{len(cuts)} cuts added ({self.cuts} in all)")
        self.oracle.add(cuts)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        self.oracle.hint(last, best)
