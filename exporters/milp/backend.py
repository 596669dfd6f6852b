"""MILP backend: the IR as a Pyomo model, solved by HiGHS, written as LP or MPS.

Lowering, in :mod:`gridlang.exporters.milp.linear` (every Boolean variable ``v`` a binary
column ``x_v``; a negative literal ``-v`` stands for ``1 - x_v``):

* :class:`~gridlang.ir.model.Clause` ``l_1 | ... | l_k`` -> the row
  ``sum l_i >= 1``; :class:`~gridlang.ir.model.Linear` -> the same row; with
  enforcement literals, two halves switched by ``e`` and ``~e`` become one
  row per side and the rest is relaxed by big-M (:mod:`gridlang.exporters.milp.linear.reified`).
* :class:`~gridlang.ir.model.Connected`, by strategy: ``flow`` gives every node
  single-commodity flow, ``cuts`` leaves every node to the lazy cut loop,
  and ``auto`` (the default) gives a path of known length its positions,
  a region of known size (2 or more) depth layers and the rest (a horse's
  pen) the cut loop. The maths and sources of flow, positions and depth
  layers are in :mod:`gridlang.exporters.milp.linear.connected`.
* The :class:`~gridlang.ir.model.Objective` keeps its constant, so the solver's
  objective is the puzzle's score. All IR coefficients are integers, so the
  default gap is an absolute gap just below 1: a solve that HiGHS calls
  optimal is exactly optimal. The reported objective is recomputed from the
  rounded assignment; the bound is HiGHS's, rounded to an integer.

The cut loop (``cuts``, and ``auto``'s regions of unknown size) is
:func:`gridlang.ir.connectivity.driver.lazy_solve` (logic-based Benders;
Jandhyala, *Solving Puzzles through Mathematical Programming*, ch. 32;
Fischetti et al. 2017): the separator cuts of each answer, and of the other
improving answers HiGHS saved in the round, are rows added to the
persistent HiGHS model (nothing is rebuilt); the best repaired answer warm
starts the next round. Rooted regions start with the one-cell separator
cuts of :func:`gridlang.ir.connectivity.separation.seed_cuts`. A :class:`MilpSession`
(uniqueness and counting runs) builds and loads the model once, and keeps
the cuts (``stats["learned_cuts"]``) and each blocking clause as rows.

Settings: :class:`MilpSettings` (``warmstart``, ``pool_cuts``,
``seed_cuts``, ``highs_options``), ``milp.NAME`` in ``SolveOptions.extra``.
The measurements behind the defaults and the encodings are in
``docs/benchmarks.md``, "Settings and encodings tried".

Statuses: HiGHS optimal and connected -> OPTIMAL; time limit with a
connected incumbent -> FEASIBLE with ``bound``; infeasible (also "infeasible
or unbounded": every column is bounded) -> INFEASIBLE, valid for the puzzle
because every cut is valid for every connected answer; anything else ->
UNKNOWN (with ``bound`` when HiGHS had one).

Files: ``write`` lowers as the strategy does but gives flow to every node
left to the cut loop (cuts cannot live in a file), through Pyomo's own LP
and MPS writers with gridlang's labels (``wall_3_4``,
``flow_pen_3_4_3_5``), a header comment naming the puzzle, spec, map and
encoding, and a sidecar ``<file>.vars.json``. ``read_solution`` reads a
HiGHS, Gurobi, SCIP or CBC solution of such a file back into an assignment.

Pyomo and highspy are imported inside the functions that need them.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from gridlang.core.deadline import BuildTimeout, Deadline, run_solver
from gridlang.core.errors import BackendError
from gridlang.core.settings import Settings, frozen_mapping
from gridlang.exporters.milp.linear import (
    AUTO,
    BINARY_TOL,
    CUTS,
    FLOW,
    DropMessage,
    LinearForm,
    PyomoModel,
    affine,
    integral_bound,
    lower_row,
    lower_rows,
    round_assignment,
    write_files,
)
from gridlang.exporters.milp.linear.highs import POOL_LIMIT as _POOL_LIMIT
from gridlang.exporters.milp.linear.highs import check_highs_options as _check_highs_options
from gridlang.exporters.milp.linear.highs import option_value as _option_value
from gridlang.exporters.milp.linear.highs import saved_answers as _saved_answers
from gridlang.exporters.milp.linear.highs import set_threads as _set_threads
from gridlang.exporters.milp.solution_file import read_mip_solution
from gridlang.ir.backend import Backend, Result, Session, SolveOptions, Status
from gridlang.ir.connectivity.driver import Round, lazy_solve
from gridlang.ir.model import Assignment, Clause, Connected, Constraint, EqualBlocks, GraphConnected, Linear, Model

logger = logging.getLogger("gridlang.milp")




@dataclass(frozen=True)
class MilpSettings(Settings):
    """The MILP backend's settings, ``milp.NAME`` in ``SolveOptions.extra``.

    Attributes:
        warmstart: start each cut round from the best repaired answer so far.
        pool_cuts: also separate the other improving solutions HiGHS found
            in a round.
        seed_cuts: 0, 1 or 2: add no separator cuts, the one-cell ones, or
            the one- and two-cell ones of :func:`gridlang.ir.connectivity.separation.seed_cuts`
            to the regions left to the cut loop, before the first solve.
        highs_options: HiGHS options, applied last; one at a time as
            ``milp.highs_options.NAME`` (``--set milp.highs_options.presolve=off``).
    """

    warmstart: bool = True
    pool_cuts: bool = True
    seed_cuts: int = 1
    highs_options: Mapping[str, object] = field(default_factory=frozen_mapping)

    def check(self, backend: str) -> None:
        """Refuse a ``seed_cuts`` other than 0, 1 or 2, and HiGHS options HiGHS refuses.

        Raises:
            BackendError: the first value refused, in one sentence.
        """
        if self.seed_cuts not in (0, 1, 2):
            raise BackendError(f"setting 'seed_cuts' is 0, 1 or 2, not {self.seed_cuts!r}")
        if self.highs_options:
            import highspy

            _check_highs_options(highspy, self.highs_options)



class _Oracle:
    """The driver's view of a model loaded into HiGHS: one HiGHS run per call.

    A run stopped by a gap (HiGHS says optimal, but its bound is not the
    answer's value) counts as feasible, not proved: the driver checks the
    bound, and goes on separating cuts while the answer is disconnected. With
    ``pool``, HiGHS's other improving answers of the run come along, for
    more cuts per round and more repairs; with ``warmstart``, the next run
    starts from the best repaired answer (appsi hands the Pyomo values to
    ``Highs.setSolution``).
    """

    improving = False

    def __init__(self, model: Model, low: LinearForm, pyo: PyomoModel, opt: Any, highs: Any, highspy: Any,
                 TC: Any, pool: bool, warmstart: bool):
        self.model, self.low, self.pyo, self.opt, self.highs = model, low, pyo, opt, highs
        self.highspy, self.TC = highspy, TC
        self.pool, self.warmstart = pool, warmstart
        self.sense = model.objective.sense if model.objective is not None else None
        self.solver_seconds = 0.0

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        opt, highs, TC = self.opt, self.highs, self.TC
        remaining = deadline.remaining()
        opt.config.time_limit = None if remaining is None else max(remaining, 0.01)
        t = time.perf_counter()
        # cancelSolve takes effect at HiGHS's next interrupt check, which can
        # be seconds away in presolve or the root node; run_solver then
        # leaves the run behind (SolverAbandoned).
        highs.HandleUserInterrupt = True
        highs._Highs__solver_should_stop = False  # cancelSolve's flag, left set by an earlier stop
        # A run stopped by cancelSolve ends in HiGHS's kInterrupt, which appsi
        # does not know and reports in a warning on stdout (Pyomo's log
        # handler): that would break --json, and the round is reported anyway.
        quiet = DropMessage("Received unhandled status")
        appsi_log = logging.getLogger("pyomo.contrib.appsi.solvers.highs")
        appsi_log.addFilter(quiet)
        try:
            res = run_solver(deadline, lambda: opt.solve(self.pyo.pm), highs.cancelSolve)
        finally:
            appsi_log.removeFilter(quiet)
        self.solver_seconds += time.perf_counter() - t
        tc = res.termination_condition
        bound = integral_bound(res.best_objective_bound, self.sense)
        if tc in (TC.infeasible, TC.infeasibleOrUnbounded):
            # Every column is bounded, so "infeasible or unbounded" is infeasible.
            return Round("infeasible")
        if highs.getModelStatus() == self.highspy.HighsModelStatus.kModelEmpty:
            tc = TC.optimal  # no row and no objective reached HiGHS: every column is free
        elif highs.getInfo().primal_solution_status != 2:
            return Round("unknown", bound=bound)
        else:
            opt.load_vars()
        found = round_assignment(self.model, self.pyo.values())
        others = _saved_answers(opt, self.pyo, self.model, limit=_POOL_LIMIT) if self.pool else ()
        # HiGHS's "optimal" within a relative or absolute gap: the driver
        # compares the bound with the answer (gridlang.ir.backend.proves_optimum).
        return Round("optimal" if tc is TC.optimal else "feasible", found, bound, others)

    def add(self, cuts: list[Linear]) -> None:
        new = []
        for cut in cuts:
            coefs, const = affine(cut.terms)
            new.append(self.pyo.add_cut(f"cut_{len(self.pyo.pm.cuts) + 1}", coefs, const, cut.rhs))
        self.opt.add_constraints(new)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        # The columns hold the disconnected answer, which the new cuts reject.
        self.opt.config.warmstart = self.warmstart and best is not None
        if best is not None:
            self.pyo.set_values(best)


class MilpBackend(Backend):
    """MILP through Pyomo and HiGHS; LP and MPS files for any MILP solver."""

    name = "milp"
    library = "pyomo"
    description = "mixed-integer linear program (Pyomo), solved by HiGHS; writes LP and MPS"
    connectivity = (AUTO, CUTS, FLOW)
    formats = ("lp", "mps")
    imports = ("highspy", "pyomo.core", "pyomo.contrib.appsi.solvers.highs")
    seeds_cuts = True
    shares_cores = True
    native = frozenset({Clause, Linear, Connected, GraphConnected, EqualBlocks})
    settings_class = MilpSettings

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks from the last :meth:`write` (for example: cuts replaced by flow)."""

    # -- solving ------------------------------------------------------------

    def solve(self, model: Model, options: SolveOptions, settings: MilpSettings | None = None) -> Result:
        """Solve ``model`` with HiGHS through Pyomo's persistent interface.

        Args:
            model: the compiled puzzle.
            options: ``time_limit`` (seconds, over all cut rounds), ``workers``
                (HiGHS threads), ``mip_gap`` (relative; default: an absolute
                gap below 1, exact for the integer objective), ``log`` (HiGHS
                log on stderr), ``connectivity`` (``auto``, ``cuts`` or
                ``flow``), and the ``extra`` keys of :class:`MilpSettings`.
            settings: those settings, made by :meth:`configure` (None: made here).

        Returns:
            A :class:`Result`; ``objective`` is the score recomputed from the
            assignment (constant included), ``bound`` the solver's proved
            bound rounded to an integer. ``stats`` holds ``connectivity``,
            ``encodings`` (region -> ``cuts``, ``flow``, ``positions`` or
            ``depths``), ``cut_rounds``, ``cuts``, ``variables``,
            ``constraints``, ``build_seconds`` (IR to Pyomo),
            ``load_seconds`` (Pyomo to HiGHS), ``solver_seconds``,
            ``learned_cuts`` (IR rows valid for every solution),
            ``incremental`` (see :class:`MilpSession`) and, for FEASIBLE,
            ``gap``. ``seconds`` leaves out the one-off import of Pyomo and
            highspy; ``time_limit`` counts it.

        Raises:
            BackendError: an unknown strategy, a setting refused (see
                :class:`MilpSettings`), pyomo or highspy missing, or a
                solver answer that breaks the model.
        """
        return MilpSession(self, model, options, settings).solve()

    def session(self, model: Model, options: SolveOptions) -> MilpSession:
        """A :class:`MilpSession`: HiGHS keeps the model between its solves.

        Raises:
            BackendError: an unknown strategy or setting, or a HiGHS option
                HiGHS refuses.
        """
        return MilpSession(self, model, options)

    # -- files --------------------------------------------------------------

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write ``model`` as an LP or MPS file with a sidecar ``<path>.vars.json``.

        Connectivity as the strategy lowers it, except that a node it leaves
        to the cut loop gets single-commodity flow (cuts cannot live in a
        file): ``auto`` keeps its positions and depth layers, ``flow`` and
        ``cuts`` write flow for everything. Asked for ``cuts``, the header
        says so and the remark is logged and kept in :attr:`notes`. The
        header names each region's encoding; labels are gridlang's and the
        output is byte-for-byte the same for the same model
        (:func:`gridlang.exporters.milp.linear.write_files`, which also describes the sidecar).

        Args:
            model: the compiled puzzle.
            path: the file to write.
            fmt: ``lp`` (CPLEX LP) or ``mps`` (free MPS), through Pyomo's writers.
            options: only ``connectivity`` is read (None: ``auto``).

        Returns:
            ``[path, path + ".vars.json"]``.

        Raises:
            BackendError: ``fmt`` is not ``lp`` or ``mps``, or the strategy is
                not one this backend offers.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'milp' writes {' and '.join(self.formats)}, not {fmt!r}")
        requested = self.strategy(options, model)
        self.notes = []
        if requested == CUTS:
            note = ("lazy separator cuts cannot live in a file; "
                    "the file uses single-commodity flow for connectivity")
            self.notes.append(note)
            logger.info(note)  # the CLI prints backend.notes
        return write_files(path, fmt, model, lower_rows(self.prepare(model), requested, for_file=True), requested)

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read an external solver's solution of a model this backend wrote.

        The file goes through :func:`gridlang.exporters.milp.solution_file.read_mip_solution`
        (HiGHS raw and pretty, Gurobi, SCIP and CBC; the last two list only
        nonzero columns, so a missing column is 0 there); this maps its
        column names to the IR variables. Flow, position, root-selection and
        Pyomo's ``ONE_VAR_CONSTANT`` columns, of a file written with any
        strategy, are accepted and ignored. Binary values within 1e-4 of 0
        or 1 are rounded.

        Args:
            model: the model the file was written for (same spec, map and
                parameters).
            path: the solution file.

        Returns:
            The assignment of the IR variables.

        Raises:
            MapError: the file cannot be read, names a column the model does
                not have, lacks a column the model file has, gives a
                non-number or non-binary value, or holds no primal solution;
                its span points at the offending line (for a missing column,
                at the line that opens the column list).
        """
        # The file may come from any strategy; their IR columns are the same
        # and come first, and their auxiliary columns are read and ignored.
        model = self.prepare(model)
        low = lower_rows(model, FLOW)
        aux = {col.name for lowered in (low, lower_rows(model, AUTO, for_file=True))
               for col in lowered.columns[model.num_vars:]}
        sol = read_mip_solution(str(path))
        by_name = {col.name: j for j, col in enumerate(low.columns)}
        out: list[bool] = [False] * model.num_vars
        seen: set[int] = set()
        for name, (val, line, col) in sol.values.items():
            j = by_name.get(name)
            if j is None:
                if name == "ONE_VAR_CONSTANT" or name in aux:
                    continue
                raise sol.error(f"the model has no column named {name!r}", line, col, col + len(name))
            if j >= model.num_vars:
                continue  # flow or root selection
            if abs(val - round(val)) > BINARY_TOL or not -BINARY_TOL <= val <= 1 + BINARY_TOL:
                raise sol.error(f"column {name!r} is binary but has the value {val}", line, col, col + len(name))
            out[j] = val > 0.5
            seen.add(j)
        missing = [low.columns[j].name for j in sorted(low.used_columns()) if j < model.num_vars and j not in seen]
        if missing and not sol.sparse:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            raise sol.error(f"the solution gives no value for column {missing[0]!r}{more}", sol.columns_line)
        return Assignment(tuple(out))


class _Kept:
    """What a :class:`MilpSession` keeps between solves."""

    def __init__(self, low: LinearForm, pyo: PyomoModel, opt: Any, highs: Any, model: Model):
        self.low = low
        self.pyo = pyo
        self.opt = opt
        self.highs = highs
        self.model = model
        """The model whose constraints are lowered into ``low``."""
        self.pending: list[Clause | Linear] = []
        """Constraints added since, lowered by the next solve."""


class MilpSession(Session):
    """A MILP kept in HiGHS between solves, for uniqueness and counting runs.

    The first :meth:`solve` lowers the model and loads it into HiGHS as
    :meth:`MilpBackend.solve` describes. Each later one lowers only the
    clauses and linear rows added since and appends them as rows to the
    persistent HiGHS model, so a run pays the Pyomo build and load once;
    the cuts the loop added stay in the
    model. A :class:`~gridlang.ir.model.Connected` added makes the next solve
    build everything again. ``stats["incremental"]`` tells whether a solve
    reused the kept model.

    Raises:
        BackendError: at creation, an unknown strategy or setting.
    """

    def __init__(self, backend: MilpBackend, model: Model, options: SolveOptions,
                 settings: MilpSettings | None = None):
        self.strategy = backend.strategy(options, model)
        super().__init__(backend, model, options, settings)
        self._kept: _Kept | None = None

    def add(self, constraints: Iterable[Constraint]) -> None:
        """Require ``constraints`` in every later solve (see the class docstring)."""
        new = tuple(constraints)
        self.extra.extend(new)
        if self._kept is not None:
            if all(isinstance(c, (Clause, Linear)) for c in new):
                self._kept.pending.extend(new)
            else:
                self._kept = None

    def solve(self) -> Result:
        """Solve with everything added so far; see :meth:`MilpBackend.solve`.

        Raises:
            BackendError: highspy or Pyomo missing, a HiGHS option refused,
                or the solver's answer breaks the model.
        """
        options = self.options
        if (clock := options.clock()).expired():
            return Result(Status.UNKNOWN, stats={"connectivity": self.strategy, "cut_rounds": 0, "cuts": 0,
                                                 "reason": f"{clock.cause()} before the solve began"})
        try:
            import highspy
            from pyomo.contrib.appsi.base import TerminationCondition as TC
            from pyomo.contrib.appsi.solvers.highs import Highs
        except ImportError as e:  # pragma: no cover - dependency problem
            raise BackendError(f"backend 'milp' is not available: {e}") from e
        from pyomo.common.gc_manager import PauseGC

        # Timing starts after the imports, which a process pays once.
        start = time.perf_counter()
        # The cyclic garbage collector rescans every live object (Pyomo's and
        # the caller's) each time enough new ones appear; paused, as Pyomo's
        # own writers do, it stops interrupting the build (see the timings in
        # docs/benchmarks.md). Nothing here needs it: the model's objects
        # are freed by reference counting when the session is dropped.
        with PauseGC():
            return self._solve(start, highspy, TC, Highs)

    def _solve(self, start: float, highspy: Any, TC: Any, Highs: Any) -> Result:
        """The body of :meth:`solve`, after the imports."""
        settings, strategy = self.settings, self.strategy
        kept = self._kept
        deadline = self.options.clock()
        if kept is None:
            model = self.model.with_constraints(tuple(self.extra)) if self.extra else self.model
            try:
                low = lower_rows(self.backend.prepare(model), strategy, settings.seed_cuts, deadline=deadline)
            except BuildTimeout:
                return _out_of_time(start, strategy, f"{deadline.cause()} while the rows were built")
        else:
            low = kept.low
            model = kept.model.with_constraints(tuple(kept.pending))
            first_new = len(low.rows)
            for k, con in enumerate(kept.pending, start=len(kept.model.constraints) + 1):
                lower_row(low, con, k)
        stats: dict[str, object] = {"connectivity": strategy, "encodings": dict(low.encodings),
                                    "cut_rounds": 0, "cuts": 0, "incremental": kept is not None}
        if low.infeasible:
            self._kept = None  # rows lowered but not loaded: rebuild if asked again
            seconds = time.perf_counter() - start
            stats.update(variables=len(low.columns), constraints=len(low.rows),
                         build_seconds=seconds, reason=f"row {low.infeasible[0]} can never hold")
            return Result(Status.INFEASIBLE, seconds=seconds, build_seconds=seconds, stats=stats)
        warmstart = settings.warmstart
        pool = bool(low.lazy) and settings.pool_cuts
        if kept is not None:
            pyo, opt, highs = kept.pyo, kept.opt, kept.highs
            added = [pyo.add_row(row) for row in low.rows[first_new:]]
            build_seconds = time.perf_counter() - start
            t = time.perf_counter()
            opt.add_constraints(added)
            stats["load_seconds"] = time.perf_counter() - t
            kept.model = model
            kept.pending.clear()
            # The columns hold the last answer, which the new rows block.
            opt.config.warmstart = False
        else:
            # Pyomo's model and its loading into HiGHS cannot be stopped
            # midway; they take about LOAD_FACTOR times as long as the rows
            # took (measured on 60x60 to 200x200 maps), so a deadline they
            # would clearly overrun ends the solve before they start.
            remaining = deadline.remaining()
            spent = time.perf_counter() - start
            if remaining is not None and remaining < LOAD_FACTOR * spent:
                return _out_of_time(start, strategy, f"the time limit would run out while the model is loaded "
                                    f"into HiGHS (about {LOAD_FACTOR * spent:.1f} s, {remaining:.1f} s left)")
            pyo, opt, highs, build_seconds = self._load(model, low, start, warmstart, pool, stats, Highs)
            self._kept = _Kept(low, pyo, opt, highs, model)

        oracle = _Oracle(model, low, pyo, opt, highs, highspy, TC, pool=pool, warmstart=warmstart)
        out = lazy_solve(model, oracle, [con for _, con in low.lazy], deadline)
        stats.update(out.stats)
        if out.stats["abandoned"]:
            self._kept = None  # HiGHS still runs on it in another thread
        # Valid for every answer, so the next solve (a uniqueness check)
        # starts where this loop stopped: they stay in the kept model, and a
        # rebuild lowers them from here.
        self.extra.extend(out.stats["learned_cuts"])
        stats["variables"] = len(low.columns)
        stats["constraints"] = len(low.rows) + len(pyo.pm.cuts)
        stats["build_seconds"] = build_seconds
        stats["solver_seconds"] = oracle.solver_seconds
        if not out.stats["abandoned"]:
            # Read back from HiGHS, so that the figures say what it ran with.
            stats["threads"] = _option_value(highs, "threads")
            stats["mip_rel_gap"] = _option_value(highs, "mip_rel_gap")
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        if status is Status.FEASIBLE and out.objective is not None and out.bound is not None:
            stats["gap"] = abs(out.bound - out.objective) / max(1.0, abs(out.objective))
        return Result(
            status=status,
            assignment=out.assignment,
            objective=out.objective,
            bound=out.bound,
            seconds=time.perf_counter() - start,
            build_seconds=build_seconds,
            stats=stats,
        )

    def _load(self, model: Model, low: LinearForm, start: float, warmstart: bool, pool: bool,
              stats: dict[str, object], Highs: Any) -> tuple[PyomoModel, Any, Any, float]:
        """Build the Pyomo model of ``low`` and load it into a new persistent HiGHS."""
        options, settings = self.options, self.settings
        pyo = PyomoModel(low)
        build_seconds = time.perf_counter() - start
        # only_child_vars: load every column in one call instead of one per row.
        opt = Highs(only_child_vars=True)
        if not opt.available():
            raise BackendError("backend 'milp' needs highspy, which is not installed")
        opt.config.load_solution = False
        opt.config.warmstart = warmstart
        for flag in ("check_for_new_or_removed_constraints", "check_for_new_or_removed_vars",
                     "check_for_new_or_removed_params", "check_for_new_objective",
                     "update_constraints", "update_vars", "update_params",
                     "update_named_expressions", "update_objective"):
            setattr(opt.update_config, flag, False)
        highs_options: dict[str, object] = {"output_flag": bool(options.log)}
        if pool:
            highs_options["mip_improving_solution_save"] = True
        if options.mip_gap is not None:
            highs_options["mip_rel_gap"] = options.mip_gap
        elif model.objective is not None:
            highs_options["mip_rel_gap"] = 0.0
            highs_options["mip_abs_gap"] = 1.0 - 1e-6
        highs_options.update(settings.highs_options)
        opt.highs_options = highs_options
        if options.log:
            log = logging.getLogger("gridlang.milp.highs")
            if not log.handlers:
                import sys

                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(logging.Formatter("%(message)s"))
                log.addHandler(handler)
                log.propagate = False
            log.setLevel(logging.INFO)
            opt.config.solver_output_logger = log
            opt.config.log_level = logging.INFO

        t = time.perf_counter()
        opt.set_instance(pyo.pm)
        highs = opt._solver_model
        _set_threads(highs, options.workers)
        stats["load_seconds"] = time.perf_counter() - t
        return pyo, opt, highs, build_seconds


LOAD_FACTOR = 2.5
"""Pyomo's model plus its loading into HiGHS take about this many times the
seconds the rows took (1.5 to 2.5 on 60x60 to 200x200 maps, under load)."""


def _out_of_time(start: float, strategy: str, reason: str) -> Result:
    """The UNKNOWN result of a build the deadline stopped."""
    seconds = time.perf_counter() - start
    return Result(Status.UNKNOWN, seconds=seconds, build_seconds=seconds,
                  stats={"connectivity": strategy, "cut_rounds": 0, "cuts": 0, "solver_calls": 0, "reason": reason})


def to_pyomo(model: Model, connectivity: str = FLOW) -> tuple[Any, Callable[[Any], str]]:
    """The MILP of ``model`` as a Pyomo ConcreteModel, for use outside gridlang.

    Args:
        model: the compiled puzzle.
        connectivity: ``flow`` (a complete model), ``cuts`` (the relaxation
            the cut loop starts from: connectivity is missing) or ``auto``
            (positions and depth layers where they apply; the regions
            left to the cut loop are missing).

    Returns:
        ``(concrete_model, label)``: columns are ``concrete_model.x[j]`` (IR
        variable ``j + 1`` for ``j < model.num_vars``, then flow and
        root-selection columns), rows ``concrete_model.rows[i]``; ``label``
        maps any of them to its gridlang name (``wall_3_4``,
        ``clause_12_L22``), the names the LP/MPS files use. Pass it to
        Pyomo's writers as ``labeler``.

    Raises:
        BackendError: ``connectivity`` is not ``flow``, ``cuts`` or
            ``auto``, or a region's root lies outside its members.
    """
    if connectivity not in (AUTO, FLOW, CUTS):
        raise BackendError(f"backend 'milp' has no connectivity strategy {connectivity!r}")
    pyo = PyomoModel(lower_rows(MilpBackend().prepare(model), connectivity))
    return pyo.pm, pyo.labeler
