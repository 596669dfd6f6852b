"""Connectivity as columns and rows: single-commodity flow, depth layers, path positions.

Each encoding below lowers one :class:`~gridlang.ir.model.Connected` node ``C``
with ``n`` candidate cells and ``|E|`` edges between them into a
:class:`~gridlang.exporters.milp.linear.form.LinearForm`; :mod:`gridlang.exporters.milp.linear.lower`
chooses one per node.

In every encoding roots are members (a unit row unless the IR already
holds the unit clause), and candidates that no root can reach inside the
candidate graph (or, without roots, that sit in a candidate component
smaller than a known size) are fixed out: their separator has an empty
rim (:func:`lower_roots`). A node left to the lazy cut loop gets only
those rows and, with seeding, the one-cell (or also two-cell) separator
cuts of :func:`gridlang.ir.connectivity.separation.seed_cuts` (:func:`lower_seeds`).

* ``flow``: single-commodity flow (Gavish-Graves style; see
  :mod:`gridlang.ir.connectivity`). Per candidate arc ``(u, v)`` one
  continuous column ``0 <= f <= (n - 1) * x_v``; the roots are the
  sources and every other candidate has a balance row ``in - out = x_v``,
  so every member is reached from some root (the flood fill from several
  roots may fall into one piece per root). Without roots a binary
  root-selection column per candidate, ``r_v <= x_v``, ``sum r <= 1``
  (``= 1`` when the region has a known size of at least 1),
  ``sum x <= n * sum r`` and ``in - out >= x_v - n * r_v``: the coefficient
  is ``n``, not ``n - 1``, because the root sends up to ``n - 1`` units and
  receives none. Adds ``2|E|`` (+ ``n``) columns and about ``2|E| + n``
  rows. For a region of known size ``k >= 2`` the root sends exactly
  ``k - 1`` units: the capacity is ``(k - 1)`` times each end of the arc,
  the balance is ``in - out = x_v - k * r_v``, and without roots the root
  is the member with the lowest cell index, which a member ``u`` needs
  within ``k - 1`` steps through candidates numbered at least the root's:
  ``x_u <= sum r_v`` over such ``v`` (the symmetry breaking and distance
  bound of region-growing models; the flow alone lets the LP spread each
  region thinly over the whole grid).
* ``positions``: a path of known length ``L`` between the two roots ``a``
  and ``b`` (a path rule whose length a count rule fixes) as a sequence: a
  binary ``pos[v, t]`` says the ``t``-th cell of the path is ``v``.
  ``sum_t pos[v, t] = x_v``, each position holds exactly one cell,
  ``pos[v, t]`` needs a neighbour of ``v`` at ``t - 1`` and at ``t + 1``,
  and, the path being induced, any member next to ``v`` sits at ``t - 1``
  or ``t + 1`` (``pos[v, t] + x_u <= 1 + pos[u, t - 1] + pos[u, t + 1]``).
  Cells are only offered the positions their distances from ``a`` and
  ``b`` allow (and, without links, the chessboard parity), so ``a`` is at
  0 and ``b`` at ``L - 1``. Every solution is a walk from ``a`` to ``b``
  through distinct cells, so stray cycles cannot occur, and the LP sees
  the path's length (the time-expanded network of path and routing
  models). A path needing more than :data:`POSITION_COLUMNS` position
  columns gets flow instead.
* ``depths``: a region of known size ``k >= 2`` as a tree of depth at most
  ``k - 1`` grown from an anchor (a node version of the hop-indexed
  formulations of hop-constrained trees; Gouveia, *Using variable
  redefinition for computing lower bounds for minimum spanning and Steiner
  trees with hop constraints*, INFORMS J. Computing 10, 1998). A binary
  ``depth[v, t]`` says member ``v`` hangs at depth ``t``;
  ``x_v = sum_t depth[v, t]`` and ``depth[v, t] <= sum depth[u, t - 1]``
  over the neighbours ``u`` of ``v``. The anchors are the roots (the
  compiler makes a forced member, such as a Snake Eggs clue, the root of a
  rootless region), which leave a cell only the depths its distance
  allows; without roots, the lowest member, picked as in the size-capped
  flow (depth 0 is the pick). Where the flow lets the LP spread fractions
  of an egg over the grid, the layers bound every member's distance from
  the anchor. A region needing more than :data:`DEPTH_COLUMNS` depth
  columns gets the size-capped flow instead.
"""

