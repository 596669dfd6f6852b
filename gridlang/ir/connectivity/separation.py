"""Separation: the cuts a disconnected answer violates, and the ones known before solving.

Every routine here reads a :class:`~gridlang.ir.model.Connected` node and the
grid graph, and returns IR constraints (:class:`~gridlang.ir.model.Linear` rows
with unit coefficients, each equal to one clause) that are valid for every
answer meeting the node. They import no solver; the lazy-cut driver
(:mod:`gridlang.ir.connectivity.driver`) hands them to whichever backend runs.

* :func:`separator_cuts`: for each stray component ``C`` of an answer, the
  vertex separator ``N(C)`` (its rim) gives ``x_s <= sum_{w in N(C)} x_w``
  for every ``s`` in ``C`` (V. Jandhyala, *Solving Puzzles through
  Mathematical Programming*, ch. 32; Fischetti et al., "Thinning out
  Steiner trees", Math. Prog. Comp. 2017, for the root-side thinning).
* :func:`root_side_cuts`: the rim ``N(R)`` of what the roots reach
  separates the roots from every chosen cell outside ``R + N(R)``.
* :func:`seed_cuts`: before the first solve, the separators of one cell
  (cut vertices) and, optionally, of two cells, from the biconnected
  components of the candidate graph (rustworkx; J. Hopcroft and R. Tarjan,
  CACM 1973).
* :func:`repair`: an answer with its stray components switched off, when
  that is a solution: an incumbent for the driver while cuts are added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridlang.core.grid import Grid
from gridlang.ir.checks import violations
from gridlang.ir.model import Assignment, Cmp, Connected, Linear

if TYPE_CHECKING:  # pragma: no cover
    from gridlang.ir.model import Model

PAIR_SEED_CELLS = 1500
"""Two-cell seeding repeats a linear search once per candidate cell; above
this many candidate cells (a 40x40 map) it is skipped, so seeding never
costs more than about a second."""


def components(grid: Grid, cells: set[int]) -> list[list[int]]:
    """Connected components of ``cells`` in the grid graph.

    Returns:
        Components as sorted lists of cell indices, ordered by their
        smallest cell.
    """
    seen: set[int] = set()
    out: list[list[int]] = []
    for start in sorted(cells):
        if start not in seen:
            comp = grid.reach(cells, (start,))
            seen |= comp
            out.append(sorted(comp))
    return out


def clause_cut(negative: list[int], positive: list[int], con: Connected | None = None) -> Linear:
    """The row equal to the clause ``[-l for l in negative] + positive``.

    ``sum(negative) - sum(positive) <= len(negative) - 1``: not all of
    ``negative`` unless one of ``positive``.
    """
    terms = tuple((1, l) for l in negative) + tuple((-1, l) for l in positive)
    return Linear(terms, Cmp.LE, len(negative) - 1, span=con.span if con is not None else None)


def cut_clause(cut: Linear) -> list[int]:
    """The clause equal to a cut made by :func:`clause_cut` (or any unit-coefficient
    ``sum_P x - sum_N x <= |P| - 1``): ``[-p for p in P] + N``.

    Raises:
        ValueError: the row is not of that form.
    """
    pos = [l for c, l in cut.terms if c == 1]
    neg = [l for c, l in cut.terms if c == -1]
    if cut.op is not Cmp.LE or cut.enforce or len(pos) + len(neg) != len(cut.terms) or cut.rhs != len(pos) - 1:
        raise ValueError("the row is not a clause")
    return [-l for l in pos] + neg


def separator_cuts(grid: Grid, con: Connected, assignment: Assignment) -> list[Linear]:
    """Vertex-separator cuts that the assignment violates for ``con``.

    Args:
        grid: the model's grid graph.
        con: the connectivity node.
        assignment: a (possibly disconnected) solution of the relaxation.

    Returns:
        ``Linear`` constraints (``<=``), empty exactly when the chosen cells
        meet ``con`` (connected; with roots, every one reached from a
        root; with a size, no component smaller than it). Each cut is
        violated by ``assignment`` and satisfied by every assignment that
        meets ``con``. With neither roots nor a size, the pairwise form
        ``x_s + x_t <= 1 + sum_{N(C)} x_w`` separates each smaller component
        from the largest.
    """
    lit_of = dict(con.members)
    chosen = {cell for cell, lit in con.members if assignment.holds(lit)}
    if not chosen:
        return []
    comps = components(grid, chosen)
    if con.roots:
        roots = set(con.roots)
        stray = [c for c in comps if not roots.intersection(c)]
    elif len(comps) < 2:
        return []
    elif con.size is not None:
        stray = [c for c in comps if len(c) < con.size]
    else:
        stray = []
    cuts: list[Linear] = []
    for comp in stray:
        rim = _rim(grid, comp, lit_of, con.roots)
        for s in comp:
            cuts.append(clause_cut([lit_of[s]], rim, con))
    if not con.roots and not stray and len(comps) > 1:
        largest = max(comps, key=len)
        t = largest[0]
        for comp in comps:
            if comp is largest:
                continue
            rim = _rim(grid, comp, lit_of)
            for s in comp:
                cuts.append(clause_cut([lit_of[s], lit_of[t]], rim, con))
    return cuts


def _rim(grid: Grid, comp: list[int], lit_of: dict[int, int], roots: tuple[int, ...] = ()) -> list[int]:
    """Literals of the rim cells of ``comp`` among the candidates, ascending by cell.

    With roots, only the rim cells that reach a root through candidates
    outside ``comp`` are kept: a path from ``comp`` to a root leaves ``comp``
    for the last time through such a cell, so the cut stays valid and gets
    stronger (the cells a stray loop encloses drop out).
    """
    inside = set(comp)
    rim = {w for u in comp for w in grid.neighbours[u] if w not in inside and w in lit_of}
    if roots:
        rim &= grid.reach(set(lit_of) - inside, roots)
    return [lit_of[w] for w in sorted(rim)]


def root_side_cuts(grid: Grid, con: Connected, assignment: Assignment) -> list[Linear]:
    """Cuts from the rim of what the roots reach, for rooted regions.

    With ``R`` the chosen cells reached from the roots and ``N(R)`` its rim
    among the candidates, ``N(R)`` separates the roots from every candidate
    ``t`` outside ``R + N(R)``; so ``x_t <= sum_{N(R)} x_w`` for each chosen
    such ``t``. Valid for every answer that meets ``con``.

    Returns:
        One row per chosen cell the roots do not reach.
    """
    if not con.roots:
        return []
    lit_of = dict(con.members)
    chosen = {c for c, l in con.members if assignment.holds(l)}
    seen = grid.reach(chosen, con.roots)
    stray = sorted(chosen - seen)
    if not seen or not stray:
        return []
    rim = [lit_of[w] for w in sorted({w for u in seen for w in grid.neighbours[u]
                                      if w not in seen and w in lit_of})]
    return [clause_cut([lit_of[t]], rim, con) for t in stray]


def seed_cuts(grid: Grid, con: Connected, pairs: bool = False) -> list[Linear]:
    """Separator cuts known before solving: one or two cells that separate others from the roots.

    In the graph of candidate cells, with one extra vertex joined to every
    root, a cell outside that vertex's component is never a member
    (``x_s <= 0``), and when a cut vertex ``a`` separates cell ``w`` from
    the roots, every answer holding ``w`` holds ``a`` (``x_w <= x_a``, the
    separator cut with ``N = {a}``). Each cell is tied to the cut vertex
    heading its biconnected block (the block's vertex nearest the roots),
    so chains of them follow by propagation. With ``pairs``, the search is
    repeated without each cell ``a`` in turn, giving ``x_w <= x_a + x_b``
    for the separators ``{a, b}`` of two cells; that is one linear search
    per candidate cell, skipped above :data:`PAIR_SEED_CELLS` candidates.
    Size: at most one row per candidate cell (per removed cell with
    ``pairs``), no variables. Rooted regions only.

    Returns:
        Rows valid for every answer that meets ``con``, in a deterministic order.
    """
    if not con.roots:
        return []
    lit_of = dict(con.members)
    roots = set(con.roots)
    if not roots <= set(lit_of):
        return []
    import rustworkx as rx

    top = grid.size  # the extra vertex standing for "some root"; cells keep their index
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(top + 1))
    graph.add_edges_from_no_data([(u, v) for u in lit_of for v in grid.neighbours[u] if v in lit_of and u < v]
                                 + [(top, r) for r in roots])
    reached, heads = _block_heads(graph, top)
    cuts: list[Linear] = []
    single: set[tuple[int, int]] = set()
    for head, w in heads:
        if head in roots:
            continue  # a root is always a member
        cuts.append(clause_cut([lit_of[w]], [lit_of[head]], con))
        single.add((w, head))
    cuts.extend(clause_cut([lit_of[v]], [], con) for v in sorted(lit_of) if v not in reached)
    if pairs and len(lit_of) <= PAIR_SEED_CELLS:
        seen: set[tuple[int, int, int]] = set()
        for a in sorted(reached):
            if a == top or a in roots:
                continue
            without = graph.copy()
            without.remove_node(a)  # a PyGraph keeps the other indices
            _, sub_heads = _block_heads(without, top)
            for b, w in sub_heads:
                key = (w, min(a, b), max(a, b))
                if b in roots or (w, b) in single or (w, a) in single or key in seen:
                    continue
                seen.add(key)
                cuts.append(clause_cut([lit_of[w]], [lit_of[a], lit_of[b]], con))
    return cuts


def _block_heads(graph, top: int) -> tuple[set[int], list[tuple[int, int]]]:
    """The vertices connected to ``top`` in the rustworkx ``graph``, and
    ``(head, w)`` for every vertex ``w`` of a biconnected block whose head
    (its vertex nearest ``top``) is not ``top``, sorted."""
    import rustworkx as rx

    depth = {v: d for d, layer in enumerate(rx.bfs_layers(graph, [top])) for v in layer}
    blocks: dict[int, set[int]] = {}
    for (u, v), block in rx.biconnected_components(graph).items():
        if u in depth:  # a block lies in one connected component: this one is top's
            blocks.setdefault(block, set()).update((u, v))
    heads: list[tuple[int, int]] = []
    for block in blocks.values():
        head = min(block, key=lambda v: (depth[v], v))
        if head != top:
            heads.extend((head, w) for w in block if w != head)
    return set(depth), sorted(heads)


def repair(model: "Model", assignment: Assignment, lazy: list[Connected]) -> Assignment | None:
    """The assignment with every stray component switched off, if that is a solution.

    Keeps, for each node of ``lazy``, the components holding its roots (or
    its largest component, the first of the largest, when unrooted) and sets
    the other members' literals false.

    Returns:
        The repaired assignment when it violates no IR constraint, else None.
    """
    if not any(isinstance(con, Connected) for con in lazy):
        return None  # a GraphConnected or EqualBlocks node is not repaired: the answer stays as it broke it
    values = list(assignment.values)
    for con in lazy:
        if not isinstance(con, Connected):
            continue  # a GraphConnected or EqualBlocks node is not repaired: the answer stays as it is
        chosen = set(assignment.true_cells(con.members))
        if not chosen:
            continue
        comps = components(model.grid, chosen)
        if con.roots:
            keep = [c for c in comps if set(con.roots) & set(c)]
        else:
            keep = [max(comps, key=len)]
        kept = {c for comp in keep for c in comp}
        for cell, lit in con.members:
            if cell in chosen and cell not in kept:
                values[abs(lit) - 1] = lit < 0
    fixed = Assignment(tuple(values))
    return None if violations(model, fixed) else fixed
