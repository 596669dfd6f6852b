"""Read map files and build the grid through a spec's tile declarations.

Two formats are accepted:

* **Text**, one grid row per line::

      budget: 12
      ~~..~~~.~~~~
      ~C.C.......~

  Optional ``name: value`` header lines stand above the grid and give
  parameters (a name that is no parameter of the spec is an error, see
  :func:`gridlang.formats.params.resolve_params`); blank lines and comment lines
  (their first character other than a space ``#``) above the grid are
  skipped. The grid starts at the first other line, or right under a line
  ``grid:``, under which every line is a row, whatever its first
  character. A ``#`` line above the grid of a spec that declares ``#`` as
  a tile could be either, so :func:`build_grid` refuses it unless a
  ``grid:`` line says where the grid starts. Every row must have the same
  width; a blank line ends the grid.
* **JSON**: a level record ``{"map": "~~..\\n~C.C...", "budget": 12}``;
  any other key that names a parameter of the spec gives its value; other
  keys (a level's name, its date) are the record's own and are ignored.
  The ``"map"`` string has no comments; blank lines may stand only at its
  start and end.

The header ``variant: NAME`` (a JSON record's ``"variant"`` key) is
reserved, never a parameter: it names the rules the map is for, checked by
:func:`check_variant` against the spec's ``puzzle "..." variant "..."``
(``standard`` when the spec names none). A map without it makes no claim.

A puzzle family's own instance formats are read by its plug-in
(:meth:`gridlang.plugins.Plugin.read_map`), asked before these two.

Characters are looked up in the spec's tiles, not in a fixed table. Every
problem is a :class:`~gridlang.core.errors.MapError` that points at the map file's
line and column (for JSON, at the character inside the ``"map"`` string).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gridlang.core.clues import misfit
from gridlang.core.errors import GridlangError, MapError, Span, one_line_end, raise_all, read_source
from gridlang.core.grid import Grid, border_name, frame_border, room_label, rooms_of
from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.limits import MAX_MAP_BYTES
from gridlang.formats.mapdata import COMMENT, STANDARD, MapData
from gridlang.formats.textmaps import read_text_map
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.parser import parse_file

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib

_PUZZLE_LINE = LazyRegex(r'^\s*puzzle\s+"([^"]*)"(?:\s+variant\s+"([^"]*)")?', re.MULTILINE)


def read_map(path: str | Path, puzzle: str | None = None, spec=None) -> MapData:
    """Read a map file without interpreting its characters.

    A file that holds a puzz.link URL (its first line that is not a comment
    is ``https://puzz.link/p?...``) is decoded through the spec's format
    (:func:`gridlang.formats.puzzlink.map_from_url`). Otherwise the puzzle's
    plug-in reads it when the text is in a format of its own, and else it
    is read as text or as a JSON level record.

    Args:
        path: the map or instance file.
        puzzle: the spec's ``puzzle`` name, whose plug-in is asked first;
            None asks every registered plug-in in turn (each recognises only
            its own formats).
        spec: the parsed spec the map is read for, whose format reads a
            URL; None reads a URL through the bundled spec of its genre.

    Returns:
        The grid rows and header parameters, with their locations.

    Raises:
        MapError: the file is missing, empty, not UTF-8, malformed JSON, not
            in a format a plug-in or this module reads, larger than the
            limits of :mod:`gridlang.core.limits` (bytes, rows, columns, cells),
            or its rows are ragged; located at the line and column.
    """
    return parse_map(read_source(path, MapError, "map", MAX_MAP_BYTES), str(path), puzzle, spec)


def parse_map(text: str, path: str = "<map>", puzzle: str | None = None, spec=None) -> MapData:
    """Read a map from its text, as :func:`read_map` reads a file.

    Args:
        text: the map (text rows under optional headers, a JSON record, or a puzz.link URL).
        path: the name errors point at.
        puzzle: as in :func:`read_map`.
        spec: as in :func:`read_map`.

    Raises:
        MapError: as :func:`read_map`.
    """
    p = path
    if not text.strip():
        raise MapError("the map file is empty", Span(p, 1, 1), source=text)
    if "://" in text:  # a URL line holds one; without it the puzz.link package is not imported (its engine, 8 ms)
        # imported on use, not at start-up
        from gridlang.language.encodings.url import url_line

        if url_line(text) is not None:
            # imported on use, not at start-up
            from gridlang.formats.puzzlink import map_from_url

            return map_from_url(text, p, spec, puzzle)
    return read_text_map(text, p, puzzle)


def build_grid(symbols: Symbols, data: MapData, counts: bool = True) -> Grid:
    """Interpret a map's characters through the spec's tiles.

    Checks every character against the declared tiles, each tile's count
    (``exactly 1``), and that every character of a ``linked`` tile appears
    exactly twice (or not at all).

    Args:
        symbols: the checked spec's symbols.
        data: the map.
        counts: check the tiles' counts and the links; False for a puzzle
            still being set (the page draws a board before every tile is placed), whose
            grid is drawn and never solved.

    Returns:
        The grid graph with link edges.

    Raises:
        MapError: one problem; MultipleErrors: several. A comment line
            above the grid of a spec that declares ``#`` as a tile (it could
            be a row) is refused unless a ``grid:`` line marks the grid.
    """
    _check_comments(symbols, data)
    errors: list[GridlangError] = []
    tiles: list[str] = []
    where: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(data.rows):
        for c, ch in enumerate(row):
            name = symbols.chars.get(ch)
            if name is None:
                if len(errors) < 20:
                    comment = (f"; a comment line ({COMMENT!r}) stands only above the grid"
                               if c == 0 and ch == COMMENT and data.char_spans is None and data.locate is None
                               else "")
                    errors.append(data.error(
                        f"character {ch!r} at row {r + 1}, column {c + 1} is not a tile of this spec "
                        f"(tiles: {_legend(symbols)}){comment}", data.span(r, c)))
                name = "?"
            elif symbols.tiles[name].parts and len(errors) < 20:
                problem = misfit(symbols.tiles[name].parts, ch)
                if problem is not None:
                    errors.append(data.error(f"row {r + 1}, column {c + 1}: {problem}", data.span(r, c)))
            tiles.append(name)
            where.setdefault(ch, []).append((r, c))
    raise_all(errors)
    cols = len(data.rows[0])
    for name, tile in symbols.tiles.items():
        if tile.count is None or not counts:
            continue
        op, n = tile.count
        cells = [rc for spec in tile.chars for ch in spec.chars() for rc in where.get(ch, [])]
        cells.sort()
        chars = "".join(repr(ch) for spec in tile.chars for ch in spec.chars())[:40]
        if op == "==" and len(cells) != n or op == "<=" and len(cells) > n:
            if len(cells) > n:
                r, c = cells[n]
                errors.append(data.error(
                    f"the map has {len(cells)} {name!r} tiles ({chars}); the spec allows "
                    f"{'exactly' if op == '==' else 'at most'} {n}", data.span(r, c)))
            else:
                errors.append(data.error(
                    f"the map has no {name!r} tile ({chars}); the spec requires exactly {n}"
                    if not cells else
                    f"the map has {len(cells)} {name!r} tiles ({chars}); the spec requires exactly {n}",
                    data.span(0, 0)))
        elif op == ">=" and len(cells) < n:
            errors.append(data.error(
                f"the map has {len(cells)} {name!r} tiles ({chars}); the spec requires at least {n}",
                data.span(0, 0)))
    links: list[tuple[int, int]] = []
    for name, tile in symbols.tiles.items():
        if not tile.linked:
            continue
        for spec in tile.chars:
            for ch in spec.chars():
                cells = where.get(ch, [])
                if len(cells) == 2:
                    (r1, c1), (r2, c2) = cells
                    links.append((r1 * cols + c1, r2 * cols + c2))
                elif cells and counts:
                    r, c = cells[0] if len(cells) == 1 else cells[2]
                    errors.append(data.error(
                        f"linked tile {ch!r} appears {len(cells)} time{'s' if len(cells) > 1 else ''}; "
                        f"each linked character must appear exactly twice", data.span(r, c)))
    corner_chars, corner_tiles = _corners(symbols, data, errors)
    border_chars, border_tiles = _borders(symbols, data, errors)
    raise_all(errors)
    chars = tuple(ch for row in data.rows for ch in row)
    rooms: tuple[int, ...] = ()
    roomless = {name for name, tile in symbols.tiles.items() if tile.no_room}
    labels = [room_label(ch) for ch in chars]
    if roomless and any(label is not None for label in labels):
        rooms = rooms_of(len(data.rows), cols, labels, {i for i, t in enumerate(tiles) if t in roomless})
    return Grid(len(data.rows), cols, chars, tuple(tiles), tuple(sorted(links)), rooms=rooms,
                corner_chars=corner_chars, corner_tiles=corner_tiles, border_chars=border_chars,
                border_tiles=border_tiles)


# A place other than the cells: what its tiles stand on, the shape of its map layer, and the section of
# docs/language.md that describes it.
_LAYERS = {
    "corners": ("the corners of the cells", "a row and a column more than the grid", "Clues on corners"),
    "borders": ("the borders between cells", "2R - 1 rows", "Clues on borders"),
}


def _layer_to_read(place: str, spec_tiles: dict, data: MapData, errors: list) -> bool:
    """Whether the map's layer of ``place`` (``corners`` or ``borders``) is to be read: the spec puts tiles
    there and the map gives the layer. A layer the spec has no tile for, or tiles with no layer, is an
    error appended to ``errors``, located at the layer or at the grid."""
    where, shape, section = _LAYERS[place]
    layer = getattr(data, place)
    if not spec_tiles:
        if layer is not None:
            span = (data.corner_span(0, 0) if place == "corners" else
                    data.border_span(0) if layer else data.span(0, 0))
            errors.append(data.error(f"the map has a '{place}:' layer, and the spec puts no tile on {where} "
                                     f"(tile NAME ... on {place})", span))
        return False
    if layer is None:
        errors.append(data.error(f"the spec puts tiles on {where} ({', '.join(spec_tiles)}); the map gives no "
                                 f"'{place}:' layer under its grid ({shape}: docs/language.md, '{section}')",
                                 data.span(0, 0)))
        return False
    return True


def _corners(symbols: Symbols, data: MapData, errors: list) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The corner layer's characters and tiles, row-major (empty for a spec without tiles on corners);
    each problem appended to ``errors``, located."""
    if not _layer_to_read("corners", symbols.corner_tiles, data, errors):
        return (), ()
    chars: list[str] = []
    tiles: list[str] = []
    for r, row in enumerate(data.corners):
        for c, ch in enumerate(row):
            name = symbols.corner_chars.get(ch)
            if name is None:
                if len(errors) < 20:
                    legend = _legend(symbols, symbols.corner_tiles)
                    errors.append(data.error(f"{ch!r} on corner row {r + 1}, column {c + 1} is not a tile on "
                                             f"corners of this spec (tiles on corners: {legend})",
                                             data.corner_span(r, c)))
                name = "?"
            chars.append(ch)
            tiles.append(name)
    return tuple(chars), tuple(tiles)


