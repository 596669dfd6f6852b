"""MaxSAT backend: weighted partial MaxSAT with PySAT, by linear SAT-UNSAT search or RC2.

Lowering (IR -> WCNF), with ``x_v`` the IR's own Boolean variable ``v``
(DIMACS variable ``v``; the auxiliary variables of the decompositions are
numbered after the model's last variable). The backend lowers
:class:`~gridlang.ir.model.Clause` nodes natively, and connectivity by lazy
cuts; :meth:`~gridlang.ir.backend.Backend.prepare` hands it the rest as
clauses:

* :class:`~gridlang.ir.model.Clause` -> one hard clause.
* :class:`~gridlang.ir.model.Linear` -> hard clauses, by
  :func:`gridlang.ir.transforms.linear_to_clauses` (normalised, then
  cardinality encodings from :mod:`pysat.card` when every coefficient is
  equal, else :mod:`pysat.pb`; ``enforce`` literals as a
  half-reification).
* The objective -> soft unit clauses and an offset, by
  :func:`gridlang.ir.transforms.soft_objective`: maximising, the score is
  ``offset - cost``; minimising, ``offset + cost``. The score is
  re-computed with :meth:`Objective.value` on the decoded assignment and
  must agree.

Connectivity (:class:`~gridlang.ir.model.Connected`), two exact strategies:

``cuts`` (default): the logic-based Benders loop of
:mod:`gridlang.ir.connectivity` (its driver, ``lazy_solve``). Each vertex-separator
cut ``x_s <= sum_{w in N(C)} x_w`` is the hard clause
``[-x_s] + [x_w for w in N(C)]``, added to the *same* solver object before
the next call: RC2's cores, and the SAT solvers' learnt clauses, stay valid
when hard clauses are added, so each round resumes where the last one
stopped. Rooted regions also get the root-side cuts each round, and the
loop starts from the one-cell separator cuts of
:func:`gridlang.ir.connectivity.seed_cuts` (``[-x_w, x_a]`` when cut vertex
``a`` separates ``w`` from the roots; ``[-x_w]`` when nothing joins them).

``tree`` (no loop, complete, used for file export): every connectivity
node becomes the clauses of a spanning tree with binary ranks, by
:func:`gridlang.ir.transforms.decompose_connected_tree` (T. Janhunen, ECAI
2004; M. Gebser, T. Janhunen, J. Rintanen, JELIA 2014), whose module
states the clauses and their size.

Solving. Models with an objective go, by default, to a linear SAT-UNSAT
search (``algorithm = "lsu"``, :class:`_Lsu`): one incremental CaDiCaL
1.9.5 solver holds the hard clauses, the cuts and an incremental totalizer
counting the cost (on grids below :data:`SMALL_CELLS` cells the search
begins on MiniSat-GH and moves to CaDiCaL after 0.5 s of its search), and
each call asks for a solution cheaper than the best one so far; an answer with stray components gets its cuts (and its repair
may become the best solution), and UNSAT under the bound proves the best
solution optimal. ``algorithm = "rc2"`` runs RC2 instead (A. Ignatiev,
A. Morgado, J. Marques-Silva, "RC2: an efficient MaxSAT solver", JSAT 2019),
the cut loop adding clauses to the same RC2 object. Models without an
objective go to an incremental :class:`pysat.solvers.Solver`, the cut loop
adding clauses between ``solve`` calls. The time limit (seconds) covers all
rounds: :func:`gridlang.core.deadline.run_solver` interrupts the oracle at the
command's deadline; CaDiCaL cannot be interrupted, so the search runs it in
slices of at most ``conflicts`` conflicts and reads the clock between
slices (:func:`gridlang.core.deadline.run_sat`; under RC2 the limit is then
checked between rounds only). RC2 runs in a child process where the system
can fork (:class:`_ForkedRc2`, setting ``rc2.fork``): its core
minimisation and exhaustion hold the GIL, which in this process kept the
limit from being enforced. On a timeout the answer is FEASIBLE when an earlier
round left a (repaired) solution, else UNKNOWN; ``Result.bound`` is a valid
bound: for RC2 the last completed round's relaxation optimum, for the
search the cost bound proved so far (the offset until the last call).

Settings (:class:`MaxSatSettings`, each overridable through
``SolveOptions.extra`` as ``maxsat.NAME``): the algorithm (``auto`` takes
``lsu`` when every objective term is on a region member, as on the
standard maps, and ``rc2`` when the objective also prices decisions, as
with costly walls), the SAT
oracle of each algorithm (CaDiCaL 1.9.5 for ``lsu``, after MiniSat-GH's
first 0.5 s on grids below 500 cells, Glucose 4 under RC2,
Glucose 3 without an objective), the search's preferred phases (soft
literals true on grids below 500 cells), RC2's ``exhaust`` and ``minz``, the
modulo totalizer for cardinality, CaDiCaL slices of 100,000 conflicts, the
root-side cuts and the one-cell seeds. ``cuts`` is the default strategy;
``tree`` is exact but slower and serves the file export. The measurements
that chose each of them, and the reference they were compared with, are in
``docs/benchmarks.md``, "Settings and encodings tried".
"""

