"""How a spec's names are drawn: the looks of ``draw NAME as LOOK``, and the defaults.

A genre's pictures (SVG, PNG) and its text drawing are made from one table
that says, for each tile, decision and region of the spec, which *look*
draws it. The spec declares looks with ``draw`` statements; whatever it
leaves out gets a default. This module holds the words (what each look
is, and which kind of name it fits), and :func:`resolve`, which turns a
spec's declarations into that table; :mod:`gridlang.pictures.draw` and
:mod:`gridlang.pictures.textdraw` draw from it. The looks follow pzprjs's pictures
(puzz.link), the editor whose drawings players of these genres know.

Defaults, for a name that no ``draw`` statement names:

* a tile: the look declared for a tag it carries; else ``number`` for a
  ``number`` tile, a tile of digits (``'0'-'4'``) or a tile of structured
  clues (lists, arrows); else ``plain`` for a tile whose only character is
  ``.``; else ``default`` (a pale colour hashed from its name, its map
  character on it; :func:`gridlang.pictures.draw.default_style`);
* a decision by its standard name: ``shaded`` shade, ``star`` star,
  ``light`` bulb, ``tent`` tent, ``line`` line, ``bridge`` bridges,
  ``digit`` number; a decision on edges line; a decision whose values are
  cells areas; a decision whose values include the slants ``'/'`` or
  ``'\\'`` slants; one whose values include a triangle (``'◣'``,
  ``'◢'``, ``'◥'``, ``'◤'``) triangles; one whose values include a
  direction (``up``, ...) arrows; any other ``default`` (a hashed mark for a Boolean
  decision, labels for an enumeration);
* a region: ``default`` (shaded and outlined in hashed colours);
* a tile on borders: ``number`` for a ``number`` tile, ``plain`` for
  ``.``, else its character; a tile on corners: ``plain`` for ``.``, else
  ``number`` (a number in a disc, a mark as a dot);
* the room layer (``draw rooms as ...``): ``walls``, thick borders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridlang.core.clues import ARROWS
from gridlang.core.nodes import Record, field

if TYPE_CHECKING:
    from gridlang.core.grid import Grid
    from gridlang.language.checker import Symbols

TILE_LOOKS: dict[str, str] = {
    "number": "its number on a white cell: a list of numbers small around the centre, an arrow beside "
              "its number (the cell's text, 7, 1,3,3, ^2)",
    "char": "its map character on a white cell",
    "letters": "its number as a letter on a white cell: 1 A, 2 B, ..., 27 AA (pzprjs's letter clues); "
               "a ? as it is",
    "block": "a black cell, its number (if any) in white; an arrow character (^ v < >) as a white arrow "
             "(pzprjs's Makaro)",
    "circle": "a white circle, its number (if any) inside",
    "disc": "a black circle, its number (if any) inside in white",
    "cross": "a cross",
    "plain": "an empty white cell",
    "frame": "a cell outside the grid (pzprjs's outside clues): no box and no lines; the map's edge rows "
             "and columns that end in such a cell are drawn without boxes, their clues standing free",
    "split": "a grey cell split by a diagonal, its first number below it on the left, its second above it "
             "on the right (Kakuro's sums, 12,7)",
    "symbols": "its number as pzprjs's symbol on a white cell: 1 a circle, 2 a triangle, 3 a square",
    "corner": "its number small in the cell's top-left corner, leaving the cell to an answer (a Killer "
              "Sudoku's cage sum)",
    "tree": "a tree: a green crown on a brown trunk (pzprjs's Tents)",
    "moon": "a black crescent moon (pzprjs's Moon or Sun)",
    "arrow": "an arrow pointing as its map character says, ^ up, v down, < left, > right, or as its number "
             "says in pzprjs's order, 1 up, 2 down, 3 left, 4 right (pzprjs's arrows in cells: Sashigane's, "
             "Roma's); another number as it is",
    "hollow_arrow": "a wide white arrow outlined in black, pointing as its map character says (^ v < >; pzprjs's "
                    "Guide Arrow)",
    "ring_kanji": "the kanji 輪 (a ring), as pzprjs writes Wagiri's ring marks, drawn in strokes",
    "cut_kanji": "the kanji 切 (a cut), as pzprjs writes Wagiri's cut marks, drawn in strokes",
    "star": "a black five-pointed star, as pzprjs draws Guide Arrow's goal",
    "dot": "a small black dot, 0.16 of a cell in radius, as pzprjs draws its dots (No Three's)",
    "tip": "a pencil's tip pointing as its map character says (^ v < >): a triangle from the cell's side behind "
           "it to its centre, the lead filled (pzprjs's Pencils)",
}
"""The looks of a tile (or of a tag: every tile that carries it)."""

MARK_LOOKS: dict[str, str] = {
    "shade": "the cell filled dark grey; a number on it stays readable, in white",
    "blue": "the cell filled blue, as pzprjs fills a tank; a number on it in white",
    "star": "a black star",
    "bulb": "a lamp, and the cells it lights along its row and column (up to a black cell) tinted",
    "tent": "a tent (a triangle)",
    "dot": "a small dot",
    "cross": "a cross",
    "circle": "a white circle",
    "disc": "a black circle",
    "stones": "a black stone where the decision holds, a white stone on its other cells (Yin-Yang)",
    "tint": "the cell tinted",
    "hidden": "nothing (a decision that only helps the rules)",
}
"""The looks of a Boolean decision on cells."""

VALUE_LOOKS: dict[str, str] = {
    "number": "each cell's value as a digit, in the answer's colour (not on cells that show a clue); a "
              "negative value, pzprjs's -1 for a cell left without a number, draws nothing",
    "letters": "each value as a letter: 1 A, 2 B, ... (0 nothing)",
    "symbols": "each value as pzprjs's symbol: 1 a circle, 2 a triangle, 3 a square (0 nothing)",
    "arrows": "each value 1 to 4 as an arrow in the answer's green, pzprjs's directions: 1 up, 2 down, 3 left, "
              "4 right, and each value up, down, left, right as that arrow (not on cells that show a clue); any "
              "other value nothing",
    "tips": "each value up, down, left, right (or 1 to 4, as for arrows) as a pencil's tip pointing that way, "
            "in the answer's green, as pzprjs draws Pencils' tips; any other value nothing",
    "tint": "each value its own tint",
    "areas": "thick borders between side neighbours of different values (the pieces of a division)",
    "blocks": "each value as a digit, and thick borders between side neighbours of different values "
              "(the blocks of equal values, as pzprjs draws a Fillomino)",
    "slants": "each slant as a diagonal across its cell, '/' from its bottom-left corner to its top-right one, "
              "'\\' from its top-left to its bottom-right, in black as pzprjs draws Gokigen's; any other value "
              "nothing (a decision whose values include '/' or '\\')",
    "triangles": "each triangle as the half of its cell it covers, shaded black, as pzprjs draws Shakashaka's: "
                 "'◣' its right angle bottom-left, '◢' bottom-right, '◥' top-right, '◤' top-left; any other value "
                 "nothing (a decision whose values include a triangle)",
    "hidden": "nothing",
}
"""The looks of a decision on cells with integer or named values."""

EDGE_LOOKS: dict[str, str] = {
    "line": "a line through the centres of the cells (along the grid for a decision on corner edges), "
            "stopping at the edge of a circle or a number; a value of 2 as two lines",
    "bridges": "as many parallel lines as the value (Hashiwokakero), stopping at the edge of a circle "
               "or a number",
    "walls": "thick borders on the cells' shared sides (a division into regions)",
    "hidden": "nothing",
}
"""The looks of a decision on edges or corner edges."""

REGION_LOOKS: dict[str, str] = {
    "tint": "its cells tinted",
    "walls": "its outline",
    "hidden": "nothing",
}
"""The looks of a region (``region NAME = reach ...``)."""

BLOCK_LOOKS: dict[str, str] = {"rooms": "thick borders around each block, as a room layer is drawn"}
"""The looks of ``draw H x W block as LOOK``."""

BORDER_LOOKS: dict[str, str] = {
    "circle": "a small white dot ringed in black on the border's midpoint (pzprjs's Kropki white dot)",
    "disc": "a small black dot on the border's midpoint (pzprjs's Kropki black dot)",
    "grey": "a small grey dot ringed in black on the border's midpoint (pzprjs's Voxas grey dot)",
    "dot": "a black dot 0.16 of a cell in radius on the border's midpoint, as pzprjs draws its dots (No Three's)",
    "bar": "a thick line along the border, a line the puzzle gives (pzprjs's given borders)",
    "dashed": "a dashed line along the border, drawn with the grid under the answer (pzprjs's Mejilink's dotted "
              "borders, on which its loop runs)",
    "number": "its number in a small white circle on the border (pzprjs's Minarism); a ? as the circle "
              "alone",
    "less": "an inequality sign whose point faces the border's first cell, the left or upper one: that "
            "cell holds the smaller number (pzprjs's Minarism)",
    "greater": "an inequality sign whose point faces the border's second cell, the right or lower one",
    "plain": "nothing",
}
"""The looks of a tile on borders (``tile NAME ... on borders``), drawn on the border between two cells."""

CORNER_LOOKS: dict[str, str] = {
    "number": "its number (or ?) in a white disc ringed in black on the corner, as pzprjs draws its crosses "
              "(Creek, Gokigen); a token without a number as a small black dot (pzprjs's cross mark)",
    "dot": "a black dot 0.16 of a cell in radius on the corner, as pzprjs draws its dots (No Three's)",
    "plain": "nothing",
}
"""The looks of a tile on corners (``tile NAME ... on corners``), drawn on the corner of the cells."""

ROOM_LOOKS: dict[str, str] = {
    "walls": "thick borders between rooms (the default)",
    "cages": "a dashed line just inside each room's outline (a Killer Sudoku's cages, inside thick box borders)",
    "hidden": "nothing: what stands on the borders shows the rooms (Mejilink's tiles, between its dashed borders)",
}
"""The looks of ``draw rooms as LOOK``: the map's room layer."""

