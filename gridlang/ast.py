"""The typed abstract syntax tree of a ``.grid`` spec.

Produced by :mod:`gridlang.parser`, checked by :mod:`gridlang.checker`,
compiled by :mod:`gridlang.compiler`. Every node keeps its source span
(excluded from ``==``) so that any later error can point at the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .errors import Span


# ----------------------------------------------------------------- expressions

@dataclass(frozen=True, slots=True)
class Name:
    """A reference to a tile, tag, parameter, decision or region."""

    id: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class IntLit:
    """An integer literal."""

    value: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Border:
    """The cells in the first or last row or column."""

    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class AllCells:
    """Every cell of the map."""

    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Not:
    """Complement of a cell set."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class And:
    """Intersection of cell sets."""

    operands: tuple["Expr", ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Or:
    """Union of cell sets."""

    operands: tuple["Expr", ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Count:
    """``count(S)``: the number of cells in S."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Value:
    """``value(S)``: the sum of the tile values of the cells in S."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Add:
    """``left + right`` or ``left - right`` (``sign`` is +1 or -1)."""

    left: "Expr"
    right: "Expr"
    sign: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Mul:
    """``left * right``; at most one side may depend on decisions."""

    left: "Expr"
    right: "Expr"
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Neg:
    """``-operand``."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


Expr = Union[Name, IntLit, Border, AllCells, Not, And, Or, Count, Value, Add, Mul, Neg]


# ------------------------------------------------------------------ statements

@dataclass(frozen=True, slots=True)
class Puzzle:
    """``puzzle "NAME" [variant "VARIANT"]``: names the rules, and so the verifier."""

    name: str
    variant: str | None = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class CharSpec:
    """A map character or an inclusive range of them (``'0'-'9'``)."""

    first: str
    last: str
    span: Span | None = field(default=None, compare=False)

    def chars(self) -> list[str]:
        """The characters, in order."""
        return [chr(c) for c in range(ord(self.first), ord(self.last) + 1)]


@dataclass(frozen=True, slots=True)
class Tile:
    """``tile NAME CHARS... [value N] [linked] [exactly N | at most N | at least N] [TAG...]``.

    Attributes:
        name: the tile kind's name.
        chars: the map characters that denote it.
        value: points when the cell is counted by ``value(...)`` (default 0).
        linked: cells with the same character are adjacent (portals).
        count: ``(op, n)`` with op one of ``==``, ``<=``, ``>=``: how many
            cells of this kind a map must hold; None for any number.
        tags: extra names under which this tile's cells can be referred to.
    """

    name: str
    chars: tuple[CharSpec, ...]
    value: int = 0
    linked: bool = False
    count: tuple[str, int] | None = None
    tags: tuple[str, ...] = ()
    span: Span | None = field(default=None, compare=False)
    attr_spans: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Param:
    """``param NAME: int|set of int [OP N]... [= DEFAULT]``."""

    name: str
    type: str
    bounds: tuple[tuple[str, int], ...] = ()
    default: object = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Decide:
    """``decide NAME: DOMAIN on CELLS``: one decision per cell of CELLS."""

    name: str
    domain: str
    on: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Region:
    """``region NAME = reach from ROOTS through PASSABLE``: the flood fill.

    The smallest set that holds every ROOTS cell and every PASSABLE cell
    adjacent to a member.
    """

    name: str
    roots: Expr
    through: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Avoids:
    """``require A avoids B``: no cell is in both."""

    left: Expr
    right: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Subset:
    """``require A in B``: every cell of A is in B."""

    left: Expr
    right: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Compare:
    """``require LEFT OP RIGHT`` over linear sums."""

    left: Expr
    op: str
    right: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Objective:
    """``maximize EXPR`` or ``minimize EXPR``."""

    sense: str
    expr: Expr
    span: Span | None = field(default=None, compare=False)


Rule = Union[Avoids, Subset, Compare]
Stmt = Union[Puzzle, Tile, Param, Decide, Region, Rule, Objective]


@dataclass(frozen=True, slots=True)
class Spec:
    """A parsed spec: its statements in source order and where it came from."""

    statements: tuple[Stmt, ...]
    path: str
    source: str

    def of(self, kind: type) -> list:
        """Statements of one node type, in source order."""
        return [s for s in self.statements if isinstance(s, kind)]

    @property
    def puzzle(self) -> Puzzle | None:
        """The ``puzzle`` statement, if any."""
        found = self.of(Puzzle)
        return found[0] if found else None