from __future__ import annotations

import json
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import ClassVar

from gridlang.core.deadline import BuildTimeout, Deadline, quiet_pysat_sigint, run_sat, run_solver, sat_interruptible
from gridlang.core.errors import BackendError
from gridlang.core.forked import ForkedSolver, available
from gridlang.core.settings import Settings
from gridlang.exporters.maxsat.cardinality import CostBound
from gridlang.exporters.maxsat.dimacs import read_dimacs_solution
from gridlang.exporters.maxsat.form import Lowered, lower
from gridlang.ir.backend import Backend, Result, SolveOptions, Status, run_lines
from gridlang.ir.connectivity import cut_clause, root_side_cuts, separator_cuts
from gridlang.ir.connectivity.driver import LoggedOracle, Round, lazy_solve
from gridlang.ir.connectivity.windows import WindowStart, solve_with_window_start
from gridlang.ir.model import Assignment, Clause, Connected, EqualBlocks, GraphConnected, Linear, Model, Sense
from gridlang.ir.transforms import CARD_ENCODINGS

SMALL_CELLS = 500
"""Grids below this many cells get ``lsu.phases = soft`` and ``lsu.start =
mgh`` under ``auto``: the largest daily has 441 cells, the weeklies 529 to 625."""

SOLVER_PACKAGES = {"cryptosat": ("cms_present", "the Python package 'pycryptosat' (pip install pycryptosat)"),
                   "ergo": ("ergo_present", "a build of PySAT with Ergo (not built on Windows)")}
"""PySAT's SAT solvers that need more than PySAT's own wheel: family -> (the
flag of :mod:`pysat.solvers` saying it is there, what is missing)."""

NO_ASSUMPTIONS = ("kissat404",)
"""PySAT's SAT solver families that ignore assumptions. On python-sat 1.9.dev17,
given ``[[1, 2], [-1, 3]]``, ``solve(assumptions=[-1, -2])`` and
``solve(assumptions=[1, -3])`` answer True on Kissat 4.0.4, with the warning
"Kissat does not support assumptions. The assumptions parameter will be
ignored.", and False on every other family of ``SolverNames`` (CaDiCaL
1.0.3, 1.5.3, 1.9.5 and 3.0.0, Ergo, Gluecard 3 and 4, Glucose 3, 4 and 4.2,
Lingeling, MapleChrono, MapleCM, MapleSAT, MergeSat 3, Minicard, MiniSat 2.2,
MiniSat-GH, MiniSat-EP). The linear search bounds the cost by an assumption
and RC2 relaxes its cores by them: under RC2, Kissat ended in "RC2 reports the
objective 129, but its answer scores 1", and the linear search had not ended
after 120 s."""

NOT_INCREMENTAL = ("kissat404",)
"""PySAT's SAT solver families that cannot take a clause after a call: Kissat
4.0.4 aborts the process ("kissat: fatal error: calling 'kissat_add':
incremental solving not supported"). Every algorithm here adds its cuts
between calls."""

NO_LIMITED_SOLVE = ("lingeling",)
"""PySAT's SAT solver families without ``solve_limited``, which
:func:`gridlang.core.deadline.run_sat` and RC2 call: Lingeling raises
NotImplementedError ("Limited solve is currently unsupported by Lingeling.")."""


