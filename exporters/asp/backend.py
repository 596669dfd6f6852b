"""ASP backend: the IR as a logic program, solved by clingo (Potassco).

The logic program (IR -> gringo's input language) is built by
:mod:`gridlang.exporters.asp.program`, whose docstring states the lowering.

Connectivity, strategy ``reach`` (the default): the reachability rules of
the program. Strategy ``cuts``: the lazy separator-cut loop of
:mod:`gridlang.ir.connectivity.driver`, clingo as the oracle, seeded with the
cut-vertex cuts of :func:`gridlang.ir.connectivity.separation.seed_cuts`; each round's
cuts are grounded into a new part of the same ``clingo.Control``
(multi-shot solving: what clasp learnt stays).

Building: the text of :class:`~gridlang.exporters.asp.program.Program` (the choice
of the variables, the connectivity facts and rules) is grounded; the
clauses, rows and objective go to clingo's backend as ground rules
(:func:`~gridlang.exporters.asp.rules.add_direct`), the same ground program at a
fraction of the time and memory, read against the deadline every 4,096
constraints. A program whose grounding clearly would not fit in the memory
limit is not grounded (:func:`~gridlang.exporters.asp.control.check_grounding_memory`).

Solving: ground once, solve with ``--opt-mode=opt`` (every improving model,
the last proved optimal) asynchronously; the calling thread waits in steps
of 0.05 s and cancels the search when the command's
:class:`~gridlang.core.deadline.Deadline` passes; a stop (Ctrl-C) reaches clingo
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
:data:`OPTIMIZING_THREADS` for a model with an objective searched
``split`` or priced as below, and :data:`DEFAULT_THREADS` otherwise),
``parallel`` (how those threads share
the work: ``compete``, clingo's portfolio, each thread searching the whole
space its own way; ``split``, the space divided between them, each part
searched once; ``auto``: ``compete`` when the objective prices decisions off
the regions, as costly walls do, where branch and bound beside a
core-guided thread won, and ``split`` for any other objective, where on the
214 dailies, warm, clingo's median went from 0.063 to 0.050 s and its total
from 52 to 38 s against one thread, no map slower by a fifth, while on the
costly walls ``split`` lost to the portfolio; a batch's workers search
``compete``, :attr:`AspBackend.batch_settings`), ``trans_ext``
(``--trans-ext``; ``auto``: ``card`` when the model has an objective and
the rewriting makes at most :data:`~gridlang.exporters.asp.rules.CARD_MAX_ATOMS`
auxiliary atoms, so
that clasp rewrites cardinality constraints into normal rules and learns
over their auxiliary atoms: clingo's own ``dynamic`` kept the wall budget
of some dailies as one native constraint and proved daily-2026-06-04 in
27 s, where ``card`` takes 0.04 s; the 214 dailies, warm, took a median
of 0.104 s and a p90 of 0.48 s with ``card``, against 0.144 and 0.63 s
before; ``dynamic`` without one, where ``card`` made the Snake Eggs set
slower, median 0.64 to 0.85 s and maximum 3.0 to 9.0 s),
``lookahead`` (``--lookahead``, failed-literal detection; ``auto``: ``atom``
for a model without an objective whose regions are all rooted, one of known size,
:func:`~gridlang.exporters.asp.rules.probes_regions`), ``opt_heuristic``
(``--opt-heuristic``; ``auto``: ``sign`` for an objective that prices no
decision and values one region, :func:`~gridlang.exporters.asp.rules.steers_by_sign`: on the 214
dailies, warm, the split search's median went from 0.043 to 0.040 s and one
thread's from 0.067 to 0.062 s), ``options`` (any clingo option, one at a time:
``--set asp.options.configuration=crafty``; ``true`` gives the bare flag).
clingo checks them all; one it refuses is a :class:`~gridlang.core.errors.BackendError`.

``write`` saves the program as a ``.lp`` file for the clingo application
(format ``asp``; the wheel's is ``python -m clingo``, as the header says)
with a ``.vars.json`` sidecar; ``read_solution`` reads clingo's answer back
(its text output, or ``--outf=2`` JSON).
"""

