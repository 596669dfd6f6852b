"""Statement nodes of the AST, and formulas over a pair of cells."""

from __future__ import annotations

from typing import Union

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Direction, Expr, IntLit, Name

# ------------------------------------------------- formulas over a pair of cells

class CellRef(Record):
    """``S[a]``: the set or decision S at the cell bound to ``a``."""

    name: Name
    cell: Name
    span: Span | None = field(default=None, compare=False)


class PMember(Record):
    """``S[a]``: cell ``a`` is in the cell set S (a tile, tag, Boolean decision or region)."""

    ref: CellRef
    span: Span | None = field(default=None, compare=False)


class PEq(Record):
    """``D[a] = V`` or ``D[a] = D[b]``: a decision's value at a cell.

    ``right`` is a :class:`CellRef` of the same decision (both cells take the
    same value) or a value (:class:`Name` or :class:`IntLit`, as in :class:`Is`).
    """

    left: CellRef
    right: Union[CellRef, Name, IntLit]
    span: Span | None = field(default=None, compare=False)


class PNot(Record):
    """``not F``."""

    operand: "PFormula"
    span: Span | None = field(default=None, compare=False)


class PAnd(Record):
    """``F and G and ...``."""

    operands: tuple["PFormula", ...]
    span: Span | None = field(default=None, compare=False)


class POr(Record):
    """``F or G or ...``."""

    operands: tuple["PFormula", ...]
    span: Span | None = field(default=None, compare=False)


class PImplies(Record):
    """``F implies G``."""

    left: "PFormula"
    right: "PFormula"
    span: Span | None = field(default=None, compare=False)


PFormula = Union[PMember, PEq, PNot, PAnd, POr, PImplies]


# ------------------------------------------------------------------ statements

class Puzzle(Record):
    """``puzzle "NAME" [variant "VARIANT"]``: names the rules, and so the verifier."""

    name: str
    variant: str | None = None
    span: Span | None = field(default=None, compare=False)


class CharSpec(Record):
    """A map character or an inclusive range of them (``'0'-'9'``)."""

    first: str
    last: str
    span: Span | None = field(default=None, compare=False)

    def chars(self) -> list[str]:
        """The characters, in order."""
        return [chr(c) for c in range(ord(self.first), ord(self.last) + 1)]


class Tile(Record):
    """``tile NAME CHARS... [value N] [linked] [exactly N | at most N | at least N] [TAG...]``.

    ``tile NAME number ...`` declares the tile of every cell that holds a
    whole number (``0``, ``7``, ``12``, ``135``), whose value is that number.

    Attributes:
        name: the tile kind's name.
        chars: the map characters that denote it.
        value: points when the cell is counted by ``value(...)`` (default 0).
        digit_value: ``value digit``: each cell's value is its character read
            as a base-36 digit (``'7'`` is 7, ``'A'`` and ``'a'`` are 10,
            ``'Z'`` is 35) instead of ``value``.
        linked: cells with the same character are adjacent (portals).
        count: ``(op, n)`` with op one of ``==``, ``<=``, ``>=``: how many
            cells of this kind a map must hold; None for any number.
        tags: extra names under which this tile's cells can be referred to.
        number: the tile of the cells that hold a whole number; each
            cell's value is its number.
        clue: ``"numbers"`` for ``tile NAME numbers [PART, ...]`` (cells
            holding a list of numbers, ``1,3,3``), ``"arrow"`` for ``tile
            NAME arrow number`` (an arrow and a number, ``^2``); None
            otherwise (:mod:`gridlang.core.clues` reads the cells).
        parts: the names of a ``numbers`` tile's entries, by position
            (``down, across``); empty when they are not named.
        no_room: ``no room``: its cells belong to no room of the map's room
            layer and join none (pzprjs's holes).
        place: ``"cells"``; ``"borders"`` for a tile ``on borders``, which
            stands on the borders between side-adjacent cells (the map's
            ``borders:`` layer, pzprjs's borders) and whose name is a set of
            borders; or ``"corners"`` for a tile ``on corners``: it
            stands on the corners of the cells (the map's ``corners:``
            layer, pzprjs's crosses), and its name is a set of corners.
        frame: ``on borders and frame``: a tile on borders whose borders
            include the grid's outer frame (pzprjs's ``hasborder: 2``).
    """

    name: str
    chars: tuple[CharSpec, ...]
    value: int = 0
    digit_value: bool = False
    linked: bool = False
    count: tuple[str, int] | None = None
    tags: tuple[str, ...] = ()
    number: bool = False
    span: Span | None = field(default=None, compare=False)
    attr_spans: dict = field(default_factory=dict, compare=False, hash=False)
    clue: str | None = None
    parts: tuple[str, ...] = ()
    place: str = "cells"
    no_room: bool = False
    frame: bool = False

    def value_of(self, ch: str) -> int | None:
        """The value of a cell of this tile written as ``ch``; None for a number tile's cell that
        holds no single known number (``?``, or a list: :func:`gridlang.core.clues.why_no_value` says which)."""
        if self.number or self.clue is not None:
            # imported on use, not at start-up
            from gridlang.core.clues import single_value

            return single_value(ch)
        if self.digit_value:
            return int(ch, 36)
        return self.value


class Param(Record):
    """``param NAME: int|set of int|shapes [OP N]... [= DEFAULT]``.

    ``default`` is an int, a frozenset of ints, or for ``shapes`` the
    default's text (``"pentominoes"``), read by :func:`gridlang.language.values.parse_value`.
    """

    name: str
    type: str
    bounds: tuple[tuple[str, int], ...] = ()
    default: object = None
    span: Span | None = field(default=None, compare=False)
    default_span: Span | None = field(default=None, compare=False)