def _borders(symbols: Symbols, data: MapData, errors: list) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The border layer's characters and tiles in pzprjs's order (empty for a spec without tiles on
    borders); each problem appended to ``errors``, located."""
    rows, cols = len(data.rows), len(data.rows[0])
    inner = rows * (cols - 1) + (rows - 1) * cols
    if data.borders is None and inner == 0 and not symbols.frame_borders:
        return (), ()  # one cell: no border between cells, so no layer to give
    if not _layer_to_read("borders", symbols.border_tiles, data, errors):
        return (), ()
    framed = len(data.borders) == inner + 2 * (rows + cols)
    if framed != symbols.frame_borders:
        errors.append(data.error(
            f"the border layer gives the grid's frame, and the spec's tiles on borders stand between cells only "
            f"({_legend(symbols, symbols.border_tiles)}): give the {2 * rows - 1} rows of the borders between "
            f"cells, or declare the tiles 'on borders and frame'" if framed else
            f"the spec's tiles on borders stand on the grid's frame too ('on borders and frame'); the border "
            f"layer gives no frame: it needs {2 * rows + 1} rows, the frame's top first (docs/language.md, "
            f"'Clues on borders')", data.border_span(inner if framed else 0)))
        return (), ()
    tiles: list[str] = []
    for k, ch in enumerate(data.borders):
        name = symbols.border_chars.get(ch)
        if name is None:
            if len(errors) < 20:
                where = border_places_text(rows, cols, k)
                errors.append(data.error(f"{ch!r} on {where} is not a tile on borders of this spec "
                                         f"(tiles on borders: {_legend(symbols, symbols.border_tiles)})",
                                         data.border_span(k)))
            name = "?"
        tiles.append(name)
    return tuple(data.borders), tuple(tiles)


def border_places_text(rows: int, cols: int, k: int) -> str:
    """Border ``k`` of a ``rows x cols`` map as an error message names it: ``the border between row 1,
    columns 2 and 3``, ``the border between column 2, rows 1 and 2``, or ``the frame above row 1, column
    2`` (below, left of, right of)."""
    if frame_border(rows, cols, k) is not None:
        return border_name(rows, cols, k)
    across = rows * (cols - 1)
    r, c = divmod(k, cols - 1) if k < across else divmod(k - across, cols)
    return (f"the border between row {r + 1}, columns {c + 1} and {c + 2}" if k < across else
            f"the border between column {c + 1}, rows {r + 1} and {r + 2}")


def _check_comments(symbols: Symbols, data: MapData) -> None:
    """Refuse a comment line above the grid that could be a row: the spec declares ``#`` as a tile
    and no ``grid:`` line says where the grid starts.

    Raises:
        MapError: at the first such line.
    """
    if not data.comments or data.grid_line is not None:
        return
    name = symbols.chars.get(COMMENT)
    if name is None:
        return
    line = data.comments[0]
    text = one_line_end(data.source).split("\n")[line - 1]
    more = len(data.comments) - 1
    others = f" (and {more} more line{'s' if more > 1 else ''} like it)" if more else ""
    raise data.error(
        f"line {line} begins with {COMMENT!r}, which this spec declares as the tile {name!r}: it could be a "
        f"row of the grid or a comment{others}; write a line 'grid:' above the grid's first row (every line "
        f"under it is a row; {COMMENT!r} lines above it are comments)",
        Span(data.path, line, len(text) - len(text.lstrip()) + 1))


def _legend(symbols: Symbols, tiles: dict | None = None) -> str:
    parts = []
    for name, tile in (symbols.tiles if tiles is None else tiles).items():
        spec = " ".join(s.first if s.first == s.last else f"{s.first}-{s.last}" for s in tile.chars)
        spec = "a number" if tile.number and not spec else spec
        parts.append(f"{spec} {name}")
    return ", ".join(parts)


def rules_of(spec: ast.Spec) -> str:
    """The rules a spec states: its ``puzzle`` statement's variant, else :data:`STANDARD`."""
    return spec.puzzle.variant if spec.puzzle is not None and spec.puzzle.variant else STANDARD


