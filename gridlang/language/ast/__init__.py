"""The typed abstract syntax tree of a ``.grid`` spec.

Produced by :mod:`gridlang.language.parser`, checked by :mod:`gridlang.language.checker`,
compiled by :mod:`gridlang.compiler`. Every node keeps its source span
(excluded from ``==``) so that any later error can point at the spec. The
nodes of the constructs (:mod:`gridlang.constructs`) are in their own
modules, and an expression may be one of them.
"""

from __future__ import annotations

from typing import Union

from gridlang.core.nodes import Record
from gridlang.language.ast.constructs import (
    Call,
    Connectivity,
    DirectionOf,
    Distance,
    IndexOf,
    IsKnown,
    Let,
    Part,
    ValuesOf,
)
from gridlang.language.ast.drawing import Draw
from gridlang.language.ast.expressions import (
    Add,
    Aggregate,
    AllCells,
    AllDifferent,
    And,
    Around,
    At,
    AtIs,
    Border,
    Component,
    ConsistsOf,
    Count,
    Direction,
    Expr,
    Implies,
    IntLit,
    Is,
    IsPiece,
    LineOf,
    Mul,
    Name,
    Neg,
    Not,
    Or,
    Shapes,
    Sight,
    SumOf,
    TileValue,
    Value,
)
from gridlang.language.ast.formats import Format, FormatEntry, FormatFlag, FormatItem
from gridlang.language.ast.statements import (
    Avoids,
    CellRef,
    CharSpec,
    Compare,
    Decide,
    DomainPart,
    DomainRange,
    DomainValues,
    Family,
    ForEach,
    ForPairs,
    Holds,
    IsConnected,
    IsPath,
    Objective,
    PAnd,
    Param,
    PEq,
    PFormula,
    PImplies,
    PMember,
    PNot,
    POr,
    Puzzle,
    Region,
    Rule,
    Subset,
    Symbol,
    Tile,
)

__all__ = ["Add", "Aggregate", "AllCells", "AllDifferent", "And", "Around", "At", "AtIs", "Avoids", "Border", "Draw",
           "Call", "Connectivity", "DirectionOf", "Distance", "IndexOf", "IsKnown", "Let", "Part", "ValuesOf",
           "Format", "FormatEntry", "FormatFlag", "FormatItem",
           "CellRef", "CharSpec", "Compare", "Component", "ConsistsOf", "Count", "Decide", "Direction",
           "DomainPart", "DomainRange", "DomainValues", "Expr", "Family", "ForEach", "ForPairs", "Holds", "Implies", "IntLit",
           "Is", "IsConnected", "IsPath", "IsPiece", "LineOf", "Mul", "Name", "Neg", "Not", "Objective", "Or",
           "PAnd", "PEq", "PFormula", "PImplies", "PMember", "PNot", "POr", "Param", "Puzzle", "Region",
           "Rule", "Shapes", "Sight", "Spec", "Stmt", "Subset", "SumOf", "Symbol", "Tile", "TileValue",
           "Value"]


Expr = Union[Expr, Avoids, Subset, Compare, IsConnected, IsPath]
"""Relations are expressions too: conditions inside ``not``, ``and``, ``or``, ``implies``."""

Stmt = Union[Puzzle, Tile, Param, Decide, Region, Avoids, Subset, Compare, IsConnected, IsPath,
             ForEach, ForPairs, Holds, Objective, Draw, Let, Connectivity, Format]


class Spec(Record):
    """A parsed spec: its statements in source order and where it came from.

    ``names`` holds the rules' names (``require "NAME": RULE``), each as ``((line, column), name)``
    at its rule's span; :meth:`name_of` reads it.
    """

    statements: tuple[Stmt, ...]
    path: str
    source: str
    names: tuple[tuple[tuple[int, int], str], ...] = ()

    def of(self, kind: type) -> list:
        """Statements of one node type, in source order."""
        return [s for s in self.statements if isinstance(s, kind)]

    def name_of(self, statement) -> str:
        """The name a ``require "NAME": RULE`` gives the statement, or ``""``."""
        span = getattr(statement, "span", None)
        if span is None or not self.names:
            return ""
        return dict(self.names).get((span.line, span.column), "")

    @property
    def puzzle(self) -> Puzzle | None:
        """The ``puzzle`` statement, if any."""
        found = self.of(Puzzle)
        return found[0] if found else None
