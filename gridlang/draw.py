"""Pictures of a map and its answer, as SVG or PNG.

:func:`draw` lays a grid out on a :class:`~gridlang.canvas.Canvas`, one
square of ``cell`` pixels per cell inside a frame, in layers:

1. ``tiles``: one square per cell, filled by its tile kind;
2. ``tints``: cells filled by an enumeration's value;
3. ``grid-lines``: the lines between cells (skipped along tiles that say so);
4. ``regions``: each region's cells shaded (a group with an opacity);
5. ``glyphs``: a tile's glyph (its map character, a disc, or a painter the
   style defines);
6. ``region-outlines``: the edges between a region's cells and the others;
7. ``decisions``: a Boolean decision's true cells as marks (one element per
   cell); an enumeration's values as labels and paths joining side-adjacent
   cells of one value, and outlines around groups of equal values.

What each of these looks like is a :class:`Style`. A puzzle's plug-in may
declare one (:meth:`gridlang.plugins.Plugin.style`); whatever it leaves out
comes from :func:`default_style`, which gives each tile kind, decision and
region a colour hashed from its name (the same name, the same colour, run
after run) and shows the map character on every tile but the most common.

:func:`picture` draws a compiled model's answer with its plug-in's style;
:func:`write_picture` writes it to a ``.svg`` or ``.png`` file.
"""

from __future__ import annotations

import colorsys
import hashlib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .canvas import Canvas, Colour
from .grid import Grid
from .solution import Solution

if TYPE_CHECKING:
    from .ir import Model


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
        glyph: what is drawn on it: None, ``char`` (its map character),
            ``disc``, ``ring``, or the name of a painter of the style.
        ink: the glyph's colour.
        lines: grid lines are drawn along the cell's sides.
    """

    fill: Colour
    glyph: str | None = None
    ink: Colour = "#202020"
    lines: bool = True


@dataclass(frozen=True)
class MarkStyle:
    """How the cells of one decision value are drawn.

    Attributes:
        shape: ``block`` (a filled square), ``dot``, ``cross``, ``label``
            (the value as text, left off cells whose tile has a glyph),
            ``path`` (lines joining side-adjacent cells of the value),
            ``auto`` (a label for numbers and short names, else a tint
            hashed from the value), ``none``, or the name of a painter of the
            style.
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


