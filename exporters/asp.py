"""ASP backend: the IR as a logic program, solved by clingo (Potassco).

Lowering (IR -> gringo's input language), ``x(V)`` the atom of IR variable ``V``:

* every variable -> a choice rule ``{ x(V) }.``, its name in a comment;
* :class:`~gridlang.ir.Clause` ``l1 | ... | ln`` -> ``:- not l1, ..., not ln.``
  (``v`` is ``x(v)``, ``-v`` is ``not x(v)``; the empty clause ``:- #true.``);
* :class:`~gridlang.ir.Linear` -> ``sum w_i l_i OP R`` with ``w_i > 0`` by
  :func:`normalise`, then an integrity constraint: ``:- E, #count{ V : l; ... } > R.``
  (unit weights) or ``#sum{ w,V : l; ... }``; ``==`` as both ``<`` and ``>``,
  ``>= 1`` and ``<= n - 1`` as plain bodies, trivial sides decided outright.
  The enforcement literals ``E`` join the body, the IR's half-reification;
* the objective -> ``#maximize{ c,V : x(V); ... }`` or ``#minimize``, one weight
  per variable (negative ones allowed), the constant kept aside. clingo
  minimises and reports ``-sum`` for a maximisation, so the score is
  ``constant - cost`` (maximise) or ``constant + cost`` (minimise);
* :class:`~gridlang.ir.Connected`, strategy ``reach`` (default): facts
  ``member(K,Cell,Lit)``, ``root(K,Cell)``, ``edge(U,V)`` (4-neighbours and
  links, both ways, cells row-major) and recursive reachability, as in the
  ``reached/1`` rules of the Hamiltonian-cycle encoding of M. Gebser,
  R. Kaminski, B. Kaufmann, T. Schaub, *Answer Set Solving in Practice*,
  Morgan & Claypool 2012::

      in(K,V)    :- member(K,V,L), L > 0, x(L).
      in(K,V)    :- member(K,V,L), L < 0, not x(-L).
      reach(K,V) :- root(K,V).
      reach(K,V) :- reach(K,U), edge(U,V), in(K,V).
      :- in(K,V), not reach(K,V).
      :- root(K,V), not in(K,V).

  A stable model holds only the ``reach`` atoms a chain of edges from a root
  supports (clasp's unfounded-set checks see to it), so the constraint says
  exactly "every member is reached from a root inside the set": no flow, no
  cut loop, no ranks. Without roots the least member is the root:
  ``next(K,U,V)`` chains the candidates, ``before(K,V)`` holds when a member
  precedes ``V``, and ``reach(K,V) :- free(K), in(K,V), not before(K,V).``
  Size: an ``in`` and a ``reach`` atom per candidate cell, a rule instance
  per candidate arc. A region's size is a ``#count`` the IR states already;
  a path needs nothing more (its degree constraints are IR rows).

  Strategy ``cuts``: the lazy separator-cut loop of
  :mod:`gridlang.connectivity.driver`, clingo as the oracle, seeded with the
  cut-vertex cuts of :func:`gridlang.connectivity.seed_cuts`; each round's
  cuts are grounded into a new part of the same ``clingo.Control``
  (multi-shot solving: what clasp learnt stays).

Solving: ground once, solve with ``--opt-mode=opt`` (every improving model,
the last proved optimal) asynchronously; the calling thread waits in steps
of 0.05 s and cancels the search when the command's
:class:`~gridlang.deadline.Deadline` passes; a stop (Ctrl-C) reaches clingo
through ``Control.interrupt``, its thread- and signal-safe stop. OPTIMAL:
the search was exhausted after a model (or found one, without an objective);
FEASIBLE: cancelled after one; INFEASIBLE: exhausted without one; else
UNKNOWN. ``bound`` is clingo's proved lower bound on the cost
(``summary.lower``, informative under ``usc``) as a bound on the objective.
A :class:`AspSession` (uniqueness, counting) keeps its ``Control`` and
grounds each added constraint into a new part.

Settings (``asp.NAME``; figures in ``docs/benchmarks.md``): ``opt_strategy``
(``--opt-strategy``: ``bb`` branch and bound, ``usc`` core-guided, tactics
after a comma; ``auto`` leaves clingo's choice, ``bb,lin`` on one thread and
``bb,hier`` beside ``usc,oll,disjoint`` on two), ``threads``
(``--parallel-mode``; 0: ``SolveOptions.workers``, else
:data:`PRICED_THREADS` when the objective prices decisions off the regions,
as costly walls do, and :data:`DEFAULT_THREADS` otherwise), ``options`` (any clingo option, one at a time:
``--set asp.options.configuration=crafty``; ``true`` gives the bare flag).
clingo checks them all; one it refuses is a :class:`~gridlang.errors.BackendError`.

``write`` saves the program as a ``.lp`` file for the ``clingo`` command
(format ``asp``) with a ``.vars.json`` sidecar; ``read_solution`` reads
clingo's answer back (its text output, or ``--outf=2`` JSON).
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Iterable, Mapping

from gridlang.backend import Backend, Result, Session, SolveOptions, Status
from gridlang.connectivity import cut_clause, seed_cuts
from gridlang.connectivity.driver import Round, lazy_solve
from gridlang.deadline import ABANDON_AFTER, BuildTimeout, Deadline, SolverAbandoned
from gridlang.errors import BackendError, MapError, Span
from gridlang.ir import Assignment, Clause, Cmp, Connected, Constraint, GraphConnected, Linear, Model, Sense
from gridlang.settings import Settings, frozen_mapping

DEFAULT_THREADS = 1
PRICED_THREADS = 2
@dataclass(frozen=True)
class AspSettings(Settings):
    """The asp backend's settings, ``asp.NAME`` in ``SolveOptions.extra``.

    Attributes:
        opt_strategy: clingo's ``--opt-strategy`` (``bb``, ``usc``...), or
            ``auto`` for clingo's default.
        threads: clingo's parallel solving threads; 0 for the backend's
            default (see the module docstring).
        options: any clingo command-line option, one at a time as
            ``asp.options.NAME`` (``--set asp.options.configuration=crafty``).
    """

    bare: ClassVar[bool] = True
    opt_strategy: str = "auto"
    threads: int = 0
    options: Mapping[str, object] = field(default_factory=frozen_mapping)

REACH_RULES = """\
#defined root/2. #defined free/1. #defined next/3. #defined edge/2.
in(K,V) :- member(K,V,L), L > 0, x(L).
in(K,V) :- member(K,V,L), L < 0, not x(-L).
:- root(K,V), not in(K,V).
reach(K,V) :- root(K,V).
reach(K,V) :- reach(K,U), edge(U,V), in(K,V).
before(K,W) :- next(K,V,W), in(K,V).
before(K,W) :- next(K,V,W), before(K,V).
reach(K,V) :- free(K), in(K,V), not before(K,V).
:- in(K,V), not reach(K,V)."""

GRAPH_RULES = """\
#defined groot/2. #defined gfree/1. #defined gnext/3. #defined gedge/4.
gin(K,V) :- gmember(K,V,L), L > 0, x(L).
gin(K,V) :- gmember(K,V,L), L < 0, not x(-L).
:- groot(K,V), not gin(K,V).
gon(K,U,V) :- gedge(K,U,V,L), L > 0, x(L).
gon(K,U,V) :- gedge(K,U,V,L), L < 0, not x(-L).
gon(K,V,U) :- gon(K,U,V).
greach(K,V) :- groot(K,V).
greach(K,V) :- greach(K,U), gon(K,U,V), gin(K,V).
gbefore(K,W) :- gnext(K,V,W), gin(K,V).
gbefore(K,W) :- gnext(K,V,W), gbefore(K,V).
greach(K,V) :- gfree(K), gin(K,V), not gbefore(K,V).
:- gin(K,V), not greach(K,V)."""
"""Connectivity through chosen edges (:class:`~gridlang.ir.GraphConnected`):
the same reachability as :data:`REACH_RULES`, over the node's own graph,
an edge counting when its literal holds."""

WAIT_STEP = 0.05
"""Seconds between two looks at the deadline while clingo searches."""


# --------------------------------------------------------------------------
# lowering


def _lit(lit: int) -> str:
    return f"x({lit})" if lit > 0 else f"not x({-lit})"


def _rule(body: list[str]) -> str:
    return ":- " + (", ".join(body) if body else "#true") + "."


def clause_rule(lits: Iterable[int]) -> str:
    """The integrity constraint of a clause: ``:- not l1, ..., not ln.``"""
    return _rule([_lit(-l) for l in lits])


def normalise(terms: Iterable[tuple[int, int]], rhs: int) -> tuple[list[tuple[int, int]], int]:
    """``sum c * lit`` against ``rhs`` as ``sum w * lit`` with ``w > 0``, one literal per variable.

    Args:
        terms: ``(coef, lit)`` pairs; ``a * -v`` stands for ``a * (1 - x_v)``.
        rhs: the right-hand side.

    Returns:
        ``(weight, lit)`` pairs, ascending by variable, and the right-hand
        side with every constant moved to it.
    """
    coef: dict[int, int] = {}
    for c, lit in terms:
        v = abs(lit)
        if lit > 0:
            coef[v] = coef.get(v, 0) + c
        else:
            coef[v] = coef.get(v, 0) - c
            rhs -= c
    out = []
    for v in sorted(coef):
        c = coef[v]
        if c > 0:
            out.append((c, v))
        elif c < 0:
            out.append((-c, -v))  # c * x = c + |c| * (1 - x)
            rhs -= c
    return out, rhs


def linear_rules(con: Linear) -> list[str]:
    """The integrity constraints of a :class:`Linear` row (see the module docstring)."""
    guard = [_lit(l) for l in con.enforce]
    terms, rhs = normalise(con.terms, con.rhs)
    total = sum(w for w, _ in terms)
    parts = [Cmp.LE, Cmp.GE] if con.op is Cmp.EQ else [con.op]
    out = []
    for op in parts:
        if op is Cmp.LE:
            if rhs >= total:
                continue
            if rhs < 0:
                out.append(_rule(guard))
            elif all(w == 1 for w, _ in terms) and rhs == len(terms) - 1:
                out.append(_rule(guard + [_lit(l) for _, l in terms]))
            else:
                out.append(_rule(guard + [_aggregate(terms) + f" > {rhs}"]))
        else:
            if rhs <= 0:
                continue
            if rhs > total:
                out.append(_rule(guard))
            elif all(w == 1 for w, _ in terms) and rhs == 1:
                out.append(_rule(guard + [_lit(-l) for _, l in terms]))
            else:
                out.append(_rule(guard + [_aggregate(terms) + f" < {rhs}"]))
    return out


def _aggregate(terms: list[tuple[int, int]]) -> str:
    if all(w == 1 for w, _ in terms):
        return "#count{ " + "; ".join(f"{abs(l)} : {_lit(l)}" for _, l in terms) + " }"
    return "#sum{ " + "; ".join(f"{w},{abs(l)} : {_lit(l)}" for w, l in terms) + " }"


def constraint_rules(con: Constraint) -> list[str]:
    """A clause or a linear row (the constraints a session adds) as rules.

    Raises:
        BackendError: any other constraint.
    """
    if isinstance(con, Clause):
        return [clause_rule(con.lits)]
    if isinstance(con, Linear):
        return linear_rules(con)
    raise BackendError(f"backend 'asp' cannot add a {type(con).__name__} to a running session")


class Program:
    """A model as a gringo program.

    Args:
        model: the IR model.
        strategy: ``reach`` (connectivity by recursive rules) or ``cuts``
            (left to the cut loop: :attr:`lazy`).

    Attributes:
        lines: the program, one statement (or comment) a line.
        lazy: the connectivity nodes left to the cut loop.
        constant: the objective's constant after normalisation (the score
            is ``constant - cost`` when maximising, ``constant + cost``
            when minimising).
        rules: the number of statements, comments not counted.

    Raises:
        BackendError: a constraint type the backend cannot lower.
    """

    def __init__(self, model: Model, strategy: str, deadline: Deadline | None = None):
        self.model = model
        self.lazy: list[Connected] = []
        self.constant = 0
        lines = ["#show x/1.", "", "% variables: x(V) is IR variable V"]
        lines += [f"{{ x({v}) }}.  % {var}" for v, var in enumerate(model.variables, 1)]
        lines += ["", "% constraints"]
        nodes: list[Connected] = []
        graphs: list[GraphConnected] = []
        for k, con in enumerate(model.constraints):
            if deadline is not None and not k & 0xFFF:
                deadline.check()
            where = f"  % {con.span}" if con.span else ""
            if isinstance(con, GraphConnected):
                if strategy == "reach":
                    graphs.append(con)
                else:
                    self.lazy.append(con)
                    lit_of = dict(con.members)
                    lines += [clause_rule([lit_of[r]]) + where for r in con.roots]
            elif isinstance(con, Connected):
                if strategy == "reach":
                    nodes.append(con)
                else:
                    self.lazy.append(con)
                    lit_of = dict(con.members)
                    lines += [clause_rule([lit_of[r]] if r in lit_of else []) + where for r in con.roots]
                    lines += [clause_rule(cut_clause(c)) + where for c in seed_cuts(model.grid, con)]
            elif isinstance(con, (Clause, Linear)):
                lines += [rule + where for rule in constraint_rules(con)]
            else:
                raise BackendError(f"backend 'asp' cannot lower constraint {type(con).__name__}")
        if nodes:
            lines += ["", *self._reach(nodes)]
        if graphs:
            lines += ["", *self._graph_reach(graphs)]
        if model.objective is not None:
            lines += ["", *self._objective()]
        self.lines = lines
        self.rules = sum(1 for s in lines if s and not s.startswith("%"))

    def _reach(self, nodes: list[Connected]) -> list[str]:
        grid = self.model.grid
        lines = ["% connectivity by reachability (cells row-major: cell = row * "
                 f"{grid.cols} + col)", REACH_RULES]
        candidates: set[int] = set()
        for k, con in enumerate(nodes):
            cells = [c for c, _ in con.members]
            candidates.update(cells)
            roots = ", ".join(str(grid.cell(r)) for r in con.roots) or "its least member"
            lines.append(f"% region {k}: {con.name or 'region'}, {len(cells)} candidate cells, roots {roots}")
            lines += [f"member({k},{c},{l})." for c, l in con.members]
            lines += [f"root({k},{r})." for r in con.roots]
            if not con.roots:
                lines.append(f"free({k}).")
                ordered = sorted(cells)
                lines += [f"next({k},{u},{v})." for u, v in zip(ordered, ordered[1:])]
        lines.append("% the grid graph between candidate cells")
        for u in sorted(candidates):
            lines += [f"edge({u},{v})." for v in grid.neighbours[u] if v in candidates and v != u]
        return lines

    def _graph_reach(self, nodes: list[GraphConnected]) -> list[str]:
        """Reachability through chosen edges, one numbered graph per node (:data:`GRAPH_RULES`)."""
        lines = ["% connectivity through chosen edges", GRAPH_RULES]
        for k, con in enumerate(nodes):
            roots = ", ".join(map(str, con.roots)) or "its least member"
            lines.append(f"% graph {k}: {con.name}, {len(con.members)} vertices, {len(con.edges)} edges, "
                         f"roots {roots}")
            lines += [f"gmember({k},{v},{l})." for v, l in con.members]
            lines += [f"gedge({k},{u},{v},{l})." for u, v, l in con.edges]
            lines += [f"groot({k},{r})." for r in con.roots]
            if not con.roots:
                lines.append(f"gfree({k}).")
                ordered = sorted(v for v, _ in con.members)
                lines += [f"gnext({k},{u},{v})." for u, v in zip(ordered, ordered[1:])]
        return lines

    def _objective(self) -> list[str]:
        obj = self.model.objective
        coef: dict[int, int] = {}
        for c, lit in obj.terms:  # c * ~v = c - c * x(v)
            coef[abs(lit)] = coef.get(abs(lit), 0) + (c if lit > 0 else -c)
        self.constant = obj.constant + sum(c for c, lit in obj.terms if lit < 0)
        terms = [(coef[v], v) for v in sorted(coef) if coef[v]]
        word = "#maximize" if obj.sense is Sense.MAXIMIZE else "#minimize"
        where = f"  % {obj.span}" if obj.span else ""
        return ["% objective", word + "{ " + "; ".join(f"{c},{v} : x({v})" for c, v in terms) + " }." + where]

    def text(self) -> str:
        """The program, newline-terminated."""
        return "\n".join(self.lines) + "\n"


# --------------------------------------------------------------------------
# solving


GROUND_FACTOR = 2.5
"""clingo grounds a program in about this many times the seconds it took to
write it (2.5 to 4.5 on the near-empty 60x60 and 100x100 maps, under load)."""

REACH_MAX_MEMBERS = 1000
"""By default, regions of more members than this go to the cut loop, not to ``reach``."""


class _Clingo:
    """One ``clingo.Control`` holding a program, solved again as parts are added."""

    improving = False

    def __init__(self, model: Model, program: Program, arguments: list[str], log: bool):
        import clingo

        self.model = model
        self.program = program
        self.log = log
        self.messages: list[str] = []
        try:
            self.ctl = clingo.Control(arguments, logger=self._logger, message_limit=1000)
        except RuntimeError as e:
            raise BackendError(f"clingo refuses the options {' '.join(arguments)}: {_reason(e)}") from e
        self.ctl.configuration.solve.models = "0" if model.objective is not None else "1"
        self.parts = 0
        self.wall_time = self.cpu_time = 0.0
        self.ground(program.text())

    def _logger(self, code, message: str) -> None:
        self.messages.append(message.strip())
        if self.log:
            print(message.rstrip(), file=sys.stderr)

    def ground(self, text: str) -> None:
        """Add ``text`` as a new program part and ground it."""
        name = "base" if self.parts == 0 else f"part{self.parts}"
        self.parts += 1
        try:
            self.ctl.add(name, [], text)
            self.ctl.ground([(name, [])])
        except RuntimeError as e:
            detail = next((m for m in self.messages if "error" in m), _reason(e))
            raise BackendError(f"clingo cannot ground the program: {detail}") from e

    def add(self, cuts: list[Linear]) -> None:
        """Ground the cuts (or any clauses and rows) into a new part."""
        rules = [r for cut in cuts for r in constraint_rules(cut)]
        if rules:
            self.ground("\n".join(rules) + "\n")

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        """clasp keeps its phases and learnt clauses between calls; nothing to hint."""

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        """One clingo search under ``deadline`` (see the module docstring)."""
        if deadline.expired():
            return Round("unknown")
        last: dict[str, object] = {}

        def on_model(m) -> None:
            last["atoms"] = m.symbols(shown=True)
            last["cost"] = list(m.cost)

        t0 = time.perf_counter()
        handle = self.ctl.solve(on_model=on_model, async_=True)
        # Control.interrupt is clingo's thread- and signal-safe stop; a stop that
        # comes after the search would interrupt the next one, which an expired
        # deadline never starts.
        with deadline.on_stop(self.ctl.interrupt):
            while not handle.wait(_step(deadline)):
                if deadline.expired():
                    handle.cancel()
                    if not handle.wait(ABANDON_AFTER):
                        raise SolverAbandoned("clingo did not stop when asked")
                    break
        outcome = handle.get()
        handle.__exit__(None, None, None)  # SolveHandle's close; a handle left behind is never closed
        self.wall_time += time.perf_counter() - t0
        summary = self.ctl.statistics["summary"]
        self.cpu_time += summary["times"]["cpu"]
        obj = self.model.objective
        lower = summary.get("lower", []) if obj is not None else []
        bound = self.score(int(lower[0])) if lower else None
        if "atoms" not in last:
            return Round("infeasible") if outcome.unsatisfiable else Round("unknown", bound=bound)
        answer = self.assignment(last["atoms"])
        if obj is None or not last["cost"]:
            return Round("optimal", answer)
        score = self.score(int(last["cost"][0]))
        if score != obj.value(answer):
            raise BackendError(f"clingo reports the objective {score}, but its answer scores "
                               f"{obj.value(answer)} in the model")
        if outcome.exhausted:
            return Round("optimal", answer, bound=score)
        return Round("feasible", answer, bound=bound)

    def score(self, cost: int) -> int:
        """The objective value of a clingo cost."""
        if self.model.objective.sense is Sense.MAXIMIZE:
            return self.program.constant - cost
        return self.program.constant + cost

    def assignment(self, atoms) -> Assignment:
        values = [False] * self.model.num_vars
        for sym in atoms:
            if sym.name == "x" and len(sym.arguments) == 1:
                values[sym.arguments[0].number - 1] = True
        return Assignment(tuple(values))

    def statistics(self) -> dict[str, object]:
        lp, solvers = self.ctl.statistics["problem"]["lp"], self.ctl.statistics["solving"]["solvers"]
        return {"atoms": int(lp["atoms"]), "rules": int(lp["rules"]), "program_statements": self.program.rules,
                "choices": int(solvers["choices"]), "conflicts": int(solvers["conflicts"]),
                "threads": int(str(self.ctl.configuration.solve.parallel_mode).split(",")[0]),
                "wall_time": round(self.wall_time, 4), "cpu_time": round(self.cpu_time, 4)}


def _prices_decisions(model: Model) -> bool:
    """Whether some objective term is on a variable that is neither a region's member nor fixed by a unit clause.

    Such objectives (costly walls: ``value(pen) - cost * count(wall)``) went
    faster with a core-guided thread beside branch and bound; the value of
    a region alone (the standard maps) went faster on one thread.
    """
    if model.objective is None:
        return False
    known = {abs(l) for con in model.constraints if isinstance(con, Connected) for _, l in con.members}
    known |= {abs(con.lits[0]) for con in model.constraints if isinstance(con, Clause) and len(con.lits) == 1}
    return any(abs(l) not in known for _, l in model.objective.terms)


def _step(deadline: Deadline) -> float:
    left = deadline.remaining()
    return WAIT_STEP if left is None else min(WAIT_STEP, left)


def _reason(e: Exception) -> str:
    """clingo's message without its ``In context '<libclingo>':`` prefix."""
    text = str(e).strip()
    return text.split(": ", 1)[1] if text.startswith("In context") and ": " in text else text