def check_variant(spec: ast.Spec, data: MapData) -> None:
    """Refuse a map whose ``variant:`` header names other rules than the spec's.

    A map without the header makes no claim and passes.

    Raises:
        MapError: at the header's value, naming both rules and, when one is
            found (:func:`spec_for`), the spec to use instead.
    """
    if data.variant is None:
        return
    stated, span = data.variant
    rules = rules_of(spec)
    if stated == rules:
        return
    other = spec_for(spec, stated)
    use = f"use {other}" if other else f"no spec for the {stated} rules was found beside it"
    raise MapError(f"this map is for the {stated} rules, but {spec.path} states the {rules} ones ({use})",
                   span, source=data.source)


def spec_for(spec: ast.Spec, rules: str) -> str | None:
    """The spec of the same puzzle for other rules: a ``.grid`` file beside ``spec`` (named as
    ``spec.path`` is), else a bundled one, whose ``puzzle`` line names the same puzzle and ``rules``.

    Returns:
        Its path, or None when there is none.
    """
    if spec.puzzle is None:
        return None
    # imported on use: a map of the spec's own rules never gets here, and a solve does not import pathlib
    from pathlib import Path

    here = Path(spec.path).parent
    try:
        from importlib import resources

        bundled = Path(str(resources.files("gridlang.puzzles")))
    except ModuleNotFoundError:
        bundled = None
    for folder, shown in ((here, here), (bundled, bundled)):
        if folder is None or not folder.is_dir():
            continue
        for f in sorted(folder.glob("*.grid")):
            try:
                with f.open(encoding="utf-8") as handle:
                    m = _PUZZLE_LINE.search(handle.read(8192))
            except (OSError, UnicodeDecodeError):
                continue
            if m and m.group(1) == spec.puzzle.name and (m.group(2) or STANDARD) == rules:
                return str(shown / f.name)
    return None


def stated_variant(path: str | Path, puzzle: str | None = None) -> str | None:
    """The rules a map file states (its ``variant:`` header), or None: no header, or a map that
    cannot be read (its own solve reports why)."""
    try:
        data = read_map(path, puzzle)
    except GridlangError:
        return None
    return data.variant[0] if data.variant is not None else None


def encode_map(spec_path, map_path, params: dict[str, str] | None = None) -> str:
    """Write a map file as a puzz.link URL through its spec's format (see :func:`gridlang.formats.puzzlink.encode`).

    Raises:
        GridlangError: as :func:`gridlang.formats.puzzlink.encode`, or the map file cannot be read.
    """
    from gridlang.formats.puzzlink import encode  # only for a URL written: a solve never imports it

    tree = parse_file(spec_path)
    data = read_map(map_path, tree.puzzle.name if tree.puzzle else None, spec=tree)
    return encode(tree, data, params)