from __future__ import annotations

import json
import re
import time
from typing import ClassVar, Collection, Iterable, Mapping

from gridlang.exporters.asp.control import Clingo, check_grounding_memory
from gridlang.exporters.asp.program import Program, _header, _variable_map
from gridlang.exporters.asp.rules import auto_flags, prices_decisions, survey

from gridlang.core.deadline import BuildTimeout, Deadline
from gridlang.core.errors import BackendError, MapError, Span
from gridlang.core.nodes import Record, field
from gridlang.core.settings import Settings, frozen_mapping
from gridlang.ir.backend import Backend, Result, Session, SolveOptions, Status
from gridlang.ir.connectivity.driver import lazy_solve
from gridlang.ir.model import (
    Assignment,
    Clause,
    Connected,
    Constraint,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
)

DEFAULT_THREADS = 1
"""clingo's threads for a model without an objective (a puzzle's answer, its uniqueness)."""
OPTIMIZING_THREADS = 2
"""clingo's threads for a model with an objective (enclose.horse and its variants), shared as ``parallel`` says."""


class AspSettings(Settings, Record, slots=False):
    """The asp backend's settings, ``asp.NAME`` in ``SolveOptions.extra``.

    Attributes:
        opt_strategy: clingo's ``--opt-strategy`` (``bb``, ``usc``...), or
            ``auto`` for clingo's default.
        threads: clingo's parallel solving threads; 0 for the backend's
            default (see the module docstring).
        parallel: how the threads share the search (clingo's
            ``--parallel-mode`` after the count): ``compete`` (a
            portfolio), ``split`` (the search space divided), or ``auto``
            (see the module docstring).
        trans_ext: clingo's ``--trans-ext``, which extended rules clasp
            rewrites into normal rules before solving: ``card`` the
            cardinality constraints, such as a wall budget; ``dynamic``
            (clingo's own default) those it judges small; ``all``,
            ``weight`` and ``no``. ``auto`` (the default): ``card`` for a
            model with an objective whose rewriting stays small
            (:func:`~gridlang.exporters.asp.rules.translates_cards`), ``dynamic``
            otherwise.
        lookahead: clingo's ``--lookahead``, failed-literal detection
            (``atom``, ``body``, ``hybrid``, ``no``): each open atom is tried
            true and false and propagated, and a side that fails fixes the
            other. ``auto`` (the default): ``atom`` for a model without an
            objective whose regions are all rooted, one of known size
            (:func:`~gridlang.exporters.asp.rules.probes_regions`), ``no`` otherwise.
        opt_heuristic: clingo's ``--opt-heuristic``, how the objective steers the
            search's decisions (``sign``: each decision first takes the sign that does not
            raise the cost; ``model``; ``sign,model``), or ``no``. ``auto`` (the default):
            ``sign`` for an objective that prices no decision and values one region (a
            standard map's pen, :func:`~gridlang.exporters.asp.rules.steers_by_sign`), ``no``
            otherwise.
        options: any clingo command-line option, one at a time as
            ``asp.options.NAME`` (``--set asp.options.configuration=crafty``); one
            gridlang sets itself (``--parallel-mode``, ``--trans-ext``, ``--lookahead``, ``--opt-heuristic``)
            given here, by its name or a beginning of it clingo takes for it
            (``parallel=4``), replaces gridlang's.
    """

    bare: ClassVar[bool] = True
    opt_strategy: str = "auto"
    threads: int = 0
    parallel: str = "auto"
    trans_ext: str = "auto"
    lookahead: str = "auto"
    opt_heuristic: str = "auto"
    options: Mapping[str, object] = field(default_factory=frozen_mapping)

    def check(self, backend: str) -> None:
        """Refuse a ``parallel`` that is no way of sharing the search, and the clingo options that change
        what its answers mean (:data:`REFUSED_OPTIONS`).

        clingo takes any unambiguous beginning of an option's name for the
        option (``--enum`` for ``--enum-mode``), so a name that begins one of
        :data:`REFUSED_OPTIONS` is refused as that option would be.

        Raises:
            BackendError: ``parallel`` other than ``auto``, ``compete`` or ``split``; the first
                refused option, with the reason.
        """
        if self.parallel not in ("auto", "compete", "split"):
            raise BackendError(f"backend {backend!r}: setting 'parallel' takes auto, compete or split, "
                               f"not {self.parallel!r}")
        for key, value in self.options.items():
            name = _option_name(key)
            for full in _taken_for(name, REFUSED_OPTIONS):
                allowed, why = REFUSED_OPTIONS[full]
                if str(value).lower() not in allowed:
                    read = f" (clingo takes '--{name}' for it)" if full != name else ""
                    shown = f"--{full}" if value is True else f"--{full}={value}"
                    raise BackendError(f"clingo option '{shown}'{read} is refused: {why}")