from __future__ import annotations

from gridlang.core.errors import BackendError
from gridlang.exporters.milp.linear.form import Column, LinearForm, add_row
from gridlang.ir.connectivity.encodings import flow_arcs
from gridlang.ir.connectivity.separation import components, cut_clause, seed_cuts
from gridlang.ir.model import Connected, affine


def lower_seeds(low: LinearForm, con: Connected, key: str, seed: int) -> None:
    """The separator cuts known before solving (``seed`` 1: one-cell, 2: also two-cell), as rows."""
    for i, cut in enumerate(seed_cuts(low.model.grid, con, pairs=seed > 1), start=1):
        lits = cut_clause(cut)
        coefs, const = affine((1, l) for l in lits)
        add_row(low, f"seed_{key}_{i}", coefs, const, 1, None)


def lower_roots(low: LinearForm, con: Connected, key: str, units: set[int]) -> None:
    """Roots in (unless ``units`` holds them already) and unreachable candidates out.

    Raises:
        BackendError: a root is not among the node's members.
    """
    lit_of = dict(con.members)
    grid = low.model.grid
    for r in con.roots:
        if r not in lit_of:
            raise BackendError(
                f"region {con.name!r}: the root cell at {grid.cell_name(r)} is not among its members")
        lit = lit_of[r]
        if lit in units:
            continue
        coefs, const = affine([(1, lit)])
        rr, cc = grid.cell(r)
        add_row(low, f"rootin_{key}_{rr}_{cc}", coefs, const, 1, None)
    # Candidates that no root can reach inside the candidate graph (or, for a
    # region of known size without roots, that lie in a smaller candidate
    # component) are never members: their separator cut has an empty rim.
    # Stating it up front spares the cut loop a round.
    if con.roots:
        roots = set(con.roots)
        comps = components(grid, set(lit_of))
        dead = [c for comp in comps if not roots.intersection(comp) for c in comp]
    elif con.size is not None:
        dead = [c for comp in components(grid, set(lit_of)) if len(comp) < con.size for c in comp]
    else:
        dead = []
    for cell in sorted(dead):
        lit = lit_of[cell]
        if -lit in units:
            continue
        coefs, const = affine([(1, lit)])
        rr, cc = grid.cell(cell)
        add_row(low, f"unreachable_{key}_{rr}_{cc}", coefs, const, None, 0)


def _flow_column(low: LinearForm, key: str, region: str, u: int, v: int, cap: int) -> int:
    """A continuous flow column ``0 <= f[u,v] <= cap`` on the arc ``u -> v``."""
    grid = low.model.grid
    (ur, uc), (vr, vc) = grid.cell(u), grid.cell(v)
    low.columns.append(Column(
        low.fresh(f"flow_{key}_{ur}_{uc}_{vr}_{vc}"), 0, cap, False,
        {"var": f"flow({region})[{ur},{uc}->{vr},{vc}]", "family": "flow",
         "cell": [vr, vc], "value": None, "arc": [[ur, uc], [vr, vc]], "aux": True},
    ))
    return len(low.columns) - 1


def _pick_columns(low: LinearForm, con: Connected, key: str) -> dict[int, int]:
    """A binary root-selection column ``r_v <= x_v`` per candidate ``v``."""
    grid = low.model.grid
    lit_of = dict(con.members)
    region = con.name or key
    pick: dict[int, int] = {}
    for v in sorted(lit_of):
        r, c = grid.cell(v)
        pick[v] = len(low.columns)
        low.columns.append(Column(
            low.fresh(f"pick_{key}_{r}_{c}"), 0, 1, True,
            {"var": f"root({region})[{r},{c}]", "family": "root", "cell": [r, c],
             "value": None, "aux": True},
        ))
        coefs, const = affine([(-1, lit_of[v])])
        coefs[pick[v]] = 1
        add_row(low, f"pickmember_{key}_{r}_{c}", coefs, const, None, 0)
    return pick