# ---------------------------------------------------------------- drawing

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

    Returns:
        The canvas, ``cols * cell + 2 * frame`` by ``rows * cell + 2 * frame``
        pixels, where the frame is ``round(style.frame * cell)``.
    """
    if cell < 4:
        raise ValueError(f"a cell of {cell} pixels is too small to draw (4 at least)")
    style = style or default_style(grid)
    pad = int(round((style.frame or 0) * cell))
    canvas = Canvas(grid.cols * cell + 2 * pad, grid.rows * cell + 2 * pad, style.background, title)
    cells = [Cell(grid, i, pad + (i % grid.cols) * cell, pad + (i // grid.cols) * cell, cell, style.tile(grid, i))
             for i in range(grid.size)]
    with canvas.group("tiles"):
        for c in cells:
            canvas.rect(c.x, c.y, cell, cell, fill=c.tile.fill, cls=f"tile tile-{_css(grid.tiles[c.index])}")
    kinds = _decision_kinds(solution, booleans)
    if solution is not None:
        tints = [(name, values) for name, values in solution.decisions.items() if not kinds[name][0]]
        if tints:
            with canvas.group("tints"):
                for name, values in tints:
                    _tints(canvas, cells, style, name, values, mark_style(style, name, False))
    _grid_lines(canvas, grid, cells, style, cell, pad)
    regions = solution.regions if solution else {}
    if regions:
        with canvas.group("regions"):
            for name, members in regions.items():
                rs = region_style(style, name)
                if rs.fill is None or not members:
                    continue
                with canvas.group(f"region region-{_css(name)}", rs.opacity):
                    for i in sorted(members):
                        canvas.rect(cells[i].x, cells[i].y, cell, cell, fill=rs.fill)
    with canvas.group("glyphs"):
        for c in cells:
            if c.tile.glyph:
                with canvas.group(f"glyph glyph-{_css(c.tile.glyph)}"):
                    _glyph(canvas, c, style)
    if regions:
        with canvas.group("region-outlines"):
            for name, members in regions.items():
                rs = region_style(style, name)
                if rs.outline is None or not members:
                    continue
                canvas.segments(_boundary(grid, cells, set(members)), rs.outline, max(1.0, rs.width * cell),
                                cls=f"outline region-{_css(name)}")
    if solution is not None:
        with canvas.group("decisions"):
            for name, values in solution.decisions.items():
                boolean, k = kinds[name]
                if lattices and name in lattices:  # a decision on edges: its chosen edges as line segments
                    ms = mark_style(style, name, boolean, k)
                    at = 0.5 if lattices[name] == "edges" else 0.0
                    pairs = [pair for key, v in sorted(values.items())
                             for pair in _edge_strokes(key, v, pad, at, cell)]
                    canvas.segments(pairs, ms.colour, max(1.0, 0.12 * cell), cls=f"line {_css(name)}")
                    continue
                _decision(canvas, grid, cells, style, name, values, mark_style(style, name, boolean, k), boolean)
    return canvas


def _edge_strokes(key, value, pad: float, at: float, cell: float) -> list[tuple[tuple[float, float], ...]]:
    """The segments of one edge of a decision on edges: one when chosen (True, or the value 1),
    ``n`` side by side for the value ``n`` (two bridges), none for 0 or False."""
    n = 1 if value is True else value if type(value) is int and value > 0 else 0
    (r1, c1), (r2, c2) = key
    ends = [(pad + (c + at) * cell, pad + (r + at) * cell) for r, c in ((r1, c1), (r2, c2))]
    gap = 0.3 * cell
    out = []
    for k in range(n):
        shift = (k - (n - 1) / 2) * gap  # across the edge: vertical for a horizontal edge
        dx, dy = (0.0, shift) if r1 == r2 else (shift, 0.0)
        out.append(tuple((x + dx, y + dy) for x, y in ends))
    return out


def _decision_kinds(solution: Solution | None, booleans: set[str] | None) -> dict[str, tuple[bool, int]]:
    """Decision name -> (Boolean?, its place among the Boolean decisions)."""
    out, k = {}, 0
    for name, values in (solution.decisions.items() if solution else ()):
        boolean = name in booleans if booleans is not None else all(v is True for v in values.values())
        out[name] = (boolean, k)
        k += boolean
    return out


def _value_style(style: Style, name: str, value: object, base: MarkStyle) -> MarkStyle:
    """The style of one value of an enumeration, ``auto`` resolved."""
    ms = style.marks.get(f"{name}={value}") or base
    if ms.shape == "auto":
        if isinstance(value, int) or len(str(value)) <= 2:
            return replace(ms, shape="label")
        return replace(ms, shape="none", fill=ms.fill or hashed_colour(f"{name}={value}", 0.82, 0.55))
    return ms


def _tints(canvas: Canvas, cells: list[Cell], style: Style, name: str, values: dict[int, object],
           base: MarkStyle) -> None:
    by_value: dict[object, list[int]] = {}
    for i, v in sorted(values.items()):
        by_value.setdefault(v, []).append(i)
    for v, cs in by_value.items():
        colour = style.value_fill.get(v) or _value_style(style, name, v, base).fill
        if colour is None:
            continue
        with canvas.group(f"tint {_css(name)}-{_css(v)}"):
            for i in cs:
                canvas.rect(cells[i].x, cells[i].y, cells[i].size, cells[i].size, fill=colour)


def _css(name: object) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in str(name))


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
        with canvas.group("grid-lines"):
            canvas.segments(pairs, style.grid, width, cls="grid")


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
    if painter is not None:
        painter(canvas, c)
    elif name == "char":
        canvas.text(*c.at(0.5, 0.5), c.char, 0.6 * c.size, c.tile.ink, bold=True)
    elif name == "disc":
        canvas.ellipse(*c.at(0.5, 0.5), 0.3 * c.size, 0.3 * c.size, fill=c.tile.ink)
    elif name == "ring":
        canvas.ellipse(*c.at(0.5, 0.5), 0.36 * c.size, 0.36 * c.size, stroke=c.tile.ink,
                       width=max(1.0, 0.08 * c.size))


def _mark(canvas: Canvas, c: Cell, ms: MarkStyle, style: Style, cls: str) -> None:
    painter = style.painters.get(ms.shape)
    s = c.size
    if painter is not None:
        with canvas.group(cls):
            painter(canvas, c)
    elif ms.shape == "block":
        canvas.rect(c.x + 0.1 * s, c.y + 0.1 * s, 0.8 * s, 0.8 * s, fill=ms.colour, cls=cls)
    elif ms.shape == "dot":
        canvas.ellipse(*c.at(0.5, 0.5), 0.22 * s, 0.22 * s, fill=ms.colour, cls=cls)
    elif ms.shape == "cross":
        w = max(1.0, ms.width * s)
        canvas.segments([(c.at(0.2, 0.2), c.at(0.8, 0.8)), (c.at(0.8, 0.2), c.at(0.2, 0.8))], ms.colour, w, cls=cls)
    elif ms.shape == "tint":
        canvas.rect(c.x, c.y, s, s, fill=ms.colour, cls=cls)


def _decision(canvas: Canvas, grid: Grid, cells: list[Cell], style: Style, name: str,
              values: dict[int, object], base: MarkStyle, boolean: bool) -> None:
    if boolean:
        ms = base
        if ms.shape == "path":
            _path(canvas, grid, cells, set(values), ms, f"path {_css(name)}")
            return
        with canvas.group(f"decision decision-{_css(name)}"):
            for i in sorted(values):
                _mark(canvas, cells[i], ms, style, f"mark {_css(name)}")
        return
    by_value: dict[object, list[int]] = {}
    for i, v in sorted(values.items()):
        by_value.setdefault(v, []).append(i)
    with canvas.group(f"decision decision-{_css(name)}"):
        if base.outline is not None:
            pairs = []
            for i, v in values.items():
                r, col = divmod(i, grid.cols)
                c = cells[i]
                if col + 1 < grid.cols and i + 1 in values and values[i + 1] != v:
                    pairs.append((c.at(1, 0), c.at(1, 1)))
                if r + 1 < grid.rows and i + grid.cols in values and values[i + grid.cols] != v:
                    pairs.append((c.at(0, 1), c.at(1, 1)))
                pairs.extend(side for side, edge in (((c.at(0, 0), c.at(1, 0)), r == 0),
                                                     ((c.at(0, 1), c.at(1, 1)), r == grid.rows - 1),
                                                     ((c.at(0, 0), c.at(0, 1)), col == 0),
                                                     ((c.at(1, 0), c.at(1, 1)), col == grid.cols - 1)) if edge)
            if pairs:
                canvas.segments(pairs, base.outline, max(1.0, 0.06 * cells[0].size), cls=f"outline {_css(name)}")
        for v, cs in by_value.items():
            ms = _value_style(style, name, v, base)
            cls = f"{_css(name)}-{_css(v)}"
            if ms.shape == "path":
                _path(canvas, grid, cells, set(cs), ms, f"path {cls}")
            elif ms.shape == "label":
                for i in cs:
                    if cells[i].tile.glyph is None:
                        canvas.text(*cells[i].at(0.5, 0.5), _label(v), 0.45 * cells[i].size, ms.colour,
                                    cls=f"label {cls}")
            elif ms.shape != "none":
                for i in cs:
                    _mark(canvas, cells[i], ms, style, f"mark {cls}")


def _label(v: object) -> str:
    return str(v)


def _path(canvas: Canvas, grid: Grid, cells: list[Cell], members: set[int], ms: MarkStyle, cls: str) -> None:
    pairs = []
    for i in sorted(members):
        r, col = divmod(i, grid.cols)
        if col + 1 < grid.cols and i + 1 in members:
            pairs.append((cells[i].at(0.5, 0.5), cells[i + 1].at(0.5, 0.5)))
        if r + 1 < grid.rows and i + grid.cols in members:
            pairs.append((cells[i].at(0.5, 0.5), cells[i + grid.cols].at(0.5, 0.5)))
    size = cells[0].size if cells else 1
    if pairs:
        canvas.segments(pairs, ms.colour, max(1.0, ms.width * size), cls=cls)
    else:
        for i in members:
            canvas.ellipse(*cells[i].at(0.5, 0.5), ms.width * size, ms.width * size, fill=ms.colour, cls=cls)


# ---------------------------------------------------------------- a model's answer

def picture(model: Model, solution: Solution | None, cell: int = 32) -> Canvas:
    """Draw a compiled model's map and answer in its plug-in's style.

    Args:
        model: the compiled model (its grid, name, map path and spec's tiles are read).
        solution: the answer, or None for the bare map.
        cell: side of a cell, pixels.

    Returns:
        The canvas (see :func:`draw`).
    """
    from .plugins import find_plugin

    impassable: set[str] = set()
    if model.source is not None:
        symbols = model.source[1]
        impassable = set(symbols.tags.get("impassable", ()))
    booleans = {d.name for d in model.decisions if tuple(d.values) == (True,)}
    lattices = {d.name: d.kind for d in model.decisions if d.kind != "cells"}
    base = default_style(model.grid, impassable)
    declared = find_plugin(model.name).style(model.grid, solution)
    style = declared.over(base) if declared is not None else base
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
