"""Shared IR -> IR passes, and the decompositions a backend draws on.

Each pass is a pure function from a :class:`~gridlang.ir.model.Model` to a new
one (the input is never changed), named for what it does, as CPMpy's
``transformations/`` are:

* :func:`~.equal_blocks.decompose_equal_blocks`: every
  :class:`~gridlang.ir.model.EqualBlocks` node as a root per block, clauses,
  rows and one :class:`~gridlang.ir.model.Connected` per possible root
  (:mod:`.equal_blocks`);
* :func:`~.table.table_to_clauses`: every :class:`~gridlang.ir.model.Table` as
  the clauses forbidding its other rows, merged (:mod:`.table`);
* :func:`~.connected_tree.decompose_connected_tree`: every
  :class:`~gridlang.ir.model.Connected` node as the clauses of a spanning tree
  with binary ranks (:mod:`.connected_tree`);
* :func:`~.to_cnf.linear_to_clauses`: every :class:`~gridlang.ir.model.Linear`
  row as clauses, by cardinality and pseudo-Boolean encodings
  (:mod:`.to_cnf`, which also holds the objective's soft clauses).

A backend lowers the node kinds it declares ``native``;
:meth:`gridlang.ir.backend.Backend.prepare` applies, through :func:`decompose`,
the :data:`DECOMPOSITIONS` that remove the others, and refuses by name any
node left over. The IR's variables are Boolean, so encodings that need
integer or continuous variables (flows, depths) stay inside the backends
that have them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Mapping

from gridlang.ir.model import Clause, Connected, EqualBlocks, Linear, Model, Table
from gridlang.ir.transforms.connected_tree import decompose_connected_tree
from gridlang.ir.transforms.equal_blocks import decompose_equal_blocks
from gridlang.ir.transforms.table import table_to_clauses
from gridlang.ir.transforms.to_cnf import CARD_ENCODINGS, SoftObjective, linear_to_clauses, soft_objective


@dataclass(frozen=True)
class Decomposition:
    """A pass that removes one node kind.

    Attributes:
        kind: the node type it replaces.
        produces: the node types it replaces it with.
        apply: the pass, ``apply(model, **options) -> Model``.
    """

    kind: type
    produces: frozenset[type]
    apply: Callable[..., Model]

    @property
    def name(self) -> str:
        """The pass's name (``linear_to_clauses``), the key of its options."""
        return self.apply.__name__


DECOMPOSITIONS: tuple[Decomposition, ...] = (
    Decomposition(EqualBlocks, frozenset({Clause, Linear, Connected}), decompose_equal_blocks),
    Decomposition(Table, frozenset({Clause}), table_to_clauses),
    Decomposition(Connected, frozenset({Clause}), decompose_connected_tree),
    Decomposition(Linear, frozenset({Clause}), linear_to_clauses),
)
"""The shared decompositions, in the order they are tried."""


def decompose(model: Model, native: Collection[type],
              options: Mapping[str, Mapping[str, object]] | None = None) -> Model:
    """``model`` with every node kind outside ``native`` that a decomposition removes, removed.

    A decomposition applies when its products are native or removed in
    turn by another one. Nodes that none removes are left in place: the
    caller refuses them (:meth:`gridlang.ir.backend.Backend.prepare`).

    Args:
        model: the model; it is not changed.
        native: the node types the backend lowers itself.
        options: keyword arguments of each pass, by pass name
            (``{"linear_to_clauses": {"encoding": "seqcounter"}}``).

    Returns:
        ``model`` itself when every node kind is native, else a new model.
    """
    options = options or {}
    lowered = set(native)
    grew = True
    while grew:
        grew = False
        for d in DECOMPOSITIONS:
            if d.kind not in lowered and d.produces <= lowered:
                lowered.add(d.kind)
                grew = True
    for _ in range(len(DECOMPOSITIONS) + 1):
        kinds = {type(con) for con in model.constraints}
        todo = [d for d in DECOMPOSITIONS if d.kind in kinds and d.kind not in native and d.produces <= lowered]
        if not todo:
            break
        model = todo[0].apply(model, **options.get(todo[0].name, {}))
    return model


__all__ = ["CARD_ENCODINGS", "DECOMPOSITIONS", "Decomposition", "SoftObjective", "decompose",
           "decompose_connected_tree", "decompose_equal_blocks", "linear_to_clauses", "soft_objective",
           "table_to_clauses"]
