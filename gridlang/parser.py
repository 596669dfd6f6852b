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
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.visitors import Transformer_NonRecursive

from . import ast
from .errors import GridlangError, GridSyntaxError, Span, read_source, too_long
from .limits import MAX_NESTING, MAX_SET_SIZE, MAX_SPEC_BYTES, MAX_STATEMENTS, check_int

# Curated messages: each maps to examples of text that fail at the same
# parser state (Lark's match_examples picks the message whose examples fail
# like the user's text does).
_EXAMPLES: dict[str, list[str]] = {
    "a tile needs at least one map character in single quotes, e.g. tile grass '.'": [
        "tile grass value 1",
        "tile grass\ntile water '~'",
    ],
    "a parameter needs a type: 'int' or 'set of int', e.g. param budget: int >= 0": [
        "param budget",
        "param budget: >= 0",
        "param budget: integer",
    ],
    "a rule compares, or relates two cell sets: A <= B, A avoids B, A in B, "
    "S is connected [with size N], S is a path between E, for each ...": [
        "require count(wall)",
        "require pen",
        "require pen border",
    ],
    "a region is defined as: region NAME = reach from CELLS through CELLS": [
        "region pen = horse",
        "region pen reach from horse through grass",
        "region pen = reach horse through grass",
    ],
    "'=' assigns only in param defaults and region definitions; compare with '=='": [
        "require count(wall) = 3",
    ],
}


@functools.lru_cache(maxsize=1)
def _examples() -> dict[str, list[str]]:
    # The LALR state of a statement differs between the first statement of
    # a spec and a later one, so each example is also tried after another.
    return {msg: exs + ["tile z_ 'z'\n" + x for x in exs] for msg, exs in _EXAMPLES.items()}


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


