"""Point symmetry evaluated on one answer for the spec-level verifier.

Each function is given the interpreter (:mod:`gridlang.interpreter`, what
it offers as :mod:`gridlang.language.constructs` lists it) and imports
nothing of it, nor of the lowering (:mod:`.lower`, labels and clauses).
Here the answer is read as it stands: a region's cells, each looked for at
its mirror image; the walls drawn, the regions they leave found by a
breadth-first search, and each region's points counted and its cells
mirrored.
"""

from __future__ import annotations

from collections import deque

from gridlang.constructs.edges import DECISIONS
from gridlang.constructs.symmetry.nodes import (
    Divides,
    Point,
    Symmetric,
    cells_at,
    mirror,
    point_name,
)
from gridlang.core.grid import cell_name
from gridlang.language import ast


def _rc(i: int, cols: int) -> str:
    """Cell ``i`` of a grid ``cols`` wide as a person reads it (:func:`gridlang.core.grid.cell_name`)."""
    return cell_name(*divmod(i, cols))


def _missing(cells: frozenset[int], point: Point, rows: int, cols: int) -> tuple[str, frozenset[int]] | None:
    """The first cell of ``cells`` whose mirror about ``point`` is not in it, in a sentence; else None."""
    for i in sorted(cells):
        m = mirror(point, i // cols, i % cols, rows, cols)
        j = None if m is None else m[0] * cols + m[1]
        if j not in cells:
            where = "off the grid" if j is None else f"{_rc(j, cols)}, not in it"
            return (f"the region is not symmetric about {point_name(point)}: {_rc(i, cols)} is in it, and its "
                    f"mirror image is {where}"), frozenset({i})
    return None


def symmetric_violation(interpreter, e: Symmetric) -> tuple[str, frozenset[int]] | None:
    """None when the region's cells are their own mirror image about the point; else the first cell
    whose mirror is missing."""
    grid = interpreter.grid
    cols = grid.cols
    if isinstance(e.point, ast.Name) and e.point.id in interpreter.bordervars:
        (r1, c1), (r2, c2) = interpreter.border_cells(interpreter.bordervars[e.point.id])
        point = r1 + r2 + 1, c1 + c2 + 1
    elif interpreter.is_corner(e.point):
        v = interpreter.corner(e.point)
        if v is None:
            return None
        point = 2 * v[0], 2 * v[1]
    else:
        i = interpreter.cell(e.point)
        if i is None:
            return None
        point = 2 * (i // cols) + 1, 2 * (i % cols) + 1
    return _missing(interpreter.cells(e.region), point, grid.rows, cols)


def points(interpreter, names) -> list[Point]:
    """The points of the tiles ``names`` on the interpreter's map, on the doubled lattice."""
    grid = interpreter.grid
    out: list[Point] = []
    for name in names:
        if name.id in interpreter.sym.border_tiles:
            for k, tile in enumerate(grid.border_tiles):
                if tile == name.id:
                    (r1, c1), (r2, c2) = interpreter.border_cells(k)
                    out.append((r1 + r2 + 1, c1 + c2 + 1))
        elif name.id in interpreter.sym.corner_tiles:
            width = grid.cols + 1
            out.extend((2 * (k // width), 2 * (k % width)) for k, tile in enumerate(grid.corner_tiles)
                       if tile == name.id)
        else:
            out.extend((2 * (i // grid.cols) + 1, 2 * (i % grid.cols) + 1) for i in interpreter.cells(name))
    return sorted(set(out))


def divides_violation(interpreter, e: Divides) -> tuple[str, frozenset[int]] | None:
    """None when the walls cut the cells into regions each holding one point and symmetric about it,
    with a wall exactly between two neighbours of different regions; else the first fault."""
    grid = interpreter.grid
    rows, cols = grid.rows, grid.cols
    cells = interpreter.cells(e.cells)
    walls = {(min(a, b), max(a, b)) for (p, q) in interpreter.kept[DECISIONS].chosen.get(e.wall.id, ())
             for a, b in [(p[0] * cols + p[1], q[0] * cols + q[1])]}
    region: dict[int, int] = {}
    for start in sorted(cells):
        if start in region:
            continue
        region[start] = start
        queue = deque([start])
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            side = [(r + dr) * cols + c + dc for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                    if 0 <= r + dr < rows and 0 <= c + dc < cols]
            for v in side:
                if v in cells and v not in region and (min(u, v), max(u, v)) not in walls:
                    region[v] = start
                    queue.append(v)
    for u, v in sorted(walls):
        if u in cells and v in cells and region[u] == region[v]:
            return (f"the wall between {_rc(u, cols)} and {_rc(v, cols)} stands inside one region"), frozenset({u, v})
    held: dict[int, list[Point]] = {}
    for point in points(interpreter, e.points):
        around = [r * cols + c if 0 <= r < rows and 0 <= c < cols else None for r, c in cells_at(point)]
        if None in around or any(i not in cells for i in around):
            return (f"the point {point_name(point)} touches a cell outside the cells divided"), \
                frozenset(i for i in around if i is not None)
        ids = {region[i] for i in around}
        if len(ids) > 1:
            return f"a wall runs through the point {point_name(point)}", frozenset(around)
        held.setdefault(ids.pop(), []).append(point)
    for start in sorted(set(region.values())):
        members = frozenset(i for i, s in region.items() if s == start)
        found = held.get(start, [])
        if len(found) != 1:
            what = "no point" if not found else f"{len(found)} points ({', '.join(map(point_name, found))})"
            return f"the region of {_rc(start, cols)} holds {what}, not one", members
        fault = _missing(members, found[0], rows, cols)
        if fault is not None:
            return fault
    return None
