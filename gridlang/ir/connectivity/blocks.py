"""Blocks of equal labels (:class:`~gridlang.ir.model.EqualBlocks`): what every encoding shares, and the lazy cuts.

A labelling ``x[q,v]`` (cell q takes label v, exactly one per cell) splits
the listed cells into *blocks*, the maximal groups of equal labels joined
through grid edges; a bound ``(q, v, lo, hi)`` asks the block of q, when q
takes v, for ``lo`` to ``hi`` cells (Fillomino: ``lo = hi = v``).

**The plan** (:class:`BlockPlan`), shared by the native encodings of
CP-SAT, the MILP and clingo and by the clause decomposition: the listed
cells and their labels, the grid edges between them, and for each cell q
its *reach* ``H(q)``, the most cells its block may have (the largest
``hi`` of its labels, or the number of listed cells when a label of q has
no upper bound). Every encoding gives each block one *root*, its lowest
cell: a block of at most ``H(q)`` cells holds its root within ``H(q) - 1``
steps of q through listed cells, so the root of q is one of
:meth:`BlockPlan.roots` ``(q)``, cells of index at most q's.

**Lazy cuts** (:func:`block_cuts`, the MaxSAT backend's lowering, through
the one lazy-cut driver of :mod:`gridlang.ir.connectivity.driver`). Solve the
labelling without the node; for each block B of the answer that breaks a
bound ``(q, v, lo, hi)``:

* B too small (``|B| < lo``): B's rim R (listed cells beside B, outside
  it) closes it off. In every solution where all of B takes v, B is not a
  whole block, so some rim cell takes v too::

      OR_{b in B} -x[b,v]  |  OR_{w in R} x[w,v]

* B too large (``|B| > hi``): the ``hi + 1`` cells C of B nearest q (a
  breadth-first order inside B) are connected and would be one block of
  more than ``hi`` cells with q in it, so not all of them take v::

      OR_{c in C} -x[c,v]

Both hold in every solution, so the loop is exact; each round adds one
clause per broken block and no variable. The loop starts from the
cuts of every bound on blocks of one and two cells
(:func:`seed_block_cuts`): a cell whose block needs 2 or more cells has a
neighbour with its label (the rim of the one-cell block), two neighbours
whose block needs 3 or more a third (the rim of the two), two neighbours
cannot both take a label whose blocks hold at most one cell, nor a cell
and two of its neighbours one whose blocks hold at most two. Size: one
clause per bound, two per edge and label, six per cell and label at
most.
"""

from __future__ import annotations

from collections import deque

from gridlang.core.grid import Grid
from gridlang.core.nodes import Record, field
from gridlang.ir.connectivity.separation import clause_cut
from gridlang.ir.model import Assignment, EqualBlocks, Linear


