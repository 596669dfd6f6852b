"""The calls every front end makes: load a spec, solve, enumerate, export and verify maps, and ask
why (forced cells, explanations, hints), and make puzzles.

The Python API (:mod:`gridlang.api`) is these functions under their public names; the page
(:mod:`gridlang.web`), the batches and the benchmark (:mod:`gridlang.batch`) and the command
line's ``generate`` call them here, so that no front end imports another. docs/api.md shows each
at work. ``solve``, ``forced``, ``explain`` and ``hints`` are each one
:class:`~gridlang.service.solve.Request` run by :func:`gridlang.service.solve.run`, as the
command line's ``solve`` and ``hint`` and the page's solve are; ``solutions`` compiles its
request's model and asks for the answers one at a time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Iterator, Mapping

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.core.grid import parse_size
from gridlang.formats import catalog
from gridlang.formats.maps import MapData, build_grid
from gridlang.formats.params import resolve_params
from gridlang.interpreter import evaluate
from gridlang.ir.backend import DEFAULT_BACKEND, SolveOptions, Status, get_backend
from gridlang.ir.model import Model
from gridlang.service.json_report import report_json
from gridlang.service.result import SolveResult, result_of
from gridlang.service.solve import Request, compile_request, read, run
from gridlang.solving.pipeline import Report, finish, first_answer, load_checked, more_answers
from gridlang.solving.spec import Spec, bundled, load_spec, spec_of


def bundled_specs() -> tuple[str, ...]:
    """The names of the shipped specs, sorted, for :func:`bundled`."""
    return catalog.spec_names()


def bundled_map(name: str) -> Path:
    """The file of a map or instance shipped with gridlang, for ``map=``.

    Args:
        name: its path under the repository's ``puzzles/maps/`` or
            ``puzzles/instances/``, without ``.txt``: ``daily-2026-01-07``,
            ``nurikabe/pzprjs_5x5``, ``snake_eggs/jandhyala_ch32_6x6``
            (:func:`bundled_maps` lists them).

    Raises:
        NotBundledError: no shipped map has that name (the message names the closest).
    """
    return catalog.map_path(name)


def bundled_maps(under: str | None = None) -> tuple[str, ...]:
    """The names of the shipped maps and instances, sorted, for :func:`bundled_map`.

    Args:
        under: only a genre's instances (``nurikabe``, ``snake_eggs``), or None for all.
    """
    return catalog.map_names(under)


def solve(spec: Spec | str | Path | None = None, map: str | Path | MapData | None = None,
          backend: str = DEFAULT_BACKEND, time_limit: float | None = None,
          params: Mapping[str, object] | None = None, unique: bool = False, count: int | None = None,
          settings: Mapping[str, object] | None = None, connectivity: str | None = None,
          workers: int | None = None, deadline: Deadline | None = None, *, url: str | None = None) -> SolveResult:
    """Solve one map of a spec, decode the answer and verify it.

    Args:
        spec: a :class:`Spec` (parsed once, reused) or a spec path; with
            ``url``, None takes the genre's bundled spec.
        map: the map: a path (:func:`bundled_map` gives the shipped ones),
            its text, or a :class:`MapData`.
        backend: ``auto`` (the default: picks per map, :mod:`gridlang.solving.auto`), ``cpsat``, ``milp``,
            ``maxsat`` or ``asp``.
        time_limit: seconds for the whole call (every solve shares them).
        params: parameter values (``{"budget": 12}``), as numbers or text.
        unique: prove the answer unique or find a second one.
        count: enumerate up to this many answers (all of them are in
            ``result.report.solutions``; :func:`solutions` yields them one
            by one).
        settings: backend settings, ``{"maxsat.algorithm": "rc2"}``.
        connectivity: a connectivity strategy of the backend.
        workers: solver threads.
        deadline: a shared :class:`~gridlang.core.deadline.Deadline` (overrides
            ``time_limit``; Ctrl-C handling goes through it).
        url: a puzz.link URL, instead of ``map``: the puzzle it encodes,
            solved with ``spec`` or, when none is given, its genre's
            bundled spec (as ``gridlang solve --url``).

    Returns:
        The result: ``backend`` is the backend asked for, ``chosen`` the
        one that answered.

    Raises:
        GridlangError: bad input (located), a missing backend, or an answer
            that fails verification (:class:`~gridlang.core.errors.VerificationError`).
        TypeError: neither or both of ``map`` and ``url`` given, or no spec
            without ``url``.
    """
    request = _request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline,
                       backend=backend, count=count, unique=unique)
    return result_of(run(request).report)


class Answers:
    """The answers of :func:`solutions`, found one at a time as the loop asks for them.

    Iterating yields a :class:`SolveResult` per answer, each verified
    before it is yielded. After the loop (or a ``break``):

    Attributes:
        complete: True when the answers yielded are all there are (the
            enumeration proved that no other exists), False when the time
            limit or ``limit`` stopped it first; None before the first.
        report: the pipeline report: ``report.solutions`` holds every
            answer found, ``report.result`` the first solve's result.
    """

    def __init__(self, model: Model, backend: str, options: SolveOptions, seconds: dict, limit: int | None):
        self._model, self._backend, self._options = model, backend, options
        self._seconds, self._limit = seconds, limit
        self.complete: bool | None = None
        self.report: Report | None = None
        self._started = False

    def __repr__(self) -> str:
        if self.report is None:
            return f"<Answers of {self._model.name or 'a puzzle'}: not searched yet>"
        more = {True: "all there are", False: "perhaps more", None: "searching"}[self.complete]
        return f"<Answers of {self._model.name or 'a puzzle'}: {len(self.report.solutions)} found, {more}>"

    def __iter__(self) -> Iterator[SolveResult]:
        if self._started:
            raise RuntimeError("the answers of a solutions() call are found once; call solutions() again")
        self._started = True
        limit = self._limit if self._limit is not None else sys.maxsize
        report, session = first_answer(self._model, self._backend, self._options, limit, self._seconds)
        self.report = report
        finish(report, self._options)
        if report.solution is None:
            self.complete = report.result.status is Status.INFEASIBLE
            return
        self.complete = False
        yield result_of(report)
        if limit <= 1:
            return
        for solution, verdict in more_answers(session, report):
            finish(report, self._options)
            yield result_of(report, solution, verdict)
            if len(report.solutions) >= limit:
                return
        self.complete = bool(report.complete)
        finish(report, self._options)


def solutions(spec: Spec | str | Path | None = None, map: str | Path | MapData | None = None,
              backend: str = DEFAULT_BACKEND, time_limit: float | None = None,
              params: Mapping[str, object] | None = None, limit: int | None = None,
              settings: Mapping[str, object] | None = None, connectivity: str | None = None,
              workers: int | None = None, deadline: Deadline | None = None, *,
              url: str | None = None) -> Answers:
    """The answers of a map, one by one, each verified: ``for answer in gridlang.solutions(...)``.

    The spec and the map are read and compiled at the call (bad input
    raises there); each answer is searched for when the loop asks for it:
    the first by one solve, each next one by solving again with the
    answers so far excluded (a blocking clause each, in the same solver
    session). With an objective, only optimal answers are enumerated.

    Args:
        spec, map, url, backend, params, settings, connectivity, workers:
            as for :func:`solve`.
        time_limit: seconds for all the answers together, counted from the
            call (a loop that pauses between answers spends them too);
            when they run out, the loop ends.
        limit: stop after this many answers (None: all there are).
        deadline: a shared :class:`~gridlang.core.deadline.Deadline` (overrides
            ``time_limit``).

    Returns:
        An iterable :class:`Answers` (once): its ``complete`` says after
        the loop whether the answers were all there are.

    Raises:
        GridlangError: bad input (located) at the call; a missing backend
            or a failed verification during the loop.
        TypeError: as for :func:`solve`.
        ValueError: ``limit`` under 1.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit={limit}: ask for 1 answer or more (None for all)")
    request = _request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline)
    model, seconds = compile_request(request)
    return Answers(model, backend, request.options, seconds, limit)