@dataclass(frozen=True)
class LsuSettings(Settings):
    """The linear SAT-UNSAT search (``algorithm = "lsu"``, :class:`_Lsu`).

    Attributes:
        solver: PySAT name of its SAT solver.
        start, start_seconds: the search begins on the SAT solver
            ``start`` (PySAT's name, of a solver PySAT can interrupt;
            ``none``: on ``solver`` at once) and moves to ``solver`` once
            ``start`` has searched for ``start_seconds`` in all: the new
            solver is given every clause so far (the hard ones, the cuts
            and the cost counter's) and repeats the interrupted call, the
            incumbent kept. ``auto`` (the default) takes ``mgh`` on grids
            of fewer than :data:`SMALL_CELLS` cells and ``none`` on larger
            ones. MiniSat-GH (``mgh``) is quicker on the easy maps and
            CaDiCaL on the hard proofs: on the 214 dailies, warm, ``mgh``
            alone took the median from 0.119 to 0.092 s but the slowest map
            (04-28) from 4.5 to 12.6 s; beginning on it for 0.5 s, the
            median 0.088 s and the sum 60.9 s against 61.8 s
            (``docs/benchmarks.md``).
        max_units: the search counts a soft clause of weight ``w`` as ``w``
            totalizer inputs; above this total weight RC2 runs instead
            (``stats["algorithm"]`` says which ran). At least 1.
        phases: ``soft`` has the SAT solver prefer each soft literal true
            (on enclose.horse: a cell in the pen), so that its first answer
            is a large pen and the cost counter, built at that answer's
            cost, is small; ``none`` leaves CaDiCaL's own phases; ``auto``
            (the default) takes ``soft`` on grids of fewer than
            :data:`SMALL_CELLS` cells. On the 214 dailies (at most 441
            cells) ``soft`` took the median from 0.160 to 0.137 s, but the 7
            weeklies (529 to 625 cells) from 63 to 76 s in all
            (``docs/benchmarks.md``).
    """

    solver: str = "cadical195"
    start: str = "auto"
    start_seconds: float = 0.5
    max_units: int = 100000
    phases: str = "auto"


@dataclass(frozen=True)
class Rc2Settings(Settings):
    """RC2 (``algorithm = "rc2"``, :class:`_Rc2`).

    Attributes:
        solver: PySAT name of RC2's SAT oracle (``g3``, ``g4``, ``cd19``,
            ``mgh``...).
        stratified: RC2Stratified, without hardening (which later cuts would
            invalidate).
        exhaust, minz, adapt: RC2's options of those names.
        fork: run RC2 in a child process (:mod:`gridlang.core.forked`) where
            the system can fork, so that the time limit holds while RC2
            minimises or exhausts a core, calls which hold the GIL and
            which its ``interrupt`` does not reach; ``false`` runs it in
            this process.
    """

    solver: str = "g4"
    stratified: bool = False
    exhaust: bool = True
    minz: bool = True
    adapt: bool = False
    fork: bool = True


@dataclass(frozen=True)
class SatSettings(Settings):
    """The SAT search of models without an objective (:class:`_Sat`).

    Attributes:
        solver: PySAT name of its SAT solver.
    """

    solver: str = "g3"


@dataclass(frozen=True)
class CardSettings(Settings):
    """Cardinality constraints (:func:`gridlang.ir.transforms.linear_to_clauses`).

    Attributes:
        encoding: a :class:`pysat.card.EncType` name (or ``ktotalizer``) for
            ``sum <= k`` with ``2 <= k <= n / 2``; ``k = 1`` uses pairwise
            (``n <= 6``) or a sequential counter, larger ``k`` counts the
            false literals instead. ``auto`` (the default) takes the modulo
            totalizer on up to 1,000 literals and an encoding of ``O(n k)`` clauses or
            fewer above (:func:`gridlang.ir.transforms.to_cnf.card_encoding`).
    """

    encoding: str = "auto"


@dataclass(frozen=True)
class CutSettings(Settings):
    """The cut loop (strategy ``cuts``).

    Attributes:
        root_side: add the root-side cuts each round.
        seed, seed_pairs: seed the loop with the one-cell, and the two-cell,
            separator cuts of :func:`gridlang.ir.connectivity.seed_cuts`.
    """

    root_side: bool = True
    seed: bool = True
    seed_pairs: bool = False


