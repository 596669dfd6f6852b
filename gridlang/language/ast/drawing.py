"""The ``draw`` statement: how a spec's names are drawn (:mod:`gridlang.language.looks`)."""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Expr


class Draw(Record):
    """``draw NAME as LOOK``, or ``draw H x W block as LOOK``.

    Attributes:
        name: the tile, tag, decision or region drawn; None for blocks.
        look: the look's word (``circle``, ``shade``, ``line``, ...), as
            written; the checker refuses a word that is no look
            (:data:`gridlang.language.looks.LOOKS`).
        height, width: for ``draw H x W block as rooms``, the blocks' size
            (integer literals or ``int`` parameters); None otherwise.
        name_span, look_span: where the name and the look are written.
    """

    name: str | None
    look: str
    height: Expr | None = None
    width: Expr | None = None
    span: Span | None = field(default=None, compare=False)
    name_span: Span | None = field(default=None, compare=False)
    look_span: Span | None = field(default=None, compare=False)
