"""The MaxSAT form of a prepared model: hard clauses, weighted soft clauses, and cut seeds.

Used by the maxsat backend (``exporters/maxsat/backend.py``): its clauses and
connectivity nodes become DIMACS clauses; the objective becomes soft unit
clauses (:func:`gridlang.ir.transforms.soft_objective`); each connectivity node
is left to the lazy cut loop, seeded with the separator cuts of its cut
vertices (:func:`gridlang.ir.connectivity.separation.seed_cuts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from gridlang.core.deadline import Deadline
from gridlang.ir.connectivity.separation import cut_clause, seed_cuts
from gridlang.ir.connectivity.blocks import seed_block_cuts
from gridlang.ir.model import Clause, Connected, EqualBlocks, Model, Sense
from gridlang.ir.transforms import soft_objective


@dataclass
class Lowered:
    """A prepared model (clauses and connectivity nodes only) as the solver's clauses.

    Attributes:
        hard: hard clauses (sequences of DIMACS literals).
        soft: ``(weight, clause)`` pairs, weights positive integers.
        offset: the objective is ``offset - cost`` when maximising and
            ``offset + cost`` when minimising (``cost``: total weight of the
            falsified soft clauses).
        sense: the objective's sense, or None without an objective.
        top: the highest DIMACS variable in use.
        lazy: connectivity nodes left to the cut loop.
    """

    hard: list[Sequence[int]] = field(default_factory=list)
    soft: list[tuple[int, list[int]]] = field(default_factory=list)
    offset: int = 0
    sense: Sense | None = None
    top: int = 0
    lazy: list[Connected] = field(default_factory=list)


def lower(model: Model, seed: bool = True, seed_pairs: bool = False, deadline: Deadline | None = None) -> Lowered:
    """Lower a prepared model (see the maxsat backend's ``solve``) to hard and soft clauses.

    Args:
        model: a model of :class:`~gridlang.ir.model.Clause` and
            :class:`~gridlang.ir.model.Connected` nodes only (its linear rows, and
            with ``tree`` connectivity its connectivity nodes too, decomposed
            by :meth:`~gridlang.ir.backend.Backend.prepare`).
        seed: start the cut loop of each connectivity node from the
            one-cell separator cuts of :func:`gridlang.ir.connectivity.separation.seed_cuts`;
            ``seed_pairs`` adds its two-cell separators.
        deadline: read every 65,536 constraints and between the phases.

    Returns:
        The clauses, the soft clauses and the objective's offset; the
        connectivity nodes are left to the cut loop (:attr:`Lowered.lazy`).

    Raises:
        BuildTimeout: ``deadline`` expired first.
    """
    check = deadline.check if deadline is not None else (lambda: None)
    out = Lowered()
    for k, con in enumerate(model.constraints):
        if not k & 0xFFFF:
            check()
        if isinstance(con, Clause):
            out.hard.append(con.lits)
        elif isinstance(con, EqualBlocks):
            out.lazy.append(con)
            if seed:
                out.hard.extend(seed_block_cuts(model.grid, con))
        else:
            # Roots are members (the compiler says so too; repeating it is free).
            lit_of = dict(con.members)
            for r in con.roots:
                out.hard.append([lit_of[r]] if r in lit_of else [])
            out.lazy.append(con)
            if seed and isinstance(con, Connected):
                out.hard.extend(cut_clause(c) for c in seed_cuts(model.grid, con, seed_pairs))
    check()
    if model.objective is not None:
        soft = soft_objective(model.objective, out.hard)
        out.soft, out.offset, out.sense = soft.soft, soft.offset, soft.sense
    out.top = model.num_vars
    return out
