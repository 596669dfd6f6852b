"""Text maps with numbers of any size and a room layer.

The plain text map (:mod:`gridlang.formats.maps`) has one character per cell. This
module reads two extensions of it, each recognised by its own syntax:

* **Cells separated by white space.** When a row of the grid holds white
  space between its cells, every row is split on white space and each
  piece is one cell: ``.``, ``7``, ``12``, ``135``. A cell of several
  characters is a number (it must be one of a ``number`` tile; see
  ``docs/language.md``).
* **A room layer.** A line ``rooms:`` under the grid opens a second block
  of the same shape, one room label per cell (one character per cell, or
  separated by white space like the grid). A room is a maximal
  orthogonally connected group of cells with equal labels, so a label may
  be used again for rooms that do not touch.
* **A corner layer.** A line ``corners:`` under the grid (before or after
  the room layer) opens a block of one row and one column more than the
  grid: what stands on each corner of the cells (pzprjs's crosses), row by
  row from the grid's top-left corner, the frame's corners included, for
  a spec with tiles ``on corners`` (docs/language.md, "Clues on corners").
* **A border layer.** A line ``borders:`` under the grid opens a block of
  ``2R - 1`` rows for an ``R x C`` grid, what stands on each border between
  two side-adjacent cells (pzprjs's borders), read as the grid is drawn:
  a row of the ``C - 1`` borders between the cells of grid row 1, left to
  right, then a row of the ``C`` borders under grid row 1, then the
  borders inside row 2, and so on (a row of none, on a grid of one column,
  is left out). Indenting the rows of borders between left and right
  neighbours by one space puts each under the gap it stands in::

      borders:
       w . .
      . b . .
       . . w

  for a spec with tiles ``on borders`` (docs/language.md, "Clues on
  borders"). The layer is read in pzprjs's order into
  :attr:`~gridlang.formats.mapdata.MapData.borders`.

::

    # Star Battle, 2 stars
    stars: 2
    ......
    ......
    rooms:
    aabbbb
    acccbb

Header lines (``name: value``) above the grid, ``#`` comment lines and blank
lines above the grid, a ``grid:`` line marking where the grid starts, and
blank lines around ``rooms:`` and ``corners:`` are as in the plain format (:mod:`gridlang.formats.maps`:
a ``#`` line above the grid of a spec with a ``#`` tile needs ``grid:``). Each
cell of the result is a :class:`~gridlang.core.grid.Token`: its text, carrying its
room label. Errors point at the line and column of the offending cell.
"""

from __future__ import annotations

import re

from gridlang.core.errors import MapError, Span, one_line_end
from gridlang.core.grid import Token
from gridlang.core.lazy_regex import LazyRegex
from gridlang.formats.mapdata import (
    COMMENT,
    HEADER_LINE,
    LAYERS,
    MapData,
    grid_start,
    header_lines,
    is_comment,
    size_problem,
)

_LAYER = LazyRegex(r"^\s*(" + "|".join(LAYERS) + r")\s*:\s*$")
"""A line that opens a layer under the grid: ``rooms:``, ``corners:`` or ``borders:``."""

Cells = list[tuple[str, Span]]


def is_layered(text: str) -> bool:
    """Whether ``text`` is a map in one of this module's formats.

    True when a line ``rooms:``, ``corners:`` or ``borders:`` stands under a grid row, or when a grid row
    holds white space between two cells; never for a JSON record.
    """
    if text.lstrip().startswith("{"):
        return False
    lines = _lines(text)
    start = _grid_start(lines)
    if start is None:
        return False
    for line in lines[start:]:
        if _LAYER.match(line):
            return True
        if not line.strip():
            break
        if len(line.split()) > 1:
            return True
    return False


