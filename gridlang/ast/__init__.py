"""The typed abstract syntax tree of a ``.grid`` spec.

Produced by :mod:`gridlang.parser`, checked by :mod:`gridlang.checker`,
compiled by :mod:`gridlang.compiler`. Every node keeps its source span
(excluded from ``==``) so that any later error can point at the spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .expressions import (Name, IntLit, Border, AllCells, Not, And, Or, Count, Value, Add, Mul, Neg, SumOf,
    TileValue, Is, Implies, At, AtIs, Around, LineOf, Component, Aggregate, AllDifferent, Direction, Sight,
    Shapes, IsPiece, ConsistsOf, Expr)
from .drawing import Draw
from .edges import Bend, ComponentAlong, CornersOf, Degree, EdgeAt, IsLoop
from .constructs import Call, Connectivity, DirectionOf, Distance, IndexOf, IsKnown, Let, Part, ValuesOf
from .formats import Format, FormatEntry, FormatFlag, FormatItem
from .statements import (CellRef, PMember, PEq, PNot, PAnd, POr, PImplies, PFormula, Puzzle, CharSpec, Tile,
    Param, Symbol, DomainRange, DomainValues, DomainPart, Decide, Region, Avoids, Subset, Compare, Objective, IsConnected,
    IsPath, Family, ForEach, Holds, ForPairs, Rule)

__all__ = ["Add", "Aggregate", "AllCells", "AllDifferent", "And", "Around", "At", "AtIs", "Avoids", "Bend", "Border",
           "ComponentAlong", "CornersOf", "Degree", "Draw", "EdgeAt", "IsLoop",
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