LOOKS = {**TILE_LOOKS, **MARK_LOOKS, **VALUE_LOOKS, **EDGE_LOOKS, **REGION_LOOKS, **BLOCK_LOOKS, **ROOM_LOOKS,
         **BORDER_LOOKS, **CORNER_LOOKS}
"""Every look's word."""

SLANT_VALUES = ("/", "\\")
"""The values the look ``slants`` draws as diagonals (:mod:`gridlang.constructs.slants` gives their geometry)."""

TRIANGLE_VALUES = ("◣", "◢", "◥", "◤")
"""The values the look ``triangles`` draws as half-cell triangles, named by their right angle's corner
(:mod:`gridlang.constructs.triangles` gives their geometry)."""

ARROW_CHARS = tuple(ARROWS)
"""The characters that name a direction in a cell's text: ``^`` up, ``v`` down, ``<`` left, ``>`` right (as in
a clue's ``^2``)."""

ARROW_LOOKS = ("arrow", "hollow_arrow", "tip")
"""The tile looks that draw a direction read from the tile's map character, one of :data:`ARROW_CHARS`."""

DIRECTION_NAMES = tuple(ARROWS.values())
"""The values of a decided direction the looks ``arrows`` and ``tips`` draw, in :data:`ARROW_CHARS`' order."""

