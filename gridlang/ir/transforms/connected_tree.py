"""Connectivity as clauses: a spanning tree by parent pointers and binary ranks.

:func:`decompose_connected_tree` is an IR -> IR pass: every
:class:`~gridlang.ir.model.Connected` node of a model becomes
:class:`~gridlang.ir.model.Clause` nodes over the model's variables and new,
named auxiliary ones. The encoding is complete and needs no cut loop, so a
SAT or MaxSAT file can hold it.

The encoding follows T. Janhunen, "Representing normal programs with
clauses", ECAI 2004 (level rankings in binary), and M. Gebser, T. Janhunen,
J. Rintanen, "SAT modulo graphs: acyclicity", JELIA 2014 (binary-ranking
acyclicity). Roots are members (unit clauses). Every non-root member ``v``
picks a parent ``p[v,u]`` among its candidate neighbours; a parent is a
member; and the parent's rank, a ``B``-bit number with ``B = bitlen(n - 1)``
for ``n`` candidate cells (``n`` the region's size when it is fixed: no
breadth-first depth reaches it), is strictly smaller::

    -x_v | OR_u p[v,u]              (v not the root)
    -p[v,u] | x_u,  -p[v,u] | x_v
    -p[v,u] | d[v,u,B-1] | ... | d[v,u,0]        (u not a fixed root)
    d[v,u,i] -> e[{u,v},i] & -bit(u,i) & bit(v,i)
    e[{u,v},i] -> e[{u,v},i+1] & (bit(u,i+1) <-> bit(v,i+1))

``e`` (bits above ``i`` equal) is shared by the two arcs of an edge.
Parent chains strictly decrease the rank, so they end at a root: every
member is joined to a root (sound). A breadth-first forest from the roots
with ranks equal to the depth (``< n``) satisfies every clause (complete).
Roots need neither parents nor ranks, and arcs into a root need no
comparison. Without roots, ``r_v`` marks the one root: ``r_v -> x_v``, a
member implies some ``r``, and ``r_v`` excludes any member of smaller index
(so the root is the smallest member, unique).

Size, for ``n`` candidates and ``m`` edges between them:
``n B + 2m (B + 1) + m (B - 1)`` variables and about
``n + 2m (3 + 3B) + 3m (B - 1)`` clauses (``O(m log n)``), against
``O(n^2)`` for a unary layered reachability encoding; a 30x30 map with
``n = 700`` gives about 50k variables and 150k clauses.

Auxiliary variables, named after the region (``pen``; ``regionK`` for the
``K``-th constraint when it has no name) and the cell they belong to:
``tree.rank[r,c]=pen.bitI`` (bit ``I`` of the rank), ``tree.parent[r,c]=pen@R,C``
(the parent of ``[r,c]`` is ``[R,C]``), ``tree.same[r,c]=pen@R,C.bitI``
(the ranks of the two cells agree above bit ``I``),
``tree.less[r,c]=pen@R,C.bitI`` (the rank of ``[R,C]`` is below that of
``[r,c]``, decided at bit ``I``), and without roots ``tree.root[r,c]=pen``,
``tree.before[r,c]=pen`` (a member precedes ``[r,c]``) and
``tree.nonempty=pen``.
"""

from __future__ import annotations

from gridlang.core.grid import Grid
from gridlang.core.nodes import replace
from gridlang.ir.model import Clause, Connected, Model, Var


class _Fresh:
    """Numbers for new variables after ``first - 1``, each with its name."""

    def __init__(self, first: int):
        self.top = first - 1
        self.names: list[Var] = []

    def new(self, var: Var) -> int:
        self.top += 1
        self.names.append(var)
        return self.top


