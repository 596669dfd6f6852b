"""Blocks of equal labels as clauses, rows and connectivity: the decomposition of :class:`~gridlang.ir.model.EqualBlocks`.

For a backend (or a file) without a native lowering of the node. With the
plan of :class:`gridlang.ir.connectivity.blocks.BlockPlan` (each block's root
is its lowest cell, one of ``roots(q)`` for each of its cells q), new
variables:

* ``block.root[q]=R`` (``a[q,r]``): the root of q's block is cell r, one
  per ``r in roots(q)``;
* ``block.same[u]=W`` (``e[u,w]``): the neighbours u and w take equal labels.

and the constraints::

    sum_r a[q,r] == 1                                  every cell has one root
    a[q,r] -> a[r,r]                                   a root is its own root
    -x[u,v] | -x[w,v] | e[u,w],  e[u,w] & x[u,v] -> x[w,v]    e is "equal labels"
    e[u,w] -> (a[u,r] <-> a[w,r])                      a block has one root
    -e[u,w] -> -(a[u,r] & a[w,r])                      blocks apart have roots apart
    Connected({q : a[q,r]})                            one per root r
    a[r,r] -> sum_q a[q,r] == sum_v size(v) x[r,v]     the block's size, when every
                                                       label fixes it as at every cell
    a[q,r] & x[q,v] -> lo <= sum_w a[w,r] <= hi        otherwise, per bound

The cells rooted at r are then a union of whole blocks (equal neighbours
share a root), of one label only (unequal neighbours do not), connected
(the connectivity node), so exactly one block, whose lowest cell is r; the
rows count it. Size: ``sum_q |roots(q)|`` root variables (``n^2 / 2`` at
most for n cells), one equality variable and ``2k`` clauses per edge for k
labels, two clauses per edge and root, a :class:`~gridlang.ir.model.Connected`
per cell that can be a root, and one row per root (or per bound and
root). Dearer than the native lowerings by far; it exists so that every
backend, and every file, can hold the node.
"""

from __future__ import annotations

from gridlang.core.nodes import replace
from gridlang.ir.connectivity.blocks import BlockPlan
from gridlang.ir.model import Clause, Cmp, Connected, EqualBlocks, Linear, Model, Var


def decompose_equal_blocks(model: Model) -> Model:
    """``model`` with every :class:`~gridlang.ir.model.EqualBlocks` node replaced as the module docstring states.

    Returns:
        A new model whose variables are ``model``'s followed by the new
        ones, or ``model`` itself when it has no such node.
    """
    if not any(isinstance(con, EqualBlocks) for con in model.constraints):
        return model
    names: list[Var] = []
    top = model.num_vars
    grid = model.grid

    def new(family: str, cell: int, value: str) -> int:
        nonlocal top
        top += 1
        names.append(Var(family, cell, value, grid.cell(cell)))
        return top

    out: list = []
    for con in model.constraints:
        if not isinstance(con, EqualBlocks):
            out.append(con)
            continue
        plan = BlockPlan.of(grid, con)
        span = con.span
        tag = con.name or "blocks"
        a: dict[tuple[int, int], int] = {}
        for q in plan.cells:
            for r in plan.roots(q):
                a[q, r] = new(f"block.root.{tag}", q, "@{},{}".format(*grid.cell(r)))
            out.append(Linear(tuple((1, a[q, r]) for r in plan.roots(q)), Cmp.EQ, 1, (), span))
            out.extend(Clause((-a[q, r], a[r, r]), span) for r in plan.roots(q) if r != q)
        for u, w in plan.edges:
            e = new(f"block.same.{tag}", u, "@{},{}".format(*grid.cell(w)))
            xu, xw = plan.options[u], plan.options[w]
            for label, lit in xu.items():
                if label in xw:
                    out.append(Clause((-lit, -xw[label], e), span))
                    out.append(Clause((-e, -lit, xw[label]), span))
                else:
                    out.append(Clause((-e, -lit), span))
            out.extend(Clause((-e, -xw[label]), span) for label in xw if label not in xu)
            for r in sorted(set(plan.roots(u)) | set(plan.roots(w))):
                au, aw = a.get((u, r)), a.get((w, r))
                if au is not None:
                    out.append(Clause((-e, -au) + ((aw,) if aw is not None else ()), span))
                if aw is not None:
                    out.append(Clause((-e, -aw) + ((au,) if au is not None else ()), span))
                if au is not None and aw is not None:
                    out.append(Clause((e, -au, -aw), span))
        sizes = plan.sizes()
        rooted: dict[int, list[int]] = {}
        for (q, r), lit in a.items():
            rooted.setdefault(r, []).append(q)
        for r, members in sorted(rooted.items()):
            members.sort()
            if len(members) > 1:
                out.append(Connected(tuple((q, a[q, r]) for q in members), (), None, f"{tag} block at {r}", span))
            count = tuple((1, a[q, r]) for q in members)
            if sizes is not None:
                terms = count + tuple((-sizes[label], lit) for label, lit in plan.options[r].items())
                out.append(Linear(terms, Cmp.EQ, 0, (a[r, r],), span))
                continue
            for q in members:
                for label, (lo, hi) in plan.bounds.get(q, {}).items():
                    guard = (a[q, r], plan.options[q][label])
                    out.append(Linear(count, Cmp.GE, lo, guard, span))
                    if hi is not None:
                        out.append(Linear(count, Cmp.LE, hi, guard, span))
    return replace(model, variables=model.variables + tuple(names), constraints=tuple(out))
