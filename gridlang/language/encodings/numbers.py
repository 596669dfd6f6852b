"""The number encodings: one number (or ``?``, or none) per object.

Re-implemented from their description in pzprjs's
``src/variety-common/Encode.js`` (robx/pzprjs, MIT licence) and a base-36
decoder of its genre files (docs/language.md's table names it).

``number16`` (``decodeNumber16``; outside the grid ``decodeNumber16ExCell``)
    ``0``-``f`` a number 0-15; ``-XX`` two hexadecimal digits (16-255);
    ``+XXX`` three (256-4095); ``=XXX`` 4096 more; ``%XXX``/``@XXX`` 8192
    more; ``*XXXX`` 12240 more; ``$XXXXX`` 77776 more; ``.`` a number not
    given (``?``); ``g``-``z`` 1-20 objects without one.
``number10`` (``decodeNumber10``)
    ``0``-``9``; ``.`` ``?``; ``a``-``z`` 1-26 objects without a number.
``number10or16`` (``decodeNumber10or16``)
    ``number16`` after a leading ``-``, else ``number10``.
``number4`` (``decode4Cell``)
    ``0``-``4``; ``5``-``9`` the number 0-4 and one empty object after it;
    ``a``-``e`` the number and two empty objects; ``g``-``z`` 1-20 empty
    objects; ``.`` ``?``. The empties after the last number may run past
    the end (pzprjs writes them so).
``inequalities`` (pzprjs's decoder of numbers and signs on borders)
    ``0``-``f`` a number 0-15; ``-XX`` two hexadecimal digits (16-255);
    ``.`` a number not given (``?``); ``g`` the sign ``less`` (the first
    cell of the border, the left or upper one, holds the smaller number);
    ``h`` the sign ``greater``; ``i``-``z`` 1-18 objects without either.
``position`` (``decodeOneNumber16`` twice)
    one cell given by where it is: its column, then its row, counted from 1,
    each one ``number16`` token (``3``, ``-1a``); the cell has value 1, the
    others none.
``number36``
    one base-36 digit per object (``0``-``z``); ``-XX`` two; ``%`` or ``@``
    ``?``; ``.`` an object without a number.
"""

from __future__ import annotations

import re

from gridlang.language.encodings.body import UNKNOWN, Body, Value
from gridlang.language.encodings.table import Encoding, Part, Unwritable

_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192), "*": (4, 12240),
         "$": (5, 77776)}
_HEX = re.compile(r"[0-9a-fA-F]+")
MAX_NUMBER16 = 77776 + 0xFFFFF
"""The largest number ``number16`` writes (``$FFFFF``)."""

_OBJECTS = {"cells": "cells", "room numbers": "rooms", "corners": "corners", "borders": "borders", "dots": "places"}


def objects(part: Part) -> str:
    """What the objects of a part are called in messages: cells, rooms, clues."""
    return _OBJECTS.get(part.place, "clues")


def grid_has(part: Part, count: int) -> str:
    """``a 5x5 grid has 25`` (cells), ``the 7 rooms``..., for messages about the part's length."""
    if part.place == "cells":
        return f"a {part.cols}x{part.rows} grid has {count}"
    if part.place == "room numbers":
        return f"the grid has {count} rooms"
    if part.place == "corners":
        return f"a {part.cols}x{part.rows} grid has {count} corners"
    if part.place == "dots":
        return f"a {part.cols}x{part.rows} grid has {count} places for dots (cells, borders and corners inside it)"
    if part.place == "borders":
        return f"a {part.cols}x{part.rows} grid has {count} borders between its cells"
    return f"a {part.cols}x{part.rows} grid has {count} clues outside it"


def _finish(body: Body, got: int, count: int, part: Part, overshoot_ok: bool = False) -> None:
    """Refuse a part that ends early or skips past its last object."""
    if got > count and not overshoot_ok:
        raise body.error(f"the data describes {got} {objects(part)}; {grid_has(part, count)}", body.i - 1)
    if got < count:
        raise body.short(got, grid_has(part, count), objects(part))


