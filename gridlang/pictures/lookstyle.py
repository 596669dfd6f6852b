"""A picture's :class:`~gridlang.pictures.draw.Style` made from a spec's looks (:mod:`gridlang.language.looks`).

The colours and sizes are pzprjs's (puzz.link's ``Graphic`` defaults): clues
in black on white cells, grey grid lines one pixel wide, thick black
borders between rooms and around the grid, answers in pzprjs's green
(lines, bridges, digits), shaded cells dark grey with their numbers in
white, Kakuro's clue cells grey, Akari's lamps green on the light-green
cells they light. A look left at ``default`` is not set here, so that
:func:`gridlang.pictures.draw.default_style` gives it a colour hashed from its name.
"""

from __future__ import annotations

from gridlang.core.grid import Grid
from gridlang.language.looks import Looks
from gridlang.pictures.style import MarkStyle, RegionStyle, Style, TileStyle, hashed_colour

WHITE = "#ffffff"
INK = "#000000"
GRID = "#8c8c8c"
SHADE = "#505050"
ANSWER = "#00a000"  # pzprjs's qanscolor and linecolor, rgb(0, 160, 0)
LAMP = "#007f60"
LIT = "#c0ff7f"
SPLIT = "#c0c0c0"
TENT = "#2e7d32"
TREE = "#2e9e3e"
BLUE = "#0096ff"  # pzprjs's shade colour of a filled tank (Aquarium)

TILES: dict[str, TileStyle] = {
    "number": TileStyle(WHITE, "clue", INK),
    "char": TileStyle(WHITE, "text", INK),
    "symbols": TileStyle(WHITE, "symbols", INK),
    "letters": TileStyle(WHITE, "letter", INK),
    "block": TileStyle(INK, "clue", WHITE, solid=True),
    "circle": TileStyle(WHITE, "circled", INK),
    "disc": TileStyle(WHITE, "filled", INK),
    "cross": TileStyle(WHITE, "crossed", INK),
    "plain": TileStyle(WHITE),
    "frame": TileStyle(WHITE, "clue", INK, lines=False),
    "split": TileStyle(SPLIT, "split", INK, solid=True),
    "corner": TileStyle(WHITE, "corner", INK),
    "tree": TileStyle(WHITE, "tree", TREE),
    "moon": TileStyle(WHITE, "moon", INK),
    "arrow": TileStyle(WHITE, "arrow", INK),
    "hollow_arrow": TileStyle(WHITE, "hollow_arrow", INK),
    "tip": TileStyle(WHITE, "tip", INK),
    "dot": TileStyle(WHITE, "dot", INK),
    "star": TileStyle(WHITE, "star", INK),
    "ring_kanji": TileStyle(WHITE, "ring_kanji", INK),
    "cut_kanji": TileStyle(WHITE, "cut_kanji", INK),
}
"""A tile look's style."""

MARKS: dict[str, MarkStyle] = {
    "shade": MarkStyle("shade", SHADE),
    "blue": MarkStyle("shade", BLUE),
    "star": MarkStyle("star", INK),
    "bulb": MarkStyle("bulb", LAMP, fill=LIT),
    "tent": MarkStyle("tent", TENT),
    "dot": MarkStyle("dot", INK),
    "cross": MarkStyle("cross", INK, width=0.08),
    "circle": MarkStyle("circle", INK),
    "disc": MarkStyle("disc", INK),
    "stones": MarkStyle("stones", INK),
    "hidden": MarkStyle("none"),
    "number": MarkStyle("number", ANSWER),
    "letters": MarkStyle("letters", ANSWER),
    "symbols": MarkStyle("symbols", ANSWER),
    "arrows": MarkStyle("arrows", ANSWER),
    "tips": MarkStyle("tips", ANSWER),
    "areas": MarkStyle("areas", INK),
    "blocks": MarkStyle("blocks", ANSWER),
    "line": MarkStyle("line", ANSWER, width=0.1),
    "bridges": MarkStyle("bridges", ANSWER, width=0.08),
    "walls": MarkStyle("walls", INK),
    "slants": MarkStyle("slants", INK, width=0.1),
    "triangles": MarkStyle("triangles", INK),
}
"""A decision look's style (``tint`` is made per decision)."""


def looks_style(grid: Grid, looks: Looks) -> Style:
    """The style of a picture drawn from looks.

    Args:
        grid: the map (its tiles, and the cells of its outside frame).
        looks: the spec's looks.

    Returns:
        A style to lay over :func:`gridlang.pictures.draw.default_style` (:meth:`Style.over`).
    """
    tiles = {kind: TILES[look] for kind, look in looks.tiles.items() if look in TILES}
    marks = {}
    for name, look in looks.decisions.items():
        if look == "tint":
            lattice = looks.lattices.get(name)
            marks[name] = MarkStyle("tints") if lattice is None and name in looks.valued else \
                MarkStyle("tint", hashed_colour(name, 0.8, 0.5))
        elif look in MARKS:
            marks[name] = MARKS[look]
    regions = {}
    for name, look in looks.regions.items():
        if look == "tint":
            regions[name] = RegionStyle(hashed_colour(name, 0.6, 0.7), 0.3, None)
        elif look == "walls":
            regions[name] = RegionStyle(None, 0.3, INK, 0.09)
        elif look == "hidden":
            regions[name] = RegionStyle(None, 0.3, None)
    corner_lines = any(looks.lattices.get(name) == "corners" and look == "line"
                       for name, look in looks.decisions.items())
    dashed = any(look == "slants" for look in looks.decisions.values()) and not grid.rooms and not looks.blocks
    return Style(background=WHITE, frame=0.25, grid=INK if corner_lines else GRID, grid_width=0, tiles=tiles,
                 marks=marks, regions=regions, borders=INK, border_width=0.09, blocks=looks.blocks,
                 outside=looks.outside(grid), corner_dots=corner_lines, shade_ink=WHITE, cages=looks.rooms == "cages",
                 hidden_rooms=looks.rooms == "hidden",
                 border_looks=dict(looks.borders), corner_looks=dict(looks.corners),
                 dashed_grid=dashed)

