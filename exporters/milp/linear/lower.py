"""The IR lowered to columns and rows: clauses, linear rows, the objective, and the choice of connectivity encoding.

* :class:`~gridlang.ir.model.Clause` ``l_1 | ... | l_k`` is the row
  ``sum l_i >= 1``; a clause holding ``v`` and ``-v`` is dropped.
* :class:`~gridlang.ir.model.Linear` ``sum a_i l_i OP b`` is the same row. With
  ``enforce`` literals it goes through :mod:`gridlang.exporters.milp.linear.reified`: two
  rows on the same terms switched by ``e`` and ``~e`` become one row per
  side (``L + (c - a) e <= c``), a side that forces every term to its
  bound becomes one implication row per term, and the rest is relaxed by
  big-M (``L <= b + M * sum (1 - e_j)``, ``M = max(L) - b``).
* :class:`~gridlang.ir.model.Connected` goes to one of the encodings of
  :mod:`gridlang.exporters.milp.linear.connected` by strategy: ``flow`` for every node,
  ``cuts`` (the lazy cut loop: no rows but the roots and the seeds) for
  every node, or ``auto``: positions for a path of known length, depth
  layers for a region of known size (2 or more), the cut loop for the rest
  (a horse's pen). A file has no cut loop, so for a file every node the
  strategy leaves to it gets flow.
* :class:`~gridlang.ir.model.EqualBlocks` gets the lazy cuts of
  :func:`gridlang.ir.connectivity.blocks.block_cuts` under ``auto`` and
  ``cuts``, and the flow inside each block of :mod:`gridlang.exporters.milp.linear.blocks`
  under ``flow`` and in a file. On the two real 6x6 and 5x5 Fillominos
  (``puzzles/instances/fillomino``) the cut loop proved the answer unique in
  10 to 16 s, where the flow had not in 120 s (docs/language.md, "Blocks
  and runs").
* The :class:`~gridlang.ir.model.Objective` keeps its constant, so the solver's
  objective is the puzzle's score.
"""

from __future__ import annotations

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.exporters.milp.linear.blocks import lower_blocks
from gridlang.exporters.milp.linear.connected import lower_depths, lower_flow, lower_positions, lower_roots, lower_seeds
from gridlang.exporters.milp.linear.form import Column, LinearForm, add_row, sanitize, span_tag
from gridlang.exporters.milp.linear.reified import lower_guarded, pair_halves
from gridlang.ir.model import Clause, Cmp, Connected, EqualBlocks, GraphConnected, Linear, Model, affine

AUTO = "auto"
FLOW = "flow"
CUTS = "cuts"
POSITIONS = "positions"
DEPTHS = "depths"
ENCODING_TEXT = {
    AUTO: "positions for paths, depth layers for regions of known size, lazy cuts otherwise",
    FLOW: "single-commodity flow",
    CUTS: "lazy vertex-separator cuts",
    POSITIONS: "path positions",
    DEPTHS: "depth layers",
}
"""What each strategy and encoding is called in file headers."""


def encoding_of(con: Connected, strategy: str) -> str:
    """How ``strategy`` lowers ``con``: ``cuts``, ``flow``, ``positions`` or ``depths``.

    ``auto`` gives a path of known length its position formulation, a region
    of known size (2 or more) depth layers, and anything else (a horse's
    pen) the lazy cut loop; the other strategies apply to every node.
    """
    if strategy != AUTO:
        return strategy
    if con.path and len(con.roots) == 2 and con.size is not None:
        return POSITIONS
    if con.size is not None and con.size >= 2:
        return DEPTHS
    return CUTS