def _capacity_rows(low: LinearForm, con: Connected, key: str, arc_col: dict[tuple[int, int], int],
                   cap: int, both_ends: bool) -> None:
    """``f[u,v] <= cap * x_v`` on every arc, and ``<= cap * x_u`` too when ``both_ends``.

    A root end needs no row: a root is a member.
    """
    grid = low.model.grid
    lit_of = dict(con.members)
    roots = set(con.roots)
    for (u, v), col in arc_col.items():
        (ur, uc), (vr, vc) = grid.cell(u), grid.cell(v)
        for end, tag in ((v, "flowcap"), (u, "flowcapout"))[:2 if both_ends else 1]:
            if end in roots:
                continue
            coefs, const = affine([(-cap, lit_of[end])])
            coefs[col] = 1
            add_row(low, f"{tag}_{key}_{ur}_{uc}_{vr}_{vc}", coefs, const, None, 0)


def _balance_rows(low: LinearForm, con: Connected, key: str, arc_col: dict[tuple[int, int], int],
                  pick: dict[int, int], root_supply: int, exact: bool) -> None:
    """``in - out = x_v`` at every non-root candidate, less ``root_supply * r_v``.

    ``exact``: an equality (the region's size is known); else ``>=``.
    """
    grid = low.model.grid
    lit_of = dict(con.members)
    inflow: dict[int, list[int]] = {v: [] for v in lit_of}
    outflow: dict[int, list[int]] = {v: [] for v in lit_of}
    for (u, v), col in arc_col.items():
        outflow[u].append(col)
        inflow[v].append(col)
    roots = set(con.roots)
    for v in sorted(lit_of):
        if v in roots:
            continue
        coefs, const = affine([(-1, lit_of[v])])
        for col in inflow[v]:
            coefs[col] = coefs.get(col, 0) + 1
        for col in outflow[v]:
            coefs[col] = coefs.get(col, 0) - 1
        if pick:
            coefs[pick[v]] = coefs.get(pick[v], 0) + root_supply
        r, c = grid.cell(v)
        add_row(low, f"flowbal_{key}_{r}_{c}", coefs, const, 0, 0 if exact else None)


def lower_flow(low: LinearForm, con: Connected, key: str) -> None:
    """Single-commodity flow for one region (see the module docstring)."""
    lit_of = dict(con.members)
    n = len(lit_of)
    if n <= 1:
        return
    if con.size is not None and con.size >= 2:
        _lower_sized_flow(low, con, key)
        return
    grid = low.model.grid
    big_m = n - 1
    # Every root is a source, as in the flood fill from several cells.
    roots = set(con.roots)
    region = con.name or key
    arc_col = {(u, v): _flow_column(low, key, region, u, v, big_m) for u, v in flow_arcs(grid, con)}
    _capacity_rows(low, con, key, arc_col, big_m, both_ends=False)
    pick: dict[int, int] = {}
    if not roots:
        pick = _pick_columns(low, con, key)
        one = {col: 1 for col in pick.values()}
        if con.size is not None and con.size >= 1:
            add_row(low, f"pickone_{key}", one, 0, 1, 1)
        else:
            add_row(low, f"pickone_{key}", one, 0, None, 1)
            # sum x <= n * sum r: a nonempty region picks its root.
            coefs, const = affine([(1, lit_of[v]) for v in sorted(lit_of)])
            for col in pick.values():
                coefs[col] = coefs.get(col, 0) - n
            add_row(low, f"pickneeded_{key}", coefs, const, None, 0)
    # in - out = x_v with roots; without, in - out >= x_v - n * r_v: the
    # root sends up to n - 1 units and receives none.
    _balance_rows(low, con, key, arc_col, pick, n, exact=bool(roots))


def _lower_sized_flow(low: LinearForm, con: Connected, key: str) -> None:
    """Flow for a region of known size ``k >= 2`` (see the module docstring).

    The root sends ``k - 1`` units, so every arc's capacity is ``k - 1``
    times each of its two ends. Without roots the root is the member with
    the lowest cell index (:func:`_pick_first`).
    """
    grid = low.model.grid
    k = con.size
    assert k is not None
    roots = set(con.roots)
    region = con.name or key
    arc_col = {(u, v): _flow_column(low, key, region, u, v, k - 1) for u, v in flow_arcs(grid, con)}
    _capacity_rows(low, con, key, arc_col, k - 1, both_ends=True)
    pick: dict[int, int] = {}
    if not roots:
        pick = _pick_first(low, con, key)
    # in - out = x_v - k * r_v: the root keeps one unit of its k.
    _balance_rows(low, con, key, arc_col, pick, k, exact=True)