def forced(spec: Spec | str | Path | None = None, map: str | Path | MapData | None = None,
           backend: str = DEFAULT_BACKEND, time_limit: float | None = None,
           params: Mapping[str, object] | None = None, settings: Mapping[str, object] | None = None,
           connectivity: str | None = None, workers: int | None = None, deadline: Deadline | None = None, *,
           url: str | None = None):
    """The cells that hold the same value in every answer (every optimal one), and the open ones.

    Solves the map, then solves it again on the same backend with "some
    cell changes" added until that is infeasible (:mod:`gridlang.why.backbone`);
    every answer found on the way is verified. As ``gridlang solve --forced``.

    Args:
        spec, map, url, backend, params, settings, connectivity, workers,
            deadline: as for :func:`solve`.
        time_limit: seconds for the solve and the search together; when
            they run out, the cells not settled are in ``unknown``.

    Returns:
        A :class:`~gridlang.service.why.ForcedCells`: ``forced`` (decision
        -> ``{(row, col): value}``, False values included), ``open``,
        ``unknown``, ``complete``, ``result`` (the first answer), ``to_json()``,
        ``picture()``.

    Raises:
        GridlangError: as :func:`solve`.
        TypeError: as :func:`solve`.
    """
    # imported on use, not at start-up
    from gridlang.service.why import forced_cells

    outcome = run(_request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline,
                           backend=backend, forced=True))
    return forced_cells(result_of(outcome.report), outcome.forced)


