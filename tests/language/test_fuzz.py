"""Property and fuzz tests: whatever the input, gridlang answers with a result
or a located error, never a traceback.

Two sources of input:

* specs generated from the grammar itself (``hypothesis.extra.lark``), with
  names, characters and numbers drawn from small pools so that the checker
  and the compiler see specs that mostly parse and often mean something;
* random byte mutations (flips, insertions, deletions, duplicated slices) of
  the shipped specs and maps, run through ``gridlang check`` and ``gridlang
  compile``.

The default run tries a fixed, small sample of each (derandomised, a few
seconds); ``pytest -m fuzz`` runs the same properties on many more random
examples.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from horse_data import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from gridlang.cli import main
from gridlang.compiler import compile_spec
from gridlang.core.errors import GridlangError
from gridlang.formats.maps import build_grid, read_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import Interpreter
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.language.parser.grammar import build_parser, grammar_text

QUICK = settings(max_examples=100, derandomize=True, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LONG = settings(max_examples=3000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

SPECS = sorted((REPO / "puzzles").glob("*.grid"))
MAPS = [REPO / "puzzles" / "maps" / "daily-2026-01-07.txt",
        REPO / "puzzles" / "maps" / "bonus-2026-03-26-costlywalls.txt",
        REPO / "puzzles" / "instances" / "snake_eggs" / "pzprjs_test_5x5.txt",
        REPO / "tests" / "data" / "snake_eggs" / "igornadj_test_2x8.json"]
PAIRS = [(REPO / "puzzles" / "horse.grid", MAPS[0]), (REPO / "puzzles" / "horse_costlywalls.grid", MAPS[1]),
         (REPO / "puzzles" / "snake_eggs.grid", MAPS[2]), (REPO / "puzzles" / "snake_eggs.grid", MAPS[3])]

TINY_MAP = "budget: 2\nsizes: 1..2\n~.a~\n.H.b\n~ab.\n"


# ------------------------------------------------------------- specs from the grammar

def _spaced(*words: str) -> st.SearchStrategy[str]:
    return st.sampled_from([f" {w} " for w in words])


def _grammar_strategy() -> st.SearchStrategy[str]:
    """Specs drawn from the grammar: keywords and punctuation with spaces
    around them, names and characters from small pools (so that names
    resolve and map characters meet the tiny map)."""
    lark = build_parser(grammar_text(), None)  # built afresh: one loaded from the cache has no grammar object
    explicit: dict[str, st.SearchStrategy[str]] = {}
    for terminal in lark.terminals:
        if terminal.pattern.type == "str":
            explicit[terminal.name] = st.just(f" {terminal.pattern.value} ")
    explicit.update({
        "NAME": _spaced("water", "grass", "horse", "portal", "impassable", "linked", "wall", "kind", "pen",
                        "budget", "sizes", "k", "x", "y", "snake", "a", "b"),
        "INT": st.one_of(st.integers(0, 12).map(lambda n: f" {n} "), _spaced("1000000000", "99999999999")),
        "CHAR": _spaced("'.'", "'~'", "'H'", "'a'", "'b'", "'c'", "'\\''", "'ab'"),
        "STRING": _spaced('"p"', '"enclose.horse"', '"Snake Eggs"', '""'),
        "COMPARE": _spaced("<=", ">=", "==", "<", ">"),
        "MAXIMIZE": _spaced("maximize", "maximise"),
        "MINIMIZE": _spaced("minimize", "minimise"),
        "COMMENT": st.just(" # note\n"),
        "WS": st.sampled_from([" ", "\n", "\t"]),
    })
    return from_lark(lark, explicit=explicit)


PREAMBLE = """tile water '~' impassable
tile grass '.' value 1
tile horse 'H' exactly 1
tile portal 'a'-'b' linked
param budget: int >= 0
param sizes: set of int
decide wall: bool on grass
decide kind: {snake} | sizes on all
region pen = reach from horse through not impassable and not wall
"""
"""Declarations put before half of the generated specs, so that their rules
name something and reach the checker, the compiler and the interpreter."""

GENERATED = st.tuples(st.booleans(), _grammar_strategy()).map(lambda t: (PREAMBLE if t[0] else "") + t[1])


def _judge_spec(text: str, tmp: Path) -> None:
    """Check, compile on a tiny map and interpret a spec: only GridlangError may escape."""
    try:
        spec = parse_spec(text, "gen.grid")
        symbols = check(spec)
        path = tmp / "tiny.txt"
        path.write_text(TINY_MAP)
        data = read_map(path)
        grid = build_grid(symbols, data)
        params = resolve_params(symbols, data)
        model = compile_spec(spec, symbols, grid, params, map_data=data)
        Interpreter(spec, symbols, grid, params).evaluate({})
    except GridlangError as e:
        e.render()  # rendering must not fail either
        return
    assert model.num_vars >= 0


@given(GENERATED)
@QUICK
def test_specs_from_the_grammar_get_a_result_or_a_located_error(tmp_path_factory, text):
    _judge_spec(text, _tmp(tmp_path_factory))


@pytest.mark.fuzz
@given(GENERATED)
@LONG
def test_specs_from_the_grammar_long(tmp_path_factory, text):
    _judge_spec(text, _tmp(tmp_path_factory))


_TMP: dict[str, Path] = {}


def _tmp(factory) -> Path:
    if "dir" not in _TMP:
        _TMP["dir"] = factory.mktemp("fuzz")
    return _TMP["dir"]


# ------------------------------------------------------------- mutated files

@st.composite
def mutations(draw, data: bytes) -> bytes:
    """``data`` with a few random byte edits: flips, insertions (of bytes,
    often structural ones), deletions and duplicated slices."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "duplicate"]))
        at = draw(st.integers(0, max(len(out) - 1, 0)))
        if kind == "flip" and out:
            out[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            piece = draw(st.one_of(st.binary(min_size=1, max_size=4),
                                   st.sampled_from([b"\n", b"\r\n", b"\t", b"\x00", b"(", b")", b"{", b"}",
                                                    b"'", b'"', b"#", b"9" * 30, b"\xef\xbb\xbf", b":", b"["])))
            out[at:at] = piece
        elif kind == "delete" and out:
            del out[at: at + draw(st.integers(1, 8))]
        elif out:
            end = min(len(out), at + draw(st.integers(1, 40)))
            out[at:at] = out[at:end]
    return bytes(out)


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, err.getvalue()


@st.composite
def mutated_case(draw) -> tuple[str, bytes, Path, Path]:
    """Which file is mutated (the spec or the map), its new bytes, and the other file."""
    spec, path = draw(st.sampled_from(PAIRS))
    which = draw(st.sampled_from(["spec", "map"]))
    original = (spec if which == "spec" else path).read_bytes()
    return which, draw(mutations(original)), spec, path


def _judge_mutation(case, tmp: Path) -> None:
    which, data, spec, path = case
    target = tmp / (("mutated" + spec.suffix) if which == "spec" else ("mutated" + path.suffix))
    target.write_bytes(data)
    spec_arg, map_arg = (target, path) if which == "spec" else (spec, target)
    for argv in (["check", spec_arg], ["compile", spec_arg, "--map", map_arg]):
        code, err = _run(argv)
        assert code in (0, 1), (argv, code, err)
        assert "Traceback" not in err
        if code == 1:
            assert "error: " in err.splitlines()[0], err


@given(mutated_case())
@QUICK
def test_mutated_specs_and_maps_get_a_result_or_a_located_error(tmp_path_factory, case):
    _judge_mutation(case, _tmp(tmp_path_factory))


@pytest.mark.fuzz
@given(mutated_case())
@LONG
def test_mutated_specs_and_maps_long(tmp_path_factory, case):
    _judge_mutation(case, _tmp(tmp_path_factory))
