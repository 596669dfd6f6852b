"""The grid as a graph, built once per map.

Cells are numbered row-major: cell ``i`` is row ``i // cols``, column
``i % cols``, row 0 at the top. Two cells are adjacent when they share a side
(4-neighbourhood) or when they are a linked pair (two tiles of a ``linked``
kind with the same map character, such as the game's portals). Every
connectivity rule, flood fill and path in gridlang is over this graph.

A map cell's text is one character, or (in a map whose cells are separated
by white space) a number of any size; it may carry a room label from the
map's room layer (:class:`Token`). The rooms are the maximal orthogonally
connected groups of cells with equal labels (:attr:`Grid.rooms`). Rows,
columns, king-move neighbours, windows and blocks are computed here for
the compiler.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Iterator

from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.nodes import Record, field

Cell = tuple[int, int]
"""A cell as ``(row, column)``, 0-based, row 0 at the top."""


class Token(str):
    """The text of one map cell, with the label the map's room layer gives it.

    A ``Token`` is the cell's text as a string (``"."``, ``"7"``, ``"12"``),
    so it compares, hashes and prints as that text; :attr:`room` is the
    cell's label in the room layer, or None when the map has none.

    Args:
        text: the cell's text.
        room: its room label.
    """

    room: str | None

    def __new__(cls, text: str, room: str | None = None) -> "Token":
        token = super().__new__(cls, text)
        token.room = room
        return token

    def __reduce__(self):
        return (Token, (str(self), self.room))


def cell_name(row: int, col: int) -> str:
    """A cell as a person reads it: ``row R, column C``, counted from 1 (``row`` and ``col`` from 0).

    Text and error messages name cells this way; JSON keeps ``[r, c]`` from 0.
    """
    return f"row {row + 1}, column {col + 1}"


def cell_names(cells: Iterable[tuple[int, int]], limit: int | None = None) -> str:
    """Cells as a person reads them, ``row 1, column 3; row 2, column 3``, at most ``limit`` of them
    (then ``and N more``)."""
    cells = list(cells)
    shown = cells if limit is None else cells[:limit]
    text = "; ".join(cell_name(r, c) for r, c in shown)
    return text + (f"; and {len(cells) - len(shown)} more" if len(cells) > len(shown) else "")


def border_cells(rows: int, cols: int, k: int) -> tuple[int, int]:
    """The two cells ``(p, q)``, ``p < q``, on either side of border ``k`` of a ``rows x cols`` grid, in
    pzprjs's order of the borders: the ``rows x (cols - 1)`` between left and right neighbours row by
    row, then the ``(rows - 1) x cols`` between upper and lower ones (its ``sidecell``: the left or upper
    cell first)."""
    across = rows * (cols - 1)
    if k < across:
        r, c = divmod(k, cols - 1)
        return r * cols + c, r * cols + c + 1
    return k - across, k - across + cols


def border_index(rows: int, cols: int, p: int, q: int) -> int | None:
    """The index of the border between cells ``p`` and ``q`` (row-major, either order) of a ``rows x cols``
    grid, in pzprjs's order of the borders (:func:`border_cells`, whose inverse it is), or None when the
    two are not side neighbours."""
    p, q = min(p, q), max(p, q)
    if q == p + 1 and q % cols:
        r, c = divmod(p, cols)
        return r * (cols - 1) + c
    if q == p + cols:
        return rows * (cols - 1) + p
    return None


def frame_border(rows: int, cols: int, k: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Border ``k``'s cell in the grid and the place off the grid beyond it, each ``(row, col)``, when ``k``
    is a border of the outer frame, else None. The frame's borders follow the ``R (C - 1) + (R - 1) C``
    between cells in pzprjs's order (its ``hasborder: 2``): the ``C`` along the top, the ``C`` along the
    bottom, each left to right, then the ``R`` down the left side and the ``R`` down the right, each top to
    bottom. The place beyond is row -1 or R, or column -1 or C."""
    f = k - (rows * (cols - 1) + (rows - 1) * cols)
    if f < 0:
        return None
    if f < 2 * cols:
        r, c = (0, f) if f < cols else (rows - 1, f - cols)
        return (r, c), (r - 1 if f < cols else rows, c)
    f -= 2 * cols
    r, c = (f, 0) if f < rows else (f - rows, cols - 1)
    return (r, c), (r, -1 if f < rows else cols)


