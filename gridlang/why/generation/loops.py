"""Random long loops for the answers of loop genres (Masyu, Slitherlink, Yajilin).

Left to itself the solver draws the shortest loop the rules allow (a 2x2 square), and the
clues placed on it make a puzzle no setter would publish: four white pearls around it. A loop
here is the boundary of a region of the lattice's faces, grown as Simon Tatham's Loopy grows
the inside of its loop (Portable Puzzle Collection, ``loopgen.c``: faces coloured in one at a
time while the boundary stays one loop). Each step takes, in a random order, a shape of new
faces next to the region (one face, a bar of two, a square of four) that lengthens the boundary
and keeps it one simple cycle (no hole, no two faces meeting at a corner alone), with every run
between two turns within the bounds asked (:func:`random_loop`). The growth stops once the loop
passes through the share of the lattice's nodes drawn for it (:data:`LOOP_SHARE`), or when no
shape lengthens it. Cost: a step checks each shape in time linear in the loop's length.
"""

from __future__ import annotations

import random

LOOP_SHARE = (0.6, 0.9)
"""The least and the most share of the lattice's nodes a loop is grown to pass through."""

Node = tuple[int, int]
Edge = tuple[Node, Node]


def face_edges(i: int, j: int) -> tuple[Edge, Edge, Edge, Edge]:
    """The four edges around the face whose top left node is ``(i, j)``, each as (smaller node, larger node)."""
    return (((i, j), (i, j + 1)), ((i + 1, j), (i + 1, j + 1)), ((i, j), (i + 1, j)), ((i, j + 1), (i + 1, j + 1)))


def boundary(region: set[Node]) -> set[Edge]:
    """The edges around exactly one face of ``region`` (faces named by their top left node)."""
    out: set[Edge] = set()
    for i, j in region:
        for e in face_edges(i, j):
            out ^= {e}
    return out


def one_cycle(edges: set[Edge]) -> bool:
    """Whether ``edges`` form one simple cycle: every node they touch has two of them, and they are connected."""
    if not edges:
        return False
    ends: dict[Node, list[Node]] = {}
    for a, b in edges:
        ends.setdefault(a, []).append(b)
        ends.setdefault(b, []).append(a)
    if any(len(v) != 2 for v in ends.values()):
        return False
    start = next(iter(ends))
    seen, todo = {start}, [start]
    while todo:
        for m in ends[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return len(seen) == len(ends)


def runs(edges: set[Edge]) -> tuple[int, int]:
    """The fewest and the most edges between two turns of the cycle ``edges`` (a cycle's edges, as
    :func:`one_cycle` accepts; one that never turns has no run, and gives its length and 0)."""
    ends: dict[Node, list[Node]] = {}
    for a, b in edges:
        ends.setdefault(a, []).append(b)
        ends.setdefault(b, []).append(a)

    def turns(n: Node) -> bool:
        a, b = ends[n]
        return a[0] != b[0] and a[1] != b[1]

    best, most = len(edges), 0
    for t, near in ends.items():
        if not turns(t):
            continue
        for here in near:  # from a turn to the next along each of its two edges
            run, prev = 1, t
            while not turns(here):
                a, b = ends[here]
                prev, here = here, (b if a == prev else a)
                run += 1
            best, most = min(best, run), max(most, run)
    return best, most


def random_loop(height: int, width: int, rng: random.Random, min_run: int = 1, max_run: int = 0) -> set[Edge]:
    """A random simple cycle on a ``height`` x ``width`` lattice of nodes, as its edges.

    Args:
        height, width: the lattice's nodes down and across (a map's cells for a line between cell
            centres; its rows and columns plus one for a line along the cells' sides); each at least 2.
        rng: the random source.
        min_run, max_run: the fewest and the most edges between two turns (``max_run`` 0: no
            bound); with ``min_run`` above 1 the region starts as a square of that many faces a
            side, else as one face.

    Returns:
        The cycle's edges, each ``((r1, c1), (r2, c2))`` with the smaller node first; it passes
        through about a share drawn from :data:`LOOP_SHARE` of the nodes (fewer when the growth
        stops early).

    Raises:
        ValueError: a lattice smaller than 2x2 nodes.
    """
    if height < 2 or width < 2:
        raise ValueError(f"a loop needs a lattice of 2x2 nodes at least, not {height}x{width}")
    faces = [(i, j) for i in range(height - 1) for j in range(width - 1)]
    if min_run > 1 and height > min_run and width > min_run:  # a square of faces whose sides are runs enough
        i, j = rng.randrange(height - min_run), rng.randrange(width - min_run)
        region = {(i + a, j + b) for a in range(min_run) for b in range(min_run)}
    else:
        region = {rng.choice(faces)}
    edges = boundary(region)
    target = rng.uniform(*LOOP_SHARE) * height * width
    while len(edges) < target:  # a cycle has as many nodes as edges
        near = {(i + a, j + b) for i, j in region for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        moves = [shape for f in near if f not in region and 0 <= f[0] < height - 1 and 0 <= f[1] < width - 1
                 for shape in _bars(f, region, height, width)]
        rng.shuffle(moves)
        for shape in moves:
            after = edges
            for g in shape:
                after = after ^ set(face_edges(*g))
            if len(after) > len(edges) and one_cycle(after) and _runs_within(after, min_run, max_run):
                region.update(shape)
                edges = after
                break
        else:
            break
    return edges


def _runs_within(edges: set[Edge], least: int, most: int) -> bool:
    """Whether every run of the cycle between two turns is ``least`` edges or more, and ``most`` or fewer (0: any)."""
    if least <= 1 and not most:
        return True
    low, high = runs(edges)
    return low >= least and (not most or high <= most)


def _bars(f: Node, region: set[Node], height: int, width: int) -> list[list[Node]]:
    """The shapes of new faces tried at ``f``: itself, the two-face bars and the 2x2 squares that hold it."""
    shapes = [[f]] + [[f, (f[0] + a, f[1] + b)] for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))] + \
        [[(f[0] + a + x, f[1] + b + y) for x in (0, 1) for y in (0, 1)] for a in (0, -1) for b in (0, -1)]
    return [s for s in shapes
            if all(g not in region and 0 <= g[0] < height - 1 and 0 <= g[1] < width - 1 for g in s)]
