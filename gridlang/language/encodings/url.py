"""The puzz.link URL envelope: pid, flags, size and body, and errors located in the URL.

A pzprjs URL (``src/pzpr/parser.js``, robx/pzprjs, MIT licence) is::

    https://puzz.link/p?PID/[v:VARIANT/][FLAGS/]COLS/ROWS/BODY

(also ``http://pzv.jp/p.html?...`` and other hosts; only the query after
``?`` is read). ``key=value&`` pairs before the pid are skipped, a pid
suffix ``_edit``/``_play`` is dropped, a field that is not a number before
the size is the flag string (one letter per flag), the size is the
columns first, and the body is every later field joined again by ``/``.
Which spec reads the body is decided by the pid (:mod:`gridlang.formats.puzzlink.index`);
this module knows no genre.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from gridlang.core.errors import GridlangError, Span, one_line_end
from gridlang.core.nodes import Record

SOURCE = "--url"
MAX_SIZE = 200
"""The largest number of columns or rows read from a URL."""

_URL_LINE = re.compile(r"^\s*(https?://\S+\?\S+)\s*$")


class UrlError(GridlangError, ValueError):
    """A puzz.link URL that cannot be read (unknown genre, malformed body, wrong size)."""


class Where(Record, slots=False):
    """Where a URL stands, for error carets: on the command line or in a file.

    Attributes:
        path: the name errors show (``--url``, or the map file's path).
        line: the URL's line in that file (1-based).
        column: the column of the URL's first character (1-based).
        source: the whole text of that file (the URL itself for ``--url``).
    """

    path: str = SOURCE
    line: int = 1
    column: int = 1
    source: str | None = None


class PuzzLink(Record, frozen=False, slots=False):
    """A parsed puzz.link URL.

    Attributes:
        url: the URL as given (stripped of surrounding white space).
        pid: the genre as the URL writes it, lower case, without ``_edit``/``_play``.
        cols, rows: the grid's size (columns first, as in the URL).
        body: the encoded puzzle after the size, ``/``-fields joined again.
        offset: where the body starts in ``url`` (0-based), for error carets.
        flags: the flag string (pzprjs's ``pflag``), or ``""``.
        variant: the ``v:`` field, or None.
        size_at: where the size starts in ``url`` (0-based).
        flags_at: where the flag string starts in ``url`` (0-based), or -1.
        pid_at: where the pid starts in ``url`` (0-based).
        where: where the URL stands (``--url`` or a line of a file).
    """

    url: str
    pid: str
    cols: int
    rows: int
    body: str
    offset: int
    flags: str = ""
    variant: str | None = None
    size_at: int = 0
    flags_at: int = -1
    pid_at: int = 0
    where: Where = Where()

    @property
    def cells(self) -> int:
        """The number of cells, columns times rows."""
        return self.cols * self.rows

    @property
    def size(self) -> str:
        """The size as people write it, ``COLSxROWS``."""
        return f"{self.cols}x{self.rows}"


def error(link_or_url: PuzzLink | str, message: str, at: int | None = None, where: Where | None = None) -> UrlError:
    """A :class:`UrlError` whose caret stands under character ``at`` (0-based) of the URL.

    Args:
        link_or_url: the parsed URL, or its text.
        message: the sentence.
        at: the character (0-based, clamped to the URL), or None for the whole URL.
        where: where the URL stands; the link's own when omitted.
    """
    if isinstance(link_or_url, PuzzLink):
        url, where = link_or_url.url, where or link_or_url.where
    else:
        url, where = link_or_url, where or Where()
    source = where.source if where.source is not None else url
    if at is None:
        return UrlError(message, Span(where.path, where.line, where.column, where.column + len(url)), source=source)
    at = max(0, min(at, len(url)))
    return UrlError(message, Span(where.path, where.line, where.column + at), source=source)


def parse_url(url: str, where: Where | None = None) -> PuzzLink:
    """Split a puzz.link URL into pid, flags, size and body.

    Args:
        url: the URL.
        where: where it stands, for error carets (default: ``--url``).

    Raises:
        UrlError: no ``?`` query, no pid, a size that is not two positive
            whole numbers, or a size beyond :data:`MAX_SIZE`.
    """
    where = where or Where()
    url = url.strip()
    start = url.find("?")
    if start < 0:
        raise error(url, "a puzz.link URL has the puzzle after '?', as in https://puzz.link/p?GENRE/COLS/ROWS/BODY",
                    where=where)
    query = url[start + 1:]
    skipped = 0
    while "&" in query and "=" in query.split("&", 1)[0] and "/" not in query.split("&", 1)[0]:
        head, query = query.split("&", 1)  # type=editor& and the like
        skipped += len(head) + 1
    parts = unquote(query).split("/")
    positions, pos = [], start + 1 + skipped
    for part in parts:
        positions.append(pos)
        pos += len(part) + 1
    pid = re.sub(r"_(edit|play)$", "", parts[0]).strip().lower()
    if not pid:
        raise error(url, "the URL names no genre after '?'", positions[0], where)
    i, variant, flags, flags_at = 1, None, "", -1
    if i < len(parts) and parts[i].startswith("v:"):
        variant, i = parts[i][2:], i + 1
    if i < len(parts) and parts[i] and not parts[i].isdigit():
        flags, flags_at, i = parts[i], positions[i], i + 1
    if i + 1 >= len(parts):
        raise error(url, "the URL gives no grid size: write GENRE/COLS/ROWS/BODY", len(url), where)
    size = []
    for j in (i, i + 1):
        if not parts[j].isdigit() or int(parts[j]) < 1:
            raise error(url, f"the grid size is two whole numbers of at least 1 (columns, then rows); "
                             f"{parts[j]!r} is not", positions[j], where)
        size.append(int(parts[j]))
    if size[0] > MAX_SIZE or size[1] > MAX_SIZE:
        raise error(url, f"a {size[0]}x{size[1]} grid is larger than gridlang reads ({MAX_SIZE}x{MAX_SIZE})",
                    positions[i], where)
    body_start = positions[i + 2] if i + 2 < len(parts) else len(url)
    body = "/".join(parts[i + 2:])
    return PuzzLink(url, pid, size[0], size[1], body, body_start, flags, variant, positions[i], flags_at,
                    positions[0], where)


def build_url(pid: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    """A puzz.link URL, as pzprjs writes one.

    Args:
        pid: the genre's name.
        cols, rows: the grid's size.
        body: the encoded puzzle.
        flags: the flag letters, or ``""`` for none.

    Returns:
        ``https://puzz.link/p?PID/[FLAGS/]COLS/ROWS/BODY``, with a ``/``
        appended when the URL would end in a character other than a
        letter or a digit (pzprjs's encoder does so).
    """
    url = f"https://puzz.link/p?{pid}/" + (f"{flags}/" if flags else "") + f"{cols}/{rows}/{body}"
    if not url[-1].isascii() or not url[-1].isalnum():
        url += "/" if not url.endswith("/") else ""
    return url


def url_line(text: str) -> tuple[int, int, str] | None:
    """The URL a map file holds instead of a grid, if it holds one.

    A file holds a URL when its first line that is neither blank nor a
    ``#`` comment is a single ``http(s)://...?...`` address (puz.link's
    ``https://puzz.link/p?...``, pzv.jp's ``http://pzv.jp/p.html?...``).

    Returns:
        ``(line, column, url)``: the URL's line and first column (1-based)
        and the URL, or None when the file holds no URL.
    """
    for number, line in enumerate(one_line_end(text).split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _URL_LINE.match(line)
        return (number, m.start(1) + 1, m.group(1)) if m else None
    return None
