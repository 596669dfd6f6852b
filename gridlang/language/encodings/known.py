"""Every shared encoding gridlang knows, by its name in a spec's ``format`` statement.

The encodings' records are :mod:`gridlang.language.encodings.table`'s; each
module of encodings (numbers, clue lists and arrows, bits, banks) lists its
own in ``ENCODINGS``, and this table gathers them, so that no module of
encodings imports the table that lists it.
"""

from __future__ import annotations

import functools

from gridlang.language.encodings import banks, bits, clues, numbers, own
from gridlang.language.encodings.table import Encoding


@functools.lru_cache(maxsize=1)
def encodings() -> dict[str, Encoding]:
    """Every shared encoding, by its name in a spec."""
    table: dict[str, Encoding] = {}
    for module in (numbers, clues, bits, banks, own):
        for enc in module.ENCODINGS:
            table[enc.name] = enc
    return table


def encoding_for(item) -> Encoding | None:
    """The encoding a format item reads and writes with, or None when its name is unknown.

    A shared encoding is the registry's; ``table`` is the item's own, built from its mapping
    (:mod:`gridlang.language.encodings.own`).

    Raises:
        TableError: the item's table is malformed or ambiguous (the checker reports it first).
    """
    if item.encoding == own.NAME:
        return own.Table(item.mapping)
    return encodings().get(item.encoding)


def mapping_for(item) -> dict:
    """The mapping that places a format item's values on tiles: its entries, or a table's tiles."""
    if item.encoding == own.NAME:
        try:
            return own.Table(item.mapping).mapping()
        except own.TableError:
            return {}
    return {e.key: e.value for e in item.mapping}
