"""Read map files and build the grid through a spec's tile declarations.

Two formats are accepted:

* **Text** (the game's own map strings, one row per line)::

      budget: 12
      ~~..~~~.~~~~
      ~C.C.......~

  Optional ``name: value`` header lines stand above the grid and give
  parameters; blank lines and lines starting with ``#`` above the grid are
  skipped. Every row must have the same width.
* **JSON**: the game's level record ``{"map": "~~..\\n~C.C...", "budget": 12}``;
  any other key that names a parameter of the spec gives its value.
* **Snake Eggs JSON record** (the shape of ``tests/data/snake_eggs``):
  ``{"rows": R, "cols": C, "egg_sizes": [...], "head": [r, c], "tail":
  [r, c], "clues": [{"cell": [r, c], "egg": k}, ...]}``, told apart by its
  ``rows``/``cols``/``egg_sizes`` keys. It is turned into the Snake Eggs
  text format (:func:`snake_eggs_rows`): ``.`` an unknown cell, ``o`` a
  circled end, ``1``-``9`` then ``A``-``Z`` a clue of that size; the sizes
  become the parameter ``sizes``. Errors point at the record's entry.

Characters are looked up in the spec's tiles, not in a fixed table. Every
problem is a :class:`~gridlang.errors.MapError` that points at the map file's
line and column (for JSON, at the character inside the ``"map"`` string).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .checker import Symbols
from .errors import GridlangError, MapError, Span, raise_all, read_source
from .grid import Grid

_HEADER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")


@dataclass
class MapData:
    """A map file's grid rows and header parameters, with their locations.

    Attributes:
        path: the file as the user named it.
        source: the file's text.
        rows: the grid rows, top to bottom.
        positions: for each row, ``(line, column)`` of its first character in
            the file (1-based); for JSON, per character (see ``char_spans``).
        params: header parameters: name -> (raw text, span of the value).
        char_spans: for JSON maps, the span of every grid character, row by row.
    """

    path: str
    source: str
    rows: list[str]
    positions: list[tuple[int, int]]
    params: dict[str, tuple[str, Span]] = field(default_factory=dict)
    char_spans: list[list[Span]] | None = None

    def span(self, row: int, col: int) -> Span:
        """Where the character at grid ``(row, col)`` stands in the file."""
        if self.char_spans is not None:
            return self.char_spans[row][col]
        line, start = self.positions[row]
        return Span(self.path, line, start + col)

    def error(self, message: str, span: Span) -> MapError:
        """A :class:`MapError` at ``span`` that shows the map's own line."""
        return MapError(message, span, source=self.source)


def read_map(path: str | Path) -> MapData:
    """Read a map file (text or JSON) without interpreting its characters.

    Raises:
        MapError: the file is missing, empty, not UTF-8, malformed JSON, or its
            rows are ragged.
    """
    p = str(path)
    text = read_source(path, MapError, "map")
    if not text.strip():
        raise MapError("the map file is empty", Span(p, 1, 1), source=text)
    if text.lstrip().startswith("{"):
        data = _read_json(p, text)
        if data is None:
            data = _read_snake_eggs_json(p, text)
    else:
        data = _read_text(p, text)
    _check_rectangular(data)
    return data


