"""The compiler's lowering of point symmetry: clauses on the region's literals, labels for a division.

Each function is given the compiler (:mod:`gridlang.compiler`, its methods
as :mod:`gridlang.language.constructs` lists them) and imports nothing of
it, nor of the evaluation (:mod:`.evaluate`). A literal is ``True``,
``False`` or a variable's number, negative when negated.

``S is symmetric about x``
    for each cell p that S may hold (its literal ``s(p)``), the clause
    ``not s(p) or s(m)`` with m the mirror of p about x, or ``not s(p)``
    when m is off the grid or never in S. Size: one clause per cell S may
    hold, no variable.
``wall divides S into regions symmetric about T, ...``
    the points of the tiles T, and for each cell p of S its *reach*: the
    points k whose mirror of p is a cell of S (a region symmetric about k
    can hold p only then). A label per cell and point of its reach,
    ``x(p, k)``, one-hot per cell (cspuz's and noqx's formulation of
    Tentaisho: a region is the cells of one label); ``x(c, k)`` true on
    the cells the point k touches; ``x(p, k) -> x(m, k)`` for the mirror
    m; on each edge (p, q) of S, ``x(p, k) and not x(q, k) -> wall(p, q)``
    for each k of p's reach and ``x(p, k) and x(q, k) -> not wall(p, q)``
    for each k of both; and for each point a
    :class:`~gridlang.ir.model.GraphConnected` node over the cells of its
    reach, rooted at its cells, whose edges are the edges without a wall.
    Size: the cells times the points within reach in variables and
    clauses (never pairs of cells), and one connectivity node per point.
"""

from __future__ import annotations

from gridlang.constructs.edges import DECISIONS
from gridlang.constructs.symmetry.nodes import (
    Divides,
    Point,
    Symmetric,
    cells_at,
    mirror,
    point_name,
)
from gridlang.core.errors import SemanticError
from gridlang.core.grid import border_places
from gridlang.ir.literals import neg
from gridlang.ir.model import GraphConnected
from gridlang.language import ast


def _point(compiler, e) -> Point | None:
    """The point ``e`` on the doubled lattice (None off the grid or the lattice)."""
    bound = compiler.bound.get(e.id) if isinstance(e, ast.Name) else None
    if bound is not None and bound[0] == "border":
        (r1, c1), (r2, c2) = border_places(compiler.grid.rows, compiler.grid.cols, bound[1])
        return r1 + r2 + 1, c1 + c2 + 1
    if compiler.is_corner(e):
        v = compiler.corner_of(e)
        return None if v is None else (2 * v[0], 2 * v[1])
    i = compiler.cell_of(e)
    if i is None:
        return None
    r, c = compiler.grid.cell(i)
    return 2 * r + 1, 2 * c + 1


def symmetric(compiler, e: Symmetric, guard: tuple[int, ...]) -> None:
    """``S is symmetric about x``: one clause per cell the region may hold, its mirror in the region too.

    Raises:
        SemanticError: the point is off the grid (``p + d`` past the frame), located at it.
    """
    span = compiler.current.span if compiler.current is not None else e.span
    point = _point(compiler, e.point)
    if point is None:
        raise SemanticError("'is symmetric about' names a point off the grid here", getattr(e.point, "span", e.span),
                            source=compiler.spec.source)
    grid = compiler.grid
    members = compiler.members(e.region, None)
    undo = [neg(g) for g in guard]
    for i, lit in sorted(members.items()):
        if lit is False:
            continue
        m = mirror(point, *grid.cell(i), grid.rows, grid.cols)
        other = False if m is None else members.get(grid.index(*m), False)
        if other is True:
            continue
        if lit is True and other is False:
            compiler.fails(guard, e, i)
            continue
        compiler.clause(undo + [neg(lit)] + ([] if other is False else [other]), span)