_OWN_OPTIONS = ("parallel-mode", "trans-ext", "lookahead", "opt-heuristic")
"""The clingo options gridlang sets from its settings, unless the user's ``asp.options`` give them."""

REFUSED_OPTIONS: dict[str, tuple[frozenset[str], str]] = {
    "enum-mode": (frozenset({"auto", "bt", "record"}),
                  "its answer would be the brave or cautious consequences (or a subset-minimal or user's "
                  "model), not an answer of the puzzle; bt, record and auto enumerate answers"),
    "project": (frozenset({"no", "false"}),
                "gridlang projects answers onto the decisions itself (--count, --unique)"),
    "opt-mode": (frozenset(), "gridlang runs clingo with --opt-mode=opt, whose last model it proves optimal"),
    "models": (frozenset(), "gridlang sets how many models clingo computes (--count and --unique ask for more)"),
    "supp-models": (frozenset({"false", "no"}),
                    "supported models are not answer sets: a region could be held together by a loop of its "
                    "own cells instead of being reached from its root"),
    "no-ufs-check": (frozenset({"false", "no"}),
                     "without the unfounded-set check clingo's answers need not be answer sets: a region "
                     "could be held together by a loop of its own cells"),
    "lemma-in": (frozenset(), "lemmas read from a file are taken as proved, so statuses would rest on them"),
}
"""clingo options that change what its answers or statuses mean: name -> (the values
allowed, the reason for refusing any other). Options that only stop the search early
(``solve-limit``, ``opt-stop``) are allowed: clingo then reports no exhausted search,
and the answer is FEASIBLE with its bound."""

_LONG_NAMES = {"e": "enum-mode", "n": "models"}
"""clingo's one-letter options that :data:`REFUSED_OPTIONS` names in full."""


def _option_name(key: object) -> str:
    """A clingo option's name as ``asp.options.NAME`` gives it, without dashes, a one-letter alias of
    :data:`_LONG_NAMES` written in full."""
    given = str(key).lstrip("-")
    return _LONG_NAMES.get(given, given)


def _taken_for(name: str, full_names: Iterable[str]) -> list[str]:
    """The options of ``full_names`` clingo takes the option ``name`` for: the one so named, else each
    that ``name`` begins (clingo takes any unambiguous beginning of a name for it; a one-letter name is
    a short option, never a beginning)."""
    full_names = list(full_names)
    if name in full_names:
        return [name]
    return [n for n in full_names if n.startswith(name)] if len(name) > 1 else []


# --------------------------------------------------------------------------
# solving


def beyond_reach(con: Connected) -> bool:
    """Whether a region goes to the cut loop by default rather than to the reach rules: more than
    :data:`REACH_MAX_MEMBERS` members with a root (unless of known size), more than
    :data:`REACH_MAX_UNROOTED` without one."""
    if con.roots and con.size is not None:
        return False
    return len(con.members) > (REACH_MAX_MEMBERS if con.roots else REACH_MAX_UNROOTED)


