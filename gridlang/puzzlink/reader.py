"""The body of a URL read left to right, with pzprjs's shared encodings, and the text maps it becomes."""

from __future__ import annotations

import re

from ..grid import flood_rooms
from .url import PuzzLink, UrlError, error

_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"



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

        def joined(u: int, v: int) -> bool:  # u < v, side neighbours
            if v == u + cols:  # one above the other (in one column, u + 1 is the cell below too)
                return not below[u]
            r, c = divmod(u, cols)
            return not right[r * (cols - 1) + c]

        return flood_rooms(rows, cols, joined)

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


def _numbers(rd: _Reader, allow_unknown: bool = True) -> list[str]:
    values = rd.numbers16(rd.n)
    cells = []
    for v in values:
        cells.append("." if v is None else "?" if v == -2 else str(v))
    return cells