# --------------------------------------------------------------------------
# the backend


class AspBackend(Backend):
    """clingo, the answer-set solver. See the module docstring for the lowering."""

    name: ClassVar[str] = "asp"
    library: ClassVar[str] = "clingo"
    description: ClassVar[str] = "answer-set programming (clingo), reachability by recursive rules"
    connectivity: ClassVar[tuple[str, ...]] = ("reach", "cuts")
    formats: ClassVar[tuple[str, ...]] = ("asp",)
    imports: ClassVar[tuple[str, ...]] = ("clingo",)
    native = frozenset({Clause, Linear, Connected, GraphConnected})
    settings_class = AspSettings

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks of the last :meth:`write` (printed by the CLI)."""

    def arguments(self, options: SolveOptions, model: Model | None = None) -> list[str]:
        """clingo's command-line arguments for ``options`` (settings checked by clingo when used).

        Args:
            options: the solve options and their ``asp.`` settings.
            model: the model, for the default thread count (see the module docstring).

        Raises:
            BackendError: an unknown ``asp.`` setting, a value of the wrong
                type, or fewer than 1 thread.
        """
        settings = self.configure(options)
        s = {"opt_strategy": settings.opt_strategy, "threads": settings.threads, "options": dict(settings.options)}
        default = PRICED_THREADS if model is not None and _prices_decisions(model) else DEFAULT_THREADS
        threads = int(s["threads"]) or options.workers or default
        if threads < 1:
            raise BackendError(f"backend 'asp' needs at least 1 thread, not {threads}")
        args = ["--opt-mode=opt"]
        if s["opt_strategy"] != "auto":
            args.append(f"--opt-strategy={s['opt_strategy']}")
        if threads > 1:
            args.append(f"--parallel-mode={threads}")
        for key, value in sorted(s["options"].items()):
            args.append(f"--{key}" if value is True else f"--{key}={'no' if value is False else value}")
        return args

    def _control(self, model: Model, options: SolveOptions, deadline: Deadline | None = None) -> tuple[_Clingo, str]:
        """The program grounded into a new ``clingo.Control``, and the strategy.

        Raises:
            BuildTimeout: ``deadline`` passed while the program was written,
                or clearly would while clingo grounds it (which cannot be
                stopped: about :data:`GROUND_FACTOR` times as long as
                writing the program took).
        """
        strategy = self.strategy(options)
        if options.connectivity is None and strategy == "reach" and any(
                isinstance(con, Connected) and len(con.members) > REACH_MAX_MEMBERS for con in model.constraints):
            # Grounding reachability grows faster than the region (a 3,265-cell
            # pen: 35 s and 0.9 GB, and clingo cannot be stopped while it
            # grounds); the cut loop grounds the rules alone.
            strategy = "cuts"
        arguments = self.arguments(options, model)
        self.load_library()
        t = time.perf_counter()
        program = Program(model, strategy, deadline)
        spent = time.perf_counter() - t
        remaining = deadline.remaining() if deadline is not None else None
        if remaining is not None and remaining < GROUND_FACTOR * spent:
            raise BuildTimeout(f"the time limit would run out while clingo grounds the program (about "
                               f"{GROUND_FACTOR * spent:.1f} s, {remaining:.1f} s left)")
        return _Clingo(model, program, arguments, options.log), strategy

    def solve(self, model: Model, options: SolveOptions) -> Result:
        """Solve ``model`` with clingo, under ``options.clock()``.

        Returns:
            The result; ``stats`` holds the driver's counts (``cut_rounds``,
            ``cuts``, ``solver_calls``), ``connectivity``, clingo's
            ``atoms``, ``rules``, ``choices``, ``conflicts``, and its
            ``wall_time`` and ``cpu_time`` in seconds.

        Raises:
            BackendError: clingo is missing or refuses an option, or a
                construct cannot be lowered.
        """
        return self.session(model, options).solve()

    def session(self, model: Model, options: SolveOptions) -> Session:
        """A session that keeps one ``clingo.Control`` and grounds what is added into it."""
        return AspSession(self, self.prepare(model), options)

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write the program as a ``.lp`` file for ``clingo`` (gringo's input language).

        Connectivity is always ``reach`` (a cut loop cannot live in a file;
        a request for ``cuts`` gets a note in :attr:`notes`). The header's
        ``%`` comments name the puzzle, its provenance and parameters, the
        encoding and how to read clingo's ``Optimization:`` as a score. A
        sidecar ``PATH.vars.json`` maps each atom ``x(V)`` to
        ``{"var", "family", "cell": [row, col] or null, "value"}``. The
        output is byte-for-byte reproducible.

        Returns:
            ``[path, path + ".vars.json"]``.

        Raises:
            BackendError: ``fmt`` is not ``asp``, or an unknown strategy.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'asp' writes {', '.join(self.formats)}, not {fmt!r}")
        self.notes = []
        if self.strategy(options) != "reach":
            self.notes.append("a cut loop cannot live in a file; the file states connectivity by reachability")
        program = Program(self.prepare(model), "reach")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(_header(model, program)) + "\n" + program.text())
        side = path + ".vars.json"
        with open(side, "w", encoding="utf-8", newline="\n") as f:
            json.dump(_variable_map(model), f, indent=1)
            f.write("\n")
        return [path, side]

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read clingo's answer to a written program.

        Accepts clingo's default text output (``Answer: N`` then the true
        atoms on the next line; with optimisation the last answer, the
        best, is taken) and its JSON (``--outf=2``: the last witness of the
        last call). Atoms other than ``x/1`` are ignored; an ``x(V)`` not
        listed is false.

        Returns:
            The assignment of the model's variables.

        Raises:
            MapError: no answer (clingo reports UNSATISFIABLE, or none is
                printed), an answer line cut short, or an atom that is not
                a term or names no variable, with the file, line and column.
        """
        text = Path(path).read_text(encoding="utf-8")
        found = _json_atoms(path, text) if text.lstrip().startswith("{") else _text_atoms(path, text)
        values = [False] * model.num_vars
        for token, no, col in found:
            m = re.fullmatch(r"x\((-?\d+)\)", token)
            where = Span(path, no, col, col + len(token))
            if m is None:
                if token.startswith("x(") or not re.fullmatch(r"-?[a-z_]\w*(\(.*\))?", token):
                    raise MapError(f"{token!r} is not an atom", where, text)
            elif not 1 <= int(m.group(1)) <= model.num_vars:
                raise MapError(f"{token} names no variable of the model (it has {model.num_vars})", where, text)
            else:
                values[int(m.group(1)) - 1] = True
        return Assignment(tuple(values))


