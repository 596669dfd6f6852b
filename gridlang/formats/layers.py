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
blank lines around ``rooms:`` are as in the plain format (:mod:`gridlang.formats.maps`:
a ``#`` line above the grid of a spec with a ``#`` tile needs ``grid:``). Each
cell of the result is a :class:`~gridlang.core.grid.Token`: its text, carrying its
room label. Errors point at the line and column of the offending cell.
"""

from __future__ import annotations

import re

from gridlang.core.errors import MapError, Span, one_line_end
from gridlang.core.grid import Token
from gridlang.core.lazy_regex import LazyRegex
from gridlang.formats.mapdata import COMMENT, HEADER_LINE, MapData, grid_start, header_lines, is_comment, size_problem

_ROOMS = LazyRegex(r"^\s*rooms\s*:\s*$")

Cells = list[tuple[str, Span]]


def is_layered(text: str) -> bool:
    """Whether ``text`` is a map in one of this module's formats.

    True when a line ``rooms:`` stands under a grid row, or when a grid row
    holds white space between two cells; never for a JSON record.
    """
    if text.lstrip().startswith("{"):
        return False
    lines = _lines(text)
    start = _grid_start(lines)
    if start is None:
        return False
    for line in lines[start:]:
        if _ROOMS.match(line):
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
    start, marker = grid_start(lines, _ROOMS)
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
    rooms = None
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and _ROOMS.match(lines[i]):
        marker = i
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines):
            raise MapError("'rooms:' is followed by no room layer", Span(path, marker + 1, 1), source=text)
        rooms, i = _block(path, text, lines, i, "room layer")
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines):
        what = "the room layer" if rooms is not None else "the grid"
        raise MapError(f"unexpected text after {what}", Span(path, i + 1, _indent(lines[i]) + 1), source=text)
    if rooms is not None:
        _same_shape(path, text, grid, rooms)
    rows: list[list[Token]] = []
    spans: list[list[Span]] = []
    for r, row in enumerate(grid):
        rows.append([Token(cell, rooms[r][c][0] if rooms is not None else None) for c, (cell, _) in enumerate(row)])
        spans.append([span for _, span in row])
    positions = [(row[0].line, row[0].column) for row in spans]
    return MapData(path, text, rows, positions, params, spans, comments=header_lines(lines), grid_line=marker)


def _lines(text: str) -> list[str]:
    return one_line_end(text).split("\n")


def _grid_start(lines: list[str]) -> int | None:
    start, _ = grid_start(lines, _ROOMS)
    return start if start < len(lines) else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block(path: str, text: str, lines: list[str], start: int, what: str) -> tuple[list[Cells], int]:
    """The rows from ``start`` to the next blank line or ``rooms:`` line, split into cells."""
    end = start
    while end < len(lines) and lines[end].strip() and not _ROOMS.match(lines[end]):
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


def _same_shape(path: str, text: str, grid: list[Cells], rooms: list[Cells]) -> None:
    if len(rooms) != len(grid):
        span = rooms[len(grid)][0][1] if len(rooms) > len(grid) else rooms[-1][-1][1]
        raise MapError(f"the room layer has {len(rooms)} rows; the grid has {len(grid)}", span, source=text)
    if len(rooms[0]) != len(grid[0]):
        raise MapError(f"the room layer has {len(rooms[0])} cells a row; the grid has {len(grid[0])}",
                       rooms[0][0][1], source=text)