def points(compiler, names) -> list[Point]:
    """The points of the tiles ``names`` on the compiler's map, on the doubled lattice, ascending."""
    out: list[Point] = []
    for name in names:
        if name.id in compiler.sym.border_tiles:
            for k in compiler.border_set(name):
                (r1, c1), (r2, c2) = border_places(compiler.grid.rows, compiler.grid.cols, k)
                out.append((r1 + r2 + 1, c1 + c2 + 1))
        elif name.id in compiler.sym.corner_tiles:
            out.extend((2 * r, 2 * c) for r, c in compiler.corner_set(name))
        else:
            out.extend((2 * r + 1, 2 * c + 1) for r, c in
                       (compiler.grid.cell(i) for i, v in compiler.members(name, None).items() if v is True))
    return sorted(set(out))


def divides(compiler, e: Divides, guard: tuple[int, ...]) -> None:
    """``wall divides S into regions symmetric about T, ...``: labels, their symmetry, the walls between
    labels and each label's connectivity (the module's docstring gives the clauses).

    Raises:
        SemanticError: the rule stands under ``implies``.
        MapError: a point touches a cell outside S or off the grid, or a cell of S is in reach of no
            point (located at that cell of the map).
    """
    if guard:
        raise SemanticError("'divides ... into regions' is a rule of its own; it cannot stand under 'implies'",
                            e.span, source=compiler.spec.source)
    span = compiler.current.span if compiler.current is not None else e.span
    grid = compiler.grid
    rows, cols = grid.rows, grid.cols
    cells = sorted(i for i, v in compiler.members(e.cells, None).items() if v is True)
    inside = set(cells)
    pts = points(compiler, e.points)
    at: dict[Point, list[int]] = {}
    for k in pts:
        around = [grid.index(r, c) if 0 <= r < rows and 0 <= c < cols else None for r, c in cells_at(k)]
        if None in around or any(i not in inside for i in around):
            i = next((i for i in around if i is not None), 0)
            raise compiler.at_map_cell(i, f"the point {point_name(k)} touches a cell outside the cells "
                                          f"divided, so no region can be symmetric about it", span)
        at[k] = around
    reach: dict[int, list[Point]] = {}
    for i in cells:
        r, c = grid.cell(i)
        reach[i] = [k for k in pts if (m := mirror(k, r, c, rows, cols)) is not None and grid.index(*m) in inside]
        if not reach[i]:
            raise compiler.at_map_cell(i, "no point of the regions has this cell's mirror image on the cells "
                                          "divided, so no region can hold it", span)
    label = {i: compiler.one_hot(f"{e.wall.id}_region", i, [f"d{k[0]}_{k[1]}" for k in reach[i]], span)
             for i in cells}
    x = {(i, k): label[i][f"d{k[0]}_{k[1]}"] for i in cells for k in reach[i]}
    for k, around in at.items():
        for i in around:
            compiler.clause([x[(i, k)]], span)
    for (i, k), lit in x.items():
        r, c = grid.cell(i)
        m = grid.index(*mirror(k, r, c, rows, cols))
        compiler.clause([neg(lit), x[(m, k)]], span)
    es = compiler.collected[DECISIONS].sets[e.wall.id]
    for (u, v), wall in sorted(es.lits.items()):
        if u not in inside or v not in inside:
            continue
        for a, b in ((u, v), (v, u)):
            for k in reach[a]:
                other = x.get((b, k), False)
                compiler.clause([neg(x[(a, k)])] + ([] if other is False else [other]) + [wall], span)
        for k in set(reach[u]) & set(reach[v]):
            compiler.clause([neg(x[(u, k)]), neg(x[(v, k)]), neg(wall)], span)
    for k, around in at.items():
        members = tuple((i, compiler.lit(x[(i, k)])) for i in cells if (i, k) in x)
        held = {i for i, _ in members}
        pairs = tuple((u, v, compiler.lit(neg(w)))
                      for (u, v), w in sorted(es.lits.items()) if u in held and v in held)
        compiler.constraints.append(GraphConnected(members, pairs, tuple(sorted(set(around))), False,
                                                   e.wall.id, span))
