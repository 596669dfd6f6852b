"""MILP backend: the IR as a Pyomo model, solved by HiGHS, written as LP or MPS.

Lowering (every Boolean variable ``v`` becomes a binary column ``x_v``; a
negative literal ``-v`` stands for ``1 - x_v``):

* :class:`~gridlang.ir.Clause` ``l_1 | ... | l_k`` is the row
  ``sum l_i >= 1``; a clause holding ``v`` and ``-v`` is dropped.
* :class:`~gridlang.ir.Linear` ``sum a_i l_i OP b`` is the same row. With
  ``enforce`` literals ``e_1..e_m`` it is relaxed by big-M when any of them is
  false: ``L <= b + M * sum (1 - e_j)`` with ``M = max(L) - b``, and
  ``L >= b - M' * sum (1 - e_j)`` with ``M' = b - min(L)``, where ``max(L)``
  and ``min(L)`` come from the term bounds (each literal in [0, 1]). A side
  whose ``M <= 0`` can never be violated and is dropped.
* :class:`~gridlang.ir.Connected` is lowered by one of four encodings
  (maths and sources in :mod:`gridlang.connectivity`). The strategy
  ``flow`` uses flow for every node, ``cuts`` the cut loop for every node,
  and ``auto`` (the default) positions for a path of known length, depth
  layers for a region of known size and the cut loop for the rest (a
  horse's pen):

  - ``flow``: single-commodity flow (Gavish-Graves style; see
    :mod:`gridlang.connectivity`). Per candidate arc ``(u, v)`` one
    continuous column ``0 <= f <= (n - 1) * x_v``; the roots are the
    sources and every other candidate has a balance row ``in - out = x_v``,
    so every member is reached from some root (the flood fill from several
    roots may fall into one piece per root). Without
    roots a binary root-selection column per candidate, ``r_v <= x_v``,
    ``sum r <= 1`` (``= 1`` when the region has a known size of at least 1),
    ``sum x <= n * sum r`` and ``in - out >= x_v - n * r_v``: the
    coefficient is ``n``, not ``n - 1``, because the root sends up to
    ``n - 1`` units and receives none. Adds ``2|E|`` (+ ``|V|``) columns and
    about ``2|E| + |V|`` rows for ``n = |V|`` candidates and ``|E|`` edges
    between them. For a region of known size ``k >= 2`` the root sends
    exactly ``k - 1`` units: the capacity is ``(k - 1)`` times each end of
    the arc, the balance is ``in - out = x_v - k * r_v``, and without roots
    the root is the member with the lowest cell index, which a member ``u``
    needs within ``k - 1`` steps through candidates numbered at least the
    root's: ``x_u <= sum r_v`` over such ``v`` (the symmetry breaking and
    distance bound of region-growing models; the flow alone lets the LP
    spread each region thinly over the whole grid).
  - ``positions``: a path of known length ``L`` between the two roots
    ``a`` and ``b`` (a path rule whose length a count rule fixes) as a
    sequence: a binary ``pos[v, t]`` says the ``t``-th cell of the path is
    ``v``. ``sum_t pos[v, t] = x_v``, each position holds exactly one cell,
    ``pos[v, t]`` needs a neighbour of ``v`` at ``t - 1`` and at ``t + 1``,
    and, the path being induced, any member next to ``v`` sits at ``t - 1``
    or ``t + 1`` (``pos[v, t] + x_u <= 1 + pos[u, t - 1] + pos[u, t + 1]``).
    Cells are only offered the positions their distances from ``a`` and
    ``b`` allow (and, without links, the chessboard parity), so ``a`` is
    at 0 and ``b`` at ``L - 1``. Every solution is a walk from ``a`` to
    ``b`` through distinct cells, so stray cycles cannot occur, and the
    LP sees the path's length (the time-expanded network of path and
    routing models). A path needing more than 20,000 position columns gets
    flow instead.
  - ``depths``: a region of known size ``k >= 2`` as a tree of depth at
    most ``k - 1`` grown from an anchor (a node version of the
    hop-indexed formulations of hop-constrained trees; Gouveia, *Using
    variable redefinition for computing lower bounds for minimum spanning
    and Steiner trees with hop constraints*, INFORMS J. Computing 10,
    1998). A binary ``depth[v, t]`` says member ``v`` hangs at depth
    ``t``; ``x_v = sum_t depth[v, t]`` and ``depth[v, t] <= sum
    depth[u, t - 1]`` over the neighbours ``u`` of ``v``. The anchors are
    the roots (the compiler makes a forced member, such as a Snake Eggs
    clue, the root of a rootless region), which leave a cell only the
    depths its distance allows; without roots, the lowest member, picked
    as in the size-capped flow (depth 0 is the pick). Where the flow lets
    the LP spread fractions of an egg over the grid, the layers bound
    every member's distance from the anchor. A region needing more than
    20,000 depth columns gets the size-capped flow instead.
  - ``cuts``: the lazy separator-cut loop (logic-based Benders; Jandhyala,
    *Solving Puzzles through Mathematical Programming*, ch. 32; Fischetti et
    al. 2017). Solve without connectivity; while a stray component exists,
    append the vertex-separator cuts of
    :func:`gridlang.connectivity.separator_cuts` of the answer, and
    of the other improving solutions HiGHS saved in the round, to the
    persistent HiGHS model (rows are added, nothing is rebuilt) and solve
    again. Each
    disconnected answer is repaired by dropping its stray components; when
    the repair meets every IR constraint it is a true solution, used as the
    warm start of the next round and as the incumbent if time runs out.
    Before the first round, every rooted region gets the one-cell separator
    cuts of :func:`gridlang.connectivity.seed_cuts` (a cell that
    separates others from the roots is a member whenever they are).
    The cuts added are returned as ``stats["learned_cuts"]``; a
    :class:`MilpSession` (a uniqueness or counting run) keeps them in the
    HiGHS model, so its next solve starts with them.

  In every encoding roots are members (a unit row unless the IR already
  holds the unit clause), and candidates that no root can reach inside the
  candidate graph (or, without roots, that sit in a candidate component
  smaller than a known size) are fixed out: their separator has an empty
  rim.
* The :class:`~gridlang.ir.Objective` keeps its constant, so the solver's
  objective is the puzzle's score. All IR coefficients are integers, so the
  default gap is an absolute gap just below 1: a solve that HiGHS calls
  optimal is exactly optimal. The reported objective is recomputed from the
  rounded assignment; the bound is HiGHS's, rounded to an integer.

Uniqueness and counting runs go through a :class:`MilpSession`: the
model is built and loaded into HiGHS once, and each blocking clause is a
row added to it.

Settings (``milp.NAME`` in ``SolveOptions.extra``): ``warmstart``,
``pool_cuts``, ``seed_cuts`` and ``highs_options`` (HiGHS's defaults
unless given). The measurements behind these defaults and behind the
encodings (against ``benchmarks/milp_reference.py``, a hand-written
highspy model with the same lazy cuts; the Snake Eggs, and the
formulations tried on them that did not help) are in
``docs/benchmarks.md``, "Settings and encodings tried".

Statuses: HiGHS optimal and connected -> OPTIMAL; time limit with a
connected incumbent -> FEASIBLE with ``bound``; infeasible (also "infeasible
or unbounded": every column is bounded) -> INFEASIBLE, valid for the puzzle
because every cut is valid for every connected answer; anything else ->
UNKNOWN (with ``bound`` when HiGHS had one).

Files: ``write`` lowers as the strategy does but gives flow to every node
left to the cut loop (cuts cannot live in a file), through
Pyomo's own LP and MPS writers with gridlang's labels (``wall_3_4``,
``flow_pen_3_4_3_5``), a header comment naming the puzzle, spec, map and
encoding, and a sidecar ``<file>.vars.json``. ``read_solution`` reads a HiGHS,
Gurobi, SCIP or CBC solution of such a file back into an assignment.

Pyomo and highspy are imported inside the functions that need them.
"""

