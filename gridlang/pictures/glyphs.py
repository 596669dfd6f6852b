"""What is drawn inside one cell: clue texts the pzprjs way, and the marks of answers.

Every function draws on a :class:`~gridlang.pictures.canvas.Canvas` inside the
square of one cell, given as its top-left corner ``(x, y)`` and side ``s``
in pixels; sizes are fractions of ``s``. The placements follow pzprjs's
(puzz.link's) drawings, measured from its ``Graphic`` code: an arrow beside
its number (``drawArrowNumbers``), up to four small numbers around the
centre (``drawTapaNumbers``), Kakuro's split cell with the across sum at the
top right and the down sum at the bottom left (``drawQuesNumbersOn51``).

A clue's text is the map cell's token (:mod:`gridlang.formats.layers`): ``7``,
``?``, a list ``1,3,3``, an arrow and a number ``^2`` (``^`` up, ``v``
down, ``<`` left, ``>`` right).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the text picture imports this module; only a drawing imports the canvas (and its XML writer)
    from gridlang.pictures.canvas import Canvas, Colour

CIRCLE_RADIUS = 0.4
"""The radius of a circle or disc on a cell, in cells (pzprjs: 0.35 to 0.47)."""

TEXT_BOX = 0.35
"""Half the side of the square a number takes, in cells: lines stop there (pzprjs numlin: 0.35)."""

_ARROW = re.compile(r"([\^v<>])([0-9]+|\?)\Z")
_LIST = re.compile(r"(?:[0-9]+|\?)(?:,(?:[0-9]+|\?))+\Z")
_ARROWS = {"^": (0, -1), "v": (0, 1), "<": (-1, 0), ">": (1, 0)}


# pzprjs's drawCellArrows (src/variety-common/Graphic.js), in cells: the length from the centre to the tip and
# to the tail, the shaft's half-width, the head's base measured from the centre towards the tip, and the head's
# half-width; the shaft at least 1 pixel wide and the head 5, as there.
_THIN_ARROW = (0.4, 0.03, 0.16, 0.16)
_WIDE_ARROW = (0.35, 0.12, 0.0, 0.35)

# Where the entries of a list of 1 to 4 small numbers stand (fractions of a cell from its centre),
# and their size: as pzprjs's Tapa clues.
_LIST_PLACES = {
    1: ((0.0, 0.0),),
    2: ((-0.2, -0.2), (0.2, 0.2)),
    3: ((-0.25, -0.2), (0.25, -0.2), (0.0, 0.2)),
    4: ((-0.27, 0.0), (0.0, -0.25), (0.27, 0.0), (0.0, 0.25)),
}
_LIST_SIZE = {1: 0.6, 2: 0.42, 3: 0.36, 4: 0.32}


def number_size(text: str, s: float) -> float:
    """The font size of a number of ``len(text)`` characters in a cell of side ``s``, pixels."""
    return s * (0.62 if len(text) <= 2 else 0.46 if len(text) == 3 else 0.36)


def has_figures(text: str) -> bool:
    """Whether a clue's text has something to write: a figure or ``?`` (not ``.``, ``#``, ``+``)."""
    return any(ch.isdigit() or ch == "?" for ch in text)


def is_clue(text: str) -> bool:
    """Whether a cell's text is a clue to show: anything but the empty cell ``.``."""
    return bool(text) and text != "."