def _pick_first(low: LinearForm, con: Connected, key: str) -> dict[int, int]:
    """Root-selection columns for a rootless region of known size ``k``: its lowest cell.

    Exactly one candidate is picked, and a member ``u`` needs a picked
    candidate ``v <= u`` that reaches ``u`` in at most ``k - 1`` steps
    through candidates numbered ``v`` or more (a connected set of ``k``
    cells holds such a path from its lowest cell to each of its cells).

    Returns:
        ``{cell: column}`` of the root-selection columns.
    """
    grid = low.model.grid
    lit_of = dict(con.members)
    k = con.size
    assert k is not None
    pick = _pick_columns(low, con, key)
    add_row(low, f"pickone_{key}", {col: 1 for col in pick.values()}, 0, 1, 1)
    cand = sorted(lit_of)
    cover: dict[int, list[int]] = {u: [] for u in cand}
    for i, v in enumerate(cand):
        for u in grid.distances(set(cand[i:]), v, limit=k - 1):
            cover[u].append(v)
    for u in cand:
        coefs, const = affine([(1, lit_of[u])])
        for v in cover[u]:
            coefs[pick[v]] = coefs.get(pick[v], 0) - 1
        r, c = grid.cell(u)
        add_row(low, f"pickfirst_{key}_{r}_{c}", coefs, const, None, 0)
    return pick


_LAYER_TAGS = {"depth": "depth", "position": "pos"}
"""Column-name prefix of each layered family (``depth_...``, ``pos_...``)."""


def _layer_column(low: LinearForm, family: str, key: str, region: str, v: int, t: int) -> int:
    """A binary column ``family[v, t]`` (cell ``v`` at depth or position ``t``); returns its index.

    Named ``<tag>_<key>_<row>_<col>_<t>`` in files; the sidecar gives the
    cell and ``t`` as the value.
    """
    r, c = low.model.grid.cell(v)
    low.columns.append(Column(
        low.fresh(f"{_LAYER_TAGS[family]}_{key}_{r}_{c}_{t}"), 0, 1, True,
        {"var": f"{family}({region})[{r},{c}]={t}", "family": family,
         "cell": [r, c], "value": t, "aux": True},
    ))
    return len(low.columns) - 1


DEPTH_COLUMNS = 20_000
"""A region whose depth layers would need more columns is lowered by flow."""


def lower_depths(low: LinearForm, con: Connected, key: str) -> bool:
    """Depth layers for a region of known size ``k >= 2`` (see the module docstring).

    The anchors (depth 0) are the region's roots (members in every answer;
    :func:`gridlang.compiler.anchor_connected` roots a rootless region at a
    member a unit clause forces); without roots, the picked lowest member
    (:func:`_pick_first`).
    A binary ``depth[v, t]``, ``1 <= t <= k - 1``, says member ``v`` hangs
    at depth ``t`` of a tree grown from the anchors; ``x_v = sum_t
    depth[v, t]`` (plus the pick) and ``depth[v, t] <= sum depth[u, t - 1]``
    over the neighbours ``u`` of ``v``. A connected set of ``k`` cells
    holds every cell within ``k - 1`` steps of any of its cells, so the
    layers lose no answer, and each member is tied to an anchor by a chain
    of members, so no answer has a stray piece. A fixed anchor offers a
    cell only the depths its distance allows (and, with one anchor and no
    links, the chessboard parity).

    Returns:
        False, adding nothing, when the layers would need more than
        :data:`DEPTH_COLUMNS` columns (the caller uses flow).
    """
    grid = low.model.grid
    lit_of = dict(con.members)
    k = con.size
    assert k is not None and k >= 2
    cand = set(lit_of)
    anchors = sorted(con.roots)
    if anchors:
        # Steps from the nearest anchor, up to k - 1; any walk from a lone
        # anchor has the parity of the shortest one when the grid has no links.
        near: dict[int, int] = {}
        for a in anchors:
            for v, d in grid.distances(cand, a, limit=k - 1).items():
                near[v] = min(d, near.get(v, d))
        step = 2 if len(anchors) == 1 and not grid.links else 1
        slots = {v: range(near[v], k, step) for v in sorted(near) if near[v] > 0}
    else:
        slots = {v: range(1, k) for v in sorted(cand)}
    if sum(len(ts) for ts in slots.values()) > DEPTH_COLUMNS:
        return False
    region = con.name or key
    # depth 0: the picked root without anchors; with anchors, only they
    # (members in every answer, so no column).
    depth: dict[tuple[int, int], int] = {}
    if not anchors:
        depth.update(((v, 0), col) for v, col in _pick_first(low, con, key).items())
    for v, ts in slots.items():
        for t in ts:
            depth[(v, t)] = _layer_column(low, "depth", key, region, v, t)
    for v in sorted(cand.difference(anchors)):
        # x_v = sum_t depth[v, t]: a member has one depth, and a cell that
        # no anchor reaches within k - 1 steps is never a member.
        coefs, const = affine([(-1, lit_of[v])])
        for t in range(k):
            if (v, t) in depth:
                coefs[depth[(v, t)]] = 1
        r, c = grid.cell(v)
        add_row(low, f"depthmember_{key}_{r}_{c}", coefs, const, 0, 0)
    for (v, t), col in depth.items():
        if t == 0 or (t == 1 and anchors):
            continue  # a root, or next to an anchor
        # depth[v, t] <= sum of depth[u, t - 1] over the neighbours u of v.
        coefs = {col: 1}
        for u in grid.neighbours[v]:
            if (u, t - 1) in depth:
                coefs[depth[(u, t - 1)]] = -1
        r, c = grid.cell(v)
        add_row(low, f"depthabove_{key}_{r}_{c}_{t}", coefs, 0, None, 0)
    return True