def _syntax_error(e: UnexpectedInput, text: str, path: str) -> GridSyntaxError:
    line, column = max(e.line, 1), max(e.column, 1)
    end = None
    message = _parser_message(e, text)
    if isinstance(e, UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    elif isinstance(e, UnexpectedToken) and e.token.type == "$END":
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    elif isinstance(e, UnexpectedToken):
        end = column + max(len(str(e.token)), 1)
    return GridSyntaxError(message, Span(path, line, column, end), source=text)


def _parser_message(e: UnexpectedInput, text: str) -> str:
    try:
        curated = e.match_examples(_parser().parse, _examples(), use_accepts=True)
    except Exception:  # match_examples re-parses; any failure there only loses the hint
        curated = None
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        base = f"unexpected character {ch!r}"
        if ch.isalnum() and not ch.isascii():
            base += "; a name is made of ASCII letters, digits and '_' (a tile's map character may be any)"
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        base = "unexpected end of spec" if tok.type == "$END" else f"unexpected {_describe(tok)}"
        expected = sorted(_pretty(t) for t in e.accepts or e.expected)
        if expected and not curated:
            base += "; expected " + _join(expected)
    else:
        base = "unexpected end of spec"
    return f"{base}: {curated}" if curated else base


def _describe(tok: Token) -> str:
    if tok.type in ("NAME", "INT", "CHAR", "STRING"):
        return f"{tok.type.lower()} {str(tok)!r}"
    return repr(str(tok))


_PRETTY = {
    "NAME": "a name", "INT": "a number", "CHAR": "a character in quotes", "STRING": "a string",
    "COMPARE": "a comparison", "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "EQUAL": "'='",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "COMMA": "','", "LBRACE": "'{'", "RBRACE": "'}'",
    "LSQB": "'['", "RSQB": "']'", "VBAR": "'|'",
    "MAXIMIZE": "'maximize'", "MINIMIZE": "'minimize'", "$END": "end of spec",
}


def _pretty(terminal: str) -> str:
    if terminal in _PRETTY:
        return _PRETTY[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return repr(pattern.value)
    except KeyError:
        pass
    return terminal.lower()


def _join(items: list[str]) -> str:
    items = list(dict.fromkeys(items))
    if len(items) > 8:
        items = items[:8] + ["..."]
    return ", ".join(items)


def _span(path: str, meta_or_token) -> Span:
    if isinstance(meta_or_token, Token):
        return Span(path, meta_or_token.line, meta_or_token.column, meta_or_token.end_column)
    m = meta_or_token
    end = m.end_column if m.end_line == m.line else None
    return Span(path, m.line, m.column, end)


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    """Lark parse tree -> :mod:`gridlang.ast` nodes (without recursion, so
    that nesting is measured, not a RecursionError)."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def sp(self, x) -> Span:
        return _span(self.path, x)

    def integer(self, tok: Token) -> int:
        """An integer literal, within :data:`~gridlang.limits.MAX_INT`."""
        return check_int(str(tok), self.sp(tok), GridSyntaxError)

    def set_size(self, size: int, meta) -> None:
        """Refuse a set of more than :data:`~gridlang.limits.MAX_SET_SIZE` integers."""
        if size > MAX_SET_SIZE:
            raise GridSyntaxError(f"this set has {size:,} values; a set of integers has at most "
                                  f"{MAX_SET_SIZE:,}", self.sp(meta))

    def start(self, meta, children):
        return list(children)

    # statements
    def puzzle_stmt(self, meta, c):
        return ast.Puzzle(c[0][1:-1], c[1][1:-1] if len(c) > 1 else None, self.sp(meta))

    def tile_stmt(self, meta, c):
        name = c[0]
        chars = tuple(x for x in c[1:] if isinstance(x, ast.CharSpec))
        kw: dict = {"tags": ()}
        attr_spans = {}
        for kind, val, span in (x for x in c[1:] if isinstance(x, tuple)):
            if kind == "tag":
                kw["tags"] = kw["tags"] + (val,)
            elif kind in kw and kind != "tags":
                raise GridSyntaxError(f"tile {str(name)!r} gives {_attr_word(kind)} twice", span)
            else:
                kw[kind] = val
            attr_spans.setdefault(kind, span)
        if kw.get("value") == "digit":
            kw["value"], kw["digit_value"] = 0, True
        return ast.Tile(str(name), chars, span=self.sp(name), attr_spans=attr_spans, **kw)

    def tile_number(self, meta, c):
        tile = self.tile_stmt(meta, [c[0]] + list(c[1:]))
        if "value" in tile.attr_spans:
            raise GridSyntaxError(f"tile {tile.name!r} is a number tile: each cell's value is its number",
                                  tile.attr_spans["value"])
        return ast.Tile(tile.name, (), linked=tile.linked, count=tile.count, tags=tile.tags, number=True,
                        span=tile.span, attr_spans=tile.attr_spans)

    def char_one(self, meta, c):
        ch = _char(c[0], self.path)
        return ast.CharSpec(ch, ch, self.sp(c[0]))

    def char_range(self, meta, c):
        first, last = _char(c[0], self.path), _char(c[1], self.path)
        if ord(last) < ord(first):
            raise GridSyntaxError(f"the range {first!r}-{last!r} is empty", self.sp(meta))
        return ast.CharSpec(first, last, self.sp(meta))

    def attr_value(self, meta, c):
        return ("value", c[0], self.sp(meta))

    def attr_value_digit(self, meta, c):
        return ("value", "digit", self.sp(meta))

    def attr_linked(self, meta, c):
        return ("linked", True, self.sp(meta))

    def attr_exactly(self, meta, c):
        return ("count", ("==", self.integer(c[0])), self.sp(meta))

    def attr_at_most(self, meta, c):
        return ("count", ("<=", self.integer(c[0])), self.sp(meta))

    def attr_at_least(self, meta, c):
        return ("count", (">=", self.integer(c[0])), self.sp(meta))

    def attr_tag(self, meta, c):
        return ("tag", str(c[0]), self.sp(c[0]))

    def param_stmt(self, meta, c):
        name, ptype, *rest = c
        bounds = tuple(x for x in rest if isinstance(x, tuple))
        default = next((x for x in rest if isinstance(x, _Default)), _Default(None, None))
        return ast.Param(str(name), ptype, bounds, default.value, self.sp(name), default.span)

    def type_int(self, meta, c):
        return "int"

    def type_int_set(self, meta, c):
        return "set of int"

    def bound(self, meta, c):
        return (str(c[0]), c[1])

    def pv_int(self, meta, c):
        return _Default(c[0], self.sp(meta))

    def pv_set(self, meta, c):
        self.set_size(len(c), meta)
        return _Default(frozenset(c), self.sp(meta))

    def pv_range(self, meta, c):
        self.set_size(c[1] - c[0] + 1, meta)
        return _Default(frozenset(range(c[0], c[1] + 1)), self.sp(meta))

    def signed_int(self, meta, c):
        return -self.integer(c[1]) if len(c) == 2 else self.integer(c[0])

    def decide_stmt(self, meta, c):
        return ast.Decide(str(c[0]), c[1], c[2], self.sp(c[0]))

    def dom_bool(self, meta, c):
        return "bool"

    def dom_enum(self, meta, c):
        parts: list = []
        for part in c:
            parts.extend(part if isinstance(part, list) else [part])
        return tuple(parts)

    def dom_list(self, meta, c):
        return [ast.Symbol(x.id, x.span) if isinstance(x, ast.Name) else x for x in c]

    def dom_param(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def dom_int(self, meta, c):
        return ast.IntLit(c[0], self.sp(meta))

    def dom_range(self, meta, c):
        bounds = [ast.IntLit(x, self.sp(meta)) if isinstance(x, int) and not isinstance(x, bool) else x for x in c]
        return ast.DomainRange(bounds[0], bounds[1], self.sp(meta))

    def dom_bound_name(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def region_stmt(self, meta, c):
        return ast.Region(str(c[0]), c[1], c[2], self.sp(c[0]))

    def require_stmt(self, meta, c):
        return c[0]

    def rule_for(self, meta, c):
        *binders, body = c
        for var, domain in reversed(binders):
            body = ast.ForEach(var, domain, body, self.sp(meta))
        return body

    def rule_expr(self, meta, c):
        e = c[0]
        if isinstance(e, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath)):
            return e
        return ast.Holds(e, self.sp(meta))


    def bind_in(self, meta, c):
        return (ast.Name(str(c[0]), self.sp(c[0])), c[1])

    def _bind_family(self, meta, kind: str, c, dims=(None, None)):
        return (ast.Name(str(c[-1]), self.sp(c[-1])), ast.Family(kind, dims[0], dims[1], self.sp(meta)))

    def bind_cell(self, meta, c):
        return self._bind_family(meta, "cells", c)

    def bind_row(self, meta, c):
        return self._bind_family(meta, "rows", c)

    def bind_column(self, meta, c):
        return self._bind_family(meta, "columns", c)

    def bind_room(self, meta, c):
        return self._bind_family(meta, "rooms", c)

    def bind_direction(self, meta, c):
        return self._bind_family(meta, "directions", c)

    def direction(self, meta, c):
        return ast.Direction(str(c[0]), self.sp(c[0]))

    def bind_window(self, meta, c):
        return self._bind_family(meta, "windows", c, c[0])

    def bind_block(self, meta, c):
        return self._bind_family(meta, "blocks", c, c[0])

    def dims_lit(self, meta, c):
        h, w = str(c[0]).split("x")
        return (ast.IntLit(int(h), self.sp(meta)), ast.IntLit(int(w), self.sp(meta)))

    def dims_pair(self, meta, c):
        return (c[0], c[1])

    def implies(self, meta, c):
        return ast.Implies(c[0], c[1], self.sp(meta))

    def component(self, meta, c):
        return ast.Component(c[0], c[1], self.sp(meta))

    def compare(self, meta, c):
        return ast.Compare(c[0], str(c[1]), c[2], self.sp(meta))

    def subset(self, meta, c):
        return ast.Subset(c[0], c[1], self.sp(meta))

    def avoids(self, meta, c):
        return ast.Avoids(c[0], c[1], self.sp(meta))

    def connected(self, meta, c):
        return ast.IsConnected(c[0], c[1] if len(c) > 1 else None, self.sp(meta))

    def is_path(self, meta, c):
        return ast.IsPath(c[0], c[1], self.sp(meta))

    def all_different(self, meta, c):
        return ast.AllDifferent(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta))

    def _aggregate(self, fn: str, meta, c):
        return ast.Aggregate(fn, c[0], ast.Name(str(c[1]), self.sp(c[1])), c[2], self.sp(meta))

    def count_for(self, meta, c):
        return self._aggregate("count", meta, c)

    def sum_for(self, meta, c):
        return self._aggregate("sum", meta, c)

    def all_for(self, meta, c):
        return self._aggregate("all", meta, c)

    def any_for(self, meta, c):
        return self._aggregate("any", meta, c)

    def at(self, meta, c):
        return ast.At(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta))

    def at_is(self, meta, c):
        return ast.AtIs(ast.Name(str(c[0]), self.sp(c[0])), c[1], c[2], self.sp(meta))

    def at_is_not(self, meta, c):
        return ast.Not(self.at_is(meta, c), self.sp(meta))

    def at_same(self, meta, c):
        other = ast.At(ast.Name(str(c[2]), self.sp(c[2])), c[3], self.sp(meta))
        return ast.AtIs(ast.Name(str(c[0]), self.sp(c[0])), c[1], other, self.sp(meta))

    def at_same_not(self, meta, c):
        return ast.Not(self.at_same(meta, c), self.sp(meta))

    def neighbours(self, meta, c):
        return ast.Around("side", c[0], self.sp(meta))

    def diagonal_neighbours(self, meta, c):
        return ast.Around("diagonal", c[0], self.sp(meta))

    def king_neighbours(self, meta, c):
        return ast.Around("king", c[0], self.sp(meta))

    def row_of(self, meta, c):
        return ast.LineOf("row", c[0], self.sp(meta))

    def column_of(self, meta, c):
        return ast.LineOf("column", c[0], self.sp(meta))

    def room_of(self, meta, c):
        return ast.LineOf("room", c[0], self.sp(meta))

    def bind_shape(self, meta, c):
        return (ast.Name(str(c[0]), self.sp(c[0])), c[1])

    def sight(self, meta, c):
        return ast.Sight(c[0], c[1], c[2], self.sp(meta))

    def is_piece(self, meta, c):
        return ast.IsPiece(c[0], c[1], self.sp(meta))

    def consists_of(self, meta, c):
        return ast.ConsistsOf(c[0], c[1], self.sp(meta))

    def fam_tetrominoes(self, meta, c):
        return ast.Shapes("size", ast.IntLit(4, self.sp(meta)), self.sp(meta))

    def fam_pentominoes(self, meta, c):
        return ast.Shapes("size", ast.IntLit(5, self.sp(meta)), self.sp(meta))

    def fam_polyominoes(self, meta, c):
        return ast.Shapes("size", c[0], self.sp(meta))

    def fam_var(self, meta, c):
        return ast.Shapes("var", ast.Name(str(c[0]), self.sp(c[0])), self.sp(meta))

    def rule_pairs(self, meta, c):
        a, b = (ast.Name(str(t), self.sp(t)) for t in c[:2])
        return ast.ForPairs(a, b, c[2], self.sp(meta))

    # formulas over a pair of cells
    def cellref(self, meta, c):
        return ast.CellRef(ast.Name(str(c[0]), self.sp(c[0])), ast.Name(str(c[1]), self.sp(c[1])), self.sp(meta))

    def p_member(self, meta, c):
        return ast.PMember(c[0], self.sp(meta))

    def p_eq(self, meta, c):
        return ast.PEq(c[0], c[1], self.sp(meta))

    def p_ne(self, meta, c):
        return ast.PNot(ast.PEq(c[0], c[1], self.sp(meta)), self.sp(meta))

    def p_group(self, meta, c):
        return c[0]

    def p_not(self, meta, c):
        return ast.PNot(c[0], self.sp(meta))

    def p_and(self, meta, c):
        return c[0] if len(c) == 1 else ast.PAnd(tuple(c), self.sp(meta))

    def p_or(self, meta, c):
        return c[0] if len(c) == 1 else ast.POr(tuple(c), self.sp(meta))

    def p_implies(self, meta, c):
        return ast.PImplies(c[0], c[1], self.sp(meta))

    def objective_stmt(self, meta, c):
        sense = "maximize" if str(c[0]).startswith("max") else "minimize"
        return ast.Objective(sense, c[1], self.sp(meta))

    # expressions
    def or_(self, meta, c):
        return c[0] if len(c) == 1 else ast.Or(tuple(c), self.sp(meta))

    def and_(self, meta, c):
        return c[0] if len(c) == 1 else ast.And(tuple(c), self.sp(meta))

    def not_(self, meta, c):
        return ast.Not(c[0], self.sp(meta))

    def add(self, meta, c):
        return ast.Add(c[0], c[2], 1 if str(c[1]) == "+" else -1, self.sp(meta))

    def mul(self, meta, c):
        return ast.Mul(c[0], c[1], self.sp(meta))

    def neg(self, meta, c):
        return ast.Neg(c[1], self.sp(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def int_(self, meta, c):
        return ast.IntLit(self.integer(c[0]), self.sp(c[0]))

    def border(self, meta, c):
        return ast.Border(self.sp(meta))

    def all_(self, meta, c):
        return ast.AllCells(self.sp(meta))

    def count(self, meta, c):
        return ast.Count(c[0], self.sp(meta))

    def value(self, meta, c):
        return ast.Value(c[0], self.sp(meta))

    def sum_(self, meta, c):
        return ast.SumOf(c[0], self.sp(meta))

    def is_(self, meta, c):
        return ast.Is(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta))

    def is_not(self, meta, c):
        return ast.Not(ast.Is(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta)), self.sp(meta))

    def tile_value(self, meta, c):
        return ast.TileValue(self.sp(meta))


@dataclass(frozen=True, slots=True)
class _Default:
    """A parameter's default value and where it is written."""

    value: object
    span: Span | None


def _attr_word(kind: str) -> str:
    return {"count": "a count", "value": "a value", "linked": "'linked'"}.get(kind, kind)


def _char(tok: Token, path: str) -> str:
    body = str(tok)[1:-1]
    if body.startswith("\\"):
        body = {"\\'": "'", "\\\\": "\\", "\\t": "\t"}.get(body, body[1:])
    if len(body) != 1:
        raise GridSyntaxError(f"{str(tok)} is not a single character", _span(path, tok))
    return body
