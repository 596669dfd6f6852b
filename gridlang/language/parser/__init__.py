"""Parse ``.grid`` text into the typed AST (:mod:`gridlang.language.ast`).

The grammar is ``grammars/gridlang.lark`` (installed as
``gridlang.grammars``), parsed with Lark's LALR parser. Syntax errors become
:class:`~gridlang.core.errors.GridSyntaxError` with the file, line and column; the
common mistakes get a curated sentence through Lark's ``match_examples``, the
way Lark's own grammar loader reports errors.

Two caches keep a command's start-up short, both in :func:`cache_dir`:
Lark's own cache of the analysed grammar (:func:`build_parser`), and the
AST of each spec file parsed without error (:func:`parse_file`), with its
symbols once it has passed the checks (:func:`parse_and_check_file`), so
that a spec read before costs neither Lark's import nor a parse, and a spec
solved before not the checker's import either.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import zlib
from typing import TYPE_CHECKING

from gridlang import grammars
from gridlang.core.errors import GridlangError, GridSyntaxError, Span, one_line_end, raise_all, read_source, too_long
from gridlang.core.limits import MAX_NESTING, MAX_SPEC_BYTES, MAX_STATEMENTS
from gridlang.core.nodes import field_names
from gridlang.core.version import VERSION
from gridlang.language import ast
from gridlang.language.checker import Symbols, check
from gridlang.language.parser.grammar import _parser, cache_dir

try:  # CPython's C unpickler, which pickle.load is, without pickle.py (87 KB of byte code): a cache hit reads with it alone
    from _pickle import load as _load
except ImportError:  # a Python without it
    from pickle import load as _load

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib


def parse_spec(text: str, path: str = "<spec>") -> ast.Spec:
    """Parse spec text.

    Args:
        text: the whole ``.grid`` file; its lines may end in ``\\n``,
            ``\\r\\n`` or ``\\r`` (:func:`gridlang.core.errors.one_line_end`).
        path: the name used in error messages.

    Returns:
        The spec's AST.

    Raises:
        GridSyntaxError: the text does not follow the grammar, or is beyond
            the limits of :mod:`gridlang.core.limits` (bytes, statements, an
            integer, a set of integers, the nesting of an expression).
        SemanticError: a ``let`` used wrongly (:func:`gridlang.language.parser.lets.expand_lets`).
    """
    from lark.exceptions import UnexpectedInput, VisitError

    # imported on use, not at start-up
    from gridlang.language.parser.messages import _syntax_error
    from gridlang.language.parser.reserved import reserved_declarations
    from gridlang.language.parser.to_ast import _ToAst

    text = one_line_end(text)
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_SPEC_BYTES:
        raise too_long(raw, path, GridSyntaxError, "spec", MAX_SPEC_BYTES, len(raw))
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        reserved = reserved_declarations(text, path)
        if reserved:  # a use of a reserved name fails to parse; the mistake is where it is declared

            raise_all(reserved)
        raise _syntax_error(e, text, path) from e
    builder = _ToAst(path)
    try:
        statements = builder.transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, GridSyntaxError) and (reserved := reserved_declarations(text, path)):
            raise_all(reserved)  # a use of a reserved name the tree refuses (on corners): where it is declared
        if isinstance(e.orig_exc, GridlangError):
            err = e.orig_exc
            err.source = text
            raise err from e
        raise
    if len(statements) > MAX_STATEMENTS:
        raise GridSyntaxError(f"the spec has {len(statements):,} statements; gridlang reads a spec of at most "
                              f"{MAX_STATEMENTS:,}", statements[MAX_STATEMENTS].span, source=text)
    _check_nesting(statements, text)
    # imported on use, not at start-up
    from gridlang.language.parser.lets import expand_lets

    try:
        expanded = expand_lets(statements, text)
    except GridlangError as err:
        err.source = text
        raise
    if expanded is not statements:
        _check_nesting(expanded, text)  # the copies of lets nest too
    return ast.Spec(tuple(expanded), path, text, tuple(builder.names))


def parse_file(path: str | Path) -> ast.Spec:
    """Read and parse a ``.grid`` file; a file parsed before, unchanged, comes from the spec cache.

    Raises:
        GridSyntaxError: the file cannot be read, is not UTF-8, or does not
            follow the grammar.
    """
    text = read_source(path, GridSyntaxError, "spec", MAX_SPEC_BYTES)
    return _parse_cached(text, str(path))[0]


def parse_and_check_file(path: str | Path) -> tuple[ast.Spec, Symbols]:
    """Read, parse and check a ``.grid`` file: its AST and its symbol table.

    A file checked before, unchanged, comes from the spec cache with its
    symbols, so that a command that solves it imports neither Lark nor the
    checker (:mod:`gridlang.language.checker`, some 4 ms of a solve's start).
    A spec that fails the checks is checked again each time: its errors are
    never cached.

    Raises:
        GridSyntaxError: the file cannot be read, is not UTF-8, or does not
            follow the grammar.
        SemanticError: one problem found by the checks.
        MultipleErrors: several, in source order.
    """
    text = read_source(path, GridSyntaxError, "spec", MAX_SPEC_BYTES)
    return _checked_cached(text, str(path))


@functools.lru_cache(maxsize=16)
def _parse_cached(text: str, path: str) -> tuple[ast.Spec, Symbols | None]:
    """:func:`parse_spec`, served from this process's memory or from the spec cache when it can be:
    the AST, and its symbols when the cache holds them (else None).

    A command may read its spec twice (the shorthand ``--NAME VALUE``
    parameters are looked up in it before the command runs); the AST is
    immutable, so both get the same one.
    """
    directory = cache_dir()
    if directory is None:
        return parse_spec(text, path), None
    file = spec_cache_file(path, directory)
    key = (_fingerprint(), path, text)
    try:
        with open(file, "rb") as fp:
            stored = _load(fp)
        if isinstance(stored, tuple) and len(stored) == 3 and stored[0] == key and isinstance(stored[1], ast.Spec):
            try:
                os.utime(file)  # recently used: kept when the cache is pruned
            except OSError:
                pass
            return stored[1], stored[2]
    except Exception:  # noqa: BLE001 - missing, unreadable, corrupt or from other code: parse afresh
        pass
    spec = parse_spec(text, path)
    _keep(file, (key, spec, None), directory)
    return spec, None


@functools.lru_cache(maxsize=16)
def _checked_cached(text: str, path: str) -> tuple[ast.Spec, Symbols]:
    """:func:`_parse_cached`'s AST with its symbols: the cached ones, or the checker's, then kept beside the AST."""
    spec, symbols = _parse_cached(text, path)
    if symbols is None:
        symbols = check(spec)  # the checks load on this first call only (gridlang.language.checker.check)
        directory = cache_dir()
        if directory is not None:
            _keep(spec_cache_file(path, directory), ((_fingerprint(), path, text), spec, symbols), directory)
    return spec, symbols


def _keep(file: str, entry: tuple, directory: str) -> None:
    """Write ``entry`` (key, AST, symbols or None) to the spec cache's ``file``, atomically, then prune."""
    import pickle  # imported on use: a spec served from the cache is read by the C unpickler alone (_load)

    temp = f"{file}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        with open(temp, "wb") as fp:
            pickle.dump(entry, fp, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, file)  # atomic: a process reading at the same time sees the old file or the new
        _prune(directory)
    except Exception:  # noqa: BLE001 - a spec that cannot be kept is parsed again next time, nothing more
        try:
            os.unlink(temp)
        except OSError:  # never made, or gone
            pass


SPEC_CACHE_FILES = 256
"""The most spec files the cache keeps; beyond, the least recently used go."""


def _prune(directory: str) -> None:
    """Remove the least recently used spec cache files beyond :data:`SPEC_CACHE_FILES`."""
    files = []
    for name in os.listdir(directory):
        if not (name.startswith("spec-") and name.endswith(".ast-cache")):
            continue
        f = os.path.join(directory, name)
        try:
            files.append((os.stat(f).st_mtime_ns, f))
        except OSError:
            continue  # removed meanwhile by another process
    files.sort(reverse=True)
    for _, f in files[SPEC_CACHE_FILES:]:
        try:
            os.unlink(f)
        except OSError:
            pass


def spec_cache_file(path: str, directory: str) -> str:
    """The spec cache's file for the spec at ``path`` (as given: the AST's spans name it so), in
    the cache ``directory`` (:func:`~gridlang.language.parser.grammar.cache_dir`), as a path string.

    The file holds a pickle of ``(key, ast.Spec, Symbols or None)``: the
    symbols once the spec has passed the checks. The key is the spec's
    whole text, its path, and :func:`_fingerprint` (the versions of Python,
    Lark and gridlang, and the size and modification time of every source
    file that shapes the AST or the symbols), so that a change to any of
    them parses and checks afresh. The file's name holds the CRC-32 of the path and of the
    fingerprint: two installs of gridlang (a checkout and a virtual
    environment) used in turn on one spec keep an AST each, where one file
    made each parse the spec again with Lark (some 50 ms). Names whose CRCs
    agree share a file; the key tells them apart.
    """
    place = zlib.crc32(path.encode("utf-8", "surrogatepass"))
    made_by = zlib.crc32(repr(_fingerprint()).encode("utf-8", "surrogatepass"))
    return os.path.join(directory, f"spec-{place:08x}-{made_by:08x}.ast-cache")


@functools.lru_cache(maxsize=1)
def _fingerprint() -> tuple:
    """What a cached AST and its symbols were made with: Python's and gridlang's versions, and
    ``(name, size, mtime)`` of the grammar, of the parser's, the AST's, the checker's, the
    language's own, the constructs' (their subpackages' too: a construct's nodes may live in one),
    the nodes', the errors' and the limits' modules, and of Lark's package, found without importing
    it. A cached AST whose node classes have moved so fails the key; one that cannot be unpickled
    at all is parsed afresh too (:func:`_parse_cached`)."""
    here = os.path.dirname(os.path.realpath(__file__))
    language = os.path.dirname(here)
    core = os.path.join(os.path.dirname(language), "core")
    files = [os.path.join(os.path.dirname(os.path.realpath(grammars.__file__)), "gridlang.lark"),
             os.path.join(core, "errors.py"), os.path.join(core, "nodes.py"), os.path.join(core, "limits.py"),
             *_sources(here), *_sources(os.path.join(language, "ast")), *_sources(os.path.join(language, "checker")),
             *_sources(language)]
    for folder, _, names in sorted(os.walk(os.path.join(os.path.dirname(language), "constructs"))):
        files.extend(sorted(os.path.join(folder, n) for n in names if n.endswith(".py")))
    lark = _origin("lark")
    if lark:
        files.append(lark)  # the package's __init__.py, which holds its version
    stamps = []
    for f in files:
        try:
            st = os.stat(f)
            stamps.append((f, st.st_size, st.st_mtime_ns))
        except OSError:
            stamps.append((f, None, None))
    return (sys.version, VERSION, tuple(stamps))


def _origin(package: str) -> str | None:
    """The file a top-level ``package`` would be imported from, found as the import system finds it
    (each finder of ``sys.meta_path`` in turn) without importing it, or None. (``importlib.util``'s
    ``find_spec`` does the same, but importing that module costs a solve more than this search.)"""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        try:
            spec = find(package, None) if find is not None else None
        except Exception:  # noqa: BLE001, S112 - a finder that fails is passed over: it cannot find the package
            continue
        if spec is not None:
            return spec.origin
    return None


def _sources(folder: str) -> list[str]:
    """The ``.py`` files in ``folder`` (not below it), sorted; none when it cannot be listed."""
    try:
        return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py"))
    except OSError:
        return []


def _check_nesting(statements: list, text: str) -> None:
    """Refuse an expression or rule nested deeper than :data:`~gridlang.core.limits.MAX_NESTING`.

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
            for name in field_names(node):
                child = getattr(node, name)
                if isinstance(child, tuple):
                    stack.extend((c, depth + 1) for c in reversed(child) if _is_node(c))
                elif _is_node(child):
                    stack.append((child, depth + 1))


def _is_node(x) -> bool:
    """An AST node that can hold others (not a span, a name or a literal)."""
    return bool(field_names(x)) and not isinstance(x, (Span, ast.Name, ast.IntLit, ast.Symbol))