def _text_atoms(path: str, text: str) -> list[tuple[str, int, int]]:
    """The atoms of clingo's last ``Answer:``, each with its line and column."""
    lines = text.splitlines()
    answer, verdict = None, None
    for no, line in enumerate(lines, 1):
        if line.startswith("Answer:"):
            if no >= len(lines):
                raise MapError("the answer line after 'Answer:' is missing", Span(path, no, 1), text)
            answer = no + 1
        elif line.strip() in ("SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN", "INTERRUPTED"):
            verdict = no
    if answer is None:
        if verdict is not None:
            raise MapError(f"clingo reports no solution: {lines[verdict - 1].strip()}", Span(path, verdict, 1), text)
        raise MapError("no 'Answer:' line in the clingo output", Span(path, 1, 1), text)
    return [(m.group(), answer, m.start() + 1) for m in re.finditer(r"\S+", lines[answer - 1])]


def _json_atoms(path: str, text: str) -> list[tuple[str, int, int]]:
    """The atoms of the last witness in clingo's ``--outf=2`` JSON, each with its line and column."""
    try:
        data = json.loads(text)
        witnesses = data["Call"][-1].get("Witnesses", []) if data["Call"] else []
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        raise MapError("not clingo's JSON output (--outf=2): " + str(e).split(":")[0],
                       Span(path, getattr(e, "lineno", 1), getattr(e, "colno", 1)), text) from None
    if not witnesses:
        raise MapError(f"clingo reports no solution: {data.get('Result', 'no witness')}", Span(path, 1, 1), text)
    out = []
    for atom in witnesses[-1].get("Value", []):
        at = text.rfind(json.dumps(atom))
        no = text.count("\n", 0, at) + 1
        out.append((str(atom), no, at - text.rfind("\n", 0, at) + 1))
    return out


