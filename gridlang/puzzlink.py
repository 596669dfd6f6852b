"""puzz.link URLs: decode a puzzle's URL into the text map of its genre.

A puzz.link (pzprjs) URL is ``https://puzz.link/p?GENRE/[v:VARIANT/][FLAGS/]COLS/ROWS/BODY``.
The body holds the puzzle in the genre's encoding; the encodings below are
the pzprjs ones (``src/variety-common/Encode.js`` and each genre's
``src/variety/*.js`` in robx/pzprjs, MIT licence), read from their
description and re-implemented here:

numbers (``decodeNumber16``)
    one cell after the other: ``0``-``f`` a number 0-15; ``-XX`` two hex
    digits (16-255); ``+XXX`` three (256-4095); ``=XXX`` 4096 more;
    ``%XXX``/``@XXX`` 8192 more; ``*XXXX`` 12240 more; ``$XXXXX`` 77776
    more; ``.`` a number not given (``?``); ``g``-``z`` skip 1-20 cells.
room borders (``decodeBorder``)
    base-32 digits of 5 bits each, most significant first: first the
    ``(cols-1)*rows`` borders between side-by-side cells, row by row, then
    the ``cols*(rows-1)`` borders between cells one above the other, row by
    row. The rooms are the areas the borders enclose.
room numbers (``decodeRoomNumber16``)
    the number encoding, one entry per room, rooms in the order of their
    first cell (row-major); the number stands in the room's top cell of its
    leftmost column.
Hitori numbers (``decodeHitori``)
    one character per cell, base 36 (``1``-``z``); ``-XX`` two base-36
    digits; ``.``... (``%``/``@`` an unknown number).
circles (``decodeCircle``)
    base-27 digits, three cells each (9, 3, 1): 0 none, 1 white, 2 black.
piece banks (``decodePieceBank``)
    ``//K`` a preset (``p`` the 12 pentominoes, ``t`` the 5 tetrominoes,
    ``d`` two of each tetromino), or ``/N/P1/.../PN``, pieces of the
    puzzle's own (not read here: a clear error).

Genre names are pzprjs's, with its aliases (``mashu``/``masyu``/``pearl``,
``numlin``/``numberlink``/``arukone``, ``slither``/``slitherlink``,
``heyawacky``); :data:`GENRES` lists what is decoded, :func:`genre_of` names
the canonical genre of any alias. Every malformed URL is a
:class:`UrlError` pointing at the character where the problem starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from .errors import GridlangError, Span

SOURCE = "--url"

ALIASES: dict[str, str] = {
    "starbattle": "starbattle",
    "sudoku": "sudoku",
    "norinori": "norinori",
    "hitori": "hitori",
    "nurikabe": "nurikabe",
    "lits": "lits",
    "heyawake": "heyawake",
    "heyawacky": "heyawake",
    "statuepark": "statuepark",
    "mashu": "masyu",
    "masyu": "masyu",
    "pearl": "masyu",
    "numlin": "numberlink",
    "numberlink": "numberlink",
    "arukone": "numberlink",
    "slither": "slitherlink",
    "slitherlink": "slitherlink",
}
"""pzprjs genre names and aliases -> the genre's name here (its spec's file name)."""

SPEC_PUZZLES: dict[str, str] = {
    "starbattle": "Star Battle",
    "sudoku": "Sudoku",
    "norinori": "Norinori",
    "hitori": "Hitori",
    "nurikabe": "Nurikabe",
    "lits": "LITS",
    "heyawake": "Heyawake",
    "statuepark": "Statue Park",
    "masyu": "Masyu",
    "numberlink": "Numberlink",
    "slitherlink": "Slitherlink",
}
"""Genre -> the ``puzzle "NAME"`` of its bundled spec."""


class UrlError(GridlangError, ValueError):
    """A puzz.link URL that cannot be decoded (unknown genre, malformed body, wrong size)."""


@dataclass
class PuzzLink:
    """A parsed puzz.link URL.

    Attributes:
        url: the URL as given.
        pid: the genre as the URL writes it.
        genre: the canonical genre (:data:`ALIASES`).
        cols, rows: the grid's size.
        body: the encoded puzzle after the size.
        offset: where the body starts in ``url`` (0-based), for error carets.
        flags: the optional flags field (``pflag``), or ``""``.
        variant: the ``v:`` field, or None.
        size_at: where the size starts in ``url`` (0-based).
    """

    url: str
    pid: str
    genre: str
    cols: int
    rows: int
    body: str
    offset: int
    flags: str = ""
    variant: str | None = None
    size_at: int = 0


@dataclass
class Decoded:
    """A decoded puzzle: its genre and its text map.

    Attributes:
        genre: the canonical genre.
        text: the map in the genre's text format (headers, grid, ``rooms:``).
        link: the parsed URL.
    """

    genre: str
    text: str
    link: PuzzLink = field(repr=False)


def genre_of(name: str) -> str | None:
    """The canonical genre of a pzprjs genre name or alias, or None."""
    return ALIASES.get(name.strip().lower())


def error(link_or_url, message: str, at: int | None = None) -> UrlError:
    """A :class:`UrlError` whose caret stands under character ``at`` (0-based) of the URL."""
    url = link_or_url.url if isinstance(link_or_url, PuzzLink) else link_or_url
    if at is None:
        return UrlError(message, Span(SOURCE, 1, 1, len(url) + 1), source=url)
    at = max(0, min(at, len(url)))
    return UrlError(message, Span(SOURCE, 1, at + 1), source=url)


def parse_url(url: str) -> PuzzLink:
    """Split a puzz.link URL into genre, size and body.

    Raises:
        UrlError: no ``?`` query, an unknown genre, a size that is not two
            positive whole numbers.
    """
    url = url.strip()
    start = url.find("?")
    if start < 0:
        raise error(url, "a puzz.link URL has the puzzle after '?', as in https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    parts = unquote(url[start + 1:]).split("/")
    positions, pos = [], start + 1
    for part in parts:
        positions.append(pos)
        pos += len(part) + 1
    pid = re.sub(r"_(edit|play)$", "", parts[0])
    genre = genre_of(pid)
    if genre is None:
        raise error(url, f"unknown genre {pid!r}; gridlang decodes {', '.join(_decoded_names())}", positions[0])
    i, variant, flags = 1, None, ""
    if i < len(parts) and parts[i].startswith("v:"):
        variant, i = parts[i][2:], i + 1
    if i < len(parts) and parts[i] and not parts[i].isdigit():
        flags, i = parts[i], i + 1
    if i + 1 >= len(parts):
        raise error(url, "the URL gives no grid size: write GENRE/COLS/ROWS/BODY", len(url))
    size = []
    for j in (i, i + 1):
        if not parts[j].isdigit() or int(parts[j]) < 1:
            raise error(url, f"the grid size is two whole numbers of at least 1 (columns, then rows); "
                             f"{parts[j]!r} is not", positions[j])
        size.append(int(parts[j]))
    if size[0] > 200 or size[1] > 200:
        raise error(url, f"a {size[0]}x{size[1]} grid is larger than gridlang reads (200x200)", positions[i])
    body_start = positions[i + 2] if i + 2 < len(parts) else len(url)
    body = "/".join(parts[i + 2:])
    return PuzzLink(url, pid, genre, size[0], size[1], body, body_start, flags, variant, positions[i])


def decode(url: str) -> Decoded:
    """Decode a puzz.link URL into its genre's text map.

    Args:
        url: the URL.

    Returns:
        The genre and its text map (see ``docs/gallery.md`` for each format).

    Raises:
        UrlError: the URL is malformed, its genre is not decoded, or its body
            disagrees with its size.
    """
    link = parse_url(url)
    decoder = _DECODERS.get(link.genre)
    if decoder is None:
        raise error(link, f"gridlang does not decode {link.genre} URLs yet (it decodes: "
                          f"{', '.join(sorted(_DECODERS))})", link.offset)
    reader = _Reader(link)
    text = decoder(reader)
    return Decoded(link.genre, text, link)


GENRES: tuple[str, ...] = ()
"""The genres whose URLs are decoded (filled in below)."""


def _decoded_names() -> list[str]:
    """The decoded genres, each with the other names pzprjs gives it."""
    out = []
    for genre in sorted(_DECODERS):
        others = sorted(name for name, g in ALIASES.items() if g == genre and name != genre)
        out.append(genre + (f" ({'/'.join(others)})" if others else ""))
    return out


# --------------------------------------------------------------------- reader

class _Reader:
    """The body of a URL, read from left to right; errors point into the URL."""

    def __init__(self, link: PuzzLink):
        self.link = link
        self.body = link.body
        self.i = 0
        self.n = link.rows * link.cols

    def error(self, message: str, at: int | None = None) -> UrlError:
        return error(self.link, message, self.link.offset + (self.i if at is None else at))

    def done(self) -> None:
        """Refuse characters left after the last field."""
        rest = self.body[self.i:].rstrip("/")
        if rest:
            raise self.error(f"unexpected {rest[:20]!r} after the puzzle's data (a {self.link.cols}x"
                             f"{self.link.rows} grid is complete before it)")

    def field_until_slash(self) -> str:
        j = self.body.find("/", self.i)
        j = len(self.body) if j < 0 else j
        text = self.body[self.i:j]
        self.i = min(j + 1, len(self.body))
        return text

    def numbers16(self, count: int, what: str = "cells") -> list[int | None]:
        """``decodeNumber16`` over ``count`` entries: a number, -2 (``?``) or None (empty)."""
        out: list[int | None] = []
        body = self.body
        while len(out) < count and self.i < len(body):
            ch = body[self.i]
            widths = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192),
                      "*": (4, 12240), "$": (5, 77776)}
            if ch in "0123456789abcdef":
                out.append(int(ch, 16))
                self.i += 1
            elif ch in widths:
                width, base = widths[ch]
                digits = body[self.i + 1:self.i + 1 + width]
                if len(digits) < width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                    raise self.error(f"{ch!r} is followed by {width} hexadecimal digits in the number encoding")
                out.append(int(digits, 16) + base)
                self.i += 1 + width
            elif ch == ".":
                out.append(-2)
                self.i += 1
            elif "g" <= ch <= "z":
                out.extend([None] * (int(ch, 36) - 15))
                self.i += 1
            elif ch == "/":
                break
            else:
                raise self.error(f"unexpected {ch!r} in the number encoding")
        if len(out) > count:
            raise self.error(f"the data describes {len(out)} {what}; a {self.link.cols}x{self.link.rows} "
                             f"grid has {count}", self.i - 1)
        if len(out) < count:
            raise self.error(f"the data ends after {len(out)} {what}; a {self.link.cols}x{self.link.rows} "
                             f"grid has {count}")
        return out

    def borders(self) -> list[int]:
        """``decodeBorder``: each cell's room number (rooms in the order of their first cell)."""
        cols, rows = self.link.cols, self.link.rows
        vertical, horizontal = (cols - 1) * rows, cols * (rows - 1)
        need = (vertical + 4) // 5 + (horizontal + 4) // 5
        chunk = self.body[self.i:self.i + need]
        for k, ch in enumerate(chunk):
            if ch not in "0123456789abcdefghijklmnopqrstuv":
                raise self.error(f"unexpected {ch!r} in the room borders (base-32 digits 0-9, a-v)", self.i + k)
        if len(chunk) < need:
            raise self.error(f"the room borders of a {cols}x{rows} grid take {need} characters; the URL has "
                             f"{len(chunk)}", self.i + len(chunk))
        first = (vertical + 4) // 5

        def bits(text: str, count: int) -> list[bool]:
            out = []
            for ch in text:
                value = int(ch, 32)
                out.extend(bool(value & (16 >> w)) for w in range(5))
            return out[:count]

        right = bits(chunk[:first], vertical)     # wall between (r, c) and (r, c + 1)
        below = bits(chunk[first:], horizontal)   # wall between (r, c) and (r + 1, c)
        self.i += need
        room = [-1] * (rows * cols)
        count = 0
        for start in range(rows * cols):
            if room[start] >= 0:
                continue
            room[start] = count
            stack = [start]
            while stack:
                u = stack.pop()
                r, c = divmod(u, cols)
                steps = []
                if c + 1 < cols and not right[r * (cols - 1) + c]:
                    steps.append(u + 1)
                if c > 0 and not right[r * (cols - 1) + c - 1]:
                    steps.append(u - 1)
                if r + 1 < rows and not below[r * cols + c]:
                    steps.append(u + cols)
                if r > 0 and not below[(r - 1) * cols + c]:
                    steps.append(u - cols)
                for v in steps:
                    if room[v] < 0:
                        room[v] = count
                        stack.append(v)
            count += 1
        return room

    def circles(self) -> list[int]:
        """``decodeCircle``: 0 none, 1 white, 2 black, per cell."""
        need = (self.n + 2) // 3
        chunk = self.body[self.i:self.i + need]
        out: list[int] = []
        for k, ch in enumerate(chunk):
            if ch not in "0123456789abcdefghijklmnopq":
                raise self.error(f"unexpected {ch!r} in the circles (base-27 digits 0-9, a-q)", self.i + k)
            value = int(ch, 27)
            out.extend((value // 9 % 3, value // 3 % 3, value % 3))
        if len(chunk) < need:
            raise self.error(f"the circles of a {self.link.cols}x{self.link.rows} grid take {need} characters; "
                             f"the URL has {len(chunk)}", self.i + len(chunk))
        self.i += need
        return out[:self.n]


# ------------------------------------------------------------------- writing

_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def grid_text(rows: int, cols: int, cells: list[str]) -> str:
    """Rows of cell texts: one character each, or separated by spaces when any is longer."""
    spaced = any(len(c) > 1 for c in cells)
    width = max(len(c) for c in cells) if spaced else 1
    lines = []
    for r in range(rows):
        row = cells[r * cols:(r + 1) * cols]
        lines.append(" ".join(c.rjust(width) for c in row) if spaced else "".join(row))
    return "\n".join(lines)


def rooms_text(rows: int, cols: int, room: list[int]) -> str:
    """The ``rooms:`` block: a letter per room, reused for rooms that do not touch."""
    count = max(room) + 1
    touching: list[set[int]] = [set() for _ in range(count)]
    for i, a in enumerate(room):
        r, c = divmod(i, cols)
        for j in ((i + 1) if c + 1 < cols else None, (i + cols) if r + 1 < rows else None):
            if j is not None and room[j] != a:
                touching[a].add(room[j])
                touching[room[j]].add(a)
    label: dict[int, str] = {}
    for a in range(count):
        used = {label[b] for b in touching[a] if b in label}
        label[a] = next((x for x in _LABELS if x not in used), None) or str(a)
    return "rooms:\n" + grid_text(rows, cols, [label[a] for a in room])


def _document(link: PuzzLink, headers: list[str], body: str) -> str:
    lines = [f"# {link.genre} {link.cols}x{link.rows}, from {link.url}"] + headers + [body]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ genres

def _starbattle(rd: _Reader) -> str:
    link = rd.link
    stars = rd.field_until_slash()
    if not stars.isdigit() or int(stars) < 1:
        raise rd.error(f"a Star Battle URL gives the number of stars first (STARS/BORDERS); {stars!r} is not one",
                       rd.i - len(stars) - 1)
    room = rd.borders()
    rd.done()
    return _document(link, [f"stars: {int(stars)}"],
                     grid_text(link.rows, link.cols, ["."] * rd.n) + "\n" + rooms_text(link.rows, link.cols, room))


def _rooms_only(rd: _Reader) -> str:
    link = rd.link
    room = rd.borders()
    rd.done()
    return _document(link, [], grid_text(link.rows, link.cols, ["."] * rd.n) + "\n"
                     + rooms_text(link.rows, link.cols, room))


def _numbers(rd: _Reader, allow_unknown: bool = True) -> list[str]:
    values = rd.numbers16(rd.n)
    cells = []
    for v in values:
        cells.append("." if v is None else "?" if v == -2 else str(v))
    return cells


def _nurikabe(rd: _Reader) -> str:
    link = rd.link
    cells = _numbers(rd)
    rd.done()
    return _document(link, [], grid_text(link.rows, link.cols, cells))


def _sudoku(rd: _Reader) -> str:
    link = rd.link
    if link.rows != link.cols:
        raise error(link, f"a Sudoku grid is square; this URL gives {link.cols}x{link.rows}", link.size_at)
    n = link.cols
    cells = _numbers(rd)
    rd.done()
    height = int(n ** 0.5 + 1e-9)
    width = 3 if n == 6 else height
    if height * width != n:
        raise error(link, f"a {n}x{n} Sudoku has no box shape pzprjs knows (4, 6, 9, 16, 25, ...)", link.size_at)
    for k, v in enumerate(cells):
        if v == "?" or v not in (".",) and not 1 <= int(v) <= n:
            raise error(link, f"the given {v!r} at row {k // n + 1}, column {k % n + 1} is no digit of a "
                              f"{n}x{n} Sudoku (1 to {n})", link.offset)
    headers = [] if (height, width) == (3, 3) else [f"box_rows: {height}", f"box_cols: {width}"]
    return _document(link, headers, grid_text(n, n, cells))


def _hitori(rd: _Reader) -> str:
    link = rd.link
    cells: list[str] = []
    body = rd.body
    while len(cells) < rd.n and rd.i < len(body):
        ch = body[rd.i]
        if ch.isdigit() or "a" <= ch <= "z":
            cells.append(str(int(ch, 36)))
            rd.i += 1
        elif ch == "-":
            digits = body[rd.i + 1:rd.i + 3]
            if len(digits) < 2 or not re.fullmatch(r"[0-9a-z]{2}", digits):
                raise rd.error("'-' is followed by two base-36 digits in the Hitori encoding")
            cells.append(str(int(digits, 36)))
            rd.i += 3
        elif ch in "%@":
            cells.append("?")
            rd.i += 1
        elif ch == ".":
            cells.append(".")
            rd.i += 1
        else:
            raise rd.error(f"unexpected {ch!r} in the Hitori numbers")
    if len(cells) < rd.n:
        raise rd.error(f"the data ends after {len(cells)} cells; a {link.cols}x{link.rows} grid has {rd.n}")
    rd.done()
    return _document(link, [], grid_text(link.rows, link.cols, cells))


def _heyawake(rd: _Reader) -> str:
    link = rd.link
    room = rd.borders()
    count = max(room) + 1
    values = rd.numbers16(count, "rooms") if rd.i < len(rd.body) else [None] * count
    rd.done()
    cells = ["."] * rd.n
    for k in range(count):
        members = [i for i, x in enumerate(room) if x == k]
        top = min(members, key=lambda i: (i % link.cols, i // link.cols))
        if values[k] is not None:
            cells[top] = "?" if values[k] == -2 else str(values[k])
    return _document(link, [], grid_text(link.rows, link.cols, cells) + "\n" + rooms_text(link.rows, link.cols, room))


_PRESETS = {"p": "pentominoes", "t": "tetrominoes", "d": "tetrominoes, tetrominoes"}


def _statuepark(rd: _Reader) -> str:
    link = rd.link
    circles = rd.circles() if not rd.body.startswith("/") else [0] * rd.n
    rest = rd.body[rd.i:]
    if rest.startswith("//"):
        key = rest[2:3]
        if key not in _PRESETS:
            raise rd.error(f"unknown piece bank {key!r}: the presets are p (pentominoes), t (tetrominoes), "
                           f"d (double tetrominoes)", rd.i + 2)
        rd.i += 3
        bank = _PRESETS[key]
    else:
        bank = _piece_bank(rd)
    rd.done()
    cells = ["." if v == 0 else "o" if v == 1 else "*" for v in circles]
    return _document(link, [f"pieces: {bank}"], grid_text(link.rows, link.cols, cells))


def _piece_bank(rd: _Reader) -> str:
    """A bank of pieces of its own, ``/COUNT/PIECE/PIECE...``, as a ``shapes`` value (rows of 0 and 1).

    Each piece is its width and height (one base-36 digit each) and then
    its cells row by row, five to a base-32 digit, most significant first
    (pzprjs's ``BankPiece``); or ``W:BITS``, the bits written out.
    """
    start = rd.i
    parts = rd.body[rd.i:].split("/")
    if len(parts) < 2 or parts[0] != "" or not parts[1].isdigit():
        raise rd.error("a piece bank is //p, //t, //d or /COUNT/PIECE/...", start)
    count = int(parts[1])
    if not 1 <= count <= 100 or len(parts) != count + 2:
        raise rd.error(f"the bank says {parts[1]} pieces and lists {max(0, len(parts) - 2)}", start + 1)
    drawn, at = [], start + len(parts[1]) + 2
    for piece in parts[2:]:
        drawn.append(_bank_piece(rd, piece, at))
        at += len(piece) + 1
    rd.i = len(rd.body)
    return ", ".join(drawn)


def _bank_piece(rd: _Reader, piece: str, at: int) -> str:
    if ":" in piece:
        width_text, bits = piece.split(":", 1)
        if not width_text.isdigit() or not 0 < int(width_text) <= 36 or not bits or set(bits) - {"0", "1"} \
                or len(bits) % int(width_text):
            raise rd.error(f"the piece {piece!r} is not WIDTH:BITS", at)
        width = int(width_text)
    else:
        try:
            width, height = int(piece[0], 36), int(piece[1], 36)
            bits = "".join(format(int(ch, 32), "05b") for ch in piece[2:])
        except (ValueError, IndexError):
            raise rd.error(f"the piece {piece!r} is not a width, a height and its cells in base 32", at) from None
        if width == 0 or height == 0 or len(piece) < 3:
            raise rd.error(f"the piece {piece!r} has no cells", at)
        bits = bits[:width * height].ljust(width * height, "0")
    if "1" not in bits:
        raise rd.error(f"the piece {piece!r} has no cells", at)
    return "/".join(bits[k:k + width] for k in range(0, len(bits), width))


_DECODERS = {
    "statuepark": _statuepark,
    "starbattle": _starbattle,
    "sudoku": _sudoku,
    "norinori": _rooms_only,
    "lits": _rooms_only,
    "hitori": _hitori,
    "nurikabe": _nurikabe,
    "heyawake": _heyawake,
}
from .puzzlink_lines import DECODERS as _LINE_DECODERS  # noqa: E402  (it reads the helpers above)

_DECODERS.update(_LINE_DECODERS)
GENRES = tuple(sorted(_DECODERS))


# --------------------------------------------------------------- using them

SPECS = Path(__file__).resolve().parent.parent / "puzzles"
"""Where the bundled genre specs are (``puzzles/GENRE.grid`` of the repository)."""


def bundled_spec(genre: str) -> Path:
    """The bundled spec of a genre, ``puzzles/GENRE.grid`` beside the package, else in the current directory.

    Raises:
        UrlError: the genre has no bundled spec here.
    """
    path = SPECS / f"{genre}.grid"
    if not path.is_file():  # an installed package: the checkout or project it runs in
        path = Path.cwd() / "puzzles" / f"{genre}.grid"
    if not path.is_file():
        raise UrlError(f"there is no bundled spec for {genre} ({path} is missing); give the spec's path")
    return path


def load_url(url: str, spec: str | Path | None = None):
    """Decode a URL into a map for a spec, choosing the genre's bundled spec when none is given.

    Args:
        url: the puzz.link URL.
        spec: the ``.grid`` spec, or None for the genre's bundled one.

    Returns:
        ``(spec_path, decoded, map_data)``: the spec to use, the decoded
        puzzle, and its map (:class:`~gridlang.maps.MapData`, named after
        the URL's genre).

    Raises:
        UrlError: the URL is malformed, or its genre is not the spec's.
        GridlangError: the spec cannot be read.
    """
    from .maps import parse_map
    from .parser import parse_file

    decoded = decode(url)
    path = Path(spec) if spec is not None else bundled_spec(decoded.genre)
    puzzle = parse_file(path).puzzle
    name = puzzle.name if puzzle is not None else None
    want = SPEC_PUZZLES[decoded.genre]
    if name is None or " ".join(name.split()).casefold() != want.casefold():
        raise error(decoded.link, f"the URL is a {decoded.link.pid} puzzle ({want}), but {path} states "
                                  f"{'the rules of ' + repr(name) if name else 'no puzzle name'}",
                    decoded.link.url.find("?") + 1)
    data = parse_map(decoded.text, f"<{decoded.genre} from --url>", name)
    return path, decoded, data


def compile_url(url: str, spec: str | Path | None = None, params: dict[str, str] | None = None):
    """Parse, check and compile a spec against a URL's puzzle.

    Returns:
        ``(model, seconds)`` as :func:`gridlang.pipeline.load_checked` gives them.

    Raises:
        GridlangError: a bad URL, spec, map or parameter, located.
    """
    from .checker import check
    from .parser import parse_file
    from .pipeline import load_checked

    path, decoded, data = load_url(url, spec)
    tree = parse_file(path)
    model, seconds = load_checked(tree, check(tree), data, params)
    model.info["spec"] = str(path)
    model.info["map"] = url
    return model, seconds
