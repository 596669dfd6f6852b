"""What every shared encoding offers, the places of a format, and the table of encodings by name.

An :class:`Encoding` reads its part of a URL's body into one value per
object (:mod:`gridlang.language.encodings.body` lists the values) and writes values
back into that part. The engine (:mod:`gridlang.formats.puzzlink.engine`) decides
which objects a part fills from the format item's place:

``cells``
    the grid's cells, row by row;
``rooms``
    the room layer (``borders`` only): one room number per cell;
``room numbers``
    one value per room, rooms in the order of their first cell;
``outside top left``, ``outside all``
    the clues outside the grid (pzprjs excells): the columns' clues above,
    then the rows' clues on the left (and, for ``all``, below and right);
``outside top left stacked``
    the same above and on the left, several clues per line: half the rows
    (rounded up) above each column, half the columns left of each row, each
    line's clues from the grid outwards (pzprjs's ``excellRows`` and
    ``excellCols``);
a parameter's name
    one value for the parameter (``field``, ``piece bank``, ...);
``corners``, ``inner corners``
    the corners of the cells, row by row, the frame's included (pzprjs's
    crosses, ``hascross: 2``), or only those inside the grid (``hascross:
    1``: ``(cols - 1) x (rows - 1)`` of them), into the ``corners:`` layer;
``borders``
    the borders between two side-adjacent cells in pzprjs's order: the
    ``rows x (cols - 1)`` between left and right neighbours row by row,
    then the ``(rows - 1) x cols`` between upper and lower ones (pzprjs's
    ``hasborder: 1``), into the ``borders:`` layer;
``dots``
    the places of the doubled lattice inside the grid, row by row (pzprjs's
    dots of ``hasdots: 1``: ``(2 cols - 1) x (2 rows - 1)`` of them): a
    cell's centre, the middle of a border between two cells, a corner
    inside the grid; each value goes into its place's layer (the grid, the
    ``borders:`` layer, the ``corners:`` layer);
``separator``
    no value: a ``/`` between two parts (``slash``), written always.
"""

from __future__ import annotations

from gridlang.core.nodes import Record, field
from gridlang.language.encodings.body import Body, Value

CELL_PLACES = ("cells", "room numbers", "outside top left", "outside all", "outside top left stacked")
"""Places whose objects become map cells (numbers, marks, clues)."""

PLACES = ("cells", "rooms", "room numbers", "outside top left", "outside all", "outside top left stacked",
          "corners", "inner corners", "borders", "dots", "separator")
"""Every place a format item may name besides a parameter."""

CORNER_PLACES = ("corners", "inner corners")
"""Places whose objects stand on the corners of the cells (the map's ``corners:`` layer)."""

BORDER_PLACES = ("borders",)
"""Places whose objects stand on the borders between cells (the map's ``borders:`` layer)."""

DOT_PLACES = ("dots",)
"""Places whose objects stand on cells, borders and corners alike (the doubled lattice inside the grid)."""


class Unwritable(ValueError):
    """A value an encoding cannot write (a 12 in a one-digit encoding).

    Attributes:
        index: the object (cell, room, clue) whose value it is.
    """

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


class Part(Record, frozen=False, slots=False):
    """What an encoding needs to know about the part it reads or writes.

    Attributes:
        place: the item's place (``cells``, ``rooms``, ``outside top left``, a parameter's name).
        cols, rows: the grid's size, without the clues outside it.
        mapping: the item's mapping entries, key -> value (``{"p": "pentominoes"}``).
        spec: the spec's name, for messages (``my.grid``).
        ptype: for a parameter, its type (``int``, ``set of int``, ``shapes``).
        cells: the values the format's earlier ``cells`` items gave, row-major
            (the sums outside the grid depend on them).
        roomless: the cells (row-major) of tiles in no room (``no room``):
            ``borders`` writes no border beside them, as pzprjs leaves its
            holes without borders of their own.
    """

    place: str
    cols: int
    rows: int
    mapping: dict = field(default_factory=dict)
    spec: str = ""
    ptype: str | None = None
    cells: list[Value] | None = None
    roomless: frozenset[int] = frozenset()


class Encoding:
    """A pzprjs encoding shared by several genres.

    Attributes:
        name: its name in a spec (``number16``, ``piece bank``).
        places: the places it may fill: ``cells``, ``rooms``, ``room numbers``,
            ``outside`` (both outside places), or a parameter type (``int``,
            ``shapes``, ``set of int``).
        values: the numbers it gives when they are a fixed few (``(1, 2)``
            for circles), else None.
        structured: it gives structured values, written as tokens of their own.
        keys: the kind of mapping keys it takes: ``values`` (numbers, ``?``,
            ``empty``, ``number``, and the encoding's ``names``), ``size`` (``9x9 = 3``), ``preset``
            (``p = "pentominoes"``), or ``none``.
    """

    name: str = ""
    places: frozenset[str] = frozenset({"cells"})
    values: tuple[int, ...] | None = None
    structured: bool = False
    keys: str = "values"
    names: tuple[str, ...] = ()
    """The symbols it gives besides numbers, each a mapping key of its own (``less``, ``greater``)."""

    def decode(self, body: Body, count: int, part: Part) -> tuple[list[Value], list[int]]:
        """Read the part: ``count`` values, and for each the body index it was read at.

        Raises:
            UrlError: the part is malformed or ends early, located in the URL.
        """
        raise NotImplementedError

    def encode(self, values: list[Value], part: Part) -> str:
        """Write ``values`` (one per object) as the part's text.

        Raises:
            Unwritable: a value this encoding cannot write.
        """
        raise NotImplementedError
