"""Backend settings: one frozen record per backend, read and checked once.

A backend's settings come from ``SolveOptions.extra``, keyed
``"<backend>.<name>"`` (the command line's ``--set maxsat.algorithm=rc2``).
Each backend declares them as a frozen record (a :class:`~gridlang.core.nodes.Record` with ``slots=False``, or a
frozen dataclass) subclassing :class:`Settings`; :meth:`Settings.read` builds one from the options before
any solving starts, and refuses, in one sentence each:

* a name the record does not have (the message lists those it has);
* a value of the wrong type: a Boolean for ``bool``, an integer for
  ``int``, a number for ``float``, text for ``str``;
* whatever the backend's own :meth:`Settings.check` refuses (a choice not
  offered, a number out of range, an option the solver does not have).

A dotted name reaches into a group: a field whose type is itself such a
record (``maxsat.lsu.solver`` is ``MaxSatSettings.lsu.solver``), or a
mapping field, which takes one entry at a time
(``milp.highs_options.presolve=off`` adds ``presolve`` to
``MilpSettings.highs_options``) or, from Python, a whole mapping merged in.
Keys of other backends are left to them.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Any, ClassVar, Mapping, TypeVar

from gridlang.core.errors import BackendError, closest
from gridlang.core.nodes import field_names, replace

S = TypeVar("S", bound="Settings")


class Settings:
    """The settings of one backend; subclasses add the fields.

    A subclass is a frozen record: a ``Record`` with ``slots=False`` of
    :mod:`gridlang.core.nodes` (the bundled backends, so that a solve imports
    no ``dataclasses``) or ``@dataclass(frozen=True)``; a field whose type
    is another such class is a group of settings (``maxsat.lsu.solver``).

    Class attributes:
        bare: also accept a key without the backend's prefix (the Python
            API's ``extra={"algorithm": "rc2"}``) when it names a setting;
            other keys without the prefix are ignored.
    """

    bare: ClassVar[bool] = False

    @classmethod
    def read(cls: type[S], backend: str, extra: Mapping[str, object]) -> S:
        """The settings ``extra`` gives (defaults for the rest), checked.

        Args:
            backend: the backend's name, the prefix of its keys.
            extra: ``SolveOptions.extra``.

        Raises:
            BackendError: a ``<backend>.`` key names no setting, a value has
                the wrong type, or :meth:`check` refuses a value.
        """
        prefix = backend + "."
        given: dict[str, Any] = {}
        for key, value in extra.items():
            if key.startswith(prefix):
                _put(cls, backend, key[len(prefix):], value, given, strict=True)
            elif cls.bare:
                _put(cls, backend, key, value, given, strict=False)
        out = _build(cls, given)
        out.check(backend)
        return out

    def check(self, backend: str) -> None:
        """Refuse values that have the right type but no meaning (subclasses).

        Raises:
            BackendError: a value the backend cannot use.
        """

    @classmethod
    def names(cls) -> list[str]:
        """Every setting's dotted name, sorted."""
        out = []
        for name in field_names(cls):
            kind = _hints(cls)[name]
            if _is_group(kind):
                out.extend(f"{name}.{inner}" for inner in kind.names())
            else:
                out.append(name)
        return sorted(out)

    def flat(self) -> dict[str, object]:
        """Every setting by dotted name (mappings as plain dicts), sorted by name."""
        out: dict[str, object] = {}
        for name in field_names(self):
            value = getattr(self, name)
            if isinstance(value, Settings):
                out.update({f"{name}.{k}": v for k, v in value.flat().items()})
            elif isinstance(value, Mapping):
                out[name] = dict(value)
            else:
                out[name] = value
        return dict(sorted(out.items()))


def frozen_mapping(entries: Mapping[str, object] | None = None) -> Mapping[str, object]:
    """A read-only mapping, the value of a mapping setting."""
    return types.MappingProxyType(dict(entries or {}))


def _is_group(kind: Any) -> bool:
    """Whether a field of type ``kind`` is a group of settings (a :class:`Settings` class)."""
    return isinstance(kind, type) and issubclass(kind, Settings)


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a settings class."""
    return typing.get_type_hints(cls)


def _is_mapping(kind: Any) -> bool:
    """Whether a field of type ``kind`` holds a mapping (``Mapping[str, object]``)."""
    return (typing.get_origin(kind) or kind) in (collections.abc.Mapping, dict)


def _put(cls: type[Settings], backend: str, name: str, value: object, given: dict[str, Any],
         strict: bool) -> None:
    """Record ``name = value`` in ``given`` (nested by group), checking the name and type.

    With ``strict`` off (a bare key), a name that is no setting is ignored.
    """
    parts = name.split(".")
    kind_of, target = _hints(cls), given
    for i, part in enumerate(parts):
        kind = kind_of.get(part)
        if kind is None:
            break
        rest = ".".join(parts[i + 1:])
        if _is_group(kind) and rest:
            kind_of, target = _hints(kind), target.setdefault(part, {})
            continue
        if _is_mapping(kind):
            if rest:
                target[part] = {**target.get(part, {}), rest: value}
            elif isinstance(value, Mapping):
                target[part] = {**target.get(part, {}), **value}
            else:
                _refuse(backend, name, f"entries, one at a time: {backend}.{name}.KEY=VALUE", value)
            return
        if rest or _is_group(kind):
            break
        _check_type(backend, name, kind, value)
        target[part] = value
        return
    if strict:
        close = closest(name, cls.names())
        hint = f"did you mean {backend}.{close}? It has" if close else "it has"
        raise BackendError(f"backend {backend!r} has no setting {name!r}; {hint} {', '.join(cls.names())}")


def _check_type(backend: str, name: str, kind: Any, value: object) -> None:
    """Refuse a value of the wrong type for a field of type ``kind``."""
    if kind is bool:
        ok, words = isinstance(value, bool), "true or false"
    elif kind is int:
        ok, words = isinstance(value, int) and not isinstance(value, bool), "an integer"
    elif kind is float:
        ok, words = isinstance(value, (int, float)) and not isinstance(value, bool), "a number"
    else:
        ok, words = isinstance(value, str), "text"
    if not ok:
        _refuse(backend, name, words, value)


def _refuse(backend: str, name: str, words: str, value: object) -> None:
    raise BackendError(f"backend {backend!r}: setting {name!r} takes {words}, not {value!r}")


def _build(cls: type[S], given: Mapping[str, Any]) -> S:
    """An instance of ``cls`` with the defaults replaced by ``given`` (groups built in turn)."""
    defaults = cls()
    values: dict[str, Any] = {}
    for name in field_names(cls):
        if name not in given:
            continue
        current = getattr(defaults, name)
        if isinstance(current, Settings):
            values[name] = _build(type(current), given[name])
        elif isinstance(current, Mapping):
            values[name] = frozen_mapping({**current, **given[name]})
        else:
            values[name] = given[name]
    return replace(defaults, **values)
