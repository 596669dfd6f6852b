"""A generated puzzle's text: the clue tiles a spec offers, a map's text, a ``rooms:`` layer."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from gridlang.core.grid import flood_rooms
from gridlang.why.generation.records import GenerateError

MAX_VALUE = 9
"""The largest number a generated number clue holds (one character in the map)."""


def clue_tiles(spec) -> tuple[str, list[tuple[str, list[str]]]]:
    """The blank tile's character and, per clue tile, the characters it may be written with.

    The blank tile is the first tile whose characters include ``.`` (else
    the first tile with a character); every other tile with a character, or
    with numbers, is a clue tile. A clue written in several characters
    (docs/language.md, "Structured clue cells") stands for one cell as a
    character of its own (:func:`token_char`), which :func:`map_text` writes
    out: an ``arrow number`` tile's arrows and numbers (``^0`` to ``>9``), a
    ``numbers`` tile's lists (:func:`number_lists`), or, for a tile of named
    entries (Kakuro's ``down, across``), that many numbers each up to
    :data:`MAX_VALUE`. A hole (a tile declared ``no room``, outside the
    puzzle's shape) is no clue tile: a generated map has none.

    Raises:
        GenerateError: the spec has no blank tile.
    """
    tiles = spec.symbols.tiles
    chars = {name: [ch for cs in t.chars for ch in span_chars(cs)] for name, t in tiles.items()}
    blank = next((n for n, cs in chars.items() if "." in cs), None) or \
        next((n for n, cs in chars.items() if cs and not tiles[n].number), None)
    if blank is None:
        raise GenerateError(f"{spec.path}: no blank tile (a tile written '.') to leave the cells without a clue in")
    clues = []
    for name, t in tiles.items():
        if name == blank or t.no_room:
            continue
        if t.clue == "arrow" and not chars[name]:
            clues.append((name, [token_char(f"{arrow}{v}") for arrow in ARROWS for v in range(MAX_VALUE + 1)]))
        elif t.clue is not None and not chars[name]:
            lists = [",".join(map(str, p)) for p in itertools.product(range(MAX_VALUE + 1), repeat=len(t.parts))] \
                if t.parts else number_lists()
            clues.append((name, [ch if len(ch) == 1 else token_char(ch) for ch in lists]))
        elif t.number:
            clues.append((name, [str(v) for v in range(MAX_VALUE + 1)]))
        elif chars[name] and not t.linked:
            clues.append((name, chars[name][:MAX_VALUE + 1]))
    return ("." if "." in chars[blank] else chars[blank][0]), clues


ARROWS = "^v<>"
"""The arrows of an ``arrow number`` clue as a map writes them (up, down, left, right)."""

LIST_LENGTH = 4
"""The most numbers a generated number list holds (Tapa's clue: at most four runs around a cell)."""


def number_lists() -> list[str]:
    """The number lists a ``numbers`` tile is tried with: ``0`` to ``9`` alone, then lists of two to
    :data:`LIST_LENGTH` numbers from 1 up, in non-decreasing order, whose total is at most
    :data:`MAX_VALUE` less one (Tapa's runs around a cell: eight neighbours, a cell between runs),
    as the map writes them (``1,1,3``): 54 lists."""
    out = [str(v) for v in range(MAX_VALUE + 1)]
    for n in range(2, LIST_LENGTH + 1):
        out += [",".join(map(str, p)) for p in itertools.combinations_with_replacement(range(1, MAX_VALUE), n)
                if sum(p) <= MAX_VALUE - 1]
    return out


TOKENS: dict[str, str] = {}
"""The characters that stand for clue tokens of several characters (:func:`token_char`), and their tokens."""

_CHARS: dict[str, str] = {}


def token_char(token: str) -> str:
    """The one character that stands for a clue ``token`` of several characters (``^2``, ``1,3,3``)
    in a map being made, a character of Unicode's private use area (U+E000 on) that no spec
    declares: the map is a list of strings of one character a cell while it is made, and
    :func:`map_text` writes each such character as its token."""
    ch = _CHARS.get(token)
    if ch is None:
        ch = _CHARS[token] = chr(0xE000 + len(_CHARS))
        TOKENS[ch] = token
    return ch


def cell_texts(rows: list[str]) -> list[str]:
    """The map's rows as its text writes them: one character a cell, or, when a cell stands for a
    token of several characters (:func:`token_char`), every cell its token, right-aligned in
    columns separated by a space (the map syntax of structured clue cells)."""
    if not any(ch in TOKENS for row in rows for ch in row):
        return list(rows)
    width = max(len(TOKENS.get(ch, ch)) for row in rows for ch in row)
    return [" ".join(TOKENS.get(ch, ch).rjust(width) for ch in row) for row in rows]


def span_chars(cs) -> list[str]:
    if len(cs.first) != 1 or len(cs.last) != 1:
        return [cs.first]
    return [chr(k) for k in range(ord(cs.first), ord(cs.last) + 1)]


def map_text(rows: list[str], params: Mapping[str, str], rooms: list[str] | None = None) -> str:
    """A map's text: ``name: value`` header lines, the grid's rows, and the ``rooms:`` layer if any."""
    text = "".join(f"{k}: {v}\n" for k, v in params.items()) + "".join(r + "\n" for r in cell_texts(rows))
    return text + ("rooms:\n" + "".join(r + "\n" for r in rooms) if rooms is not None else "")


PLACES = {"cells": "in the cells", "corners": "on the corners of the cells", "borders": "on the borders between cells"}
"""Where clues stand, in the words of the sentences."""

KINDS = {"cells": "cell", "corners": "corner", "borders": "border"}
"""The kind of binding a rule instance has for a place of each layer (``('v', 'corner', (1, 3))``)."""


class Sites:
    """The places a spec's clues stand on when some stand on the corners of the cells or on the
    borders between two cells: those layers, and the cells when clue tiles stand there too.

    Attributes:
        layers: ``(place, blank, clues, count)`` per layer: ``"cells"``, ``"corners"`` or
            ``"borders"``; the character of its blank tile (the one written ``.``); each other tile
            with the characters it is tried with (a number tile on corners or borders: ``0`` to
            :data:`MAX_VALUE`; ``?`` left out); how many places it has: ``rows x cols`` cells,
            ``(rows + 1) x (cols + 1)`` corners, or the ``rows x (cols - 1) + (rows - 1) x cols``
            borders between two cells in pzprjs's order, and the frame's ``2 (rows + cols)`` after
            them when a tile stands on the frame.
        where: the places in words (``"in the cells and on the corners of the cells"``).

    Raises:
        GenerateError: a place has no tile written ``.`` to leave it without a clue.
    """

    def __init__(self, spec, placed: list[tuple[str, Mapping]], rows: int, cols: int, blank: str,
                 cell_clues: list[tuple[str, list[str]]]):
        self.rows, self.cols = rows, cols
        self.layers: list[tuple[str, str, list[tuple[str, list[str]]], int]] = []
        if cell_clues:
            self.layers.append(("cells", blank, cell_clues, rows * cols))
        for place, tiles in placed:
            chars = {n: [ch for cs in t.chars for ch in span_chars(cs)] for n, t in tiles.items()}
            empty = next((n for n in tiles if "." in chars[n]), None)
            if empty is None:
                raise GenerateError(f"{spec.path}: no tile written '.' {PLACES[place]} to leave a place without "
                                    "a clue")
            clues = [(n, [str(v) for v in range(MAX_VALUE + 1)] if t.number else
                      [ch for ch in chars[n] if ch not in ".?"]) for n, t in tiles.items() if n != empty]
            if place == "corners":
                count = (rows + 1) * (cols + 1)
            else:  # the frame's borders after the others, where a tile stands on them (pzprjs's order)
                count = rows * (cols - 1) + (rows - 1) * cols + \
                    (2 * (rows + cols) if any(t.frame for t in tiles.values()) else 0)
            self.layers.append((place, ".", [(n, v) for n, v in clues if v], count))
        words = [PLACES[layer[0]] for layer in self.layers]
        self.where = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    def blank(self) -> list[list[str]]:
        """Every place of every layer blank: the tokens, a list per layer."""
        return [[blank] * count for _, blank, _, count in self.layers]

    def clue_count(self, tokens: list[list[str]]) -> int:
        """How many places hold a clue."""
        return sum(t != layer[1] for layer, row in zip(self.layers, tokens) for t in row)

    def grid(self, tokens: list[list[str]], blank: str) -> list[str]:
        """The cells' rows (all ``blank`` when no clue stands in the cells)."""
        cells = next((row for layer, row in zip(self.layers, tokens) if layer[0] == "cells"),
                     [blank] * (self.rows * self.cols))
        return ["".join(cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def text(self, tokens: list[list[str]]) -> str | None:
        """The layers' blocks under the grid as a map holds them (``corners:``, ``borders:``), or None."""
        # imported on use, not at start-up (the puzz.link engine's package)
        from gridlang.formats.puzzlink.text import borders_text, grid_text

        blocks = [("corners:\n" + grid_text(self.rows + 1, self.cols + 1, row)) if layer[0] == "corners"
                  else borders_text(self.rows, self.cols, row)
                  for layer, row in zip(self.layers, tokens) if layer[0] != "cells"]
        return "\n".join(blocks) if blocks else None

    def key(self, layer: int, k: int) -> tuple:
        """A place as the rule instances bind it: ``(kind, value)``, a corner's value its (row, column)."""
        place = self.layers[layer][0]
        return KINDS[place], divmod(k, self.cols + 1) if place == "corners" else k


ROOM_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The letters of the ``rooms:`` layer (rooms are the connected groups of one letter)."""


def room_layer(room: list[int], rows: int, cols: int) -> list[str]:
    """A ``rooms:`` layer for the room number of each cell: side-neighbouring rooms get different
    letters (greedy colouring, at most 5 letters for rooms of one cell)."""
    letter: dict[int, str] = {}
    for i, r in enumerate(room):
        if r in letter:
            continue
        near = {letter.get(room[j]) for k in range(rows * cols) if room[k] == r
                for j in sides(k, rows, cols) if room[j] != r}
        letter[r] = next(ch for ch in ROOM_LABELS if ch not in near)
    return ["".join(letter[room[r * cols + c]] for c in range(cols)) for r in range(rows)]


ROOM_AREA = (2, 9)
"""The least and the most cells a rectangle of :func:`rectangle_rooms` may keep unsplit."""


ROOM_DRAWS = 20
"""How many partitions into rectangular rooms may have no answer before a spec whose rules read both clues
and rooms is refused."""


def rooms_refused(spec, rows: int, cols: int) -> GenerateError:
    """The sentence that refuses a spec none of :data:`ROOM_DRAWS` partitions into rectangles had an answer on."""
    return GenerateError(f"{spec.path}: none of {ROOM_DRAWS} random partitions of a blank {rows}x{cols} map into "
                         "rectangular rooms has an answer, even with the rules about clues left out; generate draws "
                         "rooms as rectangles, and this genre's rooms may need other shapes")


def rectangle_rooms(rows: int, cols: int, rng) -> list[int]:
    """A random partition of the grid into rectangular rooms: the room number of each cell
    (``row * cols + col``), rooms numbered from 0.

    The grid is cut recursively (a guillotine partition): a rectangle larger than a bound drawn
    for it between the two of :data:`ROOM_AREA` is cut across its longer side (either side when
    square) at a random line, and the two parts cut in turn. Rooms are rectangles, as Heyawake's
    published rules ask (Nikoli), and cover the grid.

    Args:
        rows, cols: the map's size in cells.
        rng: a :class:`random.Random`.
    """
    room = [0] * (rows * cols)
    todo = [(0, 0, rows, cols)]
    count = 0
    while todo:
        r, c, h, w = todo.pop()
        if h * w > rng.randint(*ROOM_AREA) and (h > 1 or w > 1):
            across = h > w or (h == w and rng.random() < 0.5)
            if across:
                cut = rng.randint(1, h - 1)
                todo += [(r, c, cut, w), (r + cut, c, h - cut, w)]
            else:
                cut = rng.randint(1, w - 1)
                todo += [(r, c, h, cut), (r, c + cut, h, w - cut)]
            continue
        for i in range(r, r + h):
            for j in range(c, c + w):
                room[i * cols + j] = count
        count += 1
    return room


def sides(i: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(i, cols)
    return [a * cols + b for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < rows and 0 <= b < cols]



def room_count(layer: list[str]) -> int:
    """The rooms of a ``rooms:`` layer (connected groups of one letter)."""

    cols = len(layer[0])
    flat = "".join(layer)
    return max(flood_rooms(len(layer), cols, lambda u, v: flat[u] == flat[v])) + 1


SYMMETRIES = ("none", "rotational", "mirror")
"""The symmetries of clue positions: none; a half turn about the centre (as most published Sudokus
and Nurikabes); a mirror across the vertical axis (left to right)."""


def orbit(cell: int, rows: int, cols: int, symmetry: str) -> list[int]:
    """The cells a symmetry maps ``cell`` to, ``cell`` first (one cell, or two; the centre maps to itself).

    Args:
        cell: a cell index (``row * cols + col``).
        rows, cols: the map's size in cells.
        symmetry: one of :data:`SYMMETRIES`.

    Raises:
        ValueError: an unknown symmetry.
    """
    r, c = divmod(cell, cols)
    if symmetry == "none":
        return [cell]
    if symmetry == "rotational":
        image = (rows - 1 - r) * cols + (cols - 1 - c)
    elif symmetry == "mirror":
        image = r * cols + (cols - 1 - c)
    else:
        raise ValueError(f"unknown symmetry {symmetry!r} (one of {', '.join(SYMMETRIES)})")
    return [cell] if image == cell else [cell, image]


def answer_text(maker, answer) -> str:
    """An answer as text, one block of rows per decision on cells (``#`` for a Boolean's true, ``.``
    for false, else the value's first character) and one line per decision on edges listing its
    true edges, for the messages that show two answers."""
    rows, cols = maker.rows, maker.cols
    out = []
    for name, values in answer.items():
        if all(isinstance(k, int) for k in values):
            out.append(f"{name}:\n" + "".join("".join(_mark(values.get(r * cols + c)) for c in range(cols)) + "\n"
                                              for r in range(rows)))
        else:
            edges = sorted(k for k, v in values.items() if v)
            out.append(f"{name}: " + " ".join(f"{a}-{b}" for a, b in edges) + "\n")
    return "".join(out)


def _mark(value) -> str:
    """One cell of :func:`answer_text`: ``.`` for no value or false, ``#`` for true, else the value's first character."""
    return "." if value is None or value is False else "#" if value is True else str(value)[0]
