"""CP-SAT backend: OR-Tools' CP-SAT solver.

The model is written straight into CP-SAT's model proto (``cp_model.proto``,
through ``cp_model_helper``'s bindings, :class:`_Proto`), the same proto
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
      of every stray component C (:func:`gridlang.ir.connectivity.separator_cuts`),
      solve again with the last answer as a hint, until no component is stray.
      For a rooted node the rim is cut down to its root side, and the loop
      starts from the one-cell separator cuts of
      :func:`gridlang.ir.connectivity.seed_cuts` (``x_w <= x_a`` when cut
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
import sys
import time
from typing import ClassVar, Mapping

from gridlang.core.deadline import BuildTimeout, Deadline, run_solver
from gridlang.core.errors import BackendError, closest
from gridlang.core.nodes import field, node
from gridlang.core.settings import Settings, frozen_mapping
from gridlang.ir.backend import Backend, Result, SolveOptions, Status, run_lines
from gridlang.ir.connectivity import flow_arcs, seed_cuts
from gridlang.ir.connectivity.blocks import BlockPlan
from gridlang.ir.connectivity.driver import Round, lazy_solve
from gridlang.ir.connectivity.windows import WindowStart, solve_with_window_start
from gridlang.ir.model import (
    Assignment,
    Clause,
    Cmp,
    Connected,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
    Sense,
    Table,
    affine,
)

OPTIMIZATION_SUBSOLVERS = ("max_lp", "core", "default_lp", "no_lp", "quick_restart", "reduced_costs")
"""The full-problem subsolvers of a model with an objective (CP-SAT's names):
CP-SAT's own list for 8 workers, ``max_lp`` first. CP-SAT runs the first
``num_workers - 1`` of them, beside a worker for first solutions."""
OPTIMIZATION_WORKERS = 2
"""Workers of a model with an objective, by default: ``max_lp`` and a helper."""
SATISFACTION_WORKERS = 4
"""Workers of a model without an objective, by default (CP-SAT's own portfolio of that size)."""


@node(slots=False)
class CpSatSettings(Settings):
    """The CP-SAT backend's settings: CP-SAT's own parameters.

    Every ``cpsat.NAME`` key of ``SolveOptions.extra`` is the CP-SAT
    parameter ``NAME`` (``--set cpsat.num_workers=4``), checked against
    CP-SAT's parameter proto (``SatParameters``) before solving and set on
    every solver run after gridlang's own choices (workers, time limit,
    log), which it overrides; except ``cpsat.window``, gridlang's own. An
    enum parameter takes its value's name, in any case, or number
    (``--set cpsat.search_branching=fixed_search``).

    Attributes:
        parameters: parameter name -> value.
        window: run the window start (:mod:`gridlang.ir.connectivity.windows`)
            where it applies; ``--set cpsat.window=false`` turns it off.
    """

    parameters: Mapping[str, object] = field(default_factory=frozen_mapping)
    window: bool = True

    @classmethod
    def read(cls, backend: str, extra: Mapping[str, object]) -> CpSatSettings:
        """Every ``<backend>.NAME`` key of ``extra`` as the CP-SAT parameter ``NAME``, checked.

        Raises:
            BackendError: CP-SAT has no such parameter, or refuses the
                value's type, or an enum parameter has no such value.
        """
        prefix = backend + "."
        given = {k[len(prefix):]: v for k, v in extra.items() if k.startswith(prefix)}
        window = given.pop("window", True)
        out = cls(frozen_mapping(given), window)
        out.check(backend)
        return out

    def check(self, backend: str) -> None:
        """Set every parameter on a scratch ``SatParameters``.

        Raises:
            BackendError: an unknown parameter, a value of a type it does not take, or
                an enum parameter's value that is none of its names or numbers.
        """
        if not isinstance(self.window, bool):
            raise BackendError(f"backend {backend!r}: setting 'window' takes true or false, not {self.window!r}")
        if not self.parameters:
            return
        from ortools.sat import sat_parameters_pb2  # protobuf's, for its field descriptors

        scratch = sat_parameters_pb2.SatParameters()
        fields = scratch.DESCRIPTOR.fields_by_name
        for name, value in self.parameters.items():
            if name not in fields:
                close = closest(name, list(fields) + ["window"])
                raise BackendError(f"CP-SAT has no parameter {name!r}"
                                   + (f"; did you mean {backend}.{close}?" if close else ""))
            if fields[name].is_repeated and (name not in _REPEATED or not isinstance(value, str)):
                raise BackendError(f"CP-SAT parameter {name!r} is a list; --set gives only "
                                   f"{', '.join(sorted(_REPEATED))}, as names separated by commas, "
                                   f"not {value!r}")
            if fields[name].enum_type is not None:
                _enum_number(name, value, {v.name: v.number for v in fields[name].enum_type.values})
                continue
            try:
                _set_parameter(scratch, name, value)
            except (AttributeError, TypeError, ValueError) as e:
                kind = type(getattr(scratch, name)).__name__
                raise BackendError(f"CP-SAT parameter {name!r} takes a value of type {kind}, not {value!r}") from e
        conflicts = self.parameters.get("max_number_of_conflicts")
        if conflicts is not None and conflicts <= 0:
            # CP-SAT takes it and stops before the first conflict: every run UNKNOWN.
            raise BackendError(f"CP-SAT parameter 'max_number_of_conflicts' must be at least 1, not {conflicts!r}")
        if conflicts is not None:
            conflict_limit_workers(self.parameters.get("num_workers"), "num_workers")
        for name, why in REFUSED.items():
            if name in self.parameters and self.parameters[name] not in (False, 0):
                raise BackendError(f"CP-SAT parameter {name!r} is refused: {why}")


REFUSED = {
    "fix_variables_to_their_hinted_value": "gridlang hints each cut round with the last answer, so CP-SAT "
                                           "would search only that answer and call the puzzle infeasible "
                                           "or that answer optimal without a proof",
    "enumerate_all_solutions": "gridlang enumerates answers itself (--count, --unique) with blocking "
                               "clauses; CP-SAT's own enumeration finds every answer before it returns "
                               "and reports only the last",
}
"""CP-SAT parameters that change what its answers mean, each refused with the reason."""


def conflict_limit_workers(workers: object, where: str) -> None:
    """Refuse ``max_number_of_conflicts`` beside more than one worker.

    CP-SAT applies the limit to each of its internal SAT searches, not to a
    run: with several workers, its neighbourhood searches never reach it
    and the run does not stop (a 14x12 daily still ran after 45 s). One
    worker stops at it.

    Raises:
        BackendError: ``workers`` (from ``where``) is more than 1.
    """
    if isinstance(workers, int) and workers > 1:
        raise BackendError(f"CP-SAT parameter 'max_number_of_conflicts' holds for one worker only (CP-SAT counts "
                           f"conflicts per internal search, and its other workers never stop at it); "
                           f"it runs with one worker, not {where} {workers}: give a time limit instead")


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
            built = _Lowering(self.prepare(model), strategy, deadline)
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
        oracle = _Oracle(built, options, settings)
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
        from (:func:`gridlang.ir.connectivity.seed_cuts`), valid for every
        answer. The header comments name the puzzle, its provenance and
        parameters, the encoding, and how to solve the file with the
        parameters gridlang solves with (CP-SAT's portfolio on fewer than 8
        workers leaves out ``max_lp``, whose linear relaxation holds the
        clauses, and proves little on these maps without it: the figures
        are in docs/benchmarks.md, "The pbtxt export") and read the answer
        back (:meth:`read_solution`). The sidecar maps every proto variable,
        by index, to its record (:meth:`_Lowering.variable_map`).

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
        built = _Lowering(prepared, strategy)
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


class _Lowering:
    """The IR as a CP-SAT model proto (:class:`_Proto`); kept between cut rounds.

    IR variable ``i`` (1-based) is proto variable ``i - 1``, so an IR
    literal ``l`` is the proto reference :func:`_ref` gives.
    ``connected`` lists the nodes left to the cut loop (lowered lazily).
    """

    def __init__(self, model: Model, strategy: str, deadline: Deadline | None = None):
        """Raises :class:`~gridlang.core.deadline.BuildTimeout` when ``deadline``
        (read every 16,384 constraints) passes first."""
        self.model = model
        self.cp = cp = _Proto(model.name)
        self.x = [cp.bool_var(v.identifier()) for v in model.variables]
        self.connected: list[Connected] = []
        self.aux: dict[int, tuple[str, str, tuple[int, ...], bool]] = {}
        """Proto index of each auxiliary variable -> (family, region, cells or vertices, on a graph)."""
        self._cutoff: int | None = None
        for k, con in enumerate(model.constraints):
            if deadline is not None and not k & 0x3FFF:
                deadline.check()
            if isinstance(con, Clause):
                cp.bool_or([_ref(l) for l in con.lits])
            elif isinstance(con, Linear):
                self.add_linear(con)
            elif isinstance(con, Table):
                self.add_table(con)
            elif isinstance(con, EqualBlocks):
                if strategy in ("auto", "cuts"):
                    self.connected.append(con)
                else:
                    self.add_blocks(con)
            elif isinstance(con, GraphConnected):
                if con.loop and strategy != "cuts":
                    self.add_loop(con)
                elif con.roots and strategy == "tree":
                    self.add_graph_tree(con)
                else:
                    self.connected.append(con)
            else:  # Connected: the model is prepared (Backend.prepare)
                encoding = _encoding(con, strategy)
                if encoding == "cuts":
                    self.connected.append(con)
                elif encoding == "flow":
                    self.add_flow(con)
                elif encoding == "tree":
                    self.add_tree(con)
                else:
                    self.add_circuit(con)
        obj = model.objective
        if obj is not None:
            cp.objective([(c, _ref(l)) for c, l in obj.terms], obj.constant, obj.sense is Sense.MAXIMIZE)

    def aux_var(self, family: str, tag: str, ends: tuple[int, ...], high: int = 1, graph: bool = False) -> int:
        """A new auxiliary variable in ``[0, high]``, named ``FAMILY_TAG_END...`` (``flow_pen_14_15``);
        its index. ``ends`` are cells, or a graph's vertices when ``graph``."""
        index = self.cp.int_var(0, high, f"{family}_{tag}_" + "_".join(map(str, ends)))
        self.aux[index] = (family, tag, ends, graph)
        return index

    def variable_map(self) -> dict[str, dict[str, object]]:
        """The ``.vars.json`` sidecar: proto variable index -> its record, for every variable.

        A model variable's record is :meth:`gridlang.ir.model.Model.variable_record`
        with ``name`` (the proto's), ``index`` (the IR's) and ``aux`` false;
        an auxiliary one gives ``name``, ``var``, ``family`` (``flow``,
        ``depth``, ``parent``, ``root``, ``arc``, ``constant``), ``cell``
        (its first cell, or null on a graph of corners), ``arc`` (for two
        cells) or ``vertices``, and ``aux`` true.
        """
        grid = self.model.grid
        out: dict[str, dict[str, object]] = {}
        for i, var in enumerate(self.model.variables):
            out[str(i)] = {"name": var.identifier(), **self.model.variable_record(i + 1), "index": i + 1,
                           "aux": False}
        constants = self.cp.constants()
        for index in range(len(self.model.variables), len(self.cp.proto.variables)):
            name = self.cp.proto.variables[index].name
            if index in constants:
                out[str(index)] = {"name": name, "var": f"constant {constants[index]}", "family": "constant",
                                   "cell": None, "value": constants[index], "aux": True}
                continue
            family, tag, ends, graph = self.aux[index]
            if graph:
                record = {"var": f"{family}({tag})[{'->'.join(map(str, ends))}]", "cell": None,
                          "vertices": list(ends)}
            else:
                cells = [list(grid.cell(c)) for c in ends]
                text = "->".join(f"{r},{c}" for r, c in cells)
                record = {"var": f"{family}({tag})[{text}]", "cell": cells[0]}
                if len(cells) == 2:
                    record["arc"] = cells
            out[str(index)] = {"name": name, **record, "family": family, "value": None, "aux": True}
        return out

    def add_linear(self, con: Linear) -> None:
        terms = [(c, _ref(l)) for c, l in con.terms]
        low = con.rhs if con.op is not Cmp.LE else None
        high = con.rhs if con.op is not Cmp.GE else None
        self.cp.linear(terms, low, high, [_ref(l) for l in con.enforce])

    def add_flow(self, con: Connected) -> None:
        cp = self.cp
        member = dict(con.members)
        cells = sorted(member)
        if not cells:
            return
        # Arc capacity n - 1 suffices, but without fixed roots the chosen
        # root's balance is relaxed by big_m * pick and must reach -(n - 1)
        # from +1, so big_m is n: with n - 1 the full candidate set is lost.
        big_m = len(cells)
        if con.size is not None:
            # A region of known size k: the root sends k - 1 units, so k suffices.
            big_m = max(min(big_m, con.size), 1)
        roots = set(con.roots)
        tag = con.name or "region"
        flow = {}
        for u, v in flow_arcs(self.model.grid, con):
            f = self.aux_var("flow", tag, (u, v), big_m)
            cp.linear([(1, f), (-big_m, _ref(member[v]))], None, 0)  # f <= big_m * x_v
            flow[u, v] = f
        balance: dict[int, list[tuple[int, int]]] = {v: [] for v in cells}  # in(v) - out(v)
        for (u, v), f in flow.items():
            balance[u].append((-1, f))
            balance[v].append((1, f))
        if roots:
            for v in cells:
                if v not in roots:
                    cp.linear(balance[v] + [(-1, _ref(member[v]))], 0, 0)
            return
        # No fixed root: the solver picks one member as the source.
        pick = {v: self.aux_var("root", tag, (v,)) for v in cells}
        for v in cells:
            cp.implication(pick[v], _ref(member[v]))
            # in(v) - out(v) >= x_v - big_m * pick_v
            cp.linear(balance[v] + [(-1, _ref(member[v])), (big_m, pick[v])], 0, None)
        cp.at_most_one(pick.values())
        # A non-empty region has a root.
        for v in cells:
            cp.bool_or([~_ref(member[v])] + list(pick.values()))

    def add_tree(self, con: Connected) -> None:
        cp = self.cp
        member = dict(con.members)
        if not member:
            return
        limit = (con.size if con.size is not None else len(member)) - 1
        tag = con.name or "region"
        depth = {v: self.aux_var("depth", tag, (v,), max(limit, 0)) for v in member}
        roots = set(con.roots)
        pick = {}
        if roots:
            for r in roots:
                cp.linear([(1, depth[r])], 0, 0)
        else:
            pick = {v: self.aux_var("root", tag, (v,)) for v in member}
            for v, r in pick.items():
                cp.implication(r, _ref(member[v]))
            if con.size is not None and con.size >= 1:
                cp.exactly_one(pick.values())
            else:
                cp.at_most_one(pick.values())
        for v in member:
            if v in roots:
                continue
            parents = []
            for u in self.model.grid.neighbours[v]:
                if u not in member or u == v:
                    continue
                p = self.aux_var("parent", tag, (v, u))
                cp.implication(p, _ref(member[u]))
                cp.linear([(1, depth[u]), (-1, depth[v])], None, -1, [p])  # depth[u] < depth[v]
                parents.append(p)
            alternatives = parents + ([pick[v]] if pick else [])
            cp.bool_or([~_ref(member[v])] + alternatives)

    def add_circuit(self, con: Connected) -> None:
        cp = self.cp
        member = dict(con.members)
        first, last = con.roots
        arcs = [(last, first, cp.constant(1))]
        for v in member:
            if v not in con.roots:
                arcs.append((v, v, ~_ref(member[v])))
            for u in self.model.grid.neighbours[v]:
                if u in member and u != v and (v, u) != (last, first):
                    arcs.append((v, u, self.aux_var("arc", con.name or "path", (v, u))))
        cp.circuit(arcs)

    def add_loop(self, con: GraphConnected) -> None:
        """A single loop by a circuit constraint: two arcs per edge (``e == a_uv + a_vu``), and a
        self-loop ``~o(v)`` per vertex, so that the vertices off the loop are skipped."""
        cp = self.cp
        index = {v: i for i, (v, _lit) in enumerate(con.members)}
        arcs = [(i, i, ~_ref(lit)) for i, (_v, lit) in enumerate(con.members)]
        for u, v, lit in con.edges:
            there = self.aux_var("arc", con.name, (u, v), graph=True)
            back = self.aux_var("arc", con.name, (v, u), graph=True)
            cp.linear([(1, there), (1, back), (-1, _ref(lit))], 0, 0)
            arcs += [(index[u], index[v], there), (index[v], index[u], back)]
        cp.circuit(arcs)

    def add_graph_tree(self, con: GraphConnected) -> None:
        """What the roots reach through chosen edges, as a tree of depths: each member but a root
        has a parent, a member one chosen edge away and less deep (depths 0 to members - 1)."""
        cp = self.cp
        member = dict(con.members)
        depth = {v: self.aux_var("depth", con.name, (v,), max(len(member) - 1, 0), graph=True) for v in member}
        for r in con.roots:
            cp.linear([(1, depth[r])], 0, 0)
        parents: dict[int, list] = {v: [] for v in member}
        for u, v, lit in con.edges:
            for a, b in ((u, v), (v, u)):  # a parent of b
                if b in con.roots:
                    continue
                p = self.aux_var("parent", con.name, (b, a), graph=True)
                cp.implication(p, _ref(lit))
                cp.implication(p, _ref(member[a]))
                cp.linear([(1, depth[a]), (-1, depth[b])], None, -1, [p])  # depth[a] < depth[b]
                parents[b].append(p)
        for v, ps in parents.items():
            if v not in con.roots:
                cp.bool_or([~_ref(member[v])] + ps)

    def add_table(self, con: Table) -> None:
        """A table constraint over the literals' variables (a negated literal's column flipped)."""
        rows = [[int(bit == (lit > 0)) for bit, lit in zip(row, con.lits)] for row in con.allowed]
        self.cp.table([abs(lit) - 1 for lit in con.lits], rows)

    def add_blocks(self, con: EqualBlocks) -> None:
        """Blocks of equal labels by a flow inside each block from its one root (see the module docstring)."""
        cp, plan = self.cp, BlockPlan.of(self.model.grid, con)
        tag = con.name or "blocks"
        label, size, ident, root = {}, {}, {}, {}
        outflow: dict[int, list[int]] = {q: [] for q in plan.cells}
        inflow: dict[int, list[int]] = {q: [] for q in plan.cells}
        for q in plan.cells:
            options = plan.options[q]
            label[q] = self.aux_var("label", tag, (q,), len(plan.labels) - 1)
            cp.linear([(1, label[q])] + [(-plan.code(v), _ref(lit)) for v, lit in options.items()], 0, 0)
            size[q] = self.aux_values("size", tag, (q,), range(1, plan.reach[q] + 1))
            exact = plan.exact(q)
            if exact is not None:
                cp.linear([(1, size[q])] + [(-n, _ref(options[v])) for v, n in exact.items()], 0, 0)
            else:
                for v, (lo, hi) in plan.bounds.get(q, {}).items():
                    cp.linear([(1, size[q])], lo, hi, [_ref(options[v])])
            ident[q] = self.aux_values("root_of", tag, (q,), plan.roots(q))
            root[q] = self.aux_var("root", tag, (q,))
            cp.linear([(1, ident[q])], q, q, [root[q]])
            cp.linear([(1, ident[q])], None, q - 1, [~root[q]])
        for u, w in plan.edges:
            same = self.aux_var("same", tag, (u, w))
            cp.linear([(1, label[u]), (-1, label[w])], 0, 0, [same])
            cp.linear_apart([(1, label[u]), (-1, label[w])], [~same])
            cp.linear([(1, ident[u]), (-1, ident[w])], 0, 0, [same])
            cp.linear([(1, size[u]), (-1, size[w])], 0, 0, [same])
            cap = min(plan.reach[u], plan.reach[w]) - 1
            for a, b in ((u, w), (w, u)):
                f = self.aux_var("flow", tag, (a, b), cap)
                cp.linear([(1, f)], None, 0, [~same])
                outflow[a].append(f)
                inflow[b].append(f)
        for q in plan.cells:
            net = [(1, f) for f in outflow[q]] + [(-1, f) for f in inflow[q]]
            cp.linear(net + [(-1, size[q])], -1, -1, [root[q]])  # the root sends size - 1
            cp.linear(net, -1, -1, [~root[q]])  # every other cell keeps one unit

    def aux_values(self, family: str, tag: str, ends: tuple[int, ...], values) -> int:
        """An auxiliary variable (:meth:`aux_var`) taking one of ``values``, ascending integers."""
        values = list(values)
        index = self.aux_var(family, tag, ends, values[-1])
        domain = self.cp.proto.variables[index].domain
        domain.clear()
        start = 0
        for k in range(1, len(values) + 1):
            if k == len(values) or values[k] != values[k - 1] + 1:
                domain.extend((values[start], values[k - 1]))
                start = k
        return index

    def hint(self, assignment: Assignment) -> None:
        self.cp.hint(self.x, assignment.values)

    def cutoff(self, incumbent: int) -> None:
        """Require an objective better than ``incumbent``: one row, whose bounds later calls move."""
        obj = self.model.objective
        terms = [(c, _ref(l)) for c, l in obj.terms]
        if obj.sense is Sense.MAXIMIZE:
            low, high = incumbent + 1 - obj.constant, None
        else:
            low, high = None, incumbent - 1 - obj.constant
        if self._cutoff is None:
            self._cutoff = len(self.cp.proto.constraints)
            self.cp.linear(terms, low, high)
        else:
            self.cp.relimit(self._cutoff, terms, low, high)

    def cutoff_rows(self) -> int:
        """1 once :meth:`cutoff` has added its row, else 0."""
        return int(self._cutoff is not None)

    def num_variables(self) -> int:
        return len(self.x) + len(self.aux)

    def num_constraints(self) -> int:
        return len(self.cp.proto.constraints)


def _ref(l: int) -> int:
    """The CP-SAT reference of IR literal ``l``: variable ``|l| - 1``, or its negation ``-|l|``."""
    return l - 1 if l > 0 else l


_INT64 = (-(2 ** 63), 2 ** 63 - 1)


class _Proto:
    """A CP-SAT model, written straight into CP-SAT's model proto (``cp_model.proto``).

    The proto is the solver's own input format, the one every OR-Tools
    front end writes; building it through ``cp_model_helper``'s bindings
    skips ``ortools.sat.python.cp_model``, whose import (pandas among it)
    costs some 0.3 s of a one-off ``gridlang solve`` (docs/benchmarks.md).
    Every constraint is stated as ``cp_model`` states it, so the proto is
    the same, text for text (``tests/backends/test_cpsat.py``).

    A reference is a variable's index ``i`` or, for a Boolean, ``~i`` (its
    negation, CP-SAT's ``-i - 1``). Linear terms are ``(coefficient,
    reference)`` pairs; a negated Boolean ``~x`` is ``1 - x``.
    """

    def __init__(self, name: str):
        from ortools.sat.python import cp_model_helper

        self.helper = cp_model_helper
        self.proto = cp_model_helper.CpModelProto()
        self.proto.name = name
        self._variables = self.proto.variables
        self._constraints = self.proto.constraints
        self._count = 0
        self._constants: dict[int, int] = {}

    def int_var(self, low: int, high: int, name: str = "") -> int:
        """A new integer variable in ``[low, high]``; its index."""
        v = self._variables.add()
        v.domain.extend((low, high))
        if name:
            v.name = name
        self._count += 1
        return self._count - 1

    def bool_var(self, name: str) -> int:
        """A new Boolean variable; its index."""
        return self.int_var(0, 1, name)

    def constant(self, value: int) -> int:
        """A variable fixed to ``value`` (one per value)."""
        if value not in self._constants:
            self._constants[value] = self.int_var(value, value)
        return self._constants[value]

    def constants(self) -> dict[int, int]:
        """The variables :meth:`constant` made: index -> value."""
        return {index: value for value, index in self._constants.items()}

    def bool_or(self, refs, enforce=()) -> None:
        """At least one of ``refs`` holds (when every ``enforce`` literal does)."""
        ct = self._constraints.add()
        if enforce:
            ct.enforcement_literal.extend(list(enforce))
        ct.bool_or.literals.extend(list(refs))

    def implication(self, a: int, b: int) -> None:
        """``a`` implies ``b``."""
        ct = self._constraints.add()
        ct.enforcement_literal.append(a)
        ct.bool_and.literals.append(b)

    def at_most_one(self, refs) -> None:
        self._constraints.add().at_most_one.literals.extend(list(refs))

    def exactly_one(self, refs) -> None:
        self._constraints.add().exactly_one.literals.extend(list(refs))

    def linear(self, terms, low: int | None, high: int | None, enforce=()) -> None:
        """``low <= sum of terms <= high`` (None: unbounded), when every ``enforce`` literal holds."""
        self._row(terms, (low, high), enforce)

    def _row(self, terms, bounds, enforce) -> None:
        """``sum of terms`` in the union of the intervals ``bounds`` (pairs of bounds, None: unbounded)."""
        offset, vars_ = _linear(terms)
        ct = self._constraints.add()
        if enforce:
            ct.enforcement_literal.extend(list(enforce))
        row = ct.linear
        row.vars.extend(list(vars_))
        row.coeffs.extend(list(vars_.values()))
        row.domain.extend(_INT64[k % 2] if b is None else b - offset for k, b in enumerate(bounds))

    def linear_apart(self, terms, enforce=()) -> None:
        """``sum of terms != 0`` (when every ``enforce`` literal holds)."""
        self._row(terms, (None, -1, 1, None), enforce)

    def table(self, variables, rows) -> None:
        """The variables (indices, Booleans) take one of ``rows`` (lists of 0 and 1): CP-SAT's table constraint."""
        ct = self._constraints.add().table
        ct.vars.extend(list(variables))
        for row in rows:
            ct.values.extend(row)

    def relimit(self, index: int, terms, low: int | None, high: int | None) -> None:
        """Move the bounds of linear constraint ``index``, made by :meth:`linear` from the same ``terms``."""
        offset, _ = _linear(terms)
        domain = self._constraints[index].linear.domain
        domain[0] = _INT64[0] if low is None else low - offset
        domain[1] = _INT64[1] if high is None else high - offset

    def circuit(self, arcs) -> None:
        """A circuit over ``(tail, head, literal)`` arcs (a self-loop skips its node)."""
        c = self._constraints.add().circuit
        for tail, head, lit in arcs:
            c.tails.append(tail)
            c.heads.append(head)
            c.literals.append(lit)

    def objective(self, terms, constant: int, maximize: bool) -> None:
        """Minimise (or maximise) ``sum of terms + constant``; a maximum is a negated minimum,
        scaled by -1, as ``cp_model`` writes it."""
        terms = list(terms)
        offset, vars_ = _linear(terms)
        sign = -1 if maximize and terms else 1  # a constant objective is written as a minimum
        obj = self.proto.objective
        obj.vars.extend(list(vars_))
        obj.coeffs.extend([sign * c for c in vars_.values()])
        obj.offset = sign * (offset + constant)
        obj.scaling_factor = sign

    def hint(self, refs, values) -> None:
        """Replace the solution hint: variable ``refs[i]`` takes ``values[i]``."""
        self.proto.clear_solution_hint()
        self.proto.solution_hint.vars.extend(list(refs))
        self.proto.solution_hint.values.extend([int(v) for v in values])


def _linear(terms) -> tuple[int, dict[int, int]]:
    """``terms`` (coefficient, reference) as a constant and a coefficient per variable,
    sorted by index, zeros dropped (:func:`gridlang.ir.model.affine`, whose literal ``l``
    is reference ``l - 1``, or ``l`` when negative)."""
    coefs, const = affine((c, ref + 1 if ref >= 0 else ref) for c, ref in terms)
    return const, {v: coefs[v] for v in sorted(coefs)}


class _Oracle:
    """The driver's view of a :class:`_Lowering`: one CP-SAT run (a ``SolveWrapper``) per call."""

    improving = False

    def __init__(self, built: _Lowering, options: SolveOptions, settings: CpSatSettings):
        self.built = built
        self.options = options
        self.settings = settings
        self.wall_time = 0.0
        self.workers = 0

    def add(self, cuts: list[Linear]) -> None:
        for cut in cuts:
            self.built.add_linear(cut)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        self.built.hint(last)

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        built, options = self.built, self.options
        objective = built.model.objective
        if incumbent is not None and objective is not None:
            built.cutoff(incumbent)
        helper = built.cp.helper
        params = helper.SatParameters()
        if "max_number_of_conflicts" in self.settings.parameters:
            params.num_workers = 1  # the only portfolio that stops at it (conflict_limit_workers)
        elif objective is not None:
            params.num_workers = options.workers or OPTIMIZATION_WORKERS
            if "subsolvers" not in self.settings.parameters:
                params.subsolvers.extend(OPTIMIZATION_SUBSOLVERS)
        else:
            params.num_workers = options.workers or SATISFACTION_WORKERS
        params.log_search_progress = options.log
        params.log_to_stdout = False
        params.catch_sigint_signal = False  # Ctrl-C is the deadline's (gridlang.core.deadline)
        remaining = deadline.remaining()
        if remaining is not None:
            params.max_time_in_seconds = max(remaining, 0.01)
        for name, value in self.settings.parameters.items():
            _set_parameter(params, name, value)  # checked by CpSatSettings
        self.workers = params.num_workers
        solver = helper.SolveWrapper()  # made before the call, so that a stop always reaches it
        solver.set_parameters(params)
        if options.log:
            solver.add_log_callback(_log_to_stderr)
        response = run_solver(deadline, lambda: solver.solve(built.cp.proto), solver.stop_search)
        self.wall_time += response.wall_time
        code, status = response.status, helper.CpSolverStatus
        if code == status.MODEL_INVALID:
            # The validator explains a bad model; a bad parameter value (one the
            # proto's types allow) is explained in the response's solution_info.
            why = helper.CpSatHelper.validate_model(built.cp.proto)
            if why:
                raise BackendError("CP-SAT rejected the model: " + " ".join(why.split()))
            why = response.solution_info or "no reason given"
            raise BackendError("CP-SAT refused its parameters: " + " ".join(why.split()))
        if code == status.INFEASIBLE:
            return Round("infeasible")
        if code not in (status.OPTIMAL, status.FEASIBLE):
            # No bound: stopped before its search, CP-SAT reports 0.0 for any
            # objective (measured with 1e-5 to 0.05 s), which is no bound at all.
            return Round("unknown")
        values = response.solution
        assignment = Assignment(tuple(bool(values[i]) for i in built.x))
        bound = None
        if objective is not None:
            bound = response.best_objective_bound
            if int(round(response.objective_value)) != objective.value(assignment):
                raise BackendError(f"CP-SAT reports the objective {response.objective_value:g}, but its answer "
                                   f"scores {objective.value(assignment)} in the model")
        return Round("optimal" if code == status.OPTIMAL else "feasible", assignment, bound)


_REPEATED = frozenset({"subsolvers", "extra_subsolvers", "ignore_subsolvers", "filter_subsolvers"})
"""CP-SAT's lists of names, which a ``--set`` gives comma-separated."""


def _set_parameter(params, name: str, value: object) -> None:
    """Set CP-SAT parameter ``name`` on a fresh ``params``; one of :data:`_REPEATED`
    from a comma-separated string (``--set cpsat.subsolvers=max_lp,core`` runs
    those two full-problem workers instead of the default portfolio); an enum
    of ``cp_model_helper.SatParameters`` from its value's name or number
    (:func:`_enum_number`).

    Raises:
        TypeError, ValueError, AttributeError: the proto refuses the value.
        BackendError: an enum parameter has no such value.
    """
    if name in _REPEATED:
        getattr(params, name).extend(item.strip() for item in str(value).split(",") if item.strip())
        return
    kind = type(getattr(params, name))
    members = getattr(kind, "__members__", None)
    if members is not None:
        value = kind(_enum_number(name, value, {key: int(member) for key, member in members.items()}))
    setattr(params, name, value)


def _enum_number(name: str, value: object, numbers: Mapping[str, int]) -> int:
    """The number of ``value`` (a name, in any case, or a number) among ``numbers``,
    the values of CP-SAT's enum parameter ``name`` (name -> number, in the proto's order).

    Raises:
        BackendError: ``value`` is none of the names or numbers.
    """
    if isinstance(value, str):
        by_name = {key.upper(): number for key, number in numbers.items()}
        if value.strip().upper() in by_name:
            return by_name[value.strip().upper()]
    elif isinstance(value, int) and not isinstance(value, bool) and value in numbers.values():
        return value
    raise BackendError(f"CP-SAT parameter {name!r} takes one of {', '.join(numbers)} (or their numbers), "
                       f"not {value!r}")


def _log_to_stderr(line: str) -> None:
    """CP-SAT's log, on stderr so that ``--json`` keeps stdout to itself."""
    print(line, file=sys.stderr)


def _encoding(con: Connected, strategy: str) -> str:
    """How ``strategy`` lowers ``con``: ``cuts``, ``flow``, ``tree`` or ``circuit``."""
    if strategy != "auto":
        return strategy
    if con.path and len(con.roots) == 2:
        return "circuit"
    return "tree" if con.size is not None else "cuts"
