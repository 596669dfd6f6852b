"""CP-SAT backend: OR-Tools' CP-SAT solver.

Lowering:

* variable ``v`` -> a ``BoolVar`` named ``Var.identifier()`` (``wall_3_4``);
* :class:`~gridlang.ir.Clause` -> ``AddBoolOr``;
* :class:`~gridlang.ir.Linear` -> a linear constraint, with
  ``OnlyEnforceIf`` for its enforcement literals;
* :class:`~gridlang.ir.Connected`, by strategy (``--connectivity``):

  ``auto`` (default)
      each node by the encoding measured best for its kind: a path node
      (``Connected.path``, from a path rule) by ``AddCircuit``, a region of
      known size by the depth-bounded ``tree``, any other region by lazy
      ``cuts``.
  ``cuts``
      the lazy separator-cut loop (logic-based Benders): solve without
      connectivity, add ``x_s <= sum of x over the rim of C`` for every cell s
      of every stray component C (:func:`gridlang.connectivity.separator_cuts`),
      solve again with the last answer as a hint, until no component is stray.
      For a rooted node the rim is cut down to its root side, and the loop
      starts from the one-cell separator cuts of
      :func:`gridlang.connectivity.seed_cuts` (``x_w <= x_a`` when cut
      vertex ``a`` separates cell ``w`` from the roots). On the 12 slowest
      dailies these seeds took CP-SAT's sum from 15.3 to 13.1 s and its
      slowest map (daily-2026-01-05) from 3.63 to 2.56 s; the two-cell
      separators as well made it worse (19.6 s), root-side cuts in every
      round changed nothing (``docs/benchmarks.md``).
  ``flow``
      single-commodity flow, as stated in :mod:`gridlang.connectivity`:
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

  Path nodes under ``auto``: ``AddCircuit`` over the candidate cells, with
  an arc literal per ordered pair of candidate neighbours, the self-loop
  ``~x_v`` (a cell off the path is skipped) and a fixed arc from the second
  end back to the first: the circuit through the chosen cells is then the
  path from the first end to the second.

Settings: any CP-SAT parameter, as ``cpsat.NAME`` in
``SolveOptions.extra`` (``--set cpsat.num_workers=4``), checked against
CP-SAT's parameter proto before solving (:class:`CpSatSettings`).
CP-SAT needs its portfolio of search workers: without ``num_workers`` (or
``SolveOptions.workers``) a model with an objective gets 8 whatever the
core count, and a model without one (a satisfaction or uniqueness
question) gets 4.

Measurements behind the strategy and worker choices: ``docs/benchmarks.md``,
"Settings and encodings tried".

``write`` saves the CP-SAT model proto as text (``pbtxt``), with flow
connectivity, or the tree encoding on request.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import ClassVar, Mapping

from gridlang.backend import Backend, Result, SolveOptions, Status
from gridlang.connectivity import flow_arcs, seed_cuts
from gridlang.connectivity.driver import Round, lazy_solve
from gridlang.deadline import BuildTimeout, Deadline, run_solver
from gridlang.errors import BackendError
from gridlang.ir import Assignment, Clause, Cmp, Connected, GraphConnected, Linear, Model, Sense
from gridlang.settings import Settings, frozen_mapping

DEFAULT_WORKERS = 8
SATISFACTION_WORKERS = 4


@dataclass(frozen=True)
class CpSatSettings(Settings):
    """The CP-SAT backend's settings: CP-SAT's own parameters.

    Every ``cpsat.NAME`` key of ``SolveOptions.extra`` is the CP-SAT
    parameter ``NAME`` (``--set cpsat.num_workers=4``), checked against
    CP-SAT's parameter proto (``SatParameters``) before solving and set on
    every solver run after gridlang's own choices (workers, time limit,
    log), which it overrides.

    Attributes:
        parameters: parameter name -> value.
    """

    parameters: Mapping[str, object] = field(default_factory=frozen_mapping)

    @classmethod
    def read(cls, backend: str, extra: Mapping[str, object]) -> CpSatSettings:
        """Every ``<backend>.NAME`` key of ``extra`` as the CP-SAT parameter ``NAME``, checked.

        Raises:
            BackendError: CP-SAT has no such parameter, or refuses the
                value's type.
        """
        prefix = backend + "."
        out = cls(frozen_mapping({k[len(prefix):]: v for k, v in extra.items() if k.startswith(prefix)}))
        out.check(backend)
        return out

    def check(self, backend: str) -> None:
        """Set every parameter on a scratch ``SatParameters``.

        Raises:
            BackendError: an unknown parameter, or a value of a type it does not take.
        """
        from ortools.sat import sat_parameters_pb2

        scratch = sat_parameters_pb2.SatParameters()
        fields = scratch.DESCRIPTOR.fields_by_name
        for name, value in self.parameters.items():
            if name not in fields:
                raise BackendError(f"CP-SAT has no parameter {name!r}")
            try:
                setattr(scratch, name, value)
            except (AttributeError, TypeError, ValueError) as e:
                kind = type(getattr(scratch, name)).__name__
                raise BackendError(f"CP-SAT parameter {name!r} takes a value of type {kind}, not {value!r}") from e
        conflicts = self.parameters.get("max_number_of_conflicts")
        if conflicts is not None and conflicts <= 0:
            # CP-SAT takes it and stops before the first conflict: every run UNKNOWN.
            raise BackendError(f"CP-SAT parameter 'max_number_of_conflicts' must be at least 1, not {conflicts!r}")


class CpSatBackend(Backend):
    """OR-Tools CP-SAT. See the module docstring for the lowering."""

    name: ClassVar[str] = "cpsat"
    library: ClassVar[str] = "ortools"
    description: ClassVar[str] = "OR-Tools CP-SAT constraint solver"
    connectivity: ClassVar[tuple[str, ...]] = ("auto", "cuts", "flow", "tree")
    formats: ClassVar[tuple[str, ...]] = ("pbtxt",)
    imports = ("ortools.sat.python.cp_model",)
    native = frozenset({Clause, Linear, Connected, GraphConnected})
    settings_class = CpSatSettings
    seeds_cuts = True

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks of the last :meth:`write` (printed by the CLI)."""

    def solve(self, model: Model, options: SolveOptions, settings: CpSatSettings | None = None) -> Result:
        """Solve ``model`` with CP-SAT, through the lazy-cut driver for the nodes left to cuts.

        Args:
            model: the compiled model.
            options: time limit, workers, strategy, log, and CP-SAT
                parameters as ``extra["cpsat.NAME"]`` (:class:`CpSatSettings`).
            settings: those parameters, made by :meth:`configure` (None: made here).

        Raises:
            BackendError: an unknown connectivity strategy or CP-SAT parameter.
        """
        strategy = self.strategy(options)
        settings = settings if settings is not None else self.configure(options)
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
                                 "reason": "the time limit ran out while the CP-SAT model was built"})
        build_seconds = time.perf_counter() - start
        oracle = _Oracle(built, options, settings)
        out = lazy_solve(model, oracle, built.connected, deadline)
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        res = Result(status, out.assignment, out.objective, out.bound)
        res.seconds = time.perf_counter() - start
        res.build_seconds = build_seconds
        res.stats.update(out.stats)
        res.stats.update({"connectivity": strategy, "wall_time": oracle.wall_time, "seed_cuts": len(seeds),
                          "variables": built.num_variables(), "constraints": built.num_constraints()})
        return res

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write the CP-SAT model proto as text, a complete model.

        Connectivity: ``flow`` unless ``options.connectivity`` asks for
        ``tree``. A request for ``cuts`` or ``auto`` (whose cut loop cannot
        live in a file) gets ``flow`` and a note in :attr:`notes`. The header
        comments name the puzzle, the map and the encoding used.

        Raises:
            BackendError: ``fmt`` is not ``pbtxt``, or the strategy is not
                one this backend offers.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'cpsat' writes {', '.join(self.formats)}, not {fmt!r}")
        requested = self.strategy(options) if options.connectivity is not None else "flow"
        strategy = requested if requested in ("flow", "tree") else "flow"
        self.notes = []
        if strategy != requested:
            self.notes.append(f"the {requested} strategy's cut loop cannot live in a file; "
                              "the file uses single-commodity flow for connectivity")
        built = _Lowering(self.prepare(model), strategy)
        if built.connected:
            raise BackendError(f"{built.connected[0].name!r} is connected through chosen edges, which CP-SAT "
                               "lowers by a circuit for a single loop and by the lazy cut loop otherwise; a file "
                               "cannot hold the loop")
        text = str(built.cp.Proto())
        header = "".join(f"# {k}: {v}\n" for k, v in (("puzzle", model.name), *sorted(model.info.items()),
                                                           ("connectivity", strategy)))
        with open(path, "w", encoding="utf-8") as f:
            f.write(header + text)
        return [path]


