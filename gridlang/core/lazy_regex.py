"""Regular expressions compiled on their first use, not at import.

A module-level ``re.compile`` costs 0.15 to 0.37 ms when the module is
imported (measured on this project's patterns in a fresh process); the
modules a ``gridlang solve`` imports held 19 of them, 4.6 ms in all, most
of which a given command never matches (the JSON map reader's on a text
map, the clue parser's on a map without clues). :class:`LazyRegex` keeps
the pattern's text and compiles it when a method is first asked for.
"""

from __future__ import annotations

import re
from typing import Any

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split")
"""The methods of a compiled pattern that are bound to the instance at its first use, so that later
calls cost what a compiled pattern's do."""


class LazyRegex:
    """A regular expression, compiled by ``re.compile(pattern, flags)`` on first use.

    Any attribute of a compiled ``re.Pattern`` may be asked for (``match``,
    ``finditer``, ``groups``, ...); the first such request compiles it and
    binds the matching methods to this object.

    Raises:
        re.error: on first use, a pattern that does not compile (every
            pattern of the project is compiled by a test,
            tests/language/test_startup.py).
    """

    def __init__(self, pattern: str, flags: int = 0):
        self._source = (pattern, flags)

    def compiled(self) -> re.Pattern:
        """The compiled pattern (``re`` keeps it in its own cache, so every call returns the same one)."""
        return re.compile(*self._source)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_source":  # copy and pickle protocols, half-made instances
            raise AttributeError(name)
        compiled = self.compiled()
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyRegex({self._source[0]!r}, {self._source[1]!r})"
