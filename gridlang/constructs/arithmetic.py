"""Integer division and remainder: ``a div b`` and ``a mod b``.

The divisor ``b`` is a number known when the model is built (a
parameter, a clue value, a count of the map's cells, ``row index(p)``,
...); ``a`` is such a number too, or one that depends on the decisions (a
count of shaded cells). The divisor must be 1 or more; ``a div b`` rounds
down (towards minus infinity) and ``a mod b`` is ``a - b * (a div b)``,
from 0 to ``b - 1``: for a positive divisor the Euclidean division, as in
MiniZinc's and Python's for ``b > 0``. A parity (``(row index(p) + column
index(p)) mod 2``, ``count(shaded and r) mod 2 == 0``) or a half
(``count(all) div 2``) is what a spec writes with it.

What it costs: with ``a`` known, nothing in the model (the compiler folds
it to a constant; one integer operation per use and binding). With ``a``
depending on the decisions, ``a`` ranging over ``lo..hi`` (its terms'
bounds, every variable being 0 or 1), the quotient and the remainder are
made as auxiliary variables defined by one row, ``a == b * q + r``: ``q``
in binary, ``q = floor(lo / b) + sum 2^i y_i`` with a row ``q <=
floor(hi / b)``, and ``r`` one-hot over ``0..b - 1`` (one variable per
value, a row ``sum == 1``); both are then unique for each value of ``a``,
so no answer is added or lost (the division of R. T. Boute, "The
Euclidean definition of the functions div and mod", ACM TOPLAS 14(2),
1992, for a positive divisor, stated as a row over a binary quotient).
Size: ``b + log2((hi - lo) / b + 1)`` variables and three rows per
dividend and divisor, made once for the same terms. The verifier computes
it on the answer.
"""

from __future__ import annotations

import functools

from gridlang.core.errors import SemanticError, Span
from gridlang.core.nodes import Record, field
from gridlang.ir.literals import add_literal
from gridlang.ir.model import Cmp, Linear
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import Construct, register

OPERATORS = ("div", "mod")


class IntDiv(Record):
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
        types = []
        for k, side in enumerate((e.left, e.right)):
            t = checker.type_of(side)
            if t is None:
                return None
            if t is not Type.INT and not (k == 0 and t is Type.LINEAR):
                what = "depends on the decisions" if t is Type.LINEAR else f"is {t.value}"
                where = "its divisor is a number" if k else "it takes numbers"
                checker.error(f"'{e.op}': {where} known before solving; this {what}",
                              getattr(side, "span", None) or e.span)
                return None
            types.append(t)
        return types[0]

    def linear(self, compiler, e: IntDiv, scale: int, coef: dict[int, int]) -> int:
        source = compiler.spec.source
        terms, a = compiler.linear(e.left)
        divisor_terms, b = compiler.linear(e.right)
        if any(c for c, _ in divisor_terms):
            raise SemanticError(f"'{e.op}': its divisor is a number known before solving", e.span, source=source)
        if b < 1:
            raise _divisor_error(b, e, source)
        terms = [(c, x) for c, x in terms if c]
        if not terms:
            return scale * (a // b if e.op == "div" else a % b)
        made = compiler.collected.setdefault(self, {})  # one quotient and remainder per dividend and divisor
        key = (tuple(sorted(terms)), a, b)
        if key not in made:
            made[key] = compiler.define(_divide, compiler, e, terms, a, b)
        quotient, remainder = made[key]
        parts = quotient if e.op == "div" else remainder
        return sum(add_literal(lit, scale * weight, coef) for weight, lit in parts)

    def number(self, interpreter, e: IntDiv) -> int:
        a, b = interpreter.number(e.left), interpreter.number(e.right)
        if b < 1:
            raise _divisor_error(b, e, interpreter.spec.source)
        quotient = a // b
        return quotient if e.op == "div" else a - b * quotient


def _divide(compiler, e: IntDiv, terms: list[tuple[int, int]], a: int, b: int):
    """The quotient and the remainder of ``sum(terms) + a`` by ``b`` as auxiliary variables (see the module
    docstring): two lists of ``(weight, literal)``, ``True`` a literal for a constant."""
    span = compiler.current.span if compiler.current is not None else e.span
    lo = a + sum(min(0, c) for c, _ in terms)
    hi = a + sum(max(0, c) for c, _ in terms)
    qlo, qhi = lo // b, hi // b
    bits = [compiler.new_var(f"{e.op}_quotient", None, 1 << i) for i in range((qhi - qlo).bit_length())]
    quotient = [(qlo, True)] + [(1 << i, y) for i, y in enumerate(bits)]
    remainder = [(v, lit) for v, lit in compiler.one_hot(f"{e.op}_remainder", None, list(range(b)), span).items()]
    if bits:
        compiler.constraints.append(Linear(tuple((1 << i, y) for i, y in enumerate(bits)), Cmp.LE, qhi - qlo, (),
                                           span))
    # sum(terms) + a == b * (qlo + sum 2^i y_i) + sum v r_v
    row: dict[int, int] = {}
    const = a - b * qlo
    for c, x in terms:
        const += add_literal(x, c, row)
    for w, y in quotient[1:]:
        add_literal(y, -b * w, row)
    for v, r in remainder:
        const += add_literal(r, -v, row)
    compiler.constraints.append(Linear(tuple((k, x) for x, k in sorted(row.items()) if k), Cmp.EQ, -const, (),
                                       span))
    return quotient, remainder


register(Division())
