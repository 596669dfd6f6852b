"""Pictures of a map and its answer, as SVG or PNG.

:func:`draw` lays a grid out on a :class:`~gridlang.pictures.canvas.Canvas`, one
square of ``cell`` pixels per cell inside a frame, in layers:

1. ``tiles``: one square per cell, filled by its tile kind (cells of the
   outside frame of clues keep the background);
2. ``tints``: cells filled by an enumeration's value, and the fills of
   Boolean decisions drawn as areas (``mark`` rectangles of a shade, the
   cells a lamp lights);
3. ``grid-lines``: the lines between cells (skipped along tiles that say
   so), or dots at the corners when a line runs along the grid;
4. ``regions``: each region's cells shaded (a group with an opacity);
5. ``edges``: decisions on edges: lines and bridges (stopping at the edge
   of a circle or a number, :mod:`gridlang.pictures.strokes`), walls;
6. ``glyphs``: a tile's glyph (its map character, a clue drawn the pzprjs
   way, a circle, a disc, or a painter the style defines), in a light ink on
   a shaded cell;
7. ``borders``: thick borders between rooms, blocks and areas of equal
   values, and around the grid (the chassis);
8. ``region-outlines``: the edges between a region's cells and the others;
9. ``decisions``: a Boolean decision's true cells as marks (one element per
   cell); an enumeration's values as labels and paths joining side-adjacent
   cells of one value, and outlines around groups of equal values;
10. ``corner-clues``: what stands on the corners of the cells (a map's
    ``corners:`` layer), as pzprjs draws its crosses: a number (or ``?``) in
    a white disc ringed in the ink, any other mark a small black dot (its
    cross marks); nothing on a corner whose token is ``.``;
11. ``border-clues``: what stands on the borders between cells (a map's
    ``borders:`` layer), on each border's midpoint as pzprjs draws it: a
    white or black dot (Kropki), a number in a small circle or an
    inequality sign (Minarism), by the tile's look.

What each of these looks like is a :class:`Style`. A puzzle's plug-in may
declare one (:meth:`gridlang.plugins.Plugin.style`); otherwise the spec's
``draw`` statements and their defaults make it (:mod:`gridlang.language.looks`,
:func:`gridlang.pictures.lookstyle.looks_style`). Whatever a style leaves out comes
from :func:`default_style`, which gives each tile kind, decision and region
a colour hashed from its name (the same name, the same colour, run after
run) and shows the map character on every tile but the most common.

:func:`picture` draws a compiled model's answer; :func:`write_picture`
writes it to a ``.svg`` or ``.png`` file, :func:`picture_data` gives the file's contents.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from gridlang.core.grid import Grid, border_ends, border_places
from gridlang.core.nodes import replace
from gridlang.ir.solution import Solution
from gridlang.language.looks import ARROW_CHARS, arrow_char, letter, of_model, symbol
from gridlang.pictures import glyphs, strokes
from gridlang.pictures.canvas import Canvas
from gridlang.pictures.marks import DIRECTIONS, area, borders, css, decision, decision_kinds, edges, tints
from gridlang.pictures.style import (
    Cell,
    MarkStyle,
    Painter,
    RegionStyle,
    Style,
    TileStyle,
    default_style,
    hashed_colour,
    mark_style,
    region_style,
)

if TYPE_CHECKING:
    from gridlang.ir.model import Model

__all__ = ["Cell", "MarkStyle", "Painter", "RegionStyle", "Style", "TileStyle", "default_style", "draw",
           "hashed_colour", "mark_style", "picture", "picture_data", "region_style", "write_picture"]


# ---------------------------------------------------------------- drawing

_AREA_SHAPES = ("shade", "tint", "bulb")
"""Boolean marks that fill their cells, drawn under the grid lines and the glyphs."""

_INKED = ("char", "text", "letter", "clue", "split", "symbols")
"""Glyphs that are text alone: on a shaded cell they take the style's ``shade_ink``."""


