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
    adj: list[set[int]] = [set() for _ in range(rows * cols)]
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        if r + 1 < rows:
            adj[i].add(i + cols)
            adj[i + cols].add(i)
        if c + 1 < cols:
            adj[i].add(i + 1)
            adj[i + 1].add(i)
    twins: dict[str, list[int]] = {}
    for i, (tile, ch) in enumerate(zip(grid.tiles, grid.chars)):
        decl = symbols.tiles.get(tile)
        if decl is not None and decl.linked:
            twins.setdefault(ch, []).append(i)
    for cells in twins.values():
        for u in cells:
            adj[u].update(v for v in cells if v != u)
    return tuple(tuple(sorted(a)) for a in adj)


def components(adj: Sequence[Sequence[int]], cells: set[int] | frozenset[int]) -> list[list[int]]:
    """The connected pieces of the subgraph ``cells`` induces, largest first.

    Returns:
        Each piece's cells ascending; ties in size keep the order of their
        smallest cell.
    """
    seen: set[int] = set()
    pieces = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        piece, queue = [start], deque([start])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v in cells and v not in seen:
                    seen.add(v)
                    piece.append(v)
                    queue.append(v)
        pieces.append(sorted(piece))
    pieces.sort(key=len, reverse=True)
    return pieces