def clue(canvas: Canvas, x: float, y: float, s: float, text: str, ink: Colour, cls: str | None = None) -> None:
    """A clue's text in a cell: an arrow beside its number, a list of small numbers, or the text centred.

    Args:
        canvas: where to draw.
        x, y: the cell's top-left corner, pixels.
        s: the cell's side, pixels.
        text: the cell's token.
        ink: the colour.
        cls: the SVG class of the texts.
    """
    cx, cy = x + s / 2, y + s / 2
    arrow = _ARROW.match(text)
    if arrow:
        mark, number = arrow.groups()
        dx, dy = _ARROWS[mark]
        size = s * 0.5
        if dx == 0:  # up or down: the arrow stands right of the number
            canvas.text(cx - 0.1 * s, cy, number, size, ink, cls=cls)
            _arrow(canvas, x + 0.8 * s, cy, dx, dy, 0.3 * s, ink, cls)
        else:  # left or right: the arrow stands above the number
            canvas.text(cx, cy + 0.12 * s, number, size, ink, cls=cls)
            _arrow(canvas, cx, y + 0.2 * s, dx, dy, 0.3 * s, ink, cls)
        return
    if _LIST.match(text):
        entries = text.split(",")
        n = len(entries)
        if n > 4:  # more than pzprjs shows: one small line
            canvas.text(cx, cy, " ".join(entries), s * 0.8 / max(4, len(text)) * 1.6, ink, cls=cls)
            return
        for entry, (u, v) in zip(entries, _LIST_PLACES[n]):
            canvas.text(cx + u * s, cy + v * s, entry, s * _LIST_SIZE[n], ink, cls=cls)
        return
    canvas.text(cx, cy, text, number_size(text, s), ink, cls=cls)


def _arrow(canvas: Canvas, cx: float, cy: float, dx: int, dy: int, length: float, ink: Colour,
           cls: str | None) -> None:
    """A small arrow of ``length`` pixels centred on ``(cx, cy)`` pointing along ``(dx, dy)``."""
    half = length / 2
    tip = (cx + dx * half, cy + dy * half)
    tail = (cx - dx * half, cy - dy * half)
    head = length * 0.45
    px, py = -dy, dx  # across the arrow
    base = (tip[0] - dx * head, tip[1] - dy * head)
    canvas.line([tail, base], ink, max(1.0, length * 0.12), cls=cls)
    canvas.polygon([tip, (base[0] + px * head * 0.6, base[1] + py * head * 0.6),
                    (base[0] - px * head * 0.6, base[1] - py * head * 0.6)], fill=ink, cls=cls)


def cell_arrow(canvas: Canvas, x: float, y: float, s: float, mark: str, ink: Colour, wide: bool = False,
               hollow: bool = False, cls: str | None = None) -> None:
    """An arrow across a cell, as pzprjs draws arrows in cells (``drawCellArrows``): one closed polygon of
    seven points, its tip 0.4 of the cell from the centre with a head 0.24 long and 0.32 wide on a shaft
    0.06 wide (``wide``: 0.35 from the centre, a head 0.35 long and 0.7 wide on a shaft 0.24 wide).

    Args:
        canvas: where to draw.
        x, y: the cell's top-left corner, pixels.
        s: the cell's side, pixels.
        mark: the direction, one of :data:`gridlang.language.looks.ARROW_CHARS`.
        ink: the colour.
        wide: the wide arrow (pzprjs's ``drawCellArrows(true)``, Guide Arrow's).
        hollow: outlined in ``ink`` on white instead of filled (pzprjs's ``getCellArrowOutline``).
        cls: the SVG class.

    Raises:
        KeyError: ``mark`` is not a direction.
    """
    dx, dy = _ARROWS[mark]
    length, shaft, base, head = _WIDE_ARROW if wide else _THIN_ARROW
    length, base = length * s, base * s
    shaft, head = max(1.0, shaft * s), max(5.0, head * s)
    cx, cy = x + s / 2, y + s / 2
    ax, ay = -dy, dx  # across the arrow

    def at(along: float, across: float) -> tuple[float, float]:
        return cx + dx * along + ax * across, cy + dy * along + ay * across

    points = [at(length, 0), at(base, -head), at(base, -shaft), at(-length, -shaft), at(-length, shaft),
              at(base, shaft), at(base, head)]
    if hollow:
        canvas.polygon(points, fill="#ffffff", stroke=ink, width=max(1.0, s / 24), cls=cls)
    else:
        canvas.polygon(points, fill=ink, cls=cls)


