"""Polyominoes: shape families, orientations and placements on the grid.

A shape is a finite set of ``(row, col)`` offsets, connected through shared
sides. Two shapes are the same *free* polyomino when one is a rotation or
reflection of the other, moved; :func:`canonical` picks one representative
(the smallest of the eight transforms, moved to the origin), so two sets of
cells have the same shape exactly when their canonical forms are equal.

``polyominoes(k)`` is every free polyomino of k cells (1, 1, 2, 5, 12, 35
for k = 1..6), grown cell by cell from the smaller ones; the tetrominoes
are ``polyominoes(4)`` (I, L, O, S, T) and the pentominoes ``polyominoes(5)``
(F, I, L, N, P, T, U, V, W, X, Y, Z). ``rectangles(n, ...)`` and ``squares(n,
...)`` are the free rectangles and the square of n cells that fit a grid (of
any size, not only up to :data:`MAX_SIZE`). A placement of a shape is one of
its orientations moved onto grid cells.
"""

from __future__ import annotations

import functools
import math
from typing import Iterator

Shape = frozenset[tuple[int, int]]

_TRANSFORMS = (
    lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (-r, -c),
    lambda r, c: (c, r), lambda r, c: (c, -r), lambda r, c: (-c, r), lambda r, c: (-c, -r),
)

MAX_SIZE = 7
"""The largest polyomino size ``polyominoes(k)`` generates."""


def normalise(cells) -> tuple[tuple[int, int], ...]:
    """The cells moved so that their smallest row and column are 0, sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(shape) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a shape, each normalised."""
    shape = list(shape)
    return sorted({normalise(t(r, c) for r, c in shape) for t in _TRANSFORMS})


def canonical(shape) -> tuple[tuple[int, int], ...]:
    """The free polyomino's representative: the smallest normalised orientation."""
    return orientations(shape)[0]


MAX_DRAWN = 100
"""The most cells of one shape drawn in a ``shapes`` parameter's value."""


def is_connected(cells) -> bool:
    """Whether ``(row, col)`` cells form one piece through shared sides (the empty set does not)."""
    cells = set(cells)
    if not cells:
        return False
    seen, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo.extend(n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells and n not in seen)
    return seen == cells


@functools.lru_cache(maxsize=None)
def polyominoes(k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every free polyomino of ``k`` cells, as canonical forms, in order.

    Raises:
        ValueError: k is below 1 or above :data:`MAX_SIZE`.
    """
    if not 1 <= k <= MAX_SIZE:
        raise ValueError(f"polyominoes of {k} cells: gridlang knows sizes 1 to {MAX_SIZE}")
    if k == 1:
        return (((0, 0),),)
    found = set()
    for smaller in polyominoes(k - 1):
        cells = set(smaller)
        for r, c in smaller:
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if cell not in cells:
                    found.add(canonical(cells | {cell}))
    return tuple(sorted(found, key=lambda s: (_width(s), s)))


def rectangles(n: int, rows: int, cols: int) -> list[tuple[tuple[int, int], ...]]:
    """The free rectangles of ``n`` cells that fit a ``rows`` x ``cols`` grid (one turned either way),
    canonical forms, narrowest first: ``rectangles(6, ...)`` is 1x6 and 2x3. Empty for n < 1."""
    out = []
    for h in range(1, math.isqrt(n) + 1 if n > 0 else 1):
        w, rest = divmod(n, h)
        if rest == 0 and (h <= rows and w <= cols or w <= rows and h <= cols):
            out.append(canonical((r, c) for r in range(h) for c in range(w)))
    return out


def squares(n: int, rows: int, cols: int) -> list[tuple[tuple[int, int], ...]]:
    """The square of ``n`` cells (n a perfect square, the side at most the grid's), or none."""
    side = math.isqrt(n) if n > 0 else 0
    if side < 1 or side * side != n or side > min(rows, cols):
        return []
    return [tuple((r, c) for r in range(side) for c in range(side))]


def _width(shape) -> int:
    return max(c for _, c in shape) - min(c for _, c in shape)


def placements(shape, rows: int, cols: int, allowed: set[int] | frozenset[int] | None = None,
               through: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every placement of a shape (any orientation) on a ``rows`` x ``cols`` grid, one at a time.

    Args:
        shape: the shape's cells.
        rows, cols: the grid's size.
        allowed: when given, only placements whose cells all lie in it.
        through: when given, only placements holding this cell.

    Yields:
        Each placement as its cell indices (row-major), ascending, without
        repeats (distinct orientations never cover the same cells), in a
        fixed order: orientation by orientation, positions row by row.
        With ``allowed``, only the positions that put an orientation's
        first cell on an allowed cell are tried, so the time is linear in
        ``len(allowed)``, not in the grid; with ``through``, only the
        positions that put one of its cells on that cell.
    """
    for form in orientations(shape):
        height = max(r for r, _ in form) + 1
        width = max(c for _, c in form) + 1
        if through is not None:
            tr, tc = divmod(through, cols)
            corners = iter(sorted((tr - dr, tc - dc) for dr, dc in form))
        elif allowed is None:
            corners = ((r, c) for r in range(rows - height + 1) for c in range(cols - width + 1))
        else:
            r0, c0 = form[0]
            corners = ((i // cols - r0, i % cols - c0) for i in sorted(allowed))
        for r, c in corners:
            if not (0 <= r <= rows - height and 0 <= c <= cols - width):
                continue
            cells = tuple((r + dr) * cols + c + dc for dr, dc in form)
            if allowed is None or allowed.issuperset(cells):
                yield cells


def count_placements(shape, rows: int, cols: int) -> int:
    """How many placements :func:`placements` yields on the whole grid (without ``allowed``)."""
    total = 0
    for form in orientations(shape):
        height = max(r for r, _ in form) + 1
        width = max(c for _, c in form) + 1
        total += max(rows - height + 1, 0) * max(cols - width + 1, 0)
    return total


def picture(shape) -> str:
    """A shape drawn with ``#`` rows joined by ``/`` (``#./#./##``)."""
    form = normalise(shape)
    height = max(r for r, _ in form) + 1
    width = max(c for _, c in form) + 1
    cells = set(form)
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(width)) for r in range(height))
