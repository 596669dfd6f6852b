"""Parse ``.grid`` text into the typed AST (:mod:`gridlang.ast`).

The grammar is ``grammars/gridlang.lark`` (installed as
``gridlang.grammars``), parsed with Lark's LALR parser. Syntax errors become
:class:`~gridlang.errors.GridSyntaxError` with the file, line and column; the
common mistakes get a curated sentence through Lark's ``match_examples``, the
way Lark's own grammar loader reports errors.
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.exceptions import UnexpectedInput, VisitError

from .. import ast
from ..errors import GridlangError, GridSyntaxError, Span, read_source, too_long
from ..limits import MAX_NESTING, MAX_SPEC_BYTES, MAX_STATEMENTS
from .messages import _syntax_error
from .to_ast import _ToAst

_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
"""How the grammar is built; part of the cache key."""


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built once per process and kept across processes in the cache."""
    return build_parser(grammar_text(), cache_dir())


def grammar_text() -> str:
    """The text of ``grammars/gridlang.lark`` as installed."""
    return resources.files("gridlang.grammars").joinpath("gridlang.lark").read_text(encoding="utf-8")


def cache_dir() -> Path | None:
    """Where the built parser is kept: ``$XDG_CACHE_HOME/gridlang``, else
    ``~/.cache/gridlang``; None (no cache) when neither can be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "gridlang"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def cache_file(grammar: str, directory: Path) -> Path:
    """The cache file of a grammar: named by the SHA-256 of the grammar, the
    build options and the Lark and Python versions, so that any change to
    one of them is built afresh rather than served from an old file."""
    import hashlib
    import sys

    import lark

    key = "\0".join([grammar, repr(sorted(_OPTIONS.items())), lark.__version__, sys.version.split()[0]])
    return directory / f"grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark-cache"


def build_parser(grammar: str, directory: Path | None) -> Lark:
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
    if directory is None:
        return Lark(grammar, **_OPTIONS)
    return Lark(grammar, cache=str(cache_file(grammar, directory)), **_OPTIONS)


def parse_spec(text: str, path: str = "<spec>") -> ast.Spec:
    """Parse spec text.

    Args:
        text: the whole ``.grid`` file.
        path: the name used in error messages.

    Returns:
        The spec's AST.

    Raises:
        GridSyntaxError: the text does not follow the grammar, or is beyond
            the limits of :mod:`gridlang.limits` (bytes, statements, an
            integer, a set of integers, the nesting of an expression).
    """
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_SPEC_BYTES:
        raise too_long(raw, path, GridSyntaxError, "spec", MAX_SPEC_BYTES, len(raw))
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, path) from e
    try:
        statements = _ToAst(path).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, GridlangError):
            err = e.orig_exc
            err.source = text
            raise err from e
        raise
    if len(statements) > MAX_STATEMENTS:
        raise GridSyntaxError(f"the spec has {len(statements):,} statements; gridlang reads a spec of at most "
                              f"{MAX_STATEMENTS:,}", statements[MAX_STATEMENTS].span, source=text)
    _check_nesting(statements, text)
    return ast.Spec(tuple(statements), path, text)


def parse_file(path: str | Path) -> ast.Spec:
    """Read and parse a ``.grid`` file.

    Raises:
        GridSyntaxError: the file cannot be read, is not UTF-8, or does not
            follow the grammar.
    """
    p = str(path)
    text = read_source(path, GridSyntaxError, "spec", MAX_SPEC_BYTES)
    return parse_spec(text, p)


def _check_nesting(statements: list, text: str) -> None:
    """Refuse an expression or rule nested deeper than :data:`~gridlang.limits.MAX_NESTING`.

    The checker, the compiler and the interpreter walk the AST recursively;
    this walk does not, so that no spec reaches Python's recursion limit.
    Parentheses make no node, so they add no depth.

    Raises:
        GridSyntaxError: at the first node (in source order) nested too deep.
    """
    for st in statements:
        stack = [(st, 0)]
        while stack:
            node, depth = stack.pop()
            if depth > MAX_NESTING:
                raise GridSyntaxError(f"this expression is nested more than {MAX_NESTING} levels deep (each "
                                      "operator, 'not', count(...) or rule inside another adds a level); "
                                      "split it into regions or rules", node.span, source=text)
            for name in type(node).__dataclass_fields__:
                child = getattr(node, name)
                if isinstance(child, tuple):
                    stack.extend((c, depth + 1) for c in reversed(child) if _is_node(c))
                elif _is_node(child):
                    stack.append((child, depth + 1))


def _is_node(x) -> bool:
    """An AST node that can hold others (not a span, a name or a literal)."""
    return hasattr(x, "__dataclass_fields__") and not isinstance(x, (Span, ast.Name, ast.IntLit, ast.Symbol))


