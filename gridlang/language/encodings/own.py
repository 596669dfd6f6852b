"""A genre's own encoding, declared in its spec: a table from characters to values or runs of empty places.

pzprjs gives some 56 genres a decoder of their own (``src/variety/*.js``,
robx/pzprjs, MIT licence), named after the genre, where the others share
the decoders of ``src/variety-common/Encode.js``. Read side by side, most share one
loop, pzprjs's ``for (i = 0; i < bstr.length; i++)`` over the characters,
one object (cell, border, corner) per character, each character one of:

* a value of its own (``'g'`` an upward arrow, ``'.'`` a circle);
* a number read from the character itself (``'0'``-``'9'``, ``'a'``-``'f'``:
  the numbers 0 to 15, pzprjs's ``parseInt(ca, 16)``);
* a number read from the digits after it (``'-'`` and two hexadecimal
  digits: pzprjs's ``parseInt(bstr.substr(i + 1, 2), 16)``);
* a run of empty objects (``'k'``-``'z'``: 1 to 16, pzprjs's
  ``c += parseInt(ca, 36) - 20``).

A spec states that loop's table as the mapping of the ``table`` encoding
(docs/language.md, "A genre's own encoding")::

    cells: table ('0'-'9' = 0..9, 'a'-'f' = 10..15, '-' 2 hex = 0..255, '.' = circle,
                  'g' = arrow_up, 'h' = arrow_down, 'i' = arrow_left, 'j' = arrow_right, 'k'-'z' = skip 1..16)

Keys: a character ``'c'``; a range ``'a'-'f'`` (in character code order);
a character and the digits after it, ``'-' 2 hex`` (``dec``, ``hex`` or
``base36`` digits). Values: a tile (the character stands for that tile), ``?`` (a
clue whose number is not given), a number ``N`` or the numbers ``N..M``
(a range of characters gives them in order; the digits after a prefix give
``N`` plus the number they write, so their range holds ``base ** width``
numbers), ``skip N..M`` (the characters stand for ``N`` to ``M`` empty
objects). Written back, a number takes the first character that gives it,
else the prefix of the fewest digits that reaches it; a tile takes its
first character; a run of empty objects the fewest skip characters,
longest first (pzprjs's encoders write them so).
"""

from __future__ import annotations

from gridlang.language.encodings.body import UNKNOWN, Named, Value
from gridlang.language.encodings.numbers import scan
from gridlang.language.encodings.table import Encoding, Unwritable

NAME = "table"
"""The encoding's name in a spec."""

BASES = {
    "dec": (10, "0123456789"),
    "hex": (16, "0123456789abcdef"),
    "base36": (36, "0123456789abcdefghijklmnopqrstuvwxyz"),
}
"""The digits a prefix may be followed by: their base and alphabet."""

_DIGITS = {10: "decimal", 16: "hexadecimal", 36: "base-36"}

MAX_WIDTH = 6
"""The most digits a prefix takes."""


class TableError(ValueError):
    """A table that cannot be read one way (an ambiguous character, a range of the wrong length).

    Attributes:
        span: the entry, key or value at fault.
    """

    def __init__(self, message: str, span):
        super().__init__(message)
        self.span = span


def _chars(first: str, last: str) -> list[str]:
    return [chr(k) for k in range(ord(first), ord(last) + 1)]


def _key_text(entry) -> str:
    if entry.key_kind == "char":
        return repr(entry.key)
    if entry.key_kind == "chars":
        return f"{entry.key[0]!r}-{entry.key[1]!r}"
    if entry.key_kind == "prefix":
        return f"{entry.key[0]!r} {entry.key[1]} {entry.key[2]}"
    return str(entry.key)


def _value_text(entry) -> str:
    if entry.value_kind == "range":
        return f"{entry.value[0]}..{entry.value[1]}"
    if entry.value_kind == "named range":
        return f"{entry.value[0]} {entry.value[1]}..{entry.value[2]}"
    return str(entry.value)


def describe(entry) -> str:
    """An entry as the spec writes it (``'k'-'z' = skip 1..16``), for messages."""
    return f"{_key_text(entry)} = {_value_text(entry)}"


