"""A spec's ``format puzzlink`` run both ways: a URL's body into a text map, a map into a URL.

The items of the format run in order, each reading (or writing) its part
of the body with a shared encoding (:func:`gridlang.language.encodings.known.encodings`),
as pzprjs's ``decodePzpr`` runs its decoders. Rules of the body that every
format shares:

* a part the body has run out before is absent: its objects are empty
  (pzprjs's decoders stop at the end of the body the same way);
* a ``/`` before a part is a separator and skipped, except that a part
  that meets a ``/`` while a bank (``piece bank``, ``size bank``) is still
  to come is absent (pzprjs leaves the cells out so before a bank);
* a part after the first that has no value to write (no clue, no hole, no
  border) is left out of the URL when no such part follows it, as pzprjs's
  encoders leave out optional last parts (given digits, holes written by
  ``encodeEmpty``, given borders).

The map's shape: ``outside top left`` adds a row above and a column on the
left, ``outside all`` one on every side, ``outside top left stacked`` half
as many rows above and columns on the left as the grid has (rounded up);
the grid's own cells sit inside that frame. Frame cells without a clue, and the corners, take the outside
item's ``empty`` tile; a ``rooms:`` layer gives the frame a room of its own.
"""

from __future__ import annotations

from pathlib import Path

from gridlang.core.grid import border_name, flood_rooms
from gridlang.core.nodes import Record, field
from gridlang.formats.puzzlink import dots
from gridlang.formats.puzzlink.text import borders_text, document, grid_text, rooms_text
from gridlang.formats.puzzlink.walls import rooms_between
from gridlang.language import ast
from gridlang.language.encodings.body import UNKNOWN, Body, Value
from gridlang.language.encodings.known import encoding_for, mapping_for
from gridlang.language.encodings.placement import NOT_MINE, Placement
from gridlang.language.encodings.table import (
    BORDER_PLACES,
    CELL_PLACES,
    CORNER_PLACES,
    DOT_PLACES,
    Part,
    Unwritable,
)
from gridlang.language.encodings.url import PuzzLink, build_url, error

_BANKS = ("piece bank", "size bank")
STACKED = "outside top left stacked"
"""The frame of pzprjs's ``excellRows``/``excellCols`` of half the grid: several clues per line."""