def explain(spec: Spec | str | Path | None = None, map: str | Path | MapData | None = None,
            backend: str = DEFAULT_BACKEND, time_limit: float | None = None,
            params: Mapping[str, object] | None = None, settings: Mapping[str, object] | None = None,
            connectivity: str | None = None, workers: int | None = None, deadline: Deadline | None = None, *,
            url: str | None = None):
    """Why a puzzle has no answer: a minimal set of its rule instances that cannot hold together.

    Solves the map; when it is infeasible, shrinks the set of all rule
    instances to a minimal one (:mod:`gridlang.why.mus`). As ``gridlang
    solve --explain``.

    Args:
        spec, map, url, backend, time_limit, params, settings,
            connectivity, workers, deadline: as for :func:`solve`.

    Returns:
        A :class:`~gridlang.service.why.Why`: ``instances`` (empty when the
        puzzle has an answer), ``minimal``, ``result``, ``text()``, ``to_json()``.

    Raises:
        GridlangError: as :func:`solve`.
        TypeError: as :func:`solve`.
    """
    # imported on use, not at start-up
    from gridlang.service.why import Why

    outcome = run(_request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline,
                           backend=backend, explain=True))
    found = outcome.explanation
    return Why(found.instances if found else [], bool(found and found.minimal), result_of(outcome.report))


