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

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from gridlang.core.clues import misfit
from gridlang.core.errors import GridlangError, MapError, Span, load_json, one_line_end, raise_all, read_source
from gridlang.core.grid import Grid
from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.limits import MAX_MAP_BYTES, MAX_RECORD_KEYS
from gridlang.formats.layers import read_layered
from gridlang.formats.mapdata import (
    COMMENT,
    GRID_MARKER,
    HEADER_LINE,
    STANDARD,
    VARIANT,
    MapData,
    grid_start,
    header_lines,
    is_comment,
    size_problem,
)
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.plugins import all_plugins, find_plugin

if TYPE_CHECKING:
    from gridlang.formats.json_spans import LineIndex

_VARIANT_NAME = LazyRegex(r"^[A-Za-z0-9_.-]{1,64}$")
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
        from gridlang.language.encodings.url import url_line

        if url_line(text) is not None:
            from gridlang.formats.puzzlink import map_from_url

            return map_from_url(text, p, spec, puzzle)
    data = None
    for plugin in [find_plugin(puzzle)] if puzzle is not None else all_plugins():
        data = plugin.read_map(p, text)
        if data is not None:
            break
    if data is None:
        data = read_layered(p, text)
    if data is None:
        data = _read_json(p, text) if text.lstrip().startswith("{") else _read_text(p, text)
    check_size(data)
    _check_rectangular(data)
    return data


def check_size(data: MapData) -> None:
    """Refuse a grid beyond :data:`~gridlang.core.limits.MAX_ROWS` rows,
    :data:`~gridlang.core.limits.MAX_COLS` columns or
    :data:`~gridlang.core.limits.MAX_CELLS` cells.

    Raises:
        MapError: at the first row, column or cell past the limit.
    """
    problem = size_problem([len(row) for row in data.rows])
    if problem is not None:
        message, r, c = problem
        raise data.error(message, data.span(r, c))


def _read_text(path: str, text: str) -> MapData:
    lines = one_line_end(text).split("\n")
    params: dict[str, tuple[str, Span]] = {}
    keys: dict[str, Span] = {}
    variant: tuple[str, Span] | None = None
    comments = header_lines(lines)
    i, marker = grid_start(lines)
    for j in range(i if marker is None else marker - 1):
        line = lines[j]
        m = HEADER_LINE.match(line)
        if m is None or not line.strip() or is_comment(line):
            continue
        name = m.group(1)
        span = Span(path, j + 1, m.start(2) + 1, m.end(2) + 1)
        if name in params or name == VARIANT and variant is not None:
            raise MapError(f"header {name!r} is given twice", Span(path, j + 1, m.start(1) + 1), source=text)
        if name == VARIANT:
            variant = (_variant_name(m.group(2), span, text), span)
            continue
        params[name] = (m.group(2), span)
        keys[name] = Span(path, j + 1, m.start(1) + 1, m.end(1) + 1)
    rows, positions = [], []
    for j in range(i, len(lines)):
        line = lines[j].rstrip("\n")
        if not line.strip():
            # A blank line ends the grid; anything after it must be blank too.
            if any(lines[k].strip() for k in range(j, len(lines))):
                raise MapError("a blank line splits the grid", Span(path, j + 1, 1), source=text)
            break
        if GRID_MARKER.match(line):
            raise MapError("a 'grid:' line stands inside the grid; it belongs above the grid's first row",
                           Span(path, j + 1, len(line) - len(line.lstrip()) + 1), source=text)
        rows.append(line)
        positions.append((j + 1, 1))
    if not rows:
        where = marker if marker is not None else max(i, 1)
        raise MapError("the map has header lines but no grid", Span(path, where, 1), source=text)
    return MapData(path, text, rows, positions, params, key_spans=keys, comments=comments, grid_line=marker,
                   variant=variant)