class Symbol(Record):
    """A value name in an enumerated domain (``snake`` in ``{snake} | sizes``)."""

    id: str
    span: Span | None = field(default=None, compare=False)


class DomainRange(Record):
    """``LOW..HIGH`` in a domain: the integers from LOW to HIGH, both included.

    Each bound is an integer literal, an ``int`` parameter, or a constant
    expression in parentheses (``1..(box_rows * box_cols)``).
    """

    low: "Expr"
    high: "Expr"
    span: Span | None = field(default=None, compare=False)


class DomainValues(Record):
    """``values of T`` in a domain: the distinct values of the cells of tile T on the map (a
    number tile's numbers), ascending."""

    tile: "Name"
    span: Span | None = field(default=None, compare=False)


DomainPart = Union[Symbol, IntLit, Name, DomainRange, DomainValues]
"""A value name, an integer, a ``set of int`` parameter (a :class:`Name`), or a range."""


class Decide(Record):
    """``decide NAME: DOMAIN on CELLS``: one decision per cell of CELLS.

    Attributes:
        name: the decision's name.
        domain: ``"bool"``, or the parts of an enumeration in order: value
            names, integers and ``set of int`` parameters, whose union is the
            set of values each cell takes exactly one of (each edge, for a
            decision on edges, whose values are integers).
        on: the cells the decision is made on (a fixed cell set); None for
            a decision on edges.
        lattice: None for a decision on cells; ``"edges"`` for one on the
            edges between side neighbours (``on edges``), ``"corners"`` for
            one on the edges of the lattice of cell corners (``on corner
            edges``).
    """

    name: str
    domain: Union[str, tuple[DomainPart, ...]]
    on: Expr | None
    span: Span | None = field(default=None, compare=False)
    lattice: str | None = None

    @property
    def is_enum(self) -> bool:
        """True for an enumerated decision, False for ``bool``."""
        return self.domain != "bool"

    @property
    def has_directions(self) -> bool:
        """True for a decision made on cells with a direction (``up``, ``down``, ``left``, ``right``) among
        its values: ``p + dir[p]`` steps by its value."""
        return self.lattice is None and self.is_enum and any(
            isinstance(part, Symbol) and part.id in Direction.STEPS for part in self.domain)


class Region(Record):
    """``region NAME = reach from ROOTS through PASSABLE``: the flood fill.

    The smallest set that holds every ROOTS cell and every PASSABLE cell
    adjacent to a member.
    """

    name: str
    roots: Expr
    through: Expr
    span: Span | None = field(default=None, compare=False)


class Avoids(Record):
    """``require A avoids B``: no cell is in both."""

    left: Expr
    right: Expr
    span: Span | None = field(default=None, compare=False)


class Subset(Record):
    """``require A in B``: every cell of A is in B."""

    left: Expr
    right: Expr
    span: Span | None = field(default=None, compare=False)


class Compare(Record):
    """``require LEFT OP RIGHT`` over linear sums."""

    left: Expr
    op: str
    right: Expr
    span: Span | None = field(default=None, compare=False)


class Objective(Record):
    """``maximize EXPR`` or ``minimize EXPR``."""

    sense: str
    expr: Expr
    span: Span | None = field(default=None, compare=False)


class IsConnected(Record):
    """``require S is connected [with size N]``, ``require S is diagonally connected``.

    The cells of S induce a connected subgraph of the grid graph (the empty
    set is connected); with a size, S also has exactly N cells. ``diagonal``:
    cells that share only a corner are neighbours too (8-connectivity).
    """

    cells: Expr
    size: Expr | None = None
    span: Span | None = field(default=None, compare=False)
    diagonal: bool = False


class IsPath(Record):
    """``require S is a path between E``: S is one induced simple path whose ends are E.

    E is a fixed set of exactly two cells. Both are in S and have exactly one
    neighbour in S; every other cell of S has exactly two neighbours in S;
    S is connected. So S never touches itself side by side and has no loop.
    """

    cells: Expr
    ends: Expr
    span: Span | None = field(default=None, compare=False)


class Family(Record):
    """A family of cell sets of the map that ``for each`` runs over.

    Attributes:
        kind: ``"cells"`` (each cell), ``"corners"`` (each corner of the
            lattice of cell corners, row-major, ``(rows + 1) x (cols + 1)``),
            ``"directions"`` (up, right, down, left), ``"rows"``, ``"columns"``, ``"rooms"``
            (the map's room layer), ``"windows"`` (every ``height`` x
            ``width`` rectangle of the grid, overlapping) or ``"blocks"``
            (the ``height`` x ``width`` rectangles that tile the grid from
            its top-left corner).
        height, width: the rectangle's size for windows and blocks
            (integer literals or ``int`` parameters); None otherwise.
    """

    kind: str
    height: Expr | None = None
    width: Expr | None = None
    span: Span | None = field(default=None, compare=False)


class ForEach(Record):
    """``require for each x in D: RULE``: RULE once per member of D.

    D is a ``set of int`` parameter (x is an integer), a cell set known from
    the map (x is a cell), or a :class:`Family` (x is a cell, or a cell set:
    a row, a column, a room, a window, a block).
    """

    var: Name
    domain: Union[Expr, Family]
    body: "Rule"
    span: Span | None = field(default=None, compare=False)


class Holds(Record):
    """``require F``: the condition F holds (F built from relations with not, and, or, implies)."""

    formula: Expr
    span: Span | None = field(default=None, compare=False)


class ForPairs(Record):
    """``require for each neighbours a, b: F``: F holds for every ordered pair of neighbouring cells."""

    a: Name
    b: Name
    body: PFormula
    span: Span | None = field(default=None, compare=False)


Rule = Union[Avoids, Subset, Compare, IsConnected, IsPath, ForEach, ForPairs, Holds]
"""A ``require`` statement's body."""