class AspSession(Session):
    """A :class:`~gridlang.backend.Session` on one ``clingo.Control``.

    Each :meth:`add` grounds the new constraints into a program part of
    their own; each :meth:`solve` runs clingo (and the cut loop, with
    ``cuts``) again, keeping what it learnt. If clingo ever had to be left
    behind (it did not stop when asked), the next solve starts afresh.
    """

    def __init__(self, backend: AspBackend, model: Model, options: SolveOptions):
        super().__init__(backend, model, options)
        self.oracle: _Clingo | None = None
        self.strategy = ""

    def add(self, constraints: Iterable[Constraint]) -> None:
        constraints = list(constraints)
        self.extra.extend(constraints)
        if self.oracle is not None:
            self.oracle.add(constraints)

    def solve(self) -> Result:
        """Solve with everything added so far (see :meth:`AspBackend.solve`)."""
        start = time.perf_counter()
        build = 0.0
        # The driver's repairs must respect the added constraints too.
        model = self.model.with_constraints(tuple(self.extra)) if self.extra else self.model
        if self.oracle is None:
            try:
                self.oracle, self.strategy = self.backend._control(model, self.options, self.options.clock())
            except BuildTimeout as e:
                seconds = time.perf_counter() - start
                return Result(Status.UNKNOWN, seconds=seconds, build_seconds=seconds,
                              stats={"cut_rounds": 0, "cuts": 0, "solver_calls": 0,
                                     "reason": str(e) or "the time limit ran out while the program was written"})
            build = time.perf_counter() - start
        oracle = self.oracle
        out = lazy_solve(model, oracle, oracle.program.lazy, self.options.clock())
        if out.stats["abandoned"]:
            self.oracle = None
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        result = Result(status, out.assignment, out.objective, out.bound, build_seconds=build)
        result.stats.update(out.stats)
        result.stats.pop("learned_cuts", None)  # already in the Control
        result.stats["connectivity"] = self.strategy
        if not out.stats["abandoned"]:
            result.stats.update(oracle.statistics())
        result.seconds = time.perf_counter() - start
        return result


