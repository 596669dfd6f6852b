"""The language's grammar as a Lark parser: built once per process, kept across processes
in a cache directory that only this user may write (Lark's own cache of the analysed grammar).
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib

    from lark import Lark

_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
"""How the grammar is built; part of the cache key."""


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built once per process and kept across processes in the cache."""
    return build_parser(grammar_text(), cache_dir())


def grammar_text() -> str:
    """The text of ``grammars/gridlang.lark`` as installed."""
    from importlib import resources

    return resources.files("gridlang.grammars").joinpath("gridlang.lark").read_text(encoding="utf-8")


def cache_dir() -> str | None:
    """Where the built parser and the parsed specs are kept: ``$XDG_CACHE_HOME/gridlang``,
    else ``~/.cache/gridlang``, as a path string (every solve asks, and a solve does not import
    ``pathlib``); None (no cache) when neither can be made or written.

    Both caches are pickles, and unpickling runs code, so on a system with
    user ids a directory that another user owns, or that its group or
    anyone may write to, is not used either.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "gridlang")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.stat(path)
    except OSError:
        return None
    if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
        return None
    return path if os.access(path, os.W_OK) else None


def cache_file(grammar: str, directory: str | Path) -> Path:
    """The cache file of a grammar: named by the SHA-256 of the grammar, the
    build options and the Lark and Python versions, so that any change to
    one of them is built afresh rather than served from an old file."""
    # imported on use: only a spec parsed afresh builds the parser
    import hashlib
    import sys
    from pathlib import Path

    import lark

    key = "\0".join([grammar, repr(sorted(_OPTIONS.items())), lark.__version__, sys.version.split()[0]])
    return Path(directory) / f"grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark-cache"


def build_parser(grammar: str, directory: str | Path | None) -> Lark:
    """Build the LALR parser of ``grammar``, through Lark's cache in ``directory``.

    Lark stores the analysed grammar (a pickle) in the cache file and loads
    it instead of building when the file's own hash of the grammar and
    options matches; a file that cannot be read or written is passed over
    and the parser built.

    Args:
        grammar: the Lark grammar text.
        directory: the cache directory, or None for no cache.

    Returns:
        The parser.
    """
    from lark import Lark

    if directory is None:
        return Lark(grammar, **_OPTIONS)
    return Lark(grammar, cache=str(cache_file(grammar, directory)), **_OPTIONS)
