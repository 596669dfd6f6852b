"""Backend settings: one frozen dataclass per backend, read and checked once.

A backend's settings come from ``SolveOptions.extra``, keyed
``"<backend>.<name>"`` (the command line's ``--set maxsat.algorithm=rc2``).
Each backend declares them as a frozen dataclass subclassing
:class:`Settings`; :meth:`Settings.read` builds one from the options before
any solving starts, and refuses, in one sentence each:

* a name the dataclass does not have (the message lists those it has);
* a value of the wrong type: a Boolean for ``bool``, an integer for
  ``int``, a number for ``float``, text for ``str``;
* whatever the backend's own :meth:`Settings.check` refuses (a choice not
  offered, a number out of range, an option the solver does not have).

A dotted name reaches into a group: a field whose type is itself a frozen
dataclass (``maxsat.lsu.solver`` is ``MaxSatSettings.lsu.solver``), or a
mapping field, which takes one entry at a time
(``milp.highs_options.presolve=off`` adds ``presolve`` to
``MilpSettings.highs_options``) or, from Python, a whole mapping merged in.
Keys of other backends are left to them.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, TypeVar

from .errors import BackendError, closest

S = TypeVar("S", bound="Settings")


@dataclass(frozen=True)
class Settings:
    """The settings of one backend; subclasses add the fields.

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
        for f in dataclasses.fields(cls):
            kind = _hints(cls)[f.name]
            if dataclasses.is_dataclass(kind):
                out.extend(f"{f.name}.{name}" for name in kind.names())
            else:
                out.append(f.name)
        return sorted(out)

    def flat(self) -> dict[str, object]:
        """Every setting by dotted name (mappings as plain dicts), sorted by name."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Settings):
                out.update({f"{f.name}.{k}": v for k, v in value.flat().items()})
            elif isinstance(value, Mapping):
                out[f.name] = dict(value)
            else:
                out[f.name] = value
        return dict(sorted(out.items()))


def frozen_mapping(entries: Mapping[str, object] | None = None) -> Mapping[str, object]:
    """A read-only mapping, the value of a mapping setting."""
    return types.MappingProxyType(dict(entries or {}))


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a settings dataclass."""
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
        if dataclasses.is_dataclass(kind) and rest:
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
        if rest or dataclasses.is_dataclass(kind):
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
    for f in dataclasses.fields(cls):
        if f.name not in given:
            continue
        current = getattr(defaults, f.name)
        if isinstance(current, Settings):
            values[f.name] = _build(type(current), given[f.name])
        elif isinstance(current, Mapping):
            values[f.name] = frozen_mapping({**current, **given[f.name]})
        else:
            values[f.name] = given[f.name]
    return dataclasses.replace(defaults, **values)