class BlockPlan(Record, frozen=False, slots=False):
    """What the encodings of one :class:`~gridlang.ir.model.EqualBlocks` node share (see the module docstring).

    Attributes:
        cells: the listed cells, ascending.
        options: cell -> {label: literal}.
        edges: ``(u, w)`` with ``u < w``, grid edges between listed cells.
        bounds: cell -> {label: (lo, hi)}; hi None for no upper bound.
        reach: cell -> the most cells its block may have.
        labels: every label, in order of first appearance (a label's code
            is its position).
    """

    grid: Grid
    cells: list[int]
    options: dict[int, dict[object, int]]
    edges: list[tuple[int, int]]
    bounds: dict[int, dict[object, tuple[int, int | None]]]
    reach: dict[int, int]
    labels: list[object] = field(default_factory=list)
    _roots: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, grid: Grid, con: EqualBlocks) -> "BlockPlan":
        """The plan of ``con`` on ``grid``."""
        cells = [cell for cell, _ in con.cells]
        listed = set(cells)
        options = {cell: dict(opts) for cell, opts in con.cells}
        edges = sorted({(min(u, w), max(u, w)) for u in cells for w in grid.neighbours[u] if w in listed and w != u})
        bounds: dict[int, dict[object, tuple[int, int | None]]] = {}
        for cell, label, lo, hi in con.bounds:
            bounds.setdefault(cell, {})[label] = (lo, hi)
        n = len(cells)
        reach = {}
        for cell in cells:
            his = [bounds.get(cell, {}).get(label, (1, None))[1] for label in options[cell]]
            reach[cell] = n if any(h is None for h in his) or not his else min(max(his), n)
        labels: list[object] = []
        seen: set = set()
        for cell in cells:
            for label in options[cell]:
                key = (type(label) is bool, label)
                if key not in seen:
                    seen.add(key)
                    labels.append(label)
        return cls(grid, cells, options, edges, bounds, reach, labels)

    @property
    def cap(self) -> int:
        """The most cells any block may have."""
        return max(self.reach.values(), default=1)

    def code(self, label: object) -> int:
        """A label's integer code, its position in :attr:`labels`."""
        for k, other in enumerate(self.labels):
            if other == label and isinstance(other, bool) == isinstance(label, bool):
                return k
        raise KeyError(label)

    def exact(self, cell: int) -> dict[object, int] | None:
        """``{label: size}`` when every label of ``cell`` fixes its block's size, else None."""
        mine = self.bounds.get(cell, {})
        out = {}
        for label in self.options[cell]:
            lo, hi = mine.get(label, (1, None))
            if hi != lo:
                return None
            out[label] = lo
        return out

    def sizes(self) -> dict[object, int] | None:
        """``{label: size}`` when every cell's block size is fixed by its label alone, the same at
        every cell (Fillomino); else None."""
        out: dict[object, int] = {}
        for cell in self.cells:
            exact = self.exact(cell)
            if exact is None:
                return None
            for label, size in exact.items():
                if out.setdefault(label, size) != size:
                    return None
        return out

    def roots(self, cell: int) -> list[int]:
        """The cells that can be the root (lowest cell) of ``cell``'s block, ascending; ``cell`` among them."""
        if cell not in self._roots:
            listed = set(self.cells)
            near = self.grid.distances(listed, cell, self.reach[cell] - 1)
            self._roots[cell] = sorted(r for r in near if r <= cell and self.reach[r] >= near[r] + 1)
        return self._roots[cell]


def block_cuts(grid: Grid, con: EqualBlocks, assignment: Assignment) -> list[Linear]:
    """The cuts ``assignment`` violates for ``con`` (see the module docstring); empty when it meets ``con``.

    Returns:
        :class:`~gridlang.ir.model.Linear` rows, each equal to a clause
        (:func:`~gridlang.ir.connectivity.separation.clause_cut`).
    """
    lit = {cell: dict(opts) for cell, opts in con.cells}
    cuts = []
    for block, cell, label, lo, hi in con.broken(grid, assignment):
        inside = set(block)
        if len(block) < lo:
            rim = sorted({w for b in block for w in grid.neighbours[b] if w not in inside and w in lit})
            positive = [lit[w][label] for w in rim if label in lit[w]]
            cuts.append(clause_cut([lit[b][label] for b in block], positive, None))
        else:
            order, queue = [cell], deque([cell])
            seen = {cell}
            while queue and len(order) < hi + 1:
                u = queue.popleft()
                for w in grid.neighbours[u]:
                    if w in inside and w not in seen and len(order) < hi + 1:
                        seen.add(w)
                        order.append(w)
                        queue.append(w)
            cuts.append(clause_cut([lit[c][label] for c in sorted(order)], [], None))
    return cuts


def seed_block_cuts(grid: Grid, con: EqualBlocks) -> list[list[int]]:
    """Clauses every solution meets, known before solving (see the module docstring): a cell whose
    block needs 2 or more cells has a neighbour with its label, and two neighbours whose block needs 3
    or more have a third beside them; two neighbours cannot both take a label whose blocks have at
    most one cell, nor three cells in a row or an L one whose blocks have at most two."""
    lit = {cell: dict(opts) for cell, opts in con.cells}
    out: list[list[int]] = []
    pairs: set[tuple[int, ...]] = set()
    listed = {cell: [w for w in grid.neighbours[cell] if w in lit and w != cell] for cell in lit}
    rims: dict[tuple[int, int], list[int]] = {}
    for cell, label, lo, hi in con.bounds:
        x = lit[cell][label]
        near = [w for w in listed[cell] if label in lit[w]]
        if lo >= 2:
            out.append([-x] + [lit[w][label] for w in near])
        for w in near if lo >= 3 else ():
            if (cell, w) not in rims:
                rims[cell, w] = sorted({u for v in (cell, w) for u in listed[v] if u not in (cell, w)})
            out.append([-x, -lit[w][label]] + [lit[u][label] for u in rims[cell, w] if label in lit[u]])
        if hi is not None and hi <= 1:
            pairs.update(tuple(sorted((-x, -lit[w][label]))) for w in near)
        if hi == 2:
            pairs.update(tuple(sorted((-lit[a][label], -x, -lit[b][label]))) for a in near for b in near if a < b)
    return out + [list(pair) for pair in sorted(pairs)]