def _read_json(path: str, text: str) -> MapData:
    """A JSON level record, in time linear in its text: the grid's characters are located
    when an error needs them (:mod:`gridlang.formats.json_spans`)."""
    from gridlang.formats.json_spans import LineIndex, StringChars, members, nth_key  # a text map never needs it

    record = load_json(text, path, MapError, "map")
    if not isinstance(record, dict) or not isinstance(record.get("map"), str):
        raise MapError('a JSON map is an object with a "map" string', Span(path, 1, 1), source=text)
    index = LineIndex(path, text)
    if len(record) > MAX_RECORD_KEYS:
        raise MapError(f"the record has {len(record):,} keys; a map record has at most {MAX_RECORD_KEYS:,} "
                       '(the "map", the parameters and fields of its own)',
                       index.span(nth_key(text, MAX_RECORD_KEYS) or 0), source=text)
    places = members(text)
    chars = StringChars(text, places["map"][1])
    grid_text = record["map"]
    rows: list[str] = []
    starts: list[int] = []  # each row's first character, as an index into grid_text
    pieces: list[str] = []  # each row as written, carriage returns included
    at = 0
    for piece in grid_text.split("\n"):
        rows.append(piece.replace("\r", ""))
        starts.append(at)
        pieces.append(piece)
        at += len(piece) + 1
    if len(rows) > 1 and not pieces[-1]:  # the string's last line break ends the last row
        del rows[-1], starts[-1], pieces[-1]

    def locate(r: int, c: int) -> Span:
        piece = pieces[r]
        if "\r" in piece:  # the c-th character that is not a carriage return
            kept = [k for k, ch in enumerate(piece) if ch != "\r"]
            c = kept[c] if c < len(kept) else len(piece) + c - len(kept)
        return index.span(chars.offset(starts[r] + c))

    keep = [k for k, r in enumerate(rows) if r.strip()]
    if not keep:
        raise MapError('the "map" string is empty', index.span(chars.offset(0)), source=text)
    for k in range(keep[0], keep[-1] + 1):
        if not rows[k].strip():  # a row is never dropped: only the string's first and last lines may be blank
            where = locate(k, 0) if rows[k] else _after(locate(k - 1, len(rows[k - 1]) - 1))
            raise MapError(f'a blank line splits the grid of the "map" string (after its row {k - keep[0]})',
                           where, source=text)
    rows, starts, pieces = (part[keep[0]:keep[-1] + 1] for part in (rows, starts, pieces))
    variant = None
    if VARIANT in record:
        span = index.span(places[VARIANT][1])
        if not isinstance(record[VARIANT], str):
            raise MapError('"variant" names the rules the map is for, as a string: "standard", or the name '
                           "after 'variant' in a spec's puzzle statement", span,
                           source=text)
        variant = (_variant_name(record[VARIANT], span, text), span)
    fields = _RecordFields({k: v for k, v in record.items() if k not in ("map", VARIANT)}, places, index)
    data = MapData(path, text, rows, [], fields, None, fields.key_spans, record=True, locate=locate,
                   variant=variant)
    check_size(data)  # before a position is worked out for each row
    data.positions = [(s.line, s.column) for s in (locate(r, 0) for r in range(len(rows)))]
    return data


def _after(span: Span) -> Span:
    """Just after a character (where the line break that follows a JSON map's row stands)."""
    return Span(span.file, span.line, span.column + 1)


class _RecordFields(Mapping):
    """A JSON record's fields other than ``"map"`` and ``"variant"``, as :attr:`MapData.params`
    holds them (``(parameter text, span of the value)``), each made when it is asked for: a
    record may carry many fields of its own, which nothing reads.

    Attributes:
        key_spans: field -> the span of its key, likewise made when asked for.
    """

    def __init__(self, record: dict, places: dict[str, tuple[int, int]], index: LineIndex):
        self.record = record
        self.places = places
        self.index = index
        self.key_spans = _KeySpans(self)

    def __getitem__(self, key: str) -> tuple[str, Span]:
        return _json_raw(self.record[key]), self.index.span(self.places.get(key, (0, 0))[1])

    def __iter__(self):
        return iter(self.record)

    def __len__(self) -> int:
        return len(self.record)


class _KeySpans(Mapping):
    """Where each field's key stands (see :class:`_RecordFields`)."""

    def __init__(self, fields: _RecordFields):
        self.fields = fields

    def __getitem__(self, key: str) -> Span:
        if key not in self.fields.record:
            raise KeyError(key)
        return self.fields.index.span(self.fields.places.get(key, (0, 0))[0], len(key) + 2)

    def __iter__(self):
        return iter(self.fields.record)

    def __len__(self) -> int:
        return len(self.fields.record)


