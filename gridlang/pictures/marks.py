"""The answer's layers of a picture: marks on cells, tints, lines on edges, thick borders.

:func:`gridlang.pictures.draw.draw` calls these for an answer's decisions: a
Boolean decision's true cells as marks (a shade, a star, a lamp and the
cells it lights, stones, ...), an enumeration's values as tints, labels,
digits, letters or paths, decisions on edges as lines and bridges that stop
at the edge of a circle or a number (:mod:`gridlang.pictures.strokes`) or as walls,
and the thick borders between rooms, blocks and areas of equal values with
the chassis around the grid.
"""

from __future__ import annotations

from gridlang.core.clues import ARROWS
from gridlang.core.grid import Grid
from gridlang.core.nodes import replace
from gridlang.ir.solution import Solution
from gridlang.language.looks import DIRECTION_NAMES, arrow_char, figures, letter, symbol
from gridlang.pictures import glyphs, strokes
from gridlang.pictures.canvas import Canvas
from gridlang.pictures.style import Cell, MarkStyle, Style, hashed_colour, mark_style

_TRIANGLE_CORNERS = {"◣": ((0, 0), (0, 1), (1, 1)), "◢": ((1, 0), (1, 1), (0, 1)),
                     "◥": ((0, 0), (1, 0), (1, 1)), "◤": ((0, 0), (1, 0), (0, 1))}
"""Each triangle's three corners in cell units (across, down): its right angle's corner and the two beside it."""


DIRECTIONS = ARROWS
"""The SVG class of an arrow's direction, by its character."""


def css(name: object) -> str:
    """A name made fit for an SVG class: every character but letters, digits, ``-`` and ``_`` as ``-``."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in str(name))


def shows(c: Cell) -> bool:
    """Whether a cell's glyph writes a clue (a text a line must not cross, an answer must leave alone)."""
    text = str(c.char)
    glyph = c.tile.glyph
    if glyph in ("char", "text"):
        return glyphs.is_clue(text)
    if glyph in ("clue", "circled", "filled", "split", "letter"):
        return glyphs.has_figures(text)
    if glyph == "symbols":
        return bool(symbol(text))
    if glyph in ("arrow", "hollow_arrow"):
        return glyphs.is_clue(text)
    return False


def decision_kinds(solution: Solution | None, booleans: set[str] | None) -> dict[str, tuple[bool, int]]:
    """Decision name -> (Boolean?, its place among the Boolean decisions)."""
    out, k = {}, 0
    for name, values in (solution.decisions.items() if solution else ()):
        boolean = name in booleans if booleans is not None else all(v is True for v in values.values())
        out[name] = (boolean, k)
        k += boolean
    return out


def _value_style(style: Style, name: str, value: object, base: MarkStyle) -> MarkStyle:
    """The style of one value of an enumeration, ``auto`` and ``tints`` resolved."""
    ms = style.marks.get(f"{name}={value}") or base
    if ms.shape == "auto":
        if isinstance(value, int) or len(str(value)) <= 2:
            return replace(ms, shape="label")
        return replace(ms, shape="none", fill=ms.fill or hashed_colour(f"{name}={value}", 0.82, 0.55))
    if ms.shape == "tints":
        return replace(ms, shape="none", fill=ms.fill or hashed_colour(f"{name}={value}", 0.82, 0.55))
    return ms


def tints(canvas: Canvas, cells: list[Cell], style: Style, name: str, values: dict[int, object],
           base: MarkStyle) -> None:
    """The tints of an enumeration's values (the style's ``value_fill``, else each value's own fill)."""
    by_value: dict[object, list[int]] = {}
    for i, v in sorted(values.items()):
        by_value.setdefault(v, []).append(i)
    for v, cs in by_value.items():
        colour = style.value_fill.get(v) or _value_style(style, name, v, base).fill
        if colour is None:
            continue
        with canvas.group(f"tint {css(name)}-{css(v)}"):
            for i in cs:
                canvas.rect(cells[i].x, cells[i].y, cells[i].size, cells[i].size, fill=colour)


def area(canvas: Canvas, grid: Grid, cells: list[Cell], name: str, values: dict[int, object],
          ms: MarkStyle) -> None:
    """A Boolean decision whose cells are filled: shaded, tinted, or lit by a lamp."""
    chosen = sorted(i for i, v in values.items() if v is True)
    if ms.shape == "bulb":
        lit = _lit(grid, cells, set(chosen))
        with canvas.group(f"lit {css(name)}"):
            for i in sorted(lit):
                canvas.rect(cells[i].x, cells[i].y, cells[i].size, cells[i].size, fill=ms.fill or "#c0ff7f")
        return
    with canvas.group(f"decision decision-{css(name)}"):
        for i in chosen:
            canvas.rect(cells[i].x, cells[i].y, cells[i].size, cells[i].size, fill=ms.colour,
                        cls=f"mark {css(name)}")


