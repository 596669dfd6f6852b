"""A parameter's value written as text, read by its declared type (``int``, ``set of int``, ``shapes``).

The checker reads a ``param``'s default and a ``format`` statement's presets
with it, the URL's banks and the map's and command line's values too
(:mod:`gridlang.formats.params`), so that every value is read one way.

Syntax of a value: ``12`` or ``-3`` for ``int``; ``1..5``, ``1,2,3`` or
``{1,2,3}`` (or a JSON list ``[1,2,3]``) for ``set of int`` (a multiset is kept as a sorted tuple); for
``shapes``, a comma-separated list of named families (``tetrominoes``,
``pentominoes``, ``polyominoes(N)``: every free polyomino of N cells) and
drawn shapes, each its rows of ``0`` and ``1`` joined by ``/`` (``111/010``
is the T tetromino), kept in order, a shape listed twice counting twice.
"""

from __future__ import annotations

from gridlang.core import shapes as polyomino
from gridlang.core.lazy_regex import LazyRegex
from gridlang.core.limits import MAX_INT, MAX_SET_SIZE, shorten

_INT = LazyRegex(r"^[+-]?\d+$")
_RANGE = LazyRegex(r"^\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*$")


def parse_value(raw: str, ptype: str) -> object:
    """Parse a parameter value.

    Returns:
        An ``int`` or, for ``set of int``, a sorted tuple of ints.

    Raises:
        ValueError: the text is not a value of that type, an integer is
            beyond :data:`~gridlang.core.limits.MAX_INT` in magnitude, or a set
            has more than :data:`~gridlang.core.limits.MAX_SET_SIZE` values; the
            message is what follows the parameter's name (``must be an
            integer, not 12.5``).
    """
    raw = raw.strip()
    if ptype == "shapes":
        return _shapes(raw)
    if ptype == "int":
        if not _INT.match(raw):
            raise ValueError(f"must be an integer, not {_show(raw)}")
        return _int(raw)
    m = _RANGE.match(raw)
    if m:
        lo, hi = _int(m.group(1)), _int(m.group(2))
        if hi < lo:
            raise ValueError(f"must be a set of integers; the range {raw} is empty")
        _set_size(hi - lo + 1)
        return tuple(range(lo, hi + 1))
    body = raw[1:-1] if raw[:1] + raw[-1:] in ("{}", "[]") else raw
    items = [x.strip() for x in body.replace(" ", ",").split(",") if x.strip()]
    out: list[int] = []
    for x in items:
        m = _RANGE.match(x)
        if m:
            lo, hi = _int(m.group(1)), _int(m.group(2))
            _set_size(len(out) + max(0, hi - lo + 1))
            out.extend(range(lo, hi + 1))
        elif _INT.match(x):
            out.append(_int(x))
        else:
            raise ValueError(f"must be a set of integers (1..5, or 1,2,3); {_show(x)} is not an integer")
        _set_size(len(out))
    return tuple(sorted(out))


_FAMILY = LazyRegex(r"^(tetrominoes|pentominoes|polyominoes\s*\(\s*(\d+)\s*\))$")
_DRAWN = LazyRegex(r"^[01]+(/[01]+)*$")


def _shapes(raw: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A ``shapes`` value: its shapes in canonical form (:func:`gridlang.core.shapes.canonical`), in order."""
    out: list[tuple[tuple[int, int], ...]] = []
    for item in (x.strip() for x in raw.split(",")):
        m = _FAMILY.match(item)
        if m:
            k = 4 if item == "tetrominoes" else 5 if item == "pentominoes" else _int(m.group(2))
            if not 1 <= k <= polyomino.MAX_SIZE:
                raise ValueError(f"must list shapes; polyominoes({k}) is not a family gridlang builds "
                                 f"(1 to {polyomino.MAX_SIZE} cells)")
            out.extend(polyomino.polyominoes(k))
        elif _DRAWN.match(item):
            rows = item.split("/")
            if len({len(r) for r in rows}) > 1:
                raise ValueError(f"must list shapes; the rows of {_show(item)} differ in length")
            cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "1"]
            if not cells or len(cells) > polyomino.MAX_DRAWN:
                raise ValueError(f"must list shapes; {_show(item)} has {len(cells)} cells "
                                 f"(a drawn shape has 1 to {polyomino.MAX_DRAWN})")
            if not polyomino.is_connected(cells):
                raise ValueError(f"must list shapes; the cells of {_show(item)} do not share sides as one piece")
            out.append(polyomino.canonical(cells))
        else:
            raise ValueError(f"must list shapes (pentominoes, tetrominoes, polyominoes(N), or rows of 0 and 1 "
                             f"such as 111/010); {_show(item)} is neither")
        _set_size(len(out))
    return tuple(out)


def _int(text: str) -> int:
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_INT)) or int(digits or "0") > MAX_INT:
        raise ValueError(f"is too large: {shorten(text)} is beyond the limit of {MAX_INT:,} in magnitude")
    return int(text)


def _set_size(size: int) -> None:
    if size > MAX_SET_SIZE:
        raise ValueError(f"has {size:,} values; a set of integers has at most {MAX_SET_SIZE:,}")


def _show(raw: str) -> str:
    """A value as the user wrote it, shortened when long; an empty one as ''."""
    if not raw:
        return "''"
    return raw if len(raw) <= 40 else raw[:30] + f"... ({len(raw):,} characters)"
