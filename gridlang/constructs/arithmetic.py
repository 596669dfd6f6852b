"""Integer division and remainder: ``a div b`` and ``a mod b``.

Both operands are numbers known when the model is built (parameters, clue
values, counts of the map's cells, ``row index(p)``, ...), so the construct
adds no variable and no constraint: the compiler folds it to a constant,
the verifier computes it on the answer's map. The divisor must be 1 or
more; ``a div b`` rounds down (towards minus infinity) and ``a mod b`` is
``a - b * (a div b)``, from 0 to ``b - 1``: for a positive divisor the
Euclidean division, as in MiniZinc's and Python's for ``b > 0``. A parity
(``(row index(p) + column index(p)) mod 2``) or a half (``count(all) div 2``)
is what a spec writes with it.

What it costs: nothing in the model; one integer operation per use and
binding while compiling.
"""

from __future__ import annotations

import functools

from gridlang.core.errors import SemanticError, Span
from gridlang.core.nodes import field, node
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import Construct, register

OPERATORS = ("div", "mod")


@node
class IntDiv:
    """``left div right`` (``op`` ``"div"``) or ``left mod right`` (``op`` ``"mod"``)."""

    left: object
    op: str
    right: object
    span: Span | None = field(default=None, compare=False)


def _build(op: str, transformer, meta, children: list) -> IntDiv:
    """The node of the parse-tree rule ``div`` or ``mod``: ``left op right``."""
    left, right = children
    return IntDiv(left, op, right, transformer.sp(meta))


def _divisor_error(value: int, e: IntDiv, source: str | None) -> SemanticError:
    return SemanticError(f"'{e.op}' divides by a number of 1 or more; the divisor here is {value}", e.span,
                         source=source)


class Division(Construct):
    """The hooks of :class:`IntDiv` (see :mod:`gridlang.language.constructs`)."""

    node = IntDiv
    rules = {op: functools.partial(_build, op) for op in OPERATORS}

    def children(self, e: IntDiv) -> tuple:
        return (e.left, e.right)

    def type_of(self, checker, e: IntDiv):
        for side in (e.left, e.right):
            t = checker.type_of(side)
            if t is None:
                return None
            if t is not Type.INT:
                what = "depends on the decisions" if t is Type.LINEAR else f"is {t.value}"
                checker.error(f"'{e.op}' takes numbers known before solving; this {what}",
                              getattr(side, "span", None) or e.span)
                return None
        return Type.INT

    def linear(self, compiler, e: IntDiv, scale: int, coef: dict[int, int]) -> int:
        source = compiler.spec.source
        sides = []
        for side in (e.left, e.right):
            terms, constant = compiler.linear(side)
            if any(c for c, _ in terms):
                raise SemanticError(f"'{e.op}' takes numbers known before solving", e.span, source=source)
            sides.append(constant)
        a, b = sides
        if b < 1:
            raise _divisor_error(b, e, source)
        return scale * (a // b if e.op == "div" else a % b)

    def number(self, interpreter, e: IntDiv) -> int:
        a, b = interpreter.number(e.left), interpreter.number(e.right)
        if b < 1:
            raise _divisor_error(b, e, interpreter.spec.source)
        quotient = a // b
        return quotient if e.op == "div" else a - b * quotient


register(Division())
