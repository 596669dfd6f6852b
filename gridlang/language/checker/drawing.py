"""The checks of ``draw`` statements: a known name, a known look, and a look that fits the name.

Run after every declaration (a ``draw`` may name a decision declared below
it). Each problem is one located error: at the name when the name is
unknown or drawn twice, at the look when the look is unknown or does not fit
what the name is (a tile drawn as ``shade``, a decision on cells drawn as
``line``).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from gridlang.language import ast
from gridlang.language.checker.symbols import Type
from gridlang.language.looks import (
    ARROW_CHARS,
    ARROW_LOOKS,
    BLOCK_LOOKS,
    BORDER_LOOKS,
    CORNER_LOOKS,
    DIRECTION_NAMES,
    EDGE_LOOKS,
    LOOKS,
    MARK_LOOKS,
    REGION_LOOKS,
    ROOM_LAYER,
    ROOM_LOOKS,
    SLANT_VALUES,
    TILE_LOOKS,
    TRIANGLE_VALUES,
    VALUE_LOOKS,
)

if TYPE_CHECKING:
    from gridlang.language.checker.statements import _Checker


def _words(table: dict[str, str]) -> str:
    names = list(table)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _what(table: dict[str, str]) -> str:
    """What a look of ``table`` draws, for an error message."""
    return {id(TILE_LOOKS): "a tile", id(MARK_LOOKS): "a Boolean decision on cells",
            id(VALUE_LOOKS): "a decision on cells with values", id(EDGE_LOOKS): "a decision on edges",
            id(REGION_LOOKS): "a region", id(BLOCK_LOOKS): "blocks", id(ROOM_LOOKS): "the room layer",
            id(BORDER_LOOKS): "a tile on borders", id(CORNER_LOOKS): "a tile on corners"}[id(table)]


def _fits(look: str) -> list[dict[str, str]]:
    return [t for t in (TILE_LOOKS, MARK_LOOKS, VALUE_LOOKS, EDGE_LOOKS, REGION_LOOKS, BLOCK_LOOKS, ROOM_LOOKS,
                        BORDER_LOOKS, CORNER_LOOKS) if look in t]


def check_draws(checker: _Checker, draws: list[ast.Draw]) -> None:
    """Check the spec's ``draw`` statements; record them in ``checker.sym.draws``.

    Args:
        checker: the checker, after every declaration was read (its errors
            list receives the problems).
        draws: the ``draw`` statements in source order.
    """
    sym = checker.sym
    seen: dict[str, ast.Draw] = {}
    kept: list[ast.Draw] = []
    for d in draws:
        if d.look not in LOOKS:
            close = difflib.get_close_matches(d.look, list(LOOKS), n=1)
            checker.error(f"unknown look {d.look!r}" + (f"; did you mean {close[0]!r}?" if close else
                                                         f"; the looks are {_words(LOOKS)}"), d.look_span)
            continue
        key = d.name if d.name is not None else "block"
        if d.name is None:
            table = BLOCK_LOOKS
            if not _dims(checker, d):
                continue
        else:
            table = _table(checker, d)
            if table is None:
                continue
        if d.look not in table:
            where = f" (a look of {' or of '.join(_what(t) for t in _fits(d.look))})"
            subject = "blocks" if d.name is None else f"{d.name!r}"
            checker.error(f"{subject} cannot be drawn as {d.look!r}{where}; {_kind(checker, d)} is drawn as "
                          f"{_words(table)}", d.look_span)
            continue
        if d.name is not None and d.look in ("number", "letters", "symbols", "bridges", "arrows", "tips") and \
                table not in (TILE_LOOKS, BORDER_LOOKS, CORNER_LOOKS):  # a decision's look
            decide = sym.decisions[d.name]
            names = [p.id for p in decide.domain if isinstance(p, ast.Symbol)] if decide.is_enum else []
            if d.look in ("arrows", "tips") and any(n in DIRECTION_NAMES for n in names):
                names = []  # a decided direction: its values up, down, left, right are drawn
            if names or (d.look == "bridges" and not decide.is_enum):
                why = (f"has value names ({', '.join(names)}): draw it as tint" if names
                       else "is Boolean: draw it as line")
                checker.error(f"{d.look!r} draws integer values; {d.name!r} {why}", d.look_span)
                continue
        if d.look == "slants" and table is VALUE_LOOKS:
            decide = sym.decisions[d.name]
            if not any(isinstance(p, ast.Symbol) and p.id in SLANT_VALUES for p in decide.domain):
                checker.error(f"'slants' draws the values '/' and '\\' as diagonals; {d.name!r} has neither",
                              d.look_span)
                continue
        if d.look == "triangles" and table is VALUE_LOOKS:
            decide = sym.decisions[d.name]
            if not any(isinstance(p, ast.Symbol) and p.id in TRIANGLE_VALUES for p in decide.domain):
                checker.error(f"'triangles' draws the values {', '.join(map(repr, TRIANGLE_VALUES))} as half-cell "
                              f"triangles; {d.name!r} has none of them", d.look_span)
                continue
        if d.look in ARROW_LOOKS and table is TILE_LOOKS:
            drawn = [tile for name, tile in sym.tiles.items() if d.name == name or d.name in tile.tags]
            chars = [repr(ch) for ch in sorted({ch for tile in drawn for spec in tile.chars for ch in spec.chars()}
                                               - set(ARROW_CHARS))]
            if any(tile.number and d.look != "arrow" for tile in drawn):  # 'arrow' reads 1 to 4 as directions
                chars.append("numbers")
            if any(tile.clue is not None for tile in drawn):
                chars.append("clues")
            if chars:
                checker.error(f"{d.look!r} draws the characters ^ v < > as directions; {d.name!r} has "
                              f"{', '.join(chars)}", d.look_span)
                continue
        if d.name is not None and key in seen:
            prev = seen[key]
            where = f"line {prev.span.line}" if prev.span else "above"
            checker.error(f"{d.name!r} is already drawn ({where})", d.name_span)
            continue
        seen[key] = d
        kept.append(d)
    sym.draws = kept


def _table(checker: _Checker, d: ast.Draw) -> dict[str, str] | None:
    """The looks that fit the name ``d`` draws; None (after an error) for a name that cannot be drawn."""
    sym = checker.sym
    kind = sym.kind_of(d.name)
    if d.name in ("all", "border"):
        checker.error(f"{d.name!r} is a cell set of every map; 'draw' names a tile, a tag, a decision or a "
                      "region", d.name_span)
        return None
    if kind is None and d.name == ROOM_LAYER:
        return ROOM_LOOKS
    if kind is None:
        close = difflib.get_close_matches(d.name, list(checker.declared), n=1)
        checker.error(f"unknown name {d.name!r} ('draw' names a tile, a tag, a decision or a region)"
                      + (f"; did you mean {close[0]!r}?" if close else ""), d.name_span)
        return None
    if kind in ("tile", "tag"):
        return TILE_LOOKS
    if kind == "border tile":
        return BORDER_LOOKS
    if kind == "corner tile":
        return CORNER_LOOKS
    if kind == "region":
        return REGION_LOOKS
    if kind == "decision":
        decide = sym.decisions[d.name]
        if decide.lattice is not None:
            return EDGE_LOOKS
        return VALUE_LOOKS if decide.is_enum or d.name in getattr(sym, "cell_decisions", {}) else MARK_LOOKS
    checker.error(f"{d.name!r} is a {'parameter' if kind == 'param' else kind}; 'draw' names a tile, a tag, a decision or a region", d.name_span)
    return None


def _kind(checker: _Checker, d: ast.Draw) -> str:
    """What the drawn name is, in words."""
    if d.name is None:
        return "a block"
    sym = checker.sym
    kind = sym.kind_of(d.name)
    if kind is None and d.name == ROOM_LAYER:
        return "the room layer"
    if kind != "decision":
        return f"a {kind}"
    decide = sym.decisions[d.name]
    if decide.lattice == "corners":
        return "a decision on corner edges"
    if decide.lattice is not None:
        return "a decision on edges"
    return "a decision on cells with values" if decide.is_enum else "a Boolean decision on cells"


def _dims(checker: _Checker, d: ast.Draw) -> bool:
    """Check the size of ``draw H x W block``: integers known before solving."""
    ok = True
    for dim in (d.height, d.width):
        t = checker.type_of(dim)
        if t is not None and t is not Type.INT:
            checker.error(f"a block's size is an integer known before solving; this is {t.value}",
                          getattr(dim, "span", None))
            ok = False
        elif t is None:
            ok = False
    return ok
