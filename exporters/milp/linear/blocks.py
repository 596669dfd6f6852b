"""Blocks of equal labels as columns and rows: a flow inside each block from its one root.

One :class:`~gridlang.ir.model.EqualBlocks` node, with the plan of
:class:`gridlang.ir.connectivity.blocks.BlockPlan` (labels ``x[q,v]``, grid
edges ``(u, w)`` between listed cells, each cell's reach ``H(q)``), as the
MILP's columns and rows; the same flow as CP-SAT's, with big-M rows where
CP-SAT has enforcement literals:

* ``e[u,w]`` (binary): u and w take equal labels. ``e >= x[u,v] + x[w,v] - 1``
  for each label of both, ``e + x[u,v] - x[w,v] <= 1`` for each label of u
  (with the one-hot rows of the labels, ``e`` is exactly "equal").
* ``id[q]`` (continuous, from the lowest cell that can root q up to q): the
  index of q's block's root; ``r[q]`` (binary): q is a root. ``id[q] >= q
  r[q]`` and ``id[q] <= q - 1 + r[q]``, so a root's ``id`` is its own index
  and any other cell's is lower; ``|id[u] - id[w]| <= N (1 - e[u,w])``
  (N the highest cell index): a block has one ``id``, so one root at most.
* ``s[q]`` (continuous, 1 to ``H(q)``): the size of q's block;
  ``|s[u] - s[w]| <= H (1 - e)``, and ``s[q] = sum_v size(v) x[q,v]`` when
  every label of q fixes it (Fillomino), else ``lo <= s[q] <= hi`` when
  ``x[q,v]`` (big-M).
* ``f[u,w]``, ``f[w,u]`` (continuous, ``0 .. min(H(u), H(w)) - 1``),
  ``f <= cap e``: flow only inside blocks. With ``net[q] = out - in``:
  ``net = -1`` unless q is a root, ``net = s[q] - 1`` at a root (four
  rows). Every cell but the root keeps one unit, which only a root inside
  its block can send: a block has a root, hence exactly one, and as many
  cells as the root sends plus one.

The ``id`` and ``s`` columns need not be integral: equal ``id`` values in a
block leave at most one cell equal to its own index, and the flow makes
``s`` the block's (whole) number of cells. Size: ``4n + 3m`` columns and
about ``6n + 7m + 2km`` rows for n cells, m edges and k labels.
"""

from __future__ import annotations

from gridlang.exporters.milp.linear.form import Column, LinearForm, add_row
from gridlang.ir.connectivity.blocks import BlockPlan
from gridlang.ir.model import EqualBlocks, affine


def lower_blocks(low: LinearForm, con: EqualBlocks, key: str) -> None:
    """The flow rows of one node (see the module docstring)."""
    grid = low.model.grid
    plan = BlockPlan.of(grid, con)
    name = con.name or key
    big_n = max(plan.cells, default=0)

    def column(family: str, q: int, lb: int, ub: int, binary: bool, other: int | None = None) -> int:
        r, c = grid.cell(q)
        where = f"{r}_{c}" if other is None else "{}_{}_{}_{}".format(r, c, *grid.cell(other))
        shown = f"[{r},{c}]" if other is None else "[{},{}->{},{}]".format(r, c, *grid.cell(other))
        low.columns.append(Column(low.fresh(f"{family}_{key}_{where}"), lb, ub, binary,
                                  {"var": f"{family}({name}){shown}", "family": family, "cell": [r, c],
                                   "value": None, "aux": True}))
        return len(low.columns) - 1

    def row(label: str, lits: list[tuple[int, int]], cols: dict[int, int], lo, hi) -> None:
        coefs, const = affine(lits)
        for j, a in cols.items():
            coefs[j] = coefs.get(j, 0) + a
        add_row(low, label, coefs, const, lo, hi)

    ident, root, size = {}, {}, {}
    for q in plan.cells:
        r, c = grid.cell(q)
        tag = f"{key}_{r}_{c}"
        options = plan.options[q]
        ident[q] = column("rootof", q, min(plan.roots(q)), q, False)
        root[q] = column("root", q, 0, 1, True)
        size[q] = column("size", q, 1, plan.reach[q], False)
        row(f"blockroot_{tag}", [], {ident[q]: 1, root[q]: -q}, 0, None)
        row(f"blockother_{tag}", [], {ident[q]: 1, root[q]: -1}, None, q - 1)
        exact = plan.exact(q)
        if exact is not None:
            row(f"blocksize_{tag}", [(-n, options[v]) for v, n in exact.items()], {size[q]: 1}, 0, 0)
            continue
        cap = plan.reach[q]
        for k, (v, (lo, hi)) in enumerate(sorted(plan.bounds.get(q, {}).items(), key=lambda kv: str(kv[0]))):
            row(f"blockmin_{tag}_{k}", [(-(lo - 1), options[v])], {size[q]: 1}, 1, None)
            if hi is not None:
                row(f"blockmax_{tag}_{k}", [(cap - hi, options[v])], {size[q]: 1}, None, cap)
    outflow: dict[int, dict[int, int]] = {q: {} for q in plan.cells}
    inflow: dict[int, dict[int, int]] = {q: {} for q in plan.cells}
    for u, w in plan.edges:
        (ur, uc), (wr, wc) = grid.cell(u), grid.cell(w)
        tag = f"{key}_{ur}_{uc}_{wr}_{wc}"
        e = column("same", u, 0, 1, True, w)
        xu, xw = plan.options[u], plan.options[w]
        for k, (v, lit) in enumerate(xu.items()):
            if v in xw:
                row(f"sameboth_{tag}_{k}", [(-1, lit), (-1, xw[v])], {e: 1}, -1, None)
            row(f"samenot_{tag}_{k}", [(1, lit)] + ([(-1, xw[v])] if v in xw else []), {e: 1}, None, 1)
        for k, v in enumerate(v for v in xw if v not in xu):
            row(f"samenotw_{tag}_{k}", [(1, xw[v])], {e: 1}, None, 1)
        for a, b, label in ((u, w, "ab"), (w, u, "ba")):
            row(f"sameroot_{tag}_{label}", [], {ident[a]: 1, ident[b]: -1, e: big_n}, None, big_n)
            cap = max(plan.reach[a], plan.reach[b])
            row(f"samesize_{tag}_{label}", [], {size[a]: 1, size[b]: -1, e: cap}, None, cap)
            flow_cap = min(plan.reach[a], plan.reach[b]) - 1
            f = column("blockflow", a, 0, flow_cap, False, b)
            row(f"blockflowcap_{tag}_{label}", [], {f: 1, e: -flow_cap}, None, 0)
            outflow[a][f] = 1
            inflow[b][f] = 1
    for q in plan.cells:
        r, c = grid.cell(q)
        tag = f"{key}_{r}_{c}"
        cap = plan.reach[q]
        net = dict(outflow[q])
        for f in inflow[q]:
            net[f] = net.get(f, 0) - 1
        row(f"blockkeep_{tag}", [], net, -1, None)
        row(f"blockkeepnot_{tag}", [], {**net, root[q]: -cap}, None, -1)
        row(f"blocksend_{tag}", [], {**net, size[q]: -1}, None, -1)
        row(f"blocksendroot_{tag}", [], {**net, size[q]: -1, root[q]: -cap}, -1 - cap, None)
