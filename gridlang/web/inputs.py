"""What a request to ``gridlang serve`` asks for: read and checked before any work, loaded in a worker.

A solve request is one JSON object (the body of ``POST /api/solve``)::

    {"bundled": "horse", "puzzle": "~~..~\\n~.H.~\\n...", "params": {"budget": 12},
     "backend": "auto", "time_limit": 30, "unique": false}

* the spec: ``"bundled"``, the name of a shipped spec (``gridlang.bundled_specs()``),
  or ``"spec"``, the text of a ``.grid`` spec; neither, with a puzz.link
  URL, takes the genre's bundled spec (as ``gridlang solve --url``);
* ``"puzzle"``: a puzz.link URL, a text map or the game's JSON level record,
  always as text: the server never opens a file the client names;
* ``"params"``: parameter values by name (numbers, text, or lists for a
  ``set of int``), as ``--NAME VALUE`` gives them;
* ``"backend"`` (default ``auto``), ``"time_limit"`` in seconds (default
  and most: the server's limit), ``"unique"`` (default false).

:func:`read_problem` checks the shape and the sizes in the server process
(an error is a :class:`RequestError` with an HTTP status); :func:`load`,
run in a worker, parses the spec and reads the map with gridlang's own
readers, whose errors are the command line's located ones.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from gridlang.core.errors import GridlangError, MultipleErrors, did_you_mean
from gridlang.core.limits import MAX_MAP_BYTES, MAX_SPEC_BYTES

MAX_BODY_BYTES = MAX_SPEC_BYTES + MAX_MAP_BYTES + 65_536
"""The largest JSON body taken: a spec and a map at their limits (docs/reliability.md), and room for the rest."""

MAX_PICTURE_BYTES = 16 * 2**20
"""The largest screenshot taken (bytes); its pixels are then held to the limits of :mod:`gridlang.formats.screens.picture`."""

SPEC_NAME = "<spec>"
"""How errors name a spec sent as text."""

MAP_NAME = "<map>"
"""How errors and ``"map"`` name a puzzle sent as a text map or a JSON record."""

KEYS = ("bundled", "spec", "puzzle", "params", "backend", "time_limit", "unique")
"""The keys a solve request may hold."""

_URL = re.compile(r"\s*https?://", re.IGNORECASE)


class RequestError(Exception):
    """A request the server refuses before any work: its HTTP status and one sentence.

    Args:
        status: the HTTP status (400 a malformed request, 413 too large, 404 nothing there).
        message: one sentence, lower case, no trailing period.
        headers: extra response headers (``Retry-After``).
    """

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def record(self) -> dict:
        """The JSON error body: ``{"error": "error: ...", "errors": [{"message": ...}]}``."""
        return {"error": f"error: {self.message}", "errors": [{"message": self.message, "kind": "error"}]}


def error_record(e: GridlangError) -> dict:
    """A gridlang error as the JSON error body.

    Returns:
        ``{"error": TEXT, "errors": [...]}``: ``error`` is what the command
        line prints (``<spec>:3:9: error: ...``, the line and a caret);
        each of ``errors`` has ``message``, ``kind`` and, when located,
        ``file``, ``line``, ``column`` (from 1) and ``end_column``. A
        bundled spec is named ``puzzles/NAME.grid``, as a report's ``"spec"``
        names it, not by the folder it is installed in.
    """
    items = []
    for one in (e.errors if isinstance(e, MultipleErrors) else [e]):
        item = {"message": getattr(one, "message", str(one)), "kind": getattr(one, "kind", "error")}
        span = getattr(one, "span", None)
        if span is not None:
            item.update(file=bundled_name(span.file), line=span.line, column=span.column,
                        end_column=span.end_column)
        items.append(item)
    return {"error": bundled_name(e.render()), "errors": items}


def bundled_name(text: str) -> str:
    """A text with the installed folder of the bundled specs written ``puzzles/``
    (``.../site-packages/gridlang/puzzles/horse.grid:18:7`` -> ``puzzles/horse.grid:18:7``)."""
    # imported on use, not at start-up
    from gridlang.formats.puzzlink.index import NoBundle, bundled_dir

    try:
        folder = str(bundled_dir())
    except NoBundle:
        return text
    return text.replace(folder.rstrip("/") + "/", "puzzles/")


@dataclass(frozen=True)
class Problem:
    """A checked solve request (picklable, for a worker).

    Attributes:
        bundled: a shipped spec's name, or None.
        spec: a spec's text, or None.
        puzzle: the puzzle's text: a URL, a text map or a JSON record.
        params: parameter values as the command line's text (``"12"``, ``"1,2,3"``).
        backend: the backend's name.
        time_limit: seconds for the whole solve.
        unique: prove the answer unique or find a second one.
    """

    bundled: str | None
    spec: str | None
    puzzle: str
    params: dict[str, str] = field(default_factory=dict)
    backend: str = "auto"
    time_limit: float = 60.0
    unique: bool = False

    @property
    def is_url(self) -> bool:
        """The puzzle is a puzz.link URL."""
        return bool(_URL.match(self.puzzle))


def read_problem(body: object, max_seconds: float, keys: tuple[str, ...] = KEYS) -> Problem:
    """Check a solve request's JSON and return it as a :class:`Problem`.

    Args:
        body: the decoded JSON.
        max_seconds: the server's time limit: the default and the most a request may ask for.
        keys: the keys allowed (a tool's request may take fewer).

    Raises:
        RequestError: 400, in a sentence naming the key; 413 for a puzzle
            over the map limit.
    """
    # imported on use, not at start-up
    from gridlang.formats.catalog import spec_names
    from gridlang.ir.backend import backend_names

    if not isinstance(body, dict):
        raise RequestError(400, "the request must be a JSON object such as "
                                '{"bundled": "horse", "puzzle": "...", "params": {"budget": 12}}')
    for key in body:
        if key not in keys:
            raise RequestError(400, f"unknown key {key!r} in the request{did_you_mean(str(key), keys)} "
                                    f"(the keys: {', '.join(keys)})")
    bundled, spec = body.get("bundled"), body.get("spec")
    if bundled is not None and spec is not None:
        raise RequestError(400, 'give "bundled" (a shipped spec\'s name) or "spec" (a spec\'s text), not both')
    if bundled is not None:
        if not isinstance(bundled, str) or bundled not in spec_names():
            raise RequestError(400, f"no bundled spec is called {_short(bundled)}"
                                    f"{did_you_mean(str(bundled), spec_names())} (the bundled specs: "
                                    f"{', '.join(spec_names())})")
    if spec is not None and not isinstance(spec, str):
        raise RequestError(400, '"spec" must be the text of a .grid spec')
    puzzle = body.get("puzzle")
    if not isinstance(puzzle, str) or not puzzle.strip():
        raise RequestError(400, 'give the puzzle: "puzzle" holds a puzz.link URL, a text map or the game\'s '
                                "JSON level record, as text")
    size = len(puzzle.encode("utf-8", "surrogatepass"))
    if size > MAX_MAP_BYTES:
        raise RequestError(413, f"the puzzle is {size:,} bytes; gridlang reads a map of at most "
                                f"{MAX_MAP_BYTES:,} bytes")
    if bundled is None and spec is None and not _URL.match(puzzle):
        raise RequestError(400, 'give the spec: "bundled" (a shipped spec\'s name) or "spec" (its text); only a '
                                "puzz.link URL may leave it out, for its genre's bundled spec")
    backend = body.get("backend", "auto")
    if backend not in backend_names():
        raise RequestError(400, f"unknown backend {_short(backend)}{did_you_mean(str(backend), backend_names())} "
                                f"(the backends: {', '.join(backend_names())})")
    seconds = body.get("time_limit", max_seconds)
    if seconds is None:
        seconds = max_seconds
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or seconds <= 0:
        raise RequestError(400, f'"time_limit" must be a number of seconds more than 0, not {_short(seconds)}')
    if seconds > max_seconds:
        raise RequestError(400, f'"time_limit" {seconds:g} is more than this server allows ({max_seconds:g} s; '
                                "gridlang serve --time-limit sets it)")
    unique = body.get("unique", False)
    if not isinstance(unique, bool):
        raise RequestError(400, '"unique" must be true or false')
    return Problem(bundled, spec, puzzle, read_params(body.get("params")), backend, float(seconds), unique)


def read_params(params: object) -> dict[str, str]:
    """``{"budget": 12, "sizes": [1, 2]}`` as the command line's text values (``"12"``, ``"1,2"``).

    Raises:
        RequestError: not an object of numbers, text or lists of integers.
    """
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise RequestError(400, '"params" must be an object of values by name, such as {"budget": 12}')
    out = {}
    for name, value in params.items():
        if isinstance(value, bool) or value is None:
            raise RequestError(400, f"parameter {_short(name)}: give a number, text or a list, not "
                                    f"{_short(value)}")
        if isinstance(value, list):
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise RequestError(400, f"parameter {_short(name)}: a list must hold integers")
            out[str(name)] = ",".join(str(v) for v in value)
        elif isinstance(value, (int, float, str)):
            out[str(name)] = str(value).strip()
        else:
            raise RequestError(400, f"parameter {_short(name)}: give a number, text or a list of integers")
    return {k: v for k, v in out.items() if v != ""}


MAX_GENERATED_SIDE = 30
"""The most rows or columns the page's Generate makes."""


SYMMETRIES = ("none", "rotational", "mirror")
"""The symmetries of a generated puzzle's clue positions (``gridlang generate --symmetry``)."""

DIFFICULTIES = ("easy", "medium", "hard", "expert")
"""The levels a generated puzzle may be asked for (:data:`gridlang.service.making.LEVELS`)."""


def read_generate(body: object, max_seconds: float) -> tuple[Problem, int, int, int, dict[str, Any]]:
    """A Generate request: ``{"bundled"|"spec", "rows", "cols", "seed", "params", "time_limit", "symmetry",
    "difficulty"}``.

    Returns:
        ``(problem, rows, cols, seed, options)``: the problem holds the spec, the
        parameters and the time limit (its puzzle is empty); ``options`` the
        ``symmetry`` (``none`` when not given) and ``difficulty`` (a level, or None).

    Raises:
        RequestError: 400, in a sentence naming the key.
    """
    if not isinstance(body, dict):
        raise RequestError(400, 'send {"bundled": NAME, "rows": R, "cols": C, "seed": N}')
    size = {}
    for key, default in (("rows", None), ("cols", None), ("seed", 0)):
        value = body.get(key, default)
        low, high = (0, 2**31 - 1) if key == "seed" else (1, MAX_GENERATED_SIDE)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RequestError(400, f'"{key}" must be a whole number from {low} to {high}, not {_short(value)}')
        size[key] = value
    options = {"symmetry": body.get("symmetry", "none"), "difficulty": body.get("difficulty")}
    if options["symmetry"] not in SYMMETRIES:
        raise RequestError(400, f'"symmetry" is one of {", ".join(SYMMETRIES)}, not {_short(options["symmetry"])}')
    if options["difficulty"] not in (None, *DIFFICULTIES):
        raise RequestError(400, f'"difficulty" is null or one of {", ".join(DIFFICULTIES)}, '
                                f'not {_short(options["difficulty"])}')
    rest = {k: v for k, v in body.items() if k not in size and k not in options}
    if rest.get("bundled") is None and rest.get("spec") is None:
        raise RequestError(400, 'give the spec: "bundled" (a shipped spec\'s name) or "spec" (its text)')
    problem = read_problem({**rest, "puzzle": "-"}, max_seconds, ("bundled", "spec", "params", "time_limit", "puzzle"))
    return problem, size["rows"], size["cols"], size["seed"], options


def read_answer(answer: object) -> dict[str, list]:
    """A player's answer as ``solve --json`` lists decisions: ``{"shaded": [[[0, 1], true], ...]}``, an
    edge's entry as ``[[[r1, c1], [r2, c2]], value]``.

    Raises:
        RequestError: 400, not of that shape (the values: true, false, a whole number or text).
    """
    shape = '"answer" must hold each decision\'s entries as [[row, column], value], such as {"shaded": [[[0, 1], true]]}'
    if not isinstance(answer, dict):
        raise RequestError(400, shape)
    out = {}
    for name, pairs in answer.items():
        if not isinstance(pairs, list):
            raise RequestError(400, shape)
        for pair in pairs:
            ok = isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], list) and len(pair[0]) == 2
            where = pair[0] if ok else []
            if ok and all(isinstance(x, list) for x in where):  # an edge: its two ends
                ok = all(len(x) == 2 for x in where)
                where = [n for x in where for n in x] if ok else []
            if not ok or not all(isinstance(x, int) and not isinstance(x, bool) for x in where) \
                    or not isinstance(pair[1], (bool, int, str)):
                raise RequestError(400, f"decision {_short(name)}: {shape}")
        out[str(name)] = pairs
    return out


