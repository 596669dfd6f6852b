"""Structured clue cells: what the text of a map cell holds when it is a clue.

A map cell's text (one character, or in a map whose cells are separated by
white space a longer token, :mod:`gridlang.formats.layers`) is a declared tile's
character, or one of these clue tokens:

=============  ============================================  ==================
token          holds                                         tile
=============  ============================================  ==================
``7``, ``12``  one whole number                              ``number``, else ``numbers``, else ``arrow number``
``?``          one unknown number                            as a number (unless a tile declares ``'?'``)
``1,3,3``      numbers separated by commas (``?`` entries)   ``numbers``
``^2``, ``v?`` an arrow (``^`` up, ``v`` down, ``<`` left,     ``arrow number``
               ``>`` right) and a number or ``?``
=============  ============================================  ==================

A ``numbers A, B`` tile (named parts) takes exactly as many entries as it
names, by position. The reading is the map format's, shared by the map
reader, the compiler and the spec-level verifier; what a rule does with a
clue is each one's own business.
"""

from __future__ import annotations

from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.nodes import Record

ARROWS = {"^": "up", "v": "down", "<": "left", ">": "right"}
"""An arrow's character -> the direction it points to."""

_ENTRY = r"(?:[0-9]+|\?)"
_NUMBER = LazyRegex(_ENTRY + r"\Z")
_NUMBERS = LazyRegex(_ENTRY + r"(?:," + _ENTRY + r")+\Z")
_ARROW = LazyRegex(r"[\^v<>]" + _ENTRY + r"\Z")


class Clue(Record):
    """A clue token read.

    Attributes:
        kind: ``"number"`` (one number, or ``?``), ``"numbers"`` (a list
            written with commas) or ``"arrow"``.
        entries: the numbers, in order; None for a ``?`` entry.
        direction: the arrow's direction (``"up"``, ...); None without an arrow.
    """

    kind: str
    entries: tuple[int | None, ...]
    direction: str | None = None

    @property
    def known(self) -> bool:
        """True when no entry is ``?``."""
        return None not in self.entries


def read_clue(text: str) -> Clue | None:
    """The clue a cell's text holds, or None when the text is no clue token (``.``, a letter)."""
    if not isinstance(text, str) or not text.isascii():
        return None
    if _NUMBER.match(text):
        return Clue("number", (_entry(text),))
    if _NUMBERS.match(text):
        return Clue("numbers", tuple(_entry(x) for x in text.split(",")))
    if _ARROW.match(text):
        return Clue("arrow", (_entry(text[1:]),), ARROWS[text[0]])
    return None


def arrow_of(text: str) -> str | None:
    """The direction (``"up"``, ...) a cell's text points to: an arrow number's arrow (``^2``), or an
    arrow written alone (``^``, ``v``, ``<``, ``>``: Sashigane's and Pencils' arrows); None for any
    other text."""
    if isinstance(text, str) and text in ARROWS:
        return ARROWS[text]
    clue = read_clue(text)
    return None if clue is None else clue.direction


def _entry(text: str) -> int | None:
    return None if text == "?" else int(text)


def single_value(text: str) -> int | None:
    """The one known number a clue cell holds; None for ``?``, a list of several, or no clue."""
    clue = read_clue(text)
    if clue is None or len(clue.entries) != 1:
        return None
    return clue.entries[0]


def why_no_value(text: str) -> str:
    """Why a clue cell's text has no single known number (for an error message)."""
    clue = read_clue(text)
    if clue is None:
        return f"{text!r} holds no number"
    if len(clue.entries) != 1:
        return f"{text!r} holds {len(clue.entries)} numbers, not one (values(c) lists them)"
    return f"{text!r} is an unknown number ('?'); say what '?' means, e.g. 'value(c) is known implies ...'"


def misfit(parts: tuple[str, ...], text: str) -> str | None:
    """Why a cell of a ``numbers`` tile with named ``parts`` cannot hold ``text``; None when it can."""
    clue = read_clue(text)
    if not parts or clue is None or len(clue.entries) == len(parts):
        return None
    return (f"{text!r} holds {len(clue.entries)} number{'s' if len(clue.entries) != 1 else ''}; this tile's cells "
            f"hold {len(parts)} ({', '.join(parts)}), separated by commas")
