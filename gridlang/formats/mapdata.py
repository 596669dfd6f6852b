"""A map's record and the lines above its grid: what every map reader shares.

:class:`MapData` holds a map file's grid rows and header parameters with
their locations, whichever reader made it (:mod:`gridlang.formats.maps` for
text and JSON maps, :mod:`gridlang.formats.layers` for layered ones, a
plug-in for its family's own format); the header, comment and ``grid:``
lines above a grid are recognised here, once, for all of them.
"""

from __future__ import annotations

from typing import Callable, Mapping

from gridlang.core.errors import MapError, Span
from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.limits import MAX_CELLS, MAX_COLS, MAX_ROWS
from gridlang.core.nodes import Record, field

HEADER_LINE = LazyRegex(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")
"""A header line above the grid, ``name: value`` (the name, then the value stripped); the layered maps' reader
(:mod:`gridlang.formats.layers`) reads its headers with it too."""
GRID_MARKER = LazyRegex(r"^\s*grid\s*:\s*$")
"""A line ``grid:``: the grid starts on the next line, whatever that line's first character."""
LAYERS = ("rooms", "corners", "borders")
"""The layers a map may hold under its grid, each opened by a line ``NAME:`` (:mod:`gridlang.formats.layers`)."""

COMMENT = "#"
"""What a comment line above the grid starts with (after any spaces)."""

VARIANT = "variant"
"""The reserved header naming the rules a map is for (never a parameter)."""

STANDARD = "standard"
"""The rules of a spec whose ``puzzle`` statement names no variant."""

class MapData(Record, frozen=False, slots=False):
    """A map file's grid rows and header parameters, with their locations.

    Attributes:
        path: the file as the user named it.
        source: the file's text.
        rows: the grid rows, top to bottom.
        positions: for each row, ``(line, column)`` of its first character in
            the file (1-based); for JSON, of each row's first character (see ``locate``).
        params: header parameters: name -> (raw text, span of the value);
            a JSON value other than a string is kept as its compact JSON
            text (``12``, ``[1,2,3]``, ``12.5``, ``true``).
        char_spans: the span of every grid cell, row by row, for maps
            whose cells do not stand one character apart (cells separated
            by spaces, a JSON record).
        key_spans: where each header parameter's name stands.
        record: the map is a JSON record, whose keys other than parameters
            are fields of its own; in a text header every name must be a
            parameter.
        locate: for JSON maps, ``(row, col) -> Span`` of a grid character
            inside the ``"map"`` string, computed when asked.
        variant: the rules the map states it is for (its ``variant:``
            header) and where the name stands, or None.
        comments: the lines (1-based) above the grid read as comments.
        grid_line: the line (1-based) of a ``grid:`` marker, or None.
        corners: the ``corners:`` layer, ``rows + 1`` rows of ``cols + 1``
            tokens (what stands on each corner of the cells), or None when
            the map has none (:mod:`gridlang.formats.layers`).
        corner_spans: where each token of the corner layer stands.
        borders: the ``borders:`` layer's tokens, one per border between two
            side-adjacent cells, in pzprjs's order (as
            :attr:`gridlang.core.grid.Grid.border_chars`), or None when the
            map has none (:mod:`gridlang.formats.layers`).
        border_spans: where each token of the border layer stands.
    """

    path: str
    source: str
    rows: list[str]
    positions: list[tuple[int, int]]
    params: Mapping[str, tuple[str, Span]] = field(default_factory=dict)
    char_spans: list[list[Span]] | None = None
    key_spans: Mapping[str, Span] = field(default_factory=dict)
    record: bool = False
    locate: Callable[[int, int], Span] | None = None
    variant: tuple[str, Span] | None = None
    comments: list[int] = field(default_factory=list)
    grid_line: int | None = None
    corners: list[list[str]] | None = None
    corner_spans: list[list[Span]] | None = None
    borders: list[str] | None = None
    border_spans: list[Span] | None = None

    def span(self, row: int, col: int) -> Span:
        """Where the character at grid ``(row, col)`` stands in the file."""
        if self.locate is not None:
            return self.locate(row, col)
        if self.char_spans is not None:
            return self.char_spans[row][col]
        line, start = self.positions[row]
        return Span(self.path, line, start + col)

    def corner_span(self, row: int, col: int) -> Span:
        """Where the token on corner ``(row, col)`` of the corner layer stands (the grid's first cell
        when the map has no corner layer)."""
        if self.corner_spans is not None:
            return self.corner_spans[row][col]
        return self.span(0, 0)

    def border_span(self, k: int) -> Span:
        """Where the token on border ``k`` (pzprjs's order) stands (the grid's first cell when the map has
        no border layer)."""
        if self.border_spans is not None:
            return self.border_spans[k]
        return self.span(0, 0)

    def error(self, message: str, span: Span) -> MapError:
        """A :class:`MapError` at ``span`` that shows the map's own line."""
        return MapError(message, span, source=self.source)


def size_problem(widths: list[int]) -> tuple[str, int, int] | None:
    """What is wrong with a grid whose rows have ``widths`` cells, against the limits of
    :func:`check_size`: the sentence and the ``(row, col)`` of the first cell past the
    limit, or None. For readers that check the size before they locate every cell."""
    if len(widths) > MAX_ROWS:
        return f"the grid has {len(widths):,} rows; a map has at most {MAX_ROWS:,}", MAX_ROWS, 0
    for r, width in enumerate(widths):
        if width > MAX_COLS:
            return f"row {r + 1} of the grid has {width:,} cells; a map has at most {MAX_COLS:,} columns", r, MAX_COLS
    width = widths[0]
    if len(widths) * width > MAX_CELLS:
        r, c = divmod(MAX_CELLS, width)
        return (f"the grid has {len(widths):,} rows of {width:,} cells, {len(widths) * width:,} in all; a map has "
                f"at most {MAX_CELLS:,} cells"), r, c
    return None


def is_comment(line: str) -> bool:
    """Whether a line above the grid is a comment (``#`` its first character other than a space)."""
    return line.lstrip().startswith(COMMENT)


def grid_start(lines: list[str], stop=None) -> tuple[int, int | None]:
    """Where a text map's grid starts.

    Args:
        lines: the file's lines.
        stop: a compiled pattern of lines that end the part above the grid
            other than grid rows (the layered format's ``rooms:``).

    Returns:
        ``(index, marker)``: the 0-based index of the grid's first line
        (``len(lines)`` when there is none), and the 1-based line of a
        ``grid:`` marker above it, or None. Above the grid stand blank
        lines, comments and ``name: value`` headers; under a ``grid:``
        line only blank lines are skipped.
    """
    for i, line in enumerate(lines):
        if GRID_MARKER.match(line):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            return j, i + 1
        if not line.strip() or is_comment(line):
            continue
        if HEADER_LINE.match(line) and not (stop is not None and stop.match(line)):
            continue
        return i, None
    return len(lines), None


def header_lines(lines: list[str]) -> list[int]:
    """The comment lines (1-based) above the grid (or above a ``grid:`` line)."""
    i, marker = grid_start(lines)
    end = i if marker is None else marker - 1
    return [j + 1 for j in range(end) if lines[j].strip() and is_comment(lines[j])]
