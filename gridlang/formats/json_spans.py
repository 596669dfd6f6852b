"""Where things stand in a JSON text: keys, array items and a string's characters, in linear time.

The map readers (:mod:`gridlang.formats.maps`, the Snake Eggs records) decode a
record with :mod:`json` and then point their errors at the line and column
of a key, an item or one character of a string. Every lookup here is
linear in the text at most once, however many spans are asked for:

* :class:`LineIndex`: line and column of any offset by bisection over the
  line starts (a search from the start of the text per span made reading a
  1 MB record quadratic: over 200 s);
* :func:`members`: the top-level keys of an object with the offsets of the
  key and of its value, each value skipped by the C decoder;
* :func:`item_offsets`: where the items of an array begin, the same way;
* :class:`StringChars`: the offset of each decoded character of a string,
  by bisection over its escapes (a JSON string has no raw line break, so
  the characters share the line of the opening quote).

The text is known to be valid JSON (decoded before); what does not match
the expected shape gives fewer offsets, never an exception.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from array import array
from typing import Iterator

from gridlang.core.errors import Span
from gridlang.core.lazy_regex import LazyRegex

_SPACE = LazyRegex(r"[ \t\n\r]*")
_ESCAPE = LazyRegex(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.")
_DECODER = json.JSONDecoder(parse_int=str, parse_float=str)  # the values are skipped, never used


class LineIndex:
    """Line and column (1-based) of an offset into ``text``.

    Args:
        path: the file's name, for the spans.
        text: the file's text.
    """

    def __init__(self, path: str, text: str):
        self.path = path
        self.starts = array("q", [0])
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def span(self, offset: int, length: int = 0) -> Span:
        """The span at ``offset`` (``length`` characters long; 0: a caret)."""
        line = bisect.bisect_right(self.starts, offset)
        column = offset - self.starts[line - 1] + 1
        return Span(self.path, line, column, column + length if length else None)


def _skip(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()


def members(text: str, start: int = 0) -> dict[str, tuple[int, int]]:
    """The keys of the JSON object at ``start`` (after white space), each with the offsets of
    its opening quote and of its value; a key given twice keeps its last place (the value
    :mod:`json` keeps)."""
    return {key: (at, value) for key, at, value in _entries(text, start, "{")}


def nth_key(text: str, n: int, start: int = 0) -> int | None:
    """The offset of the ``n``-th key (from 0) of the JSON object at ``start``, found without
    walking past it; None when the object has fewer."""
    entry = next(itertools.islice(_entries(text, start, "{"), n, None), None)
    return None if entry is None else entry[1]


def item_offsets(text: str, start: int, count: int) -> list[int]:
    """Where the first ``count`` items of the JSON array at ``start`` begin (fewer if it has fewer)."""
    return [value for _, value, _ in itertools.islice(_entries(text, start, "["), count)]


_COLON = LazyRegex(r"[ \t\n\r]*:[ \t\n\r]*")
_AFTER = LazyRegex(r"[ \t\n\r]*(,?)[ \t\n\r]*")
"""White space, an optional comma, white space: what stands between two entries."""


def _entries(text: str, start: int, opening: str) -> Iterator[tuple[str | None, int, int]]:
    """``(key, offset of the entry, offset of its value)`` for each member of the object (``{``)
    or item of the array (``[``, key None) at ``start``, each value skipped by the C scanner."""
    space, colon, after = _SPACE.match, _COLON.match, _AFTER.match
    scan, skip = json.decoder.scanstring, _DECODER.scan_once
    i = space(text, start).end()
    if text[i : i + 1] != opening:
        return
    i = space(text, i + 1).end()
    keyed = opening == "{"
    try:
        while text[i : i + 1] not in ("]", "}", ""):
            key, value = None, i
            if keyed:
                key, j = scan(text, i + 1)
                value = colon(text, j).end()
            end = skip(text, value)[1]
            yield key, i, value
            m = after(text, end)
            if not m.group(1):
                return
            i = m.end()
    except (ValueError, StopIteration, RecursionError, AttributeError):
        return


class StringChars:
    """The offset in the text of each decoded character of the JSON string at ``start``.

    An escape (``\\n``, ``\\u0041``, a surrogate pair) is several characters
    of the text for one decoded character; the offsets of the escapes are
    kept, and a character's offset is found by bisection among them.

    Args:
        text: the JSON text.
        start: the offset of the string's opening quote.
    """

    def __init__(self, text: str, start: int):
        self.content = start + 1
        self.at = array("q")  # decoded index of each escape
        self.extra = array("q")  # characters of the text beyond one, up to and including that escape
        extra = 0
        end = json.decoder.scanstring(text, self.content)[1] - 1
        decoded = 0
        last = self.content
        for m in _ESCAPE.finditer(text, self.content, end):
            decoded += m.start() - last
            extra += m.end() - m.start() - 1
            self.at.append(decoded)
            self.extra.append(extra)
            decoded += 1
            last = m.end()

    def offset(self, index: int) -> int:
        """The offset in the text of decoded character ``index``."""
        k = bisect.bisect_left(self.at, index)
        before = self.extra[k - 1] if k else 0
        return self.content + index + before
