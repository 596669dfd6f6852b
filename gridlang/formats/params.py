"""Parameter values: from the command line, the map header, or the spec default.

Precedence, highest first: ``--param NAME=VALUE`` (or ``--NAME VALUE``) on the
command line, a ``NAME: VALUE`` header line (or JSON key) in the map file, the
spec's ``= DEFAULT``. Values are checked against the declared type and
bounds.

Each value is read by its declared type with
:func:`gridlang.language.values.parse_value`, whose docstring gives the syntax.
"""

from __future__ import annotations

from gridlang.core.errors import GridlangError, ParamError, Span, raise_all
from gridlang.formats.mapdata import MapData
from gridlang.language.checker import Symbols
from gridlang.language.values import parse_value


def resolve_params(symbols: Symbols, data: MapData | None, cli: dict[str, str] | None = None) -> dict[str, object]:
    """Give every declared parameter its value.

    Args:
        symbols: the checked spec.
        data: the map, whose header may carry values (None: no map).
        cli: raw values from the command line, by name.

    Returns:
        name -> value (int, or tuple of ints for ``set of int``).

    Raises:
        ParamError: a value is missing, malformed, too large, out of its
            bounds, or names no parameter of the spec: on the command line,
            or in a text map's header (a JSON record's other keys are its
            own, unless one is a near miss of a parameter's name).
    """
    cli = dict(cli or {})
    errors: list[GridlangError] = []
    out: dict[str, object] = {}
    for name in cli:
        if name not in symbols.params:
            known = ", ".join(symbols.params) or "none"
            errors.append(ParamError(f"--param {name}: the spec declares no parameter {name!r} (it has: {known})"))
    if data is not None:
        errors.extend(_unknown_keys(symbols, data))
    for name, decl in symbols.params.items():
        raw, span, origin = None, None, None
        if name in cli:
            raw, origin = cli[name], f"--param {name}: "
        elif data is not None and name in data.params:
            raw, span = data.params[name]
            origin = ""
        if raw is None:
            if decl.default is None:
                errors.append(ParamError(
                    f"parameter {name!r} has no value: give --{name} VALUE, "
                    f"or a '{name}: VALUE' line above the map", decl.span))
                continue
            value = tuple(sorted(decl.default)) if isinstance(decl.default, frozenset) else decl.default
            if isinstance(decl.default, str):  # a `shapes` default, named families
                try:
                    value = parse_value(decl.default, "shapes")
                except ValueError as e:
                    errors.append(ParamError(f"the default of {name} {e}", decl.default_span or decl.span))
                    continue
        else:
            try:
                value = parse_value(raw, decl.type)
            except ValueError as e:
                errors.append(_err(f"{origin}{name} {e} (the spec declares {name}: {decl.type})", span, data))
                continue
        for op, bound in decl.bounds:
            if not _holds(value, op, bound):
                errors.append(_err(f"{name} = {value} breaks the bound {name} {op} {bound} declared in the spec",
                                   span, data))
        out[name] = value
    raise_all(errors)
    return out


MAX_KEY_ERRORS = 20
"""Unknown header or record keys reported at most (a map of 4 MiB holds some 300,000)."""


def _unknown_keys(symbols: Symbols, data: MapData) -> list[GridlangError]:
    """Header names that are no parameter of the spec: every one in a text
    header, a near miss of a parameter's name in a JSON record (the first
    :data:`MAX_KEY_ERRORS`).

    A record's own keys are many in a hostile file: each is first compared
    with the parameters' names by its letters alone (what
    ``difflib.SequenceMatcher.quick_ratio`` bounds the ratio by), so that
    ``difflib`` runs only on the few that could be near misses.
    """
    errors: list[GridlangError] = []
    names = list(symbols.params)
    others = [str.maketrans("", "", "".join(set(name))) for name in names]  # deletes the name's letters
    cutoff = 0.75 if data.record else 0.6
    for key in data.params:  # the key alone: a record's field is made into text and a span only if reported
        if key in symbols.params:
            continue
        close: list[str] = []
        if not data.record or _could_be_close(key, names, others, cutoff):
            import difflib  # only for a key that names no parameter (a solve need not import it)

            close = difflib.get_close_matches(key, names, n=1, cutoff=cutoff)
        if data.record and not close:
            continue
        hint = f"; did you mean {close[0]!r}?" if close else f" (its parameters: {', '.join(names) or 'none'})"
        where = "record" if data.record else "header"
        span = data.key_spans[key] if key in data.key_spans else data.params[key][1]
        errors.append(_err(f"{where} key {key!r} names no parameter of the spec{hint}", span, data))
        if len(errors) == MAX_KEY_ERRORS:
            break
    return errors


def _could_be_close(key: str, names: list[str], others: list[dict], cutoff: float) -> bool:
    """Whether ``key`` could be within ``cutoff`` of some name by ``difflib``'s ratio: its
    characters found in the name (``len(key)`` less what deleting the name's letters leaves)
    bound the matching characters from above, and ``str.translate`` counts them at C speed."""
    for name, other in zip(names, others):
        shared = min(len(key) - len(key.translate(other)), len(name))
        if 2 * shared >= cutoff * (len(key) + len(name)):
            return True
    return False


def _err(message: str, span: Span | None, data: MapData | None) -> ParamError:
    return ParamError(message, span, source=data.source if (span is not None and data is not None) else None)


def _holds(value: object, op: str, bound: int) -> bool:
    v = value  # bounds apply to int parameters only (the checker enforces it)
    return {"<=": v <= bound, ">=": v >= bound, "==": v == bound, "<": v < bound, ">": v > bound}[op]