POSITION_COLUMNS = 20_000
"""A path whose position formulation would need more columns is lowered by flow."""


def lower_positions(low: LinearForm, con: Connected, key: str) -> bool:
    """The position formulation of a path of known length (see the module docstring).

    Returns:
        False, adding nothing, when the path would need more than
        :data:`POSITION_COLUMNS` position columns (the caller uses flow).
    """
    grid = low.model.grid
    lit_of = dict(con.members)
    cand = set(lit_of)
    first, last = con.roots
    length = con.size
    assert length is not None
    from_first = grid.distances(cand, first)
    to_last = grid.distances(cand, last)
    # Without links the grid graph is bipartite: every walk from the first
    # end to v has the parity of the shortest one.
    step = 1 if grid.links else 2
    slots = {v: range(from_first[v], length - to_last[v], step)
             for v in sorted(cand) if v in from_first and v in to_last}
    if sum(len(ts) for ts in slots.values()) > POSITION_COLUMNS:
        return False
    region = con.name or key
    pos: dict[tuple[int, int], int] = {}
    at: dict[int, list[int]] = {t: [] for t in range(length)}
    for v, ts in slots.items():
        for t in ts:
            pos[(v, t)] = _layer_column(low, "position", key, region, v, t)
            at[t].append(pos[(v, t)])
    for v in sorted(cand):
        # x_v = sum_t pos[v, t]: a member holds exactly one position.
        coefs, const = affine([(-1, lit_of[v])])
        for t in slots.get(v, ()):
            coefs[pos[(v, t)]] = 1
        r, c = grid.cell(v)
        add_row(low, f"posmember_{key}_{r}_{c}", coefs, const, 0, 0)
    for t in range(length):
        # Every position holds exactly one cell (an empty one: infeasible).
        add_row(low, f"posone_{key}_{t}", {col: 1 for col in at[t]}, 0, 1, 1)
    for (v, t), col in pos.items():
        r, c = grid.cell(v)
        for near, tag in ((t - 1, "posafter"), (t + 1, "posbefore")):
            if not 0 <= near < length:
                continue
            # pos[v, t] <= sum of pos[u, t -+ 1] over the neighbours u of v.
            coefs = {col: 1}
            for u in grid.neighbours[v]:
                if (u, near) in pos:
                    coefs[pos[(u, near)]] = -1
            add_row(low, f"{tag}_{key}_{r}_{c}_{t}", coefs, 0, None, 0)
        for u in grid.neighbours[v]:
            if u not in cand:
                continue
            # The path is induced (its degree rows count member neighbours),
            # so a member next to v is v's predecessor or successor:
            # pos[v, t] + x_u <= 1 + pos[u, t - 1] + pos[u, t + 1].
            coefs, const = affine([(1, lit_of[u])])
            coefs[col] = coefs.get(col, 0) + 1
            for near in (t - 1, t + 1):
                if (u, near) in pos:
                    coefs[pos[(u, near)]] = coefs.get(pos[(u, near)], 0) - 1
            ur, uc = grid.cell(u)
            add_row(low, f"posnext_{key}_{r}_{c}_{t}_{ur}_{uc}", coefs, const, None, 1)
    return True
