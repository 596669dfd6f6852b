"""What the line genres' plug-ins share: the chosen edges of an answer, traced, and answer files read.

An answer's line is the set of its chosen edges ``((r1, c1), (r2, c2))``
(smaller end first): between side-neighbouring cells for Masyu and
Numberlink, between adjacent corners of the cell lattice for Slitherlink.
Hashiwokakero's bridges give each edge between cells a number, 0 to 2
(:func:`edge_values`).
These helpers read the published rules' words (a loop, a path, the
degree of a point) on that set alone; they share nothing with the compiler.

The instances' ``.answer`` files draw a line in box-drawing characters:
for lines between cells, each cell one character (its clue, or the line's
shape through it) with ``─`` or a space between side-by-side cells and a
row of ``│`` or spaces between rows (``═`` and ``║`` for two bridges); for
lines on the corner lattice, the corners with the edges between them and
each cell's clue. :func:`read_drawing` reads either back (an edge is any
character other than a space in an edge position), and :func:`read_values`
with the doubled characters as 2. Answers are drawn by
:mod:`gridlang.pictures.textdraw`, from the spec's looks.
"""

from __future__ import annotations

from gridlang.core.grid import cell_names, edge_adjacency, edge_pieces
from gridlang.ir.solution import Solution

Point = tuple[int, int]
Edge = tuple[Point, Point]


def chosen_edges(solution: Solution, name: str = "line") -> set[Edge]:
    """The edges of decision ``name`` the answer chooses, each with its smaller end first."""
    out = set()
    for key, value in solution.decisions.get(name, {}).items():
        if value is True or value == 1:
            a, b = (tuple(end) for end in key)
            out.add((min(a, b), max(a, b)))
    return out


def edge_values(solution: Solution, name: str) -> dict[Edge, int]:
    """The nonzero values of an integer decision on edges (Hashiwokakero's bridges), smaller end first."""
    out = {}
    for key, value in solution.decisions.get(name, {}).items():
        if type(value) is int and value != 0:
            a, b = (tuple(end) for end in key)
            out[(min(a, b), max(a, b))] = value
    return out


def loop_problems(edges: set[Edge]) -> list[str]:
    """The ways the edges fail to be one single closed loop (empty when they are one)."""
    if not edges:
        return ["no line is drawn"]
    adj = edge_adjacency(edges)
    problems = []
    ends = sorted(p for p, ws in adj.items() if len(ws) == 1)
    branches = sorted(p for p, ws in adj.items() if len(ws) > 2)
    if ends:
        problems.append(f"the line has dead ends at {cell_names(ends[:6])}")
    if branches:
        problems.append(f"the line branches or crosses at {cell_names(branches[:6])}")
    pieces = edge_pieces(adj)
    if len(pieces) > 1:
        problems.append(f"the line falls into {len(pieces)} pieces, not one loop")
    return problems


def sides(edges: set[Edge], p: Point) -> tuple[int, int, int, int]:
    """Whether a line leaves point or cell p up, right, down, left (lines between cells or corners)."""
    r, c = p
    return (int(((r - 1, c), p) in edges), int((p, (r, c + 1)) in edges), int((p, (r + 1, c)) in edges),
            int(((r, c - 1), p) in edges))


def cell_sides(edges: set[Edge], r: int, c: int) -> int:
    """How many of the four edges framing cell (r, c) on the corner lattice are chosen."""
    frame = [((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)), ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))]
    return sum(e in edges for e in frame)


def read_values(text: str) -> dict[Edge, int]:
    """The edges of a drawing with their values: 2 for ``═`` and ``║``, 1 for any other mark
    (positions as in :func:`read_drawing`)."""
    rows = [ln for ln in text.splitlines() if not ln.startswith("#")]
    out = {}
    for edge in read_drawing(text):
        (r, c), (r2, c2) = edge
        y, x = (2 * r, 2 * c + 1) if r == r2 else (2 * r + 1, 2 * c)
        out[edge] = 2 if rows[y][x] in "═║" else 1
    return out


def read_drawing(text: str) -> set[Edge]:
    """The edges of a drawing of lines between cells or on the corner lattice (the module docstring).

    Line ``2r``, character ``2c + 1`` is the edge ``(r, c)-(r, c + 1)``; line
    ``2r + 1``, character ``2c`` the edge ``(r, c)-(r + 1, c)``; an edge is
    chosen when its character is not a space. Lines starting with ``#`` are
    comments.
    """
    rows = [ln for ln in text.splitlines() if not ln.startswith("#")]
    edges = set()
    for y, line in enumerate(rows):
        for x, ch in enumerate(line):
            if ch == " ":
                continue
            if y % 2 == 0 and x % 2 == 1:
                edges.add(((y // 2, x // 2), (y // 2, x // 2 + 1)))
            elif y % 2 == 1 and x % 2 == 0:
                edges.add(((y // 2, x // 2), (y // 2 + 1, x // 2)))
    return edges