@dataclass(frozen=True)
class MaxSatSettings(Settings):
    """The MaxSAT backend's settings, ``maxsat.NAME`` in ``SolveOptions.extra``
    (``maxsat.lsu.solver``; from Python also ``NAME`` alone). The defaults
    are the measured best (``docs/benchmarks.md``).

    Attributes:
        algorithm: ``lsu`` (linear SAT-UNSAT search) or ``rc2``
            (core-guided) for models with an objective; ``auto`` takes
            ``lsu`` when every objective term is on a region member (the
            standard maps: the value of the pen) and ``rc2`` when the
            objective also prices decisions (costly walls).
        conflicts: with a time limit and a solver PySAT cannot interrupt
            (CaDiCaL), each call of ``lsu`` or of the plain SAT search runs
            in slices of at most this many conflicts and the clock is read
            between slices. At least 1.
        lsu, rc2, sat, card, cuts: the groups above.
        window: run the window start (:mod:`gridlang.ir.connectivity.windows`)
            where it applies; ``--set maxsat.window=false`` turns it off.
    """

    bare: ClassVar[bool] = True

    algorithm: str = "auto"
    conflicts: int = 100000
    lsu: LsuSettings = field(default_factory=LsuSettings)
    rc2: Rc2Settings = field(default_factory=Rc2Settings)
    sat: SatSettings = field(default_factory=SatSettings)
    card: CardSettings = field(default_factory=CardSettings)
    cuts: CutSettings = field(default_factory=CutSettings)
    window: bool = True

    def check(self, backend: str) -> None:
        """Refuse an unknown algorithm, SAT solver or cardinality encoding, and limits below 1;
        and a SAT solver whose package is missing (:data:`SOLVER_PACKAGES`), that
        ignores the assumptions the linear search or RC2 solves under
        (:data:`NO_ASSUMPTIONS`), that cannot take the cuts between calls
        (:data:`NOT_INCREMENTAL`) or that has no limited solve
        (:data:`NO_LIMITED_SOLVE`), before any solver is made.

        Raises:
            BackendError: the first value refused, in one sentence.
        """
        if self.algorithm not in ("auto", "lsu", "rc2"):
            raise BackendError(f"unknown MaxSAT algorithm {self.algorithm!r}; choose auto, lsu or rc2")
        if self.lsu.phases not in ("auto", "soft", "none"):
            raise BackendError(f"setting 'lsu.phases': unknown phases {self.lsu.phases!r}; choose auto, soft or none")
        import pysat.solvers
        from pysat.solvers import SolverNames

        families = {n: family for family, names in vars(SolverNames).items() if isinstance(names, tuple)
                    for n in names}
        known = sorted(families)
        solvers = [("lsu.solver", self.lsu.solver), ("rc2.solver", self.rc2.solver), ("sat.solver", self.sat.solver)]
        if self.lsu.start not in ("auto", "none"):
            solvers.append(("lsu.start", self.lsu.start))
        for key, name in solvers:
            if name not in known:
                raise BackendError(f"setting {key!r}: PySAT has no SAT solver {name!r}; it has {', '.join(known)}")
            family = families[name]
            flag, needs = SOLVER_PACKAGES.get(family, (None, ""))
            if flag is not None and not getattr(pysat.solvers, flag, True):
                raise BackendError(f"setting {key!r}: SAT solver {name!r} needs {needs}, which is missing")
            if family in NO_ASSUMPTIONS and key != "sat.solver":
                algorithm = "RC2" if key == "rc2.solver" else "the linear search (lsu)"
                raise BackendError(f"setting {key!r}: {algorithm} solves under assumptions, which PySAT's {name!r} "
                                   f"ignores; choose a solver with assumptions, such as g4 or cadical195")
            if family in NOT_INCREMENTAL:
                raise BackendError(f"setting {key!r}: the cut loop adds clauses between calls, which PySAT's "
                                   f"{name!r} cannot take; choose another solver, such as g3 or cadical195")
            if family in NO_LIMITED_SOLVE:
                raise BackendError(f"setting {key!r}: this backend calls PySAT's solve_limited, which {name!r} "
                                   f"lacks; choose another solver, such as g4 or cadical195")
        if self.lsu.start not in ("auto", "none") and not sat_interruptible(self.lsu.start):
            raise BackendError(f"setting 'lsu.start': PySAT cannot interrupt {self.lsu.start!r}; "
                               f"choose one it can, such as mgh or g4")
        if not self.lsu.start_seconds >= 0:
            raise BackendError(f"setting 'lsu.start_seconds' must be at least 0, not {self.lsu.start_seconds!r}")
        for key, value in (("conflicts", self.conflicts), ("lsu.max_units", self.lsu.max_units)):
            if value < 1:
                raise BackendError(f"setting {key!r} must be at least 1, not {value!r}")
        if self.card.encoding not in CARD_ENCODINGS:
            raise BackendError(f"unknown cardinality encoding {self.card.encoding!r}; "
                               f"choose one of {', '.join(CARD_ENCODINGS)}")