def _skips(count: int, first: int, most: int, out: list[str]) -> None:
    """Write ``count`` empty objects as skip characters: ``first`` is the digit value of one, ``most`` the longest."""
    while count > 0:
        k = min(count, most)
        out.append(_base36(first + k - 1))
        count -= k


def _base36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]


def scan(body: Body, count: int, part: Part, read, overshoot_ok: bool = False) -> tuple[list[Value], list[int]]:
    """The loop of pzprjs's decoders that read one object per character: to ``count`` objects, or a ``/``.

    Args:
        body: the body, read from ``body.i``.
        count: how many objects the part has.
        part: the part (for messages).
        read: ``read(ch, at) -> (value, skip, width)``: the value of the
            current object (None for none), how many more objects the
            character covers (empty ones), and how many more characters it
            takes; it raises the body's error on a character it does not know.
        overshoot_ok: the last characters may cover objects past the end
            (``number4``'s encoder writes them so).

    Returns:
        The values and, for each, the body index it was read at.

    Raises:
        UrlError: the part ends early, or covers more objects than it has.
    """
    out: list[Value] = [None] * count
    where = [body.i] * count
    c = 0
    while c < count and body.i < len(body.text):
        ch, at = body.text[body.i], body.i
        if ch == "/":
            break
        value, skip, width = read(ch, at)
        if value is not None:
            out[c], where[c] = value, at
        c += 1 + skip
        body.i += 1 + width
    _finish(body, c, count, part, overshoot_ok)
    return out, where


def write_runs(values: list[Value], write, first: int, most: int) -> str:
    """Values one after the other, each run of empty ones as skip characters (pzprjs's encoders).

    Args:
        values: the values, None for an empty object.
        write: ``write(k, value) -> str``; raises :class:`Unwritable`.
        first: the digit value (base 36) of the character that skips one object.
        most: the most objects one skip character covers.
    """
    out: list[str] = []
    empty = 0
    for k, v in enumerate(values):
        if v is None:
            empty += 1
            continue
        _skips(empty, first, most, out)
        empty = 0
        out.append(write(k, v))
    _skips(empty, first, most, out)
    return "".join(out)


def read16(body: Body, at: int) -> tuple[int | str | None, int]:
    """One ``number16`` token at body index ``at``: ``(value, length)``; ``(None, 0)`` when none starts there.

    Raises:
        UrlError: a wide form (``-``, ``+``, ...) without its digits.
    """
    text = body.text
    ch = text[at]
    if ch in "0123456789abcdef":
        return int(ch, 16), 1
    if ch in _WIDE:
        width, base = _WIDE[ch]
        digits = text[at + 1:at + 1 + width]
        if len(digits) < width or not _HEX.fullmatch(digits):
            raise body.error(f"{ch!r} is followed by {width} hexadecimal digits in the number encoding", at)
        return int(digits, 16) + base, 1 + width
    if ch == ".":
        return UNKNOWN, 1
    return None, 0


def write16(value: int | str) -> str:
    """One number as ``number16`` writes it (pzprjs's ``writeNumber16``).

    Raises:
        ValueError: a number beyond :data:`MAX_NUMBER16`, or below 0.
    """
    if value == UNKNOWN:
        return "."
    n = int(value)
    if 0 <= n < 16:
        return format(n, "x")
    if 16 <= n < 256:
        return "-" + format(n, "x")
    if 256 <= n < 4096:
        return "+" + format(n, "x")
    if 4096 <= n < 8192:
        return "=" + format(n - 4096, "03x")
    if 8192 <= n < 12240:
        return "@" + format(n - 8192, "03x")
    if 12240 <= n < 77776:
        return "*" + format(n - 12240, "04x")
    if 77776 <= n <= MAX_NUMBER16:
        return "$" + format(n - 77776, "05x")
    raise ValueError(f"{n} is beyond what the number encoding writes (0 to {MAX_NUMBER16})")


