"""Pictures of enclose.horse maps and answers in the game's own colours.

Water is the game's deep blue with a lighter bank line along the shore and
a dark earth edge where grass lies above; grass is its green with lighter
grid lines and a few tufts; the frame is grass. The horse is a white
pixel-art horse, cherries two red fruit on a stem, the golden apple a
yellow fruit with a leaf, bees three striped bees; a portal is an oval in
its pair's colour (the game's ten portal colours for characters ``0`` to
``9``, then hues spaced around the wheel). Walls are dark timber blocks,
the horse's pen is shaded gold and outlined (a unicorn's pen pink).

The colours of water, grass and the ten portals were measured on the
game's screenshots (see ``gridlang/data/horse_colours.json``), so that a
picture drawn here reads back as the same map (:mod:`gridlang.formats.screens.imaging`).
"""

from __future__ import annotations

import colorsys
import zlib

from gridlang.core.grid import Grid
from gridlang.ir.solution import Solution
from gridlang.pictures.canvas import Canvas
from gridlang.pictures.draw import Cell, MarkStyle, RegionStyle, Style, TileStyle

GRASS = (53, 105, 63)
GRASS_TUFT = (67, 136, 79)
GRID_LINE = (79, 127, 91)
WATER = (19, 46, 70)
WATER_BANK = (42, 78, 107)
WATER_EDGE = (84, 43, 29)
WALL = (74, 56, 42)
WALL_LIGHT = (120, 92, 66)
WALL_DARK = (44, 32, 24)
PEN = (255, 222, 120)
PEN_OUTLINE = (255, 214, 92)
SECOND_PEN = (255, 170, 220)  # the unicorn's, when it has one of its own
SECOND_PEN_OUTLINE = (255, 150, 210)

PORTALS = (  # (main, light, dark, middle) per portal character 0-9, as the game draws them
    ((106, 185, 229), (167, 220, 249), (19, 53, 75), (74, 149, 195)),
    ((77, 88, 225), (154, 160, 246), (1, 7, 74), (38, 49, 192)),
    ((147, 79, 226), (197, 154, 246), (37, 2, 74), (113, 42, 192)),
    ((216, 86, 205), (238, 157, 232), (70, 8, 64), (184, 53, 171)),
    ((216, 86, 113), (238, 157, 175), (70, 8, 20), (184, 53, 77)),
    ((220, 139, 86), (243, 192, 158), (71, 32, 7), (187, 104, 52)),
    ((234, 233, 103), (252, 252, 164), (77, 77, 19), (200, 200, 73)),
    ((159, 232, 99), (203, 250, 163), (43, 76, 17), (125, 198, 69)),
    ((124, 231, 124), (175, 250, 182), (30, 76, 27), (96, 197, 90)),
    ((124, 231, 210), (175, 250, 237), (30, 76, 65), (96, 197, 176)),
)
PORTAL_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"

HORSE = (  # 18 x 14 pixel art, facing left: '#' white, 'o' the eye
    "...##.............",
    "..####............",
    ".##o###...........",
    "######............",
    "##..####..........",
    ".....####.......##",
    ".....###########.#",
    ".....###########..",
    ".....###########..",
    "......#########...",
    "......##.....##...",
    ".....##.#...##.#..",
    ".....#..#...#..#..",
    "....##..##.##..##.",
)
BEE = (  # 7 x 5: 'w' wing, 'k' black, 'y' yellow, 'g' dark grey
    ".ww.ww.",
    ".ww.ww.",
    "gykyyky",
    "gykyyky",
    ".g...g.",
)
BEE_INK = {"w": (149, 214, 218), "k": (0, 0, 0), "y": (249, 217, 73), "g": (54, 54, 54)}


def portal_colours(ch: str) -> tuple[tuple[int, int, int], ...]:
    """The four shades (main, light, dark, middle) of the portal with character ``ch``."""
    k = PORTAL_CHARS.find(ch)
    if 0 <= k < len(PORTALS):
        return PORTALS[k]
    hue = ((k if k >= 0 else ord(ch)) * 0.618034) % 1.0

    def shade(lightness: float) -> tuple[int, int, int]:
        return tuple(round(v * 255) for v in colorsys.hls_to_rgb(hue, lightness, 0.7))  # type: ignore[return-value]

    return shade(0.62), shade(0.82), shade(0.16), shade(0.5)