def decompose_connected_tree(model: Model) -> Model:
    """The model with every connectivity node as the clauses of a spanning tree (see the module docstring).

    Args:
        model: any model; it is not changed.

    Returns:
        A new model whose constraints are those of ``model``, each
        :class:`~gridlang.ir.model.Connected` replaced in place by the unit
        clauses of its roots and its tree clauses; the variables are
        ``model``'s followed by the auxiliary ones, numbered in the order of
        the nodes. A root outside the node's members gives the empty clause
        (the node cannot hold).
    """
    fresh = _Fresh(model.num_vars + 1)
    constraints = []
    for k, con in enumerate(model.constraints, start=1):
        if not isinstance(con, Connected):
            constraints.append(con)
            continue
        lit_of = dict(con.members)
        clauses = [[lit_of[r]] if r in lit_of else [] for r in con.roots]
        clauses.extend(_tree_clauses(model.grid, con, con.name or f"region{k}", fresh))
        constraints.extend(Clause(tuple(cl), con.span) for cl in clauses)
    return replace(model, variables=model.variables + tuple(fresh.names),
                               constraints=tuple(constraints))


def _tree_clauses(grid: Grid, con: Connected, region: str, fresh: _Fresh) -> list[list[int]]:
    """The tree clauses of one node, without the roots' unit clauses."""
    lit_of = dict(con.members)
    cells = sorted(lit_of)
    if not cells:
        return []
    cand = set(cells)
    roots = set(con.roots)
    if not roots <= cand:
        return [[]]
    n = len(cells)
    # The breadth-first depth is below the number of members: below n, and
    # below the size when it is fixed.
    depth = min(n, con.size) if con.size is not None else n
    nbits = max(1, (max(depth, 1) - 1).bit_length())

    def name(family: str, cell: int | None, value: str) -> Var:
        return Var(family, cell, value, grid.cell(cell) if cell is not None else None)

    def at(cell: int) -> str:
        r, c = grid.cell(cell)
        return f"{region}@{r},{c}"

    clauses: list[list[int]] = []
    bit = {v: [fresh.new(name("tree.rank", v, f"{region}.bit{i}")) for i in range(nbits)]
           for v in cells if v not in roots}
    rvar: dict[int, int] = {}
    if not roots:
        # Root selection: the smallest member is the root.
        rvar = {v: fresh.new(name("tree.root", v, region)) for v in cells}
        some = fresh.new(name("tree.nonempty", None, region))
        before = {v: fresh.new(name("tree.before", v, region)) for v in cells}
        for i, v in enumerate(cells):
            clauses.append([-rvar[v], lit_of[v]])
            clauses.append([-rvar[v], -before[v]])
            if i + 1 < n:
                nxt = before[cells[i + 1]]
                clauses.append([-lit_of[v], nxt])
                clauses.append([-before[v], nxt])
            clauses.append([-lit_of[v], some])
        clauses.append([-some] + [rvar[v] for v in cells])
    same: dict[tuple[int, int], list[int]] = {}

    def equal_above(a: int, b: int) -> list[int]:
        """``e[i]``: the ranks of ``a`` and ``b`` agree on the bits above ``i`` (0: trivially)."""
        key = (min(a, b), max(a, b))
        if key not in same:
            lo, hi = key
            e = [0] * nbits  # above the top bit: trivially equal
            for i in range(nbits - 2, -1, -1):
                e[i] = fresh.new(name("tree.same", lo, f"{at(hi)}.bit{i}"))
                clauses.append([-e[i], -bit[lo][i + 1], bit[hi][i + 1]])
                clauses.append([-e[i], bit[lo][i + 1], -bit[hi][i + 1]])
                if e[i + 1]:
                    clauses.append([-e[i], e[i + 1]])
            same[key] = e
        return same[key]

    for v in cells:
        if v in roots:
            continue
        parents = []
        for u in grid.neighbours[v]:
            if u not in cand or u == v:
                continue
            p = fresh.new(name("tree.parent", v, at(u)))
            parents.append(p)
            clauses.append([-p, lit_of[u]])
            clauses.append([-p, lit_of[v]])
            if u in roots:
                continue  # chains stop at a root: no rank needed
            e = equal_above(u, v)
            less = []
            for i in range(nbits):
                d = fresh.new(name("tree.less", v, f"{at(u)}.bit{i}"))
                less.append(d)
                clauses.append([-d, -bit[u][i]])
                clauses.append([-d, bit[v][i]])
                if e[i]:
                    clauses.append([-d, e[i]])
            clauses.append([-p] + less)
        head = [-lit_of[v]] + ([rvar[v]] if rvar else [])
        clauses.append(head + parents)
    return clauses
