"""Which map token a decoded value becomes, and back: a format item's mapping over the spec's tiles.

A mapping ``(1 = white, 2 = black)``, ``(? = black)``, ``(empty = frame)``,
``(number = clue)`` sends a value to a tile; ``(? = clue)`` with a clue tile
(``tile clue number``) makes a ``?`` that tile's cell written ``?``. Without an entry, a number
goes to the spec's ``number`` tile (its token is the number), else to the
tile with ``value digit`` that has a character for it (``'0'-'4'``,
``'1'-'9' 'A'-'Z'``); ``?`` goes to the tile whose character is ``?``;
no value goes to the tile whose character is ``.``. A tile's token is the
character named by the value when the tile has one (``?``, ``.``, the
digit), else its first character. Structured values (an arrow, a list, a
pair) are written as their own tokens.
"""

from __future__ import annotations

from gridlang.language.encodings.body import UNKNOWN, Arrow, Named, Pair, Value, read_arrow, read_list, read_pair, token

NOT_MINE = object()
"""What :meth:`Placement.value` answers for a token that this item does not write."""

_READERS = {"arrows": read_arrow, "number lists": read_list, "sum pairs": read_pair}


class Placement:
    """A format item's mapping resolved against the spec's tiles.

    Args:
        mapping: the item's entries as ``{key: tile}`` (keys: ints, ``"?"``,
            ``"empty"``, ``"number"``).
        symbols: the checked spec's symbols.
        encoding: the item's encoding name (structured ones read tokens).
        corners: the item fills the corners of the cells: its tiles are the
            spec's tiles ``on corners``.
        borders: the item fills the borders between cells: its tiles are
            the spec's tiles ``on borders``.

    Attributes:
        by_value: explicit entries: value (an int, ``"?"`` or None) -> tile.
        number: the tile of numbers without an entry of their own, or None.
        unknown: the tile of ``?``, or None.
        empty: the tile of an empty object, or None.
    """

    def __init__(self, mapping: dict, symbols, encoding: str = "", corners: bool = False, borders: bool = False):
        # imported on use, not at start-up
        from gridlang.language.encodings.known import encodings

        self.symbols = symbols
        self.tiles = symbols.corner_tiles if corners else symbols.border_tiles if borders else symbols.tiles
        self.chars = symbols.corner_chars if corners else symbols.border_chars if borders else symbols.chars
        self.encoding = encoding
        enc = encodings().get(encoding)
        # An encoding of a fixed few values (circles: 1 and 2) that the mapping sends to tiles writes
        # by default only the values left unmapped, so that another item's numbers are not read as its own.
        ints = {k for k in mapping if isinstance(k, int)}
        self.fixed = None if enc is None or enc.values is None or not ints else set(enc.values) - ints
        self.by_value: dict = {}
        for key, tile in mapping.items():
            if key == "empty":
                self.by_value[None] = tile
            elif key != "number":
                self.by_value[key] = tile
        chars = self.chars
        self.number = mapping.get("number") or chars.number
        # the tiles whose own characters are '?' and '.' (not the clue tiles a '?' token may also name)
        self.unknown = self.by_value.get(UNKNOWN, chars["?"] if "?" in chars else None)
        self.empty = self.by_value.get(None, chars["."] if "." in chars else None)

    # values -> tokens ------------------------------------------------------
    def token(self, value: Value) -> str | None:
        """The map token of a decoded value, or None when the spec has no tile for it."""
        if isinstance(value, (Arrow, Pair, tuple)):
            return token(value)
        if isinstance(value, Named):
            if self._holds_numbers(self.by_value.get(value)):
                return "?"  # a clue tile named by a genre's own encoding: its number not given
            return self._char(self.by_value.get(value), "")
        if value is None:
            return self._char(self.empty, ".")
        if value == UNKNOWN:
            return self._char(self.unknown, "?")
        if value in self.by_value:
            return self._number_token(self.by_value[value], value, exact=False)
        if isinstance(value, str):
            return None  # a symbol of the encoding's own (inequalities' less), which only a mapping places
        if self.number is not None:
            return self._number_token(self.number, value, exact=True)
        for name, tile in self.tiles.items():
            if tile.digit_value and self._digit_char(tile, value) is not None:
                return self._digit_char(tile, value)
        return None

    def _char(self, name: str | None, prefer: str) -> str | None:
        if name is None or name not in self.tiles:
            return None
        if prefer == "?" and self._holds_numbers(name):
            return "?"  # a clue tile's cell whose number is not given
        chars = [ch for spec in self.tiles[name].chars for ch in spec.chars()]
        if prefer in chars:
            return prefer
        return chars[0] if chars else None

    def _number_token(self, name: str, value: int, exact: bool) -> str | None:
        tile = self.tiles.get(name)
        if tile is None:
            return None
        if tile.number:
            return str(value)
        if tile.digit_value:
            ch = self._digit_char(tile, value)
            if ch is not None or exact:
                return ch
        return None if exact else self._char(name, str(value))

    def _holds_numbers(self, name: str | None) -> bool:
        """Whether ``name`` is a clue tile (``number``, ``numbers``, ``arrow number``), whose cells may be ``?``."""
        tile = self.tiles.get(name) if name is not None else None
        return tile is not None and (tile.number or tile.clue is not None)

    @staticmethod
    def _digit_char(tile, value: int) -> str | None:
        for spec in tile.chars:
            for ch in spec.chars():
                if ch.isalnum() and ch.isascii() and int(ch, 36) == value:
                    return ch
        return None

    # tokens -> values ------------------------------------------------------
    def value(self, tok: str) -> Value:
        """The value this item writes for a map token, or :data:`NOT_MINE`."""
        reader = _READERS.get(self.encoding)
        if reader is not None:
            parsed = reader(tok)
            if parsed is not None:
                return parsed
        name = self.chars.get(tok)
        if tok == "?" and name is None:
            named = [k for k, t in self.by_value.items() if isinstance(k, Named) and self._holds_numbers(t)]
            if named:
                return named[0]
        if tok == "?" and name is None and self._holds_numbers(self.unknown):
            return UNKNOWN
        if name is None:
            return NOT_MINE
        if Named(name) in self.by_value and not self._holds_numbers(name):
            return Named(name)  # a tile a genre's own encoding gives by name
        if tok == "." and name == self.empty:
            return None
        if tok == "?" and name == self.unknown:
            return UNKNOWN
        explicit = [k for k, t in self.by_value.items() if t == name
                    and not ((k == UNKNOWN or isinstance(k, Named)) and tok != "?" and self._holds_numbers(name))]
        if len(explicit) == 1:
            return explicit[0]
        numbered = self._number_of(name, tok)
        if explicit and numbered in explicit:
            return numbered
        if self.fixed is not None and numbered not in self.fixed:
            numbered = None
        if name == self.number and numbered is not None:
            return numbered
        if self.number is None and numbered is not None and self.tiles[name].digit_value:
            return numbered
        if name == self.unknown:
            return UNKNOWN
        if name == self.empty:
            return None
        return NOT_MINE

    def _number_of(self, name: str, tok: str) -> int | None:
        tile = self.tiles[name]
        if tile.number and tok.isdigit():
            return int(tok)
        if tile.digit_value and len(tok) == 1 and tok.isalnum() and tok.isascii():
            return int(tok, 36)
        return None

    def holds_numbers(self) -> bool:
        """Whether some tile takes the numbers without an entry of their own."""
        if self.number is not None:
            return self.number in self.tiles and (self.tiles[self.number].number or self.tiles[self.number].digit_value)
        return any(t.digit_value for t in self.tiles.values())