def _pixels(canvas: Canvas, c: Cell, art: tuple[str, ...], ink: dict[str, tuple[int, int, int]],
            left: float, top: float, scale: float) -> None:
    """Pixel art, one run of equal pixels per rectangle; ``scale`` in cells per art pixel."""
    px = scale * c.size
    for r, line in enumerate(art):
        k = 0
        while k < len(line):
            ch = line[k]
            end = k
            while end < len(line) and line[end] == ch:
                end += 1
            if ch in ink:
                x0 = round(c.x + left * c.size + k * px)
                x1 = round(c.x + left * c.size + end * px)
                y0 = round(c.y + top * c.size + r * px)
                y1 = round(c.y + top * c.size + (r + 1) * px)
                canvas.rect(x0, y0, max(1, x1 - x0), max(1, y1 - y0), fill=ink[ch])
            k = end


def paint_horse(canvas: Canvas, c: Cell) -> None:
    _pixels(canvas, c, HORSE, {"#": (255, 255, 255), "o": (0, 0, 0)}, 0.1, 0.16, 0.8 / 18)


def paint_unicorn(canvas: Canvas, c: Cell) -> None:
    paint_horse(canvas, c)
    canvas.polygon([c.at(0.19, 0.17), c.at(0.25, 0.17), c.at(0.16, 0.03)], fill=(255, 190, 230))


def paint_cherry(canvas: Canvas, c: Cell) -> None:
    stem, dark, red, shine = (36, 71, 48), (123, 22, 43), (171, 47, 46), (255, 255, 255)
    w = max(1.0, 0.05 * c.size)
    canvas.line([c.at(0.36, 0.55), c.at(0.5, 0.3), c.at(0.6, 0.2)], stem, w)
    canvas.line([c.at(0.66, 0.58), c.at(0.6, 0.35), c.at(0.6, 0.2)], stem, w)
    canvas.polygon([c.at(0.6, 0.2), c.at(0.78, 0.18), c.at(0.7, 0.28)], fill=stem)
    for u, v in ((0.36, 0.64), (0.66, 0.67)):
        canvas.ellipse(*c.at(u, v), 0.15 * c.size, 0.15 * c.size, fill=dark)
        canvas.ellipse(*c.at(u - 0.02, v - 0.02), 0.12 * c.size, 0.12 * c.size, fill=red)
        canvas.rect(*c.at(u - 0.08, v - 0.07), max(1, 0.04 * c.size), max(1, 0.04 * c.size), fill=shine)


def paint_apple(canvas: Canvas, c: Cell) -> None:
    gold, shade, shine, stem, leaf = (243, 226, 89), (209, 179, 76), (253, 245, 181), (67, 44, 33), (36, 71, 48)
    canvas.ellipse(*c.at(0.5, 0.58), 0.28 * c.size, 0.26 * c.size, fill=shade)
    canvas.ellipse(*c.at(0.47, 0.55), 0.23 * c.size, 0.22 * c.size, fill=gold)
    canvas.ellipse(*c.at(0.4, 0.47), 0.07 * c.size, 0.06 * c.size, fill=shine)
    canvas.line([c.at(0.5, 0.34), c.at(0.53, 0.2)], stem, max(1.0, 0.05 * c.size))
    canvas.polygon([c.at(0.53, 0.26), c.at(0.68, 0.2), c.at(0.6, 0.3)], fill=leaf)


def paint_bees(canvas: Canvas, c: Cell) -> None:
    for u, v in ((0.16, 0.2), (0.54, 0.16), (0.36, 0.56)):
        _pixels(canvas, c, BEE, BEE_INK, u, v, 0.3 / 7)


def paint_portal(canvas: Canvas, c: Cell) -> None:
    main, light, dark, middle = portal_colours(c.char)
    cx, cy = c.at(0.5, 0.5)
    rx, ry = 0.22 * c.size, 0.33 * c.size
    for colour, k in ((dark, 1.0), (middle, 0.88), (main, 0.79), (light, 0.57)):
        canvas.ellipse(cx, cy, rx * k, ry * k, fill=colour)
    canvas.ellipse(cx - 0.03 * c.size, cy - 0.08 * c.size, max(1.0, 0.03 * c.size), max(1.0, 0.03 * c.size),
                   fill=(255, 255, 255))


