"""The ``format`` statement: how a URL's body fills the map (puz.link formats)."""

from __future__ import annotations

from typing import Union

from gridlang.core.errors import Span
from gridlang.core.nodes import Record, field


class FormatEntry(Record):
    """``KEY = VALUE`` in a format item's mapping.

    Attributes:
        key: an ``int`` (a value), ``"?"``, a word (``empty``, ``number``, a
            preset's letter), a size (``"9x9"``), or, in a ``table``, a
            character (``"g"``), a range of them (``("k", "z")``) or a prefix
            and its digits (``("-", 2, "hex")``).
        key_kind: ``int``, ``unknown``, ``name``, ``size``, ``char``, ``chars`` or ``prefix``.
        value: a name (a tile), an ``int``, a text (a ``STRING``'s contents),
            ``"?"``, a range ``(N, M)``, or a named range ``("skip", N, M)``.
        value_kind: ``name``, ``int``, ``text``, ``unknown``, ``range`` or ``named range``.
    """

    key: Union[int, str]
    key_kind: str
    value: Union[int, str]
    value_kind: str
    span: Span | None = field(default=None, compare=False)
    key_span: Span | None = field(default=None, compare=False)
    value_span: Span | None = field(default=None, compare=False)


class FormatItem(Record):
    """``PLACE: ENCODING [(KEY = VALUE, ...)]``: a part of the URL's body and where its values go.

    Attributes:
        place: the place's words joined by one space (``cells``, ``room
            numbers``, ``outside top left``, a parameter's name).
        encoding: the encoding's words joined by one space (``number16``, ``piece bank``).
        mapping: the entries, in order.
    """

    place: str
    encoding: str
    mapping: tuple[FormatEntry, ...] = ()
    span: Span | None = field(default=None, compare=False)
    place_span: Span | None = field(default=None, compare=False)
    encoding_span: Span | None = field(default=None, compare=False)


class FormatFlag(Record):
    """``flag "X": NAME = INT``: the URL's flag X sets parameter NAME to INT."""

    flag: str
    param: str
    value: int
    span: Span | None = field(default=None, compare=False)
    flag_span: Span | None = field(default=None, compare=False)
    param_span: Span | None = field(default=None, compare=False)


class Format(Record):
    """``format KIND "NAME" "ALIAS"...: ITEM...``: a URL format of the puzzle.

    Attributes:
        kind: the format's kind (``puzzlink``).
        names: the genre's names in URLs, the canonical one first.
        items: the body's parts in order, and the flags.
    """

    kind: str
    names: tuple[str, ...]
    items: tuple[Union[FormatItem, FormatFlag], ...]
    span: Span | None = field(default=None, compare=False)
    kind_span: Span | None = field(default=None, compare=False)
    name_spans: tuple[Span, ...] = field(default=(), compare=False)

    @property
    def parts(self) -> list[FormatItem]:
        """The items that read a part of the body, in order."""
        return [x for x in self.items if isinstance(x, FormatItem)]

    @property
    def flags(self) -> list[FormatFlag]:
        """The flag items."""
        return [x for x in self.items if isinstance(x, FormatFlag)]
