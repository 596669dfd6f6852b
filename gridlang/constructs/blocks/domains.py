"""The values a block rule leaves each cell, known before any variable is made.

A decision D whose blocks must have as many cells as their value,
``require for each cell p: count(component of p in (D = D[p])) == D[p]``
(Fillomino's rule), and whose value is fixed on some cells by rules
``require for each g in S: D[g] == N`` (N known from the map at g: the
given numbers), cannot take at a cell q a value v that no block of v cells
through q could have: q's block lies inside the cells that may take v (D
made there and not fixed to another value), so when q's group of such
cells (joined through grid edges) has fewer than v cells, D[q] = v never
holds. The one-hot encoding of D then makes no variable for v at q.

Exact: only values that no answer gives are left out (the group is an
upper bound on the block), and the rules are still stated in full.

What it costs: one breadth-first search over the grid for each distinct
fixed value and one for the unfixed cells, ``O(cells * (fixed values +
1))``, and the values kept. What it saves: with a domain of ``1..(count(all))``
every cell had as many values as the grid has cells (a 50x64 map,
10,240,000 variables); a cell now has only the values up to the size of its
group, which is the largest clue's size beside the given numbers and the
size of the empty area a cell lies in (about 950,000 on that map, most of
them in its one empty area of 660 cells).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque

from gridlang.constructs.blocks.nodes import SameValue
from gridlang.core.nodes import field_names
from gridlang.language import ast


def block_values(compiler, st) -> dict[int, list] | None:
    """The values each cell keeps of the enumerated decision ``st`` (an ``ast.Decide``), or None.

    Args:
        compiler: the compiler, before any rule is stated (its map, grid and
            parameters are read; it states nothing).
        st: the ``decide`` statement, made on cells with integer values.

    Returns:
        cell -> the values of ``st``'s domain it may take, in the domain's
        order, for the cells ``st`` is made on; None when the spec states
        no unguarded rule ``for each cell p: count(component of p in (D =
        D[p])) == D[p]`` on it (nothing is then left out).
    """
    values = compiler.domain_values.get(st.name)
    if not values or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        return None
    sized = _sized_cells(compiler, st.name)
    if sized is None:
        return None
    made = [i for i, v in enumerate(compiler.cells(st.on)) if v is not False]
    fixed = _fixed_values(compiler, st.name)
    domain = set(values)
    # value (None: a value no cell is fixed to) -> cell -> the size of its group of cells that may take it
    groups: dict[object, dict[int, int]] = {}
    for v in sorted({v for v in fixed.values() if v in domain}):
        groups[v] = _group_sizes(
            compiler.grid, {i for i in made if fixed.get(i, v) == v}
        )
    groups[None] = _group_sizes(compiler.grid, {i for i in made if i not in fixed})
    ordered = sorted(values)
    out: dict[int, list] = {}
    for i in made:
        if i in fixed:
            out[i] = [fixed[i]] if fixed[i] in domain else list(values)
            continue
        if i not in sized:
            out[i] = list(values)
            continue
        keep = set(ordered[: bisect_right(ordered, groups[None].get(i, 0))])
        keep.update(
            v for v, sizes in groups.items() if v is not None and sizes.get(i, 0) >= v
        )
        out[i] = (
            [v for v in values if v in keep]
            if len(keep) < len(values)
            else list(values)
        )
    return out


def _sized_cells(compiler, name: str) -> set[int] | None:
    """The cells p of the rules ``for each ...: count(component of p in (D = D[p])) == D[p]`` on
    decision ``name``, unguarded (None when there is none)."""
    found = None
    for st in compiler.spec.statements:
        if not (
            isinstance(st, ast.ForEach)
            and isinstance(st.body, ast.Compare)
            and st.body.op == "=="
        ):
            continue
        var = st.var.id
        for side, other in (
            (st.body.left, st.body.right),
            (st.body.right, st.body.left),
        ):
            if (
                isinstance(side, ast.Count)
                and isinstance(side.operand, ast.Component)
                and isinstance(side.operand.within, SameValue)
                and side.operand.within.decision.id == name
                and _is_var(side.operand.cell, var)
                and _is_var(side.operand.within.cell, var)
                and isinstance(other, ast.At)
                and other.name.id == name
                and _is_var(other.cell, var)
            ):
                cells = {
                    value
                    for kind, value in compiler.bindings(st.var, st.domain)
                    if kind == "cell"
                }
                found = cells if found is None else found | cells
    return found


def _fixed_values(compiler, name: str) -> dict[int, int]:
    """Cell -> the value the rules ``for each g in S: D[g] == N`` (N known at g) fix decision ``name`` to
    (a cell two of them fix to different values is left out: the rules themselves make it infeasible)."""
    out: dict[int, int | None] = {}
    for st in compiler.spec.statements:
        if not (
            isinstance(st, ast.ForEach)
            and isinstance(st.body, ast.Compare)
            and st.body.op == "=="
        ):
            continue
        var = st.var.id
        for side, other in (
            (st.body.left, st.body.right),
            (st.body.right, st.body.left),
        ):
            if not (
                isinstance(side, ast.At)
                and side.name.id == name
                and _is_var(side.cell, var)
            ) or _mentions(
                other,
                set(compiler.sym.decisions)
                | set(compiler.sym.regions)
                | set(compiler.sym.lets),
            ):
                continue
            for kind, value in compiler.bindings(st.var, st.domain):
                if kind != "cell":
                    continue
                compiler.bind(var, kind, value)
                try:
                    n = compiler.constant(other)
                finally:
                    compiler.unbind(var)
                if n is not None:
                    out[value] = n if out.get(value, n) == n else None
            break
    return {i: v for i, v in out.items() if v is not None}


def _mentions(e, names: set[str]) -> bool:
    """Whether the AST node ``e`` mentions one of ``names``."""
    if isinstance(e, ast.Name):
        return e.id in names
    if isinstance(e, tuple):
        return any(_mentions(x, names) for x in e)
    return any(_mentions(getattr(e, f), names) for f in field_names(e) if f != "span")


def _is_var(e, var: str) -> bool:
    return isinstance(e, ast.Name) and e.id == var


def _group_sizes(grid, cells: set[int]) -> dict[int, int]:
    """Cell -> the number of cells of its group in ``cells`` (joined through grid edges)."""
    size: dict[int, int] = {}
    for start in cells:
        if start in size:
            continue
        group, queue = [start], deque([start])
        size[start] = 0
        while queue:
            u = queue.popleft()
            for w in grid.neighbours[u]:
                if w in cells and w not in size:
                    size[w] = 0
                    group.append(w)
                    queue.append(w)
        for u in group:
            size[u] = len(group)
    return size