def _json_raw(value: object) -> str:
    """A JSON value as parameter text: a string as it is, anything else as
    its compact JSON (``12``, ``[1,2,3]``, ``12.5``, ``true``), so that a
    list is a set of integers and never an integer (``"budget": [1]`` is refused)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"))


def json_item_spans(path: str, text: str, key: str, count: int) -> list[Span]:
    """Where the first ``count`` items of the JSON array at ``key`` begin.

    Args:
        path: the file's name, for the spans.
        text: the JSON text (an object, already decoded without error).
        key: the top-level key whose value is the array.
        count: how many items to locate.

    Returns:
        ``count`` spans, each at the first character of an item; items
        past the last one found (or all, if ``key`` is absent) get the span
        of the key itself (or line 1, column 1). Linear in the text.
    """
    from gridlang.formats.json_spans import LineIndex, item_offsets, members

    index = LineIndex(path, text)
    place = members(text).get(key)
    if place is None:
        return [Span(path, 1, 1)] * count
    spans = [index.span(i) for i in item_offsets(text, place[1], count)]
    return spans + [index.span(place[0])] * (count - len(spans))


def json_key_span(path: str, text: str, key: str) -> Span:
    """Where the value of the top-level ``"key":`` of a JSON object begins (line 1, column 1
    when the key is absent)."""
    from gridlang.formats.json_spans import LineIndex, members

    place = members(text).get(key)
    return Span(path, 1, 1) if place is None else LineIndex(path, text).span(place[1])


def _check_rectangular(data: MapData) -> None:
    width = len(data.rows[0])
    for r, row in enumerate(data.rows):
        if len(row) != width:
            col = min(len(row), width)
            comment = (f"; a comment line ({COMMENT!r}) stands only above the grid"
                       if data.char_spans is None and data.locate is None and is_comment(row) else "")
            raise data.error(
                f"row {r + 1} of the grid has {len(row)} cells; the first row has {width}{comment}",
                data.span(r, col) if col < len(row) else _end_of_row(data, r),
            )


def _end_of_row(data: MapData, r: int) -> Span:
    if data.locate is not None:
        last = data.locate(r, len(data.rows[r]) - 1)
        return Span(data.path, last.line, last.column + 1)
    if data.char_spans is not None:
        last = data.char_spans[r][-1] if data.char_spans[r] else Span(data.path, 1, 1)
        return Span(data.path, last.line, last.column + 1)
    line, start = data.positions[r]
    return Span(data.path, line, start + len(data.rows[r]))


def build_grid(symbols: Symbols, data: MapData) -> Grid:
    """Interpret a map's characters through the spec's tiles.

    Checks every character against the declared tiles, each tile's count
    (``exactly 1``), and that every character of a ``linked`` tile appears
    exactly twice (or not at all).

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
        if tile.count is None:
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
                elif cells:
                    r, c = cells[0] if len(cells) == 1 else cells[2]
                    errors.append(data.error(
                        f"linked tile {ch!r} appears {len(cells)} time{'s' if len(cells) > 1 else ''}; "
                        f"each linked character must appear exactly twice", data.span(r, c)))
    raise_all(errors)
    chars = tuple(ch for row in data.rows for ch in row)
    return Grid(len(data.rows), cols, chars, tuple(tiles), tuple(sorted(links)))


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


def _legend(symbols: Symbols) -> str:
    parts = []
    for name, tile in symbols.tiles.items():
        spec = " ".join(s.first if s.first == s.last else f"{s.first}-{s.last}" for s in tile.chars)
        parts.append(f"{spec} {name}")
    return ", ".join(parts)


def _variant_name(name: str, span: Span, text: str) -> str:
    if not _VARIANT_NAME.match(name):
        raise MapError(f"{VARIANT}: names the rules the map is for, one word of letters, digits, '_', '-' or '.' "
                       f"(as {STANDARD}, or a variant's name), not {name[:40]!r}", span, source=text)
    return name


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
