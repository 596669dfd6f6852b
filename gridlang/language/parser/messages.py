"""Syntax errors in words: the curated sentences for common mistakes, and the rest from Lark."""

from __future__ import annotations

import functools
import re

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from gridlang.core.errors import GridSyntaxError, Span, closest
from gridlang.language.parser.grammar import _parser, grammar_text

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


def _syntax_error(e: UnexpectedInput, text: str, path: str) -> GridSyntaxError:
    dangling = _dangling_operator(e, text, path)
    if dangling is not None:
        return dangling
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


# A statement begins with one of these words; an operator ends a line only when the expression goes on.
_STATEMENT_WORDS = frozenset({"puzzle", "tile", "param", "decide", "region", "require", "maximize", "maximise",
                              "minimize", "minimise", "format", "clue", "let", "connectivity", "draw"})
_OPERATOR_AT_END = re.compile(r"(\+|-|\*|/|==|!=|<=|>=|<|>|=|,|\(|\band|\bor|\bimplies|\bnot)\s*$")


def _dangling_operator(e: UnexpectedInput, text: str, path: str) -> GridSyntaxError | None:
    """The error of an expression left open at the end of a line (``require count(wall) <= budget +``):
    the parser reads on into the next statement and fails there, lines later; the fault is the
    operator, so the error points at it. None when the failing line does not begin a statement
    or the line before it (blank lines and comments skipped) does not end with an operator."""
    line = getattr(e, "line", None)
    if not isinstance(e, (UnexpectedToken, UnexpectedCharacters)) or line is None or line < 2:
        return None
    lines = text.splitlines()
    if line > len(lines) or (lines[line - 1].split() or [""])[0] not in _STATEMENT_WORDS:
        return None
    before = line - 1
    while before >= 1 and not lines[before - 1].split("#", 1)[0].strip():
        before -= 1
    if before < 1:
        return None
    code = lines[before - 1].split("#", 1)[0].rstrip()
    found = _OPERATOR_AT_END.search(code)
    if found is None:
        return None
    op = found.group(1)
    column = found.start(1) + 1
    message = (f"line {before} ends with {op!r}, so its expression runs on into the statement on line {line}; "
               f"finish the expression or remove the {op!r}")
    return GridSyntaxError(message, Span(path, before, column, column + len(op)), source=text)


def _parser_message(e: UnexpectedInput, text: str) -> str:
    try:
        curated = e.match_examples(_parser().parse, _examples(), use_accepts=True)
    except Exception:  # match_examples re-parses; any failure there only loses the hint
        curated = None
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[e.pos_in_stream:])
        base = f"unexpected character {ch!r}" if word is None else f"unexpected name {word.group(0)!r}"
        if ch.isalnum() and not ch.isascii():
            base += "; a name is made of ASCII letters, digits and '_' (a tile's map character may be any)"
        if text.startswith("'\\'", e.pos_in_stream):
            base += "; a quoted backslash is written '\\\\' (a slant: {'/', '\\\\'})"
        elif ch == "'":
            base += "; a quoted character is one character between quotes, such as '/' or '#'"
        if word is not None:
            base += _keyword_hint(word.group(0), e.allowed or (), _starts_line(text, e.pos_in_stream))
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        base = "unexpected end of spec" if tok.type == "$END" else f"unexpected {_describe(tok)}"
        accepts = e.accepts or e.expected
        hint = _keyword_hint(str(tok), accepts, _starts_line(text, tok.start_pos)) if tok.type == "NAME" else ""
        expected = sorted(_pretty(t) for t in accepts)
        if hint:
            base += hint
        elif expected and not curated:
            base += "; expected " + _join(expected)
    else:
        base = "unexpected end of spec"
    return f"{base}: {curated}" if curated else base


def _starts_line(text: str, pos: int | None) -> bool:
    """Whether only spaces stand before ``pos`` on its line (where a statement may begin)."""
    if pos is None:
        return False
    start = text.rfind("\n", 0, pos) + 1
    return not text[start:pos].strip()


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word of the grammar: its quoted literals that look like names, and the words of the
    keyword terminals written as patterns (they end at a word boundary: DIRECTION, MAXIMIZE, MINIMIZE)."""

    return frozenset(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"i?', grammar_text())) | _PATTERN_WORDS


_PATTERN_WORDS = frozenset({"up", "down", "left", "right", "maximize", "maximise", "minimize", "minimise"})


def _keyword_hint(word: str, accepts, line_start: bool) -> str:
    """``; did you mean 'require'?`` for a misspelt keyword: one the parser accepts there,
    or, at the start of a line, any keyword (a statement may begin there)."""
    if word in keywords():
        return ""
    allowed = set()
    for terminal in accepts:
        pretty = _pretty(terminal)
        if pretty.startswith("'") and pretty[1:-1] in keywords():
            allowed.add(pretty[1:-1])
    candidates = allowed | (keywords() if line_start else set())
    close = closest(word, sorted(candidates), cutoff=0.75)
    return f"; did you mean {close!r}?" if close else ""


def _describe(tok: Token) -> str:
    if tok.type in ("NAME", "INT", "CHAR", "STRING"):
        return f"{tok.type.lower()} {str(tok)!r}"
    return repr(str(tok))


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


_PRETTY = {
    "NAME": "a name", "INT": "a number", "CHAR": "a character in quotes", "STRING": "a string",
    "COMPARE": "a comparison", "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "EQUAL": "'='",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "COMMA": "','", "LBRACE": "'{'", "RBRACE": "'}'",
    "LSQB": "'['", "RSQB": "']'", "VBAR": "'|'",
    "MAXIMIZE": "'maximize'", "MINIMIZE": "'minimize'", "$END": "end of spec",
}
