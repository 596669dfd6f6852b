"""The structured clue encodings: an arrow and a number, a list of numbers, two sums.

Re-implemented from their description in pzprjs (robx/pzprjs, MIT licence):
``decodeArrowNumber16`` (``src/variety-common/Encode.js``), and two decoders
of pzprjs's genre files (docs/language.md's table names them). Their values are
structured (:mod:`gridlang.language.encodings.body`) and go into the text map as
tokens: ``^2``, ``1,3,3``, ``12,7``.

``arrows`` (``decodeArrowNumber16``)
    per clue a direction digit (0 none, 1 up, 2 down, 3 left, 4 right) and
    its number: ``D`` then one hexadecimal digit or ``.`` (``?``); ``5+D``
    then two; ``-`` ``D`` then three; ``a``-``z`` 1-26 cells without a clue.
``number lists``
    ``0``-``8`` one number; ``9`` the list 1,1,1,1; ``.`` ``?``; two
    base-36 characters from ``a0`` for two (0-5 each), three (0-3) or four
    (0-1) numbers, a 0 in the list standing for ``?``; ``g``-``z`` 1-20
    cells without a clue.
``sum pairs``
    over the cells: ``k``-``z`` 1-16 white cells, ``.`` a clue cell without
    sums, else two characters, the sum down then the sum across (``0``-``9``,
    ``a``-``j`` 10-19, ``A``-``Z`` 20-45, ``-`` none); outside the grid, one
    character per column whose top cell is white (its sum down), then one
    per row whose left cell is white (its sum across), with no skips.
"""

from __future__ import annotations

from gridlang.language.encodings.body import ARROWS, UNKNOWN, Arrow, Body, Pair, Value
from gridlang.language.encodings.numbers import scan, write_runs
from gridlang.language.encodings.table import Encoding, Unwritable

_DIRECTION = {v: k for k, v in ARROWS.items()}
_DIRECTION[""] = 0
_HEXDIGITS = "0123456789abcdef"


def _hex(body: Body, at: int, width: int, what: str) -> int:
    digits = body.text[at:at + width]
    if len(digits) < width or any(ch not in _HEXDIGITS for ch in digits.lower()):
        raise body.error(f"{what} takes {width} hexadecimal digit{'s' if width > 1 else ''} here", at)
    return int(digits, 16)


class Arrows(Encoding):
    name = "arrows"
    structured = True

    def decode(self, body, count, part):
        def read(ch, at):
            if "0" <= ch <= "4":
                number = UNKNOWN if body.text[at + 1:at + 2] == "." else _hex(body, at + 1, 1, "an arrow's number")
                return Arrow(ARROWS.get(int(ch), ""), number), 0, 1
            if "5" <= ch <= "9":
                return Arrow(ARROWS.get(int(ch) - 5, ""), _hex(body, at + 1, 2, "an arrow's number")), 0, 2
            if ch == "-":
                direction = _hex(body, at + 1, 1, "an arrow's direction")
                if direction > 4:
                    raise body.error(f"{direction} is no direction (0 none, 1 up, 2 down, 3 left, 4 right)", at + 1)
                return Arrow(ARROWS.get(direction, ""), _hex(body, at + 2, 3, "an arrow's number")), 0, 4
            if "a" <= ch <= "z":
                return None, int(ch, 36) - 10, 0
            raise body.error(f"unexpected {ch!r} in the arrows (a direction 0-4 and a number, or a-z)")

        return scan(body, count, part, read)

    def encode(self, values, part):
        def write(k, v):
            if not isinstance(v, Arrow):
                raise Unwritable(f"{v!r} is not an arrow and a number (^2, v?, 3)", k)
            d, n = _DIRECTION[v.direction], v.number
            if n == UNKNOWN:
                return f"{d}."
            if 0 <= n < 16:
                return f"{d}{n:x}"
            if 16 <= n < 256:
                return f"{d + 5}{n:x}"
            if 256 <= n < 4096:
                return f"-{d}{n:x}"
            raise Unwritable(f"{n} is beyond what the arrows write (0 to 4095)", k)

        return write_runs(values, write, 10, 26)


_LIST_FORMS = ((2, 360, 6), (3, 396, 4), (4, 460, 2))
"""(entries, offset, radix): a list of that many numbers is ``offset`` plus its digits in that radix."""


