"""The nodes of blocks of equal values and of runs around a cell, and the ring's order.

The one thing the lowering (:mod:`.lower`) and the evaluation
(:mod:`.evaluate`) share: the AST, whose meaning
:mod:`gridlang.constructs.blocks` states.
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Expr, Name


class SameValue(Record):
    """``D = D[p]``: the cells on which D is made and takes the value D takes at cell p.

    Empty when D is not made at p (it has no value there).

    Attributes:
        decision: D, an enumerated or Boolean decision on cells.
        cell: p, one cell.
    """

    decision: Name
    cell: Expr
    span: Span | None = field(default=None, compare=False)


class Runs(Record):
    """``runs of S around c``: the lengths of the maximal runs of S-cells among the eight cells around c.

    The ring is taken in cyclic order (:data:`RING`); a cell off the grid is
    not in S; a full ring is one run of 8. Only compared with a clue list
    (``runs of S around c == values(c)``): see docs/language.md.

    Attributes:
        within: S, a cell set.
        cell: c, one cell.
    """

    within: Expr
    cell: Expr
    span: Span | None = field(default=None, compare=False)


RING = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
"""The ring around a cell, ``(rows, columns)`` steps in cyclic order (pzprjs Tapa's order): up-left,
up, up-right, right, down-right, down, down-left, left."""
