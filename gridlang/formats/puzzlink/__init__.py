"""puzz.link URLs read and written through a spec's ``format puzzlink`` statement.

A spec states its URL format (docs/language.md, "puzz.link formats")::

    format puzzlink "GENRE" "ALIAS":
        rooms: borders
        room numbers: number16

This package holds what every format shares and names no genre: the engine
that runs a declaration both ways (:mod:`.engine`), the dots of the doubled
lattice spread into the map's layers (:mod:`.dots`), the text of a decoded
map (:mod:`.text`), and the index of the bundled specs by the genre names
their formats declare (:mod:`.index`). The URL envelope, the body read from
the left, pzprjs's shared encodings and a spec's own table of characters
are :mod:`gridlang.language.encodings`' (``url``, ``body``, ``numbers``,
``clues``, ``bits``, ``banks``, ``own``, listed by ``known.encodings``).

Which spec reads a URL: the one given (its format must name the URL's
genre), else the bundled spec whose format names it. Every malformed URL
is a :class:`UrlError` pointing at the character where the problem starts.
"""

from __future__ import annotations

from pathlib import Path

from gridlang.core.errors import SemanticError, Span
from gridlang.formats.puzzlink.engine import Decoded, Engine
from gridlang.language import ast
from gridlang.language.encodings.url import PuzzLink, UrlError, Where, error, parse_url, url_line

__all__ = ["Decoded", "PuzzLink", "UrlError", "Where", "bundled_spec", "decode", "encode",
           "engine_of", "error", "load_url", "map_from_url", "parse_url", "url_line"]


def bundled_spec(pid: str, link: PuzzLink | None = None) -> Path:
    """The bundled spec whose format reads ``pid`` URLs.

    Raises:
        UrlError: no bundled spec reads them, or none are installed; at the
            URL's genre when ``link`` is given.
    """
    # imported on use, not at start-up
    from gridlang.formats.puzzlink.index import NoBundle, bundled_spec_for, listing

    at = link.pid_at if link is not None else None
    try:
        path = bundled_spec_for(pid)
    except NoBundle:
        raise _error(link, f"there is no bundled spec for {pid} in this installation (reinstall gridlang, or give "
                           "the spec's path)", at) from None
    if path is None:
        raise _error(link, f"unknown genre {pid!r}: no bundled spec reads its URLs (they read: {listing()}); give "
                           f"a spec whose format names {pid!r}", at)
    return path


def _error(link: PuzzLink | None, message: str, at: int | None) -> UrlError:
    return error(link, message, at) if link is not None else UrlError(message)


def engine_of(spec) -> Engine | None:
    """The format engine of a parsed spec, or None when it declares no puz.link format.

    Raises:
        GridlangError: the spec does not check.
    """
    # imported on use, not at start-up
    from gridlang.formats.puzzlink.index import format_of
    from gridlang.language.checker import check

    fmt = format_of(spec)
    return None if fmt is None else Engine(spec, check(spec), fmt)


def _reader_for(link: PuzzLink, spec):
    """The parsed spec whose format reads ``link``.

    ``spec`` (a path or a parsed spec) reads it when its format names the
    URL's genre; None takes the bundled spec whose format does.

    Raises:
        UrlError: ``spec`` declares no format, or its format names other
            genres (the message names the bundled spec that reads the URL),
            or no bundled spec reads the genre; at the URL's genre.
    """
    # imported on use, not at start-up
    from gridlang.formats.puzzlink.index import NoBundle, bundled_spec_for, format_of, listing
    from gridlang.language.parser import parse_file

    if spec is None:
        return parse_file(bundled_spec(link.pid, link))
    tree = spec if isinstance(spec, ast.Spec) else parse_file(spec)
    fmt = format_of(tree)
    if fmt is not None and link.pid in fmt.names:
        return tree
    try:
        other = bundled_spec_for(link.pid)
    except NoBundle:
        other = None
    hint = (f"; the bundled {other.name} reads them" if other is not None else
            f"; no bundled spec reads them either (they read: {listing()})")
    reads = (f"'s format reads {'/'.join(fmt.names)} URLs" if fmt is not None else
             " declares no puzz.link format (format puzzlink ...)")
    raise error(link, f"the URL is a {link.pid} puzzle, but {Path(tree.path).name}{reads}{hint}", link.pid_at)


