"""One solve as every front end asks for it: a :class:`Request` in, a compiled model or a report out.

The command line, the Python API and the page each used to choose between a
puzz.link URL and a map, load the spec, read the map and count the seconds
of each phase in their own way. They now say what they want in a
:class:`Request` and call :func:`compile_request` or :func:`solve`; the
choices are made here, once:

* a URL is read by its spec's ``format`` (the genre's bundled spec when the
  request names none), a map by the spec's tiles;
* a spec is a path (parsed and checked here, through the cache) or a spec
  already loaded (:class:`~gridlang.solving.spec.Spec`), which is reused;
* a map is a file's path, a map's text (a string holding a line break), or
  a :class:`~gridlang.formats.maps.MapData` already read (off a picture, or
  by the page with names of its own);
* the seconds: ``parse`` (the spec, the map or URL, the grid and the
  parameters), ``compile``, and with ``startup`` what the process spent
  before the request (the command line's own import and arguments).

The time limit is the request's :class:`~gridlang.core.deadline.Deadline`
(``options.deadline``), made by the front end when its command or call
began and read by every phase.
"""

from __future__ import annotations

from pathlib import Path

from gridlang.core.deadline import Deadline
from gridlang.core.nodes import field, node, replace
from gridlang.formats.maps import MapData, parse_map, read_map
from gridlang.ir.backend import DEFAULT_BACKEND, SolveOptions
from gridlang.ir.model import Model
from gridlang.solving.pipeline import Report, compile_url, load, load_checked, solve_model
from gridlang.solving.spec import Spec


@node(frozen=False, slots=False)
class Request:
    """A solve asked for by a front end.

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
        startup: count the seconds before the request as ``startup``
            (a command's process start; not for a call in a running program).
    """

    spec: object = None
    map: object = None
    url: str | None = None
    params: dict = field(default_factory=dict)
    backend: str = DEFAULT_BACKEND
    options: SolveOptions | None = None
    count: int | None = None
    unique: bool = False
    startup: bool = False


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
        ``(model, seconds)``: seconds ``parse`` and ``compile``, and ``startup``
        when the request counts it.

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
    if request.startup:
        seconds["startup"] = before
    return model, seconds


def solve(request: Request) -> Report:
    """Solve a request end to end: compile, solve, decode and verify (:func:`compile_request`,
    then :func:`gridlang.solving.pipeline.solve_model`).

    Returns:
        The report (its ``seconds`` as :func:`compile_request` counts them, and the solve's).

    Raises:
        GridlangError: bad input (located), a missing backend, or a failed verification.
        BuildTimeout: the deadline passed while the model was compiled (no model, no report).
    """
    options = options_of(request)
    model, seconds = compile_request(replace(request, options=options))
    return solve_model(model, request.backend, options, request.count, request.unique, seconds)