from __future__ import annotations

import json
import logging
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from gridlang.backend import Backend, Result, Session, SolveOptions, Status
from gridlang.connectivity import components, cut_clause, flow_arcs, seed_cuts
from gridlang.connectivity.driver import Round, lazy_solve
from gridlang.deadline import Deadline, run_solver
from gridlang.errors import BackendError, Span
from gridlang.ir import Assignment, Clause, Cmp, Connected, Constraint, Linear, Model, Sense
from gridlang.readers import read_mip_solution

logger = logging.getLogger("gridlang.milp")

_AUTO = "auto"
_FLOW = "flow"
_CUTS = "cuts"
_POSITIONS = "positions"
_DEPTHS = "depths"
_ENCODING_TEXT = {
    _AUTO: "positions for paths, depth layers for regions of known size, lazy cuts otherwise",
    _FLOW: "single-commodity flow",
    _CUTS: "lazy vertex-separator cuts",
    _POSITIONS: "path positions",
    _DEPTHS: "depth layers",
}

_INT_TOL = 1e-6
"""Relative slack when rounding HiGHS's dual bound to an integer."""
_BINARY_TOL = 1e-4
"""How far a solver value may sit from 0 or 1 and still count as binary."""


def _encoding(con: Connected, strategy: str) -> str:
    """How ``strategy`` lowers ``con``: ``cuts``, ``flow``, ``positions`` or ``depths``.

    ``auto`` gives a path of known length its position formulation, a region
    of known size (2 or more) depth layers, and anything else (a horse's
    pen) the lazy cut loop; the other strategies apply to every node.
    """
    if strategy != _AUTO:
        return strategy
    if con.path and len(con.roots) == 2 and con.size is not None:
        return _POSITIONS
    if con.size is not None and con.size >= 2:
        return _DEPTHS
    return _CUTS


# ---------------------------------------------------------------------------
# Solver-independent linear form


@dataclass(slots=True)
class _Column:
    """One column of the MILP.

    Attributes:
        name: the label written to files (``wall_3_4``).
        lb, ub: bounds.
        binary: integral 0/1 column.
        entry: the sidecar record (``var``, ``family``, ``cell``, ``value``...).
    """

    name: str
    lb: int
    ub: int
    binary: bool
    entry: dict[str, object]


@dataclass(slots=True)
class _Row:
    """``lo <= sum(coef * column) <= hi``; either side may be None."""

    name: str
    coefs: dict[int, int]
    lo: float | None
    hi: float | None


@dataclass(slots=True)
class _Lowered:
    """The model as columns and rows, before any Pyomo object exists.

    Columns ``0 .. num_vars - 1`` are the IR variables ``1 .. num_vars`` in
    order; auxiliary columns (flow, root selection) follow.
    """

    model: Model
    strategy: str
    columns: list[_Column]
    rows: list[_Row] = field(default_factory=list)
    objective: tuple[Sense, dict[int, int], int] | None = None
    regions: list[tuple[str, Connected]] = field(default_factory=list)
    lazy: list[tuple[str, Connected]] = field(default_factory=list)
    """The regions left to the cut loop (encoding ``cuts``)."""
    encodings: dict[str, str] = field(default_factory=dict)
    """Region key -> the encoding it got (``cuts``, ``flow`` or ``positions``)."""
    infeasible: list[str] = field(default_factory=list)
    """Rows with no columns that can never hold (the model is infeasible)."""
    names: set[str] = field(default_factory=set)

    def fresh(self, name: str) -> str:
        """``name``, made unique among the column labels so far."""
        base = _sanitize(name) or "col"
        name, k = base, 1
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return name

    def used_columns(self) -> set[int]:
        """Columns with a nonzero coefficient somewhere (the ones a file holds)."""
        used = {j for row in self.rows for j in row.coefs}
        if self.objective is not None:
            used.update(self.objective[1])
        return used


def _sanitize(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in text)


def _affine(terms: Iterable[tuple[int, int]]) -> tuple[dict[int, int], int]:
    """``sum coef * lit`` over literals as ``(column -> coef, constant)``.

    A negative literal ``-v`` contributes ``coef * (1 - x_v)``.
    """
    coefs: dict[int, int] = {}
    const = 0
    for coef, lit in terms:
        j = abs(lit) - 1
        if lit > 0:
            coefs[j] = coefs.get(j, 0) + coef
        else:
            coefs[j] = coefs.get(j, 0) - coef
            const += coef
    return {j: a for j, a in coefs.items() if a != 0}, const


def _add_row(low: _Lowered, name: str, coefs: dict[int, int], const: int,
             lo: float | None, hi: float | None) -> None:
    """Add ``lo <= coefs.x + const <= hi``; rows without columns are checked now."""
    coefs = {j: a for j, a in coefs.items() if a != 0}
    if not coefs:
        if (lo is not None and const < lo) or (hi is not None and const > hi):
            low.infeasible.append(name)
        return
    low.rows.append(_Row(
        name,
        coefs,
        None if lo is None else lo - const,
        None if hi is None else hi - const,
    ))


def _span_tag(span: Span | None) -> str:
    return f"_L{span.line}" if span is not None else ""


def _lower(model: Model, strategy: str, seed: int = 0, for_file: bool = False) -> _Lowered:
    """Lower the IR to columns and rows with the given connectivity strategy.

    ``for_file`` gives flow to every node the strategy would leave to the
    cut loop (a file has no loop), so ``auto`` keeps its positions and
    depth layers. ``seed`` 1 adds the one-cell separator cuts of
    :func:`gridlang.connectivity.seed_cuts` to every rooted
    region up front, 2 the two-cell ones too.

    Raises:
        BackendError: a Connected node names a root outside its members.
    """
    low = _Lowered(model, strategy, [])
    grid = model.grid
    for v, var in enumerate(model.variables, start=1):
        rowcol = None
        if var.rowcol is not None:
            rowcol = [var.rowcol[0], var.rowcol[1]]
        elif var.cell is not None:
            rowcol = list(grid.cell(var.cell))
        low.columns.append(_Column(
            low.fresh(var.identifier()), 0, 1, True,
            {"var": str(var), "family": var.family, "cell": rowcol, "value": var.value,
             "index": v, "aux": False},
        ))
    units = {con.lits[0] for con in model.constraints if isinstance(con, Clause) and len(con.lits) == 1}
    keys: set[str] = set()
    for k, con in enumerate(model.constraints, start=1):
        if isinstance(con, (Clause, Linear)):
            _lower_row(low, con, k)
        else:  # Connected: the model is prepared (Backend.prepare)
            key = _sanitize(con.name) or f"region{k}"
            while key in keys:
                key += f"_{k}"
            keys.add(key)
            low.regions.append((key, con))
            _lower_roots(low, con, key, units)
            encoding = _encoding(con, strategy)
            if for_file and encoding == _CUTS:
                encoding = _FLOW
            if encoding == _CUTS:
                low.lazy.append((key, con))
                if seed:
                    _lower_seeds(low, con, key, seed)
            elif not ((encoding == _POSITIONS and _lower_positions(low, con, key))
                      or (encoding == _DEPTHS and _lower_depths(low, con, key))):
                encoding = _FLOW  # also a path or region too large for its layers
                _lower_flow(low, con, key)
            low.encodings[key] = encoding
    if model.objective is not None:
        coefs, const = _affine(model.objective.terms)
        low.objective = (model.objective.sense, coefs, model.objective.constant + const)
    return low


