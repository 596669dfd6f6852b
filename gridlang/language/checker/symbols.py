"""The checker's types and the symbol table it hands to the compiler."""

from __future__ import annotations

import enum
import operator

from gridlang.core.nodes import Record, field
from gridlang.language import ast


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
    BORDERS = "a set of borders between cells"
    LIST = "a list of numbers read from the map"

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
    """Map character -> tile name, and the tiles of the cells that hold clues.

    ``get(text)`` answers for a single character as a dict does; for a
    cell's text that is a clue token (:mod:`gridlang.core.clues`: ``7``, ``?``,
    ``1,3,3``, ``^2``) not claimed by a character of its own, it answers
    the tile that holds it: a single number or ``?`` the ``number`` tile,
    else the ``numbers`` tile, else the ``arrow number`` tile; a list the
    ``numbers`` tile; an arrow the ``arrow number`` tile.

    Attributes:
        number: the name of the ``number`` tile, or None.
        numbers: the name of the ``numbers`` tile, or None.
        arrow: the name of the ``arrow number`` tile, or None.
    """

    number: str | None = None
    numbers: str | None = None
    arrow: str | None = None

    def get(self, key, default=None):
        """The tile of a cell's text, or ``default``."""
        if key in self:
            return self[key]
        # imported on use, not at start-up
        from gridlang.core.clues import read_clue

        clue = read_clue(key)
        if clue is None:
            return default
        order = {"number": (self.number, self.numbers, self.arrow), "numbers": (self.numbers,),
                 "arrow": (self.arrow,)}[clue.kind]
        return next((tile for tile in order if tile is not None), default)

    def claimed(self, ch: str) -> str | None:
        """The tile that already claims the character ``ch`` for a new tile: its own, or a
        number tile's for a digit (a number tile claims every digit; ``?`` stays free)."""
        if ch in self:
            return self[ch]
        return self.get(ch) if ch.isascii() and ch.isdigit() else None


class Symbols(Record, frozen=False, slots=False):
    """What a spec declares, by name.

    Attributes:
        tiles: tile name -> Tile.
        tags: tag name -> names of the tiles that carry it.
        chars: map character -> tile name (a :class:`TileTable`, which also
            answers the ``number`` tile for a cell's number).
        params: parameter name -> Param.
        decisions: decision name -> Decide.
        regions: region name -> Region.
        lets: let name -> Let (named expressions).
        parts: part name -> (tile name, position): the named parts of
            ``numbers`` tiles (``down(c)``).
        cell_decisions: decision name -> the name of the fixed cell set
            (a tile or tag) whose cells are its values (``decide owner:
            clue on all``).
        connectivity: the spec's ``connectivity`` strategy, or None.
        draws: the spec's ``draw`` statements that passed the checks, in
            source order (:mod:`gridlang.language.looks`).
        corner_tiles: tile name -> Tile for the tiles ``on corners`` (not in
            ``tiles``, which are the cells' own).
        corner_chars: map character -> corner tile name, as ``chars`` for
            the cells (a digit is the corners' ``number`` tile's).
        border_tiles: tile name -> Tile for the tiles ``on borders``, the
            borders between two side-adjacent cells (pzprjs's borders).
        border_chars: map character -> border tile name, as ``corner_chars``.
        frame_borders: the borders include the grid's outer frame (the
            spec's tiles are ``on borders and frame``, pzprjs's
            ``hasborder: 2``): ``2 (R + C)`` borders more, after the others.
    """

    tiles: dict[str, ast.Tile] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    chars: TileTable = field(default_factory=TileTable)
    params: dict[str, ast.Param] = field(default_factory=dict)
    decisions: dict[str, ast.Decide] = field(default_factory=dict)
    regions: dict[str, ast.Region] = field(default_factory=dict)
    lets: dict[str, ast.Let] = field(default_factory=dict)
    parts: dict[str, tuple[str, int]] = field(default_factory=dict)
    cell_decisions: dict[str, str] = field(default_factory=dict)
    connectivity: str | None = None
    draws: list[ast.Draw] = field(default_factory=list)
    corner_tiles: dict[str, ast.Tile] = field(default_factory=dict)
    corner_chars: TileTable = field(default_factory=TileTable)
    border_tiles: dict[str, ast.Tile] = field(default_factory=dict)
    border_chars: TileTable = field(default_factory=TileTable)
    frame_borders: bool = False

    def kind_of(self, name: str) -> str | None:
        """``tile``, ``corner tile``, ``border tile``, ``tag``, ``param``, ``decision``, ``region``, ``let``,
        ``part`` or None."""
        for kind, table in (("tile", self.tiles), ("corner tile", self.corner_tiles),
                            ("border tile", self.border_tiles), ("tag", self.tags),
                            ("param", self.params),
                            ("decision", self.decisions), ("region", self.regions), ("let", self.lets),
                            ("part", self.parts)):
            if name in table:
                return kind
        return None


BOUND = {"<=": operator.le, ">=": operator.ge, "==": operator.eq, "<": operator.lt, ">": operator.gt}
"""A parameter's bound (``param k: int >= 1``) as the test it makes of a value."""
