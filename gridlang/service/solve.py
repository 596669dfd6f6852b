"""One solve as every front end asks for it: a :class:`Request` in, an :class:`Outcome` out.

The command line, the Python API and the page each used to choose between a
puzz.link URL and a map, load the spec, read the map, count the seconds of
each phase, and then find the forced cells, explain an infeasible puzzle or
draw the answer, in their own way. They now say what they want in a
:class:`Request` and call :func:`run` (or :func:`compile_request` for the
model alone); the choices are made here, once:

* a URL is read by its spec's ``format`` (the genre's bundled spec when the
  request names none), a map by the spec's tiles;
* a spec is a path (parsed and checked here, through the cache) or a spec
  already loaded (:class:`~gridlang.solving.spec.Spec`), which is reused;
* a map is a file's path, a map's text (a string holding a line break), or
  a :class:`~gridlang.formats.maps.MapData` already read (off a picture, or
  by the page with names of its own);
* what to compute besides the answer: its uniqueness or a count of answers,
  the forced cells (the backbone: :mod:`gridlang.why.backbone`), for an
  infeasible puzzle the rule instances that cannot hold together (a minimal
  unsatisfiable subset: :mod:`gridlang.why.mus`), the answer's hints one
  deduction at a time (:mod:`gridlang.why.hints`), and pictures of the
  answer (or of the forced cells), written to files or kept;
* the seconds: ``parse`` (the spec, the map or URL, the grid and the
  parameters), ``compile``, ``solve``, ``verify``, then ``forced``,
  ``explain`` or ``hints`` for what was asked, and with ``startup`` what the
  process spent before the request (the command line's own import and arguments).

The time limit is the request's :class:`~gridlang.core.deadline.Deadline`
(``options.deadline``), made by the front end when its command or call
began and read by every phase. The why-tools and the drawing are imported
only by a request that asks for them: a plain solve does not load them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from gridlang.core.deadline import Deadline
from gridlang.core.nodes import Record, field, replace
from gridlang.formats.maps import MapData, parse_map, read_map
from gridlang.ir.backend import DEFAULT_BACKEND, SolveOptions, Status
from gridlang.ir.model import Model
from gridlang.solving.pipeline import (
    Report,
    compile_url,
    load,
    load_checked,
    solve_model,
)
from gridlang.solving.spec import Spec

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib

    from gridlang.why.backbone import Forced
    from gridlang.why.hints import Hints
    from gridlang.why.mus import Explanation

PICTURE_FORMATS = ("svg", "png")
"""The formats a request's pictures are drawn in."""


class Request(Record, frozen=False, slots=False):
    """A solve asked for by a front end: the puzzle, the limits, and what to compute.

    Attributes:
        spec: the spec: a path, a loaded :class:`~gridlang.solving.spec.Spec`,
            or None with ``url`` (the URL's genre's bundled spec).
        map: the map: a file's path, its text, or a :class:`MapData`; None with ``url``.
        url: a puzz.link URL instead of ``map``.
        params: parameter values by name, as text (``{"budget": "12"}``).
        backend: the backend's name (``auto`` by default).
        options: limits, settings and the deadline (one is made from
            ``options.time_limit`` when it has none).
        count: enumerate up to this many answers (None: one).
        unique: prove the answer unique or find a second one.
        forced: find the forced cells (the backbone): the entries that hold
            the same value in every answer (every optimal one), on the
            backend that found the first; this settles uniqueness too, so
            it takes neither ``count`` nor ``unique``.
        explain: when the puzzle is proved infeasible, find a minimal set of
            its rule instances that cannot hold together (a MUS).
        hints: explain the answer one deduction at a time, easiest first
            (takes none of ``count``, ``unique``, ``forced``).
        max_steps: with ``hints``, stop after this many steps (None: until
            the answer is complete).
        pictures: pictures to draw, format (``svg`` or ``png``) -> the file
            to write, or None to keep the picture in the outcome (SVG text,
            PNG bytes); drawn in this order. They show the answer, or with
            ``forced`` the forced cells (the open ones greyed with a ``?``).
        cell: the side of a cell in the pictures, pixels (4 or more).
        startup: count the seconds before the request as ``startup``
            (a command's process start; not for a call in a running program).
        parse_seconds: seconds the front end spent reading the puzzle before
            the request (a screenshot read, the page's spec and map checked),
            counted in ``parse`` (and not in ``startup``).
    """

    spec: object = None
    map: object = None
    url: str | None = None
    params: dict = field(default_factory=dict)
    backend: str = DEFAULT_BACKEND
    options: SolveOptions | None = None
    count: int | None = None
    unique: bool = False
    forced: bool = False
    explain: bool = False
    hints: bool = False
    max_steps: int | None = None
    pictures: dict = field(default_factory=dict)
    cell: int = 32
    startup: bool = False
    parse_seconds: float = 0.0