class Number16(Encoding):
    name = "number16"
    places = frozenset({"cells", "room numbers", "outside", "borders"})

    def decode(self, body, count, part):
        def read(ch, at):
            value, length = read16(body, at)
            if length:
                return value, 0, length - 1
            if "g" <= ch <= "z":
                return None, int(ch, 36) - 16, 0
            raise body.error(f"unexpected {ch!r} in the number encoding")

        return scan(body, count, part, read)

    def encode(self, values, part):
        def write(k, v):
            try:
                return write16(v)
            except ValueError as e:
                raise Unwritable(str(e), k) from None

        return write_runs(values, write, 16, 20)


class Number10(Encoding):
    name = "number10"

    def decode(self, body, count, part):
        def read(ch, at):
            if ch == ".":
                return UNKNOWN, 0, 0
            if ch.isdigit():
                return int(ch), 0, 0
            if "a" <= ch <= "z":
                return None, int(ch, 36) - 10, 0
            raise body.error(f"unexpected {ch!r} in the one-digit numbers (0-9, '.', a-z)")

        return scan(body, count, part, read)

    def encode(self, values, part):
        def write(k, v):
            if v == UNKNOWN:
                return "."
            if isinstance(v, int) and 0 <= v <= 9:
                return str(v)
            raise Unwritable(f"{v} has more than one digit, and this encoding writes 0 to 9", k)

        return write_runs(values, write, 10, 26)


class Number10or16(Encoding):
    name = "number10or16"

    def decode(self, body, count, part):
        if body.text.startswith("-", body.i):
            body.i += 1
            return NUMBER16.decode(body, count, part)
        return NUMBER10.decode(body, count, part)

    def encode(self, values, part):
        if all(v is None or v == UNKNOWN or v <= 9 for v in values):
            return NUMBER10.encode(values, part)
        return "-" + NUMBER16.encode(values, part)


class Number4(Encoding):
    """pzprjs's ``decode4Cell`` over the cells and ``decode4Cross`` over the corners, and the same scheme
    over the borders, as pzprjs reads lines and dots on borders given as one of five values."""

    name = "number4"
    places = frozenset({"cells", "corners", "borders"})
    values = (0, 1, 2, 3, 4)

    def decode(self, body, count, part):
        def read(ch, at):
            if "0" <= ch <= "4":
                return int(ch), 0, 0
            if "5" <= ch <= "9":
                return int(ch) - 5, 1, 0
            if "a" <= ch <= "e":
                return int(ch, 16) - 10, 2, 0
            if "g" <= ch <= "z":
                return None, int(ch, 36) - 16, 0
            if ch == ".":
                return UNKNOWN, 0, 0
            raise body.error(f"unexpected {ch!r} in the numbers 0 to 4 (0-9, a-e, g-z, '.')")

        return scan(body, count, part, read, overshoot_ok=True)

    def encode(self, values, part):
        out: list[str] = []
        empty, c, n = 0, 0, len(values)
        while c < n:
            v = values[c]
            if v is None:
                empty += 1
                c += 1
                continue
            _skips(empty, 16, 20, out)
            empty = 0
            if v == UNKNOWN:
                out.append(".")
                c += 1
                continue
            if not isinstance(v, int) or not 0 <= v <= 4:
                raise Unwritable(f"{v} is not a number from 0 to 4, which this encoding writes", c)
            if c + 1 < n and values[c + 1] is not None:
                out.append(str(v))
                c += 1
            elif c + 2 < n and values[c + 2] is not None:
                out.append(str(v + 5))
                c += 2
            else:
                out.append(format(v + 10, "x"))
                c += 3
        _skips(empty, 16, 20, out)
        return "".join(out)