def _lower_row(low: _Lowered, con: Clause | Linear, k: int) -> None:
    """Lower a clause or linear constraint, the ``k``-th of its model (from 1), to a row."""
    tag = f"{k}{_span_tag(con.span)}"
    if isinstance(con, Clause):
        lits = set(con.lits)
        if any(-l in lits for l in lits):
            return  # a tautology
        coefs, const = _affine((1, l) for l in sorted(lits, key=abs))
        _add_row(low, f"clause_{tag}", coefs, const, 1, None)
    else:
        _lower_linear(low, con, f"linear_{tag}")


def _lower_linear(low: _Lowered, con: Linear, name: str) -> None:
    coefs, const = _affine(con.terms)
    enforce = set(con.enforce)
    if any(-l in enforce for l in enforce):
        return  # never switched on
    if not enforce:
        lo = con.rhs if con.op in (Cmp.GE, Cmp.EQ) else None
        hi = con.rhs if con.op in (Cmp.LE, Cmp.EQ) else None
        _add_row(low, name, coefs, const, lo, hi)
        return
    # off = sum_j (1 - e_j): 0 exactly when every enforce literal holds.
    off, off_const = _affine((-1, l) for l in sorted(enforce, key=abs))
    off_const += len(enforce)
    lmax = const + sum(a for a in coefs.values() if a > 0)
    lmin = const + sum(a for a in coefs.values() if a < 0)
    sides = []
    if con.op in (Cmp.LE, Cmp.EQ) and lmax > con.rhs:
        sides.append(("le", lmax - con.rhs))
    if con.op in (Cmp.GE, Cmp.EQ) and lmin < con.rhs:
        sides.append(("ge", con.rhs - lmin))
    for side, big_m in sides:
        row = dict(coefs)
        sign = -1 if side == "le" else 1
        # le: L - M*off <= rhs;  ge: L + M*off >= rhs
        for j, a in off.items():
            row[j] = row.get(j, 0) + sign * big_m * a
        row_const = const + sign * big_m * off_const
        suffix = f"_{side}" if len(sides) > 1 or con.op is Cmp.EQ else ""
        if side == "le":
            _add_row(low, name + suffix, row, row_const, None, con.rhs)
        else:
            _add_row(low, name + suffix, row, row_const, con.rhs, None)


def _lower_seeds(low: _Lowered, con: Connected, key: str, seed: int) -> None:
    for i, cut in enumerate(seed_cuts(low.model.grid, con, pairs=seed > 1), start=1):
        lits = cut_clause(cut)
        coefs, const = _affine((1, l) for l in lits)
        _add_row(low, f"seed_{key}_{i}", coefs, const, 1, None)


def _lower_roots(low: _Lowered, con: Connected, key: str, units: set[int]) -> None:
    lit_of = dict(con.members)
    grid = low.model.grid
    for r in con.roots:
        if r not in lit_of:
            raise BackendError(
                f"region {con.name!r}: root cell {grid.cell(r)} is not among its members")
        lit = lit_of[r]
        if lit in units:
            continue
        coefs, const = _affine([(1, lit)])
        rr, cc = grid.cell(r)
        _add_row(low, f"rootin_{key}_{rr}_{cc}", coefs, const, 1, None)
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
        coefs, const = _affine([(1, lit)])
        rr, cc = grid.cell(cell)
        _add_row(low, f"unreachable_{key}_{rr}_{cc}", coefs, const, None, 0)


def _flow_column(low: _Lowered, key: str, region: str, u: int, v: int, cap: int) -> int:
    """A continuous flow column ``0 <= f[u,v] <= cap`` on the arc ``u -> v``."""
    grid = low.model.grid
    (ur, uc), (vr, vc) = grid.cell(u), grid.cell(v)
    low.columns.append(_Column(
        low.fresh(f"flow_{key}_{ur}_{uc}_{vr}_{vc}"), 0, cap, False,
        {"var": f"flow({region})[{ur},{uc}->{vr},{vc}]", "family": "flow",
         "cell": [vr, vc], "value": None, "arc": [[ur, uc], [vr, vc]], "aux": True},
    ))
    return len(low.columns) - 1


def _pick_columns(low: _Lowered, con: Connected, key: str) -> dict[int, int]:
    """A binary root-selection column ``r_v <= x_v`` per candidate ``v``."""
    grid = low.model.grid
    lit_of = dict(con.members)
    region = con.name or key
    pick: dict[int, int] = {}
    for v in sorted(lit_of):
        r, c = grid.cell(v)
        pick[v] = len(low.columns)
        low.columns.append(_Column(
            low.fresh(f"pick_{key}_{r}_{c}"), 0, 1, True,
            {"var": f"root({region})[{r},{c}]", "family": "root", "cell": [r, c],
             "value": None, "aux": True},
        ))
        coefs, const = _affine([(-1, lit_of[v])])
        coefs[pick[v]] = 1
        _add_row(low, f"pickmember_{key}_{r}_{c}", coefs, const, None, 0)
    return pick


