"""The body of a URL read from left to right, and the values its encodings give.

Values, one per object an encoding fills (a cell, a room, a clue outside
the grid):

* ``None``: no value there (pzprjs's ``qnum = -1``);
* a whole number ``0`` or more;
* :data:`UNKNOWN`, ``"?"``: a clue whose number is not given (pzprjs's ``-2``);
* :class:`Arrow`: a direction and a number (or ``?``);
* a ``tuple`` of numbers (and ``?``): a list of numbers in one cell;
* :class:`Pair`: two sums, down and across;
* :class:`Named`: a tile of a genre's own encoding (a table's ``'g' = arrow_up``).

Each structured value has a token in the text map (:func:`token`): ``^2``,
``1,3,3``, ``12,7`` (docs/language.md, "Structured clue cells").
"""

from __future__ import annotations

import re
from typing import Union

from gridlang.core.nodes import Record
from gridlang.language.encodings.url import PuzzLink, UrlError, error

UNKNOWN = "?"
"""The value of a clue whose number is not given (pzprjs's -2)."""

ARROWS = {1: "^", 2: "v", 3: "<", 4: ">"}
"""pzprjs's directions (``qdir``: 1 up, 2 down, 3 left, 4 right) as a token's arrow."""


class Arrow(Record, slots=False):
    """A clue of a direction and a number: ``direction`` is ``^ v < >`` or ``""`` (none)."""

    direction: str
    number: Union[int, str]


class Pair(Record, slots=False):
    """Two sums in one cell: down, across; 0 stands for no sum."""

    down: int
    across: int


class Named(Record, slots=False):
    """A value that stands for a tile of its own, as a genre's own encoding gives it (``'g' = arrow_up``)."""

    tile: str


Value = Union[None, int, str, Arrow, Pair, Named, tuple]


def token(value: Value) -> str:
    """The text map's token of a structured value (an arrow, a list, a pair).

    Raises:
        TypeError: ``value`` is not structured.
    """
    if isinstance(value, Arrow):
        return value.direction + str(value.number)
    if isinstance(value, Pair):
        return f"{value.down},{value.across}"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    raise TypeError(f"{value!r} is not a structured value")


_ARROW = re.compile(r"^([\^v<>]?)(\d+|\?)$")
_LIST = re.compile(r"^(\d+|\?)(,(\d+|\?))*$")
_PAIR = re.compile(r"^(\d+),(\d+)$")


def read_arrow(text: str) -> Arrow | None:
    """``^2``, ``v?``, ``3`` as an :class:`Arrow`, or None when the text is not one."""
    m = _ARROW.match(text)
    if m is None:
        return None
    return Arrow(m.group(1), UNKNOWN if m.group(2) == "?" else int(m.group(2)))


def read_list(text: str) -> tuple | None:
    """``1,3,3``, ``?,2``, ``4`` as a tuple, or None when the text is not a list of numbers."""
    if _LIST.match(text) is None:
        return None
    return tuple(UNKNOWN if x == "?" else int(x) for x in text.split(","))


def read_pair(text: str) -> Pair | None:
    """``12,7`` as a :class:`Pair` (down, across), or None when the text is not two numbers."""
    m = _PAIR.match(text)
    return None if m is None else Pair(int(m.group(1)), int(m.group(2)))


class Body:
    """The body of a URL, read from the left; every error points into the URL.

    Attributes:
        link: the parsed URL.
        text: the body.
        i: the index of the next character to read.
    """

    def __init__(self, link: PuzzLink):
        self.link = link
        self.text = link.body
        self.i = 0

    @property
    def rest(self) -> str:
        """What is left to read."""
        return self.text[self.i:]

    def at_end(self) -> bool:
        """No character is left but slashes."""
        return not self.text[self.i:].strip("/")

    def error(self, message: str, at: int | None = None) -> UrlError:
        """An error whose caret stands at body index ``at`` (the next character when None)."""
        return error(self.link, message, self.link.offset + (self.i if at is None else at))

    def done(self) -> None:
        """Refuse characters left after the last part.

        Raises:
            UrlError: at the first one left.
        """
        rest = self.text[self.i:].rstrip("/")
        if rest:
            raise self.error(f"unexpected {rest[:20]!r} after the puzzle's data (a {self.link.size} grid is "
                             "complete before it)")

    def short(self, count: int, what: str, objects: str) -> UrlError:
        """The error of a part that ends after ``count`` of its objects."""
        return self.error(f"the data ends after {count} {objects}; {what}")
