"""The encodings of marks: circles, single marks, holes, blocks, and room borders.

Re-implemented from their description in pzprjs (robx/pzprjs, MIT licence):
``src/variety-common/Encode.js`` and ``decodeBlockCell``.

``circles`` (``decodeCircle``)
    base-27 digits (``0``-``9``, ``a``-``q``), three cells each, the first
    cell most significant (9, 3, 1): 0 none, 1 or 2 (the genre says which
    is white).
``marks`` (``decode1Cell``)
    ``0``-``h``: a mark, then 0-17 cells without one; ``i``-``z``: 1-18
    cells without a mark. Value 1.
``holes`` (``decodeBinary``/``decodeEmpty``)
    base-32 digits, each holding 5 cells, most significant first; a set bit is
    value 1.
``blocks`` (``decodeBlockCell``)
    ``0``-``z``: skip that many cells, then a block (value 1); ``.``: skip
    36 cells. The cells after the last block are not written.
``cross marks`` (``decodeCrossMark``)
    the marks on the corners of the cells, as ``blocks`` writes cells:
    ``0``-``z`` skip that many corners, then a mark (value 1); ``.`` skips
    36; the last character counts the corners after the last mark (a
    mark past the end, which is not one), ``0`` when there are none.
``dots`` (``decodeDot``)
    the dots of the doubled lattice inside the grid (a cell's centre, a
    border's middle, a corner inside the grid), row by row: ``0``-``f`` a
    dot of value 1 (even) or 2 (odd), then half the digit's value (rounded
    down) of places without one; ``g``-``z`` 1-20 places without one.
``bits`` (``decodeOuterBorder``)
    base-32 digits of 5 bits each over every border, the frame's included
    (after the others); the frame's digits are left out when none of its
    bits is set. Value 1 for a set bit.
``walls``
    no part of the URL: the rooms between the borders of the tiles its
    mapping names walls.
``borders`` (``decodeBorder``)
    base-32 digits of 5 bits each, most significant first: the
    ``(cols-1)*rows`` borders between side-by-side cells, row by row, then,
    from a fresh digit, the ``cols*(rows-1)`` borders between cells one
    above the other. Its value per cell is the cell's room, rooms numbered
    in the order of their first cell.
"""

from __future__ import annotations

from gridlang.core.grid import flood_rooms
from gridlang.language.encodings.body import Value
from gridlang.language.encodings.numbers import scan
from gridlang.language.encodings.table import Encoding, Unwritable

_BASE32 = "0123456789abcdefghijklmnopqrstuv"
_BASE27 = "0123456789abcdefghijklmnopq"
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _bits(text: str) -> list[bool]:
    return [bool(int(ch, 32) & (16 >> w)) for ch in text for w in range(5)]


def _pack(bits: list[bool]) -> str:
    out = []
    for k in range(0, len(bits), 5):
        chunk = bits[k:k + 5]
        out.append(_BASE32[sum(16 >> w for w, b in enumerate(chunk) if b)])
    return "".join(out)


def _chunk(body, need: int, alphabet: str, what: str, part) -> str:
    """The next ``need`` characters, all of ``alphabet``, consumed.

    Raises:
        UrlError: at a character not of the alphabet, or where the body ends early.
    """
    chunk = body.text[body.i:body.i + need]
    for k, ch in enumerate(chunk):
        if ch not in alphabet:
            digits = {_BASE27: "base-27 digits 0-9, a-q", _BASE32: "base-32 digits 0-9, a-v"}[alphabet]
            raise body.error(f"unexpected {ch!r} in the {what} ({digits})", body.i + k)
    if len(chunk) < need:
        raise body.error(f"the {what} of a {part.cols}x{part.rows} grid take {need} characters; the URL has "
                         f"{len(chunk)}", body.i + len(chunk))
    body.i += need
    return chunk


def _ones(values: list[Value], what: str) -> list[bool]:
    bits = []
    for k, v in enumerate(values):
        if v not in (None, 1):
            raise Unwritable(f"{v!r} is not a {what} (value 1) or empty", k)
        bits.append(v == 1)
    return bits


