"""Parameter values: from the command line, the map header, or the spec default.

Precedence, highest first: ``--param NAME=VALUE`` (or ``--NAME VALUE``) on the
command line, a ``NAME: VALUE`` header line (or JSON key) in the map file, the
spec's ``= DEFAULT``. Values are checked against the declared type and
bounds.

Syntax of a value: ``12`` or ``-3`` for ``int``; ``1..5``, ``1,2,3`` or
``{1,2,3}`` for ``set of int`` (a multiset is kept as a sorted tuple).
"""

from __future__ import annotations

import re

from .checker import Symbols
from .errors import GridlangError, ParamError, Span, raise_all
from .maps import MapData

_INT = re.compile(r"^[+-]?\d+$")
_RANGE = re.compile(r"^\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*$")


def parse_value(raw: str, ptype: str) -> object:
    """Parse a parameter value.

    Returns:
        An ``int`` or, for ``set of int``, a sorted tuple of ints.

    Raises:
        ValueError: the text is not a value of that type.
    """
    raw = raw.strip()
    if ptype == "int":
        if not _INT.match(raw):
            raise ValueError(f"{raw!r} is not an integer")
        return int(raw)
    m = _RANGE.match(raw)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise ValueError(f"the range {raw!r} is empty")
        return tuple(range(lo, hi + 1))
    body = raw[1:-1] if raw.startswith("{") and raw.endswith("}") else raw
    items = [x.strip() for x in body.replace(" ", ",").split(",") if x.strip()]
    out = []
    for x in items:
        m = _RANGE.match(x)
        if m:
            out.extend(range(int(m.group(1)), int(m.group(2)) + 1))
        elif _INT.match(x):
            out.append(int(x))
        else:
            raise ValueError(f"{x!r} is not an integer")
    return tuple(sorted(out))


def resolve_params(symbols: Symbols, data: MapData | None, cli: dict[str, str] | None = None) -> dict[str, object]:
    """Give every declared parameter its value.

    Args:
        symbols: the checked spec.
        data: the map, whose header may carry values (None: no map).
        cli: raw values from the command line, by name.

    Returns:
        name -> value (int, or tuple of ints for ``set of int``).

    Raises:
        ParamError: a value is missing, malformed, out of bounds, or names no
            parameter of the spec (command line only: map files may carry
            other keys).
    """
    cli = dict(cli or {})
    errors: list[GridlangError] = []
    out: dict[str, object] = {}
    for name in cli:
        if name not in symbols.params:
            known = ", ".join(symbols.params) or "none"
            errors.append(ParamError(f"--param {name}: the spec declares no parameter {name!r} (it has: {known})"))
    for name, decl in symbols.params.items():
        raw, span, origin = None, None, None
        if name in cli:
            raw, origin = cli[name], f"--param {name}"
        elif data is not None and name in data.params:
            raw, span = data.params[name]
            origin = f"{name!r}"
        if raw is None:
            if decl.default is None:
                errors.append(ParamError(
                    f"parameter {name!r} has no value: give --{name} VALUE, "
                    f"or a '{name}: VALUE' line above the map", decl.span))
                continue
            value = tuple(sorted(decl.default)) if isinstance(decl.default, frozenset) else decl.default
        else:
            try:
                value = parse_value(raw, decl.type)
            except ValueError as e:
                errors.append(_err(f"{origin}: {e}; the spec declares {name}: {decl.type}", span, data))
                continue
        for op, bound in decl.bounds:
            if not _holds(value, op, bound):
                errors.append(_err(f"{name} = {value} breaks the bound {name} {op} {bound} declared in the spec",
                                   span, data))
        out[name] = value
    raise_all(errors)
    return out


def _err(message: str, span: Span | None, data: MapData | None) -> ParamError:
    return ParamError(message, span, source=data.source if (span is not None and data is not None) else None)


def _holds(value: object, op: str, bound: int) -> bool:
    v = value  # bounds apply to int parameters only (the checker enforces it)
    return {"<=": v <= bound, ">=": v >= bound, "==": v == bound, "<": v < bound, ">": v > bound}[op]