def paint_water(canvas: Canvas, c: Cell) -> None:
    """The bank: a lighter line just inside every side that meets land or the map's edge,
    and dark earth along a side with land above."""
    grid, i, s = c.grid, c.index, c.size
    r, col = divmod(i, grid.cols)

    def water(rr: int, cc: int) -> bool:
        return 0 <= rr < grid.rows and 0 <= cc < grid.cols and grid.chars[rr * grid.cols + cc] == "~"

    w = max(3, round(0.06 * s))
    inset = round(0.1 * s)
    sides = {"up": water(r - 1, col), "down": water(r + 1, col), "left": water(r, col - 1), "right": water(r, col + 1)}
    x0, y0, x1, y1 = c.x + inset, c.y + inset, c.x + s - inset - w, c.y + s - inset - w
    if not sides["up"]:
        canvas.rect(c.x, c.y, s, max(1, round(0.06 * s)), fill=WATER_EDGE)
        canvas.rect(c.x if sides["left"] else x0, y0, (c.x + s if sides["right"] else x1 + w) - (c.x if sides["left"] else x0), w,
                    fill=WATER_BANK)
    if not sides["down"]:
        canvas.rect(c.x if sides["left"] else x0, y1, (c.x + s if sides["right"] else x1 + w) - (c.x if sides["left"] else x0), w,
                    fill=WATER_BANK)
    if not sides["left"]:
        canvas.rect(x0, c.y if sides["up"] else y0, w, (c.y + s if sides["down"] else y1 + w) - (c.y if sides["up"] else y0),
                    fill=WATER_BANK)
    if not sides["right"]:
        canvas.rect(x1, c.y if sides["up"] else y0, w, (c.y + s if sides["down"] else y1 + w) - (c.y if sides["up"] else y0),
                    fill=WATER_BANK)


def paint_grass(canvas: Canvas, c: Cell) -> None:
    """A tuft on about one grass cell in four (chosen by the cell's place, the same every time)."""
    if zlib.crc32(f"{c.index}".encode()) % 4:
        return
    w = max(1, round(0.04 * c.size))
    for u, v in ((0.62, 0.66), (0.72, 0.66), (0.82, 0.66)):
        canvas.line([c.at(u, v), c.at(u + 0.06, v - 0.1)], GRASS_TUFT, w)


def paint_wall(canvas: Canvas, c: Cell) -> None:
    """A timber block: dark frame, a lighter top and left, the face in :data:`WALL`."""
    s = c.size
    e = max(1, round(0.08 * s))
    canvas.rect(c.x + e, c.y + e, s - 2 * e, s - 2 * e, fill=WALL_DARK)
    canvas.rect(c.x + 2 * e, c.y + 2 * e, s - 4 * e, s - 4 * e, fill=WALL_LIGHT)
    canvas.rect(c.x + 3 * e, c.y + 3 * e, s - 5 * e, s - 5 * e, fill=WALL)
    plank = max(1, round(0.04 * s))
    canvas.rect(c.x + 3 * e, round(c.y + 0.5 * s - plank / 2), s - 5 * e, plank, fill=WALL_DARK)


def style(grid: Grid, solution: Solution | None = None) -> Style:
    """The game's look for ``grid``: tiles by map character, walls, the pen
    (a second region, the unicorn's pen, in pink)."""
    grass = TileStyle(GRASS, "grass")
    chars = {
        ".": grass,
        "~": TileStyle(WATER, "water", lines=False),
        "H": TileStyle(GRASS, "horse"),
        "U": TileStyle(GRASS, "unicorn"),
        "C": TileStyle(GRASS, "cherry"),
        "G": TileStyle(GRASS, "apple"),
        "S": TileStyle(GRASS, "bees"),
    }
    for ch in set(grid.chars) - set(chars):
        chars[ch] = TileStyle(GRASS, "portal")
    return Style(
        background=GRASS, frame=0.25, grid=GRID_LINE, grid_width=0, chars=chars,
        bool_mark=MarkStyle("wall", WALL),
        any_region=RegionStyle(PEN, 0.3, PEN_OUTLINE, 0.06),
        regions={name: RegionStyle(SECOND_PEN, 0.3, SECOND_PEN_OUTLINE, 0.06)
                 for name in list(solution.regions if solution else ())[1:2]},
        painters={"horse": paint_horse, "unicorn": paint_unicorn, "cherry": paint_cherry, "apple": paint_apple,
                  "bees": paint_bees, "portal": paint_portal, "water": paint_water, "grass": paint_grass,
                  "wall": paint_wall},
    )
