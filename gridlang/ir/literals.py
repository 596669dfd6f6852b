"""Cell values as literals: a constant (``True``/``False``) or a variable number, negated, added
to a linear sum, and the clause sets of one literal or one disjunction, with constants folded.

The compiler and the constructs' lowerings (:mod:`gridlang.constructs`) share them."""

from __future__ import annotations

from typing import Union

CellValue = Union[bool, int]
"""A cell's value in a formula: a constant, or a variable's literal (negative: negated)."""


def neg(v: CellValue) -> CellValue:
    """The negation of a cell value: a constant flipped, a variable's literal negated."""
    if v is True:
        return False
    if v is False:
        return True
    return -v


def add_literal(v: CellValue, w: int, coef: dict[int, int]) -> int:
    """Add ``w * v`` (a constant or a literal) to the linear terms ``coef``; return the constant part
    (a negated literal ``-x`` adds ``w * (1 - x)``)."""
    if v is False or w == 0:
        return 0
    if v is True:
        return w
    if v > 0:
        coef[v] = coef.get(v, 0) + w
        return 0
    coef[-v] = coef.get(-v, 0) - w
    return w


def tautology(clause: frozenset[int]) -> bool:
    """Whether a clause holds a literal and its negation."""
    return any(-l in clause for l in clause)


def unit(v: CellValue, positive: bool) -> list[frozenset[int]]:
    """The clause set of one literal (or of its negation)."""
    v = v if positive else neg(v)
    if v is True:
        return []
    if v is False:
        return [frozenset()]
    return [frozenset((v,))]


def unit_clause(values: list[CellValue]) -> list[frozenset[int]]:
    """The clause set of one disjunction of cell values."""
    if any(v is True for v in values):
        return []
    clause = frozenset(v for v in values if v is not False)
    return [] if tautology(clause) else [clause]


