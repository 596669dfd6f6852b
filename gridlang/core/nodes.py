"""Immutable records with slots, made without generated code: the AST's nodes and :class:`~gridlang.core.errors.Span`.

``@node`` gives a class what ``@dataclass(frozen=True, slots=True)``
gives it: fields from its annotations, in order, with defaults (a value,
or :func:`field` with ``default``, ``default_factory``, ``compare``,
``hash`` and ``repr``); ``__slots__``; an ``__init__`` taking the fields
by position or by name; ``==`` and ``hash`` over the compared fields
(``span`` is left out with ``field(default=None, compare=False)``); a
``repr`` ``Name(id='x', span=None)``; no assignment after ``__init__``
(:class:`FrozenInstanceError`); pickling and copying; ``__match_args__``.
The field names are the class's ``_fields``, as in Python's own
:mod:`ast`; :func:`field_names` reads them off a node of either kind.

Why not ``dataclasses``: Python 3.11's ``dataclass`` writes each class's
``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and
``__delattr__`` as source text and compiles it when the module is
imported, six calls of ``compile`` per class. For the AST's 60 classes
that was 235 million instructions (valgrind), about 40 ms of every
``gridlang`` command at rest, more than the rest of its start-up before
the solver. Here the methods are closures over the field names, built in
microseconds, and ``operator.attrgetter`` (C) reads the fields for ``==``
and ``hash``; a node's ``__init__`` binds its arguments in Python, so an
instance takes about twice as long to make. That is the right trade for
the AST, made once per spec (and unpickled from the spec cache after);
a class whose instances are made by the thousand (the IR's constraints)
writes its own ``__init__``, which ``@node`` keeps.

``@node(frozen=False)`` makes a mutable record (fields may be assigned;
no ``hash``, as a mutable dataclass has none), and ``slots=False`` keeps
the instance ``__dict__`` (for a class whose methods or users add
attributes). A ``__post_init__`` is called after the generated
``__init__``, as by ``dataclasses``. With these, the classes a solve
imports (the IR, the grid, the backends' options and results, the report,
the settings) are all made here, and a plain ``gridlang solve`` imports
neither ``dataclasses`` nor ``inspect``, which it pulls in.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable

__all__ = ["FrozenInstanceError", "field", "field_names", "field_types", "node", "replace"]


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a node (nodes cannot change once made)."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""No default (a required field)."""


class Field:
    """One field's options, as :func:`field` gives them."""

    __slots__ = ("default", "default_factory", "compare", "hash", "repr")

    def __init__(self, default: Any = MISSING, default_factory: Callable[[], Any] | Any = MISSING,
                 compare: bool = True, hash: bool | None = None, repr: bool = True):
        self.default, self.default_factory = default, default_factory
        self.compare, self.hash, self.repr = compare, hash, repr


def field(*, default: Any = MISSING, default_factory: Callable[[], Any] | Any = MISSING, compare: bool = True,
          hash: bool | None = None, repr: bool = True) -> Any:
    """A field's default and options, as ``dataclasses.field`` takes them.

    Args:
        default: the value when the field is not given.
        default_factory: called for the value when the field is not given
            (a fresh ``dict`` per node).
        compare: the field takes part in ``==`` (and, unless ``hash`` says
            otherwise, in ``hash``).
        hash: the field takes part in ``hash``; None: as ``compare``.
        repr: the field is shown by ``repr``.

    Raises:
        ValueError: both ``default`` and ``default_factory``.
    """
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, compare, hash, repr)


def field_names(x: object) -> tuple[str, ...]:
    """The field names of a node made by :func:`node` or by ``dataclasses`` (an instance or its
    class), in order, without ``ClassVar`` attributes; () for anything else."""
    cls = x if isinstance(x, type) else type(x)
    names = getattr(cls, "_fields", None)
    if isinstance(names, tuple):
        return names
    if getattr(cls, "__dataclass_fields__", None) is None:
        return ()
    import dataclasses  # imported already by the dataclass's own module

    return tuple(f.name for f in dataclasses.fields(cls))


def field_types(cls: type) -> dict[str, str]:
    """The annotation of each field of a node class made by :func:`node`, as written (text, under
    ``from __future__ import annotations``), in order."""
    annotations = cls.__dict__.get("__annotations__", {})
    return {name: str(annotations[name]) for name in cls._fields}


def replace(x: Any, **changes: Any) -> Any:
    """A copy of the node ``x`` (made by :func:`node`) with the fields in ``changes`` given new values,
    as ``dataclasses.replace`` makes one; a dataclass instance is passed on to ``dataclasses.replace``.

    Raises:
        TypeError: a name in ``changes`` that is not a field of ``x``.
    """
    fields = getattr(type(x), "_fields", None)
    if not isinstance(fields, tuple):
        import dataclasses

        return dataclasses.replace(x, **changes)
    unknown = next((name for name in changes if name not in fields), None)
    if unknown is not None:
        raise TypeError(f"{type(x).__name__}() got an unexpected keyword argument {unknown!r}")
    return type(x)(**{name: changes[name] if name in changes else getattr(x, name) for name in fields})


