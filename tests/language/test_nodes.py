"""The AST's nodes (``gridlang.core.nodes.node``) behave as frozen dataclasses with slots did,
and importing the AST compiles no code."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from typing import ClassVar

import pytest

from gridlang.core.errors import Span
from gridlang.core.nodes import (
    FrozenInstanceError,
    Record,
    RecordType,
    field,
    field_names,
    node,
)
from gridlang.language import ast
from gridlang.language.parser import parse_spec

HERE = Span("spec.grid", 3, 7)


def test_equal_and_hashed_by_their_fields_whatever_the_span():
    a, b = ast.Name("wall", HERE), ast.Name("wall", Span("other.grid", 9, 1))
    assert a == b and hash(a) == hash(b)
    assert ast.Name("wall") != ast.Name("pen")
    assert ast.Name("wall") != ast.IntLit(3) and ast.IntLit(3) != 3
    assert len({ast.Count(a), ast.Count(b), ast.Count(ast.Name("pen"))}) == 2


def test_fields_by_position_or_by_name_with_their_defaults():
    tile = ast.Tile("grass", (ast.CharSpec(".", "."),), value=1)
    assert (tile.name, tile.value, tile.linked, tile.count, tile.span) == ("grass", 1, False, None, None)
    assert tile.attr_spans == {} and tile.attr_spans is not ast.Tile("x", ()).attr_spans  # a fresh dict each
    assert ast.Count(operand=ast.Name("x")) == ast.Count(ast.Name("x"))
    assert field_names(tile)[:3] == ("name", "chars", "value") and ast.Count.__match_args__ == ("operand", "span")


def test_wrong_arguments_are_refused_as_python_refuses_them():
    with pytest.raises(TypeError, match="missing required argument: 'operand'"):
        ast.Count()
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        ast.Count(ast.Name("x"), None, 4)
    with pytest.raises(TypeError, match="an unexpected keyword argument 'size'"):
        ast.Count(ast.Name("x"), size=3)
    with pytest.raises(TypeError, match="multiple values for argument 'operand'"):
        ast.Count(ast.Name("x"), operand=ast.Name("y"))


def test_nodes_cannot_change():
    n = ast.Name("wall", HERE)
    with pytest.raises(FrozenInstanceError):
        n.id = "pen"
    with pytest.raises(AttributeError):
        del n.span
    with pytest.raises(AttributeError):
        n.__dict__  # noqa: B018 - slots: no instance dictionary


def test_repr_shows_every_field_as_dataclasses_did():
    assert repr(ast.Name("wall", HERE)) == "Name(id='wall', span=Span(file='spec.grid', line=3, column=7, end_column=None))"
    assert repr(ast.Count(ast.IntLit(2))) == "Count(operand=IntLit(value=2, span=None), span=None)"


def test_a_parsed_spec_survives_pickling_and_copying_spans_included():
    spec = parse_spec("tile grass '.' value 1\ndecide wall: bool on grass\nrequire count(wall) <= 3\n", "s.grid")
    for again in (pickle.loads(pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)), copy.deepcopy(spec)):
        assert again == spec and again.statements == spec.statements
        assert [s.span for s in again.statements] == [s.span for s in spec.statements]


def test_a_class_that_breaks_the_rules_of_fields_is_refused():
    with pytest.raises(TypeError, match="without a default follows"):
        @node
        class Bad:
            a: int = 0
            b: int

    with pytest.raises(TypeError, match="mutable default"):
        @node
        class Mutable:
            a: list = []  # noqa: RUF012

    with pytest.raises(ValueError):
        field(default=1, default_factory=list)


def test_importing_the_ast_compiles_no_code():
    # Python 3.11's dataclasses compile six methods of every class from source text at import
    # (235 million instructions for the AST, about 40 ms of every command); nodes are made without.
    # The standard library's own namedtuples (pathlib imports urllib.parse) are compiled before
    # the hook: an editable install's start-up imports them anyway, a wheel's does not.
    probe = (
        "import json, sys, pathlib\n"
        "made = []\n"
        "sys.addaudithook(lambda event, args: made.append(str(args[1])) if event == 'compile' else None)\n"
        "import gridlang.language.ast, gridlang.core.errors\n"
        "print(json.dumps([name for name in made if not name.endswith('.py')]))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_replace_copies_a_node_with_new_fields_as_dataclasses_replace_does():
    from gridlang.core.nodes import replace

    name = ast.Name("x", HERE)
    other = replace(name, id="y")
    assert (other.id, other.span) == ("y", name.span) and name.id == "x"
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        replace(name, nope=1)


def test_field_types_are_the_annotations_as_written():
    from gridlang.core.nodes import field_types

    assert field_types(ast.Distance) == {"a": "Expr", "b": "Expr", "span": "Span | None"}


def test_mutable_records_assign_and_do_not_hash_as_mutable_dataclasses():
    @node(frozen=False)
    class Tally:
        name: str
        hits: int = 0

    t = Tally("a")
    t.hits += 2
    assert (t, Tally("a", 2) == t, Tally.__hash__) == (Tally(name="a", hits=2), True, None)
    with pytest.raises(AttributeError):
        t.other = 1  # slots: no attribute that is not a field

    @node(frozen=False, slots=False)
    class Loose:
        name: str

    loose = Loose("b")
    loose.extra = 3  # an instance __dict__ kept
    assert (loose.extra, copy.copy(loose).extra) == (3, 3)


def test_subclasses_extend_the_fields_and_post_init_runs_after_init():
    @node
    class Base:
        a: int

    @node
    class Sub(Base):
        b: int = 0
        c: tuple = field(default=(), compare=False)

        def __post_init__(self):
            object.__setattr__(self, "c", (self.a, self.b))

    s = Sub(1, 2)
    assert (field_names(s), s.c, s) == (("a", "b", "c"), (1, 2), Sub(1, 2))
    assert repr(s).endswith(".Sub(a=1, b=2, c=(1, 2))")  # the qualified name, as dataclasses show it
    assert copy.deepcopy(s) == s and copy.copy(s).c == (1, 2)


def test_a_record_subclass_is_what_the_decorator_makes_and_is_made_once():
    made = []

    class Counting(RecordType):
        def __new__(mcls, *args, **kwargs):
            made.append(args[0])
            return super().__new__(mcls, *args, **kwargs)

    class Base(metaclass=Counting):  # Record itself, counted
        __slots__ = ()

    class Point(Base):
        x: int
        y: int = 0
        span: Span | None = field(default=None, compare=False)

    class Row(Base, frozen=False, slots=False):
        cells: tuple = ()

    assert made == ["Base", "Point", "Row"]  # each class made once (the decorator makes a class twice)
    p = Point(1, span=HERE)
    assert (p, hash(p), repr(p).endswith("Point(x=1, y=0, span=Span(file='spec.grid', line=3, column=7, end_column=None))")) == (
        Point(1), hash(Point(1)), True)
    assert Point.__slots__ == ("x", "y", "span") and not hasattr(p, "__dict__")
    assert copy.deepcopy(Point(2, 3)) == Point(2, 3) and Point.__match_args__ == ("x", "y", "span")
    with pytest.raises(FrozenInstanceError):
        p.x = 2
    r = Row()
    r.cells, r.note = (1,), "kept"  # mutable, with an instance __dict__
    assert (r.cells, r.note, Row.__hash__) == ((1,), "kept", None)

    class Sub(Point):  # a record's subclass is a record, its fields after the base's
        z: int = 5

    assert (field_names(Sub), Sub(1).z, made[-1]) == (("x", "y", "span", "z"), 5, "Sub")
    assert node(Sub) is Sub  # already a record
    with pytest.raises(TypeError, match="class keywords"):
        node(Sub, frozen=False)
    with pytest.raises(TypeError, match="mutable default list"):
        class Wrong(Record):
            xs: list = []


def test_a_hand_written_init_is_kept_and_must_take_the_fields():
    put = object.__setattr__

    @node
    class Fast:
        x: int
        y: int = 0

        def __init__(self, x: int, y: int = 0) -> None:
            put(self, "x", x)
            put(self, "y", y * 10)

    assert (Fast(1, 2).y, Fast(1) == Fast(1), hash(Fast(3)) == hash(Fast(3))) == (20, True, True)
    with pytest.raises(FrozenInstanceError):
        Fast(1).x = 2
    with pytest.raises(TypeError, match="not its fields"):
        @node
        class Wrong:
            x: int

            def __init__(self, y: int) -> None:
                put(self, "x", y)


def test_a_class_keeps_its_own_repr_and_equality():
    @node(slots=False)
    class Shown:
        x: int

        def __repr__(self) -> str:
            return "<shown>"

        def __eq__(self, other) -> bool:
            return True

        __hash__ = None

    assert (repr(Shown(1)), Shown(1) == 5, Shown.__hash__) == ("<shown>", True, None)


def test_replace_passes_a_dataclass_to_dataclasses():
    import dataclasses

    from gridlang.core.nodes import replace

    @dataclasses.dataclass(frozen=True)
    class Old:
        x: int
        y: int = 0

    assert replace(Old(1), y=5) == Old(1, 5)


def test_field_names_of_a_class_or_instance_leave_out_class_variables():
    import dataclasses

    @dataclasses.dataclass(frozen=True)  # ClassVar is a module name here, as dataclasses needs it to be
    class Old:
        shared: ClassVar[int] = 3
        x: int = 0

    @node
    class New:
        shared: ClassVar[int] = 3
        x: int = 0

    assert [field_names(k) for k in (Old, Old(), New, New())] == [("x",)] * 4
    assert field_names(3) == () and field_names(int) == ()
