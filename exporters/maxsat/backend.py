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
:func:`gridlang.ir.connectivity.separation.seed_cuts` (``[-x_w, x_a]`` when cut vertex
``a`` separates ``w`` from the roots; ``[-x_w]`` when nothing joins them).

``tree`` (no loop, complete, used for file export): every connectivity
node becomes the clauses of a spanning tree with binary ranks, by
:func:`gridlang.ir.transforms.decompose_connected_tree` (T. Janhunen, ECAI
2004; M. Gebser, T. Janhunen, J. Rintanen, JELIA 2014), whose module
states the clauses and their size.

Solving. Models with an objective go, by default, to a linear SAT-UNSAT
search (``algorithm = "lsu"``, :class:`Lsu`): one incremental CaDiCaL
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
can fork (:class:`ForkedRc2`, setting ``rc2.fork``): its core
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
import time

from gridlang.core.deadline import BuildTimeout, Deadline, quiet_pysat_sigint
from gridlang.core.errors import BackendError
from gridlang.core.forked import available
from gridlang.exporters.maxsat.dimacs import read_dimacs_solution
from gridlang.exporters.maxsat.form import Lowered, lower
from gridlang.exporters.maxsat.search import ForkedRc2, Lsu, Oracle, Rc2, Sat
from gridlang.exporters.maxsat.settings import MaxSatSettings
from gridlang.ir.backend import Backend, Result, SolveOptions, Status, run_lines
from gridlang.ir.connectivity.separation import root_side_cuts, separator_cuts
from gridlang.ir.connectivity.driver import LoggedOracle, lazy_solve
from gridlang.ir.connectivity.windows import WindowStart, solve_with_window_start
from gridlang.ir.model import Assignment, Clause, Connected, EqualBlocks, GraphConnected, Model, Sense


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
            oracle, algorithm = Sat(model, low, s), "sat"
        elif (s.algorithm == "lsu" or s.algorithm == "auto" and _region_objective(model, low)) \
                and sum(w for w, _ in low.soft) <= s.lsu.max_units:
            oracle, algorithm = Lsu(model, low, s), "lsu"
        else:
            forked = s.rc2.fork and available()
            oracle, algorithm = (ForkedRc2 if forked else Rc2)(model, low, s), "rc2"
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


def _conflicts(oracle: Oracle) -> str:
    """The SAT solver's conflicts so far, for ``--log``."""
    solver = getattr(oracle, "solver", None)
    return f"{solver.accum_stats().get('conflicts', 0):,} conflicts so far" if solver is not None else ""