def lower_rows(model: Model, strategy: str, seed: int = 0, for_file: bool = False,
               deadline: Deadline | None = None) -> LinearForm:
    """Lower the IR to columns and rows with the given connectivity strategy.

    ``for_file`` gives flow to every node the strategy would leave to the
    cut loop (a file has no loop), so ``auto`` keeps its positions and
    depth layers. ``seed`` 1 adds the one-cell separator cuts of
    :func:`gridlang.ir.connectivity.separation.seed_cuts` to every rooted
    region up front, 2 the two-cell ones too.

    Raises:
        BackendError: a Connected node names a root outside its members.
        BuildTimeout: ``deadline`` (read every 4,096 constraints) passed first.
    """
    low = LinearForm(model, strategy, [])
    for v, var in enumerate(model.variables, start=1):
        low.columns.append(Column(low.fresh(var.identifier()), 0, 1, True,
                                  {**model.variable_record(v), "index": v, "aux": False}))
    units = {con.lits[0] for con in model.constraints if isinstance(con, Clause) and len(con.lits) == 1}
    pairs = pair_halves(model.constraints)
    keys: set[str] = set()
    for k, con in enumerate(model.constraints, start=1):
        if deadline is not None and not k & 0xFFF:
            deadline.check()
        if k - 1 in pairs:
            partner = pairs[k - 1] + 1
            if partner > k:  # the pair is lowered at its first row
                other = model.constraints[partner - 1]
                lower_guarded(low, [(_linear_name(con, k), con), (_linear_name(other, partner), other)])
        elif isinstance(con, (Clause, Linear)):
            lower_row(low, con, k)
        elif isinstance(con, EqualBlocks):
            key = f"{sanitize(con.name) or 'blocks'}_{k}"
            if strategy in (AUTO, CUTS) and not for_file:
                low.lazy.append((key, con))
                low.encodings[key] = CUTS
            else:
                lower_blocks(low, con, key)
                low.encodings[key] = FLOW
        elif isinstance(con, GraphConnected):
            # Lines: no rows; the lazy loop separates the edge cuts of gridlang.ir.connectivity.graph.
            if for_file:
                raise BackendError(f"{con.name!r} is connected through chosen edges, which only the lazy cut "
                                   "loop lowers on this backend; a file cannot hold it")
            low.lazy.append((f"{sanitize(con.name)}_{k}", con))
        else:  # Connected: the model is prepared (Backend.prepare)
            key = sanitize(con.name) or f"region{k}"
            while key in keys:
                key += f"_{k}"
            keys.add(key)
            low.regions.append((key, con))
            lower_roots(low, con, key, units)
            encoding = encoding_of(con, strategy)
            if for_file and encoding == CUTS:
                encoding = FLOW
            if encoding == CUTS:
                low.lazy.append((key, con))
                if seed:
                    lower_seeds(low, con, key, seed)
            elif not ((encoding == POSITIONS and lower_positions(low, con, key))
                      or (encoding == DEPTHS and lower_depths(low, con, key))):
                encoding = FLOW  # also a path or region too large for its layers
                lower_flow(low, con, key)
            low.encodings[key] = encoding
    if model.objective is not None:
        coefs, const = affine(model.objective.terms)
        low.objective = (model.objective.sense, coefs, model.objective.constant + const)
    return low


def lower_row(low: LinearForm, con: Clause | Linear, k: int) -> None:
    """Lower a clause or linear constraint, the ``k``-th of its model (from 1), to rows."""
    if isinstance(con, Clause):
        lits = set(con.lits)
        if any(-l in lits for l in lits):
            return  # a tautology
        coefs, const = affine((1, l) for l in sorted(lits, key=abs))
        add_row(low, f"clause_{k}{span_tag(con.span)}", coefs, const, 1, None)
        return
    enforce = set(con.enforce)
    if any(-l in enforce for l in enforce):
        return  # never switched on
    if enforce:
        lower_guarded(low, [(_linear_name(con, k), con)])
        return
    coefs, const = affine(con.terms)
    lo = con.rhs if con.op in (Cmp.GE, Cmp.EQ) else None
    hi = con.rhs if con.op in (Cmp.LE, Cmp.EQ) else None
    add_row(low, _linear_name(con, k), coefs, const, lo, hi)


def _linear_name(con: Linear, k: int) -> str:
    """``linear_12_L22``: the label stem of the ``k``-th constraint's rows."""
    return f"linear_{k}{span_tag(con.span)}"