def node(cls: type | None = None, /, *, frozen: bool = True, slots: bool = True) -> Any:
    """Make ``cls`` a record with slots, immutable by default; see the module docstring.

    Used as ``@node`` or ``@node(frozen=False, slots=False)``. Fields are
    the class's own annotations after those of a base class made by
    ``@node``. A class's own ``__repr__`` and ``__eq__`` (with its
    ``__hash__``) are kept. A class that defines ``__init__`` keeps it: it takes the
    fields by name, in order, with their defaults, and sets each one
    (``object.__setattr__`` where the record is frozen).

    Args:
        cls: the class (given when used as ``@node``).
        frozen: no assignment to a field after ``__init__``; instances hash.
        slots: fields in ``__slots__`` and no instance ``__dict__``.

    Returns:
        A new class of the same name, module, bases, docstring and methods
        (or, with only keywords given, the decorator that makes one).

    Raises:
        TypeError: a field without a default after one with a default, a
            mutable default (``list``, ``dict``, ``set``: use
            ``default_factory``), or an ``__init__`` whose parameters are
            not the fields.
    """
    if cls is None:
        return lambda c: _make(c, frozen, slots)
    return _make(cls, frozen, slots)


def _make(cls: type, frozen: bool, slots: bool) -> type:
    # Runs for every record class at import (some 110 on a solve's path), so it looks in class dicts only.
    namespace = dict(cls.__dict__)
    base = next((b for b in cls.__mro__[1:-1] if "_specs" in b.__dict__), None)  # the nearest record base
    inherited: tuple[str, ...] = base.__dict__["_fields"] if base is not None else ()
    specs: dict[str, Field] = dict(base.__dict__["_specs"]) if base is not None else {}
    for name, kind in namespace.get("__annotations__", {}).items():
        if _is_class_variable(kind):
            continue
        value = namespace.pop(name, MISSING)
        if isinstance(value, Field):
            spec = value
        elif value is MISSING:
            spec = _REQUIRED
        else:
            spec = Field(default=value)
        if isinstance(spec.default, (list, dict, set)):
            raise TypeError(f"{cls.__name__}.{name}: mutable default {type(spec.default).__name__}; "
                            "use default_factory")
        specs.pop(name, None)
        specs[name] = spec
    names: list[str] = []
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    compared, hashed, shown = [], [], []
    for name, spec in specs.items():
        if spec.default is not MISSING:
            defaults[name] = spec.default
        elif spec.default_factory is not MISSING:
            factories[name] = spec.default_factory
        elif defaults or factories:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
        names.append(name)
        if spec.compare:
            compared.append(name)
        if spec.hash or (spec.hash is None and spec.compare):
            hashed.append(name)
        if spec.repr:
            shown.append(name)
    fields = tuple(names)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    if slots:
        namespace["__slots__"] = tuple(n for n in fields if n not in inherited)
    if "__init__" not in namespace:
        namespace["__init__"] = _init(fields, defaults, factories, namespace.get("__post_init__"))
    else:  # written by hand (for speed): it must take the fields, in order
        code = namespace["__init__"].__code__
        if code.co_varnames[1:code.co_argcount] != fields:
            raise TypeError(f"{cls.__name__}.__init__ takes {code.co_varnames[1:code.co_argcount]}, "
                            f"not its fields {fields}")
    namespace.update(_fields=fields, _specs=specs, __match_args__=fields)
    namespace.setdefault("__repr__", _repr(tuple(shown)))  # a class's own is kept, as by dataclasses
    if "__eq__" not in namespace:
        namespace.update(__eq__=_eq(_key(compared)), __hash__=_hash(_key(hashed)) if frozen else None)
    if frozen:
        namespace.update(__setattr__=_frozen_setattr, __delattr__=_frozen_delattr)
    if slots:
        namespace.update(__getstate__=_getstate(fields), __setstate__=_setstate(fields))
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


_REQUIRED = Field()
"""The options of a field written without a default (shared: a :class:`Field` is never changed once made)."""


def _is_class_variable(annotation: object) -> bool:
    """A ``ClassVar`` annotation (text, under ``from __future__ import annotations``, or the object)."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _init(fields: tuple[str, ...], defaults: dict[str, Any], factories: dict[str, Callable[[], Any]],
          post_init: Callable[[Any], None] | None = None):
    count = len(fields)
    put = object.__setattr__

    def __init__(self, *args, **kwargs):
        if len(args) > count:
            raise TypeError(f"{type(self).__name__}() takes {count} positional arguments but {len(args)} were given")
        for name, value in zip(fields, args):
            put(self, name, value)
        for name in fields[len(args):]:
            if name in kwargs:
                value = kwargs.pop(name)
            elif name in defaults:
                value = defaults[name]
            elif name in factories:
                value = factories[name]()
            else:
                raise TypeError(f"{type(self).__name__}() missing required argument: {name!r}")
            put(self, name, value)
        if kwargs:
            name = next(iter(kwargs))
            what = "multiple values for argument" if name in fields else "an unexpected keyword argument"
            raise TypeError(f"{type(self).__name__}() got {what} {name!r}")
        if post_init is not None:
            post_init(self)

    return __init__


def _key(names: list[str]) -> Callable[[object], Any]:
    """The values of ``names`` of a node, as one value to compare or hash."""
    if not names:
        return lambda self: ()
    return attrgetter(*names)


def _repr(shown: tuple[str, ...]):
    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return __repr__


def _eq(key):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key):
    def __hash__(self) -> int:
        return hash(key(self))

    return __hash__


def _frozen_setattr(self, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(fields: tuple[str, ...]):
    def __getstate__(self) -> list:
        return [getattr(self, name) for name in fields]

    return __getstate__


def _setstate(fields: tuple[str, ...]):
    put = object.__setattr__

    def __setstate__(self, state: list) -> None:
        for name, value in zip(fields, state):
            put(self, name, value)

    return __setstate__