class Circles(Encoding):
    """pzprjs's ``decodeCircle`` over the cells, and the same scheme over the borders, as pzprjs reads dots
    on borders: three objects of 0, 1 or 2 per base-27 character."""

    name = "circles"
    places = frozenset({"cells", "borders"})
    values = (1, 2)

    def decode(self, body, count, part):
        start = body.i
        out: list[Value] = []
        for ch in _chunk(body, (count + 2) // 3, _BASE27, "circles", part):
            value = int(ch, 27)
            out.extend(v or None for v in (value // 9 % 3, value // 3 % 3, value % 3))
        return out[:count], [start + k // 3 for k in range(count)]

    def encode(self, values, part):
        out = []
        for k in range(0, len(values), 3):
            n = 0
            for j, v in enumerate(values[k:k + 3]):
                if v not in (None, 1, 2):
                    raise Unwritable(f"{v!r} is not a circle (1 or 2) or empty", k + j)
                n += (v or 0) * (9, 3, 1)[j]
            out.append(_BASE27[n])
        return "".join(out)


class Marks(Encoding):
    name = "marks"
    values = (1,)

    def decode(self, body, count, part):
        def read(ch, at):
            if "0" <= ch <= "9" or "a" <= ch <= "h":
                return 1, int(ch, 36), 0
            if "i" <= ch <= "z":
                return None, int(ch, 36) - 18, 0
            raise body.error(f"unexpected {ch!r} in the marks (0-9, a-z)")

        return scan(body, count, part, read)

    def encode(self, values, part):
        # pzprjs's encode1Cell: after a mark, the count of empty cells (0-17);
        # without one, 18 more (i-z: 1-18 empty cells).
        out, count, have = [], -1, False
        for on in _ones(values, "mark"):
            if on:
                if count >= 0:
                    out.append(_BASE36[count if have else count + 18])
                have, count = True, 0
                continue
            count += 1
            if count == 17:
                out.append(_BASE36[count if have else count + 18])
                have, count = False, -1
        if count >= 0:
            out.append(_BASE36[count if have else count + 18])
        return "".join(out)


class Holes(Encoding):
    name = "holes"
    values = (1,)

    def decode(self, body, count, part):
        start = body.i
        chunk = _chunk(body, (count + 4) // 5, _BASE32, "holes", part)
        return [1 if b else None for b in _bits(chunk)[:count]], [start + k // 5 for k in range(count)]

    def encode(self, values, part):
        return _pack(_ones(values, "hole"))


class Blocks(Encoding):
    name = "blocks"
    values = (1,)

    def decode(self, body, count, part):
        out: list[Value] = [None] * count
        where = [body.i] * count
        text, c = body.text, 0
        while c < count and body.i < len(text):
            ch = text[body.i]
            if ch in _BASE36:
                c += int(ch, 36)
                if c < count:
                    out[c], where[c] = 1, body.i
            elif ch == ".":
                c += 35
            elif ch == "/":
                break
            else:
                raise body.error(f"unexpected {ch!r} in the blocks (0-9, a-z, '.')")
            c += 1
            body.i += 1
        return out, where

    def encode(self, values, part):
        out, count = [], 0
        for on in _ones(values, "block"):
            if on:
                out.append(_BASE36[count])
                count = 0
            else:
                count += 1
                if count == 36:
                    out.append(".")
                    count = 0
        return "".join(out)


class CrossMarks(Blocks):
    name = "cross marks"
    places = frozenset({"corners", "inner corners"})

    def encode(self, values, part):
        out = super().encode(values, part)
        after = 0  # the corners after the last mark, as pzprjs's encodeCrossMark ends (its count < 36)
        for v in reversed(values):
            if v == 1:
                break
            after += 1
        after %= 36
        return out + (_BASE36[after] if after or not out else "")


class Dots(Encoding):
    """pzprjs's ``decodeDot`` and ``encodeDot``: a dot of value 1 or 2 on the places of the doubled lattice
    (pzprjs's ``dots`` of ``hasdots: 1``), each character a dot and the count of empty places after it (up to
    7, so that the last may count past the end), or a run of empty places."""

    name = "dots"
    places = frozenset({"dots"})
    values = (1, 2)

    def decode(self, body, count, part):
        def read(ch, at):
            if ch in "0123456789abcdef":
                value = int(ch, 16)
                return value % 2 + 1, value >> 1, 0
            if "g" <= ch <= "z":
                return None, int(ch, 36) - 16, 0
            raise body.error(f"unexpected {ch!r} in the dots (0-9, a-z)")

        return scan(body, count, part, read, overshoot_ok=True)

    def encode(self, values, part):
        out, empty, s, n = [], 0, 0, len(values)
        while s < n:
            v, text = values[s], ""
            if v is not None:
                if v not in (1, 2):
                    raise Unwritable(f"{v!r} is not a dot (1 or 2) or empty", s)
                after = next((i for i in range(1, 8) if s + i < n and values[s + i] is not None), None)
                text = format(2 * (after - 1) + v - 1 if after else 13 + v, "x")
                s += after - 1 if after else 7
            else:
                empty += 1
            if empty == 0:
                out.append(text)
            elif text or empty == 20:
                out.append(_BASE36[empty + 15] + text)
                empty = 0
            s += 1
        if empty:
            out.append(_BASE36[empty + 15])
        return "".join(out)


class Borders(Encoding):
    name = "borders"
    places = frozenset({"rooms"})

    def joined(self, body, part):
        """Read the part's borders: ``joined(u, v)`` for side neighbours ``u < v``, no border between them.

        Raises:
            UrlError: a character of no base-32 digit, or a part that ends early.
        """
        cols, rows = part.cols, part.rows
        vertical, horizontal = (cols - 1) * rows, cols * (rows - 1)
        first, second = (vertical + 4) // 5, (horizontal + 4) // 5
        chunk = _chunk(body, first + second, _BASE32, "room borders", part)
        right = _bits(chunk[:first])[:vertical]    # wall between (r, c) and (r, c + 1)
        below = _bits(chunk[first:])[:horizontal]  # wall between (r, c) and (r + 1, c)

        def joined(u: int, v: int) -> bool:  # u < v, side neighbours
            r, c = divmod(u, cols)
            if v == u + cols:
                return not below[u]
            return not right[r * (cols - 1) + c]

        return joined

    def decode(self, body, count, part):
        where = [body.i] * (part.cols * part.rows)
        return flood_rooms(part.rows, part.cols, self.joined(body, part)), where

    def encode(self, values, part):
        cols, rows, out = part.cols, part.rows, part.roomless

        def wall(u: int, v: int) -> bool:
            return values[u] != values[v] and u not in out and v not in out

        right = [wall(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
        below = [wall(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
        return _pack(right) + _pack(below)


class OuterBorders(Encoding):
    """pzprjs's ``decodeOuterBorder``: base-32 digits of 5 borders each, most significant first, over every
    border in pzprjs's order, the frame's after the others (its ``hasborder: 2``); a set bit is value 1.
    pzprjs writes the frame's digits only when one of its borders is set, so the part is as long as the
    borders between cells take, or as all of them take; any other length is an error at its end."""

    name = "bits"
    places = frozenset({"borders"})
    values = (1,)

    def decode(self, body, count, part):
        inner = part.rows * (part.cols - 1) + (part.rows - 1) * part.cols
        short, full = (inner + 4) // 5, (count + 4) // 5
        start, n = body.i, 0
        while n < full and start + n < len(body.text) and body.text[start + n] in _BASE32:
            n += 1
        if n not in (short, full):
            at = start + n
            if at < len(body.text) and body.text[at] != "/":
                raise body.error(f"unexpected {body.text[at]!r} in the borders (base-32 digits 0-9, a-v)", at)
            raise body.error(f"the borders of a {part.cols}x{part.rows} grid take {short} characters, or {full} "
                             f"with its frame; the URL has {n}", at)
        body.i += n
        bits = _bits(body.text[start:start + n])[:count]
        bits += [False] * (count - len(bits))
        return [1 if b else None for b in bits], [start + min(k // 5, max(n - 1, 0)) for k in range(count)]

    def encode(self, values, part):
        bits = _ones(values, "set border")
        inner = part.rows * (part.cols - 1) + (part.rows - 1) * part.cols
        return _pack(bits if any(bits[inner:]) else bits[:inner])


class Walls(Encoding):
    """The rooms between the borders of the tiles its mapping names walls (``rooms: walls (dotted =
    wall)``): no part of the URL, the rooms of the border layer that the format's ``borders`` item
    reads (:mod:`gridlang.formats.puzzlink.walls`)."""

    name = "walls"
    places = frozenset({"rooms"})
    keys = "walls"

    def decode(self, body, count, part):
        return [], []

    def encode(self, values, part):
        return ""


class Slash(Encoding):
    """A ``/`` that pzprjs writes between two parts and skips when reading (its ``outbstr.substr(1)``)."""

    name = "slash"
    places = frozenset({"separator"})
    keys = "none"

    def decode(self, body, count, part):
        if body.rest.startswith("/"):
            body.i += 1
        return [], []

    def encode(self, values, part):
        return "/"


ENCODINGS = (Circles(), Marks(), Holes(), Blocks(), CrossMarks(), Dots(), Borders(), OuterBorders(), Walls(), Slash())
