"""Nodes of the constructs for genres as data: named expressions, structured clue cells, the
geometry of cells as numbers, and the spec's choice of connectivity encoding.

``let NAME = EXPR`` and ``let NAME(P, ...) = EXPR`` are substituted where
they are used, right after parsing (:mod:`gridlang.language.parser.lets`), so later
phases meet a :class:`Let` only as a declaration; a :class:`Call` they meet
names neither a let nor a structured tile's part (an error of the checker).
The meaning of each node is stated in docs/language.md ("Structured clue
cells", "Named expressions", "Cells as numbers").
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Expr, Name


class Let(Record):
    """``let NAME = EXPR`` or ``let NAME(P, ...) = EXPR``: a named expression.

    Attributes:
        name: the name.
        params: the parameters' names, in order (empty for ``let NAME = EXPR``).
        body: the expression, with the parameters free in it.
        parens: True when written with parameters (so used as ``NAME(ARGS)``).
    """

    name: str
    params: tuple[Name, ...]
    body: Expr
    parens: bool = False
    span: Span | None = field(default=None, compare=False)


class Call(Record):
    """``NAME(ARGS)`` before it is resolved: a let with parameters, or a part of a structured tile."""

    name: Name
    args: tuple[Expr, ...]
    span: Span | None = field(default=None, compare=False)


class Part(Record):
    """``down(c)``: the part of a ``tile T numbers A, B, ...`` cell named ``name`` (an integer).

    Attributes:
        name: the part's name.
        tile: the tile that declares it.
        index: its position among the tile's parts (0 for the first).
        cell: the cell.
    """

    name: str
    tile: str
    index: int
    cell: Expr
    span: Span | None = field(default=None, compare=False)


class ValuesOf(Record):
    """``values(c)``: the numbers a clue cell holds, in order (a list known from the map)."""

    cell: Expr
    span: Span | None = field(default=None, compare=False)


class DirectionOf(Record):
    """``direction(c)``: the direction of an arrow clue's arrow (a direction, as ``up`` is)."""

    cell: Expr
    span: Span | None = field(default=None, compare=False)


class Distance(Record):
    """``distance(p, q)``: the side steps between two cells, ``|dr| + |dc|`` (an integer)."""

    a: Expr
    b: Expr
    span: Span | None = field(default=None, compare=False)


class IndexOf(Record):
    """``row index(p)`` or ``column index(p)``: the cell's row or column, counted from 1 at the top
    (left), as messages count them.

    Attributes:
        kind: ``"row"`` or ``"column"``.
        cell: the cell.
    """

    kind: str
    cell: Expr
    span: Span | None = field(default=None, compare=False)


class IsKnown(Record):
    """``N is known``: the numbers, list or direction N reads from map cells hold no ``?``
    (a direction: the cell has an arrow). A condition known from the map."""

    operand: Expr
    span: Span | None = field(default=None, compare=False)


class Connectivity(Record):
    """``connectivity STRATEGY``: the connectivity encoding for the backends that offer it
    (``--connectivity`` overrides it)."""

    strategy: str
    span: Span | None = field(default=None, compare=False)
