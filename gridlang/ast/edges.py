"""Expression nodes about decisions on edges: the lines of Masyu, Numberlink and Slitherlink.

A decision ``on edges`` is made on every edge between two side neighbours
of the map; ``on corner edges`` on every edge of the lattice of cell
corners, ``(rows + 1) x (cols + 1)`` corners, each cell framed by four of
its edges. The meaning of each node is stated in docs/language.md (Edges).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Span
from .expressions import Expr, Name


@dataclass(frozen=True, slots=True)
class EdgeAt:
    """``line[p, q]``: the edge between the side neighbours p and q is chosen (false when they are not neighbours)."""

    name: Name
    a: Expr
    b: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Degree:
    """``degree(line, p)``: the number of chosen edges at cell p (on corner edges: of the four around p)."""

    name: Name
    cell: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Bend:
    """``straight(line, p)`` or ``turn(line, p)``: p has exactly two chosen edges, on opposite
    sides (``kind == "straight"``) or on two sides that meet at a corner (``"turn"``)."""

    kind: str
    name: Name
    cell: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class IsLoop:
    """``line is a loop``: the chosen edges form one single closed loop (at least one edge)."""

    name: Name
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class ComponentAlong:
    """``component of p along line``: the cells joined to p by chosen edges (p included)."""

    cell: Expr
    name: Name
    span: Span | None = field(default=None, compare=False)
