"""The encodings of a parameter: a number in a field of its own, banks of pieces or sizes, a size table.

Re-implemented from their description in pzprjs (robx/pzprjs, MIT licence;
docs/language.md's table of encodings names each pzprjs function): a number
in a field of its own, ``decodeIndicator``, ``decodePieceBank`` with its
bank pieces (``BankPiece.serialize``), and a bank of sizes. Each gives the
text of a map header (``k: 2``, ``pieces: pentominoes``, ``sizes: 1..4``).

``field``
    a whole number, then ``/``: the part is its own ``/``-field.
``indicator`` (``decodeIndicator``)
    the same shape: a whole number in the body's first field.
``piece bank`` (``decodePieceBank``)
    ``//K``: the preset whose letter is K (the format's mapping names
    them: ``(p = "pentominoes")``); else ``/N/P1/.../PN``: N pieces, each
    its width and height (one base-36 digit each) and its cells row by row,
    five to a base-32 digit, most significant first (or ``W:BITS``, the
    bits written out). The header lists the pieces as rows of 0 and 1.
``size bank`` (``decodePieceBank`` over sizes)
    a trailing ``=`` is dropped; ``//N`` the sizes 1 to N; ``//i`` 1 to 9;
    ``//z`` none; else ``/N/S1/.../SN``, N sizes.
``size``
    reads no character: the parameter's value comes from the grid's size, by
    the format's table (``(4x4 = 2, 9x9 = 3)``); a size not in the table is
    an error at the URL's size.
"""

from __future__ import annotations

import re

from gridlang.language.encodings.table import Encoding, Unwritable

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_BASE32 = "0123456789abcdefghijklmnopqrstuv"
_SIZE_PRESETS = {"i": "1..9", "z": ""}
"""The presets of a bank of sizes: nine sizes, or none."""


def _whole(body, what: str) -> tuple[str, int]:
    """A whole number followed by ``/`` (or the end), consumed; its text and where it stands."""
    at = body.i
    j = body.text.find("/", at)
    j = len(body.text) if j < 0 else j
    text = body.text[at:j]
    if not text.isdigit():
        raise body.error(f"the URL gives {what} first, a whole number followed by '/'; {text!r} is not one", at)
    body.i = min(j + 1, len(body.text))
    return str(int(text)), at


class Field(Encoding):
    name = "field"
    places = frozenset({"int"})
    keys = "none"

    def decode(self, body, count, part):
        text, at = _whole(body, f"{part.place!r}")
        return [text], [at]

    def encode(self, values, part):
        return f"{int(values[0])}/"


class Indicator(Field):
    name = "indicator"


def drawn_piece(piece: str) -> str | None:
    """A bank piece (``23lg`` or ``2:101011``) as rows of 0 and 1 (``10/10/11``), or None when malformed."""
    if ":" in piece:
        width_text, bits = piece.split(":", 1)
        if not width_text.isdigit() or not 0 < int(width_text) <= 36 or not bits or set(bits) - {"0", "1"} \
                or len(bits) % int(width_text):
            return None
        width = int(width_text)
    else:
        if len(piece) < 3 or any(ch not in _BASE36 for ch in piece[:2]) or any(ch not in _BASE32 for ch in piece[2:]):
            return None
        width, height = int(piece[0], 36), int(piece[1], 36)
        if width == 0 or height == 0:
            return None
        bits = "".join(format(int(ch, 32), "05b") for ch in piece[2:])
        bits = bits[:width * height].ljust(width * height, "0")
    if "1" not in bits:
        return None
    return "/".join(bits[k:k + width] for k in range(0, len(bits), width))


def bank_piece(rows: list[str]) -> str:
    """Rows of 0 and 1 as pzprjs writes a bank piece: width, height, then the cells in base 32, trailing 0s cut."""
    width, height = len(rows[0]), len(rows)
    bits = "".join(rows)
    out = _BASE36[width] + _BASE36[height]
    for k in range(0, len(bits), 5):
        out += _BASE32[int(bits[k:k + 5].ljust(5, "0"), 2)]
    return out.rstrip("0")


def _rows_of(shape) -> list[str]:
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    return ["".join("1" if (r, c) in shape else "0" for c in range(width)) for r in range(height)]


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