def _read_text(path: str, text: str) -> MapData:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    params: dict[str, tuple[str, Span]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _HEADER.match(line)
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        if m is None:
            break
        name = m.group(1)
        span = Span(path, i + 1, m.start(2) + 1, m.end(2) + 1)
        if name in params:
            raise MapError(f"header {name!r} is given twice", Span(path, i + 1, m.start(1) + 1), source=text)
        params[name] = (m.group(2), span)
        i += 1
    rows, positions = [], []
    for j in range(i, len(lines)):
        line = lines[j].rstrip("\n")
        if not line.strip():
            # A blank line ends the grid; anything after it must be blank too.
            if any(lines[k].strip() for k in range(j, len(lines))):
                raise MapError("a blank line splits the grid", Span(path, j + 1, 1), source=text)
            break
        rows.append(line)
        positions.append((j + 1, 1))
    if not rows:
        raise MapError("the map has header lines but no grid", Span(path, max(i, 1), 1), source=text)
    return MapData(path, text, rows, positions, params)


def _read_json(path: str, text: str) -> MapData:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise MapError(f"the map is not valid JSON: {e.msg}", Span(path, e.lineno, e.colno), source=text) from e
    if isinstance(record, dict) and "map" not in record and {"rows", "cols", "egg_sizes"} <= set(record):
        return None  # a Snake Eggs record
    if not isinstance(record, dict) or not isinstance(record.get("map"), str):
        raise MapError('a JSON map is an object with a "map" string', Span(path, 1, 1), source=text)
    spans = _json_string_spans(path, text, "map")
    grid_text = record["map"]
    rows, char_spans = [], []
    current, current_spans = [], []
    for ch, span in zip(grid_text, spans):
        if ch == "\n":
            rows.append("".join(current))
            char_spans.append(current_spans)
            current, current_spans = [], []
        elif ch != "\r":
            current.append(ch)
            current_spans.append(span)
    if current:
        rows.append("".join(current))
        char_spans.append(current_spans)
    keep = [k for k, r in enumerate(rows) if r.strip()]
    rows = [rows[k] for k in keep]
    char_spans = [char_spans[k] for k in keep]
    if not rows:
        raise MapError('the "map" string is empty', spans[0] if spans else Span(path, 1, 1), source=text)
    params = {}
    for key, value in record.items():
        if key != "map" and isinstance(value, (int, str, list)) and not isinstance(value, bool):
            raw = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
            params[key] = (raw, _json_key_span(path, text, key))
    positions = [(s[0].line, s[0].column) for s in char_spans]
    return MapData(path, text, rows, positions, params, char_spans)


SNAKE_EGGS_UNKNOWN = "."
SNAKE_EGGS_END = "o"


def snake_eggs_char(size: int) -> str:
    """The clue character for an egg size: ``1``-``9``, then ``A`` (10) to ``Z`` (35).

    Raises:
        ValueError: the size is below 1 or above 35.
    """
    if 1 <= size <= 9:
        return str(size)
    if 10 <= size <= 35:
        return chr(ord("A") + size - 10)
    raise ValueError(f"no clue character for an egg of size {size} (1 to 35 can be written)")


def snake_eggs_rows(record: dict) -> list[str]:
    """The text-format grid rows of a Snake Eggs JSON record (no checks; see :func:`read_map`)."""
    grid = [[SNAKE_EGGS_UNKNOWN] * record["cols"] for _ in range(record["rows"])]
    for key in ("head", "tail"):
        if record.get(key) is not None:
            r, c = record[key]
            grid[r][c] = SNAKE_EGGS_END
    for clue in record.get("clues") or []:
        r, c = clue["cell"]
        grid[r][c] = snake_eggs_char(clue["egg"])
    return ["".join(row) for row in grid]


def _read_snake_eggs_json(path: str, text: str) -> MapData:
    record = json.loads(text)

    def fail(message: str, span: Span) -> MapError:
        return MapError(message, span, source=text)

    def key_span(key: str) -> Span:
        return _json_key_span(path, text, key)

    for key in ("rows", "cols"):
        v = record[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise fail(f'"{key}" must be a positive integer, not {v!r}', key_span(key))
    rows, cols = record["rows"], record["cols"]
    sizes = record["egg_sizes"]
    if not isinstance(sizes, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in sizes):
        raise fail('"egg_sizes" must be a list of integers', key_span("egg_sizes"))
    rows_span = key_span("rows")
    spans = [[rows_span] * cols for _ in range(rows)]

    def cell_of(value, span: Span, what: str) -> tuple[int, int]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            raise fail(f"{what} must be a cell [row, col], not {value!r}", span)
        r, c = value
        if not (0 <= r < rows and 0 <= c < cols):
            raise fail(f"{what} {value} lies outside the {rows}x{cols} grid (rows and columns count from 0)", span)
        return r, c

    given: dict[tuple[int, int], str] = {}
    for key in ("head", "tail"):
        if record.get(key) is None:
            continue
        span = key_span(key)
        rc = cell_of(record[key], span, f'"{key}"')
        if rc in given:
            raise fail(f'"{key}" {list(rc)} is the same cell as "{given[rc]}"', span)
        given[rc] = key
        spans[rc[0]][rc[1]] = span
    clues = record.get("clues") or []
    if not isinstance(clues, list):
        raise fail('"clues" must be a list of {"cell": [r, c], "egg": k}', key_span("clues"))
    clue_spans = _json_item_spans(path, text, "clues", len(clues))
    seen: dict[tuple[int, int], int] = {}
    for j, clue in enumerate(clues):
        span = clue_spans[j]
        if not isinstance(clue, dict) or "cell" not in clue or "egg" not in clue:
            raise fail('a clue is {"cell": [r, c], "egg": k}', span)
        rc = cell_of(clue["cell"], span, "clue cell")
        k = clue["egg"]
        if not isinstance(k, int) or isinstance(k, bool):
            raise fail(f"the clue's egg size must be an integer, not {k!r}", span)
        if rc in given:
            raise fail(f"clue {k} at {list(rc)} stands on the circled end (\"{given[rc]}\"); "
                       f"a clue cell is never on the snake", span)
        if rc in seen and seen[rc] != k:
            raise fail(f"two clues at {list(rc)}: {seen[rc]} and {k}", span)
        try:
            snake_eggs_char(k)
        except ValueError as e:
            raise fail(str(e), span) from e
        seen[rc] = k
        spans[rc[0]][rc[1]] = span
    grid_rows = snake_eggs_rows(record)
    params = {"sizes": (",".join(str(k) for k in sizes), key_span("egg_sizes"))}
    positions = [(rows_span.line, rows_span.column)] * rows
    return MapData(path, text, grid_rows, positions, params, spans)


def _json_item_spans(path: str, text: str, key: str, count: int) -> list[Span]:
    """Spans of the first ``count`` objects (``{...}``) inside the JSON array at ``key``."""
    m = re.search(r'"%s"\s*:\s*\[' % re.escape(key), text)
    spans: list[Span] = []
    if m is None:
        return [Span(path, 1, 1)] * count
    i, depth, in_str = m.end(), 0, False
    while i < len(text) and len(spans) < count:
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            if depth == 0:
                spans.append(_offset_span(path, text, i))
            depth += 1
        elif ch in "}]":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return spans + [_offset_span(path, text, m.start())] * (count - len(spans))


def _json_key_span(path: str, text: str, key: str) -> Span:
    m = re.search(r'"%s"\s*:\s*' % re.escape(key), text)
    if m is None:
        return Span(path, 1, 1)
    return _offset_span(path, text, m.end())


def _offset_span(path: str, text: str, offset: int) -> Span:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(path, line, col)


def _json_string_spans(path: str, text: str, key: str) -> list[Span]:
    """The span of each decoded character of the JSON string value at ``key``."""
    m = re.search(r'"%s"\s*:\s*"' % re.escape(key), text)
    if m is None:
        return []
    spans, i = [], m.end()
    while i < len(text) and text[i] != '"':
        spans.append(_offset_span(path, text, i))
        if text[i] == "\\":
            i += 6 if text[i + 1 : i + 2] == "u" else 2
        else:
            i += 1
    return spans


def _check_rectangular(data: MapData) -> None:
    width = len(data.rows[0])
    for r, row in enumerate(data.rows):
        if len(row) != width:
            col = min(len(row), width)
            raise data.error(
                f"row {r + 1} of the grid has {len(row)} cells; the first row has {width}",
                data.span(r, col) if col < len(row) else _end_of_row(data, r),
            )


def _end_of_row(data: MapData, r: int) -> Span:
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
        MapError: one problem; MultipleErrors: several.
    """
    errors: list[GridlangError] = []
    tiles: list[str] = []
    where: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(data.rows):
        for c, ch in enumerate(row):
            name = symbols.chars.get(ch)
            if name is None:
                if len(errors) < 20:
                    errors.append(data.error(
                        f"character {ch!r} at row {r + 1}, column {c + 1} is not a tile of this spec "
                        f"(tiles: {_legend(symbols)})", data.span(r, c)))
                name = "?"
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


def _legend(symbols: Symbols) -> str:
    parts = []
    for name, tile in symbols.tiles.items():
        spec = " ".join(s.first if s.first == s.last else f"{s.first}-{s.last}" for s in tile.chars)
        parts.append(f"{spec} {name}")
    return ", ".join(parts)