GROUND_FACTOR = 2.5
"""clingo grounds a program in about this many times the seconds it took to
write it (2.5 to 4.5 on the near-empty 60x60 and 100x100 maps, under load)."""

REACH_MAX_MEMBERS = 1000
"""By default, rooted regions of more members than this go to the cut loop, not to ``reach``, unless
of known size."""

REACH_MAX_UNROOTED = 2500
"""By default, regions without a root (no cell surely in them) of more members than this go to the
cut loop. Without a root each cut only parts two pieces of an answer, and the loop takes many rounds:
LITS's shaded cells on the puzzlekit-dataset's 40x57, 33 rounds and 19,960 cuts, and one of its
31x45s unsettled at 60 s, both proved by the reach rules (docs/benchmarks.md)."""


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
    native = frozenset({Clause, Linear, Connected, GraphConnected, EqualBlocks})
    settings_class = AspSettings
    # A batch of one process per core: two processes of two split threads on two cores took the
    # 214 dailies from 33.3 to 44.4 s (a split search spends more CPU seconds than one thread does).
    batch_settings = frozen_mapping({"parallel": "compete"})

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks of the last :meth:`write` (printed by the CLI)."""

    def prepare(self, model: Model, native: Collection[type] | None = None,
                passes: Mapping[str, Mapping[str, object]] | None = None) -> Model:
        """As :meth:`gridlang.ir.backend.Backend.prepare`, which returns ``model`` itself when every node of
        it is native and no connectivity node has a root outside its members: that case is read from the
        model's :func:`~gridlang.exporters.asp.rules.survey`, with no pass over its clauses.

        Raises:
            BackendError: as :meth:`gridlang.ir.backend.Backend.prepare`.
        """
        found = survey(model)
        if native is None and found.kinds <= self.native and not any(
                con.roots and not {v for v, _ in con.members}.issuperset(con.roots)
                for con in found.regions + found.graphs):
            return model
        return super().prepare(model, native, passes)

    def arguments(self, options: SolveOptions, model: Model | None = None) -> list[str]:
        """clingo's command-line arguments for ``options`` (settings checked by clingo when used).

        Args:
            options: the solve options and their ``asp.`` settings.
            model: the model, for the default thread count, ``trans_ext``, ``lookahead`` and
                ``opt_heuristic`` (see the module docstring).

        Raises:
            BackendError: an unknown ``asp.`` setting, a value of the wrong
                type, or fewer than 1 thread.
        """
        settings = self.configure(options)
        s = {"opt_strategy": settings.opt_strategy, "threads": settings.threads, "trans_ext": settings.trans_ext,
             "lookahead": settings.lookahead, "opt_heuristic": settings.opt_heuristic,
             "options": dict(settings.options)}
        parallel = settings.parallel
        optimizing = model is not None and model.objective is not None
        priced = optimizing and prices_decisions(model)
        if parallel == "auto":
            parallel = "split" if optimizing and not priced else "compete"
        default = OPTIMIZING_THREADS if priced or (optimizing and parallel == "split") else DEFAULT_THREADS
        threads = int(s["threads"]) or options.workers or default
        if threads < 1:
            raise BackendError(f"backend 'asp' needs at least 1 thread, not {threads}")
        args = ["--opt-mode=opt"]
        if s["opt_strategy"] != "auto":
            args.append(f"--opt-strategy={s['opt_strategy']}")
        # An option given raw wins over gridlang's own, by whatever name clingo takes for it (--parallel=4).
        given = {full for key in s["options"] for full in _taken_for(_option_name(key), _OWN_OPTIONS)}
        if threads > 1 and "parallel-mode" not in given:
            args.append(f"--parallel-mode={threads}" + (",split" if parallel == "split" else ""))
        auto = auto_flags(model)
        if "trans-ext" not in given:
            trans = auto["trans-ext"] if s["trans_ext"] == "auto" else s["trans_ext"]
            args.append(f"--trans-ext={trans}")
        if "lookahead" not in given:
            look = auto["lookahead"] if s["lookahead"] == "auto" else s["lookahead"]
            if look != "no":
                args.append(f"--lookahead={look}")
        if "opt-heuristic" not in given:
            steer = auto["opt-heuristic"] if s["opt_heuristic"] == "auto" else s["opt_heuristic"]
            if steer != "no":
                args.append(f"--opt-heuristic={steer}")
        for name, value in sorted((str(key).lstrip("-"), value) for key, value in s["options"].items()):
            args.append(f"--{name}" if value is True else f"--{name}={'no' if value is False else value}")
        return args

    def _control(self, model: Model, options: SolveOptions, deadline: Deadline | None = None) -> tuple[Clingo, str]:
        """The program grounded into a new ``clingo.Control``, and the strategy.

        Raises:
            BuildTimeout: ``deadline`` passed while the program was written,
                or clearly would while clingo grounds it (which cannot be
                stopped: about :data:`GROUND_FACTOR` times as long as
                writing the program took).
        """
        strategy = self.strategy(options, model)
        if self.requested(options, model) is None and strategy == "reach" and any(
                beyond_reach(con) for con in survey(model).regions):
            # Grounding reachability grows faster than the region (a 3,265-cell
            # pen: 35 s and 0.9 GB, and clingo cannot be stopped while it
            # grounds); the cut loop grounds the rules alone. A rooted region of
            # known size stays with reach: Nurikabe's wall of 1,700 cells at
            # 50x50 grounds in seconds, and the cut loop left it unsolved where
            # reach proves it unique in 57 s (docs/benchmarks.md). A region
            # without a root stays with reach up to REACH_MAX_UNROOTED members.
            strategy = "cuts"
        arguments = self.arguments(options, model)
        self.load_library()
        t = time.perf_counter()
        program = Program(model, strategy, deadline, direct=True)
        spent = time.perf_counter() - t
        remaining = deadline.remaining() if deadline is not None else None
        if remaining is not None and remaining < GROUND_FACTOR * spent:
            raise BuildTimeout(f"the time limit would run out while clingo grounds the program (about "
                               f"{GROUND_FACTOR * spent:.1f} s, {remaining:.1f} s left)")
        check_grounding_memory(program, options.memory_limit, deadline)
        return Clingo(model, program, arguments, options.log, deadline), strategy

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
        with self.session(model, options) as session:
            return session.solve()

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
        if self.strategy(options, model) != "reach":
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
        with open(path, encoding="utf-8") as f:
            text = f.read()
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
    """A :class:`~gridlang.ir.backend.Session` on one ``clingo.Control``.

    Each :meth:`add` grounds the new constraints into a program part of
    their own; each :meth:`solve` runs clingo (and the cut loop, with
    ``cuts``) again, keeping what it learnt. If clingo ever had to be left
    behind (it did not stop when asked), the next solve starts afresh.
    """

    def __init__(self, backend: AspBackend, model: Model, options: SolveOptions):
        super().__init__(backend, model, options)
        self.oracle: Clingo | None = None
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
                clock = self.options.clock()
                self.oracle, self.strategy = self.backend._control(model, self.options, clock)
            except BuildTimeout as e:
                seconds = time.perf_counter() - start
                return Result(Status.UNKNOWN, seconds=seconds, build_seconds=seconds,
                              stats={"cut_rounds": 0, "cuts": 0, "solver_calls": 0,
                                     "reason": str(e) or f"{clock.cause()} while the program was written"})
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

    def release(self) -> None:
        """Let clingo's Control go (:meth:`Clingo.release`); a later :meth:`solve` starts afresh."""
        if self.oracle is not None:
            self.oracle.release()
            self.oracle = None


