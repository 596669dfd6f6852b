"""The look of a picture: how tiles, decisions and regions are drawn, and the look by default.

A :class:`Style` says what :func:`gridlang.pictures.draw.draw` paints: a
:class:`TileStyle` per tile kind (or map character), a :class:`MarkStyle`
per decision (or value), a :class:`RegionStyle` per region, and the
picture's frame, grid, thick borders and outside frame. A plug-in may
declare one (:meth:`gridlang.plugins.Plugin.style`), a spec's looks make
another (:func:`gridlang.pictures.lookstyle.looks_style`); :func:`default_style`
fills in what either leaves out, with colours hashed from names.
"""

from __future__ import annotations

import colorsys
import hashlib
from dataclasses import dataclass, field, fields
from typing import Callable

from gridlang.core.grid import Grid
from gridlang.core.nodes import replace
from gridlang.pictures.canvas import Canvas, Colour


@dataclass(frozen=True)
class Cell:
    """One cell as a painter sees it.

    Attributes:
        grid: the map.
        index: the cell (row-major).
        x: left edge, pixels.
        y: top edge, pixels.
        size: side, pixels.
        tile: the cell's tile style.
    """

    grid: Grid
    index: int
    x: float
    y: float
    size: float
    tile: TileStyle

    @property
    def char(self) -> str:
        return self.grid.chars[self.index]

    def at(self, u: float, v: float) -> tuple[float, float]:
        """The pixel at ``(u, v)`` in cell units (0 to 1 across, 0 to 1 down)."""
        return self.x + u * self.size, self.y + v * self.size


Painter = Callable[[Canvas, Cell], None]
"""Draws a glyph or a mark inside one cell."""


@dataclass(frozen=True)
class TileStyle:
    """How a tile is drawn.

    Attributes:
        fill: the cell's colour.
        glyph: what is drawn on it: None; ``char`` (its map character);
            ``disc``, ``ring`` (a filled circle, a ring, no text); ``clue``
            (its number, list or arrow drawn the pzprjs way,
            :func:`gridlang.pictures.glyphs.clue`; a lone arrow character as
            an arrow; other texts without a figure or ``?`` are left off);
            ``text`` (its text, ``.`` left off); ``circled``, ``filled`` (a
            white circle or a disc with its number inside); ``crossed``;
            ``split`` (Kakuro's sums); ``arrow``, ``hollow_arrow``, ``tip``
            (an arrow or a pencil's tip pointing as its text says,
            :func:`gridlang.pictures.glyphs.cell_arrow`,
            :func:`gridlang.pictures.glyphs.pencil_tip`); ``dot``;
            ``ring_kanji``, ``cut_kanji`` (:func:`gridlang.pictures.glyphs.kanji`);
            or the name of a painter of the style.
        ink: the glyph's colour.
        lines: grid lines are drawn along the cell's sides.
        solid: a black cell: it stops a lamp's light, and keeps its box in
            the outside frame.
    """

    fill: Colour
    glyph: str | None = None
    ink: Colour = "#202020"
    lines: bool = True
    solid: bool = False


@dataclass(frozen=True)
class MarkStyle:
    """How the cells of one decision value are drawn.

    Attributes:
        shape: ``block`` (a filled square), ``dot``, ``cross``, ``label``
            (the value as text, left off cells whose tile has a glyph),
            ``path`` (lines joining side-adjacent cells of the value),
            ``auto`` (a label for numbers and short names, else a tint
            hashed from the value), ``none``, or the name of a painter of the
            style. The looks of :mod:`gridlang.language.looks` add ``shade`` (the
            whole cell), ``star``, ``bulb``, ``tent``, ``circle``, ``disc``,
            ``stones``, ``tint``; for values ``number`` (digits, left off
            cells that show a clue), ``letters``, ``arrows`` (1 to 4 as
            arrows up, down, left, right), ``tints``, ``areas``
            (thick borders between different values); for decisions on
            edges ``line``, ``bridges`` and ``walls``.
        colour: its colour.
        width: line width of ``path`` and ``cross``, in cells.
        outline: for an enumeration, a colour to outline each group of
            side-adjacent cells with equal values (None: no outline).
        fill: a tint for the cells (None: none; see also ``Style.value_fill``).
    """

    shape: str = "block"
    colour: Colour = "#303030"
    width: float = 0.12
    outline: Colour | None = None
    fill: Colour | None = None


@dataclass(frozen=True)
class RegionStyle:
    """How a region is drawn: its cells shaded, its border outlined.

    Attributes:
        fill: the shade, or None.
        opacity: the shade's opacity, 0 to 1.
        outline: the border's colour, or None.
        width: the border's width, in cells.
    """

    fill: Colour | None = None
    opacity: float = 0.3
    outline: Colour | None = None
    width: float = 0.08


