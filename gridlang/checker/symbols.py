"""The checker's types and the symbol table it hands to the compiler."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .. import ast


class Type(enum.Enum):
    """The type of an expression."""

    FIXED = "a fixed cell set"
    CELLS = "a cell set"
    INT = "an integer"
    LINEAR = "a linear sum"
    INT_SET = "a set of integers"
    FACT = "a condition known from the map"
    BOOL = "a condition"
    DIRECTION = "a direction"
    CORNERS = "a set of lattice corners"

    @property
    def is_cond(self) -> bool:
        """FACT or BOOL."""
        return self in (Type.FACT, Type.BOOL)

    @property
    def is_cells(self) -> bool:
        """FIXED or CELLS."""
        return self in (Type.FIXED, Type.CELLS)

    @property
    def is_number(self) -> bool:
        """INT or LINEAR."""
        return self in (Type.INT, Type.LINEAR)


class TileTable(dict):
    """Map character -> tile name, and the tile of the cells that hold a number.

    ``get(text)`` answers for a single character as a dict does; for a
    cell's text that is a whole number (``7``, ``12``) not claimed by a
    character of its own, it answers the ``number`` tile, when the spec
    declares one.

    Attributes:
        number: the name of the ``number`` tile, or None.
    """

    number: str | None = None

    def get(self, key, default=None):
        """The tile of a cell's text, or ``default``."""
        if key in self:
            return self[key]
        if self.number is not None and isinstance(key, str) and key.isascii() and key.isdigit():
            return self.number
        return default


@dataclass
class Symbols:
    """What a spec declares, by name.

    Attributes:
        tiles: tile name -> Tile.
        tags: tag name -> names of the tiles that carry it.
        chars: map character -> tile name (a :class:`TileTable`, which also
            answers the ``number`` tile for a cell's number).
        params: parameter name -> Param.
        decisions: decision name -> Decide.
        regions: region name -> Region.
        draws: the spec's ``draw`` statements that passed the checks, in
            source order (:mod:`gridlang.looks`).
    """

    tiles: dict[str, ast.Tile] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    chars: TileTable = field(default_factory=TileTable)
    params: dict[str, ast.Param] = field(default_factory=dict)
    decisions: dict[str, ast.Decide] = field(default_factory=dict)
    regions: dict[str, ast.Region] = field(default_factory=dict)
    draws: list[ast.Draw] = field(default_factory=list)

    def kind_of(self, name: str) -> str | None:
        """``tile``, ``tag``, ``param``, ``decision``, ``region`` or None."""
        for kind, table in (("tile", self.tiles), ("tag", self.tags), ("param", self.params),
                            ("decision", self.decisions), ("region", self.regions)):
            if name in table:
                return kind
        return None
