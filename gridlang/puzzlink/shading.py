"""puzz.link URLs of the shading and placement genres: Star Battle, Sudoku, Norinori, LITS,
Hitori, Nurikabe, Heyawake, Statue Park (the encodings are listed in :mod:`gridlang.puzzlink`)."""

from __future__ import annotations

import re

from .reader import _document, _numbers, _Reader, grid_text, rooms_text
from .url import error

_PRESETS = {"p": "pentominoes", "t": "tetrominoes", "d": "tetrominoes, tetrominoes"}



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


DECODERS = {
    "statuepark": _statuepark,
    "starbattle": _starbattle,
    "sudoku": _sudoku,
    "norinori": _rooms_only,
    "lits": _rooms_only,
    "hitori": _hitori,
    "nurikabe": _nurikabe,
    "heyawake": _heyawake,
}