def read_layered(path: str, text: str) -> MapData | None:
    """Read a map with white-space-separated cells or a room layer.

    Args:
        path: the file's name, for error locations.
        text: the file's text.

    Returns:
        The map, each cell a :class:`~gridlang.core.grid.Token` (a row is a list
        of them), or None when the text is in neither format (a plain map).

    Raises:
        MapError: the grid or the room layer is malformed (ragged rows, a
            room layer of another shape, text after the room layer),
            located at the line and column.
    """
    if not is_layered(text):
        return None
    lines = _lines(text)
    params: dict[str, tuple[str, Span]] = {}
    start, marker = grid_start(lines, _LAYER)
    for i in range(start if marker is None else marker - 1):
        line = lines[i]
        m = HEADER_LINE.match(line)
        if m is None or not line.strip() or is_comment(line):
            continue
        if m.group(1) in params:
            raise MapError(f"header {m.group(1)!r} is given twice", Span(path, i + 1, m.start(1) + 1), source=text)
        params[m.group(1)] = (m.group(2), Span(path, i + 1, m.start(2) + 1, m.end(2) + 1))
    i = start
    grid, i = _block(path, text, lines, i, "grid")
    layers: dict[str, tuple[list[Cells], int]] = {}  # "rooms" / "corners" / "borders" -> (block, marker line)
    while True:
        while i < len(lines) and not lines[i].strip():
            i += 1
        m = _LAYER.match(lines[i]) if i < len(lines) else None
        if m is None:
            break
        kind, at = m.group(1), i  # not `marker`, the grid: line's, which the map keeps
        if kind in layers:
            raise MapError(f"'{kind}:' is given twice (line {layers[kind][1] + 1} first)",
                           Span(path, at + 1, _indent(lines[at]) + 1), source=text)
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines):
            raise MapError(f"'{kind}:' is followed by no {_WHAT[kind]}", Span(path, at + 1, 1), source=text)
        block, i = _block(path, text, lines, i, _WHAT[kind], ragged=kind == "borders")
        layers[kind] = (block, at)
    if i < len(lines):
        what = f"the {_WHAT[kind]}" if layers else "the grid"
        raise MapError(f"unexpected text after {what}", Span(path, i + 1, _indent(lines[i]) + 1), source=text)
    rooms = layers["rooms"][0] if "rooms" in layers else None
    if rooms is not None:
        _same_shape(path, text, grid, rooms)
    corners = layers["corners"][0] if "corners" in layers else None
    if corners is not None:
        _same_shape(path, text, grid, corners, 1)
    borders = _border_order(path, text, grid, layers["borders"]) if "borders" in layers else None
    rows: list[list[Token]] = []
    spans: list[list[Span]] = []
    for r, row in enumerate(grid):
        rows.append([Token(cell, rooms[r][c][0] if rooms is not None else None) for c, (cell, _) in enumerate(row)])
        spans.append([span for _, span in row])
    positions = [(row[0].line, row[0].column) for row in spans]
    corner_rows = None if corners is None else [[ch for ch, _ in row] for row in corners]
    corner_spans = None if corners is None else [[span for _, span in row] for row in corners]
    return MapData(path, text, rows, positions, params, spans, comments=header_lines(lines), grid_line=marker,
                   corners=corner_rows, corner_spans=corner_spans,
                   borders=None if borders is None else [tok for tok, _ in borders],
                   border_spans=None if borders is None else [span for _, span in borders])


def _lines(text: str) -> list[str]:
    return one_line_end(text).split("\n")


def _grid_start(lines: list[str]) -> int | None:
    start, _ = grid_start(lines, _LAYER)
    return start if start < len(lines) else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


_WHAT = {"rooms": "room layer", "corners": "corner layer", "borders": "border layer"}


def _block(path: str, text: str, lines: list[str], start: int, what: str,
           ragged: bool = False) -> tuple[list[Cells], int]:
    """The rows from ``start`` to the next blank line or layer line, split into cells (rows of
    different lengths only when ``ragged``: the border layer's)."""
    end = start
    while end < len(lines) and lines[end].strip() and not _LAYER.match(lines[end]):
        end += 1
    if end == start:
        raise MapError(f"the map has no {what}", Span(path, start + 1, 1), source=text)
    spaced = any(len(lines[j].split()) > 1 for j in range(start, end))
    # The limits of gridlang.formats.textmaps.check_size, before a span is made for every cell.
    widths = [len(lines[j].split()) if spaced else len(lines[j].strip()) for j in range(start, end)]
    problem = size_problem(widths)
    if problem is not None:
        message, r, c = problem
        message = message.replace("the grid", f"the {what}", 1)
        line = lines[start + r]
        if spaced:
            column = [m.start() for m in re.finditer(r"\S+", line)][c] if c < widths[r] else len(line.rstrip())
        else:
            column = _indent(line) + c
        raise MapError(message, Span(path, start + r + 1, column + 1), source=text)
    rows: list[Cells] = []
    for j in range(start, end):
        line = lines[j]
        if spaced:
            cells = [(m.group(0), Span(path, j + 1, m.start() + 1, m.end() + 1)) for m in re.finditer(r"\S+", line)]
        else:
            body = line.rstrip()
            indent = _indent(line)
            cells = [(body[k], Span(path, j + 1, k + 1)) for k in range(indent, len(body))]
        rows.append(cells)
    if ragged:
        return rows, end
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            where = row[width] if len(row) > width else None
            span = where[1] if where else Span(path, start + r + 1, len(lines[start + r].rstrip()) + 1)
            notes = []
            if spaced:
                k = next(k for k in range(start, end) if len(lines[k].split()) > 1) - start
                note = f"every row is split on white space, because row {k + 1} holds white space between cells"
                if width == 1 and len(rows[0][0][0]) > 1:
                    first = rows[0][0][0]
                    note += f", so the first row, {first if len(first) <= 20 else first[:17] + '...'!r}, is one cell"
                notes.append(note)
            if is_comment(lines[start + r]):
                notes.append(f"a comment line ({COMMENT!r}) stands only above the grid")
            detail = f" ({'; '.join(notes)})" if notes else ""
            raise MapError(f"row {r + 1} of the {what} has {len(row)} cells; the first row has {width}{detail}",
                           span, source=text)
    return rows, end


