"""CP-SAT backend: OR-Tools' CP-SAT solver.

The model is written straight into CP-SAT's model proto (``cp_model.proto``,
through ``cp_model_helper``'s bindings,
:class:`~gridlang.exporters.cpsat.proto.Proto`), the same proto
``ortools.sat.python.cp_model`` would write, without that module's
import of pandas and numpy (0.29 s of a one-off ``gridlang solve``).

Lowering:

* variable ``v`` -> a Boolean variable named ``Var.identifier()`` (``wall_3_4``);
* :class:`~gridlang.ir.model.Clause` -> a ``bool_or`` constraint;
* :class:`~gridlang.ir.model.Linear` -> a linear constraint, with its
  enforcement literals;
* :class:`~gridlang.ir.model.Connected`, by strategy (``--connectivity``):

  ``auto`` (default)
      each node by the encoding measured best for its kind: a path node
      (``Connected.path``, from a path rule) by a circuit constraint, a region of
      known size by the depth-bounded ``tree``, any other region by lazy
      ``cuts``.
  ``cuts``
      the lazy separator-cut loop (logic-based Benders): solve without
      connectivity, add ``x_s <= sum of x over the rim of C`` for every cell s
      of every stray component C (:func:`gridlang.ir.connectivity.separation.separator_cuts`),
      solve again with the last answer as a hint, until no component is stray.
      For a rooted node the rim is cut down to its root side, and the loop
      starts from the one-cell separator cuts of
      :func:`gridlang.ir.connectivity.separation.seed_cuts` (``x_w <= x_a`` when cut
      vertex ``a`` separates cell ``w`` from the roots). On the 12 slowest
      dailies these seeds took CP-SAT's sum from 15.3 to 13.1 s and its
      slowest map (daily-2026-01-05) from 3.63 to 2.56 s; the two-cell
      separators as well made it worse (19.6 s), root-side cuts in every
      round changed nothing (``docs/benchmarks.md``).
  ``flow``
      single-commodity flow, as stated in :mod:`gridlang.ir.connectivity`:
      integer arc flows ``0 <= f[u,v] <= M * x_v`` with ``M`` the number of
      candidate cells minus one, conservation ``in(v) - out(v) = x_v`` at
      every non-root cell; without roots, a root-selection Boolean per cell.
      Adds ``2|E|`` integer variables and ``|V|`` rows per node.
  ``tree``
      a spanning tree by parent pointers and integer depths (the ranking
      encoding of acyclicity; M. Gebser, T. Janhunen, J. Rintanen, "SAT
      modulo graphs: acyclicity", JELIA 2014). Every member that is not a
      root picks a parent ``p[v,u]`` among its candidate neighbours, the
      parent is a member, and ``p[v,u] -> d[u] < d[v]`` for integer depths
      ``0 <= d <= D``; depths strictly fall along parent chains, so every
      chain ends at a root (sound), and a breadth-first tree from the roots
      satisfies it (complete). ``D`` is the size minus one for a region of
      known size (no breadth-first depth reaches it), else the candidate
      count minus one. Without roots, a root-selection Boolean per cell,
      exactly one when the size is known, at most one otherwise. Adds
      ``|V|`` depths and ``2|E|`` parent Booleans per node.

  Path nodes under ``auto``: a circuit constraint over the candidate cells, with
  an arc literal per ordered pair of candidate neighbours, the self-loop
  ``~x_v`` (a cell off the path is skipped) and a fixed arc from the second
  end back to the first: the circuit through the chosen cells is then the
  path from the first end to the second.

* :class:`~gridlang.ir.model.Table` -> CP-SAT's table constraint over the
  literals' variables (a negated literal's column flipped).
* :class:`~gridlang.ir.model.EqualBlocks` (blocks of equal labels), under
  ``auto`` and ``cuts`` by the lazy cuts of
  :func:`gridlang.ir.connectivity.blocks.block_cuts` through the same loop; under
  ``flow`` and ``tree`` (and in a file) by a flow inside each block: per
  cell an integer label code, an integer ``root_of`` (the index of the
  block's root, its lowest cell; a cell is a root exactly when it is its
  own), an integer block size (equal to the label's size when every label
  fixes it) and a root Boolean; per edge a Boolean ``same`` (equal label
  codes, else different), which forces equal ``root_of`` and sizes and
  allows flow both ways (``0 .. H - 1``); the root sends size - 1 units,
  every other cell keeps one. On the real 6x6 and 5x5 Fillominos the flow
  did not prove uniqueness in 120 s where the cut loop took 5 to 9 s, hence
  the default (docs/language.md, "Blocks and runs").

Settings: any CP-SAT parameter, as ``cpsat.NAME`` in
``SolveOptions.extra`` (``--set cpsat.num_workers=4``), checked against
CP-SAT's parameter proto before solving (:class:`CpSatSettings`).
The portfolio, unless ``--workers``, ``cpsat.num_workers`` or
``cpsat.subsolvers`` says otherwise: a model with an objective runs two
workers, CP-SAT's ``max_lp`` subsolver (its search on the full LP
relaxation, with cuts, at ``linearization_level`` 2) beside one for first
solutions and neighbourhood search (:data:`OPTIMIZATION_SUBSOLVERS`,
:data:`OPTIMIZATION_WORKERS`). ``max_lp`` proved almost every enclose.horse
map in CP-SAT's default portfolio of eight, which shared the cores with
six other searches. Alone it took the 214 dailies from a median of 0.114
to 0.069 s and the slowest from 2.9 to 0.67 s. A model without an
objective (a satisfaction or uniqueness question) gets CP-SAT's default
portfolio of 4 workers. A worker count given for a model with an
objective (``--workers 4``) still puts ``max_lp`` first: CP-SAT's own
portfolios of 2 to 4 workers leave it out (they run ``default_lp``,
``core`` and ``no_lp``). Its portfolio of 2 left a 168-cell daily
unproved after 60 s, and ``core`` with ``no_lp`` (4 workers) did not
prove daily-2026-01-07 in 10 minutes.

Measurements behind the strategy and worker choices: ``docs/benchmarks.md``,
"Settings and encodings tried".

``write`` saves the CP-SAT model proto as text (``pbtxt``), with flow
connectivity (or the tree encoding on request) and the seed cuts, a header
that says how to solve it with gridlang's own parameters (a proto cannot
hold them) and a ``.vars.json`` sidecar; ``read_solution`` reads CP-SAT's
response back (:mod:`gridlang.exporters.cpsat.response`).
"""