class Layout(Record, frozen=False, slots=False):
    """The map of a URL's grid: the grid's cells inside a frame of clues.

    Attributes:
        cols, rows: the grid's size (the URL's).
        frame: ``outside top left``, ``outside all``, ``outside top left stacked``, or None.
    """

    cols: int
    rows: int
    frame: str | None = None

    @property
    def top(self) -> int:
        """The frame's rows above the grid: 1, or half the rows (rounded up) when stacked."""
        return (self.rows + 1) // 2 if self.frame == STACKED else 1 if self.frame else 0

    @property
    def left(self) -> int:
        """The frame's columns left of the grid: 1, or half the columns (rounded up) when stacked."""
        return (self.cols + 1) // 2 if self.frame == STACKED else 1 if self.frame else 0

    @property
    def far(self) -> int:
        """The frame's width below and on the right (0 or 1)."""
        return 1 if self.frame == "outside all" else 0

    @property
    def height(self) -> int:
        return self.rows + self.top + self.far

    @property
    def width(self) -> int:
        return self.cols + self.left + self.far

    def inner(self, k: int) -> tuple[int, int]:
        """Map ``(row, column)`` of the grid's cell ``k`` (row-major)."""
        r, c = divmod(k, self.cols)
        return r + self.top, c + self.left

    def is_inside(self, r: int, c: int) -> bool:
        """Whether map cell ``(r, c)`` is one of the grid's own cells."""
        return self.top <= r < self.top + self.rows and self.left <= c < self.left + self.cols

    def outside(self, k: int) -> tuple[int, int]:
        """Map ``(row, column)`` of clue ``k`` outside the grid, in pzprjs's excell order; stacked, each
        column's clues from the grid upwards, then each row's from the grid leftwards."""
        cols, rows = self.cols, self.rows
        if self.frame == STACKED:
            top, left = self.top, self.left
            if k < cols * top:
                return top - 1 - k % top, left + k // top
            k -= cols * top
            return top + k // left, left - 1 - k % left
        if self.frame == "outside top left":
            return (0, k + 1) if k < cols else (k - cols + 1, 0)
        if k < cols:
            return 0, k + 1
        if k < 2 * cols:
            return rows + 1, k - cols + 1
        if k < 2 * cols + rows:
            return k - 2 * cols + 1, 0
        return k - 2 * cols - rows + 1, cols + 1

    def outside_count(self) -> int:
        if self.frame == STACKED:
            return self.cols * self.top + self.rows * self.left
        return (self.cols + self.rows) * (2 if self.frame == "outside all" else 1)

    @classmethod
    def of_map(cls, width: int, height: int, frame: str | None) -> Layout | None:
        """The layout of a map of ``width`` x ``height`` cells, or None when no grid fits in its frame."""
        if frame == STACKED:
            cols = next((n for n in range(1, width + 1) if n + (n + 1) // 2 == width), None)
            rows = next((n for n in range(1, height + 1) if n + (n + 1) // 2 == height), None)
            return None if cols is None or rows is None else cls(cols, rows, frame)
        grow = 2 if frame == "outside all" else 1 if frame else 0
        return None if height <= grow or width <= grow else cls(width - grow, height - grow, frame)

    def is_corner(self, r: int, c: int) -> bool:
        if self.frame == STACKED:
            return r < self.top and c < self.left
        return (r in (0, self.height - 1) if self.far else r == 0) and (c in (0, self.width - 1) if self.far
                                                                         else c == 0) and self.frame is not None


class Decoded(Record, frozen=False, slots=False):
    """A URL read through a spec's format.

    Attributes:
        pid: the genre as the URL names it.
        text: the text map (headers, grid, ``rooms:``).
        link: the parsed URL.
        spec: the spec's path.
        params: the parameters the URL sets, as header text, by name.
    """

    pid: str
    text: str
    link: PuzzLink = field(repr=False)
    spec: str = ""
    params: dict[str, str] = field(default_factory=dict)


def _border_count(rows: int, cols: int, frame: bool) -> int:
    """How many borders a format's ``borders`` fill: those between cells, and the frame's ``2 (R + C)`` when
    the spec's tiles on borders stand on the frame too."""
    return rows * (cols - 1) + (rows - 1) * cols + (2 * (rows + cols) if frame else 0)


def _frame(fmt: ast.Format) -> str | None:
    return next((p.place for p in fmt.parts if p.place.startswith("outside")), None)


def _corners(rows: int, cols: int, place: str) -> list[tuple[int, int]]:
    """The corners a corner place fills, ``(row, col)`` in the order its encoding reads them: every corner
    (``corners``, pzprjs's ``hascross: 2``) or those inside the grid (``inner corners``, ``hascross: 1``)."""
    if place == "inner corners":
        return [(r, c) for r in range(1, rows) for c in range(1, cols)]
    return [(r, c) for r in range(rows + 1) for c in range(cols + 1)]


def _mapping(item: ast.FormatItem) -> dict:
    return mapping_for(item)


def _top_cells(room: list[int], cols: int) -> list[int]:
    """Each room's top cell, rooms in the order of their first cell: its leftmost column's top cell
    (pzprjs's ``getTopCell``)."""
    top: dict[int, int] = {}
    for i, x in enumerate(room):
        if x not in top or (i % cols, i // cols) < (top[x] % cols, top[x] // cols):
            top[x] = i
    return [top[x] for x in range(len(top))]


def _nothing(values: list, place: str) -> bool:
    """A part's values are empty: no value, or a single room (no border)."""
    if place == "rooms":
        return len(set(values)) == 1
    return all(v is None for v in values)


def _describe(value: Value) -> str:
    if value == UNKNOWN:
        return "a number not given (?)"
    if isinstance(value, int):
        return f"the number {value}"
    return repr(value)


class Engine:
    """One spec's format, ready to read URLs and write maps.

    Args:
        spec: the parsed spec.
        symbols: its checked symbols.
        fmt: its ``format puzzlink`` statement.
    """

    def __init__(self, spec: ast.Spec, symbols, fmt: ast.Format):
        self.spec, self.sym, self.fmt = spec, symbols, fmt
        self.name = Path(spec.path).name  # how messages name the spec
        self.encodings = {id(item): encoding_for(item) for item in fmt.parts}
        self.placements = {id(item): Placement(_mapping(item), symbols, item.encoding,
                                               corners=item.place in CORNER_PLACES,
                                               borders=item.place in BORDER_PLACES)
                           for item in fmt.parts if item.place in CELL_PLACES + CORNER_PLACES + BORDER_PLACES}
        tiles_of = {"cells": symbols.tiles, "borders": symbols.border_tiles, "corners": symbols.corner_tiles}.get
        self.dot_kinds = {id(item): dots.placements(item.mapping, symbols, item.encoding, tiles_of)
                          for item in fmt.parts if item.place in DOT_PLACES}
        self.default = Placement({}, symbols)
        self.frame = _frame(fmt)

    def _part(self, item: ast.FormatItem, layout: Layout, cells: list[Value],
              roomless: frozenset[int] = frozenset()) -> Part:
        param = self.sym.params.get(item.place)
        return Part(item.place, layout.cols, layout.rows, _mapping(item), self.name,
                    param.type if param is not None else None, cells, roomless)

    def _inner_empty(self) -> str:
        first = next((p for p in self.fmt.parts if p.place in ("cells", "room numbers")), None)
        placement = self.placements[id(first)] if first is not None else self.default
        return placement.token(None) or "."

    def _corner_empty(self) -> str:
        item = next((p for p in self.fmt.parts if p.place in CORNER_PLACES), None)
        placement = self.placements[id(item)] if item is not None else Placement({}, self.sym, corners=True)
        return placement.token(None) or "."

    def _border_empty(self) -> str:
        item = next((p for p in self.fmt.parts if p.place in BORDER_PLACES), None)
        placement = self.placements[id(item)] if item is not None else Placement({}, self.sym, borders=True)
        return placement.token(None) or "."

    def _frame_empty(self) -> str:
        item = next(p for p in self.fmt.parts if p.place.startswith("outside"))
        return self.placements[id(item)].token(None) or "."

    # URL -> map ----------------------------------------------------------------
    def decode(self, link: PuzzLink) -> Decoded:
        """Read a URL into the spec's text map.

        Raises:
            UrlError: a flag the format does not declare, a body that its
                encodings cannot read, or one that ends before a parameter
                the spec has no default for, located in the URL.
        """
        layout = Layout(link.cols, link.rows, self.frame)
        params = self._flags(link)
        tokens: list[list[str | None]] = [[None] * layout.width for _ in range(layout.height)]
        corner_tokens: list[list[str | None]] | None = None  # (rows + 1) x (cols + 1), when the format fills corners
        border_tokens: list[str | None] | None = None  # one per border in pzprjs's order, when it fills borders
        borders_count = _border_count(link.rows, link.cols, self.sym.frame_borders)
        rooms_read = walls = None
        cells: list[Value] = [None] * (link.cols * link.rows)
        room: list[int] | None = None
        body = Body(link)
        parts = self.fmt.parts
        for idx, item in enumerate(parts):
            enc = self.encodings[id(item)]
            part = self._part(item, layout, cells)
            if item.place == "separator":
                enc.decode(body, 0, part)
                continue
            if item.encoding == "walls":
                walls = item  # rooms between the borders read, once they are read
                continue
            if part.ptype is not None:
                if item.encoding != "size" and body.at_end():
                    if self.sym.params[item.place].default is None:
                        raise body.error(f"the URL ends before it gives {item.place!r}, which {self.name} "
                                         f"has no default for")
                    continue  # absent: the parameter keeps its default
                values, _ = enc.decode(body, 1, part)
                params[item.place] = values[0]
                continue
            if body.at_end():
                if item.place == "rooms":
                    room = [0] * link.cells  # no borders written: one room (pzprjs's decodeBorder does so)
                continue
            if body.rest.startswith("/"):
                if any(p.encoding in _BANKS for p in parts[idx + 1:]):
                    continue
                body.i += 1
            if item.place == "rooms":
                rooms_read = (body.i, enc, part)  # read again when cells of a tile in no room turn up
                room, _ = enc.decode(body, link.cells, part)
                continue
            if item.place in DOT_PLACES:
                values, where = enc.decode(body, (2 * link.rows - 1) * (2 * link.cols - 1), part)
                corner_tokens = corner_tokens or [[None] * (link.cols + 1) for _ in range(link.rows + 1)]
                border_tokens = border_tokens or [None] * borders_count
                dots.spread(values, where, link, layout, self.dot_kinds[id(item)],
                            (tokens, border_tokens, corner_tokens), body, _describe)
                continue
            if item.place == "cells":
                values, where = enc.decode(body, link.cells, part)
                places = [layout.inner(k) for k in range(link.cells)]
                cells[:] = [v if v is not None else old for v, old in zip(values, cells)]
            elif item.place == "room numbers":
                values, where = enc.decode(body, max(room) + 1, part)
                places = [layout.inner(k) for k in _top_cells(room, link.cols)]
            elif item.place in CORNER_PLACES:
                places = _corners(link.rows, link.cols, item.place)
                values, where = enc.decode(body, len(places), part)
            elif item.place in BORDER_PLACES:
                places = [(0, k) for k in range(borders_count)]  # row 0 of a one-row target
                values, where = enc.decode(body, borders_count, part)
            else:
                values, where = enc.decode(body, layout.outside_count(), part)
                places = [layout.outside(k) for k in range(layout.outside_count())]
            placement = self.placements[id(item)]
            target = tokens
            if item.place in CORNER_PLACES:
                corner_tokens = target = [[None] * (link.cols + 1) for _ in range(link.rows + 1)]
            if item.place in BORDER_PLACES:
                target = [[None] * borders_count]
                border_tokens = target[0]
            for value, (r, c), at in zip(values, places, where):
                if value is None:
                    continue
                target[r][c] = placement.token(value)
                if target[r][c] is None:
                    raise body.error(f"{_describe(value)} has no tile in {self.name} (its format sends it nowhere; "
                                     "see docs/language.md, 'puzz.link formats')", at)
        body.done()
        if walls is not None:
            empty = self._border_empty()
            room = rooms_between(link.rows, link.cols, [tok or empty for tok in border_tokens or [None] * borders_count],
                                 self.sym.border_chars, mapping_for(walls))
        roomless: frozenset[int] = frozenset()
        if room is not None and rooms_read is not None:
            room, roomless = self._without_roomless(link, layout, tokens, room, rooms_read)
        inner = self._inner_empty()
        outer = self._frame_empty() if self.frame else inner
        flat = []
        for r in range(layout.height):
            for c in range(layout.width):
                inside = layout.is_inside(r, c)
                flat.append(tokens[r][c] or (inner if inside else outer))
        rooms = None
        if room is not None:
            frame_room = max(room) + 1
            full = [frame_room] * (layout.width * layout.height)
            for k, x in enumerate(room):
                r, c = layout.inner(k)
                full[r * layout.width + c] = x
            none = frozenset(layout.inner(k)[0] * layout.width + layout.inner(k)[1] for k in roomless)
            rooms = rooms_text(layout.height, layout.width, full, none)
        corners = None
        if self.sym.corner_tiles:  # the map of a spec with tiles on corners has the layer, given or empty
            empty = self._corner_empty()
            found = corner_tokens or [[None] * (link.cols + 1) for _ in range(link.rows + 1)]
            corners = "corners:\n" + grid_text(link.rows + 1, link.cols + 1,
                                                [tok or empty for row in found for tok in row])
        borders = None
        if self.sym.border_tiles and borders_count:  # the map of a spec with tiles on borders has the layer
            empty = self._border_empty()
            borders = borders_text(link.rows, link.cols, [tok or empty for tok in border_tokens or
                                                          [None] * borders_count])
        headers = [(name, text) for name, text in params.items()]
        text = document(f"{link.pid} {link.size}, from {link.url}", headers,
                        grid_text(layout.height, layout.width, flat), rooms, "#" in self.sym.chars, corners,
                        borders)
        return Decoded(link.pid, text, link, self.spec.path, params)

    def _roomless(self) -> frozenset[str]:
        """The tiles declared ``no room``."""
        return frozenset(name for name, tile in self.sym.tiles.items() if tile.no_room)

    def _without_roomless(self, link: PuzzLink, layout: Layout, tokens, room: list[int],
                          rooms_read) -> tuple[list[int], frozenset[int]]:
        """The rooms again, the cells of tiles in no room left out of the flood, and those cells: pzprjs's
        holes join no rooms (its room graph's ``isnodevalid``), where a flood through them joins every
        room they touch."""
        roomless = self._roomless()
        out = frozenset(k for k in range(link.cells)
                        if (tok := tokens[layout.inner(k)[0]][layout.inner(k)[1]]) is not None
                        and self.sym.chars.get(tok) in roomless)
        if not out:
            return room, out
        at, enc, part = rooms_read
        body = Body(link)
        body.i = at
        joined = enc.joined(body, part)
        return flood_rooms(link.rows, link.cols, lambda u, v: u not in out and v not in out and joined(u, v)), out

    def _flags(self, link: PuzzLink) -> dict[str, str]:
        declared = {f.flag: f for f in self.fmt.flags}
        params: dict[str, str] = {}
        for k, ch in enumerate(link.flags):
            flag = declared.get(ch)
            if flag is None:
                known = ", ".join(f"{f.flag} ({f.param} = {f.value})" for f in self.fmt.flags) or "none"
                raise error(link, f"the flags {link.flags!r} ask for a variant {self.name} does not state (flag "
                                  f"{ch!r}; its format's flags: {known})", link.flags_at + k)
            params[flag.param] = str(flag.value)
        return params

    # map -> URL ----------------------------------------------------------------
    def encode(self, data, values: dict[str, object], raw: dict[str, str]) -> str:
        """Write a map as a URL of the format's first genre name.

        Args:
            data: the map (:class:`~gridlang.formats.maps.MapData`).
            values: the parameters' values (:func:`gridlang.formats.params.resolve_params`).
            raw: the parameters' text where the map or the command line gives one.

        Raises:
            MapError: a cell the format has no place for, a value its
                encoding cannot write, a map smaller than its frame; located
                in the map.
        """
        rows = data.rows
        height, width = len(rows), len(rows[0])
        layout = Layout.of_map(width, height, self.frame)
        if layout is None:
            raise data.error(f"a map of this format has a frame of clues around the grid; {width}x{height} "
                             "leaves no grid inside it", data.span(0, 0))
        claimed = [[False] * width for _ in range(height)]
        cells: list[Value] = [None] * (layout.cols * layout.rows)
        room: list[int] | None = None
        texts: list[tuple[object, str, list, str | None]] = []  # (encoding, text, values, place; None: a parameter)

        def where(k: int, place: str) -> tuple[int, int]:
            if place in CORNER_PLACES:
                return _corners(layout.rows, layout.cols, place)[k]
            if place == "cells" or place == "rooms":
                return layout.inner(k)
            if place == "room numbers":
                return layout.inner(room_cells[k][0]) if room_cells[k] else (0, 0)
            return layout.outside(k)

        room_cells: list[list[int]] = []
        roomless_tiles = self._roomless()
        roomless = frozenset(k for k in range(layout.cols * layout.rows)
                             if self.sym.chars.get(str(data.rows[layout.inner(k)[0]][layout.inner(k)[1]])) in roomless_tiles)
        for item in self.fmt.parts:
            enc = self.encodings[id(item)]
            part = self._part(item, layout, cells, roomless)
            if part.ptype is not None:
                value = raw.get(item.place) if item.encoding == "piece bank" else values.get(item.place)
                if value is None:
                    value = values.get(item.place)
                vals = [value]
            elif item.place == "separator":
                vals = []
            elif item.encoding == "walls":
                continue  # the rooms between the borders: no part of their own in the URL
            elif item.place == "rooms":
                vals = room = self._rooms(data, layout)
                room_cells = [[k for k, x in enumerate(room) if x == j] for j in range(max(room) + 1)]
            elif item.place in CORNER_PLACES:
                vals = self._corner_values(data, layout, item)
            elif item.place in BORDER_PLACES:
                vals = self._border_values(data, layout, item)
            elif item.place in DOT_PLACES:
                others = {p.place for p in self.fmt.parts if p is not item}
                strict = {"borders": None if others & set(BORDER_PLACES) else self._border_empty(),
                          "corners": None if others & set(CORNER_PLACES) else self._corner_empty()}
                vals = dots.gather(data, layout, self.dot_kinds[id(item)], claimed, strict)
            else:
                vals = self._values(data, layout, item, claimed, room_cells)
                if item.place == "cells":
                    for k, v in enumerate(vals):
                        if v is not None:
                            cells[k] = v
            try:
                texts.append((enc, enc.encode(vals, part), vals, item.place if part.ptype is None else None))
            except Unwritable as e:
                if part.ptype is not None:
                    span = data.params[item.place][1] if item.place in data.params else data.span(0, 0)
                    raise data.error(str(e), span) from None
                if item.place in BORDER_PLACES:
                    raise data.error(f"{e} ({border_name(layout.rows, layout.cols, e.index)})",
                                     data.border_span(e.index)) from None
                if item.place in DOT_PLACES:
                    span, words = dots.where(data, layout, e.index)
                    raise data.error(f"{e} ({words})", span) from None
                r, c = where(e.index, item.place)
                if item.place in CORNER_PLACES:
                    raise data.error(f"{e} (corner row {r + 1}, column {c + 1})", data.corner_span(r, c)) from None
                raise data.error(f"{e} (row {r + 1}, column {c + 1})", data.span(r, c)) from None
        self._all_claimed(data, layout, claimed)
        while len(texts) > 1 and texts[-1][3] is not None and _nothing(texts[-1][2], texts[-1][3]):
            texts.pop()
        flags = "".join(f.flag for f in self.fmt.flags if values.get(f.param) == f.value)
        return build_url(self.fmt.names[0], layout.cols, layout.rows, "".join(t[1] for t in texts), flags)

    def _rooms(self, data, layout: Layout) -> list[int]:
        labels = []
        for k in range(layout.cols * layout.rows):
            r, c = layout.inner(k)
            label = getattr(data.rows[r][c], "room", None)
            if label is None:
                raise data.error("the format writes the rooms, and the map has no 'rooms:' layer under its grid",
                                 data.span(r, c))
            labels.append(label)
        cols = layout.cols
        return flood_rooms(layout.rows, cols, lambda u, v: labels[u] == labels[v])

    def _corner_values(self, data, layout: Layout, item: ast.FormatItem) -> list[Value]:
        """The values on the map's corners, row-major; an error at a corner the item cannot write."""
        if data.corners is None or len(data.corners) != layout.rows + 1 or len(data.corners[0]) != layout.cols + 1:
            raise data.error("the format writes the corners of the cells, and the map has no 'corners:' layer of "
                             f"{layout.rows + 1} rows of {layout.cols + 1} under its grid", data.span(0, 0))
        placement = self.placements[id(item)]
        empty = self._corner_empty()
        places = _corners(layout.rows, layout.cols, item.place)
        written = set(places)
        out: list[Value] = []
        for r, row in enumerate(data.corners):
            for c, tok in enumerate(row):
                value = placement.value(tok) if (r, c) in written else NOT_MINE
                if value is NOT_MINE and tok != empty:
                    where = "" if (r, c) in written else " (the format writes the corners inside the grid only)"
                    raise data.error(f"{tok!r} on corner row {r + 1}, column {c + 1} has no place in "
                                     f"{self.name}'s puzz.link format ({item.place}: {item.encoding}){where}",
                                     data.corner_span(r, c))
        return [None if (v := placement.value(data.corners[r][c])) is NOT_MINE else v for r, c in places]

    def _border_values(self, data, layout: Layout, item: ast.FormatItem) -> list[Value]:
        """The values on the map's borders, in pzprjs's order; an error at a border the item cannot write."""
        count = _border_count(layout.rows, layout.cols, self.sym.frame_borders)
        if count == 0:
            return []
        if data.borders is None or len(data.borders) != count:
            raise data.error("the format writes the borders, and the map has no 'borders:' layer "
                             f"of {count} borders under its grid", data.span(0, 0))
        placement = self.placements[id(item)]
        empty = self._border_empty()
        out: list[Value] = []
        for k, tok in enumerate(data.borders):
            value = placement.value(tok)
            if value is NOT_MINE:
                if tok != empty:
                    raise data.error(f"{tok!r} on a border has no place in {self.name}'s puzz.link format "
                                     f"({item.place}: {item.encoding})", data.border_span(k))
                value = None
            out.append(value)
        return out

    def _values(self, data, layout: Layout, item: ast.FormatItem, claimed, room_cells) -> list[Value]:
        placement = self.placements[id(item)]
        rows = data.rows

        def read(r: int, c: int) -> Value:
            value = placement.value(rows[r][c])
            if value is NOT_MINE:
                return None
            claimed[r][c] = True
            return value

        if item.place == "cells":
            return [read(*layout.inner(k)) for k in range(layout.cols * layout.rows)]
        if item.place == "room numbers":
            out: list[Value] = []
            for j, members in enumerate(room_cells):
                found = [(k, read(*layout.inner(k))) for k in members]
                found = [(k, v) for k, v in found if v is not None]
                if len(found) > 1:
                    r, c = layout.inner(found[1][0])
                    raise data.error(f"this room holds two numbers ({found[0][1]} and {found[1][1]}); a room "
                                     "number is one per room", data.span(r, c))
                out.append(found[0][1] if found else None)
            return out
        out = []
        for k in range(layout.outside_count()):
            out.append(read(*layout.outside(k)))
        return out

    def _all_claimed(self, data, layout: Layout, claimed) -> None:
        inner, outer = self._inner_empty(), self._frame_empty() if self.frame else None
        for r, row in enumerate(data.rows):
            for c, tok in enumerate(row):
                if claimed[r][c] or layout.is_corner(r, c):
                    continue
                inside = layout.is_inside(r, c)
                if tok == (inner if inside else outer):
                    continue
                items = ", ".join(f"{p.place}: {p.encoding}" for p in self.fmt.parts) or "no items"
                raise data.error(f"{tok!r} at row {r + 1}, column {c + 1} has no place in {self.name}'s puzz.link "
                                 f"format ({items})", data.span(r, c))