def _same_shape(path: str, text: str, grid: list[Cells], layer: list[Cells], more: int = 0) -> None:
    """Refuse a layer that is not the grid's shape (``more`` rows and columns more: the corners')."""
    what, unit = ("the corner layer", "corners") if more else ("the room layer", "cells")
    rows, cols = len(grid) + more, len(grid[0]) + more
    if len(layer) != rows:
        span = layer[rows][0][1] if len(layer) > rows else layer[-1][-1][1]
        extra = f" (a row more than the grid's {len(grid)}: the corners above and below each row)" if more else ""
        raise MapError(f"{what} has {len(layer)} rows; it needs {rows}{extra}" if more else
                       f"{what} has {len(layer)} rows; the grid has {len(grid)}", span, source=text)
    if len(layer[0]) != cols:
        raise MapError(f"{what} has {len(layer[0])} {unit} a row; it needs {cols}, one more than the grid's "
                       f"{len(grid[0])} cells" if more else
                       f"{what} has {len(layer[0])} {unit} a row; the grid has {len(grid[0])}",
                       layer[0][0][1], source=text)


def _border_order(path: str, text: str, grid: list[Cells], layer: tuple[list[Cells], int]) -> Cells:
    """The border layer's tokens in pzprjs's order (the borders between left and right neighbours row
    by row, then those between upper and lower ones), after checking its shape: ``2R - 1`` rows,
    ``C - 1`` and ``C`` tokens by turns (the rows of none left out). A layer of ``2R + 1`` rows holds the
    outer frame too, drawn where it stands: the ``C`` borders along the top, then each grid row's
    ``C + 1`` (its left frame, the ``C - 1`` between its cells, its right frame) and the ``C`` under it,
    the last of them along the bottom; the frame's come after the others, top, bottom, left, right
    (:func:`gridlang.core.grid.frame_border`).

    Raises:
        MapError: a row of another length, or too few or too many rows, at the row.
    """
    block, _ = layer
    rows, cols = len(grid), len(grid[0])
    framed = len(block) == 2 * rows + 1
    if framed:
        wanted = [(cols, -1, "top")] + [(w, r, kind) for r in range(rows)
                                         for w, kind in ((cols + 1, "inside"), (cols, "under"))]
        shape = (f"{len(wanted)} rows for a {rows}x{cols} grid and its frame: {cols} borders along the top, "
                 f"then by turns {cols + 1} beside and between the cells of a row and {cols} under it")
    else:
        wanted = [(w, r, kind) for r in range(rows)
                  for w, kind in ((cols - 1, "inside"), (cols, "under")) if w and (kind == "inside" or r + 1 < rows)]
        shape = (f"{len(wanted)} rows for a {rows}x{cols} grid: {cols - 1} borders between the cells of a row, "
                 f"then {cols} under it, by turns (or {2 * rows + 1} rows with the frame)")
    if len(block) != len(wanted):
        span = block[len(wanted)][0][1] if len(block) > len(wanted) else block[-1][-1][1]
        raise MapError(f"the border layer has {len(block)} rows; it needs {shape}", span, source=text)
    across: Cells = []
    down: Cells = []
    top: Cells = []
    bottom: Cells = []
    left: Cells = []
    right: Cells = []
    for row, (width, r, kind) in zip(block, wanted):
        if len(row) != width:
            where = {"inside": f"beside and between the cells of grid row {r + 1}" if framed else
                     f"between the cells of grid row {r + 1}", "under": f"under grid row {r + 1}",
                     "top": "along the top of the grid"}[kind]
            span = row[width][1] if len(row) > width else row[-1][1]
            raise MapError(f"this row of the border layer has {len(row)} borders; the borders {where} are "
                           f"{width} (the layer has {shape})", span, source=text)
        if kind == "top":
            top.extend(row)
        elif kind == "inside" and framed:
            left.append(row[0])
            across.extend(row[1:-1])
            right.append(row[-1])
        elif kind == "under" and framed and r + 1 == rows:
            bottom.extend(row)
        else:
            (across if kind == "inside" else down).extend(row)
    return across + down + top + bottom + left + right