def draw(grid: Grid, solution: Solution | None = None, style: Style | None = None, cell: int = 32,
         title: str = "", booleans: set[str] | None = None, lattices: dict[str, str] | None = None) -> Canvas:
    """Draw a map and, when given, its answer.

    Args:
        grid: the map.
        solution: the answer, or None for the bare map.
        style: the look (complete; see :meth:`Style.over`), or None for
            :func:`default_style`.
        cell: side of a cell, pixels (at least 4).
        title: the picture's title (SVG ``<title>``).
        booleans: names of the Boolean decisions (None: inferred from the values).
        lattices: names of the decisions on edges -> ``edges`` (between side
            neighbours) or ``corners`` (along the grid).

    Returns:
        The canvas, ``cols * cell + 2 * frame`` by ``rows * cell + 2 * frame``
        pixels, where the frame is ``round(style.frame * cell)``.
    """
    if cell < 4:
        raise ValueError(f"a cell of {cell} pixels is too small to draw (4 at least)")
    style = style or default_style(grid)
    lattices = lattices or {}
    pad = int(round((style.frame or 0) * cell))
    if any(ch != "." for ch in grid.corner_chars):
        pad = max(pad, int(round(_CORNER_CLUE * cell)) + 2)  # room for a clue on the frame's corners
    canvas = Canvas(grid.cols * cell + 2 * pad, grid.rows * cell + 2 * pad, style.background, title)
    outside = style.outside or frozenset()
    cells = []
    for i in range(grid.size):
        tile = style.tile(grid, i)
        if i in outside and not tile.solid:
            tile = replace(tile, fill=style.background or "#ffffff", lines=False)
        cells.append(Cell(grid, i, pad + (i % grid.cols) * cell, pad + (i // grid.cols) * cell, cell, tile))
    with canvas.group("tiles"):
        for c in cells:
            canvas.rect(c.x, c.y, cell, cell, fill=c.tile.fill, cls=f"tile tile-{css(grid.tiles[c.index])}")
    kinds = decision_kinds(solution, booleans)
    on_cells = {name: values for name, values in (solution.decisions.items() if solution else ())
                if name not in lattices}
    areas = {name: mark_style(style, name, True, kinds[name][1]) for name in on_cells if kinds[name][0]}
    areas = {name: ms for name, ms in areas.items() if ms.shape in _AREA_SHAPES}
    shaded: set[int] = set()
    if solution is not None:
        valued = [(name, values) for name, values in on_cells.items() if not kinds[name][0]]
        if valued or areas:
            with canvas.group("tints"):
                for name, values in valued:
                    tints(canvas, cells, style, name, values, mark_style(style, name, False))
                for name, ms in areas.items():
                    area(canvas, grid, cells, name, on_cells[name], ms)
                    if ms.shape == "shade":
                        shaded |= set(on_cells[name])
    if style.corner_dots:
        _corner_dots(canvas, grid, style, cell, pad)
    else:
        _grid_lines(canvas, grid, cells, style, cell, pad)
    _border_lines(canvas, grid, style, cell, pad)
    regions = solution.regions if solution else {}
    if regions:
        with canvas.group("regions"):
            for name, members in regions.items():
                rs = region_style(style, name)
                if rs.fill is None or not members:
                    continue
                with canvas.group(f"region region-{css(name)}", rs.opacity):
                    for i in sorted(members):
                        canvas.rect(cells[i].x, cells[i].y, cell, cell, fill=rs.fill)
    if solution is not None and lattices:
        with canvas.group("edges"):
            for name, kind in lattices.items():
                if name in solution.decisions:
                    edges(canvas, cells, style, name, kind, solution.decisions[name], pad,
                           mark_style(style, name, kinds[name][0], kinds[name][1]))
    with canvas.group("glyphs"):
        for c in cells:
            if c.tile.glyph:
                if c.index in shaded and style.shade_ink is not None and c.tile.glyph in _INKED:
                    c = replace(c, tile=replace(c.tile, ink=style.shade_ink))
                with canvas.group(f"glyph glyph-{css(c.tile.glyph)}"):
                    _glyph(canvas, c, style)
    borders(canvas, grid, cells, style, on_cells, kinds, pad, cell)
    if regions:
        with canvas.group("region-outlines"):
            for name, members in regions.items():
                rs = region_style(style, name)
                if rs.outline is None or not members:
                    continue
                canvas.segments(_boundary(grid, cells, set(members)), rs.outline, max(1.0, rs.width * cell),
                                cls=f"outline region-{css(name)}")
    if solution is not None:
        with canvas.group("decisions"):
            for name, values in on_cells.items():
                boolean, k = kinds[name]
                if name in areas and areas[name].shape != "bulb":  # a lamp: its light above, the lamp here
                    continue
                decision(canvas, grid, cells, style, name, values, mark_style(style, name, boolean, k), boolean)
    _corner_clues(canvas, grid, style, cell, pad)
    _border_clues(canvas, grid, style, cell, pad)
    return canvas


_CORNER_CLUE = 0.3
"""The radius of a clue's disc on a corner of the cells, in cells (pzprjs draws Creek's with 0.35 of half a
cell's side and a smaller number; this one holds a number at the size a cell's clue has in a small cell)."""

_DOT = 0.16
"""The radius of a dot in a cell, on a border or on a corner, in cells (pzprjs's No Three, its ``getDotRadius``)."""

_CORNER_MARK = 0.12
"""The radius of a mark on a corner (a token without a number: pzprjs's cross mark), in cells."""

_CORNER_INK = "#202020"
"""The ring and number of a clue on a corner: the ink of a cell's clue."""


def _corner_clues(canvas: Canvas, grid: Grid, style: Style, cell: int, pad: int) -> None:
    """The clues on the corners of the cells: a white disc ringed in the ink, the number (or ``?``) inside."""
    tiles = grid.corner_tiles or ("",) * len(grid.corner_chars)
    found = [(k, ch, style.corner_looks.get(tile)) for k, (ch, tile) in enumerate(zip(grid.corner_chars, tiles))
             if ch != "." and style.corner_looks.get(tile) != "plain"]
    if not found:
        return
    radius = _CORNER_CLUE * cell
    ink = _CORNER_INK
    with canvas.group("corner-clues"):
        for k, ch, look in found:
            r, c = divmod(k, grid.cols + 1)
            x, y = pad + c * cell, pad + r * cell
            if look == "dot":  # pzprjs's dot (No Three's)
                canvas.ellipse(x, y, _DOT * cell, _DOT * cell, fill=ink, cls="corner-dot")
                continue
            if not glyphs.has_figures(ch) and ch != "?":  # a mark: pzprjs's cross mark, a dot
                canvas.ellipse(x, y, _CORNER_MARK * cell, _CORNER_MARK * cell, fill=ink, cls="corner-mark")
                continue
            canvas.ellipse(x, y, radius, radius, fill="#ffffff", stroke=ink, width=max(1.0, 0.05 * cell))
            canvas.text(x, y, ch, glyphs.number_size(ch, 1.6 * radius), ink, cls="clue corner-clue")


_BORDER_DOT = 0.12
"""The radius of a dot on a border, in cells (pzprjs's Kropki: 0.12 of a cell for the white dot, 0.135 for
the black)."""

_BORDER_CIRCLE = 0.27
"""The radius of the circle of a number on a border, in cells (pzprjs's Minarism: 0.27)."""

_BORDER_SIGN = 0.22
"""Half the size of an inequality sign on a border, in cells (pzprjs's Minarism: 0.22)."""


def _border_lines(canvas: Canvas, grid: Grid, style: Style, cell: int, pad: int) -> None:
    """The borders whose tile's look is a line along them (``dashed``: pzprjs's Mejilink's dotted borders),
    drawn with the grid, under the answer."""
    pairs = []
    for k, name in enumerate(grid.border_tiles):
        if style.border_looks.get(name) == "dashed":
            (r1, c1), (r2, c2) = border_ends(grid.rows, grid.cols, k)
            pairs.append(((pad + c1 * cell, pad + r1 * cell), (pad + c2 * cell, pad + r2 * cell)))
    if pairs:
        with canvas.group("border-lines"):
            canvas.segments(strokes.dashes(pairs, 0.1 * cell, 0.1 * cell), _CORNER_INK, max(1.0, 0.03 * cell),
                            cls="border-dashed")


def _border_clues(canvas: Canvas, grid: Grid, style: Style, cell: int, pad: int) -> None:
    """The clues on the borders, the frame's too, on each border's midpoint, drawn by their tile's look."""
    found = [(k, ch) for k, ch in enumerate(grid.border_chars)
             if ch != "." and style.border_looks.get(grid.border_tiles[k]) not in ("plain", "dashed")]
    if not found:
        return
    ink = _CORNER_INK
    with canvas.group("border-clues"):
        for k, ch in found:
            (r1, c1), (r2, c2) = border_places(grid.rows, grid.cols, k)
            across = r1 == r2  # side by side: the border runs down between them
            x, y = pad + (c1 + c2 + 1) * cell / 2, pad + (r1 + r2 + 1) * cell / 2
            look = style.border_looks.get(grid.border_tiles[k])
            if look is None:
                look = "number" if glyphs.has_figures(ch) else "default"
            if look == "dot":
                canvas.ellipse(x, y, _DOT * cell, _DOT * cell, fill=ink, cls="border-dot")
            elif look in ("circle", "disc", "grey"):
                radius = _BORDER_DOT * cell * (1.125 if look == "disc" else 1)
                fill = {"circle": "#ffffff", "disc": ink, "grey": "#cccccc"}[look]
                canvas.ellipse(x, y, radius, radius, fill=fill, stroke=None if look == "disc" else ink,
                               width=max(1.0, 0.03 * cell), cls=f"border-{look}")
            elif look == "bar":  # along the border: across the gap between the two cells' centres
                half = cell / 2
                ends = [(x, y - half), (x, y + half)] if across else [(x - half, y), (x + half, y)]
                canvas.line(ends, ink, max(2.0, 0.09 * cell), cls="border-bar")
            elif look in ("less", "greater"):
                s = _BORDER_SIGN * cell
                tip = -s if look == "less" else s  # the point faces the first cell (less) or the second
                points = [(x - tip, y - s), (x + tip, y), (x - tip, y + s)] if across else \
                    [(x - s, y - tip), (x, y + tip), (x + s, y - tip)]
                canvas.rect(x - s * 1.2, y - s * 1.2, 2.4 * s, 2.4 * s, fill="#ffffff")
                canvas.line(points, ink, max(1.0, 0.04 * cell), cls="border-sign")
            elif look == "number":
                radius = _BORDER_CIRCLE * cell
                canvas.ellipse(x, y, radius, radius, fill="#ffffff", stroke=ink, width=max(1.0, 0.03 * cell),
                               cls="border-circle")
                if ch != "?":
                    canvas.text(x, y, ch, glyphs.number_size(ch, 1.5 * radius), ink, cls="clue border-clue")
            else:
                canvas.text(x, y, ch, glyphs.number_size(ch, 2 * _BORDER_CIRCLE * cell), ink, cls="clue border-clue")


def _grid_lines(canvas: Canvas, grid: Grid, cells: list[Cell], style: Style, cell: int, pad: int) -> None:
    if style.grid is None:
        return
    width = style.grid_width or max(1, cell // 48)
    pairs = []
    rows, cols = grid.rows, grid.cols

    def lined(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and cells[r * cols + c].tile.lines

    for k in range(cols + 1):  # vertical lines, run by run
        x = pad + k * cell
        start = None
        for r in range(rows + 1):
            on = r < rows and (lined(r, k - 1) or lined(r, k))
            if on and start is None:
                start = r
            elif not on and start is not None:
                pairs.append(((x, pad + start * cell), (x, pad + r * cell)))
                start = None
    for k in range(rows + 1):
        y = pad + k * cell
        start = None
        for c in range(cols + 1):
            on = c < cols and (lined(k - 1, c) or lined(k, c))
            if on and start is None:
                start = c
            elif not on and start is not None:
                pairs.append(((pad + start * cell, y), (pad + c * cell, y)))
                start = None
    if pairs:
        # A line of odd width sits on whole pixels: the cell's first column or row.
        shift = 0.5 if width % 2 else 0.0
        pairs = [((a[0] + shift if a[0] == b[0] else a[0], a[1] + shift if a[1] == b[1] else a[1]),
                  (b[0] + shift if a[0] == b[0] else b[0], b[1] + shift if a[1] == b[1] else b[1]))
                 for a, b in pairs]
        if style.dashed_grid:  # pzprjs's dashed grid (Gokigen's)
            pairs = strokes.dashes(pairs, 0.08 * cell, 0.08 * cell)
        with canvas.group("grid-lines"):
            canvas.segments(pairs, style.grid, width, cls="grid")


def _corner_dots(canvas: Canvas, grid: Grid, style: Style, cell: int, pad: int) -> None:
    """The grid as a dot at each corner of the cells (where a line runs along the grid)."""
    if style.grid is None:
        return
    r = max(1.0, cell * 0.05)
    with canvas.group("grid-lines corner-dots"):
        for y in range(grid.rows + 1):
            for x in range(grid.cols + 1):
                canvas.ellipse(pad + x * cell, pad + y * cell, r, r, fill=style.grid)


def _boundary(grid: Grid, cells: list[Cell], members: set[int]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The sides between member cells and others (or the map's edge), as pixel segments."""
    out = []
    for i in sorted(members):
        c = cells[i]
        r, col = divmod(i, grid.cols)
        x0, y0, x1, y1 = c.x, c.y, c.x + c.size, c.y + c.size
        if r == 0 or i - grid.cols not in members:
            out.append(((x0, y0), (x1, y0)))
        if r == grid.rows - 1 or i + grid.cols not in members:
            out.append(((x0, y1), (x1, y1)))
        if col == 0 or i - 1 not in members:
            out.append(((x0, y0), (x0, y1)))
        if col == grid.cols - 1 or i + 1 not in members:
            out.append(((x1, y0), (x1, y1)))
    return out


def _glyph(canvas: Canvas, c: Cell, style: Style) -> None:
    name = c.tile.glyph
    painter = style.painters.get(name)
    text = str(c.char)
    if painter is not None:
        painter(canvas, c)
    elif name == "char":
        canvas.text(*c.at(0.5, 0.5), c.char, 0.6 * c.size, c.tile.ink, bold=True)
    elif name == "symbols":
        canvas.text(*c.at(0.5, 0.5), symbol(text), 0.7 * c.size, c.tile.ink, cls="clue")
    elif name == "disc":
        canvas.ellipse(*c.at(0.5, 0.5), 0.3 * c.size, 0.3 * c.size, fill=c.tile.ink)
    elif name == "ring":
        canvas.ellipse(*c.at(0.5, 0.5), 0.36 * c.size, 0.36 * c.size, stroke=c.tile.ink,
                       width=max(1.0, 0.08 * c.size))
    elif name == "letter":
        if glyphs.has_figures(text):
            shown = letter(int(text)) if text.isdigit() else text
            canvas.text(*c.at(0.5, 0.5), shown, glyphs.number_size(shown, c.size), c.tile.ink, cls="clue")
    elif name == "text":
        if glyphs.is_clue(text):
            canvas.text(*c.at(0.5, 0.5), text, glyphs.number_size(text, c.size), c.tile.ink, cls="clue")
    elif name == "clue":
        if glyphs.has_figures(text):
            glyphs.clue(canvas, c.x, c.y, c.size, text, c.tile.ink, cls="clue")
        elif text in ARROW_CHARS:  # a lone arrow: white on a black cell (pzprjs's Makaro)
            glyphs.cell_arrow(canvas, c.x, c.y, c.size, text, c.tile.ink, cls=f"arrow {DIRECTIONS[text]}")
    elif name in ("arrow", "hollow_arrow"):
        mark = arrow_char(text) if name == "arrow" else text if text in ARROW_CHARS else ""
        if mark:
            glyphs.cell_arrow(canvas, c.x, c.y, c.size, mark, c.tile.ink, wide=name == "hollow_arrow",
                              hollow=name == "hollow_arrow", cls=f"arrow {DIRECTIONS[mark]}")
        elif glyphs.is_clue(text):  # another number, or a ?
            canvas.text(*c.at(0.5, 0.5), text, glyphs.number_size(text, c.size), c.tile.ink, cls="clue")
    elif name in glyphs.KANJI:
        glyphs.kanji(canvas, c.x, c.y, c.size, name, c.tile.ink, cls=f"kanji {name}")
    elif name == "star":
        glyphs.star(canvas, c.x, c.y, c.size, c.tile.ink, cls="star")
    elif name == "dot":
        canvas.ellipse(*c.at(0.5, 0.5), _DOT * c.size, _DOT * c.size, fill=c.tile.ink, cls="dot")
    elif name == "tip":
        if text in ARROW_CHARS:
            glyphs.pencil_tip(canvas, c.x, c.y, c.size, text, c.tile.ink, cls=f"tip {DIRECTIONS[text]}")
    elif name in ("circled", "filled"):
        glyphs.circle(canvas, c.x, c.y, c.size, c.tile.ink, name == "filled", cls=f"circle {name}")
        if glyphs.has_figures(text):
            glyphs.clue(canvas, c.x, c.y, c.size, text, "#ffffff" if name == "filled" else c.tile.ink, cls="clue")
    elif name == "crossed":
        glyphs.cross(canvas, c.x, c.y, c.size, c.tile.ink)
    elif name == "tree":
        glyphs.tree(canvas, c.x, c.y, c.size, c.tile.ink, cls="tree")
    elif name == "moon":
        glyphs.moon(canvas, c.x, c.y, c.size, c.tile.ink, cls="moon")
    elif name == "split":
        glyphs.split(canvas, c.x, c.y, c.size, text, c.tile.ink, cls="clue")
    elif name == "corner":
        if glyphs.has_figures(text):
            canvas.text(c.x + 0.22 * c.size, c.y + 0.2 * c.size, text, 0.28 * c.size, c.tile.ink, cls="clue corner")


# ---------------------------------------------------------------- a model's answer

def picture(model: Model, solution: Solution | None, cell: int = 32) -> Canvas:
    """Draw a compiled model's map and answer: in its plug-in's style when the plug-in declares
    one, else as the spec's ``draw`` statements say (:mod:`gridlang.language.looks`).

    Args:
        model: the compiled model (its grid, name, map path and spec's tiles are read).
        solution: the answer, or None for the bare map.
        cell: side of a cell, pixels.

    Returns:
        The canvas (see :func:`draw`).
    """
    # imported on use, not at start-up
    from gridlang.pictures.lookstyle import looks_style
    from gridlang.plugins import find_plugin

    impassable: set[str] = set()
    if model.source is not None:
        symbols = model.source[1]
        impassable = set(symbols.tags.get("impassable", ()))
    booleans = {d.name for d in model.decisions if tuple(d.values) == (True,)}
    lattices = {d.name: d.kind for d in model.decisions if d.kind != "cells"}
    base = default_style(model.grid, impassable)
    declared = find_plugin(model.name).style(model.grid, solution)
    if declared is None:
        declared = looks_style(model.grid, of_model(model))
    style = declared.over(base)
    where = Path(str(model.info.get("map", ""))).name
    title = f"{model.name}: {where}" if where else model.name
    return draw(model.grid, solution, style, cell, title, booleans, lattices)


def write_picture(canvas: Canvas, path: str | Path, fmt: str | None = None) -> str:
    """Write a drawing as SVG or PNG.

    Args:
        canvas: the drawing.
        path: the file.
        fmt: ``svg`` or ``png``; None to go by the file's suffix.

    Returns:
        ``svg`` or ``png``.

    Raises:
        ValueError: no format given and the suffix is neither.
        OSError: the file cannot be written.
    """
    suffix = f".{fmt}" if fmt else Path(path).suffix.lower()
    if suffix == ".svg":
        Path(path).write_text(canvas.to_svg(), encoding="utf-8")
        return "svg"
    if suffix == ".png":
        canvas.to_image().save(path, format="PNG")
        return "png"
    raise ValueError(f"cannot tell the picture format of {path}: name it .svg or .png")


def picture_data(canvas: Canvas, fmt: str) -> str | bytes:
    """A drawing as the contents of a file: the SVG document (text) or the PNG file (bytes).

    Raises:
        ValueError: ``fmt`` is neither ``svg`` nor ``png``.
    """
    if fmt == "svg":
        return canvas.to_svg()
    if fmt == "png":
        out = io.BytesIO()
        canvas.to_image().save(out, format="PNG")
        return out.getvalue()
    raise ValueError(f"unknown picture format {fmt!r}; choose svg or png")