from __future__ import annotations

import json
import time
from typing import ClassVar

from gridlang.core.deadline import BuildTimeout
from gridlang.core.errors import BackendError
from gridlang.exporters.cpsat.lowering import Lowering, Oracle
from gridlang.exporters.cpsat.settings import (
    OPTIMIZATION_SUBSOLVERS,
    OPTIMIZATION_WORKERS,
    SATISFACTION_WORKERS,
    CpSatSettings,
    conflict_limit_workers,
)
from gridlang.ir.backend import Backend, Result, SolveOptions, Status, run_lines
from gridlang.ir.connectivity.separation import seed_cuts
from gridlang.ir.connectivity.driver import lazy_solve
from gridlang.ir.connectivity.windows import WindowStart, solve_with_window_start
from gridlang.ir.model import Assignment, Clause, Connected, EqualBlocks, GraphConnected, Linear, Model, Table


class CpSatBackend(Backend):
    """OR-Tools CP-SAT. See the module docstring for the lowering."""

    name: ClassVar[str] = "cpsat"
    library: ClassVar[str] = "ortools"
    description: ClassVar[str] = "OR-Tools CP-SAT constraint solver"
    connectivity: ClassVar[tuple[str, ...]] = ("auto", "cuts", "flow", "tree")
    formats: ClassVar[tuple[str, ...]] = ("pbtxt",)
    imports = ("ortools.sat.python.cp_model_helper",)
    native = frozenset({Clause, Linear, Connected, GraphConnected, Table, EqualBlocks})
    settings_class = CpSatSettings
    seeds_cuts = True
    shares_cores = True

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks of the last :meth:`write` (printed by the CLI)."""

    def configure(self, options: SolveOptions) -> CpSatSettings:
        """The CP-SAT parameters of ``options``, checked (:class:`CpSatSettings`), and
        ``max_number_of_conflicts`` refused beside ``--workers`` above 1.

        Raises:
            BackendError: a parameter refused.
        """
        settings = super().configure(options)
        if "max_number_of_conflicts" in settings.parameters and "num_workers" not in settings.parameters:
            conflict_limit_workers(options.workers, "--workers")
        return settings

    def solve(self, model: Model, options: SolveOptions, settings: CpSatSettings | None = None) -> Result:
        """Solve ``model`` with CP-SAT, through the lazy-cut driver for the nodes left to cuts.

        Args:
            model: the compiled model.
            options: time limit, workers, strategy, log, and CP-SAT
                parameters as ``extra["cpsat.NAME"]`` (:class:`CpSatSettings`).
            settings: those parameters, made by :meth:`configure` (None: made here).

        On a large flood fill with an objective (:func:`~gridlang.ir.connectivity.windows.windowed_region`),
        unless ``cpsat.window`` is false or several solutions are asked
        for, a window start comes first: the same solve on the model
        confined to balls around the region's roots, whose best answer is
        the first incumbent. Every call then asks CP-SAT for an answer
        that beats the incumbent (an objective cutoff), so a proof that
        none exists proves the incumbent optimal.

        Returns:
            The result; ``stats`` adds to the driver's ``connectivity``,
            ``wall_time`` (CP-SAT's seconds), ``workers`` (CP-SAT's
            ``num_workers`` in its last call), ``seed_cuts``, ``variables``,
            ``constraints`` (the model's rows in the end) and
            ``cutoff_rows`` (1 once a round had an incumbent to beat, else 0).

        Raises:
            BackendError: an unknown connectivity strategy or CP-SAT parameter.
        """
        settings = settings if settings is not None else self.configure(options)
        return solve_with_window_start(model, options, settings.window,
                                       lambda m, opts, window: self._solve(m, opts, settings, window))

    def _solve(self, model: Model, options: SolveOptions, settings: CpSatSettings,
               window: WindowStart | None = None) -> Result:
        """One lowering and its cut loop, beginning from ``window``'s answer (if any) as the incumbent."""
        strategy = self.strategy(options, model)
        deadline = options.clock()
        start = time.perf_counter()
        try:
            deadline.check()
            built = Lowering(self.prepare(model), strategy, deadline)
            seeds = [cut for con in built.connected if isinstance(con, Connected) for cut in seed_cuts(model.grid, con)]
            for cut in seeds:
                built.add_linear(cut)
            deadline.check()
        except BuildTimeout:
            seconds = time.perf_counter() - start
            return Result(Status.UNKNOWN, seconds=seconds, build_seconds=seconds,
                          stats={"connectivity": strategy, "cut_rounds": 0, "cuts": 0, "solver_calls": 0,
                                 "reason": f"{deadline.cause()} while the CP-SAT model was built"})
        build_seconds = time.perf_counter() - start
        oracle = Oracle(built, options, settings)
        out = lazy_solve(model, oracle, built.connected, deadline,
                         start=window.assignment if window is not None else None)
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        res = Result(status, out.assignment, out.objective, out.bound)
        res.seconds = time.perf_counter() - start
        res.build_seconds = build_seconds
        res.stats.update(out.stats)
        res.stats.update({"connectivity": strategy, "wall_time": oracle.wall_time, "workers": oracle.workers,
                          "seed_cuts": len(seeds), "variables": built.num_variables(),
                          "constraints": built.num_constraints(), "cutoff_rows": built.cutoff_rows()})
        return res

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write the CP-SAT model proto as text, a complete model, and its ``.vars.json`` sidecar.

        Connectivity: ``flow`` unless ``options.connectivity`` (or the spec's
        ``connectivity`` statement) asks for ``tree``. A request for ``cuts`` or ``auto`` (whose cut loop cannot
        live in a file) gets ``flow`` and a note in :attr:`notes`. Rooted
        regions get the one-cell separator cuts gridlang's own solve starts
        from (:func:`gridlang.ir.connectivity.separation.seed_cuts`), valid for every
        answer. The header comments name the puzzle, its provenance and
        parameters, the encoding, and how to solve the file with the
        parameters gridlang solves with (CP-SAT's portfolio on fewer than 8
        workers leaves out ``max_lp``, whose linear relaxation holds the
        clauses, and proves little on these maps without it: the figures
        are in docs/benchmarks.md, "The pbtxt export") and read the answer
        back (:meth:`read_solution`). The sidecar maps every proto variable,
        by index, to its record
        (:meth:`~gridlang.exporters.cpsat.lowering.Lowering.variable_map`).

        Returns:
            ``[path, path + ".vars.json"]``.

        Raises:
            BackendError: ``fmt`` is not ``pbtxt``, the strategy is not
                one this backend offers, or a line genre's region is
                connected through chosen edges other than a single loop.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'cpsat' writes {', '.join(self.formats)}, not {fmt!r}")
        requested = self.strategy(options, model) if self.requested(options, model) is not None else "flow"
        strategy = requested if requested in ("flow", "tree") else "flow"
        self.notes = []
        if strategy != requested:
            self.notes.append(f"the {requested} strategy's cut loop cannot live in a file; "
                              "the file uses single-commodity flow for connectivity")
        prepared = self.prepare(model)
        built = Lowering(prepared, strategy)
        if built.connected:
            raise BackendError(f"{built.connected[0].name!r} is connected through chosen edges, which CP-SAT "
                               "lowers by a circuit for a single loop and by the lazy cut loop otherwise; a file "
                               "cannot hold the loop")
        seeds = [cut for con in prepared.constraints if isinstance(con, Connected)
                 for cut in seed_cuts(model.grid, con)]
        for cut in seeds:
            built.add_linear(cut)
        lines = [f"gridlang pbtxt export: {model.name}", *model.provenance(),
                 f"grid: {model.grid.rows} rows x {model.grid.cols} columns",
                 f"connectivity: {strategy}",
                 f"seed cuts: {len(seeds)} (one-cell separator cuts, valid for every answer)",
                 f"variables: {built.num_variables()} ({model.num_vars} model, "
                 f"{built.num_variables() - model.num_vars} auxiliary), constraints: {built.num_constraints()}"]
        lines += run_lines("pbtxt", _run_command(model.objective is not None))
        lines.append("variable map: FILE.vars.json (proto variable index -> cell)")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(f"# {' '.join(line.split())}\n" for line in lines) + str(built.cp.proto))
        side = path + ".vars.json"
        with open(side, "w", encoding="utf-8", newline="\n") as f:
            f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in built.variable_map().items())
                    + "\n}\n")
        return [path, side]

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read CP-SAT's response to a file this backend wrote (``str(solver.response_proto)``).

        The model's variables are the proto's first ones, in order
        (:func:`gridlang.exporters.cpsat.response.read_cpsat_response`); flows, depths and
        the other auxiliary variables after them are ignored.

        Returns:
            The assignment of the model's variables.

        Raises:
            MapError: the response is malformed, reports no solution, or
                gives too few or non-Boolean values, with the file, line
                and column.
        """
        from gridlang.exporters.cpsat.response import read_cpsat_response  # only here: a solve does not pay its import

        return Assignment(read_cpsat_response(str(path), model.num_vars))


def _run_command(objective: bool) -> str:
    """The header's command that solves a ``pbtxt`` file with gridlang's own portfolio (the
    wheel has no CP-SAT executable; ``ortools.sat.python`` reads the file and writes the response)."""
    if objective:
        params = (f"s.parameters.num_workers = {OPTIMIZATION_WORKERS}; s.parameters.subsolvers.extend(["
                  + ", ".join(f"'{name}'" for name in OPTIMIZATION_SUBSOLVERS) + "])")
    else:
        params = f"s.parameters.num_workers = {SATISFACTION_WORKERS}"
    return ("python -c \"from ortools.sat.python import cp_model as c; m = c.CpModel(); "
            "m.proto.parse_text_format(open('FILE').read()); s = c.CpSolver(); " + params
            + "; s.solve(m); open('ANSWER', 'w').write(str(s.response_proto))\"")