class NumberLists(Encoding):
    name = "number lists"
    structured = True

    def decode(self, body, count, part):
        def read(ch, at):
            if "0" <= ch <= "8":
                return (int(ch),), 0, 0
            if ch == "9":
                return (1, 1, 1, 1), 0, 0
            if ch == ".":
                return (UNKNOWN,), 0, 0
            if "a" <= ch <= "f":
                pair = body.text[at:at + 2]
                n = int(pair, 36) if len(pair) == 2 and pair.isalnum() else -1
                for size, offset, radix in _LIST_FORMS:
                    if offset <= n < offset + radix ** size:
                        digits = [((n - offset) // radix ** (size - 1 - j)) % radix for j in range(size)]
                        return tuple(UNKNOWN if d == 0 else d for d in digits), 0, 1
                raise body.error(f"{pair!r} is no list of numbers (two base-36 characters from a0 to d7)", at)
            if "g" <= ch <= "z":
                return None, int(ch, 36) - 16, 0
            raise body.error(f"unexpected {ch!r} in the lists of numbers")

        return scan(body, count, part, read)

    def encode(self, values, part):
        def write(k, v):
            if not isinstance(v, tuple) or not 1 <= len(v) <= 4:
                raise Unwritable(f"{v!r} is not a list of one to four numbers", k)
            if len(v) == 1:
                if v[0] == UNKNOWN:
                    return "."
                if 0 <= v[0] <= 8:
                    return str(v[0])
                raise Unwritable(f"{v[0]} is beyond a single number of the lists (0 to 8)", k)
            if v == (1, 1, 1, 1):
                return "9"
            size, offset, radix = _LIST_FORMS[len(v) - 2]
            n = 0
            for x in v:
                if x != UNKNOWN and not 1 <= x < radix:
                    raise Unwritable(f"a list of {size} numbers holds 1 to {radix - 1} each; {x} is not", k)
                n = n * radix + (0 if x == UNKNOWN else x)
            return _base36_2(n + offset)

        return write_runs(values, write, 16, 20)


def _base36_2(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return digits[n // 36] + digits[n % 36]


def _sum(body: Body, at: int) -> int:
    """One sum character (pzprjs's ``decval``); no sum (``-`` and the rest) is 0."""
    ch = body.text[at:at + 1]
    if "0" <= ch <= "9" or "a" <= ch <= "j":
        return int(ch, 36)
    if "A" <= ch <= "Z":
        return int(ch, 36) + 10
    if ch == "":
        raise body.error("the sums end early", at)
    return 0


def _write_sum(n: int, k: int) -> str:
    if 0 <= n <= 19:
        return _base36_2(n)[1]
    if 20 <= n <= 45:
        return _base36_2(n - 10)[1].upper()
    raise Unwritable(f"{n} is beyond what the sums write (0 to 45)", k)


class SumPairs(Encoding):
    name = "sum pairs"
    places = frozenset({"cells", "outside"})
    structured = True

    def decode(self, body, count, part):
        if part.place != "cells":
            return self._decode_outside(body, count, part)

        def read(ch, at):
            if "k" <= ch <= "z":
                return None, int(ch, 36) - 20, 0
            if ch == ".":
                return Pair(0, 0), 0, 0
            return Pair(_sum(body, at), _sum(body, at + 1)), 0, 1

        return scan(body, count, part, read)

    def _decode_outside(self, body, count, part):
        if part.place != "outside top left" or part.cells is None:
            raise body.error("sums outside the grid follow the sums in the cells, above and to the left")
        cols, rows = part.cols, part.rows
        out: list[Value] = [None] * count
        where = [body.i] * count
        for k in range(cols + rows):
            first = part.cells[k] if k < cols else part.cells[(k - cols) * cols]
            if first is not None:
                continue  # a clue cell at the edge carries this sum itself
            n = _sum(body, body.i)
            out[k] = Pair(n, 0) if k < cols else Pair(0, n)
            where[k] = body.i
            body.i += 1
        return out, where

    def encode(self, values, part):
        if part.place != "cells":
            return self._encode_outside(values, part)

        def write(k, v):
            if not isinstance(v, Pair):
                raise Unwritable(f"{v!r} is not two sums, down and across (12,7)", k)
            return "." if v == Pair(0, 0) else _write_sum(v.down, k) + _write_sum(v.across, k)

        return write_runs(values, write, 20, 16)

    def _encode_outside(self, values, part):
        cols, out = part.cols, []
        for k, v in enumerate(values[:cols + part.rows]):
            first = part.cells[k] if k < cols else part.cells[(k - cols) * cols]
            if first is not None:
                continue
            pair = v if isinstance(v, Pair) else Pair(0, 0)
            out.append(_write_sum(pair.down if k < cols else pair.across, k))
        return "".join(out)


ENCODINGS = (Arrows(), NumberLists(), SumPairs())
