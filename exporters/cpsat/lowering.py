"""The IR as a CP-SAT model, kept between cut rounds (the lowering that :mod:`gridlang.exporters.cpsat.backend`
states), and the lazy-cut driver's oracle: one CP-SAT run on that model per call."""

from __future__ import annotations

import sys

from gridlang.core.deadline import Deadline, run_solver
from gridlang.core.errors import BackendError
from gridlang.exporters.cpsat.proto import Proto
from gridlang.exporters.cpsat.settings import (
    OPTIMIZATION_SUBSOLVERS,
    OPTIMIZATION_WORKERS,
    SATISFACTION_WORKERS,
    CpSatSettings,
    set_parameter,
)
from gridlang.ir.backend import SolveOptions
from gridlang.ir.connectivity.encodings import flow_arcs
from gridlang.ir.connectivity.blocks import BlockPlan
from gridlang.ir.connectivity.driver import Round
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
)


class Lowering:
    """The IR as a CP-SAT model proto (:class:`~gridlang.exporters.cpsat.proto.Proto`); kept between cut rounds.

    IR variable ``i`` (1-based) is proto variable ``i - 1``, so an IR
    literal ``l`` is the proto reference :func:`_ref` gives.
    ``connected`` lists the nodes left to the cut loop (lowered lazily).
    """

    def __init__(self, model: Model, strategy: str, deadline: Deadline | None = None):
        """Raises :class:`~gridlang.core.deadline.BuildTimeout` when ``deadline``
        (read every 16,384 constraints) passes first."""
        self.model = model
        self.cp = cp = Proto(model.name)
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


def _encoding(con: Connected, strategy: str) -> str:
    """How ``strategy`` lowers ``con``: ``cuts``, ``flow``, ``tree`` or ``circuit``."""
    if strategy != "auto":
        return strategy
    if con.path and len(con.roots) == 2:
        return "circuit"
    return "tree" if con.size is not None else "cuts"


class Oracle:
    """The driver's view of a :class:`Lowering`: one CP-SAT run (a ``SolveWrapper``) per call."""

    improving = False

    def __init__(self, built: Lowering, options: SolveOptions, settings: CpSatSettings):
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
            set_parameter(params, name, value)  # checked by CpSatSettings
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


def _log_to_stderr(line: str) -> None:
    """CP-SAT's log, on stderr so that ``--json`` keeps stdout to itself."""
    print(line, file=sys.stderr)
