"""Immutable records with slots, made without generated code: the AST's nodes and :class:`~gridlang.core.errors.Span`.

A subclass of :class:`Record` gets what ``@dataclass(frozen=True, slots=True)``
gives a class: fields from its annotations, in order, with defaults (a value,
or :func:`field` with ``default``, ``default_factory``, ``compare``,
``hash`` and ``repr``); ``__slots__``; an ``__init__`` taking the fields
by position or by name; ``==`` and ``hash`` over the compared fields
(``span`` is left out with ``field(default=None, compare=False)``); a
``repr`` ``Name(id='x', span=None)``; no assignment after ``__init__``
(:class:`FrozenInstanceError`); pickling and copying; ``__match_args__``.
The field names are the class's ``_fields``, as in Python's own
:mod:`ast`; :func:`field_names` reads them off a record or a dataclass.
The decorator ``@node`` makes the same record of a class written without
the base.

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
writes its own ``__init__``, which is kept. The metaclass
(:class:`RecordType`) does its work on the class's namespace before Python
makes the class, so each record class is made once: the decorator, which
sees a class already made and must make it again with its slots, cost
the class-making twice: 22.1 against 18.7 million instructions (valgrind) for
the AST's 69 classes.

``class Row(Record, frozen=False)`` makes a mutable record (fields may be assigned;
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

__all__ = ["FrozenInstanceError", "Record", "field", "field_names", "field_types", "node", "replace"]


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
    """The field names of a record (:class:`Record`) or a dataclass (an instance or its
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
    """The annotation of each field of a record class, as written (text, under
    ``from __future__ import annotations``), in order."""
    annotations = cls.__dict__.get("__annotations__", {})
    return {name: str(annotations[name]) for name in cls._fields}


def replace(x: Any, **changes: Any) -> Any:
    """A copy of the record ``x`` with the fields in ``changes`` given new values,
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


class RecordType(type):
    """The metaclass of :class:`Record`: it reads a record class's fields and adds its methods
    before Python makes the class, so the class is made once (``@node`` makes it twice)."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], *, frozen: bool = True,
                slots: bool = True):
        if bases:  # Record itself has none
            _prepare(name, bases, namespace, frozen, slots)
        return super().__new__(mcls, name, bases, namespace)

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **options: bool):
        super().__init__(name, bases, namespace)


class Record(metaclass=RecordType):
    """The base of a record class: ``class Call(Record)``, or ``class Row(Record, frozen=False,
    slots=False)`` for a mutable one with an instance ``__dict__``; see the module docstring.

    Fields are the class's own annotations after those of a record base.
    A class's own ``__repr__`` and ``__eq__`` (with its ``__hash__``) are
    kept. A class that defines ``__init__`` keeps it: it takes the fields
    by name, in order, with their defaults, and sets each one
    (``object.__setattr__`` where the record is frozen).

    Class keywords:
        frozen: no assignment to a field after ``__init__``; instances hash
            (default True).
        slots: fields in ``__slots__`` and no instance ``__dict__`` (default True).

    Raises:
        TypeError: when the class is made: a field without a default after
            one with a default, a mutable default (``list``, ``dict``,
            ``set``: use ``default_factory``), or an ``__init__`` whose
            parameters are not the fields.
    """

    __slots__ = ()


def node(cls: type | None = None, /, *, frozen: bool = True, slots: bool = True) -> Any:
    """Make ``cls`` a record, as :class:`Record` makes a subclass; ``@node`` or ``@node(frozen=False, slots=False)``.

    The decorator makes the class again (Python has made it once before the
    decorator sees it), so gridlang's own records subclass :class:`Record`,
    which makes each once; ``@node`` serves a class that cannot.

    Returns:
        A new class of the same name, module, docstring and methods, with
        :class:`Record` added to its bases (or, with only keywords given,
        the decorator that makes one).

    Raises:
        TypeError: as :class:`Record`; ``frozen`` or ``slots`` other than a
            subclass of a record was made with (it is a record already,
            made by the base's metaclass with its class keywords).
    """
    if cls is None:
        return lambda c: _make(c, frozen, slots)
    return _make(cls, frozen, slots)


