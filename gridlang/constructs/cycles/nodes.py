"""The nodes of acyclicity: ``line has no cycle`` and ``p is on a cycle of slant``.

The one thing the lowering (:mod:`.lower`) and the evaluation
(:mod:`.evaluate`) share: the AST, whose meaning :mod:`gridlang.constructs.cycles`
states.
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Expr, Name


class NoCycle(Record):
    """``line has no cycle``: the graph of the decision's chosen edges (of its slants, for a decision
    whose values are slants) is a forest, a rule of its own."""

    name: Name
    span: Span | None = field(default=None, compare=False)


class OnCycle(Record):
    """``p is on a cycle of slant``: the slant in cell p lies on a cycle of the slants' graph (a
    condition; false on a cell without a slant)."""

    cell: Expr
    name: Name
    span: Span | None = field(default=None, compare=False)