class _Lowering:
    """The IR as a ``CpModel``; kept between cut rounds.

    ``connected`` lists the nodes left to the cut loop (lowered lazily).
    """

    def __init__(self, model: Model, strategy: str, deadline: Deadline | None = None):
        """Raises :class:`~gridlang.deadline.BuildTimeout` when ``deadline``
        (read every 16,384 constraints) passes first."""
        from ortools.sat.python import cp_model

        self.cp_model = cp_model
        self.model = model
        self.cp = cp_model.CpModel()
        self.cp.SetName(model.name)
        self.x = [self.cp.NewBoolVar(v.identifier()) for v in model.variables]
        self.connected: list[Connected] = []
        self.extra_vars = 0
        for k, con in enumerate(model.constraints):
            if deadline is not None and not k & 0x3FFF:
                deadline.check()
            if isinstance(con, Clause):
                self.cp.AddBoolOr([self.lit(l) for l in con.lits])
            elif isinstance(con, Linear):
                self.add_linear(con)
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
            expr = sum(c * self.lit(l) for c, l in obj.terms) + obj.constant
            if obj.sense is Sense.MAXIMIZE:
                self.cp.Maximize(expr)
            else:
                self.cp.Minimize(expr)

    def lit(self, l: int):
        x = self.x[abs(l) - 1]
        return x if l > 0 else x.Not()

    def add_linear(self, con: Linear) -> None:
        expr = sum(c * self.lit(l) for c, l in con.terms)
        if con.op is Cmp.LE:
            ct = self.cp.Add(expr <= con.rhs)
        elif con.op is Cmp.GE:
            ct = self.cp.Add(expr >= con.rhs)
        else:
            ct = self.cp.Add(expr == con.rhs)
        if con.enforce:
            ct.OnlyEnforceIf([self.lit(l) for l in con.enforce])

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
            f = cp.NewIntVar(0, big_m, f"flow_{tag}_{u}_{v}")
            cp.Add(f <= big_m * self.lit(member[v]))
            flow[u, v] = f
        self.extra_vars += len(flow)
        inflow = {v: [] for v in cells}
        outflow = {v: [] for v in cells}
        for (u, v), f in flow.items():
            outflow[u].append(f)
            inflow[v].append(f)
        if roots:
            for v in cells:
                if v not in roots:
                    cp.Add(sum(inflow[v]) - sum(outflow[v]) == self.lit(member[v]))
            return
        # No fixed root: the solver picks one member as the source.
        pick = {v: cp.NewBoolVar(f"root_{tag}_{v}") for v in cells}
        self.extra_vars += len(pick)
        for v in cells:
            cp.AddImplication(pick[v], self.lit(member[v]))
            cp.Add(sum(inflow[v]) - sum(outflow[v]) >= self.lit(member[v]) - big_m * pick[v])
        cp.AddAtMostOne(pick.values())
        # A non-empty region has a root.
        for v in cells:
            cp.AddBoolOr([self.lit(member[v]).Not()] + list(pick.values()))

    def add_tree(self, con: Connected) -> None:
        cp = self.cp
        member = dict(con.members)
        if not member:
            return
        limit = (con.size if con.size is not None else len(member)) - 1
        tag = con.name or "region"
        depth = {v: cp.NewIntVar(0, max(limit, 0), f"depth_{tag}_{v}") for v in member}
        roots = set(con.roots)
        pick = {}
        if roots:
            for r in roots:
                cp.Add(depth[r] == 0)
        else:
            pick = {v: cp.NewBoolVar(f"root_{tag}_{v}") for v in member}
            for v, r in pick.items():
                cp.AddImplication(r, self.lit(member[v]))
            if con.size is not None and con.size >= 1:
                cp.AddExactlyOne(pick.values())
            else:
                cp.AddAtMostOne(pick.values())
        self.extra_vars += len(depth) + len(pick)
        for v in member:
            if v in roots:
                continue
            parents = []
            for u in self.model.grid.neighbours[v]:
                if u not in member or u == v:
                    continue
                p = cp.NewBoolVar(f"parent_{tag}_{v}_{u}")
                cp.AddImplication(p, self.lit(member[u]))
                cp.Add(depth[u] < depth[v]).OnlyEnforceIf(p)
                parents.append(p)
            self.extra_vars += len(parents)
            alternatives = parents + ([pick[v]] if pick else [])
            cp.AddBoolOr([self.lit(member[v]).Not()] + alternatives)

    def add_circuit(self, con: Connected) -> None:
        cp = self.cp
        member = dict(con.members)
        first, last = con.roots
        arcs = [(last, first, cp.NewConstant(1))]
        for v in member:
            if v not in con.roots:
                arcs.append((v, v, self.lit(member[v]).Not()))
            for u in self.model.grid.neighbours[v]:
                if u in member and u != v and (v, u) != (last, first):
                    arcs.append((v, u, cp.NewBoolVar(f"arc_{con.name or 'path'}_{v}_{u}")))
                    self.extra_vars += 1
        cp.AddCircuit(arcs)

    def add_loop(self, con: GraphConnected) -> None:
        """A single loop by ``AddCircuit``: two arcs per edge (``e == a_uv + a_vu``), and a
        self-loop ``~o(v)`` per vertex, so that the vertices off the loop are skipped."""
        cp = self.cp
        index = {v: i for i, (v, _lit) in enumerate(con.members)}
        arcs = [(i, i, self.lit(lit).Not()) for i, (_v, lit) in enumerate(con.members)]
        for u, v, lit in con.edges:
            there = cp.NewBoolVar(f"arc_{con.name}_{u}_{v}")
            back = cp.NewBoolVar(f"arc_{con.name}_{v}_{u}")
            self.extra_vars += 2
            cp.Add(there + back == self.lit(lit))
            arcs += [(index[u], index[v], there), (index[v], index[u], back)]
        cp.AddCircuit(arcs)

    def add_graph_tree(self, con: GraphConnected) -> None:
        """What the roots reach through chosen edges, as a tree of depths: each member but a root
        has a parent, a member one chosen edge away and less deep (depths 0 to members - 1)."""
        cp = self.cp
        member = dict(con.members)
        depth = {v: cp.NewIntVar(0, max(len(member) - 1, 0), f"depth_{con.name}_{v}") for v in member}
        for r in con.roots:
            cp.Add(depth[r] == 0)
        parents: dict[int, list] = {v: [] for v in member}
        for u, v, lit in con.edges:
            for a, b in ((u, v), (v, u)):  # a parent of b
                if b in con.roots:
                    continue
                p = cp.NewBoolVar(f"parent_{con.name}_{b}_{a}")
                cp.AddImplication(p, self.lit(lit))
                cp.AddImplication(p, self.lit(member[a]))
                cp.Add(depth[a] < depth[b]).OnlyEnforceIf(p)
                parents[b].append(p)
        self.extra_vars += len(depth) + sum(len(ps) for ps in parents.values())
        for v, ps in parents.items():
            if v not in con.roots:
                cp.AddBoolOr([self.lit(member[v]).Not()] + ps)

    def hint(self, assignment: Assignment) -> None:
        self.cp.ClearHints()
        for x, value in zip(self.x, assignment.values):
            self.cp.AddHint(x, value)

    def num_variables(self) -> int:
        return len(self.x) + self.extra_vars

    def num_constraints(self) -> int:
        return len(self.cp.Proto().constraints)