def hints(spec: Spec | str | Path | None = None, map: str | Path | MapData | None = None,
          backend: str = DEFAULT_BACKEND, time_limit: float | None = None,
          params: Mapping[str, object] | None = None, settings: Mapping[str, object] | None = None,
          connectivity: str | None = None, workers: int | None = None, deadline: Deadline | None = None, *,
          url: str | None = None, max_steps: int | None = None):
    """A puzzle's answer explained one deduction at a time, easiest first.

    Solves the map, then finds step after step the open cells that follow
    from the fewest rule instances and known cells (:mod:`gridlang.why.hints`).
    As ``gridlang hint``.

    Args:
        spec, map, url, backend, params, settings, connectivity, workers,
            deadline: as for :func:`solve`.
        time_limit: seconds for the solve and the steps together; when they
            run out, the steps found so far are returned, the rest ``unknown``.
        max_steps: stop after this many steps (None: until the answer is complete).

    Returns:
        A :class:`~gridlang.service.why.HintSteps`: ``steps`` (each a
        :class:`~gridlang.service.why.Hint`: ``decides``, ``rules``,
        ``known``, ``cost``), ``complete``, ``open``, ``unknown``,
        ``result``, ``text()``, ``to_json()``, ``picture(step)``; None when
        the puzzle has no answer.

    Raises:
        GridlangError: as :func:`solve`.
        TypeError: as :func:`solve`.
    """
    # imported on use, not at start-up
    from gridlang.service.why import hints_of

    outcome = run(_request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline,
                           backend=backend, hints=True, max_steps=max_steps))
    return None if outcome.hints is None else hints_of(result_of(outcome.report), outcome.hints)


def generate(spec: Spec | str | Path, size: tuple[int, int] | str, seed: int = 0,
             params: Mapping[str, object] | None = None, backend: str = "cpsat", check_backend: str | None = None,
             time_limit: float | None = None, deadline: Deadline | None = None, symmetry: str = "none",
             progress=None, difficulty: str | None = None):
    """Make a puzzle of a spec's genre: a unique answer, and no clue that could go.

    As ``gridlang generate SPEC --size RxC --seed N``; the method is in
    :mod:`gridlang.why.generation` (an answer first, every clue it allows, then
    clues taken away while the answer stays unique; checked by a second
    backend). For any spec whose clues are tiles (numbers, pearls, givens).

    Args:
        spec: a :class:`Spec`, a spec's path, or a bundled spec's name.
        size: ``(rows, cols)`` in cells, or ``"RxC"``.
        seed: the random seed (the same arguments make the same puzzle).
        params: the spec's parameters (``{"box_rows": 2}``), written in the
            map's header.
        backend: the solver that proves uniqueness while clues go.
        check_backend: the second solver (default ``maxsat``, or ``cpsat``
            when ``backend`` is ``maxsat``).
        time_limit, deadline: as for :func:`solve`.
        symmetry: ``none``, ``rotational`` (clue positions symmetric under a
            half turn) or ``mirror`` (across the vertical axis).
        progress: a callable told one line per stage, or None.
        difficulty: a level (``easy``, ``medium``, ``hard``, ``expert``): the puzzles of the
            seeds ``seed``, ``seed + 1``, ... are graded by their hint steps until one is at
            that level (:mod:`gridlang.why.generation.aim`); None: the first puzzle made.

    Returns:
        A :class:`~gridlang.why.generation.Generated`: ``map`` (the map's text),
        ``url`` (puzz.link, when the spec declares a format), ``seed``,
        ``clues``, ``seconds``, ``checked_by``, ``difficulty`` and ``level`` (with
        ``difficulty``), ``to_json()``.

    Raises:
        GenerateError: the spec has no clue tile, its blank map has no
            answer, or an unknown level.
        GenerateTimeUp: the time ran out first (a ``GenerateError``); its ``best``
            is the best map so far.
        GridlangError: a bad parameter.
    """
    # imported on use, not at start-up
    from gridlang.why.generation import generate as make
    from gridlang.why.generation import generate_at

    if isinstance(size, str):
        size = parse_size(size)
    rows, cols = size
    if difficulty is None:
        return make(spec, rows, cols, seed, params, backend, check_backend, time_limit, deadline, symmetry, progress)
    spec = spec_of(spec)
    made, _ = generate_at(make, spec, difficulty, seed, deadline or Deadline(time_limit), backend, progress,
                          rows=rows, cols=cols, params=params, check_backend=check_backend, symmetry=symmetry)
    return made


