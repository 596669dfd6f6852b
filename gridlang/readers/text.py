"""What the answer-file readers share: reading the file, and tokens with their columns."""

from __future__ import annotations

from pathlib import Path

from ..errors import MapError, Span


def read_text(path: str) -> str:
    """The text of the answer file at ``path``.

    Raises:
        MapError: the file cannot be read or is not UTF-8 text, located at
            its first line.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MapError(f"cannot read solution file: {e}", Span(str(path), 1, 1)) from e


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