class _Oracle:
    """The driver's view of a :class:`_Lowering`: one ``CpSolver`` run per call."""

    improving = False

    def __init__(self, built: _Lowering, options: SolveOptions, settings: CpSatSettings):
        self.built = built
        self.options = options
        self.settings = settings
        self.wall_time = 0.0

    def add(self, cuts: list[Linear]) -> None:
        for cut in cuts:
            self.built.add_linear(cut)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        self.built.hint(last)

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        built, options = self.built, self.options
        cp_model = built.cp_model
        solver = cp_model.CpSolver()
        params = solver.parameters
        default = DEFAULT_WORKERS if built.model.objective is not None else SATISFACTION_WORKERS
        params.num_workers = options.workers or default
        params.log_search_progress = options.log
        params.log_to_stdout = False
        params.catch_sigint_signal = False  # Ctrl-C is the deadline's (gridlang.deadline)
        remaining = deadline.remaining()
        if remaining is not None:
            params.max_time_in_seconds = max(remaining, 0.01)
        for name, value in self.settings.parameters.items():
            setattr(params, name, value)  # checked by CpSatSettings
        if options.log:
            solver.log_callback = _log_to_stderr
        code = run_solver(deadline, lambda: solver.Solve(built.cp), solver.StopSearch)
        self.wall_time += solver.WallTime()
        if code == cp_model.MODEL_INVALID:
            # Validate() explains a bad model; a bad parameter value (one the
            # proto's types allow) is explained in the response's solution_info.
            why = built.cp.Validate()
            if why:
                raise BackendError("CP-SAT rejected the model: " + " ".join(why.split()))
            why = solver.SolutionInfo() or "no reason given"
            raise BackendError("CP-SAT refused its parameters: " + " ".join(why.split()))
        if code == cp_model.INFEASIBLE:
            return Round("infeasible")
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Round("unknown")
        assignment = Assignment(tuple(bool(solver.BooleanValue(x)) for x in built.x))
        bound = None
        objective = built.model.objective
        if objective is not None:
            bound = solver.BestObjectiveBound()
            if int(round(solver.ObjectiveValue())) != objective.value(assignment):
                raise BackendError(f"CP-SAT reports the objective {solver.ObjectiveValue():g}, but its answer "
                                   f"scores {objective.value(assignment)} in the model")
        return Round("optimal" if code == cp_model.OPTIMAL else "feasible", assignment, bound)


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