ROOM_LAYER = "rooms"
"""The name ``draw`` gives the map's room layer (``draw rooms as cages``), unless a tile takes it."""

STANDARD: dict[str, str] = {"shaded": "shade", "star": "star", "light": "bulb", "tent": "tent", "line": "line",
                            "bridge": "bridges", "digit": "number"}
"""A decision's look by its standard name, when the spec declares none."""


class Looks(Record, slots=False):
    """The look of every name of a spec, declared or by default.

    Attributes:
        tiles: tile name -> look (a word of :data:`TILE_LOOKS`, or ``default``).
        decisions: decision name -> look.
        regions: region name -> look.
        blocks: the sizes ``(height, width)`` of the blocks drawn as rooms.
        lattices: decision name -> ``edges`` or ``corners`` for the decisions on edges.
        valued: the decisions on cells whose values are integers, names or cells (not Boolean).
        rooms: the look of the map's room layer (``walls`` or ``cages``).
        borders: tile on borders -> look (a word of :data:`BORDER_LOOKS`, or
            ``default``: its map character on the border).
        corners: tile on corners -> look (a word of :data:`CORNER_LOOKS`).
    """

    tiles: dict[str, str] = field(default_factory=dict)
    decisions: dict[str, str] = field(default_factory=dict)
    regions: dict[str, str] = field(default_factory=dict)
    blocks: tuple[tuple[int, int], ...] = ()
    lattices: dict[str, str] = field(default_factory=dict)
    valued: frozenset[str] = frozenset()
    rooms: str = "walls"
    borders: dict[str, str] = field(default_factory=dict)
    corners: dict[str, str] = field(default_factory=dict)

    def tile_look(self, grid: Grid, i: int) -> str:
        """The look of cell ``i``'s tile (``plain`` for an unknown tile)."""
        return self.tiles.get(grid.tiles[i], "plain")

    def outside(self, grid: Grid) -> frozenset[int]:
        """The cells of the map's outside frame: every cell of an edge row or column that ends in a
        cell of a ``frame`` tile and holds no empty cell (``plain``) of the grid (a map with outside
        clues, pzprjs's ``excell``): so the last row of a map framed above and on the left, which
        starts with the frame cell of a row without a clue, stays in the grid. Behind a framed edge
        line, the next line inwards is framed too when it is such a line with a frame cell between its
        ends (the corner of clues stacked several to a line)."""
        frame = {i for i in range(grid.size) if self.tile_look(grid, i) == "frame"}
        if not frame:
            return frozenset()
        rows, cols = grid.rows, grid.cols
        sides = [[grid.row_cells(r) for r in range(rows)], [grid.row_cells(r) for r in reversed(range(rows))],
                 [grid.column_cells(c) for c in range(cols)], [grid.column_cells(c) for c in reversed(range(cols))]]
        out: set[int] = set(frame)
        for side in sides:
            for depth, line in enumerate(side):
                ends = line[0] in frame or line[-1] in frame
                if not (ends and all(self.tile_look(grid, i) != "plain" for i in line)
                        and (depth == 0 or any(i in frame for i in line[1:-1]))):
                    break
                out.update(line)
        return frozenset(out)


