"""Expression nodes of the AST: cell sets, numbers, conditions and geometry."""

from __future__ import annotations

from typing import Union

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field

# ----------------------------------------------------------------- expressions

class Name(Record):
    """A reference to a tile, tag, parameter, decision or region."""

    id: str
    span: Span | None = field(default=None, compare=False)


class IntLit(Record):
    """An integer literal."""

    value: int
    span: Span | None = field(default=None, compare=False)


class Border(Record):
    """The cells in the first or last row or column."""

    span: Span | None = field(default=None, compare=False)


class AllCells(Record):
    """Every cell of the map."""

    span: Span | None = field(default=None, compare=False)


class Not(Record):
    """Complement of a cell set."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


class And(Record):
    """Intersection of cell sets."""

    operands: tuple["Expr", ...]
    span: Span | None = field(default=None, compare=False)


class Or(Record):
    """Union of cell sets."""

    operands: tuple["Expr", ...]
    span: Span | None = field(default=None, compare=False)


class Count(Record):
    """``count(S)``: the number of cells in S."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


class Value(Record):
    """``value(S)``: the sum of the tile values of the cells in S."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


class Add(Record):
    """``left + right`` or ``left - right`` (``sign`` is +1 or -1)."""

    left: "Expr"
    right: "Expr"
    sign: int
    span: Span | None = field(default=None, compare=False)


class Mul(Record):
    """``left * right``; at most one side may depend on decisions."""

    left: "Expr"
    right: "Expr"
    span: Span | None = field(default=None, compare=False)


class Neg(Record):
    """``-operand``."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


class SumOf(Record):
    """``sum(P)``: the sum of the integers of a ``set of int`` parameter."""

    operand: "Expr"
    span: Span | None = field(default=None, compare=False)


class TileValue(Record):
    """``value`` on the right of ``D = value``: each cell's own tile value."""

    span: Span | None = field(default=None, compare=False)


class Is(Record):
    """``D = V``: the cells where the enumerated decision D takes the value V.

    ``value`` is a :class:`Name` (a value name of D's domain, a loop variable
    or an ``int`` parameter), an :class:`IntLit`, or :class:`TileValue` (the
    cell's own tile value, so the value may differ from cell to cell). A cell
    on which D is not made is never in the set. ``D != V`` is parsed as
    ``Not(Is(D, V))``. With a cell variable for D it is the condition that
    two cells are one (``p = q``, ``q = p + right``: ``value`` a cell
    expression), with an integer name a comparison (``k = 3``).
    """

    decision: Name
    value: Union[Name, IntLit, TileValue]  # or a cell expression: no let parameter is substituted there
    span: Span | None = field(default=None, compare=False)


class Implies(Record):
    """``A implies B``: B holds wherever A does (conditions only)."""

    left: "Expr"
    right: "Expr"
    span: Span | None = field(default=None, compare=False)


class At(Record):
    """``S[p]``: cell p is in the cell set S; ``D[p]``: an integer decision's value at p.

    Attributes:
        name: the set or decision.
        cell: an expression for one cell (a ``for each`` cell variable).
    """

    name: Name
    cell: "Expr"
    span: Span | None = field(default=None, compare=False)


class AtIs(Record):
    """``D[p] = V``: the enumerated decision D takes the value V at cell p (``!=`` is ``Not``).

    ``D[p] = D[q]`` (``value`` an :class:`At` of the same decision): D takes
    the same value at both cells; for a Boolean D, both cells are in it or
    both are out.
    """

    name: Name
    cell: "Expr"
    value: Union[Name, IntLit, TileValue, "At"]
    span: Span | None = field(default=None, compare=False)


class Around(Record):
    """The neighbours of a cell: ``neighbours(p)``, ``diagonal neighbours(p)``, ``king neighbours(p)``.

    Attributes:
        kind: ``"side"`` (the grid graph: shared sides and links),
            ``"diagonal"`` (shared corners only) or ``"king"`` (sides and
            corners, the eight king moves; links not included).
        cell: the cell.
    """

    kind: str
    cell: "Expr"
    span: Span | None = field(default=None, compare=False)


class LineOf(Record):
    """``row(p)``, ``column(p)``, ``room(p)``: the row, column or room that holds cell p.

    Attributes:
        kind: ``"row"``, ``"column"`` or ``"room"``.
        cell: the cell.
    """

    kind: str
    cell: "Expr"
    span: Span | None = field(default=None, compare=False)


class Component(Record):
    """``component of p in S``: the cells of S connected to p through S (empty when p is not in S)."""

    cell: "Expr"
    within: "Expr"
    span: Span | None = field(default=None, compare=False)


class Aggregate(Record):
    """``count(F for q in S)``, ``sum(N for q in S)``, ``all(F for q in S)``, ``any(F for q in S)``.

    Attributes:
        fn: ``"count"`` (the number of cells q of S where the condition F
            holds), ``"sum"`` (the sum of the number N over the cells q of
            S), ``"all"`` (F holds at every cell of S) or ``"any"`` (at some
            cell of S).
        body: F or N, with ``var`` bound to each cell in turn.
        var: the cell variable.
        domain: S, a cell set known from the map.
    """

    fn: str
    body: "Expr"
    var: Name
    domain: "Expr"
    span: Span | None = field(default=None, compare=False)


class AllDifferent(Record):
    """``all different D in S``: no two cells of S take the same value of the enumerated decision D."""

    decision: Name
    cells: "Expr"
    span: Span | None = field(default=None, compare=False)


class Direction(Record):
    """``up``, ``down``, ``left`` or ``right``: a step between side neighbours.

    ``p + d`` is the cell one step from the cell p in direction d (``p - d``
    the other way); off the grid it is no cell (the empty cell set).
    """

    name: str
    span: Span | None = field(default=None, compare=False)

    STEPS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}

    @property
    def step(self) -> tuple[int, int]:
        """``(rows, columns)`` of one step."""
        return Direction.STEPS[self.name]


class Sight(Record):
    """``sight from p toward q through S``: the cells seen from p looking toward its side neighbour q.

    The cells q, q + d, q + 2d, ... (d the step from p to q) up to, not
    including, the first cell not in S or the edge of the grid. ``toward``
    may also be a direction (``sight from p toward right through S``).
    """

    cell: "Expr"
    toward: "Expr"
    within: "Expr"
    span: Span | None = field(default=None, compare=False)


class Shapes(Record):
    """A family of polyominoes.

    Attributes:
        kind: ``"size"`` (every free polyomino with ``arg`` cells; ``arg`` an
            integer, or a ``set of int`` parameter: the free polyominoes of
            each listed size, a size listed twice giving each twice) or
            ``"var"`` (the one shape a ``for each shape`` variable ``arg``
            is bound to).
        arg: the size expression, or the variable's :class:`Name`.
    """

    kind: str
    arg: "Expr"
    span: Span | None = field(default=None, compare=False)


class IsPiece(Record):
    """``S is a piece of F``: S is exactly one polyomino of F, in any rotation or reflection."""

    cells: "Expr"
    family: Shapes
    span: Span | None = field(default=None, compare=False)


class ConsistsOf(Record):
    """``S consists of F``: S is one piece of each entry of F, no two overlapping or sharing a side."""

    cells: "Expr"
    family: Shapes
    span: Span | None = field(default=None, compare=False)


Expr = Union[Name, IntLit, Border, AllCells, Not, And, Or, Count, Value, Add, Mul, Neg, SumOf, TileValue, Is,
             Implies, At, AtIs, Around, LineOf, Component, Aggregate, AllDifferent, Direction, Sight, IsPiece,
             ConsistsOf]
