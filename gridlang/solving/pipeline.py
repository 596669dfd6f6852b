"""The main job: spec + map -> model -> backend -> decoded, verified answer.

:func:`solve` runs every phase, times each, and re-checks every answer twice:
against the IR (:func:`gridlang.ir.checks.violations`, which catches a solver that
returns what its own model forbids) and against the puzzle's rules
(:mod:`gridlang.plugins`, which catches an encoding that says something
other than the rules). Any failure raises
:class:`~gridlang.core.errors.VerificationError`; a wrong "optimal" never passes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterator

from gridlang.compiler import compile_spec
from gridlang.core import memory
from gridlang.core.collector import collect_as_usual
from gridlang.core.deadline import Deadline
from gridlang.core.errors import VerificationError
from gridlang.core.nodes import Record, field, replace
from gridlang.formats.maps import MapData, build_grid, check_variant, read_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import Interpreter
from gridlang.ir.backend import (
    DEFAULT_BACKEND,
    Result,
    Session,
    SolveOptions,
    Status,
    get_backend,
)
from gridlang.ir.checks import broken_constraints
from gridlang.ir.model import (
    Assignment,
    Clause,
    Cmp,
    Connected,
    Constraint,
    GraphConnected,
    Linear,
    Model,
)
from gridlang.ir.solution import Solution, blocking_clause, decode, split_answers
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.parser import parse_and_check_file
from gridlang.plugins import Verdict, find_plugin

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib


class Report(Record, frozen=False, slots=False):
    """Everything a solve produced.

    Attributes:
        model: the compiled model.
        backend: the backend's name.
        result: the backend's answer for the first (or only) solve.
        solution: the decoded first solution, when there is one.
        verdict: the puzzle verifier's verdict on it (None when the puzzle
            has no verifier; the IR check still ran).
        seconds: wall-clock seconds per phase: ``parse`` (spec, map and
            parameters), ``compile``, ``startup`` (what a process pays
            once: for the command line, from gridlang's first import to
            reading the spec, plus importing the solver library), ``solve``, ``verify``, ``total``.
        solutions: every solution found when counting (the first included).
        unique: with ``--unique`` (or a count that settles it): True when
            proved unique, False when a second solution was found, None when
            the proof ran out of time or was not asked for, and with an
            objective when the first answer is not proved optimal (a time
            or solver limit stopped it: uniqueness is of optimal answers).
        interrupted: the deadline was stopped by the user (Ctrl-C); the
            answer is the best one found until then.
        complete: when counting, True if the enumeration proved there are no
            more solutions than ``solutions``.
    """

    model: Model
    backend: str
    result: Result
    solution: Solution | None = None
    verdict: Verdict | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    solutions: list[Solution] = field(default_factory=list)
    unique: bool | None = None
    complete: bool | None = None
    interrupted: bool = False

    @property
    def status(self) -> str:
        """The status a person and ``--json`` read, from the backend's :class:`~gridlang.ir.backend.Status`.

        ``SOLVED`` for an answer to a puzzle without an objective (there is
        no optimum to prove); ``OPTIMAL`` only for an objective proved
        optimal; ``FEASIBLE``, ``INFEASIBLE``, ``UNKNOWN`` as the backend
        says. The one place the backends' statuses are translated.
        """
        status = self.result.status
        if self.model.objective is None and status.has_solution:
            return SOLVED
        return status.value

    @property
    def connectivity(self) -> str | None:
        """The connectivity strategy the backend used, or None when the model has no connectivity constraint."""
        if not any(isinstance(c, (Connected, GraphConnected)) for c in self.model.constraints):
            return None
        return self.result.stats.get("connectivity")

    @property
    def score(self) -> int | None:
        """The verified score (the verifier's), else the solver's objective."""
        if self.verdict is not None and self.verdict.score is not None:
            return self.verdict.score
        return self.result.objective


SOLVED = "SOLVED"
"""The reported status of a solved puzzle that has no objective (:attr:`Report.status`)."""


def load(spec_path: str | Path, map_path: str | Path, params: dict[str, str] | None = None,
         map_data: MapData | None = None, deadline: Deadline | None = None, files: bool = False
         ) -> tuple[Model, dict]:
    """Parse, check and compile; return the model and the seconds per phase.

    ``map_data``, when given, is the map already read (off a picture, say);
    ``map_path`` then only names it. The compiler reads ``deadline`` and
    raises :class:`~gridlang.core.deadline.BuildTimeout` when it passes.
    """
    t0 = time.perf_counter()
    spec, symbols = parse_and_check_file(spec_path)
    data = map_data or read_map(map_path, spec.puzzle.name if spec.puzzle else None, spec=spec)
    model, seconds = load_checked(spec, symbols, data, params, deadline, files)
    seconds.pop("read")
    seconds["parse"] = time.perf_counter() - t0 - seconds["compile"]
    return model, seconds


def load_checked(spec: ast.Spec, symbols: Symbols, data: MapData,
                 params: dict[str, str] | None = None, deadline: Deadline | None = None,
                 files: bool = False) -> tuple[Model, dict]:
    """Compile a parsed and checked spec against a read map.

    Args:
        spec: the spec's AST (:func:`gridlang.language.parser.parse_file`).
        symbols: its symbols (:func:`gridlang.language.checker.check`).
        data: the map (:func:`gridlang.formats.maps.read_map` or ``parse_map``).
        params: command-line parameter values, as text.
        deadline: the command's deadline, read while compiling.
        files: the model is to be written to a file (:func:`gridlang.compiler.compile_spec`).

    Returns:
        The model, and seconds: ``read`` (grid and parameters), ``compile``.

    Raises:
        GridlangError: a map or parameter problem, located; a map whose
            ``variant:`` header names other rules than the spec's.
        BuildTimeout: ``deadline`` passed while compiling.
    """
    t0 = time.perf_counter()
    check_variant(spec, data)
    with memory.fewer_collections():  # the grid's records, as the model's (compile_spec), make no cycle
        grid = build_grid(symbols, data)
    values = resolve_params(symbols, data, params)
    t1 = time.perf_counter()
    collect_as_usual()  # what was loaded is frozen and Python's thresholds put back; the compile raises the
    # youngest generation's itself while it runs (core.memory.fewer_collections)
    model = compile_spec(spec, symbols, grid, values, map_path=data.path, map_data=data, deadline=deadline,
                         files=files)
    return model, {"read": t1 - t0, "compile": time.perf_counter() - t1, "parse": 0.0}


def verify(model: Model, assignment: Assignment, objective: int | None = None,
           answer: str = "the solver's answer") -> tuple[Solution, Verdict | None]:
    """Check an assignment three ways: the IR, the spec's own rules, the puzzle's published rules.

    1. :func:`gridlang.ir.checks.violations`: the solver answered its own model.
    2. :mod:`gridlang.interpreter`: every rule of the spec, evaluated from
       the AST by sets and BFS, holds, and the spec's objective equals the
       model's (a compiler or encoding mistake shows here). Skipped for a
       model built by hand (``model.source`` is None).
    3. The puzzle plug-in's verifier, written from the published rules,
       when the puzzle has one; its score is the one reported.

    Args:
        model: the model it answers.
        assignment: the answer.
        objective: the solver's claimed objective, compared with the score.
        answer: what the answer is, for messages (``the answer in FILE``).

    Returns:
        The decoded solution and the verdict of the puzzle's plug-in (None if
        its plug-in has no verifier: see :mod:`gridlang.plugins`).

    Raises:
        VerificationError: a constraint or rule is broken, or the claimed
            objective differs from the score the rules give.
    """
    with memory.fewer_collections():  # the interpreter's records make no cycle either
        return _verify(model, assignment, objective, answer)


def _verify(model: Model, assignment: Assignment, objective: int | None, answer: str
            ) -> tuple[Solution, Verdict | None]:
    broken = broken_constraints(model, assignment)
    if broken:
        raise VerificationError(f"{answer} breaks the compiled model:\n" + _by_statement(model, broken))
    solution = decode(model, assignment)
    if model.source is not None:
        judged = _interpreter(model).evaluate(solution.decisions)
        if not judged.ok:
            raise VerificationError(f"{answer} breaks the spec's own rules:\n" + judged.render())
        if model.objective is not None and judged.objective != model.objective.value(assignment):
            raise VerificationError(f"the objective ({model.objective.span}): the spec's rules score {answer} "
                                    f"{judged.objective}, but the compiled model scores it "
                                    f"{model.objective.value(assignment)}")
    verdict = find_plugin(model.name).verify(model.grid, solution, dict(model.params), model.info.get("variant"))
    if verdict is not None:
        if not verdict.ok:
            raise VerificationError(f"{answer} breaks the {model.name} rules: " + "; ".join(verdict.problems))
        if objective is not None and verdict.score is not None and objective != verdict.score:
            raise VerificationError(
                f"the solver claims {objective}, but the {model.name} rules score this answer {verdict.score}")
    elif model.objective is not None and objective is not None:
        if model.objective.value(assignment) != objective:
            raise VerificationError(f"the solver claims {objective}, but {answer} has objective "
                                    f"{model.objective.value(assignment)} ({model.objective.span})")
    return solution, verdict


def _by_statement(model: Model, broken: list[tuple[Constraint, str]], shown: int = 8) -> str:
    """The broken constraints grouped by the spec statement each comes from,
    one line per statement: its place, its text, how many are false, the first.

    Returns:
        Lines ``SPEC:LINE:COL: 'STATEMENT': N constraints false, e.g. ...``;
        constraints of no statement (auxiliary definitions) come last.
    """
    groups: dict[object, list[str]] = {}
    for con, message in broken:
        key = (con.span.file, con.span.line, con.span.column) if con.span is not None else None
        groups.setdefault(key, []).append(message)
    source = model.source[0].source.splitlines() if model.source is not None else []
    lines = []
    for key, messages in sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ())):
        count = f"{len(messages)} constraints false, e.g. " if len(messages) > 1 else ""
        if key is None:
            lines.append(f"  auxiliary definitions: {count}{messages[0]}")
            continue
        file, line, col = key
        text = source[line - 1].strip() if 0 < line <= len(source) else ""
        text = text if len(text) <= 60 else text[:57] + "..."
        lines.append(f"  {file}:{line}:{col}: '{text}': {count}{messages[0]}")
    more = f"\n  ... and {len(lines) - shown} more statements" if len(lines) > shown else ""
    return "\n".join(lines[:shown]) + more


_INTERPRETER: list = []  # [(source, grid, Interpreter)] of the model verified last


def _verify_split(model: Model, solution: Solution) -> Verdict | None:
    """Check an answer read off another by splitting a block of an open value
    (:func:`gridlang.ir.solution.split_answers`) against the spec's rules and the puzzle's: it has no
    assignment of the model.

    Raises:
        VerificationError: it breaks a rule.
    """
    if model.source is not None:
        judged = _interpreter(model).evaluate(solution.decisions)
        if not judged.ok:
            raise VerificationError("a block split into blocks of other sizes breaks the spec's own rules:\n"
                                    + judged.render())
    verdict = find_plugin(model.name).verify(model.grid, solution, dict(model.params), model.info.get("variant"))
    if verdict is not None and not verdict.ok:
        raise VerificationError(f"a block split into blocks of other sizes breaks the {model.name} rules: "
                                + "; ".join(verdict.problems))
    return verdict


def _interpreter(model: Model) -> Interpreter:
    """The spec's interpreter on ``model``'s map and parameters, kept for the model verified last."""
    if _INTERPRETER and _INTERPRETER[0][0] is model.source and _INTERPRETER[0][1] is model.grid:
        return _INTERPRETER[0][2]
    spec, symbols = model.source
    judge = Interpreter(spec, symbols, model.grid, dict(model.params))
    _INTERPRETER[:] = [(model.source, model.grid, judge)]
    return judge


def solve(spec_path: str | Path, map_path: str | Path, params: dict[str, str] | None = None,
          backend: str = DEFAULT_BACKEND, options: SolveOptions | None = None,
          count: int | None = None, unique: bool = False, map_data: MapData | None = None) -> Report:
    """Solve a puzzle end to end and verify the answer.

    Args:
        spec_path: the ``.grid`` spec.
        map_path: the map or instance.
        params: command-line parameter values, as text.
        backend: ``auto`` (picks one per model, see :mod:`gridlang.solving.auto`), ``cpsat``, ``milp``,
            ``maxsat`` or ``asp``.
        options: solver options (time limit in seconds, workers, strategy).
        count: enumerate up to this many distinct solutions (projected onto
            the decisions; with an objective, optimal ones).
        unique: prove the solution unique or find a second one.
        map_data: the map already read (see :func:`load`), or None to read ``map_path``.

    The time limit (``options.time_limit``, seconds) covers the whole call,
    from parsing to the last verified answer: one
    :class:`~gridlang.core.deadline.Deadline` is made at the start (or
    ``options.deadline`` used) and shared by every solve.

    Returns:
        The report.

    Raises:
        GridlangError: bad input (located), a missing backend, or a failed
            verification.
        BuildTimeout: the time limit ran out while the model was compiled
            (no model, so no report: the answer is UNKNOWN).
    """
    options = options or SolveOptions()
    if options.deadline is None:
        options = replace(options, deadline=Deadline(options.time_limit))
    # A command's clock starts with the process's first gridlang import: what
    # it spent before reading the spec (importing gridlang, Lark and the
    # language, reading the command line) is start-up too.
    before = options.deadline.elapsed()
    model, seconds = load(spec_path, map_path, params, map_data, options.deadline)
    seconds["startup"] = before
    return solve_model(model, backend, options, count, unique, seconds)


def solve_model(model: Model, backend: str = DEFAULT_BACKEND, options: SolveOptions | None = None,
                count: int | None = None, unique: bool = False, seconds: dict | None = None) -> Report:
    """Solve a compiled model and verify; see :func:`solve`.

    The deadline is ``options.deadline``, else one made now from
    ``options.time_limit``; every solve (the first, the uniqueness proof,
    each counted solution) gets what it has left.
    """
    options = options or SolveOptions()
    if options.deadline is None:
        options = replace(options, deadline=Deadline(options.time_limit))
    limit = 2 if unique else count
    with memory.fewer_collections():  # a full collection here would walk the whole model, finding nothing
        report, session = first_answer(model, backend, options, max(limit or 1, 1), seconds)
        if limit is not None and limit > 1 and report.solution is not None:
            for _ in more_answers(session, report):
                if len(report.solutions) >= limit:
                    break
            if len(report.solutions) > 1:
                report.unique = False
            elif report.complete:
                report.unique = True
    finish(report, options)
    return report


def first_answer(model: Model, backend: str = DEFAULT_BACKEND, options: SolveOptions | None = None,
                 solutions: int = 1, seconds: dict | None = None) -> tuple[Report, Session | None]:
    """Solve a compiled model once and verify its answer.

    Args:
        model: the model.
        backend: the backend's name.
        options: solver options; the deadline is ``options.deadline``, else
            one made now from ``options.time_limit``.
        solutions: how many answers the caller will ask for in all (2 or
            more turns off what serves a single answer only: ``auto``'s
            race, the window start).
        seconds: the seconds of the phases before, added to.

    Returns:
        The report (``seconds`` has ``startup``, ``solve`` and ``verify``,
        not yet ``total``: see :func:`finish`), and the session to ask for
        more answers (:func:`more_answers`), or None when the time ran out
        before the first solve.

    Raises:
        GridlangError: a missing backend, a setting it refuses, a failed
            verification.
    """
    options = options or SolveOptions()
    if options.deadline is None:
        options = replace(options, deadline=Deadline(options.time_limit))
    options = replace(options, solutions=solutions)
    seconds = dict(seconds or {})
    t0 = time.perf_counter()
    engine = get_backend(backend)
    expired = options.deadline.expired()
    if not expired:
        memory.check(model, engine.runs_as(model, options), options.memory_limit)
        engine.load_library(model, options)  # about 1 s for OR-Tools or Pyomo: not when no time is left
    seconds["startup"] = seconds.get("startup", 0.0) + time.perf_counter() - t0
    t0 = time.perf_counter()
    session = None
    if expired:
        # Parsing and compiling used the time up: no solver is started.
        result = Result(Status.UNKNOWN, stats={"reason": f"{options.deadline.cause()} before solving"})
    else:
        # The search (this one and more_answers') ends early enough for its last answer to be
        # checked within the limit.
        session = engine.session(model, replace(options, deadline=options.deadline.ahead(check_seconds(model))))
        result = session.solve()
    seconds["solve"] = time.perf_counter() - t0
    if options.deadline.reason is not None:
        result.stats["stopped"] = options.deadline.reason  # a watchdog's stop, not the user's
    report = Report(model, backend, result, seconds=seconds)
    report.interrupted = options.deadline.interrupted and options.deadline.reason is None
    seconds["verify"] = 0.0
    if result.status.has_solution:
        t1 = time.perf_counter()
        report.solution, report.verdict = verify(model, result.assignment, result.objective)
        seconds["verify"] += time.perf_counter() - t1
        report.solutions.append(report.solution)
    return report, session


CHECK_SECONDS_PER_ITEM = 3e-6
"""Seconds to finish with one answer, per variable, constraint and literal of the model:
the cut loop's repair, the backend's own check (:func:`gridlang.ir.checks.violations`) and
:func:`verify`. Measured on the near-empty 40x1000 map (about 870,000 items) on the
shared 2-core machine under a load of 8: 0.55, 0.75 and 0.73 s."""


def check_seconds(model: Model) -> float:
    """The seconds a search keeps back to check its last answer within the time limit
    (:data:`CHECK_SECONDS_PER_ITEM` per item of the model, as :func:`gridlang.core.memory.estimate`
    counts them); none below a quarter of a second, which the limit's slack covers (the
    real maps' models, whose time then goes to the search, as before)."""
    seconds = CHECK_SECONDS_PER_ITEM * memory.items(model)
    return seconds if seconds >= 0.25 else 0.0