def pencil_tip(canvas: Canvas, x: float, y: float, s: float, mark: str, ink: Colour, cls: str | None = None) -> None:
    """A pencil's tip pointing along ``mark``, as pzprjs draws Pencils' tips (its ``drawCellArrows``): a
    triangle from the two corners of the cell's side behind the tip to the cell's centre, outlined, and the
    lead, a filled triangle half its size at the centre.

    Args:
        canvas: where to draw.
        x, y: the cell's top-left corner, pixels.
        s: the cell's side, pixels.
        mark: the direction the tip points, one of :data:`gridlang.language.looks.ARROW_CHARS`.
        ink: the colour.
        cls: the SVG class.

    Raises:
        KeyError: ``mark`` is not a direction.
    """
    dx, dy = _ARROWS[mark]
    cx, cy = x + s / 2, y + s / 2
    ax, ay = -dy, dx

    def triangle(half: float) -> list[tuple[float, float]]:
        return [(cx, cy), (cx - dx * half + ax * half, cy - dy * half + ay * half),
                (cx - dx * half - ax * half, cy - dy * half - ay * half)]

    canvas.polygon(triangle(0.5 * s), stroke=ink, width=max(1.0, s / 24), cls=cls)
    canvas.polygon(triangle(0.25 * s), fill=ink, cls=cls)


KANJI: dict[str, tuple[str, tuple[tuple[tuple[float, float], ...], ...]]] = {
    "ring_kanji": ("輪", (
        ((0.02, 0.12), (0.4, 0.12)), ((0.06, 0.28), (0.36, 0.28), (0.36, 0.6), (0.06, 0.6), (0.06, 0.28)),
        ((0.06, 0.44), (0.36, 0.44)), ((0.0, 0.76), (0.42, 0.72)), ((0.21, 0.0), (0.21, 1.0)),
        ((0.74, 0.0), (0.48, 0.3)), ((0.74, 0.0), (1.0, 0.3)), ((0.62, 0.34), (0.86, 0.34)),
        ((0.56, 0.48), (0.56, 1.0)), ((0.56, 0.48), (0.94, 0.48), (0.94, 0.94), (0.88, 1.0)),
        ((0.69, 0.48), (0.69, 0.95)), ((0.81, 0.48), (0.81, 0.95)), ((0.5, 0.72), (1.0, 0.72)))),
    "cut_kanji": ("切", (
        ((0.05, 0.42), (0.45, 0.32)), ((0.2, 0.08), (0.2, 0.78), (0.26, 0.86), (0.45, 0.84)),
        ((0.52, 0.18), (0.92, 0.18), (0.9, 0.88), (0.8, 0.95)), ((0.72, 0.18), (0.7, 0.55), (0.5, 0.95)))),
}
"""The kanji looks, each look's name -> its kanji and the kanji's strokes in a unit square (across, down): 輪
(a ring: 車 and 侖) and 切 (a cut: 七 and 刀), drawn as lines so that a picture needs no font with Japanese
characters. The one table of them: the picture (:mod:`gridlang.pictures.draw`) and the text
(:mod:`gridlang.pictures.textdraw`) read their looks here."""


def kanji(canvas: Canvas, x: float, y: float, s: float, look: str, ink: Colour, cls: str | None = None) -> None:
    """The kanji of a look of :data:`KANJI` in a cell, as strokes in a square 0.7 of the cell wide about its
    centre (pzprjs writes Wagiri's 輪 and 切 as text 0.7 of a cell high, its ``fontsizeratio``), each stroke
    0.06 of the cell wide.

    Args:
        canvas: where to draw.
        x, y: the cell's top-left corner, pixels.
        s: the cell's side, pixels.
        look: the look's name (``ring_kanji``, ``cut_kanji``).
        ink: the colour.
        cls: the SVG class of the strokes.

    Raises:
        KeyError: ``look`` is not one of :data:`KANJI`.
    """
    side = 0.7 * s
    left, top = x + (s - side) / 2, y + (s - side) / 2
    for stroke in KANJI[look][1]:
        canvas.line([(left + u * side, top + v * side) for u, v in stroke], ink, max(1.0, 0.06 * s), cls=cls)


