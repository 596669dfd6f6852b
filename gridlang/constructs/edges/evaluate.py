"""Decisions on edges and corners, evaluated on one answer for the spec-level verifier, straight from
their meaning.

Each function is given the interpreter (:mod:`gridlang.interpreter`, what
it offers as :mod:`gridlang.language.constructs` lists it) and imports
nothing of it, nor of the lowering (:mod:`.lower`); what it reads of one
answer is an :class:`Lines` in ``interpreter.kept``.

An answer gives a decision on edges as its edges, each ``((r1, c1), (r2,
c2))``: two side-neighbouring cells (``on edges``) or two adjacent corners
of the cell lattice (``on corner edges``, corners ``(0, 0)`` to ``(rows,
cols)``, corner ``(r, c)`` the top-left corner of cell ``(r, c)``). A
Boolean decision lists its chosen edges; an integer one (``0..2``) gives
every edge its value, and an edge is chosen when its value is not 0.
Degrees are summed, loops traced and components found by breadth-first
search on those pairs, with nothing taken from the compiler.
"""

from __future__ import annotations

from collections import deque

from gridlang.constructs.edges.nodes import Bend, ComponentAlong, CornersOf, Degree, EdgeAt, IsLoop
from gridlang.core.grid import border_ends, cell_name, edge_adjacency, edge_pieces, lattice_edges
from gridlang.language import ast

Point = tuple[int, int]
Edge = tuple[Point, Point]

SHOWN = 12
"""At most this many entries of a malformed answer named in a sentence (as the verifier's own)."""

_NONE: frozenset[int] = frozenset()


class Lines:
    """What the construct reads of one answer (in ``interpreter.kept``).

    Attributes:
        values: decision name -> edge -> its value (1 for a chosen edge of a Boolean decision).
        chosen: decision name -> its chosen edges (value not 0).
    """

    def __init__(self) -> None:
        self.values: dict[str, dict[Edge, int]] = {}
        self.chosen: dict[str, set[Edge]] = {}


def read(interpreter, d: ast.Decide, given: dict, lines: Lines) -> None:
    """Read the edges of ``d`` into ``lines``; report malformed entries, and for an integer decision
    values outside its domain and edges without a value."""
    possible = set(lattice_edges(interpreter.grid.rows, interpreter.grid.cols, d.lattice))
    domain = interpreter.domains.get(d.name, ())
    values: dict[Edge, int] = {}
    bad, odd = [], []
    for key, value in given.items():
        try:
            a, b = (tuple(int(x) for x in end) for end in key)
            if len(a) != 2 or len(b) != 2:
                raise ValueError
        except (TypeError, ValueError):
            bad.append(repr(key))
            continue
        edge = (min(a, b), max(a, b))
        if edge not in possible:
            bad.append(repr(key))
        elif not d.is_enum:
            if value is True or value == 1:
                values[edge] = 1
        elif type(value) is int and value in domain:
            values[edge] = value
        else:
            odd.append(f"{edge}: {value!r}")
    if bad:
        what = "side-neighbouring cells" if d.lattice == "edges" else "adjacent lattice corners"
        interpreter.fail(f"{d.name!r} is given on keys that are no edge between two {what}: " + ", ".join(bad[:5]))
    if odd:
        interpreter.fail(f"{d.name!r} takes values outside its domain ({', '.join(map(str, domain))}) "
                         f"on {len(odd)} edge(s): " + ", ".join(odd[:SHOWN]))
    if d.is_enum:
        missing = [e for e in sorted(possible) if e not in values and not any(o.startswith(f"{e}:") for o in odd)]
        if missing:
            interpreter.fail(f"{d.name!r} has no value on {len(missing)} of its edges: "
                             + ", ".join(map(str, missing[:SHOWN])))
    lines.values[d.name] = values
    lines.chosen[d.name] = {e for e, v in values.items() if v != 0}


# points: cells and corners -------------------------------------------------------------
def corner_points(interpreter, e: CornersOf) -> list[Point]:
    """``corners(p)``: the four corners of cell p, top-left first, row-major; ``corners(b)``: the two at
    the ends of border b, read off the places on either side of it."""
    if isinstance(e.cell, ast.Name) and e.cell.id in interpreter.bordervars:
        grid = interpreter.grid
        return list(border_ends(grid.rows, grid.cols, interpreter.bordervars[e.cell.id]))
    p = interpreter.cell(e.cell)
    if p is None:
        return []
    r, c = divmod(p, interpreter.grid.cols)
    return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]


def point(interpreter, e: ast.Expr) -> Point | None:
    """A cell's or a corner's ``(row, col)``; None off the grid."""
    if interpreter.is_corner(e):
        return interpreter.corner(e)
    p = interpreter.cell(e)
    return None if p is None else divmod(p, interpreter.grid.cols)