def finish(report: Report, options: SolveOptions) -> None:
    """Close a report's timing: ``total``, the whole command by the deadline's clock (for the CLI,
    from its start: importing gridlang's own modules is in it, though in no phase)."""
    seconds = report.seconds
    report.interrupted = options.deadline.interrupted and options.deadline.reason is None
    seconds["total"] = max(sum(v for k, v in seconds.items() if k != "total"), options.deadline.elapsed())


def more_answers(session: Session, report: Report) -> Iterator[tuple[Solution, Verdict | None]]:
    """Find further answers by blocking clauses, each verified, until none is left or the deadline passes.

    Each clause goes into ``session``, the backend's :class:`Session`, which
    rebuilds the solver model or (MILP) adds the clause to the one it kept.
    With an objective and an optimal first answer, only optimal answers
    are found (the objective is fixed at its optimum).

    Args:
        session: the session of :func:`first_answer`.
        report: its report, whose first answer is blocked first; each
            answer is appended to ``report.solutions``, its seconds to
            ``report.seconds``, and ``report.complete`` says whether the
            enumeration proved there are no more.

    Yields:
        Each further answer and the puzzle verifier's verdict on it (None
        when the puzzle has no verifier).

    Raises:
        VerificationError: an answer fails verification.
    """
    model, first = report.model, report.result
    report.complete = False
    if model.objective is not None and first.status is not Status.OPTIMAL:
        # Uniqueness and counts are of optimal answers: without a proof of the
        # first one's optimality (a time or solver limit), neither is settled.
        return
    if model.objective is not None:
        # Count optimal solutions only: fix the objective at its optimum.
        terms = model.objective.terms
        session.add([Linear(terms, Cmp.EQ, first.objective - model.objective.constant)])
    last = first.assignment
    deadline = session.options.clock()
    while not deadline.expired():
        session.add([Clause(blocking_clause(model, last))])
        t0 = time.perf_counter()
        res = session.solve()
        report.seconds["solve"] += time.perf_counter() - t0
        if res.status is Status.INFEASIBLE:
            # A block the model reads as one may stand for several answers (blocks' open values).
            complete = True
            for found in list(report.solutions):
                others, proved = split_answers(model, found)
                complete = complete and proved
                for other in others:
                    verdict = _verify_split(model, other)
                    report.solutions.append(other)
                    yield other, verdict
            report.complete = complete
            return
        if not res.status.has_solution:
            return
        t1 = time.perf_counter()
        solution, verdict = verify(model, res.assignment, res.objective)
        report.seconds["verify"] += time.perf_counter() - t1
        report.solutions.append(solution)
        last = res.assignment
        yield solution, verdict


def compile_url(url: str, spec: str | Path | None = None, params: dict[str, str] | None = None, deadline=None):
    """Parse, check and compile a spec against a URL's puzzle.

    Args:
        url: the puzz.link URL.
        spec: the spec to use, or None for the genre's bundled one.
        params: parameter values from the command line, as text.
        deadline: the command's :class:`~gridlang.core.deadline.Deadline`, read while compiling.

    Returns:
        ``(model, seconds)``: the model, and seconds ``parse`` (the URL,
        the spec, the grid and parameters) and ``compile``.

    Raises:
        GridlangError: a bad URL, spec, map or parameter, located.
        BuildTimeout: ``deadline`` passed while compiling.
    """
    # only for a URL: a map's solve never imports the puzz.link package
    from gridlang.formats.puzzlink import load_url

    t0 = time.perf_counter()
    path, decoded, data = load_url(url, spec)
    tree, symbols = parse_and_check_file(path)
    parse = time.perf_counter() - t0
    model, seconds = load_checked(tree, symbols, data, params, deadline)
    seconds["parse"] = parse + seconds.pop("read", 0.0)  # the URL, the spec, the grid and parameters
    model.info["spec"] = str(path)
    model.info["map"] = url
    return model, seconds