class Picture(Record):
    """A picture an :class:`Outcome` drew.

    Attributes:
        format: ``svg`` or ``png``.
        path: the file written, or None when the picture was kept.
        data: the picture kept (the SVG document as text, the PNG file as
            bytes), or None when it was written to ``path``.
    """

    format: str
    path: str | None = None
    data: str | bytes | None = None


class Outcome(Record, frozen=False, slots=False):
    """What :func:`run` computed for a :class:`Request`.

    Attributes:
        request: the request, its ``options`` holding the deadline used.
        report: the solve's report (the answer, verified; its status,
            uniqueness, count of answers and seconds per phase).
        forced: with ``request.forced``, the backbone as far as the deadline
            settled it (:class:`~gridlang.why.backbone.Forced`: ``forced``,
            ``open``, ``unknown``, ``complete``, ``reason`` when nothing
            could be settled); else None.
        explanation: with ``request.explain`` and a puzzle proved
            infeasible, the rule instances that cannot hold together
            (:class:`~gridlang.why.mus.Explanation`: ``instances``,
            ``minimal``); None otherwise, or when none was found in time.
        hints: with ``request.hints`` and an answer, the steps
            (:class:`~gridlang.why.hints.Hints`); else None.
        pictures: the pictures drawn (:class:`Picture`), in the request's order.
        notes: why a picture asked for was not drawn (``no answer to draw``).
        unwritten: the error that stopped a picture being written (a missing
            folder, a full disk), or None. The pictures come last, so that
            the answer is not lost to a bad file name: the command line
            prints the answer, then reports this error.
    """

    request: Request
    report: Report
    forced: Forced | None = None
    explanation: Explanation | None = None
    hints: Hints | None = None
    pictures: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    unwritten: OSError | None = None


def read(spec: Spec, map: str | Path | MapData) -> MapData:
    """A map for a loaded ``spec``: a file's path, the map's text (any string holding a
    line break), or an already read :class:`MapData`.

    Raises:
        MapError: the map cannot be read (located).
    """
    if isinstance(map, MapData):
        return map
    if isinstance(map, str) and "\n" in map:
        return parse_map(map, "<map>", spec.puzzle, spec=spec.ast)
    return read_map(map, spec.puzzle, spec=spec.ast)


def options_of(request: Request) -> SolveOptions:
    """The request's options with a deadline (made from its time limit when it has none)."""
    options = request.options or SolveOptions()
    if options.deadline is None:
        options = replace(options, deadline=Deadline(options.time_limit))
    return options


def compile_request(request: Request) -> tuple[Model, dict[str, float]]:
    """The model of a request's spec and puzzle, and the seconds per phase.

    Returns:
        ``(model, seconds)``: seconds ``parse`` (the request's ``parse_seconds``
        added) and ``compile``, and ``startup`` when the request counts it
        (what the process spent before, less ``parse_seconds``).

    Raises:
        GridlangError: a bad spec, map, URL or parameter, located.
        BuildTimeout: the deadline passed while the model was compiled.
        TypeError: the request gives neither a map nor a URL, or both, or no spec without a URL.
    """
    if request.map is None and request.url is None:
        raise TypeError("give the puzzle: a map (a path, its text, or MapData) or a URL")
    if request.map is not None and request.url is not None:
        raise TypeError("give a map or a URL, not both")
    if request.spec is None and request.url is None:
        raise TypeError("give a spec: a Spec or a spec's path")
    deadline = options_of(request).deadline
    before = deadline.elapsed()
    if request.url is not None:
        spec = request.spec.path if isinstance(request.spec, Spec) else request.spec
        model, seconds = compile_url(request.url, spec, request.params, deadline)
    elif isinstance(request.spec, Spec):
        data = read(request.spec, request.map)
        model, seconds = load_checked(request.spec.ast, request.spec.symbols, data, request.params, deadline)
        seconds["parse"] = seconds.pop("read")  # the spec was loaded before: the grid and parameters
    else:
        data = request.map if isinstance(request.map, MapData) else None
        model, seconds = load(request.spec, None if data is not None else request.map, request.params, data,
                              deadline)
    seconds["parse"] += request.parse_seconds
    if request.startup:
        seconds["startup"] = max(0.0, before - request.parse_seconds)
    return model, seconds