def _request(spec, map, url, time_limit, params, settings, connectivity, workers, deadline, **asked) -> Request:
    """The service's :class:`Request` for :func:`solve`'s arguments: the spec loaded, the parameters as
    text, the options with the call's deadline (its clock started at the call), and what else is
    ``asked`` (``backend``, ``forced``, ...: fields of the request)."""
    start = time.perf_counter()
    if map is not None and url is not None:
        raise TypeError("give map= or url=, not both")
    if map is None and url is None:
        raise TypeError("give the puzzle: map= (a path, the map's text, or bundled_map(NAME)) or url=")
    if spec is None and url is None:
        raise TypeError("give a spec: a Spec, a spec's path, or bundled(NAME)")
    options = SolveOptions(time_limit=time_limit, connectivity=connectivity, workers=workers,
                           extra=dict(settings or {}))
    options.deadline = deadline if deadline is not None else Deadline(time_limit, start=start)
    text_params = {k: _param_text(v) for k, v in (params or {}).items()}
    if url is None and not isinstance(spec, Spec):
        spec = load_spec(spec)
    return Request(spec=spec, map=map, url=url, params=text_params, options=options, **asked)


def export(spec: Spec | str | Path, map: str | Path | MapData, format: str, path: str | Path,
           params: Mapping[str, object] | None = None, connectivity: str | None = None) -> list[str]:
    """Write the model for an external solver (``lp``, ``mps``, ``wcnf``, ``cnf``, ``pbtxt``, ``asp``).

    Returns:
        The paths written (the model file and its ``.vars.json`` sidecar).

    Raises:
        GridlangError: bad input, or a format no backend writes.
    """
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    backend = FORMAT_BACKEND.get(format.lower())
    if backend is None:
        raise BackendError(f"unknown format {format!r}; choose one of {', '.join(FORMAT_BACKEND)}")
    model, _ = load_checked(spec.ast, spec.symbols, read(spec, map),
                            {k: _param_text(v) for k, v in (params or {}).items()}, files=True)
    engine = get_backend(backend)
    return engine.write(model, str(path), format.lower(), SolveOptions(connectivity=connectivity))


def verify(spec: Spec | str | Path, map: str | Path | MapData, answer: Mapping[str, object] | str | Path,
           params: Mapping[str, object] | None = None):
    """Judge an answer by the spec's own rules (:mod:`gridlang.interpreter`).

    Args:
        spec: the spec.
        map: the map.
        answer: a path to what ``solve --json`` prints (or its
            ``decisions``), or the decisions as a mapping
            ``{name: {(row, col): value}}``.
        params: parameter values.

    Returns:
        The :class:`~gridlang.interpreter.SpecVerdict`: ``ok``,
        ``objective``, ``violations`` (each rendering as
        ``SPEC:LINE:COL: rule violated: ...``).

    Raises:
        GridlangError: bad input, located.
    """
    # imported on use, not at start-up
    from gridlang.solving.answers import read_answer

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    data = read(spec, map)
    grid = build_grid(spec.symbols, data)
    values = resolve_params(spec.symbols, data, {k: _param_text(v) for k, v in (params or {}).items()})
    if isinstance(answer, Mapping):
        decisions = {name: {grid.index(*cell): value for cell, value in cells.items()}
                     for name, cells in answer.items()}
    else:
        decisions = read_answer(answer, grid, spec.symbols, values)
    return evaluate(spec.ast, spec.symbols, grid, values, decisions)


def _param_text(value: object) -> str:
    """A parameter value as the command line gives it (``12``, ``1,2,3``)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value)
    return str(value)


FORMAT_BACKEND = {"lp": "milp", "mps": "milp", "wcnf": "maxsat", "cnf": "maxsat", "pbtxt": "cpsat", "asp": "asp"}
"""Which backend writes each file format."""


__all__ = ["FORMAT_BACKEND", "Answers", "SolveResult", "Spec", "bundled", "bundled_map", "bundled_maps",
           "bundled_specs", "explain", "export", "forced", "generate", "hints", "load_spec", "read", "report_json", "result_of",
           "solutions", "solve", "verify"]