def _short(value: object) -> str:
    """A value shown in a message, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Loaded:
    """A problem's spec and map, read (in a worker).

    Attributes:
        tree: the spec's AST.
        symbols: its checked names.
        data: the map.
        spec_name: the spec as ``"spec"`` names it: ``puzzles/NAME.grid`` for a bundled one, else ``<spec>``.
        map_name: the map as ``"map"`` names it: the URL, or ``<map>``.
        text: the map's text: the puzzle sent, or the text map a URL decodes to.
    """

    tree: object
    symbols: object
    data: object
    spec_name: str
    map_name: str
    text: str = ""


def load_spec(problem: Problem):
    """Parse and check a problem's spec.

    Returns:
        ``(tree, symbols, spec_name)``.

    A bundled spec chosen with a puzz.link URL of another genre gives way to the spec of the URL's
    genre (as ``gridlang solve --url`` without a spec takes it): the page's list starts at horse, and a
    Nurikabe URL pasted there is a Nurikabe to solve, not an error; the report's ``spec`` names the
    spec used.

    Raises:
        GridlangError: the spec is wrong (located in ``<spec>``), or the URL names no genre with a spec.
    """
    # imported on use, not at start-up
    from gridlang.formats.catalog import spec_path
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file, parse_spec

    if problem.spec is not None:
        tree = parse_spec(problem.spec, SPEC_NAME)
        name = SPEC_NAME
    else:
        if problem.bundled is not None:
            path = spec_path(problem.bundled)
            if problem.is_url:
                path = _genre_spec(problem.puzzle.strip()) or path
        else:
            # imported on use, not at start-up
            from gridlang.formats.puzzlink import bundled_spec, parse_url

            link = parse_url(problem.puzzle.strip())
            path = bundled_spec(link.pid, link)
        tree = parse_file(path)
        name = f"puzzles/{path.name}"
    return tree, check(tree), name


def _genre_spec(url: str):
    """The bundled spec that reads ``url``'s genre, or None (a URL that does not parse, an unknown genre:
    the chosen spec then reads it, and its error says what is wrong)."""
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import bundled_spec, parse_url

    try:
        link = parse_url(url)
        return bundled_spec(link.pid, link)
    except GridlangError:
        return None


def load(problem: Problem) -> Loaded:
    """Read a problem's spec and map, as ``gridlang solve`` reads its files.

    Raises:
        GridlangError: a bad spec, URL or map, located (``<spec>:3:9``,
            ``<map>:2:5``, the URL's character).
    """
    # imported on use, not at start-up
    from gridlang.formats.maps import parse_map

    tree, symbols, spec_name = load_spec(problem)
    puzzle = tree.puzzle.name if tree.puzzle else None
    if not problem.is_url:
        return Loaded(tree, symbols, parse_map(problem.puzzle, MAP_NAME, puzzle), spec_name, MAP_NAME,
                      problem.puzzle)
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import decode

    url = problem.puzzle.strip()
    decoded = decode(url, tree)  # the spec's format reads it, or the error names the bundled spec that does
    return Loaded(tree, symbols, parse_map(decoded.text, f"<{decoded.pid} from the URL>", puzzle), spec_name, url,
                  decoded.text)


def spec_info(tree, symbols) -> dict:
    """What the page needs to know of a spec: its puzzle, parameters, tiles and decisions.

    Returns:
        ``{"puzzle", "params": [{"name", "type", "default"}], "tiles": [{"name", "chars", "number"}],
        "border_tiles": [...], "corner_tiles": [...], "decisions": [...], "genres": [...]}``; ``chars``
        are the tile's map characters (a ``number`` tile has none: any whole number);
        ``border_tiles`` and ``corner_tiles`` the tiles ``on borders`` and ``on corners``, as ``tiles``
        (in the map's ``borders:`` and ``corners:`` layers); ``frame_borders`` whether the tiles on
        borders stand on the grid's frame too (``on borders and frame``); ``size_params`` the parameters the
        format reads off the grid's size, each ``{"RxC": value}`` (Kropki's ``n``: ``{"4x4": 4, ...}``); ``genres`` the puzz.link names of the spec's
        ``format puzzlink`` (pzprjs's name first, then its aliases).
    """
    chars: dict[str, list[str]] = {}
    for char, tile in symbols.chars.items():
        chars.setdefault(tile, []).append(char)
    tiles = [{"name": name, "chars": chars.get(name, []), "number": bool(t.number)}
             for name, t in symbols.tiles.items()]
    placed = {}
    for place, table, on in (("borders", symbols.border_chars, symbols.border_tiles),
                             ("corners", symbols.corner_chars, symbols.corner_tiles)):
        held: dict[str, list[str]] = {}
        for char, tile in table.items():
            held.setdefault(tile, []).append(char)
        placed[place] = [{"name": name, "chars": held.get(name, []), "number": bool(t.number)} for name, t in on.items()]
    params = []
    for name, p in symbols.params.items():
        default = p.default
        if isinstance(default, frozenset):
            default = sorted(default)
        params.append({"name": name, "type": p.type, "default": default})
    # imported on use, not at start-up
    from gridlang.formats.puzzlink.index import format_of

    fmt = format_of(tree)
    sizes = {item.place: {entry.key: entry.value for entry in item.mapping}
             for item in (fmt.items if fmt is not None else ()) if getattr(item, "encoding", None) == "size"}
    return {"puzzle": tree.puzzle.name if tree.puzzle else None, "params": params, "tiles": tiles,
            "size_params": sizes,
            "border_tiles": placed["borders"], "corner_tiles": placed["corners"],
            "frame_borders": symbols.frame_borders,
            "decisions": list(symbols.decisions), "genres": list(fmt.names) if fmt is not None else []}