def frame(interpreter, name: str, e: ast.Expr) -> list[Edge]:
    """The four edges at a point, up, right, down, left (some may not exist): a cell's sides, the
    four edges framing a cell on corner edges, or the edges meeting at a corner."""
    at = point(interpreter, e)
    if at is None:
        return []
    r, c = at
    if interpreter.sym.decisions[name].lattice == "corners" and not interpreter.is_corner(e):
        return [((r, c), (r, c + 1)), ((r, c + 1), (r + 1, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                ((r, c), (r + 1, c))]
    return [((r - 1, c), (r, c)), ((r, c), (r, c + 1)), ((r, c), (r + 1, c)), ((r, c - 1), (r, c))]


def edge_value(interpreter, f: EdgeAt, lines: Lines) -> int:
    """``bridge[p, q]``: the value on the edge between p and q (1 or 0 for a Boolean decision;
    0 when they are not neighbours or one is off the grid)."""
    a, b = point(interpreter, f.a), point(interpreter, f.b)
    if a is None or b is None:
        return 0
    return lines.values[f.name.id].get((min(a, b), max(a, b)), 0)


def bend_holds(interpreter, f: Bend, lines: Lines) -> bool:
    """``straight(line, p)``, ``turn(line, p)``."""
    if point(interpreter, f.cell) is None:
        return False
    chosen = lines.chosen[f.name.id]
    up, right, down, left = [edge in chosen for edge in frame(interpreter, f.name.id, f.cell)]
    if up + right + down + left != 2:
        return False
    opposite = (up and down) or (left and right)
    return opposite if f.kind == "straight" else not opposite


def degree(interpreter, e: Degree, lines: Lines) -> int:
    """``degree(line, p)``: the sum of the values on the point's edges."""
    values = lines.values[e.name.id]
    return sum(values.get(edge, 0) for edge in frame(interpreter, e.name.id, e.cell))


def along(interpreter, e: ComponentAlong, lines: Lines) -> frozenset[int]:
    """``component of p along line`` (or ``of S``): breadth-first search over the chosen edges from p
    (from every cell of S)."""
    starts = interpreter.cells(e.cell)
    if not starts:
        return frozenset()
    cols = interpreter.grid.cols
    adj = edge_adjacency(lines.chosen[e.name.id])
    seen = {divmod(p, cols) for p in starts}
    queue = deque(sorted(seen))
    while queue:
        for w in adj.get(queue.popleft(), ()):
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return frozenset(r * cols + c for r, c in seen)


def connected_violation(st: ast.IsConnected, lines: Lines) -> tuple[str, frozenset[int]] | None:
    """``line is connected``: the chosen edges form one connected graph (none at all is connected)."""
    pieces = edge_pieces(edge_adjacency(lines.chosen[st.cells.id]))
    if len(pieces) > 1:
        sizes = ", ".join(str(len(p)) for p in pieces)
        return (f"the chosen edges of {st.cells.id!r} fall into {len(pieces)} pieces ({sizes} points); "
                f"points of the second: " + ", ".join(map(str, sorted(pieces[1])[:5])), _NONE)
    return None


def loop_violation(
    f: IsLoop, lines: Lines, lattice: str, cols: int
) -> tuple[str, frozenset[int], tuple[Point, ...]] | None:
    """``line is a loop``: one closed loop, every end of a chosen edge meeting exactly two of them (the
    published rule of Masyu, Slitherlink and every loop genre).

    Args:
        f: the rule.
        lines: the answer's edges.
        lattice: ``"edges"`` (a line between cell centres: its points are cells) or ``"corners"``
            (along the cells' sides: its points are corners of the lattice).
        cols: the grid's columns, to number a cell.

    Returns:
        None when the rule holds; else a sentence, the cells to show and the corners to show: a line
        with dead ends (one chosen edge meets there) or branches (three or four) names those points
        and shows them (as cells or as corners); a line of several loops shows none (it is broken as
        a whole).
    """
    chosen = lines.chosen[f.name.id]
    if not chosen:
        return f"{f.name.id!r} has no chosen edge, so no loop", _NONE, ()
    adj = edge_adjacency(chosen)
    ends = sorted(v for v, ws in adj.items() if len(ws) == 1)
    branches = sorted(v for v, ws in adj.items() if len(ws) > 2)
    if ends or branches:
        what = "" if lattice == "edges" else "corner "
        said = " and ".join(
            f"{one if len(found) == 1 else f'{len(found)} {many}'} at "
            + "; ".join(what + cell_name(r, c) for r, c in found[:SHOWN])
            + (f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else "")
            for found, one, many in ((ends, "a dead end", "dead ends"), (branches, "a branch", "branches"))
            if found
        )
        points = sorted(ends + branches)
        if lattice == "edges":
            return said, frozenset(r * cols + c for r, c in points), ()
        return said, _NONE, tuple(points)
    if len(edge_pieces(adj)) > 1:
        return f"the chosen edges of {f.name.id!r} form more than one loop", _NONE, ()
    return None
