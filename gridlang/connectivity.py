"""Connectivity encodings shared by the backends.

A :class:`~gridlang.ir.Connected` node says: the cells whose member literal
``x_v`` is true induce a connected subgraph of the grid graph ``G = (V, E)``
(4-neighbours plus links) that contains every root. Backends lower it with one
of two strategies.

**Single-commodity flow** (Gavish & Graves style, as used for contiguity in
districting and in the Harris & Forbes Snake Eggs model). A source sends one
unit of flow to every member; flow moves only along arcs between cells and
may enter a cell only if it is a member::

    f[u,v] <= (M) * x_v                  for every arc (u, v) of G
    inflow(v) - outflow(v) = x_v         for every non-root cell v
    M = number of candidate members

With roots, the source is the set of roots (their net outflow is free).
Without roots, a root-selection variable ``r_v <= x_v`` per cell with
``sum r_v <= 1`` and ``x_v <= sum r`` picks the root, and
``inflow(v) - outflow(v) >= x_v - M * r_v``. Size: ``2|E|`` continuous or
integer flow variables and ``|V|`` conservation rows.

**Lazy separator cuts** (the logic-based Benders loop of the Snake Eggs
chapter in V. Jandhyala, *Solving Puzzles through Mathematical Programming*,
ch. 32; the same vertex-separator inequalities as cspuz and Fischetti et al.
2017 for the Steiner tree). Solve without connectivity; for each connected
component ``C`` of the chosen cells that is *stray* (misses the roots, or is
too small for a region of known size), the rim ``N(C)`` (cells adjacent to
``C`` but not in it; with roots, only the rim cells from which a root can be
reached outside ``C``) is a vertex separator between ``C`` and the rest, so::

    x_s <= sum_{w in N(C)} x_w          for every s in C

(With neither roots nor a size, the pairwise form
``x_s + x_t <= 1 + sum_{w in N(C)} x_w`` for ``t`` in another component.)
Add the cuts, solve again; stop when no component is stray. Each round adds
at most ``|C|`` rows per stray component and no variables. The loop is exact:
it ends only on a connected answer, and every cut is valid for every
connected answer.

This module finds the cuts (:func:`separator_cuts`); it is pure Python and
imports no solver.
"""

from __future__ import annotations

from .grid import Grid
from .ir import Assignment, Cmp, Connected, Linear


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


def separator_cuts(grid: Grid, con: Connected, assignment: Assignment) -> list[Linear]:
    """Vertex-separator cuts that the assignment violates for ``con``.

    Args:
        grid: the model's grid graph.
        con: the connectivity node.
        assignment: a (possibly disconnected) solution of the relaxation.

    Returns:
        ``Linear`` constraints (``<=``), empty exactly when the chosen cells
        meet ``con`` (connected; with roots, every one reached from a root). Each cut is violated by
        ``assignment`` and satisfied by every assignment that meets ``con``.
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
        rim = _rim_terms(grid, comp, lit_of, con.roots)
        for s in comp:
            cuts.append(Linear(((1, lit_of[s]),) + rim, Cmp.LE, 0, span=con.span))
    if not con.roots and not stray and len(comps) > 1:
        # Pairwise cuts: keep the largest component, separate every other one from it.
        largest = max(comps, key=len)
        t = largest[0]
        for comp in comps:
            if comp is largest:
                continue
            rim = _rim_terms(grid, comp, lit_of)
            for s in comp:
                cuts.append(Linear(((1, lit_of[s]), (1, lit_of[t])) + rim, Cmp.LE, 1, span=con.span))
    return cuts


def _rim_terms(grid: Grid, comp: list[int], lit_of: dict[int, int],
               roots: tuple[int, ...] = ()) -> tuple[tuple[int, int], ...]:
    """``(-1, x_w)`` for the rim cells ``w`` of ``comp`` among the candidates.

    With roots, only the rim cells that reach a root through candidates
    outside ``comp`` are kept: a path from ``comp`` to a root leaves ``comp``
    for the last time through such a cell, so the cut stays valid and gets
    stronger (the cells a stray loop encloses drop out; the minimal vertex
    separators of Fischetti et al., "Thinning out Steiner trees", Math. Prog.
    Comp. 2017).
    """
    inside = set(comp)
    rim = {w for u in comp for w in grid.neighbours[u] if w not in inside and w in lit_of}
    if roots:
        rim &= grid.reach(set(lit_of) - inside, roots)
    return tuple((-1, lit_of[w]) for w in sorted(rim))


def flow_arcs(grid: Grid, con: Connected) -> list[tuple[int, int]]:
    """Directed arcs ``(u, v)`` of the grid graph between candidate members.

    Returns:
        Both directions of every edge whose two ends appear in ``con.members``,
        sorted; arcs into a root are left out (roots only send flow).
    """
    cand = {cell for cell, _ in con.members}
    roots = set(con.roots)
    arcs = []
    for u in sorted(cand):
        for v in grid.neighbours[u]:
            if v in cand and v not in roots:
                arcs.append((u, v))
    return arcs
