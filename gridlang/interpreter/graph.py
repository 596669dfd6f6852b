"""The grid graph as the verifier builds it, from the map's characters and the spec's tiles."""

from __future__ import annotations

from collections import deque
from typing import Sequence

from gridlang.core.grid import Grid
from gridlang.language.checker import Symbols


def adjacency(grid: Grid, symbols: Symbols) -> tuple[tuple[int, ...], ...]:
    """The grid graph: side neighbours plus the cells of ``linked`` tiles with equal characters.

    Args:
        grid: the map (``rows``, ``cols``, ``chars``, ``tiles``).
        symbols: the spec's tiles, for their ``linked`` flag.

    Returns:
        For each cell index, its neighbours' indices, ascending.
    """
    rows, cols = grid.rows, grid.cols
    adj: list[tuple[int, ...]] = []
    for r in range(rows):
        for c in range(cols):  # up, left, right, down: ascending
            i = r * cols + c
            if 0 < r < rows - 1 and 0 < c < cols - 1:
                adj.append((i - cols, i - 1, i + 1, i + cols))
            else:
                adj.append(tuple(v for v, inside in ((i - cols, r > 0), (i - 1, c > 0), (i + 1, c + 1 < cols),
                                                     (i + cols, r + 1 < rows)) if inside))
    twins: dict[str, list[int]] = {}
    for i, (tile, ch) in enumerate(zip(grid.tiles, grid.chars)):
        decl = symbols.tiles.get(tile)
        if decl is not None and decl.linked:
            twins.setdefault(ch, []).append(i)
    for cells in twins.values():
        for u in cells:
            adj[u] = tuple(sorted(set(adj[u]).union(v for v in cells if v != u)))
    return tuple(adj)


def reached(adj: Sequence[Sequence[int]], starts, within: set[int] | frozenset[int]) -> set[int]:
    """The cells of ``within`` reached from ``starts`` by steps between neighbours of ``adj`` inside
    ``within`` (breadth first): the piece of each start, the starts themselves included.

    Args:
        adj: each cell's neighbours (:func:`adjacency`).
        starts: the cells to start from; every one is taken as reached, in ``within`` or not (``reach
            from R through P`` holds its roots whatever P says of them).
        within: the cells a step may enter.

    Returns:
        The cells reached.
    """
    seen = set(starts)
    queue = deque(sorted(seen))
    while queue:
        for v in adj[queue.popleft()]:
            if v in within and v not in seen:
                seen.add(v)
                queue.append(v)
    return seen


def components(adj: Sequence[Sequence[int]], cells: set[int] | frozenset[int]) -> list[list[int]]:
    """The connected pieces of the subgraph ``cells`` induces, largest first (each by :func:`reached`).

    Returns:
        Each piece's cells ascending; ties in size keep the order of their
        smallest cell.
    """
    seen: set[int] = set()
    pieces = []
    for start in sorted(cells):
        if start in seen:
            continue
        piece = reached(adj, (start,), cells)
        seen |= piece
        pieces.append(sorted(piece))
    pieces.sort(key=len, reverse=True)
    return pieces
