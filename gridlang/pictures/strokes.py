"""The strokes of a picture between and along cells: lines, bridges, walls and room borders.

Pixel geometry only, as segments ``((x1, y1), (x2, y2))`` for
:meth:`gridlang.pictures.canvas.Canvas.segments`. A cell ``(r, c)`` of side ``s``
has its top-left corner at ``(pad + c * s, pad + r * s)``; the lattice of
cell corners has the point ``(r, c)`` there too.

A line between two side-neighbouring cells runs from centre to centre but
stops at the edge of what stands in a cell (as pzprjs's pictures do): a
circle of radius ``r`` (so a line drawn ``d`` pixels beside the centre
line, one of two bridges, stops where it meets the circle,
``sqrt(r^2 - d^2)`` from the centre), or the square a number takes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]
Segment = tuple[Point, Point]
Edge = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Stop:
    """What a line entering a cell stops at.

    Attributes:
        shape: ``circle`` (a circle of radius ``size``) or ``box`` (a square of half-side ``size``).
        size: pixels.
    """

    shape: str
    size: float

    def inset(self, offset: float) -> float:
        """How far from the cell's centre a line ``offset`` pixels beside it stops, pixels (0: it reaches the centre)."""
        if abs(offset) >= self.size:
            return 0.0
        if self.shape == "circle":
            return math.sqrt(self.size ** 2 - offset ** 2)
        return self.size


def strokes(value: object) -> int:
    """How many strokes an edge's value draws: 1 for True, ``n`` for an integer ``n > 0``, else 0."""
    if value is True:
        return 1
    return value if type(value) is int and value > 0 else 0


def cell_lines(edges: dict[Edge, object], pad: float, s: float, stops: dict[tuple[int, int], Stop],
               gap: float = 0.3) -> list[Segment]:
    """The segments of a decision on the edges between cells.

    Args:
        edges: edge -> value (``True``, or an integer: that many strokes side by side).
        pad: the picture's frame, pixels.
        s: a cell's side, pixels.
        stops: cell ``(r, c)`` -> what a line entering it stops at (cells not in it: the centre).
        gap: the distance between two strokes of one edge, in cells.

    Returns:
        One segment per stroke, shortened at both ends by the stops.
    """
    out = []
    for (a, b), value in sorted(edges.items()):
        n = strokes(value)
        if not n:
            continue
        (r1, c1), (r2, c2) = sorted((a, b))
        ax, ay = pad + (c1 + 0.5) * s, pad + (r1 + 0.5) * s
        bx, by = pad + (c2 + 0.5) * s, pad + (r2 + 0.5) * s
        ux, uy = (bx - ax) / s, (by - ay) / s  # along the edge: (1, 0) or (0, 1)
        for k in range(n):
            offset = (k - (n - 1) / 2) * gap * s
            ox, oy = -uy * offset, ux * offset
            ta = stops[(r1, c1)].inset(offset) if (r1, c1) in stops else 0.0
            tb = stops[(r2, c2)].inset(offset) if (r2, c2) in stops else 0.0
            if ta + tb >= s - 0.5:
                continue
            out.append(((ax + ox + ux * ta, ay + oy + uy * ta), (bx + ox - ux * tb, by + oy - uy * tb)))
    return out


def corner_lines(edges: dict[Edge, object], pad: float, s: float) -> list[Segment]:
    """The segments of a decision on corner edges: along the grid, corner to corner."""
    out = []
    for (a, b), value in sorted(edges.items()):
        if strokes(value):
            out.append(((pad + a[1] * s, pad + a[0] * s), (pad + b[1] * s, pad + b[0] * s)))
    return out


def shared_side(a: tuple[int, int], b: tuple[int, int], pad: float, s: float) -> Segment:
    """The side two side-neighbouring cells share."""
    (r1, c1), (r2, c2) = sorted((a, b))
    if r1 == r2:
        x = pad + c2 * s
        return (x, pad + r1 * s), (x, pad + (r1 + 1) * s)
    y = pad + r2 * s
    return (pad + c1 * s, y), (pad + (c1 + 1) * s, y)


