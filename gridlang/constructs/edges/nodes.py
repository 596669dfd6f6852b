"""The nodes of the decisions on edges: the lines of Masyu, Numberlink and Slitherlink, the
bridges of Hashiwokakero, and the corners of the cell lattice.

The one thing the lowering (:mod:`.lower`) and the evaluation
(:mod:`.evaluate`) share: the AST, whose meaning :mod:`gridlang.constructs.edges`
states.

A decision ``on edges`` is made on every edge between two side neighbours
of the map; ``on corner edges`` on every edge of the lattice of cell
corners, ``(rows + 1) x (cols + 1)`` corners, corner ``(r, c)`` the
top-left corner of cell ``(r, c)``, each cell framed by four of its edges.
A decision on edges is Boolean (an edge is chosen or not) or takes small
integers (``0..2``: the number of bridges on it); where a construct asks
whether an edge is chosen, an integer edge is chosen when its value is not
0. The meaning of each node is stated in docs/language.md (Edges).
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field
from gridlang.language.ast.expressions import Expr, Name


class EdgeAt(Record):
    """``line[p, q]``: the edge between the side neighbours p and q (two cells, or two corners on
    corner edges) is chosen, a condition; for an integer decision its value, a number. False (0)
    when they are not neighbours."""

    name: Name
    a: Expr
    b: Expr
    span: Span | None = field(default=None, compare=False)


class Degree(Record):
    """``degree(line, p)``: the chosen edges at cell p (on corner edges: of the four framing p), or
    at corner v (on corner edges: the up to four meeting at v); for an integer decision the sum
    of their values."""

    name: Name
    cell: Expr
    span: Span | None = field(default=None, compare=False)


class Bend(Record):
    """``straight(line, p)`` or ``turn(line, p)``: p (a cell, or a corner on corner edges) has
    exactly two chosen edges, on opposite sides (``kind == "straight"``) or on two sides that meet
    at a corner (``"turn"``)."""

    kind: str
    name: Name
    cell: Expr
    span: Span | None = field(default=None, compare=False)


class IsLoop(Record):
    """``line is a loop``: the chosen edges form one single closed loop (at least one edge)."""

    name: Name
    span: Span | None = field(default=None, compare=False)


class ComponentAlong(Record):
    """``component of p along line``: the cells joined to p by chosen edges (p included)."""

    cell: Expr
    name: Name
    span: Span | None = field(default=None, compare=False)


class CornersOf(Record):
    """``corners(p)``: the four corners of cell p, ``(r, c)``, ``(r, c + 1)``, ``(r + 1, c)`` and
    ``(r + 1, c + 1)`` for p = ``(r, c)``; a set of corners that ``for each`` and the aggregates
    run over."""

    cell: Expr
    span: Span | None = field(default=None, compare=False)