def split(canvas: Canvas, x: float, y: float, s: float, text: str, ink: Colour, cls: str | None = None) -> None:
    """Kakuro's clue cell: a diagonal from the top-left corner, the first number of ``text``
    (the down sum) below it on the left, the second (the across sum) above it on the right;
    a 0 or missing entry is not written, nor a text without figures (a clue cell without sums, ``+``)."""
    canvas.segments([((x, y), (x + s, y + s))], ink, max(1.0, s / 32), cls=cls)
    entries = text.split(",") if has_figures(text) else []
    places = ((0.28, 0.72), (0.72, 0.28))
    for entry, (u, v) in zip(entries, places):
        if entry not in ("", "0"):
            canvas.text(x + u * s, y + v * s, entry, s * 0.36, ink, cls=cls)


def star(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A five-pointed star filling most of the cell."""
    cx, cy = x + s / 2, y + s / 2 + 0.03 * s
    outer, inner = 0.4 * s, 0.4 * s * 0.42
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    canvas.polygon(points, fill=ink, cls=cls)


def tent(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A tent: a triangle on the cell's floor, its door cut out."""
    canvas.polygon([(x + 0.5 * s, y + 0.15 * s), (x + 0.88 * s, y + 0.82 * s), (x + 0.12 * s, y + 0.82 * s)],
                   fill=ink, cls=cls)
    canvas.polygon([(x + 0.5 * s, y + 0.48 * s), (x + 0.62 * s, y + 0.82 * s), (x + 0.38 * s, y + 0.82 * s)],
                   fill="#ffffff", cls=cls)


def moon(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A crescent moon opening to the right, as pzprjs draws Moon or Sun's moons: the disc of
    :data:`CIRCLE_RADIUS` less an equal disc shifted right by 0.7 of its radius, as one polygon
    of two arcs (24 points each) through the discs' two crossings."""
    r = CIRCLE_RADIUS * s
    cx, cy = x + s / 2, y + s / 2
    d = 0.7 * r  # the cut-away disc's offset
    half = math.acos(d / (2 * r))  # a crossing's angle on the outer circle
    steps = 24
    outer = [half + (2 * math.pi - 2 * half) * k / steps for k in range(steps + 1)]  # through the left
    inner = [math.pi + half - 2 * half * k / steps for k in range(steps + 1)]  # back, through its leftmost point
    points = [(cx + r * math.cos(t), cy - r * math.sin(t)) for t in outer]
    points += [(cx + d + r * math.cos(t), cy - r * math.sin(t)) for t in inner]
    canvas.polygon(points, fill=ink, cls=cls)


def tree(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A tree: a round crown in ``ink`` on a brown trunk."""
    canvas.rect(x + 0.44 * s, y + 0.5 * s, 0.12 * s, 0.34 * s, fill="#8d5a2b", cls=cls)
    canvas.ellipse(x + 0.5 * s, y + 0.4 * s, 0.3 * s, 0.27 * s, fill=ink, cls=cls)


def bulb(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A lamp: a filled circle (pzprjs Akari's)."""
    canvas.ellipse(x + s / 2, y + s / 2, 0.33 * s, 0.33 * s, fill=ink, cls=cls)


def cross(canvas: Canvas, x: float, y: float, s: float, ink: Colour, cls: str | None = None) -> None:
    """A cross from corner to corner of the cell's middle."""
    w = max(1.0, 0.08 * s)
    canvas.segments([((x + 0.25 * s, y + 0.25 * s), (x + 0.75 * s, y + 0.75 * s)),
                     ((x + 0.75 * s, y + 0.25 * s), (x + 0.25 * s, y + 0.75 * s))], ink, w, cls=cls)


def circle(canvas: Canvas, x: float, y: float, s: float, ink: Colour, filled: bool,
           cls: str | None = None) -> None:
    """A circle of :data:`CIRCLE_RADIUS`: white with a ring of ``ink``, or filled with ``ink``."""
    r = CIRCLE_RADIUS * s
    if filled:
        canvas.ellipse(x + s / 2, y + s / 2, r, r, fill=ink, cls=cls)
    else:
        canvas.ellipse(x + s / 2, y + s / 2, r, r, fill="#ffffff", stroke=ink, width=max(1.0, 0.05 * s), cls=cls)