def edge_walls(edges: dict[Edge, object], pad: float, s: float, corners: bool) -> list[Segment]:
    """The thick borders of a decision on edges drawn as walls: on the side two cells share, or
    along the edge itself for a decision on corner edges."""
    chosen = [e for e, v in sorted(edges.items()) if strokes(v)]
    if corners:
        return corner_lines(dict.fromkeys(chosen, True), pad, s)
    return [shared_side(a, b, pad, s) for a, b in chosen]


def borders(rows: int, cols: int, label, pad: float, s: float) -> list[Segment]:
    """The sides between side-neighbouring cells whose labels differ (rooms, blocks, areas).

    Args:
        rows, cols: the grid's size.
        label: cell index -> its label (cells whose label is None take no part).
        pad, s: the frame and a cell's side, pixels.
    """
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        here = label(i)
        if here is None:
            continue
        if c + 1 < cols and label(i + 1) is not None and label(i + 1) != here:
            out.append(shared_side((r, c), (r, c + 1), pad, s))
        if r + 1 < rows and label(i + cols) is not None and label(i + cols) != here:
            out.append(shared_side((r, c), (r + 1, c), pad, s))
    return out


def outline(r0: int, c0: int, r1: int, c1: int, pad: float, s: float) -> list[Segment]:
    """The four sides of the rectangle of cells from ``(r0, c0)`` to ``(r1, c1)`` inclusive."""
    x0, y0, x1, y1 = pad + c0 * s, pad + r0 * s, pad + (c1 + 1) * s, pad + (r1 + 1) * s
    return [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x0, y1), (x1, y1)), ((x0, y0), (x0, y1))]


def cage_lines(rows: int, cols: int, label, pad: float, s: float, inset: float) -> list[Segment]:
    """The outlines of cages, drawn ``inset`` pixels inside their cells (a Killer Sudoku's cages, inside
    the thick borders of its boxes).

    Each side of a cell on its cage's boundary (a neighbour of another label, or the grid's edge) gives
    a line ``inset`` inside it. At each end the line stops ``inset`` short of the cell's corner when the
    cell's other side there is on the boundary too (an outer corner), runs ``inset`` past it when the
    cell across the corner is in the same cage (an inner corner, where it meets that cell's line), and
    reaches the corner otherwise (it goes on in the neighbour).

    Args:
        rows, cols: the grid's size.
        label: cell index -> its cage's label (None: no cage; such cells draw nothing).
        pad, s: the frame and a cell's side, pixels.
        inset: pixels between a cell's side and its cage line.
    """
    def at(r: int, c: int):
        return label(r * cols + c) if 0 <= r < rows and 0 <= c < cols else None

    out: list[Segment] = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        here = label(i)
        if here is None:
            continue
        x0, y0 = pad + c * s, pad + r * s
        # side: (neighbour step, the two ends as (perpendicular step, its sign along the side))
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if at(r + dr, c + dc) == here:
                continue
            ends = []
            for er, ec in (((0, -1), (0, 1)) if dr else ((-1, 0), (1, 0))):
                if at(r + er, c + ec) != here:
                    ends.append(-inset)  # an outer corner
                elif at(r + er + dr, c + ec + dc) == here:
                    ends.append(inset)  # an inner corner
                else:
                    ends.append(0.0)
            if dr:
                y = y0 + (inset if dr < 0 else s - inset)
                out.append(((x0 - ends[0], y), (x0 + s + ends[1], y)))
            else:
                x = x0 + (inset if dc < 0 else s - inset)
                out.append(((x, y0 - ends[0]), (x, y0 + s + ends[1])))
    return out


def dashes(segments: list[Segment], on: float, off: float) -> list[Segment]:
    """Each segment cut into dashes ``on`` pixels long with gaps of ``off`` pixels, from its start.

    A segment whose length is a whole number of dashes and gaps ends on a gap, but the sum of the
    steps can fall short of it by a rounding error and leave a last dash of no length (a sliver of
    about 1e-15 pixels, which an SVG viewer may paint as a dot under a round cap): a dash shorter
    than a thousandth of ``on`` is not drawn, for every caller alike. A real short last dash
    (a segment ending part-way through a dash) is kept.
    """
    out: list[Segment] = []
    least = 1e-3 * on
    for (x1, y1), (x2, y2) in segments:
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        t = 0.0
        while t < length:
            u = min(t + on, length)
            if u - t >= least:
                out.append(((x1 + ux * t, y1 + uy * t), (x1 + ux * u, y1 + uy * u)))
            t = u + off
    return out