def _make(cls: type, frozen: bool, slots: bool) -> type:
    if "_options" in cls.__dict__:  # a subclass of a record: the metaclass has made it a record already
        if cls.__dict__["_options"] != (frozen, slots):
            raise TypeError(f"{cls.__name__}: a record's subclass is a record; give frozen= and slots= "
                            "as class keywords, not to @node")
        return cls
    namespace = dict(cls.__dict__, __qualname__=cls.__qualname__)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    bases = cls.__bases__ if issubclass(cls, Record) else tuple(b for b in cls.__bases__ if b is not object) + (Record,)
    return RecordType(cls.__name__, bases, namespace, frozen=frozen, slots=slots)


def _prepare(name: str, bases: tuple[type, ...], namespace: dict[str, Any], frozen: bool, slots: bool) -> None:
    """Turn a record class's namespace into the class's: fields out of the class attributes, slots, methods."""
    # Runs for every record class at import (some 110 on a solve's path), so it looks in class dicts only.
    base = next((b for root in bases for b in root.__mro__ if "_specs" in b.__dict__), None)  # the nearest record base
    inherited: tuple[str, ...] = base.__dict__["_fields"] if base is not None else ()
    specs: dict[str, Field] = dict(base.__dict__["_specs"]) if base is not None else {}
    for field_name, kind in namespace.get("__annotations__", {}).items():
        if _is_class_variable(kind):
            continue
        value = namespace.pop(field_name, MISSING)
        if isinstance(value, Field):
            spec = value
        elif value is MISSING:
            spec = _REQUIRED
        else:
            spec = Field(default=value)
        if isinstance(spec.default, (list, dict, set)):
            raise TypeError(f"{name}.{field_name}: mutable default {type(spec.default).__name__}; "
                            "use default_factory")
        specs.pop(field_name, None)
        specs[field_name] = spec
    names: list[str] = []
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    compared, hashed, shown = [], [], []
    for field_name, spec in specs.items():
        if spec.default is not MISSING:
            defaults[field_name] = spec.default
        elif spec.default_factory is not MISSING:
            factories[field_name] = spec.default_factory
        elif defaults or factories:
            raise TypeError(f"{name}: field {field_name!r} without a default follows one with a default")
        names.append(field_name)
        if spec.compare:
            compared.append(field_name)
        if spec.hash or (spec.hash is None and spec.compare):
            hashed.append(field_name)
        if spec.repr:
            shown.append(field_name)
    fields = tuple(names)
    if slots:
        namespace["__slots__"] = tuple(n for n in fields if n not in inherited)
    if "__init__" not in namespace:
        namespace["__init__"] = _init(fields, defaults, factories, namespace.get("__post_init__"))
    else:  # written by hand (for speed): it must take the fields, in order
        code = namespace["__init__"].__code__
        if code.co_varnames[1:code.co_argcount] != fields:
            raise TypeError(f"{name}.__init__ takes {code.co_varnames[1:code.co_argcount]}, "
                            f"not its fields {fields}")
    namespace.update(_fields=fields, _specs=specs, _options=(frozen, slots), __match_args__=fields)
    namespace.setdefault("__repr__", _repr(tuple(shown)))  # a class's own is kept, as by dataclasses
    if "__eq__" not in namespace:
        namespace.update(__eq__=_eq(_key(compared)), __hash__=_hash(_key(hashed)) if frozen else None)
    if frozen:
        namespace.update(__setattr__=_frozen_setattr, __delattr__=_frozen_delattr)
    if slots:
        namespace.update(__getstate__=_getstate(fields), __setstate__=_setstate(fields))


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