SPLIT_STEPS = 20_000
"""The most steps :func:`block_splits` takes (a frontier cell taken or barred) before it gives up: about
half a second in Python."""


def block_splits(grid: Grid, block: list[int], least: int, steps: int = SPLIT_STEPS
                 ) -> tuple[list[list[list[int]]], bool]:
    """Every way to split ``block`` into two or more blocks of ``least`` cells or more, of different
    sizes where they touch: the other answers a block of an open value stands for
    (:mod:`gridlang.constructs.blocks.domains`).

    None at once when the block has at most ``2 * least`` cells (two parts
    of different sizes need one more); else a depth-first search: the part
    holding the lowest cell not yet placed is each connected set of
    ``least`` cells or more through it (each set once: a frontier cell is
    taken, then barred), the cells left may hold no group of fewer than
    ``least`` cells, and a part touching a placed part of its own size is
    refused.

    Args:
        grid: the grid (its edges join the cells).
        block: the block's cells, connected.
        least: the fewest cells a part may have (the open value).
        steps: the most steps to take.

    Returns:
        ``(splits, proved)``: each split a list of parts (each ascending,
        by their lowest cell); ``proved`` False when the steps ran out
        first (there may be more).
    """
    cells = set(block)
    n = len(cells)
    if n <= 2 * least:
        return [], True
    owner: dict[int, int] = {}
    sizes: list[int] = []
    budget = [steps]
    out: list[list[list[int]]] = []

    def groups_fit() -> bool:
        left = cells - owner.keys()
        seen: set[int] = set()
        for s in left:
            if s in seen:
                continue
            group, stack = 1, [s]
            seen.add(s)
            while stack:
                for w in grid.neighbours[stack.pop()]:
                    if w in left and w not in seen:
                        seen.add(w)
                        group += 1
                        stack.append(w)
            if group < least:
                return False
        return True

    def parts_from(start: int, limit: int):
        """Connected sets through ``start`` among the cells not placed, of at most ``limit`` cells."""
        free = cells - owner.keys()

        def grow(chosen: frozenset, ext: frozenset, barred: frozenset):
            budget[0] -= 1
            if budget[0] < 0:
                return
            if not ext or len(chosen) == limit:
                yield chosen
                return
            v = min(ext)
            new = {w for w in grid.neighbours[v] if w in free and w not in chosen and w not in barred}
            yield from grow(chosen | {v}, (ext - {v}) | new - {v}, barred)
            yield from grow(chosen, ext - {v}, barred | {v})

        first = {w for w in grid.neighbours[start] if w in free and w != start}
        yield from grow(frozenset({start}), frozenset(first), frozenset())

    def place() -> None:
        left = n - len(owner)
        if left == 0:
            parts: dict[int, list[int]] = {}
            for u, k in owner.items():
                parts.setdefault(k, []).append(u)
            out.append([sorted(p) for _, p in sorted(parts.items())])
            return
        start = min(cells - owner.keys())
        for part in parts_from(start, left if sizes else n - least):
            size = len(part)
            if size < least or left - size and left - size < least:
                continue
            touching = {owner[w] for u in part for w in grid.neighbours[u] if w in owner}
            if any(sizes[k] == size for k in touching):
                continue
            k = len(sizes)
            sizes.append(size)
            owner.update(dict.fromkeys(part, k))
            if groups_fit():
                place()
            sizes.pop()
            for u in part:
                del owner[u]
            if budget[0] < 0:
                return

    place()
    return out, budget[0] >= 0
