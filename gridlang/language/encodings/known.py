"""Every shared encoding gridlang knows, by its name in a spec's ``format`` statement.

The encodings' records are :mod:`gridlang.language.encodings.table`'s; each
module of encodings (numbers, clue lists and arrows, bits, banks) lists its
own in ``ENCODINGS``, and this table gathers them, so that no module of
encodings imports the table that lists it.
"""

from __future__ import annotations

import functools

from gridlang.language.encodings import banks, bits, clues, numbers
from gridlang.language.encodings.table import Encoding


@functools.lru_cache(maxsize=1)
def encodings() -> dict[str, Encoding]:
    """Every shared encoding, by its name in a spec."""
    table: dict[str, Encoding] = {}
    for module in (numbers, clues, bits, banks):
        for enc in module.ENCODINGS:
            table[enc.name] = enc
    return table