def _capacity_rows(low: _Lowered, con: Connected, key: str, arc_col: dict[tuple[int, int], int],
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
            coefs, const = _affine([(-cap, lit_of[end])])
            coefs[col] = 1
            _add_row(low, f"{tag}_{key}_{ur}_{uc}_{vr}_{vc}", coefs, const, None, 0)


def _balance_rows(low: _Lowered, con: Connected, key: str, arc_col: dict[tuple[int, int], int],
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
        coefs, const = _affine([(-1, lit_of[v])])
        for col in inflow[v]:
            coefs[col] = coefs.get(col, 0) + 1
        for col in outflow[v]:
            coefs[col] = coefs.get(col, 0) - 1
        if pick:
            coefs[pick[v]] = coefs.get(pick[v], 0) + root_supply
        r, c = grid.cell(v)
        _add_row(low, f"flowbal_{key}_{r}_{c}", coefs, const, 0, 0 if exact else None)


def _lower_flow(low: _Lowered, con: Connected, key: str) -> None:
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
            _add_row(low, f"pickone_{key}", one, 0, 1, 1)
        else:
            _add_row(low, f"pickone_{key}", one, 0, None, 1)
            # sum x <= n * sum r: a nonempty region picks its root.
            coefs, const = _affine([(1, lit_of[v]) for v in sorted(lit_of)])
            for col in pick.values():
                coefs[col] = coefs.get(col, 0) - n
            _add_row(low, f"pickneeded_{key}", coefs, const, None, 0)
    # in - out = x_v with roots; without, in - out >= x_v - n * r_v: the
    # root sends up to n - 1 units and receives none.
    _balance_rows(low, con, key, arc_col, pick, n, exact=bool(roots))


def _lower_sized_flow(low: _Lowered, con: Connected, key: str) -> None:
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


def _pick_first(low: _Lowered, con: Connected, key: str) -> dict[int, int]:
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
    _add_row(low, f"pickone_{key}", {col: 1 for col in pick.values()}, 0, 1, 1)
    cand = sorted(lit_of)
    cover: dict[int, list[int]] = {u: [] for u in cand}
    for i, v in enumerate(cand):
        for u in grid.distances(set(cand[i:]), v, limit=k - 1):
            cover[u].append(v)
    for u in cand:
        coefs, const = _affine([(1, lit_of[u])])
        for v in cover[u]:
            coefs[pick[v]] = coefs.get(pick[v], 0) - 1
        r, c = grid.cell(u)
        _add_row(low, f"pickfirst_{key}_{r}_{c}", coefs, const, None, 0)
    return pick


_LAYER_TAGS = {"depth": "depth", "position": "pos"}
"""Column-name prefix of each layered family (``depth_...``, ``pos_...``)."""


def _layer_column(low: _Lowered, family: str, key: str, region: str, v: int, t: int) -> int:
    """A binary column ``family[v, t]`` (cell ``v`` at depth or position ``t``); returns its index.

    Named ``<tag>_<key>_<row>_<col>_<t>`` in files; the sidecar gives the
    cell and ``t`` as the value.
    """
    r, c = low.model.grid.cell(v)
    low.columns.append(_Column(
        low.fresh(f"{_LAYER_TAGS[family]}_{key}_{r}_{c}_{t}"), 0, 1, True,
        {"var": f"{family}({region})[{r},{c}]={t}", "family": family,
         "cell": [r, c], "value": t, "aux": True},
    ))
    return len(low.columns) - 1


_DEPTH_COLUMNS = 20_000
"""A region whose depth layers would need more columns is lowered by flow."""


def _lower_depths(low: _Lowered, con: Connected, key: str) -> bool:
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
        :data:`_DEPTH_COLUMNS` columns (the caller uses flow).
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
    if sum(len(ts) for ts in slots.values()) > _DEPTH_COLUMNS:
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
        coefs, const = _affine([(-1, lit_of[v])])
        for t in range(k):
            if (v, t) in depth:
                coefs[depth[(v, t)]] = 1
        r, c = grid.cell(v)
        _add_row(low, f"depthmember_{key}_{r}_{c}", coefs, const, 0, 0)
    for (v, t), col in depth.items():
        if t == 0 or (t == 1 and anchors):
            continue  # a root, or next to an anchor
        # depth[v, t] <= sum of depth[u, t - 1] over the neighbours u of v.
        coefs = {col: 1}
        for u in grid.neighbours[v]:
            if (u, t - 1) in depth:
                coefs[depth[(u, t - 1)]] = -1
        r, c = grid.cell(v)
        _add_row(low, f"depthabove_{key}_{r}_{c}_{t}", coefs, 0, None, 0)
    return True


_POSITION_COLUMNS = 20_000
"""A path whose position formulation would need more columns is lowered by flow."""


def _lower_positions(low: _Lowered, con: Connected, key: str) -> bool:
    """The position formulation of a path of known length (see the module docstring).

    Returns:
        False, adding nothing, when the path would need more than
        :data:`_POSITION_COLUMNS` position columns (the caller uses flow).
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
    if sum(len(ts) for ts in slots.values()) > _POSITION_COLUMNS:
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
        coefs, const = _affine([(-1, lit_of[v])])
        for t in slots.get(v, ()):
            coefs[pos[(v, t)]] = 1
        r, c = grid.cell(v)
        _add_row(low, f"posmember_{key}_{r}_{c}", coefs, const, 0, 0)
    for t in range(length):
        # Every position holds exactly one cell (an empty one: infeasible).
        _add_row(low, f"posone_{key}_{t}", {col: 1 for col in at[t]}, 0, 1, 1)
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
            _add_row(low, f"{tag}_{key}_{r}_{c}_{t}", coefs, 0, None, 0)
        for u in grid.neighbours[v]:
            if u not in cand:
                continue
            # The path is induced (its degree rows count member neighbours),
            # so a member next to v is v's predecessor or successor:
            # pos[v, t] + x_u <= 1 + pos[u, t - 1] + pos[u, t + 1].
            coefs, const = _affine([(1, lit_of[u])])
            coefs[col] = coefs.get(col, 0) + 1
            for near in (t - 1, t + 1):
                if (u, near) in pos:
                    coefs[pos[(u, near)]] = coefs.get(pos[(u, near)], 0) - 1
            ur, uc = grid.cell(u)
            _add_row(low, f"posnext_{key}_{r}_{c}_{t}_{ur}_{uc}", coefs, const, None, 1)
    return True


# ---------------------------------------------------------------------------
# Pyomo


class _PyomoModel:
    """A :class:`_Lowered` model as a Pyomo ConcreteModel.

    Attributes:
        pm: the ConcreteModel; columns are ``pm.x[j]``, rows ``pm.rows[i]``,
            lazy cuts ``pm.cuts[k]``, rows lowered later (a session's
            blocking clauses) ``pm.added[k]``.
        labels: ``id(component data) -> label`` for the writers' labeler.
    """

    def __init__(self, low: _Lowered, for_file: bool = False):
        import pyomo.environ as pe
        from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

        self._pe = pe
        self._linear = LinearExpression
        self._mono = MonomialTermExpression
        self.low = low
        pm = pe.ConcreteModel(name=_sanitize(low.model.name) or "gridlang")
        cols = low.columns
        pm.x = pe.Var(
            range(len(cols)),
            domain=lambda m, j: pe.Binary if cols[j].binary else pe.Reals,
            bounds=lambda m, j: (cols[j].lb, cols[j].ub),
        )
        self.x = [pm.x[j] for j in range(len(cols))]
        rows = low.rows
        pm.rows = pe.Constraint(range(len(rows)), rule=lambda m, i: self._relation(rows[i]))
        if low.infeasible:
            # A row that can never hold keeps its place (and name) in files.
            pm.never = pe.Constraint(expr=self._expr({0: 0}) >= 1) if cols else None
        if low.objective is not None:
            sense, coefs, const = low.objective
            pm.obj = pe.Objective(
                expr=self._expr(coefs, const),
                sense=pe.maximize if sense is Sense.MAXIMIZE else pe.minimize,
            )
        elif for_file and cols:
            # MPS needs an objective; a puzzle without one gets "minimize 0".
            pm.obj = pe.Objective(expr=self._expr({0: 0}), sense=pe.minimize)
        pm.cuts = pe.ConstraintList()
        pm.added = pe.ConstraintList()
        self.pm = pm
        self.labels: dict[int, str] = {}
        for j, col in enumerate(cols):
            self.labels[id(self.x[j])] = col.name
        for i, row in enumerate(rows):
            self.labels[id(pm.rows[i])] = row.name
        if low.infeasible and cols:
            self.labels[id(pm.never)] = _sanitize(low.infeasible[0])
        if low.objective is not None:
            self.labels[id(pm.obj)] = "score" if low.objective[0] is Sense.MAXIMIZE else "cost"
        elif for_file and cols:
            self.labels[id(pm.obj)] = "feasibility"

    def _expr(self, coefs: dict[int, int], const: int = 0) -> Any:
        x, mono = self.x, self._mono
        args = [const] if const else []
        # A bare column for a unit coefficient: one node fewer for every
        # walker (Pyomo's standard repn, the persistent solver's row setup).
        args.extend(x[j] if a == 1 else mono((a, x[j])) for j, a in coefs.items())
        return self._linear(args)

    def _relation(self, row: _Row) -> Any:
        body = self._expr(row.coefs)
        if row.lo is not None and row.hi is not None:
            if row.lo == row.hi:
                return body == row.lo
            return self._pe.inequality(row.lo, body, row.hi)
        if row.lo is not None:
            return body >= row.lo
        return body <= row.hi

    def add_cut(self, name: str, coefs: dict[int, int], const: int, hi: int) -> Any:
        """Append the row ``coefs.x + const <= hi`` to ``pm.cuts``; return its data."""
        con = self.pm.cuts.add(self._expr(coefs) <= hi - const)
        self.labels[id(con)] = name
        return con

    def add_row(self, row: _Row) -> Any:
        """Append ``row`` (lowered after the build) to ``pm.added``; return its data."""
        con = self.pm.added.add(self._relation(row))
        self.labels[id(con)] = row.name
        return con

    def labeler(self, obj: Any) -> str:
        """Label for the Pyomo writers: gridlang's names, Pyomo's for the rest."""
        name = self.labels.get(id(obj))
        return name if name is not None else _sanitize(obj.name)

    def set_values(self, assignment: Assignment) -> None:
        """Give the IR columns the values of ``assignment`` (a warm start)."""
        for v, val in enumerate(assignment.values):
            self.x[v].set_value(1 if val else 0, skip_validation=True)

    def values(self) -> list[float | None]:
        """Current values of all columns (None where the solver left none)."""
        return [v.value for v in self.x]


def to_pyomo(model: Model, connectivity: str = _FLOW) -> tuple[Any, Callable[[Any], str]]:
    """The MILP of ``model`` as a Pyomo ConcreteModel, for use outside gridlang.

    Args:
        model: the compiled puzzle.
        connectivity: ``flow`` (a complete model), ``cuts`` (the relaxation
            the cut loop starts from: connectivity is missing) or ``auto``
            (positions and depth layers where they apply; the regions
            left to the cut loop are missing).

    Returns:
        ``(concrete_model, label)``: columns are ``concrete_model.x[j]`` (IR
        variable ``j + 1`` for ``j < model.num_vars``, then flow and
        root-selection columns), rows ``concrete_model.rows[i]``; ``label``
        maps any of them to its gridlang name (``wall_3_4``,
        ``clause_12_L22``), the names the LP/MPS files use. Pass it to
        Pyomo's writers as ``labeler``.

    Raises:
        BackendError: ``connectivity`` is not ``flow``, ``cuts`` or
            ``auto``, or a region's root lies outside its members.
    """
    if connectivity not in (_AUTO, _FLOW, _CUTS):
        raise BackendError(f"backend 'milp' has no connectivity strategy {connectivity!r}")
    pyo = _PyomoModel(_lower(MilpBackend().prepare(model), connectivity))
    return pyo.pm, pyo.labeler


# ---------------------------------------------------------------------------
# HiGHS

_scheduler_threads: int | None = None
"""Threads HiGHS's global scheduler was started with in this process."""


def _check_highs_options(highspy: Any, options: dict[str, object]) -> None:
    """Refuse HiGHS options that HiGHS does not have or whose value it refuses.

    Pyomo's HiGHS interface ignores a refused option without a word, so a
    misspelt name would silently change nothing; a scratch ``Highs``
    instance tries each one first.

    Raises:
        BackendError: an unknown option name or a value HiGHS refuses.
    """
    scratch = highspy.Highs()
    scratch.setOptionValue("output_flag", False)
    for name, value in options.items():
        status, _ = scratch.getOptionType(name)
        if status != highspy.HighsStatus.kOk:
            raise BackendError(f"HiGHS has no option {name!r}")
        try:
            accepted = scratch.setOptionValue(name, value) == highspy.HighsStatus.kOk
        except TypeError:  # a value of no type HiGHS knows (a list, a dict)
            accepted = False
        if not accepted:
            raise BackendError(f"HiGHS refuses the value {value!r} for its option {name!r}")


def _set_threads(highs: Any, threads: int | None) -> None:
    """Ask for ``threads`` HiGHS threads (None: leave HiGHS's default).

    HiGHS keeps one task scheduler per process and refuses a run whose
    ``threads`` option differs from the running scheduler's, so the scheduler
    is restarted whenever an explicit count differs from the last one set
    here (or none was set here: another caller may have started it).
    """
    global _scheduler_threads
    if threads is None:
        return
    if _scheduler_threads != threads:
        highs.resetGlobalScheduler(True)
        _scheduler_threads = threads
    highs.setOptionValue("threads", threads)


def _assignment(model: Model, values: list[float | None]) -> Assignment:
    """Round the IR columns of a solver answer to an assignment.

    Raises:
        BackendError: a binary column is fractional beyond the tolerance.
    """
    out = []
    for v in range(model.num_vars):
        val = values[v]
        if val is None:
            out.append(False)  # in no row and not in the objective: free
            continue
        if abs(val - round(val)) > _BINARY_TOL:
            raise BackendError(f"variable {model.variables[v]} has the fractional value {val}")
        out.append(val > 0.5)
    return Assignment(tuple(out))


def _integral_bound(bound: float | None, sense: Sense | None) -> float | None:
    """A proved bound on an integer-valued objective, rounded towards the incumbent."""
    if bound is None or sense is None or math.isinf(bound) or math.isnan(bound):
        return None
    if sense is Sense.MAXIMIZE:
        return float(math.floor(bound + _INT_TOL * max(1.0, abs(bound))))
    return float(math.ceil(bound - _INT_TOL * max(1.0, abs(bound))))


_DEFAULTS: dict[str, object] = {"warmstart": True, "pool_cuts": True, "seed_cuts": 1, "highs_options": {}}
"""The settings :meth:`MilpBackend.solve` reads as ``milp.NAME`` from ``SolveOptions.extra``."""

_POOL_LIMIT = 20
"""At most this many of HiGHS's saved solutions are separated per round."""


def _saved_answers(opt: Any, pyo: _PyomoModel, model: Model, limit: int) -> list[Assignment]:
    """The improving solutions HiGHS saved in its last run, as assignments.

    Needs the HiGHS option ``mip_improving_solution_save``. Columns the
    persistent interface never loaded (in no row yet) count as false;
    fractional or malformed entries are skipped.
    """
    col_of = opt._pyomo_var_to_solver_var_map
    index = [col_of.get(id(pyo.x[v])) for v in range(model.num_vars)]
    out = []
    for sol in list(opt._solver_model.getSavedMipSolutions())[-limit:]:
        values = sol.col_value
        try:
            out.append(Assignment(tuple(i is not None and values[i] > 0.5 for i in index)))
        except (IndexError, TypeError):
            continue
    return out


class _Oracle:
    """The driver's view of a model loaded into HiGHS: one HiGHS run per call.

    A run stopped by a relative gap (HiGHS says optimal, but its bound is
    not the answer's value) counts as feasible, not proved. With
    ``pool``, HiGHS's other improving answers of the run come along, for
    more cuts per round and more repairs; with ``warmstart``, the next run
    starts from the best repaired answer (appsi hands the Pyomo values to
    ``Highs.setSolution``).
    """

    improving = False

    def __init__(self, model: Model, low: _Lowered, pyo: _PyomoModel, opt: Any, highs: Any, highspy: Any,
                 TC: Any, pool: bool, warmstart: bool):
        self.model, self.low, self.pyo, self.opt, self.highs = model, low, pyo, opt, highs
        self.highspy, self.TC = highspy, TC
        self.pool, self.warmstart = pool, warmstart
        self.sense = model.objective.sense if model.objective is not None else None
        self.solver_seconds = 0.0

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        opt, highs, TC = self.opt, self.highs, self.TC
        remaining = deadline.remaining()
        opt.config.time_limit = None if remaining is None else max(remaining, 0.01)
        t = time.perf_counter()
        # cancelSolve takes effect at HiGHS's next interrupt check, which can
        # be seconds away in presolve or the root node; run_solver then
        # leaves the run behind (SolverAbandoned).
        highs.HandleUserInterrupt = True
        highs._Highs__solver_should_stop = False  # cancelSolve's flag, left set by an earlier stop
        # A run stopped by cancelSolve ends in HiGHS's kInterrupt, which appsi
        # does not know and reports in a warning on stdout (Pyomo's log
        # handler): that would break --json, and the round is reported anyway.
        quiet = _DropMessage("Received unhandled status")
        appsi_log = logging.getLogger("pyomo.contrib.appsi.solvers.highs")
        appsi_log.addFilter(quiet)
        try:
            res = run_solver(deadline, lambda: opt.solve(self.pyo.pm), highs.cancelSolve)
        finally:
            appsi_log.removeFilter(quiet)
        self.solver_seconds += time.perf_counter() - t
        tc = res.termination_condition
        bound = _integral_bound(res.best_objective_bound, self.sense)
        if tc in (TC.infeasible, TC.infeasibleOrUnbounded):
            # Every column is bounded, so "infeasible or unbounded" is infeasible.
            return Round("infeasible")
        if highs.getModelStatus() == self.highspy.HighsModelStatus.kModelEmpty:
            tc = TC.optimal  # no row and no objective reached HiGHS: every column is free
        elif highs.getInfo().primal_solution_status != 2:
            return Round("unknown", bound=bound)
        else:
            opt.load_vars()
        found = _assignment(self.model, self.pyo.values())
        proved = tc is TC.optimal and (bound is None or self.model.objective is None
                                       or bound == self.model.objective.value(found))
        others = _saved_answers(opt, self.pyo, self.model, limit=_POOL_LIMIT) if self.pool else ()
        return Round("optimal" if proved else "feasible", found, bound, others)

    def add(self, cuts: list[Linear]) -> None:
        new = []
        for cut in cuts:
            coefs, const = _affine(cut.terms)
            new.append(self.pyo.add_cut(f"cut_{len(self.pyo.pm.cuts) + 1}", coefs, const, cut.rhs))
        self.opt.add_constraints(new)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        # The columns hold the disconnected answer, which the new cuts reject.
        self.opt.config.warmstart = self.warmstart and best is not None
        if best is not None:
            self.pyo.set_values(best)


class MilpBackend(Backend):
    """MILP through Pyomo and HiGHS; LP and MPS files for any MILP solver."""

    name = "milp"
    library = "pyomo"
    description = "mixed-integer linear program (Pyomo), solved by HiGHS; writes LP and MPS"
    connectivity = (_AUTO, _CUTS, _FLOW)
    formats = ("lp", "mps")
    imports = ("highspy", "pyomo.environ", "pyomo.contrib.appsi.solvers.highs")
    native = frozenset({Clause, Linear, Connected})

    def __init__(self) -> None:
        self.notes: list[str] = []
        """Remarks from the last :meth:`write` (for example: cuts replaced by flow)."""

    # -- solving ------------------------------------------------------------

    def solve(self, model: Model, options: SolveOptions) -> Result:
        """Solve ``model`` with HiGHS through Pyomo's persistent interface.

        Args:
            model: the compiled puzzle.
            options: ``time_limit`` (seconds, over all cut rounds), ``workers``
                (HiGHS threads), ``mip_gap`` (relative; default: an absolute
                gap below 1, exact for the integer objective), ``log`` (HiGHS
                log on stderr), ``connectivity`` (``cuts`` or ``flow``), and
                ``extra["milp.warmstart"]`` (bool, default True: start each
                cut round from the best repaired answer so far) and
                ``extra["milp.pool_cuts"]`` (bool, default True: also separate
                the other improving solutions HiGHS found in a round),
                ``extra["milp.seed_cuts"]`` (0, 1 or 2; default 1: add the
                one-cell, or one- and two-cell, separator cuts of
                :func:`gridlang.connectivity.seed_cuts` to the
                regions left to the cut loop before the first solve) and ``extra["milp.highs_options"]`` (a dict of
                HiGHS options, applied last; one at a time as
                ``extra["milp.highs_options.NAME"]``, the command line's
                ``--set milp.highs_options.presolve=off``).

        Returns:
            A :class:`Result`; ``objective`` is the score recomputed from the
            assignment (constant included), ``bound`` the solver's proved
            bound rounded to an integer. ``stats`` holds ``connectivity``
            (the strategy), ``encodings`` (region -> ``cuts``, ``flow``,
            ``positions`` or ``depths``), ``cut_rounds``, ``cuts``, ``variables``, ``constraints``,
            ``build_seconds`` (IR to Pyomo), ``load_seconds`` (Pyomo to
            HiGHS), ``solver_seconds`` (all HiGHS runs), ``learned_cuts``
            (the separator cuts added, as IR ``Linear`` rows valid for every
            solution), ``incremental`` (rows added to a session's kept model,
            see :class:`MilpSession`) and, for FEASIBLE, ``gap`` (relative). ``seconds`` leaves out the one-off import of
            Pyomo and highspy; ``time_limit`` counts it.

        Raises:
            BackendError: the strategy or a ``milp.`` setting is unknown, a
                setting has the wrong type, HiGHS has no such option or
                refuses its value, pyomo or highspy is missing, or
                the solver answer breaks the model.
        """
        return self.session(model, options).solve()

    def session(self, model: Model, options: SolveOptions) -> MilpSession:
        """A :class:`MilpSession`: HiGHS keeps the model between its solves.

        Raises:
            BackendError: an unknown strategy or setting (HiGHS options are
                checked by :meth:`MilpSession.solve`).
        """
        return MilpSession(self, model, options)

    # -- files --------------------------------------------------------------

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write ``model`` as an LP or MPS file with a sidecar ``<path>.vars.json``.

        The file encodes connectivity as the strategy would, except that
        lazy cuts exist only inside a solve loop: every node the strategy
        leaves to the cut loop gets single-commodity flow. So ``auto`` (the
        default) writes positions for a path of known length and flow for
        every region, ``flow`` and ``cuts`` write flow for everything. When
        ``options.connectivity`` asks for ``cuts`` the header says so and the
        remark is logged and kept in :attr:`notes`; nothing is raised. The
        header names the encoding of each region. Labels are gridlang's (``wall_3_4``,
        ``flow_pen_3_4_3_5``, rows ``clause_12_L22``); the output is
        byte-for-byte the same for the same model.

        Args:
            model: the compiled puzzle.
            path: the file to write.
            fmt: ``lp`` (CPLEX LP, through Pyomo's LP writer) or ``mps`` (free
                MPS, through Pyomo's MPS writer).
            options: only ``connectivity`` is read (None: ``auto``).

        Returns:
            ``[path, path + ".vars.json"]``. The sidecar maps each column
            label to ``{"var", "family", "cell": [row, col] or null, "value",
            "aux"}`` (``aux`` marks flow, position and root-selection columns; IR
            columns also carry ``index``, the IR variable number).

        Raises:
            BackendError: ``fmt`` is not ``lp`` or ``mps``, or the strategy is
                not one this backend offers.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'milp' writes {' and '.join(self.formats)}, not {fmt!r}")
        requested = self.strategy(options)
        self.notes = []
        if requested == _CUTS:
            note = ("lazy separator cuts cannot live in a file; "
                    "the file uses single-commodity flow for connectivity")
            self.notes.append(note)
            logger.info(note)  # the CLI prints backend.notes
        low = _lower(self.prepare(model), requested, for_file=True)
        pyo = _PyomoModel(low, for_file=True)
        body = _write_body(pyo, fmt)
        header = _header_lines(model, low, requested)
        out = Path(path)
        if fmt == "lp":
            text = "".join(f"\\ {line}\n" for line in header) + body
        else:
            text = "".join(f"* {line}\n" for line in header) + body
        with open(out, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        sidecar = str(out) + ".vars.json"
        with open(sidecar, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(_sidecar_text(low, "ONE_VAR_CONSTANT" in body))
        return [str(out), sidecar]

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read an external solver's solution of a model this backend wrote.

        The file goes through :func:`gridlang.readers.read_mip_solution`
        (HiGHS raw and pretty, Gurobi, SCIP and CBC; the last two list only
        nonzero columns, so a missing column is 0 there); this maps its
        column names to the IR variables. Flow, position, root-selection and
        Pyomo's ``ONE_VAR_CONSTANT`` columns, of a file written with any
        strategy, are accepted and ignored. Binary values within 1e-4 of 0
        or 1 are rounded.

        Args:
            model: the model the file was written for (same spec, map and
                parameters).
            path: the solution file.

        Returns:
            The assignment of the IR variables.

        Raises:
            MapError: the file cannot be read, names a column the model does
                not have, lacks a column the model file has, gives a
                non-number or non-binary value, or holds no primal solution;
                its span points at the offending line (for a missing column,
                at the line that opens the column list).
        """
        # The file may come from any strategy; their IR columns are the same
        # and come first, and their auxiliary columns are read and ignored.
        model = self.prepare(model)
        low = _lower(model, _FLOW)
        aux = {col.name for lowered in (low, _lower(model, _AUTO, for_file=True))
               for col in lowered.columns[model.num_vars:]}
        sol = read_mip_solution(str(path))
        by_name = {col.name: j for j, col in enumerate(low.columns)}
        out: list[bool] = [False] * model.num_vars
        seen: set[int] = set()
        for name, (val, line, col) in sol.values.items():
            j = by_name.get(name)
            if j is None:
                if name == "ONE_VAR_CONSTANT" or name in aux:
                    continue
                raise sol.error(f"the model has no column named {name!r}", line, col, col + len(name))
            if j >= model.num_vars:
                continue  # flow or root selection
            if abs(val - round(val)) > _BINARY_TOL or not -_BINARY_TOL <= val <= 1 + _BINARY_TOL:
                raise sol.error(f"column {name!r} is binary but has the value {val}", line, col, col + len(name))
            out[j] = val > 0.5
            seen.add(j)
        missing = [low.columns[j].name for j in sorted(low.used_columns()) if j < model.num_vars and j not in seen]
        if missing and not sol.sparse:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            raise sol.error(f"the solution gives no value for column {missing[0]!r}{more}", sol.columns_line)
        return Assignment(tuple(out))


class _Kept:
    """What a :class:`MilpSession` keeps between solves."""

    def __init__(self, low: _Lowered, pyo: _PyomoModel, opt: Any, highs: Any, model: Model):
        self.low = low
        self.pyo = pyo
        self.opt = opt
        self.highs = highs
        self.model = model
        """The model whose constraints are lowered into ``low``."""
        self.pending: list[Clause | Linear] = []
        """Constraints added since, lowered by the next solve."""


class MilpSession(Session):
    """A MILP kept in HiGHS between solves, for uniqueness and counting runs.

    The first :meth:`solve` lowers the model and loads it into HiGHS as
    :meth:`MilpBackend.solve` describes. Each later one lowers only the
    clauses and linear rows added since and appends them as rows to the
    persistent HiGHS model, so a run pays the Pyomo build and load once;
    the cuts the loop added stay in the
    model. A :class:`~gridlang.ir.Connected` added makes the next solve
    build everything again. ``stats["incremental"]`` tells whether a solve
    reused the kept model.

    Raises:
        BackendError: at creation, an unknown strategy or setting.
    """

    def __init__(self, backend: MilpBackend, model: Model, options: SolveOptions):
        super().__init__(backend, model, options)
        self.strategy = backend.strategy(options)
        self.settings = backend.settings(options, _DEFAULTS)
        if self.settings["seed_cuts"] not in (0, 1, 2):
            raise BackendError(f"setting 'seed_cuts' is 0, 1 or 2, not {self.settings['seed_cuts']!r}")
        self._kept: _Kept | None = None

    def add(self, constraints: Iterable[Constraint]) -> None:
        """Require ``constraints`` in every later solve (see the class docstring)."""
        new = tuple(constraints)
        self.extra.extend(new)
        if self._kept is not None:
            if all(isinstance(c, (Clause, Linear)) for c in new):
                self._kept.pending.extend(new)
            else:
                self._kept = None

    def solve(self) -> Result:
        """Solve with everything added so far; see :meth:`MilpBackend.solve`.

        Raises:
            BackendError: highspy or Pyomo missing, a HiGHS option refused,
                or the solver's answer breaks the model.
        """
        options, settings = self.options, self.settings
        if options.clock().expired():
            return Result(Status.UNKNOWN, stats={"connectivity": self.strategy, "cut_rounds": 0, "cuts": 0})
        t = time.perf_counter()
        try:
            import highspy
            import pyomo.environ  # noqa: F401  (the first import takes ~0.3 s)
            from pyomo.contrib.appsi.base import TerminationCondition as TC
            from pyomo.contrib.appsi.solvers.highs import Highs
        except ImportError as e:  # pragma: no cover - dependency problem
            raise BackendError(f"backend 'milp' is not available: {e}") from e
        _check_highs_options(highspy, settings["highs_options"])
        from pyomo.common.gc_manager import PauseGC

        # Timing starts after the imports, which a process pays once.
        start = time.perf_counter()
        # The cyclic garbage collector rescans every live object (Pyomo's and
        # the caller's) each time enough new ones appear; paused, as Pyomo's
        # own writers do, it stops interrupting the build (see the timings in
        # docs/benchmarks.md). Nothing here needs it: the model's objects
        # are freed by reference counting when the session is dropped.
        with PauseGC():
            return self._solve(start, highspy, TC, Highs)

    def _solve(self, start: float, highspy: Any, TC: Any, Highs: Any) -> Result:
        """The body of :meth:`solve`, after the imports."""
        settings, strategy = self.settings, self.strategy
        kept = self._kept
        if kept is None:
            model = self.model.with_constraints(tuple(self.extra)) if self.extra else self.model
            low = _lower(self.backend.prepare(model), strategy, int(settings["seed_cuts"]))
        else:
            low = kept.low
            model = kept.model.with_constraints(tuple(kept.pending))
            first_new = len(low.rows)
            for k, con in enumerate(kept.pending, start=len(kept.model.constraints) + 1):
                _lower_row(low, con, k)
        stats: dict[str, object] = {"connectivity": strategy, "encodings": dict(low.encodings),
                                    "cut_rounds": 0, "cuts": 0, "incremental": kept is not None}
        if low.infeasible:
            self._kept = None  # rows lowered but not loaded: rebuild if asked again
            seconds = time.perf_counter() - start
            stats.update(variables=len(low.columns), constraints=len(low.rows),
                         build_seconds=seconds, reason=f"row {low.infeasible[0]} can never hold")
            return Result(Status.INFEASIBLE, seconds=seconds, build_seconds=seconds, stats=stats)
        warmstart = bool(settings["warmstart"])
        pool = bool(low.lazy) and bool(settings["pool_cuts"])
        if kept is not None:
            pyo, opt, highs = kept.pyo, kept.opt, kept.highs
            added = [pyo.add_row(row) for row in low.rows[first_new:]]
            build_seconds = time.perf_counter() - start
            t = time.perf_counter()
            opt.add_constraints(added)
            stats["load_seconds"] = time.perf_counter() - t
            kept.model = model
            kept.pending.clear()
            # The columns hold the last answer, which the new rows block.
            opt.config.warmstart = False
        else:
            pyo, opt, highs, build_seconds = self._load(model, low, start, warmstart, pool, stats, Highs)
            self._kept = _Kept(low, pyo, opt, highs, model)

        oracle = _Oracle(model, low, pyo, opt, highs, highspy, TC, pool=pool, warmstart=warmstart)
        out = lazy_solve(model, oracle, [con for _, con in low.lazy], self.options.clock())
        stats.update(out.stats)
        if out.stats["abandoned"]:
            self._kept = None  # HiGHS still runs on it in another thread
        # Valid for every answer, so the next solve (a uniqueness check)
        # starts where this loop stopped: they stay in the kept model, and a
        # rebuild lowers them from here.
        self.extra.extend(out.stats["learned_cuts"])
        stats["variables"] = len(low.columns)
        stats["constraints"] = len(low.rows) + len(pyo.pm.cuts)
        stats["build_seconds"] = build_seconds
        stats["solver_seconds"] = oracle.solver_seconds
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        if status is Status.FEASIBLE and out.objective is not None and out.bound is not None:
            stats["gap"] = abs(out.bound - out.objective) / max(1.0, abs(out.objective))
        return Result(
            status=status,
            assignment=out.assignment,
            objective=out.objective,
            bound=out.bound,
            seconds=time.perf_counter() - start,
            build_seconds=build_seconds,
            stats=stats,
        )

    def _load(self, model: Model, low: _Lowered, start: float, warmstart: bool, pool: bool,
              stats: dict[str, object], Highs: Any) -> tuple[_PyomoModel, Any, Any, float]:
        """Build the Pyomo model of ``low`` and load it into a new persistent HiGHS."""
        options, settings = self.options, self.settings
        pyo = _PyomoModel(low)
        build_seconds = time.perf_counter() - start
        # only_child_vars: load every column in one call instead of one per row.
        opt = Highs(only_child_vars=True)
        if not opt.available():
            raise BackendError("backend 'milp' needs highspy, which is not installed")
        opt.config.load_solution = False
        opt.config.warmstart = warmstart
        for flag in ("check_for_new_or_removed_constraints", "check_for_new_or_removed_vars",
                     "check_for_new_or_removed_params", "check_for_new_objective",
                     "update_constraints", "update_vars", "update_params",
                     "update_named_expressions", "update_objective"):
            setattr(opt.update_config, flag, False)
        highs_options: dict[str, object] = {"output_flag": bool(options.log)}
        if pool:
            highs_options["mip_improving_solution_save"] = True
        if options.mip_gap is not None:
            highs_options["mip_rel_gap"] = options.mip_gap
        elif model.objective is not None:
            highs_options["mip_rel_gap"] = 0.0
            highs_options["mip_abs_gap"] = 1.0 - 1e-6
        highs_options.update(settings["highs_options"])
        opt.highs_options = highs_options
        if options.log:
            log = logging.getLogger("gridlang.milp.highs")
            if not log.handlers:
                import sys

                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(logging.Formatter("%(message)s"))
                log.addHandler(handler)
                log.propagate = False
            log.setLevel(logging.INFO)
            opt.config.solver_output_logger = log
            opt.config.log_level = logging.INFO

        t = time.perf_counter()
        opt.set_instance(pyo.pm)
        highs = opt._solver_model
        _set_threads(highs, options.workers)
        stats["load_seconds"] = time.perf_counter() - t
        return pyo, opt, highs, build_seconds


def _header_lines(model: Model, low: _Lowered, requested: str) -> list[str]:
    lines = [f"gridlang model of puzzle {model.name!r}"]
    for key in sorted(model.info):
        lines.append(f"{key}: {model.info[key]}")
    for key in sorted(model.params):
        lines.append(f"param {key} = {model.params[key]}")
    used = sorted(set(low.encodings.values()))
    if used in ([], [_FLOW]):
        enc = "connectivity: " + _ENCODING_TEXT[_FLOW]
    else:
        # Name the regions of each encoding: "path positions (kind_snake); ...".
        enc = "connectivity: " + "; ".join(
            f"{_ENCODING_TEXT[e]} ({', '.join(k for k, v in low.encodings.items() if v == e)})"
            for e in used)
    if requested == _CUTS:
        enc += f" (requested: {_ENCODING_TEXT[requested]}, which cannot live in a file)"
    lines.append(enc)
    lines.append("columns: see the sidecar .vars.json; rows end in _L<line> of the spec")
    # One line per header entry, whatever the values hold.
    return [" ".join(line.split()) for line in lines]


def _write_body(pyo: _PyomoModel, fmt: str) -> str:
    """The LP or MPS text of ``pyo`` from Pyomo's own writers, with gridlang's labels."""
    import io
    import os
    import tempfile

    if fmt == "lp":
        from pyomo.repn.plugins.lp_writer import LPWriter

        buf = io.StringIO()
        LPWriter().write(pyo.pm, buf, labeler=pyo.labeler)
        return buf.getvalue()
    from pyomo.opt import WriterFactory

    writer = WriterFactory("mps")
    fd, tmp = tempfile.mkstemp(suffix=".mps")
    os.close(fd)
    # A puzzle without objective is written as "minimize 0"; the MPS writer
    # warns about the constant objective, which says nothing to the user.
    quiet = _DropMessage("Constant objective detected")
    pyomo_log = logging.getLogger("pyomo.core")
    pyomo_log.addFilter(quiet)
    try:
        writer(pyo.pm, tmp, lambda capability: True, {"labeler": pyo.labeler})
        with open(tmp, encoding="utf-8") as fh:
            return fh.read()
    finally:
        pyomo_log.removeFilter(quiet)
        os.unlink(tmp)


class _DropMessage(logging.Filter):
    """Drop log records whose message starts with ``prefix``."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.prefix)


def _sidecar_text(low: _Lowered, has_constant: bool) -> str:
    used = low.used_columns()
    table: dict[str, dict[str, object]] = {}
    for j, col in enumerate(low.columns):
        if j in used:
            table[col.name] = col.entry
    if has_constant:
        table["ONE_VAR_CONSTANT"] = {"var": "constant 1 (carries the objective constant)",
                                     "family": "constant", "cell": None, "value": None, "aux": True}
    # One column per line: readable, diffable, and still one JSON object.
    lines = [f" {json.dumps(name)}: {json.dumps(entry)}" for name, entry in table.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"
