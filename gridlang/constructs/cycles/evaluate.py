"""Acyclicity evaluated on one answer for the spec-level verifier, on the graph itself.

Each function is given the interpreter (:mod:`gridlang.interpreter`, what
it offers as :mod:`gridlang.language.constructs` lists it) and imports
nothing of it, nor of the lowering (:mod:`.lower`, which goes through the
faces of the plane). Here the graph is built from the answer as it reads:
the chosen edges of a decision on edges (its points cells or lattice
corners, as the decisions on edges read them), the true cells of a
Boolean decision joined to their side neighbours among them, or each
cell's slant as an edge between the two corners it joins. A union-find over its edges finds
the first that closes a cycle, and a breadth-first search the cycle it
closes; an edge lies on a cycle when its ends are joined without it.
"""

from __future__ import annotations

from collections import deque

from gridlang.constructs.cycles.nodes import NoCycle, OnCycle
from gridlang.constructs.edges import DECISIONS
from gridlang.constructs.slants import ends

Point = tuple[int, int]
Edge = tuple[Point, Point]

SHOWN = 8
"""At most this many points of a cycle named in a sentence."""


def graph(interpreter, name: str) -> dict[Edge, int | None]:
    """The answer's edges of decision ``name``, each with the cell it stands in (a slant's cell; the
    cell of a cycle between cells is each end, given by the points; None for other edges)."""
    if name in interpreter.enums:
        cols = interpreter.grid.cols
        out: dict[Edge, int | None] = {}
        for p, value in sorted(interpreter.enums[name].items()):
            pair = ends(value, *divmod(p, cols))
            if pair is not None:
                out[pair] = p
        return out
    if name in interpreter.bools:  # a Boolean decision on cells: its cells and their side neighbours in it
        cols, cells = interpreter.grid.cols, interpreter.bools[name]
        points = sorted(divmod(p, cols) for p in cells)
        return {((r, c), (r + dr, c + dc)): None for r, c in points for dr, dc in ((0, 1), (1, 0))
                if c + dc < cols and (r + dr) * cols + c + dc in cells}
    return dict.fromkeys(sorted(interpreter.kept[DECISIONS].chosen[name]))


def _path(adj: dict[Point, list[Point]], start: Point, goal: Point) -> list[Point] | None:
    """The points of a shortest path from start to goal in ``adj`` (breadth-first), or None."""
    before: dict[Point, Point | None] = {start: None}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        if u == goal:
            path = [u]
            while before[path[-1]] is not None:
                path.append(before[path[-1]])
            return path[::-1]
        for w in adj.get(u, ()):
            if w not in before:
                before[w] = u
                queue.append(w)
    return None


def no_cycle_violation(interpreter, f: NoCycle) -> tuple[str, frozenset[int]] | None:
    """``NAME has no cycle``: None when the answer's edges form a forest, else the first cycle found."""
    edges = graph(interpreter, f.name.id)
    parent: dict[Point, Point] = {}

    def root(x: Point) -> Point:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    adj: dict[Point, list[Point]] = {}
    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra == rb:
            cycle = _path(adj, a, b) or [a, b]
            return (f"{f.name.id!r} closes a cycle through {len(cycle)} points: "
                    + ", ".join(map(str, cycle[:SHOWN])) + (", ..." if len(cycle) > SHOWN else ""),
                    _cells(interpreter, f.name.id, cycle, edges))
        parent[ra] = rb
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return None


def _cells(interpreter, name: str, cycle: list[Point], edges: dict[Edge, int | None]) -> frozenset[int]:
    """The cells to show of a cycle: the slants' cells, or the cells a line between cells goes through."""
    cols = interpreter.grid.cols
    if name in interpreter.enums:
        loop = list(zip(cycle, cycle[1:] + cycle[:1]))
        return frozenset(c for (a, b) in loop for c in (edges.get((min(a, b), max(a, b))),) if c is not None)
    if name in interpreter.bools or interpreter.sym.decisions[name].lattice == "edges":
        return frozenset(r * cols + c for r, c in cycle)
    return frozenset()


def on_cycle(interpreter, e: OnCycle) -> bool:
    """``p is on a cycle of slant``: p holds a slant, and its ends are joined by the other slants."""
    p = interpreter.cell(e.cell)
    if p is None:
        return False
    pair = ends(interpreter.enums[e.name.id].get(p), *divmod(p, interpreter.grid.cols))
    if pair is None:
        return False
    adj: dict[Point, list[Point]] = {}
    for (a, b), cell in graph(interpreter, e.name.id).items():
        if cell != p:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    return _path(adj, pair[0], pair[1]) is not None