def _tile_default(tile) -> str:
    """The look of a tile no ``draw`` statement names (see the module docstring)."""
    chars = [ch for spec in tile.chars for ch in spec.chars()]
    if tile.number or getattr(tile, "clue", None) is not None or (chars and all(ch.isdigit() for ch in chars)):
        return "number"
    if chars == ["."]:
        return "plain"
    return "default"


def _decision_default(decide, cell_valued: bool) -> str:
    if decide.name in STANDARD:
        look = STANDARD[decide.name]
        fits = EDGE_LOOKS if decide.lattice is not None else VALUE_LOOKS if decide.is_enum else MARK_LOOKS
        if look in fits:
            return look
    if decide.lattice is not None:
        return "line"
    if decide.is_enum and any(getattr(part, "id", None) in SLANT_VALUES for part in decide.domain):
        return "slants"
    if decide.is_enum and any(getattr(part, "id", None) in TRIANGLE_VALUES for part in decide.domain):
        return "triangles"
    if decide.is_enum and decide.lattice is None and any(getattr(part, "id", None) in DIRECTION_NAMES
                                                         for part in decide.domain):
        return "arrows"
    if cell_valued:
        return "areas"
    return "default"


def resolve(symbols: Symbols, params: dict[str, object] | None = None) -> Looks:
    """The look of every tile, decision and region of a checked spec.

    Args:
        symbols: the checked spec's symbols (its ``draw`` statements are ``symbols.draws``).
        params: the resolved parameter values, by name (for the size of blocks drawn as rooms).

    Returns:
        The looks: declared ones first, then the defaults of the module docstring.
    """
    draws = list(getattr(symbols, "draws", ()))
    named = {d.name: d.look for d in draws if d.name is not None}
    rooms = "walls"
    if ROOM_LAYER in named and symbols.kind_of(ROOM_LAYER) is None:  # else the name is the spec's own
        rooms = named.pop(ROOM_LAYER)
    tiles = {}
    for name, tile in symbols.tiles.items():
        look = named.get(name)
        if look is None:
            look = next((named[t] for t in tile.tags if t in named), None)
        tiles[name] = look or _tile_default(tile)
    cell_valued = getattr(symbols, "cell_decisions", {})
    decisions = {name: named.get(name) or _decision_default(d, name in cell_valued)
                 for name, d in symbols.decisions.items()}
    regions = {name: named.get(name, "default") for name in symbols.regions}
    blocks = []
    for d in draws:
        if d.name is None:
            size = tuple(_int(dim, params or {}) for dim in (d.height, d.width))
            if all(isinstance(v, int) and v > 0 for v in size):
                blocks.append(size)
    lattices = {name: d.lattice for name, d in symbols.decisions.items() if d.lattice is not None}
    valued = frozenset(name for name, d in symbols.decisions.items()
                       if d.lattice is None and (d.is_enum or name in cell_valued))
    borders = {name: named.get(name) or ("plain" if _tile_default(tile) == "plain" else
                                         "number" if tile.number else "default")
               for name, tile in getattr(symbols, "border_tiles", {}).items()}
    corners = {name: named.get(name) or ("plain" if _tile_default(tile) == "plain" else "number")
               for name, tile in getattr(symbols, "corner_tiles", {}).items()}
    return Looks(tiles, decisions, regions, tuple(blocks), lattices, valued, rooms, borders, corners)