def _header(model: Model, program: Program) -> list[str]:
    def clean(s: object) -> str:
        return " ".join(str(s).split())

    lines = [f"% gridlang asp export: {clean(model.name)}"]
    lines += [f"% {clean(k)}: {clean(model.info[k])}" for k in sorted(model.info)]
    lines += [f"% param {clean(k)} = {clean(model.params[k])}" for k in sorted(model.params)]
    lines.append(f"% grid: {model.grid.rows} rows x {model.grid.cols} columns")
    lines.append("% encoding: choice rule per variable, integrity constraints, #count/#sum, "
                 "connectivity by recursive reachability")
    lines.append(f"% variables: {model.num_vars}, statements: {program.rules}")
    obj = model.objective
    if obj is None:
        lines.append("% objective: none")
    else:
        sign = "-" if obj.sense is Sense.MAXIMIZE else "+"
        lines.append(f"% objective: {obj.sense.value}; score = {program.constant} {sign} Optimization")
    lines.append("% run: clingo FILE > ANSWER, then gridlang decode ... --solution ANSWER --format asp")
    lines.append("% variable map: FILE.vars.json")
    return lines


def _variable_map(model: Model) -> dict[str, dict[str, object]]:
    def cell(var) -> list[int] | None:
        rowcol = var.rowcol or (model.grid.cell(var.cell) if var.cell is not None else None)
        return list(rowcol) if rowcol is not None else None

    return {f"x({v})": {"var": str(var), "family": var.family, "cell": cell(var), "value": var.value}
            for v, var in enumerate(model.variables, 1)}