class Table(Encoding):
    """A table of characters read and written as pzprjs's genre-specific decoders and encoders do.

    Args:
        entries: the format item's mapping (:class:`~gridlang.language.ast.FormatEntry`), already
            checked by :func:`problems` (an unchecked table raises :class:`TableError`).

    Attributes:
        single: character -> ``("tile", name)``, ``("unknown", None)``, ``("number", n)`` or ``("skip", n)``.
        prefixes: character -> ``(width, base, alphabet, first number)``.
        tiles: the tiles the table names, each with its first character.
    """

    name = NAME
    places = frozenset({"cells", "room numbers", "outside", "corners", "inner corners", "borders"})
    keys = "table"

    def __init__(self, entries=()):
        self.entries = tuple(entries)
        self.single: dict[str, tuple[str, object]] = {}
        self.prefixes: dict[str, tuple[int, int, str, int]] = {}
        self.tiles: dict[str, str] = {}
        self.where: dict[str, object] = {}  # character -> the entry that reads it
        for entry in self.entries:
            self._add(entry)

    # the entries ---------------------------------------------------------------
    def _add(self, entry) -> None:
        kind, key, vkind, value = entry.key_kind, entry.key, entry.value_kind, entry.value
        if kind not in ("char", "chars", "prefix"):
            raise TableError(
                f"a table's key is a character ('.'), a range of characters ('a'-'f') or a character "
                f"and the digits after it ('-' 2 hex); {_key_text(entry)} is none of them",
                entry.key_span,
            )
        if kind == "prefix":
            ch, width, base_name = key
            if base_name not in BASES:
                raise TableError(
                    f"the digits after a prefix are {', '.join(BASES)}; {base_name!r} is none of them", entry.key_span
                )
            if not 1 <= width <= MAX_WIDTH:
                raise TableError(
                    f"a prefix is followed by 1 to {MAX_WIDTH} digits; {width} is not that", entry.key_span
                )
            base, alphabet = BASES[base_name]
            if vkind != "range" and vkind != "int":
                raise TableError(
                    f"the digits after {ch!r} give numbers: write {ch!r} {width} {base_name} = 0..{base**width - 1}",
                    entry.value_span,
                )
            lo, hi = (value, value) if vkind == "int" else value
            if hi - lo + 1 != base**width:
                raise TableError(
                    f"{width} {base_name} digits write {base**width} numbers; {lo}..{hi} holds {hi - lo + 1}",
                    entry.value_span,
                )
            self._claim([ch], entry)
            self.prefixes[ch] = (width, base, alphabet, lo)
            return
        chars = [key] if kind == "char" else _chars(*key)
        if not chars:
            raise TableError(
                f"the range {key[0]!r}-{key[1]!r} is empty (its last character comes before its first)", entry.key_span
            )
        if vkind == "name":
            self._claim(chars, entry)
            self.tiles.setdefault(value, chars[0])
            for ch in chars:
                self.single[ch] = ("tile", value)
            return
        if vkind == "unknown":
            self._claim(chars, entry)
            for ch in chars:
                self.single[ch] = ("unknown", None)
            return
        if vkind in ("int", "range"):
            lo, hi = (value, value) if vkind == "int" else value
            what = "number"
        elif vkind == "named range":
            word, lo, hi = value
            if word != "skip":
                raise TableError(
                    f"a range of numbers is N..M, or skip N..M for runs of empty places; {word!r} is not 'skip'",
                    entry.value_span,
                )
            if lo < 1:
                raise TableError(
                    f"a skip runs over at least 1 empty place; skip {lo}..{hi} starts at {lo}", entry.value_span
                )
            what = "skip"
        else:
            raise TableError(
                f"a table sends a character to a tile, '?', a number N, numbers N..M or skip N..M; "
                f"{value!r} is none of them",
                entry.value_span,
            )
        if hi - lo + 1 != len(chars):
            raise TableError(
                f"{_key_text(entry)} is {len(chars)} character{'s' if len(chars) != 1 else ''} and "
                f"{lo}..{hi} {hi - lo + 1} number{'s' if hi - lo != 0 else ''}: give as many of each",
                entry.value_span,
            )
        if lo < 0:
            raise TableError(f"a table's numbers are 0 or more; {lo}..{hi} starts at {lo}", entry.value_span)
        self._claim(chars, entry)
        for k, ch in enumerate(chars):
            self.single[ch] = (what, lo + k)

    def _claim(self, chars: list[str], entry) -> None:
        for ch in chars:
            if ch == "/":
                raise TableError("'/' separates the parts of a URL; a table cannot read it", entry.key_span)
            if not ch.isascii() or not ch.isprintable() or ch.isspace():
                raise TableError(
                    f"{ch!r} cannot stand in a URL; a table reads printable ASCII characters", entry.key_span
                )
            other = self.where.get(ch)
            if other is not None:
                line = f" (line {other.span.line})" if other.span is not None else ""
                raise TableError(
                    f"ambiguous table: {ch!r} is read by {describe(other)}{line} and by {describe(entry)}",
                    entry.key_span,
                )
            self.where[ch] = entry

    # what it gives -------------------------------------------------------------
    @property
    def numbers(self) -> bool:
        """Whether the table gives numbers."""
        return bool(self.prefixes) or any(kind == "number" for kind, _ in self.single.values())

    @property
    def unknown(self) -> bool:
        """Whether the table gives ``?``."""
        return any(kind == "unknown" for kind, _ in self.single.values())

    @property
    def skips(self) -> list[int]:
        """The runs of empty places its characters stand for, longest first."""
        return sorted({n for kind, n in self.single.values() if kind == "skip"}, reverse=True)

    def mapping(self) -> dict:
        """The placement's mapping of the table's values: each tile's :class:`Named` value to the tile."""
        return {Named(tile): tile for tile in self.tiles}

    # reading and writing ---------------------------------------------------------
    def decode(self, body, count, part):
        known = "".join(sorted(self.where))

        def read(ch, at):
            if ch in self.prefixes:
                width, base, alphabet, lo = self.prefixes[ch]
                digits = body.text[at + 1 : at + 1 + width].lower()
                if len(digits) < width or any(d not in alphabet for d in digits):
                    raise body.error(
                        f"{ch!r} is followed by {width} {_DIGITS[base]} digits in {part.spec}'s table",
                        at,
                    )
                return lo + int(digits, base), 0, width
            found = self.single.get(ch)
            if found is None:
                raise body.error(f"unexpected {ch!r}: {part.spec}'s table reads the characters {known!r}", at)
            kind, value = found
            if kind == "skip":
                return None, value - 1, 0
            if kind == "tile":
                return Named(value), 0, 0
            if kind == "unknown":
                return UNKNOWN, 0, 0
            return value, 0, 0

        return scan(body, count, part, read)

    def _number(self, n: int, k: int) -> str:
        for ch, (kind, value) in self.single.items():
            if kind == "number" and value == n:
                return ch
        for ch, (width, base, alphabet, lo) in sorted(self.prefixes.items(), key=lambda x: x[1][0]):
            if lo <= n < lo + base**width:
                digits, rest = "", n - lo
                for _ in range(width):
                    rest, d = divmod(rest, base)
                    digits = alphabet[d] + digits
                return ch + digits
        raise Unwritable(f"{n} is a number the table does not write", k)

    def encode(self, values: list[Value], part) -> str:
        if not self.skips or self.skips[-1] != 1:
            raise Unwritable("the table has no character for one empty place (skip 1..N)", 0)
        firsts = {}
        for ch, (kind, value) in self.single.items():
            key = (kind, value) if kind != "unknown" else ("unknown", None)
            firsts.setdefault(key, ch)

        def write(k: int, v: Value) -> str:
            if isinstance(v, Named) and ("tile", v.tile) in firsts:
                return firsts[("tile", v.tile)]
            if v == UNKNOWN and ("unknown", None) in firsts:
                return firsts[("unknown", None)]
            if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
                return self._number(v, k)
            raise Unwritable(f"{v!r} is not a value of the table ({', '.join(describe(e) for e in self.entries)})", k)

        skip_chars = {n: ch for ch, (kind, n) in self.single.items() if kind == "skip"}
        out, empty = [], 0
        for k, v in enumerate(values):
            if v is None:
                empty += 1
                continue
            out.append(self._run(empty, skip_chars))
            empty = 0
            out.append(write(k, v))
        out.append(self._run(empty, skip_chars))
        return "".join(out)

    def _run(self, count: int, skip_chars: dict[int, str]) -> str:
        """``count`` empty places as skip characters, longest first."""
        out = []
        for n in self.skips:
            while count >= n:
                out.append(skip_chars[n])
                count -= n
        return "".join(out)


def problems(entries) -> TableError | None:
    """The first problem of a table's entries (ambiguous, malformed, no skip of one place), or None."""
    try:
        table = Table(entries)
    except TableError as e:
        return e
    if not table.skips or table.skips[-1] != 1:
        last = entries[-1] if entries else None
        return TableError(
            "a table writes empty places with skip characters, and none stands for one empty place: "
            "add one, as in 'k'-'z' = skip 1..16",
            last.span if last is not None else None,
        )
    return None


ENCODINGS = (Table(),)
"""The table's entry in the registry: a table of no characters, which each format item's own replaces."""