def _int(expr, params: dict[str, object]) -> int | None:
    """An integer literal's value or an ``int`` parameter's, else None."""
    value = getattr(expr, "value", None)
    if isinstance(value, int):
        return value
    value = params.get(getattr(expr, "id", None))
    return value if isinstance(value, int) else None


def of_model(model) -> Looks:
    """The looks of a compiled model's spec (all defaults when the model keeps no spec)."""
    if model.source is None:
        lattices = {d.name: d.kind for d in model.decisions if d.kind != "cells"}
        return Looks(decisions={d.name: "line" if d.name in lattices else "default" for d in model.decisions},
                     lattices=lattices, valued=frozenset(d.name for d in model.decisions
                                                         if d.kind == "cells" and tuple(d.values) != (True,)))
    return resolve(model.source[1], dict(model.params))


SYMBOLS = {1: "○", 2: "△", 3: "□"}
"""The look ``symbols``: pzprjs's symbols for the numbers 1 to 3 (its ``getNumberTextCore``)."""


def arrow_char(value: object) -> str:
    """A direction as its character (:data:`ARROW_CHARS`): the character itself, its name (``up``, a decided
    direction's value), or pzprjs's number of it, 1 up, 2 down, 3 left, 4 right (a decision's value 3 or a
    map's text ``"3"``); nothing for anything else."""
    if value in ARROW_CHARS:
        return str(value)
    if value in DIRECTION_NAMES:
        return ARROW_CHARS[DIRECTION_NAMES.index(value)]
    if isinstance(value, bool):
        return ""
    try:
        k = int(value)
    except (TypeError, ValueError):
        return ""
    return ARROW_CHARS[k - 1] if 1 <= k <= 4 else ""


def symbol(value: object) -> str:
    """A number as a symbol (the look ``symbols``): 1 a circle, 2 a triangle, 3 a square; ``?`` as
    it is; nothing for anything else (0, an empty cell)."""
    if value == "?":
        return "?"
    try:
        return SYMBOLS.get(int(value), "")  # a map's text ("2") or a decision's value (2)
    except (TypeError, ValueError):
        return ""


def figures(value: object) -> str:
    """A value as the look ``number`` writes it: its text, nothing for a negative integer (pzprjs's -1,
    a cell left without a number)."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return ""
    return str(value)


def letter(value: object) -> str:
    """A value as a letter (the look ``letters``): 1 is A, 26 Z, 27 AA; nothing for 0 or what is no
    positive integer."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return ""
    out = ""
    while value > 0:
        value, k = divmod(value - 1, 26)
        out = chr(ord("A") + k) + out
    return out