def decode(url: str, spec=None, where: Where | None = None) -> Decoded:
    """Read a puzz.link URL into a text map through a spec's format.

    Args:
        url: the URL.
        spec: the spec (a path or a parsed :class:`~gridlang.language.ast.Spec`)
            whose format names the URL's genre, or None for the bundled
            spec whose format does.
        where: where the URL stands, for error carets (default ``--url``).

    Returns:
        The text map and what it was read with.

    Raises:
        UrlError: a malformed URL, a genre no (given or bundled) spec
            reads, a body its format cannot read; located in the URL.
        GridlangError: the spec cannot be read or does not check.
    """
    link = parse_url(url, where)
    return engine_of(_reader_for(link, spec)).decode(link)


def load_url(url: str, spec=None, where: Where | None = None, name: str | None = None):
    """Decode a URL into a map for a spec (the bundled one of its genre when none is given).

    Args:
        url: the URL.
        spec: a spec path, or None.
        where: where the URL stands (default ``--url``).
        name: what the map is called in messages (default ``<PID from --url>``).

    Returns:
        ``(spec_path, decoded, map_data)``.

    Raises:
        UrlError: as :func:`decode`.
        GridlangError: the spec cannot be read, or the decoded map is not one of its maps.
    """
    # imported on use, not at start-up
    from gridlang.formats.textmaps import read_text_map
    from gridlang.language.parser import parse_file

    link = parse_url(url, where)
    reader = _reader_for(link, spec)
    decoded = engine_of(reader).decode(link)
    path = Path(spec) if spec is not None else Path(reader.path)
    tree = reader if path == Path(reader.path) else parse_file(path)
    puzzle = tree.puzzle.name if tree.puzzle is not None else None
    data = read_text_map(decoded.text, name or f"<{link.pid} from {link.where.path}>", puzzle)
    return path, decoded, data


def map_from_url(text: str, path: str, spec=None, puzzle: str | None = None):
    """The map of a file that holds a puzz.link URL instead of a grid (see :func:`url_line`).

    Args:
        text: the file's text.
        path: its name, for errors (the caret stands in the file).
        spec: the parsed spec it is read for (its format reads the URL), or None for the bundled spec
            of the URL's genre.
        puzzle: the spec's puzzle name (its plug-in reads the decoded map).

    Returns:
        The decoded map, or None when the file holds no URL.

    Raises:
        UrlError: as :func:`decode`, located in the file.
    """
    # imported on use, not at start-up
    from gridlang.formats.textmaps import read_text_map

    found = url_line(text)
    if found is None:
        return None
    line, column, url = found
    link = parse_url(url, Where(path, line, column, text))
    reader = _reader_for(link, spec)
    decoded = engine_of(reader).decode(link)
    if puzzle is None and reader.puzzle is not None:
        puzzle = reader.puzzle.name
    return read_text_map(decoded.text, f"<{link.pid} from {path}>", puzzle)


def encode(spec, data, params: dict[str, str] | None = None) -> str:
    """Write a read map as a puzz.link URL through its spec's format.

    Args:
        spec: the spec, a path or a parsed :class:`~gridlang.language.ast.Spec`.
        data: the map (:class:`~gridlang.formats.maps.MapData`).
        params: parameter values from the command line, as text.

    Returns:
        The URL, named by the format's first genre name.

    Raises:
        GridlangError: the spec declares no format, a parameter is bad, or
            the format cannot write the map (located in the map).
    """
    # imported on use, not at start-up
    from gridlang.formats.params import resolve_params
    from gridlang.language.parser import parse_file

    tree = spec if isinstance(spec, ast.Spec) else parse_file(spec)
    engine = engine_of(tree)
    if engine is None:
        raise SemanticError(f"{tree.path} declares no puzz.link format (format puzzlink \"NAME\": ...), so its maps "
                            "have no URL", Span(tree.path, 1, 1))
    symbols = engine.sym
    values = resolve_params(symbols, data, params)
    raw = {}
    for name, param in symbols.params.items():
        if params and name in params:
            raw[name] = params[name]
        elif name in data.params:
            raw[name] = data.params[name][0]
        elif isinstance(param.default, str):
            raw[name] = param.default
    return engine.encode(data, values, raw)