class Number36(Encoding):
    name = "number36"

    def decode(self, body, count, part):
        def read(ch, at):
            if ch.isdigit() or "a" <= ch <= "z":
                return int(ch, 36), 0, 0
            if ch == "-":
                digits = body.text[at + 1:at + 3]
                if len(digits) < 2 or not re.fullmatch(r"[0-9a-z]{2}", digits):
                    raise body.error("'-' is followed by two base-36 digits in the base-36 numbers", at)
                return int(digits, 36), 0, 2
            if ch in "%@":
                return UNKNOWN, 0, 0
            if ch == ".":
                return None, 0, 0
            raise body.error(f"unexpected {ch!r} in the base-36 numbers (0-9, a-z, '-', '%', '.')")

        return scan(body, count, part, read)

    def encode(self, values, part):
        out: list[str] = []
        for k, v in enumerate(values):
            if v is None:
                out.append(".")
            elif v == UNKNOWN:
                out.append("@")
            elif isinstance(v, int) and 0 <= v < 36:
                out.append(_base36(v))
            elif isinstance(v, int) and 36 <= v < 36 * 36:
                out.append("-" + _base36(v // 36) + _base36(v % 36))
            else:
                raise Unwritable(f"{v} is beyond what the base-36 numbers write (0 to {36 * 36 - 1})", k)
        return "".join(out)


class Position(Encoding):
    """pzprjs's ``decodeOneNumber16`` read twice, the column and then the row of one cell (counted from 1):
    a cell given by where it is, as pzprjs gives a start or a goal (``goalpos``, ``startpos``)."""

    name = "position"
    values = (1,)

    def decode(self, body, count, part):
        found = []
        for what, most in (("column", part.cols), ("row", part.rows)):
            at = body.i
            value, length = read16(body, at) if at < len(body.text) else (None, 0)
            if not length:
                shown = repr(body.text[at]) if at < len(body.text) else "the end of the data"
                raise body.error(f"a position is a column and a row, each a number (one number16 token); the "
                                 f"{what} is {shown}", at)
            if value == UNKNOWN or not 1 <= value <= most:
                raise body.error(f"the position's {what} is {value}; a {part.cols}x{part.rows} grid's {what}s run "
                                 f"from 1 to {most}", at)
            body.i += length
            found.append((value, at))
        (col, at), (row, _) = found
        out: list[Value] = [None] * count
        out[(row - 1) * part.cols + col - 1] = 1
        return out, [at] * count

    def encode(self, values, part):
        marked = [k for k, v in enumerate(values) if v is not None]
        for k in marked:
            if values[k] != 1:
                raise Unwritable(f"{values[k]!r} is not the position's cell (value 1)", k)
        if len(marked) != 1:
            raise Unwritable(f"a position gives one cell, and the map has {len(marked)}",
                             marked[1] if marked else 0)
        row, col = divmod(marked[0], part.cols)
        return write16(col + 1) + write16(row + 1)


NUMBER16, NUMBER10 = Number16(), Number10()
class Inequalities(Encoding):
    """pzprjs's decoder and encoder of numbers and inequality signs on borders (of its ``URL_PZPRV3`` URLs):
    a number or a sign on each border."""

    name = "inequalities"
    places = frozenset({"borders"})
    names = ("less", "greater")

    def decode(self, body, count, part):
        def read(ch, at):
            if ch in "gh":
                return ("less" if ch == "g" else "greater"), 0, 0
            if "i" <= ch <= "z":
                return None, int(ch, 36) - 18, 0
            if ch in "0123456789abcdef-.":
                value, length = read16(body, at)
                return value, 0, length - 1
            raise body.error(f"unexpected {ch!r} in the numbers and inequalities (0-9, a-f, -XX, '.', g, h, i-z)")

        return scan(body, count, part, read)

    def encode(self, values, part):
        def write(k, v):
            if v in ("less", "greater"):
                return "g" if v == "less" else "h"
            if v == UNKNOWN or isinstance(v, int) and 0 <= v < 256:
                return write16(v)
            raise Unwritable(f"{v!r} is not a number from 0 to 255, '?' or an inequality sign", k)

        return write_runs(values, write, 18, 18)


ENCODINGS = (NUMBER16, NUMBER10, Number10or16(), Number4(), Number36(), Inequalities(), Position())
