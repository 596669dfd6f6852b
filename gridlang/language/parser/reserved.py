"""Words of the language that cannot name a thing, and the error for a declaration that tries.

The grammar is read with a contextual lexer, so most keywords (``cell``,
``number``, ``digit``, ``a``, ``x``, ...) are names wherever a name stands.
The words below are not: where a name is used, the parser reads them as the
language's own word (a direction, a built-in cell set, an aggregate), so a
tile called ``up`` could be declared but never used. Such a declaration is
refused at the name, in one located error, both by the checker and when
the spec does not even parse (a use such as ``count(s and up)`` is a syntax
error there). ``tests/language/test_reserved.py`` tries every keyword of the
grammar in the places a name is used, so the list stays complete.
"""

from __future__ import annotations

import re

from gridlang.core.errors import GridSyntaxError, Span
from gridlang.core.lazy_regex import LazyRegex

DIRECTIONS = frozenset({"up", "down", "left", "right"})
BUILT_IN_SETS = frozenset({"all", "border", "edges", "corners"})
RESERVED = DIRECTIONS | BUILT_IN_SETS | frozenset({
    "any", "cells", "column", "component", "corner", "count", "covers", "degree", "diagonal", "king", "neighbours",
    "not", "room", "row", "runs", "sight", "straight", "sum", "turn", "value"})
"""The words that cannot name a tile, tag, parameter, decision, region or ``for each`` variable."""

_DECLARATION = LazyRegex(r"^[ \t]*(tile|param|decide|region)[ \t]+([A-Za-z_][A-Za-z0-9_]*)\b", re.MULTILINE)
_KINDS = {"tile": "tile", "param": "parameter", "decide": "decision", "region": "region"}


def reserved_use(name: str) -> str | None:
    """What the language reads ``name`` as where a name is used, or None when it may name a thing."""
    if name not in RESERVED:
        return None
    if name in DIRECTIONS:
        return "a direction"
    if name in BUILT_IN_SETS:
        return "a built-in set of cells or edges"
    return "a word of the language"


def reserved_message(name: str, what: str) -> str:
    """The error for a ``what`` (``tile``, ``parameter``, ...) declared with the reserved ``name``."""
    return (f"{name!r} is {reserved_use(name)} in gridlang, so it cannot name a {what}: every use of it would "
            f"read as that word; give the {what} another name, such as {name + '_' + what.split()[-1]!r}")


def reserved_declarations(text: str, path: str) -> list[GridSyntaxError]:
    """The declarations in a spec's text whose name is reserved, each as a located error.

    Used when the spec does not parse: the syntax error a use of such a name
    causes follows from the declaration, which is where the error is.
    """
    out = []
    for m in _DECLARATION.finditer(text):
        keyword, name = m.group(1), m.group(2)
        if reserved_use(name) is not None:
            line = text.count("\n", 0, m.start(2)) + 1
            column = m.start(2) - (text.rfind("\n", 0, m.start(2)) + 1) + 1
            out.append(GridSyntaxError(reserved_message(name, _KINDS[keyword]),
                                       Span(path, line, column, column + len(name)), source=text))
    return out


__all__ = ["BUILT_IN_SETS", "DIRECTIONS", "RESERVED", "reserved_declarations", "reserved_message", "reserved_use"]