def border_places(rows: int, cols: int, k: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two places ``(row, col)`` on either side of border ``k`` (pzprjs's order, the frame's after
    the others): two cells of the grid, the left or upper one first, or for a border of the frame its
    cell and the place off the grid beyond it (:func:`frame_border`). Their sum, plus one, is the
    border's middle on the doubled lattice."""
    on_frame = frame_border(rows, cols, k)
    if on_frame is not None:
        return on_frame
    p, q = border_cells(rows, cols, k)
    return divmod(p, cols), divmod(q, cols)


def border_ends(rows: int, cols: int, k: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two corners ``(row, col)`` of the lattice at the ends of border ``k`` (corner ``(r, c)`` the
    top-left one of cell ``(r, c)``), the upper or left one first: the edge of a decision on corner edges
    that runs along the border."""
    (r1, c1), (r2, c2) = border_places(rows, cols, k)
    if r1 == r2:  # side by side: the border runs down
        c = max(c1, c2)
        return (r1, c), (r1 + 1, c)
    r = max(r1, r2)
    return (r, c1), (r, c1 + 1)


def border_name(rows: int, cols: int, k: int) -> str:
    """Border ``k`` of a ``rows x cols`` grid as a person reads it: ``the border between row 1, column 2
    and row 1, column 3``, or for the frame ``the frame above row 1, column 2`` (below, left of, right
    of)."""
    (r1, c1), (r2, c2) = border_places(rows, cols, k)
    if frame_border(rows, cols, k) is None:
        return f"the border between {cell_name(r1, c1)} and {cell_name(r2, c2)}"
    side = "above" if r2 < 0 else "below" if r2 == rows else "left of" if c2 < 0 else "right of"
    return f"the frame {side} {cell_name(r1, c1)}"


def room_label(text: str) -> str | None:
    """The room label a map cell's text carries (None for a plain string)."""
    return getattr(text, "room", None)


class Grid(Record):
    """A rectangular map of tiles and its adjacency graph.

    Attributes:
        rows: height in cells.
        cols: width in cells.
        chars: the map character of each cell, row-major (length rows*cols).
        tiles: the tile-kind name of each cell, row-major.
        links: linked pairs ``(u, v)`` with ``u < v`` (cell indices).
        neighbours: for each cell, its adjacent cells (4-neighbours and link
            partners), sorted ascending, without repeats.
        rooms: for each cell, the index of its room (rooms numbered by
            their first cell, row-major), -1 for a cell in no room (a tile
            declared ``no room``: :func:`rooms_of`); empty when the map has
            no room layer.
        corner_chars: what the map's ``corners:`` layer holds on each corner
            of the cells, row-major over the ``(rows + 1) x (cols + 1)``
            corners (corner ``(r, c)`` the top-left one of cell ``(r, c)``);
            empty when the map has no corner layer.
        corner_tiles: the tile name of each corner, as ``corner_chars``.
        border_chars: what the map's ``borders:`` layer holds on each border
            between two side-adjacent cells, in pzprjs's order: the
            ``rows x (cols - 1)`` borders between left and right neighbours
            row by row, then the ``(rows - 1) x cols`` borders between upper
            and lower neighbours (:meth:`border_cells`), then, for a spec
            whose borders include the frame, the frame's ``2 (R + C)``
            (:func:`frame_border`); empty when the map has no border layer.
        border_tiles: the tile name of each border, as ``border_chars``.
    """

    rows: int
    cols: int
    chars: tuple[str, ...]
    tiles: tuple[str, ...]
    links: tuple[tuple[int, int], ...] = ()
    neighbours: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    rooms: tuple[int, ...] = field(default=(), compare=False)
    corner_chars: tuple[str, ...] = ()
    corner_tiles: tuple[str, ...] = ()
    border_chars: tuple[str, ...] = ()
    border_tiles: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        if len(self.chars) != n or len(self.tiles) != n:
            raise ValueError("chars and tiles must hold rows*cols entries")
        adj: list[set[int]] = [set() for _ in range(n)]
        for i in range(n):
            r, c = divmod(i, self.cols)
            if r + 1 < self.rows:
                adj[i].add(i + self.cols)
                adj[i + self.cols].add(i)
            if c + 1 < self.cols:
                adj[i].add(i + 1)
                adj[i + 1].add(i)
        for u, v in self.links:
            adj[u].add(v)
            adj[v].add(u)
        object.__setattr__(self, "neighbours", tuple(tuple(sorted(a)) for a in adj))
        labels = [room_label(ch) for ch in self.chars]
        if not self.rooms and any(label is not None for label in labels):
            object.__setattr__(self, "rooms", _rooms(self.rows, self.cols, labels))

    def corner_index(self, row: int, col: int) -> int:
        """The index of corner ``(row, col)`` in ``corner_chars`` (``0 <= row <= rows``, ``0 <= col <= cols``)."""
        return row * (self.cols + 1) + col

    def corner_cells(self, row: int, col: int) -> tuple[int, ...]:
        """The up to four cells around corner ``(row, col)``, ascending (two on the frame, one at its corners)."""
        return tuple(r * self.cols + c for r in (row - 1, row) for c in (col - 1, col)
                     if 0 <= r < self.rows and 0 <= c < self.cols)

    @property
    def border_count(self) -> int:
        """How many borders stand between two side-adjacent cells: ``R (C - 1) + (R - 1) C``."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def border_cells(self, k: int) -> tuple[int, int]:
        """The two cells ``(p, q)``, ``p < q``, on either side of border ``k`` (pzprjs's ``sidecell``:
        the left or upper cell first); ``0 <= k < border_count``, in :attr:`border_chars`'s order."""
        return border_cells(self.rows, self.cols, k)

    @property
    def frame_borders(self) -> bool:
        """True when the border layer holds the outer frame's ``2 (R + C)`` borders after the others."""
        return len(self.border_chars) == self.border_count + 2 * (self.rows + self.cols)

    def border_sides(self, k: int) -> tuple[int, ...]:
        """The cells of the grid on either side of border ``k``: two, ascending, or one for a border of
        the frame."""
        on_frame = frame_border(self.rows, self.cols, k)
        if on_frame is not None:
            return (self.index(*on_frame[0]),)
        return border_cells(self.rows, self.cols, k)

    def border_name(self, k: int) -> str:
        """Border ``k`` as a person reads it (:func:`border_name`)."""
        return border_name(self.rows, self.cols, k)

    def border_index(self, p: int, q: int) -> int | None:
        """The index of the border between cells ``p`` and ``q`` (either order), or None when they are
        not side-adjacent (:func:`border_index`)."""
        return border_index(self.rows, self.cols, p, q)

    @property
    def has_rooms(self) -> bool:
        """True when the map has a room layer."""
        return bool(self.rooms)

    def room_cells(self) -> list[list[int]]:
        """Each room's cells, ascending, rooms in the order of their first cell."""
        out: list[list[int]] = []
        for i, room in enumerate(self.rooms):
            if room < 0:
                continue  # in no room
            if room == len(out):
                out.append([])
            out[room].append(i)
        return out

    def row_cells(self, row: int) -> list[int]:
        """The cells of one row, left to right."""
        return [row * self.cols + c for c in range(self.cols)]

    def column_cells(self, col: int) -> list[int]:
        """The cells of one column, top to bottom."""
        return [r * self.cols + col for r in range(self.rows)]

    def king_neighbours(self, i: int) -> tuple[int, ...]:
        """The up to eight cells that touch cell ``i`` by a side or a corner, ascending."""
        r, c = divmod(i, self.cols)
        return tuple((r + dr) * self.cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.cols)

    def diagonal_neighbours(self, i: int) -> tuple[int, ...]:
        """The up to four cells that touch cell ``i`` by a corner only, ascending."""
        r, c = divmod(i, self.cols)
        return tuple((r + dr) * self.cols + c + dc for dr in (-1, 1) for dc in (-1, 1)
                     if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols)

    def rectangle(self, row: int, col: int, height: int, width: int) -> list[int]:
        """The cells of the ``height`` x ``width`` rectangle whose top-left cell is ``(row, col)``."""
        return [(row + dr) * self.cols + col + dc for dr in range(height) for dc in range(width)]

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    def cell(self, i: int) -> Cell:
        """Return ``(row, col)`` of cell index ``i``."""
        return divmod(i, self.cols)

    def cell_name(self, i: int) -> str:
        """Cell ``i`` as a person reads it: ``row R, column C``, counted from 1 (the function :func:`cell_name`)."""
        return cell_name(*divmod(i, self.cols))

    def index(self, row: int, col: int) -> int:
        """Return the index of the cell at ``(row, col)``."""
        return row * self.cols + col

    def is_border(self, i: int) -> bool:
        """True when cell ``i`` lies in the first or last row or column."""
        r, c = divmod(i, self.cols)
        return r == 0 or c == 0 or r == self.rows - 1 or c == self.cols - 1

    def edges(self) -> Iterator[tuple[int, int]]:
        """Yield every undirected edge ``(u, v)`` once, with ``u < v``."""
        for u, nbrs in enumerate(self.neighbours):
            for v in nbrs:
                if u < v:
                    yield u, v

    def reach(self, cells: set[int] | frozenset[int], starts) -> set[int]:
        """The cells of ``cells`` reachable from ``starts`` through ``cells``.

        Args:
            cells: the cell indices that may be walked through.
            starts: start cells; those outside ``cells`` are ignored.

        Returns:
            The reached cells (the starts in ``cells`` included).
        """
        seen = {s for s in starts if s in cells}
        stack = list(seen)
        while stack:
            u = stack.pop()
            for v in self.neighbours[u]:
                if v in cells and v not in seen:
                    seen.add(v)
                    stack.append(v)
        return seen

    def distances(self, cells: set[int] | frozenset[int], start: int | Iterable[int],
                  limit: int | None = None) -> dict[int, int]:
        """Breadth-first steps from ``start`` to the cells of ``cells`` it reaches through ``cells``.

        Args:
            cells: the cell indices that may be walked through.
            start: the start cell, or several (each at distance 0), walked
                from even if not in ``cells``.
            limit: stop at this many steps (cells farther away are left out).

        Returns:
            ``{cell: steps}`` for the starts and every cell reached.
        """
        dist = dict.fromkeys((start,) if isinstance(start, int) else start, 0)
        frontier = list(dist)
        steps = 0
        while frontier and (limit is None or steps < limit):
            steps += 1
            nxt = []
            for u in frontier:
                for v in self.neighbours[u]:
                    if v in cells and v not in dist:
                        dist[v] = steps
                        nxt.append(v)
            frontier = nxt
        return dist

    def cells_of(self, tile: str) -> list[int]:
        """Indices of the cells whose tile kind is ``tile``."""
        return [i for i, t in enumerate(self.tiles) if t == tile]

    def name(self, i: int) -> str:
        """``"r,c"`` for cell ``i``, as used inside structured variable names."""
        r, c = divmod(i, self.cols)
        return f"{r},{c}"


def rooms_of(rows: int, cols: int, labels: list[str | None], outside: frozenset[int] | set[int] = frozenset()
             ) -> tuple[int, ...]:
    """Room index per cell: maximal side-connected groups of equal labels among the cells not in
    ``outside``, numbered in the order of their first cell; -1 for the cells of ``outside``, which
    belong to no room and join none (pzprjs's holes, which its room graph leaves out: ``isnodevalid``)."""
    flooded = flood_rooms(rows, cols, lambda u, v: u not in outside and v not in outside and labels[u] == labels[v])
    number: dict[int, int] = {}
    out = []
    for i, room in enumerate(flooded):
        if i in outside:
            out.append(-1)
            continue
        out.append(number.setdefault(room, len(number)))
    return tuple(out)


def _rooms(rows: int, cols: int, labels: list[str | None]) -> tuple[int, ...]:
    """Room index per cell: maximal orthogonally connected groups of equal labels."""
    return tuple(flood_rooms(rows, cols, lambda u, v: labels[u] == labels[v]))


def flood_rooms(rows: int, cols: int, joined: Callable[[int, int], bool]) -> list[int]:
    """Number the rooms of a ``rows x cols`` grid by flood fill.

    Args:
        joined: ``joined(u, v)`` for side-neighbouring cells ``u < v``
            (row-major indices): whether no border separates them.

    Returns:
        The room index of each cell, row-major; rooms are numbered from 0
        in the order of their first cell.
    """
    room = [-1] * (rows * cols)
    count = 0
    for start in range(rows * cols):
        if room[start] >= 0:
            continue
        room[start] = count
        stack = [start]
        while stack:
            u = stack.pop()
            r, c = divmod(u, cols)
            for v, ok in ((u - cols, r > 0), (u + cols, r < rows - 1), (u - 1, c > 0), (u + 1, c < cols - 1)):
                if ok and room[v] < 0 and joined(min(u, v), max(u, v)):
                    room[v] = count
                    stack.append(v)
        count += 1
    return room


def lattice_edges(rows: int, cols: int, lattice: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The edges of a decision on edges, as pairs of ``(row, col)`` ends, row-major by first end.

    Args:
        rows, cols: the map's size in cells.
        lattice: ``"edges"`` (ends are cells) or ``"corners"`` (ends are
            lattice corners, ``rows + 1`` by ``cols + 1``).
    """
    h, w = (rows, cols) if lattice == "edges" else (rows + 1, cols + 1)
    out = []
    for r in range(h):
        for c in range(w):
            if c + 1 < w:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < h:
                out.append(((r, c), (r + 1, c)))
    return out


def edge_adjacency(edges: Iterable[tuple[Hashable, Hashable]]) -> dict:
    """Each end of ``edges`` (pairs of points: cells, corners) -> the points one edge away.

    Shared by the two verifiers that read lines (the spec's interpreter and
    the genres' published rules); the compiler never uses it.
    """
    adj: dict = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return adj


def edge_pieces(adj: dict) -> list[set]:
    """The connected pieces of the graph ``adj`` (from :func:`edge_adjacency`), in
    the order of their smallest point (rustworkx's ``connected_components``)."""
    import rustworkx as rx

    points = list(adj)
    index = {p: i for i, p in enumerate(points)}
    graph = rx.PyGraph()
    graph.add_nodes_from(points)
    graph.add_edges_from_no_data([(index[a], index[b]) for a, ends in adj.items() for b in ends if index[a] < index[b]])
    return sorted(({points[i] for i in piece} for piece in rx.connected_components(graph)), key=min)


_SIZE = LazyRegex(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """A size written ``RxC`` (rows by columns, each 1 or more, ``6x6``) as ``(rows, cols)``.

    Raises:
        ValueError: the text is not such a size; the message says how to write one.
    """
    m = _SIZE.match(text)
    if m is None or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"{text!r}: write ROWSxCOLS, each 1 or more (6x6)")
    return int(m.group(1)), int(m.group(2))
