"""What the answer-file readers share: reading the file, and tokens with their columns."""

from __future__ import annotations

from gridlang.core.errors import MapError, read_source
from gridlang.core.limits import MAX_ANSWER_BYTES


def read_text(path: str) -> str:
    """The text of the answer file at ``path``, at most
    :data:`~gridlang.core.limits.MAX_ANSWER_BYTES` long (:func:`gridlang.core.errors.read_source`).

    Raises:
        MapError: the file cannot be read, is too long (located where the
            limit falls) or is not UTF-8 text (located at the first bad byte).
    """
    return read_source(path, MapError, "solution file", MAX_ANSWER_BYTES)


def tokens(line: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens of ``line`` with their 1-based columns."""
    out = []
    i = 0
    while i < len(line):
        if line[i].isspace():
            i += 1
            continue
        j = i
        while j < len(line) and not line[j].isspace():
            j += 1
        out.append((line[i:j], i + 1))
        i = j
    return out