def _lit(grid: Grid, cells: list[Cell], lamps: set[int]) -> set[int]:
    """The cells lamps light: each lamp's own, and along its row and column up to a solid cell."""
    out = set(lamps)
    for i in lamps:
        r, c = divmod(i, grid.cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < grid.rows and 0 <= cc < grid.cols and not cells[rr * grid.cols + cc].tile.solid:
                out.add(rr * grid.cols + cc)
                rr, cc = rr + dr, cc + dc
    return out


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
    elif ms.shape in ("tint", "shade"):
        canvas.rect(c.x, c.y, s, s, fill=ms.colour, cls=cls)
    elif ms.shape == "star":
        glyphs.star(canvas, c.x, c.y, s, ms.colour, cls=cls)
    elif ms.shape == "tent":
        glyphs.tent(canvas, c.x, c.y, s, ms.colour, cls=cls)
    elif ms.shape == "bulb":
        glyphs.bulb(canvas, c.x, c.y, s, ms.colour, cls=cls)
    elif ms.shape in ("circle", "disc"):
        glyphs.circle(canvas, c.x, c.y, s, ms.colour, ms.shape == "disc", cls=cls)


def decision(canvas: Canvas, grid: Grid, cells: list[Cell], style: Style, name: str,
              values: dict[int, object], base: MarkStyle, boolean: bool) -> None:
    """A decision on cells: a Boolean one's true cells as marks (one element of class ``mark NAME``
    each), stones or a path; an enumeration's groups outlined, its values as labels, digits,
    letters, paths or marks (``areas`` are drawn with the borders)."""
    if boolean:
        ms = base
        if ms.shape == "path":
            _path(canvas, grid, cells, set(values), ms, f"path {css(name)}")
            return
        if ms.shape == "none":
            return
        with canvas.group(f"decision decision-{css(name)}"):
            if ms.shape == "stones":
                for c in cells:
                    if not c.tile.solid and not shows(c):
                        black = values.get(c.index) is True
                        glyphs.circle(canvas, c.x, c.y, c.size, ms.colour, black,
                                      cls=f"mark {css(name)}" if black else f"white-stone {css(name)}")
                return
            for i in sorted(values):
                _mark(canvas, cells[i], ms, style, f"mark {css(name)}")
        return
    if base.shape == "areas":  # drawn with the borders
        return
    by_value: dict[object, list[int]] = {}
    for i, v in sorted(values.items()):
        by_value.setdefault(v, []).append(i)
    with canvas.group(f"decision decision-{css(name)}"):
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
                canvas.segments(pairs, base.outline, max(1.0, 0.06 * cells[0].size), cls=f"outline {css(name)}")
        for v, cs in by_value.items():
            ms = _value_style(style, name, v, base)
            cls = f"{css(name)}-{css(v)}"
            if ms.shape == "slants":
                if v in ("/", "\\"):  # from corner to corner of the cell (pzprjs's drawSlashes)
                    ends = ((0, 1), (1, 0)) if v == "/" else ((0, 0), (1, 1))
                    kind = "forward" if v == "/" else "backward"
                    canvas.segments([(cells[i].at(*ends[0]), cells[i].at(*ends[1])) for i in cs], ms.colour,
                                    max(1.0, (ms.width or 0.1) * cells[0].size), cls=f"slant {css(name)} {kind}")
            elif ms.shape == "triangles":
                if v in _TRIANGLE_CORNERS:  # the half of the cell it covers (pzprjs's drawTriangle)
                    kind = "triangle " + {"◣": "bottom-left", "◢": "bottom-right", "◥": "top-right",
                                          "◤": "top-left"}[v]
                    for i in cs:
                        canvas.polygon([cells[i].at(*uv) for uv in _TRIANGLE_CORNERS[v]], fill=ms.colour,
                                       cls=f"{kind} {css(name)}")
            elif ms.shape in ("arrows", "tips"):
                mark = arrow_char(v) if isinstance(v, int) or v in DIRECTION_NAMES else ""
                draw = glyphs.cell_arrow if ms.shape == "arrows" else glyphs.pencil_tip
                kind = "arrow" if ms.shape == "arrows" else "tip"
                for i in cs if mark else ():
                    if not shows(cells[i]) and not cells[i].tile.solid and cells[i].tile.lines \
                            and cells[i].tile.glyph != "tip":  # a tip the map gives is drawn as given
                        draw(canvas, cells[i].x, cells[i].y, cells[i].size, mark, ms.colour,
                             cls=f"{kind} {DIRECTIONS[mark]} {cls}")
            elif ms.shape == "path":
                _path(canvas, grid, cells, set(cs), ms, f"path {cls}")
            elif ms.shape == "label":
                for i in cs:
                    if cells[i].tile.glyph is None:
                        canvas.text(*cells[i].at(0.5, 0.5), _label(v), 0.45 * cells[i].size, ms.colour,
                                    cls=f"label {cls}")
            elif ms.shape in ("number", "letters", "symbols", "blocks"):
                text = letter(v) if ms.shape == "letters" else symbol(v) if ms.shape == "symbols" else figures(v)
                for i in cs:
                    if text and not shows(cells[i]) and not cells[i].tile.solid and cells[i].tile.lines:
                        canvas.text(*cells[i].at(0.5, 0.5), text, glyphs.number_size(text, cells[i].size),
                                    ms.colour, cls=f"label {cls}")
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


def _stops(cells: list[Cell]) -> dict[tuple[int, int], strokes.Stop]:
    """What a line entering each cell stops at: the edge of its circle, or of the square its clue takes."""
    out = {}
    for c in cells:
        glyph, s = c.tile.glyph, c.size
        where = divmod(c.index, c.grid.cols)
        if glyph in ("circled", "filled"):
            out[where] = strokes.Stop("circle", glyphs.CIRCLE_RADIUS * s)
        elif glyph == "ring":
            out[where] = strokes.Stop("circle", 0.36 * s)
        elif glyph == "disc":
            out[where] = strokes.Stop("circle", 0.3 * s)
        elif c.tile.solid:
            out[where] = strokes.Stop("box", 0.5 * s)
        elif shows(c):
            out[where] = strokes.Stop("box", glyphs.TEXT_BOX * s)
    return out


def edges(canvas: Canvas, cells: list[Cell], style: Style, name: str, kind: str, values: dict,
           pad: int, ms: MarkStyle) -> None:
    """A decision on edges: lines or bridges between cells (or along the grid), or walls."""
    if ms.shape in ("none", "hidden") or not cells:
        return
    s = cells[0].size
    corners = kind == "corners"
    if ms.shape == "walls":
        pairs = strokes.edge_walls(values, pad, s, corners)
        width = (style.border_width or 0.09) * s
        canvas.segments(pairs, ms.colour, max(2.0, width), cls=f"walls {css(name)}")
        return
    if corners:
        pairs = strokes.corner_lines(values, pad, s)
    else:
        pairs = strokes.cell_lines(values, pad, s, _stops(cells), 0.25 if ms.shape == "bridges" else 0.3)
    width = max(1.0, (ms.width if ms.shape in ("line", "bridges") else 0.12) * s)
    canvas.segments(pairs, ms.colour, width, cls=f"line {css(name)}")


def borders(canvas: Canvas, grid: Grid, cells: list[Cell], style: Style, on_cells: dict, kinds: dict,
             pad: int, cell: int) -> None:
    """Thick borders: between rooms, around blocks, between areas of a decision's equal values; the chassis."""
    groups = []
    if style.borders is not None and grid.rooms and not style.cages and not style.hidden_rooms:
        groups.append(("rooms", strokes.borders(grid.rows, grid.cols, lambda i: grid.rooms[i], pad, cell)))
    if style.borders is not None and grid.rooms and style.cages:
        lines = strokes.cage_lines(grid.rows, grid.cols, lambda i: grid.rooms[i], pad, cell, 0.1 * cell)
        canvas.segments(strokes.dashes(lines, 0.12 * cell, 0.08 * cell), style.borders, max(1.0, cell / 24),
                        cls="cages")
    outside = style.outside or frozenset()
    inner = [i for i in range(grid.size) if i not in outside]
    if style.borders is not None and style.blocks and inner:
        r0, c0 = divmod(inner[0], grid.cols)
        for h, w in style.blocks:
            def block(i: int, h=h, w=w):
                if i in outside:
                    return None
                r, c = divmod(i, grid.cols)
                return ((r - r0) // h, (c - c0) // w)

            groups.append(("blocks", strokes.borders(grid.rows, grid.cols, block, pad, cell)))
    for name, values in on_cells.items():
        if not kinds[name][0] and mark_style(style, name, False).shape in ("areas", "blocks"):
            groups.append((f"areas {css(name)}", strokes.borders(grid.rows, grid.cols, values.get, pad, cell)))
    boxed = [i for i in range(grid.size) if i not in outside or cells[i].tile.solid]
    if style.borders is not None and boxed and not style.corner_dots and not style.dashed_grid:  # the chassis
        r0, r1 = boxed[0] // grid.cols, boxed[-1] // grid.cols
        c0, c1 = min(i % grid.cols for i in boxed), max(i % grid.cols for i in boxed)
        groups.append(("chassis", strokes.outline(r0, c0, r1, c1, pad, cell)))
    groups = [(cls, pairs) for cls, pairs in groups if pairs]
    if not groups:
        return
    width = max(2.0, round((style.border_width or 0.09) * cell))
    with canvas.group("borders"):
        for cls, pairs in groups:
            canvas.segments(pairs, style.borders or "#000000", width, cls=cls)