@dataclass
class Style:
    """Everything a picture's look depends on; each part optional when a
    plug-in declares it (the defaults fill in).

    Attributes:
        background: the frame's colour.
        frame: the frame's width, in cells.
        grid: the grid lines' colour, or None for none.
        grid_width: the grid lines' width, pixels (0: one pixel per 48 of cell, at least one).
        tiles: tile kind -> its style.
        chars: map character -> its style (before ``tiles``).
        marks: ``DECISION`` (a Boolean decision, or an enumeration's default)
            or ``DECISION=VALUE`` -> its style.
        bool_mark: the style of a Boolean decision not in ``marks``.
        regions: region name -> its style.
        any_region: the style of a region not in ``regions``.
        painters: glyph and mark names -> the functions that draw them.
        value_fill: an enumeration's value -> the tint of its cells.
        borders: the colour of thick borders: between rooms of the map's
            room layer, around ``blocks``, and the chassis around the grid
            (None: none of them).
        border_width: their width, in cells.
        blocks: the sizes ``(height, width)`` of blocks outlined like rooms.
        outside: the cells of an outside frame of clues: no box, no lines
            (but ``solid`` tiles), and the chassis drawn inside them.
        corner_dots: the grid is drawn as dots at the corners of the cells.
        shade_ink: the colour of a glyph on a cell shaded by a decision.
        cages: the room layer is drawn as cages (a dashed line inside each room) instead of thick borders.
        hidden_rooms: the room layer is not drawn (what stands on the borders shows the rooms).
        border_looks: tile on borders -> its look (:data:`gridlang.language.looks.BORDER_LOOKS`); a tile
            not in it is drawn by its token: a number in a small white circle, any other but ``.`` as
            its character.
        dashed_grid: the grid lines are dashed, the outer ones too, and no chassis is drawn around the grid
            (pzprjs's ``drawDashedGrid(false)`` of Gokigen and Wagiri, whose slants run to the frame).
        corner_looks: tile on corners -> its look (:data:`gridlang.language.looks.CORNER_LOOKS`); a tile
            not in it is drawn by its token: a number in a white disc, any other but ``.`` as a dot.
    """

    background: Colour | None = None
    frame: float | None = None
    grid: Colour | None = None
    grid_width: int | None = None
    tiles: dict[str, TileStyle] = field(default_factory=dict)
    chars: dict[str, TileStyle] = field(default_factory=dict)
    marks: dict[str, MarkStyle] = field(default_factory=dict)
    bool_mark: MarkStyle | None = None
    regions: dict[str, RegionStyle] = field(default_factory=dict)
    any_region: RegionStyle | None = None
    painters: dict[str, Painter] = field(default_factory=dict)
    value_fill: dict[object, Colour] = field(default_factory=dict)
    borders: Colour | None = None
    border_width: float | None = None
    blocks: tuple[tuple[int, int], ...] | None = None
    outside: frozenset[int] | None = None
    corner_dots: bool | None = None
    shade_ink: Colour | None = None
    cages: bool | None = None
    hidden_rooms: bool | None = None
    border_looks: dict[str, str] = field(default_factory=dict)
    corner_looks: dict[str, str] = field(default_factory=dict)
    dashed_grid: bool | None = None

    def over(self, base: Style) -> Style:
        """This style, with ``base`` filling in what it leaves out (dicts are merged)."""
        out = replace(base)
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if isinstance(mine, dict):
                setattr(out, f.name, {**theirs, **mine})
            elif mine is not None:
                setattr(out, f.name, mine)
        return out

    def tile(self, grid: Grid, i: int) -> TileStyle:
        """The style of cell ``i``'s tile: by its character, else its kind, else grey."""
        return self.chars.get(grid.chars[i]) or self.tiles.get(grid.tiles[i]) or TileStyle("#d0d0d0", "char")


def hashed_colour(name: str, lightness: float = 0.8, saturation: float = 0.5) -> str:
    """A colour for a name, the same on every run: its hue from the name's SHA-1.

    Args:
        name: any text.
        lightness: HLS lightness, 0 to 1.
        saturation: HLS saturation, 0 to 1.

    Returns:
        ``#rrggbb``.
    """
    hue = int.from_bytes(hashlib.sha1(name.encode("utf-8")).digest()[:2], "big") / 65536
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))


_BOOL_SHAPES = ("block", "dot", "cross")


def default_style(grid: Grid, impassable: set[str] | frozenset[str] = frozenset()) -> Style:
    """The look of a puzzle that declares none.

    Args:
        grid: the map.
        impassable: tile kinds drawn dark (the spec's ``impassable`` tag).

    Returns:
        A complete style: white frame, grey grid lines, tiles hashed pale
        with their character on them, but for the most common kind (plain)
        and impassable kinds (dark, plain). Decisions and regions it leaves to :func:`mark_style`
        and :func:`region_style`.
    """
    counts: dict[str, int] = {}
    for kind in grid.tiles:
        counts[kind] = counts.get(kind, 0) + 1
    common = max(counts, key=lambda k: counts[k]) if counts else None
    tiles = {}
    for kind in counts:
        dark = kind in impassable
        tiles[kind] = TileStyle(hashed_colour(kind, 0.3 if dark else 0.88, 0.35),
                                None if kind == common or dark else "char")
    return Style(background="#ffffff", frame=0.25, grid="#b4b4b4", grid_width=0, tiles=tiles)


def mark_style(style: Style, decision: str, boolean: bool, k: int = 0) -> MarkStyle:
    """How a decision is drawn: the style's own entry, else its mark for any
    Boolean decision, else the default.

    Args:
        style: the style.
        decision: the decision's name.
        boolean: it is a Boolean decision.
        k: its place among the Boolean decisions (the default's shape cycles
            through block, dot and cross).

    Returns:
        For a Boolean decision a mark in a colour hashed from its name; for
        an enumeration its values as labels with equal groups outlined.
    """
    if decision in style.marks:
        return style.marks[decision]
    if boolean:
        return style.bool_mark or MarkStyle(_BOOL_SHAPES[k % 3], hashed_colour(decision, 0.3, 0.6))
    return MarkStyle("auto", "#202020", outline="#202020")


def region_style(style: Style, region: str) -> RegionStyle:
    """How a region is drawn: the style's own entry, else its style for any
    region, else shaded and outlined in colours hashed from its name."""
    return (style.regions.get(region) or style.any_region
            or RegionStyle(hashed_colour(region, 0.6, 0.7), 0.3, hashed_colour(region, 0.35, 0.7)))
