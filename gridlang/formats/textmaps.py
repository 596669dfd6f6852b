"""Map files read from their text, a URL aside: a plug-in's own format, a layered map, a JSON
level record or a text map, each located in its errors and checked against the size limits.

:func:`gridlang.formats.maps.parse_map` sends a text that holds a puzz.link URL to the URL's
reader and every other text here; the URL's reader sends the text map it decodes here too.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Mapping

from gridlang.core.errors import MapError, Span, load_json, one_line_end
from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.limits import MAX_RECORD_KEYS
from gridlang.formats.mapdata import (
    COMMENT,
    GRID_MARKER,
    HEADER_LINE,
    LAYERS,
    STANDARD,
    VARIANT,
    MapData,
    grid_start,
    header_lines,
    is_comment,
    size_problem,
)
from gridlang.plugins import all_plugins, find_plugin

if TYPE_CHECKING:
    from gridlang.formats.json_spans import LineIndex

_VARIANT_NAME = LazyRegex(r"^[A-Za-z0-9_.-]{1,64}$")


def _may_be_layered(text: str) -> bool:
    """Whether ``text`` may be a layered map (:func:`gridlang.formats.layers.is_layered` decides): a
    line holding white space between two things, or the name of a layer. A plain map holds neither,
    and is read without the layered reader."""
    return any(name in text for name in LAYERS) or any(
        len(line.split()) > 1 for line in one_line_end(text).split("\n"))


def read_text_map(text: str, path: str, puzzle: str | None = None) -> MapData:
    """Read a map's text that holds no URL: the puzzle's plug-in first (every plug-in when
    ``puzzle`` is None), then a layered map, then a JSON level record or a text map.

    Raises:
        MapError: malformed, beyond the size limits, or with ragged rows; located.
    """
    data = None
    for plugin in [find_plugin(puzzle)] if puzzle is not None else all_plugins():
        data = plugin.read_map(path, text)
        if data is not None:
            break
    if data is None and _may_be_layered(text):
        # imported on use, not at start-up: a plain map (a daily's rows of tiles) is no layered map
        from gridlang.formats.layers import read_layered

        data = read_layered(path, text)
    if data is None:
        data = _read_json(path, text) if text.lstrip().startswith("{") else _read_text(path, text)
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
    # imported on use, not at start-up
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
    # imported on use, not at start-up
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


def _variant_name(name: str, span: Span, text: str) -> str:
    if not _VARIANT_NAME.match(name):
        raise MapError(f"{VARIANT}: names the rules the map is for, one word of letters, digits, '_', '-' or '.' "
                       f"(as {STANDARD}, or a variant's name), not {name[:40]!r}", span, source=text)
    return name