def check_request(request: Request) -> None:
    """Refuse a request that asks for things that do not go together, before any work.

    Raises:
        ValueError: ``forced`` with ``count`` or ``unique``; ``hints`` with
            ``count``, ``unique`` or ``forced``; a picture format other than
            ``svg`` and ``png``; a cell under 4 pixels.
    """
    settles = [name for name, asked in (("count", request.count is not None), ("unique", request.unique))
               if asked]
    if request.forced and settles:
        raise ValueError("forced finds the answers it needs itself (and settles uniqueness); "
                         f"ask for it without {' or '.join(settles)}")
    if request.hints and (settles or request.forced):
        others = settles + (["forced"] if request.forced else [])
        raise ValueError("hints explain one answer and settle uniqueness themselves; "
                         f"ask for them without {' or '.join(others)}")
    for fmt in request.pictures:
        if fmt not in PICTURE_FORMATS:
            raise ValueError(f"unknown picture format {fmt!r}; choose one of {', '.join(PICTURE_FORMATS)}")
    if request.pictures and request.cell < 4:
        raise ValueError(f"a cell of {request.cell} pixels is too small to draw (4 at least)")


def run(request: Request, progress: Callable[[str], None] | None = None) -> Outcome:
    """Compute what a request asks for: compile, solve, decode and verify, then the forced cells,
    the explanation or the hints, then the pictures.

    Args:
        request: the puzzle, the limits and what to compute.
        progress: called with ``"compiling"`` and then ``"solving"`` as the
            phases begin (the page shows them), or None.

    Returns:
        The :class:`Outcome`: the report (its ``seconds`` as
        :func:`compile_request` counts them, the solve's, and ``forced``,
        ``explain`` or ``hints``), and what else was asked for.

    Raises:
        GridlangError: bad input (located), a missing backend, or a failed
            verification (of the answer or of any found on the way).
        BuildTimeout: the deadline passed while the model was compiled (no model, no report).
        TypeError: as :func:`compile_request`.
        ValueError: as :func:`check_request`.
        (A picture file that cannot be written raises nothing: see the outcome's ``unwritten``.)
    """
    check_request(request)
    options = options_of(request)
    request = replace(request, options=options)
    if progress is not None:
        progress("compiling")
    model, seconds = compile_request(request)
    if progress is not None:
        progress("solving")
    backbone = steps = None
    if request.forced:
        # imported on use, not at start-up
        from gridlang.why import solve_forced

        report, backbone = solve_forced(model, request.backend, options, seconds)
    elif request.hints:
        # imported on use, not at start-up
        from gridlang.why import solve_hints

        report, steps = solve_hints(model, request.backend, options, seconds, request.max_steps)
    else:
        report = solve_model(model, request.backend, options, request.count, request.unique, seconds)
    outcome = Outcome(request, report, forced=backbone, hints=steps)
    if request.explain and report.result.status is Status.INFEASIBLE:
        # imported on use, not at start-up
        from gridlang.why import explain

        t0 = time.perf_counter()
        outcome.explanation = explain(model, options.deadline)
        report.seconds["explain"] = time.perf_counter() - t0
        report.seconds["total"] = max(report.seconds.get("total", 0.0), options.deadline.elapsed())
    if request.pictures:
        _draw(outcome)
    return outcome


def _draw(outcome: Outcome) -> None:
    """Draw an outcome's pictures: its forced cells when it has them, else its answer; write or keep each."""
    request, report = outcome.request, outcome.report
    if request.forced and outcome.forced.reason is not None:
        outcome.notes.append(f"no forced cells to draw: {outcome.forced.reason}")
        return
    if not request.forced and report.solution is None:
        outcome.notes.append("no answer to draw")
        return
    # imported on use, not at start-up
    from gridlang.pictures.draw import picture, picture_data, write_picture

    if request.forced:
        # imported on use, not at start-up
        from gridlang.why.render import forced_picture

        canvas = forced_picture(report.model, outcome.forced, request.cell)
    else:
        canvas = picture(report.model, report.solution, request.cell)
    for fmt, path in request.pictures.items():
        if path is None:
            outcome.pictures.append(Picture(fmt, data=picture_data(canvas, fmt)))
            continue
        try:
            write_picture(canvas, path, fmt)
        except OSError as e:
            outcome.unwritten = e
            return
        outcome.pictures.append(Picture(fmt, str(path)))


def solve(request: Request) -> Report:
    """Solve a request end to end and return its report alone (:func:`run`'s ``report``).

    Raises:
        As :func:`run`.
    """
    return run(request).report