# --------------------------------------------------------------------------
# the backend


class MaxSatBackend(Backend):
    """Weighted partial MaxSAT through PySAT: linear SAT-UNSAT search or RC2 for optimisation, SAT otherwise."""

    name = "maxsat"
    library = "pysat"
    description = ("weighted partial MaxSAT (PySAT: CaDiCaL linear search or RC2), "
                   "lazy separator cuts or a spanning-tree encoding")
    connectivity = ("cuts", "tree")
    formats = ("wcnf", "cnf")
    imports = ("pysat.solvers", "pysat.card", "pysat.pb", "pysat.examples.rc2")
    seeds_cuts = True
    native = frozenset({Clause, Connected, GraphConnected, EqualBlocks})
    """Clauses, and connectivity and blocks of equal labels by the cut loop;
    linear rows go through :func:`gridlang.ir.transforms.linear_to_clauses`, and
    connectivity and blocks too under ``tree``
    (:func:`gridlang.ir.transforms.decompose_connected_tree`,
    :func:`gridlang.ir.transforms.decompose_equal_blocks`)."""
    settings_class = MaxSatSettings

    def solve(self, model: Model, options: SolveOptions, settings: MaxSatSettings | None = None) -> Result:
        """Solve ``model``: linear SAT-UNSAT search or RC2 (objective), a SAT solver (none).

        Args:
            model: the IR model.
            options: time limit in seconds over all cut rounds, strategy,
                and the ``extra`` keys of :class:`MaxSatSettings`.
            settings: those settings, made by :meth:`configure` (None: made here).

        Returns:
            The result; ``stats`` holds ``algorithm`` (``lsu``, ``rc2`` or
            ``sat``), ``cut_rounds`` (solver calls), ``cuts``, ``hard``,
            ``soft``, ``variables``, ``strategy`` and the solver settings.

        On a large flood fill with an objective
        (:func:`~gridlang.ir.connectivity.windows.windowed_region`), unless
        ``maxsat.window`` is false or several solutions are asked for, a
        window start comes first, and its best answer is the linear
        search's first incumbent.

        Raises:
            BackendError: PySAT is missing, a setting is refused, or a
                construct cannot be lowered.
        """
        s = settings if settings is not None else self.configure(options)
        return solve_with_window_start(model, options, s.window,
                                       lambda m, opts, window: self._solve(m, opts, s, window))

    def _solve(self, model: Model, options: SolveOptions, s: MaxSatSettings,
               window: WindowStart | None = None) -> Result:
        """One lowering and its cut loop, beginning from ``window``'s answer (if any) as the incumbent."""
        start = time.perf_counter()
        strategy = self.strategy(options, model)
        try:
            import pysat  # noqa: F401
        except ModuleNotFoundError as e:
            raise BackendError("backend 'maxsat' needs python-sat: pip install 'python-sat[pb]'") from e
        deadline = options.clock()
        try:
            deadline.check()
            clauses = self._clauses(model, strategy, s.card.encoding, deadline)
            low = lower(clauses, s.cuts.seed, s.cuts.seed_pairs, deadline)
        except BuildTimeout:
            seconds = time.perf_counter() - start
            return Result(Status.UNKNOWN, seconds=seconds, build_seconds=seconds,
                          stats={"connectivity": strategy, "cut_rounds": 0, "cuts": 0, "solver_calls": 0,
                                 "reason": f"{deadline.cause()} while the clauses were built"})
        if model.objective is None:
            oracle, algorithm = _Sat(model, low, s), "sat"
        elif (s.algorithm == "lsu" or s.algorithm == "auto" and _region_objective(model, low)) \
                and sum(w for w, _ in low.soft) <= s.lsu.max_units:
            oracle, algorithm = _Lsu(model, low, s), "lsu"
        else:
            forked = s.rc2.fork and available()
            oracle, algorithm = (_ForkedRc2 if forked else _Rc2)(model, low, s), "rc2"
        build_seconds = time.perf_counter() - start
        if options.log:
            _log(f"{len(low.hard):,} hard and {len(low.soft):,} soft clauses over {low.top:,} variables, "
                 f"built in {build_seconds:.2f} s; algorithm {algorithm}, cardinality {s.card.encoding}")
            oracle = LoggedOracle(oracle, model, _log, _conflicts)
        separators = [separator_cuts] + ([root_side_cuts] if s.cuts.root_side else [])
        out = lazy_solve(model, oracle, low.lazy, deadline, separators,
                         start=window.assignment if window is not None else None)
        if options.log:
            _log(f"{out.status}: objective {out.objective}, bound {out.bound}, {out.stats['solver_calls']} solver "
                 f"calls, {out.stats['cut_rounds']} cut rounds, {out.stats['cuts']} cuts, "
                 f"{time.perf_counter() - start:.2f} s")
        if not out.stats["abandoned"]:
            oracle.close()
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        result = Result(status, out.assignment, out.objective, out.bound, build_seconds=build_seconds)
        result.stats.update(out.stats)
        result.stats.update(
            algorithm=algorithm,
            sat_solver=getattr(oracle, "solvers", None),
            connectivity=strategy,
            hard=len(low.hard) + oracle.hard_added,
            soft=len(low.soft),
            variables=low.top,
            settings=s.flat(),
        )
        result.seconds = time.perf_counter() - start
        return result

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write the complete model (tree connectivity) as WCNF or CNF.

        WCNF follows the 2022 MaxSAT Evaluation format (``h`` hard lines,
        ``weight lits 0`` soft lines, PySAT's ``mse22`` writer); comment lines
        give the puzzle, provenance, encoding and the objective's offset and
        sense. A sidecar ``<path>.vars.json`` maps every DIMACS variable to
        ``{"var", "family", "cell": [row, col] or null, "value"}``. Output is
        byte-for-byte reproducible.

        Returns:
            ``[path, path + ".vars.json"]``.

        Raises:
            BackendError: unknown format, CNF asked for a model with an
                objective (use wcnf), or a connectivity other than ``tree``.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'maxsat' writes {', '.join(self.formats)}, not {fmt!r}")
        if fmt == "cnf" and model.objective is not None:
            raise BackendError("the model has an objective: a CNF file cannot hold it; use --format wcnf")
        if options.connectivity not in (None, "tree"):
            self.strategy(options)  # an unknown name is refused as in solve
            raise BackendError("a file cannot hold lazy cuts; files use --connectivity tree (the default)")
        encoding = self.configure(options).card.encoding
        clauses = self._clauses(model, "tree", encoding)
        low = lower(clauses)
        if low.lazy:
            raise BackendError(f"{low.lazy[0].name!r} is connected through chosen edges, which only the lazy cut "
                               "loop lowers on this backend; a file cannot hold it")
        comments = _header(model, low, fmt, encoding)
        from pysat.formula import CNF, WCNF

        with open(path, "w", encoding="utf-8", newline="\n") as fp:
            if fmt == "wcnf":
                wcnf = WCNF()
                for cl in low.hard:
                    wcnf.append(cl)
                for w, cl in low.soft:
                    wcnf.append(cl, weight=w)
                wcnf.to_fp(fp, comments=comments, format="mse22")
            else:
                cnf = CNF(from_clauses=low.hard)
                cnf.nv = max(cnf.nv, low.top)  # the header counts every variable, used or not
                cnf.to_fp(fp, comments=comments)
        side = path + ".vars.json"
        with open(side, "w", encoding="utf-8", newline="\n") as fp:
            json.dump(_variable_map(clauses), fp, indent=1)
            fp.write("\n")
        return [path, side]

    def _clauses(self, model: Model, strategy: str, card_encoding: str, deadline: Deadline | None = None) -> Model:
        """``model`` prepared for :func:`lower`: linear rows as clauses, and
        connectivity too under ``tree``; the model's variables come first.

        Raises:
            BackendError: a node kind this backend cannot lower.
        """
        quiet_pysat_sigint()  # before the first cardinality encoding: solve and write both start here
        native = self.native if strategy == "cuts" else self.native - {Connected, EqualBlocks}
        return self.prepare(model, native, {"linear_to_clauses": {"encoding": card_encoding, "deadline": deadline}})

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read an external MaxSAT or SAT solver's answer to a file this backend wrote.

        The ``v`` lines, in either form, go through
        :func:`gridlang.exporters.maxsat.dimacs.read_dimacs_solution`; the file's
        variables ``1 .. model.num_vars`` are the model's own, and the
        auxiliary ones after them are ignored.

        Returns:
            The assignment of the model's variables.

        Raises:
            MapError: the answer is malformed, lacks a model variable or
                reports no solution, with the file, line and column.
        """
        return Assignment(read_dimacs_solution(str(path), [str(v) for v in model.variables]))


def _header(model: Model, low: Lowered, fmt: str, card_encoding: str) -> list[str]:
    def clean(s: object) -> str:
        return " ".join(str(s).split())

    lines = [f"c gridlang {fmt} export: {clean(model.name)}"] + [f"c {line}" for line in model.provenance()]
    lines.append(f"c grid: {model.grid.rows} rows x {model.grid.cols} columns")
    lines.append(f"c encoding: connectivity tree (binary level ranking), cardinality {card_encoding}, "
                 "pseudo-Boolean pindakaas")
    lines.append(f"c variables: {low.top} ({model.num_vars} model, {low.top - model.num_vars} auxiliary), "
                 f"hard clauses: {len(low.hard)}, soft clauses: {len(low.soft)}")
    if low.sense is Sense.MAXIMIZE:
        lines.append(f"c objective: maximize, offset {low.offset}: score = {low.offset} - cost")
    elif low.sense is Sense.MINIMIZE:
        lines.append(f"c objective: minimize, offset {low.offset}: score = {low.offset} + cost")
    else:
        lines.append("c objective: none")
    if fmt == "wcnf":
        command = "python -m pysat.examples.rc2 -vv FILE > ANSWER"  # RC2, as the wheel installs it
    else:
        command = ("python -c \"from pysat.formula import CNF; from pysat.solvers import Solver; "
                   "s = Solver(bootstrap_with=CNF(from_file='FILE').clauses); "
                   "print('s SATISFIABLE' if s.solve() else 's UNSATISFIABLE'); print('v', *(s.get_model() or []), 0)\""
                   " > ANSWER")
    lines += [f"c {line}" for line in run_lines(fmt, command)]
    lines.append("c (any MaxSAT or SAT solver will do: its 'v' lines are read)")
    lines.append("c variable map: FILE.vars.json")
    return lines


def _variable_map(model: Model) -> dict[str, dict[str, object]]:
    """DIMACS variable -> its name, family, cell and value, for every variable of a prepared model."""
    return {str(v): model.variable_record(v) for v in range(1, model.num_vars + 1)}


def _region_objective(model: Model, low: Lowered) -> bool:
    """Whether every soft clause is on a member literal of a Connected region (``auto`` then picks ``lsu``)."""
    members = {abs(l) for con in model.constraints if isinstance(con, Connected) for _, l in con.members}
    return bool(members) and all(abs(cl[0]) in members for _, cl in low.soft)


def _log(line: str) -> None:
    """One line of ``--log``, on stderr so that ``--json`` keeps stdout to itself."""
    print(f"maxsat: {line}", file=sys.stderr, flush=True)


def _conflicts(oracle: _Oracle) -> str:
    """The SAT solver's conflicts so far, for ``--log``."""
    solver = getattr(oracle, "solver", None)
    return f"{solver.accum_stats().get('conflicts', 0):,} conflicts so far" if solver is not None else ""


class _Oracle:
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


class _Rc2(_Oracle):
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


class _ForkedRc2(_Oracle):
    """:class:`_Rc2` built and called in a child process (:class:`gridlang.core.forked.ForkedSolver`).

    RC2 minimises and exhausts each core by SAT calls that hold the GIL and
    that its ``interrupt`` does not reach; in this process they kept the
    thread that enforces the time limit from running (a 60 s limit ran
    75.5 s on the 900-cell near-empty map, budget 40). Across a pipe the
    wait needs no GIL of RC2's, and a call that outlives its stop is killed.
    """

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        super().__init__(model, low, settings)
        self.child = ForkedSolver(lambda: _Rc2(model, low, settings), "RC2")

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        return self.child.timed_call(deadline, "solve", incumbent)

    def add(self, cuts: list[Linear]) -> None:
        self.child.call("add", cuts)
        self.hard_added += len(cuts)

    def close(self) -> None:
        self.child.close()


class _Lsu(_Oracle):
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


class _Sat(_Lsu):
    """A plain incremental SAT solver, for models without an objective."""

    improving = False

    def __init__(self, model: Model, low: Lowered, settings: MaxSatSettings):
        from pysat.solvers import Solver

        _Oracle.__init__(self, model, low, settings)
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