class PieceBank(Encoding):
    name = "piece bank"
    places = frozenset({"shapes"})
    keys = "preset"

    def decode(self, body, count, part):
        start = body.i
        rest = body.rest
        presets = ", ".join(f"{k} ({v})" for k, v in part.mapping.items()) or "none"
        if rest.startswith("//"):
            key = rest[2:3]
            if key not in part.mapping:
                raise body.error(f"unknown piece bank {key!r}: the presets of {part.spec}'s format are {presets}",
                                 start + 2)
            body.i += 3
            return [str(part.mapping[key])], [start]
        fields = rest.split("/")
        if len(fields) < 2 or fields[0] != "" or not fields[1].isdigit():
            raise body.error(f"a piece bank is //KEY (presets: {presets}) or /COUNT/PIECE/...", start)
        n = int(fields[1])
        if not 1 <= n <= 100 or len(fields) < n + 2:
            raise body.error(f"the bank says {fields[1]} pieces and lists {max(0, len(fields) - 2)}", start + 1)
        drawn, at = [], start + len(fields[1]) + 2
        for piece in fields[2:n + 2]:
            rows = drawn_piece(piece)
            if rows is None:
                raise body.error(f"the piece {piece!r} is not a width, a height and its cells in base 32, or has "
                                 "no cells", at)
            drawn.append(rows)
            at += len(piece) + 1
        body.i = at - 1 if n + 2 < len(fields) else len(body.text)
        return [", ".join(drawn)], [start]

    def encode(self, values, part):
        text = str(values[0])
        for key, preset in part.mapping.items():
            if _squash(str(preset)) == _squash(text):
                return f"//{key}"
        pieces = []
        for item in (x.strip() for x in text.split(",")):
            if re.fullmatch(r"[01]+(/[01]+)*", item):
                pieces.append(bank_piece(item.split("/")))
            else:
                # imported on use, not at start-up
                from gridlang.language.values import parse_value

                try:
                    shapes = parse_value(item, "shapes")
                except ValueError as e:
                    raise Unwritable(f"{part.place} {e}", 0) from None
                pieces.extend(bank_piece(_rows_of(set(s))) for s in shapes)
        return f"/{len(pieces)}/" + "/".join(pieces)


class SizeBank(Encoding):
    name = "size bank"
    places = frozenset({"set of int"})
    keys = "none"

    def decode(self, body, count, part):
        start = body.i
        rest = body.rest
        if rest.endswith("="):
            rest = rest[:-1]
        if rest.startswith("//"):
            key = rest[2:]
            if key.isdigit():
                n = int(key)
                text = f"1..{n}" if n > 0 else ""
            elif key in _SIZE_PRESETS:
                text = _SIZE_PRESETS[key]
            else:
                raise body.error(f"unknown bank of sizes {key!r}: //N is 1 to N, //i 1 to 9, //z none", start + 2)
            body.i = len(body.text)
            return [text], [start]
        fields = rest.split("/")
        if len(fields) < 2 or fields[0] != "" or not fields[1].isdigit():
            raise body.error("a bank of sizes is //N (1 to N) or /COUNT/SIZE/...", start)
        n = int(fields[1])
        sizes = fields[2:]
        if len(sizes) != n:
            raise body.error(f"the bank says {n} sizes and lists {len(sizes)}", start + 1)
        at = start + len(fields[1]) + 2
        for size in sizes:
            if not size.isdigit() or int(size) < 1:
                raise body.error(f"the size {size!r} is not a whole number of at least 1", at)
            at += len(size) + 1
        body.i = len(body.text)
        return [",".join(str(int(s)) for s in sizes)], [start]

    def encode(self, values, part):
        sizes = list(values[0])
        if sizes and sizes == list(range(1, len(sizes) + 1)) and len(sizes) <= 999:
            return "//i" if len(sizes) == 9 else f"//{len(sizes)}"
        if not sizes:
            return "//z"
        return f"/{len(sizes)}/" + "/".join(str(s) for s in sizes)


class Size(Encoding):
    name = "size"
    places = frozenset({"int"})
    keys = "size"

    def decode(self, body, count, part):
        key = f"{part.cols}x{part.rows}"
        if key not in part.mapping:
            known = ", ".join(part.mapping)
            raise body.error(f"a {key} grid has no {part.place} in {part.spec}'s format (it knows the sizes {known})",
                             body.link.size_at - body.link.offset)
        return [str(part.mapping[key])], [body.i]

    def encode(self, values, part):
        key = f"{part.cols}x{part.rows}"
        want = part.mapping.get(key)
        if want is None:
            raise Unwritable(f"a {key} grid has no {part.place} in {part.spec}'s format (it knows the sizes "
                             f"{', '.join(part.mapping)})", 0)
        if int(values[0]) != int(want):
            raise Unwritable(f"{part.place} is {values[0]}, but a URL of a {key} grid means {want}", 0)
        return ""


ENCODINGS = (Field(), Indicator(), PieceBank(), SizeBank(), Size())
