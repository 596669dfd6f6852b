"""Clues on the corners of the cells: tiles ``on corners``, the map's ``corners:`` layer, ``cells(v)``.

The lowering is counted against brute force on every backend (each assignment of the
decision judged by the interpreter, which reads the corners its own way); the errors
of the spec, the map and the URL are located; the puzz.link encoding reads and writes
pzprjs's ``decode4Cross``; the picture draws the clues where pzprjs draws its crosses.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
from processes import gridlang_process
from tiny import spec_errors
from tiny import spec_judge as _judge

from gridlang.core.errors import GridlangError
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

ROOT = Path(__file__).resolve().parents[2]
CREEK = ROOT / "puzzles" / "creek.grid"

SPEC = ("tile blank '.'\ntile plain '.' on corners\ntile clue number on corners\n"
        "decide shaded: bool on all\n"
        "require for each v in clue: value(v) is known implies count(shaded and cells(v)) == value(v)\n")
# 2x3 cells; clues on an inner corner (4 cells around it), on the frame (2) and on the frame's corner (1)
MAP = "...\n...\ncorners:\n.2..\n..3.\n1...\n"


@functools.cache
def brute_force() -> frozenset[tuple[bool, ...]]:
    """Every shading of the 2x3 map the interpreter accepts."""
    spec, symbols, data, grid, judge = _judge(SPEC, MAP)
    found = set()
    for combo in itertools.product((False, True), repeat=grid.size):
        answer = {i: True for i, v in enumerate(combo) if v}
        if judge.evaluate({"shaded": answer}).ok:
            found.add(combo)
    return frozenset(found)


def test_the_case_is_not_trivial():
    found = brute_force()
    assert 0 < len(found) < 2 ** 6
    assert all(combo[3] for combo in found)  # the 1 on the frame's bottom-left corner: its one cell, (1, 0)
    assert all(combo[1] + combo[2] + combo[4] + combo[5] == 3 for combo in found)  # the 3 between four cells
    assert all(combo[0] + combo[1] == 2 for combo in found)  # the 2 on the top frame, between two cells


def test_lowering_matches_brute_force(backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, judge = _judge(SPEC, MAP)
    model, _ = load_checked(spec, symbols, data, {})
    expected = brute_force()
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    assert report.complete is True
    got = {tuple(i in s.decisions["shaded"] for i in range(grid.size)) for s in report.solutions}
    assert got == expected


def test_cells_of_a_corner_and_corners_of_a_cell_agree():
    """``p in cells(v)`` exactly when v is one of ``corners(p)``, over a 3x4 grid, on every backend's
    answer count: one shaded cell per corner clue of 1 on every corner is only the answers it must be."""
    spec = ("tile blank '.'\ntile clue number on corners\ndecide shaded: bool on all\n"
            "require for each c in all: for each v in corners(c): shaded[c] implies count(shaded and cells(v)) >= 1\n"
            "require for each v in clue: count(cells(v)) == value(v)\n")
    corners = "corners:\n" + "\n".join(" ".join(str(len([1 for dr in (-1, 0) for dc in (-1, 0)
                                                          if 0 <= r + dr < 3 and 0 <= c + dc < 4]))
                                                 for c in range(5)) for r in range(4)) + "\n"
    spec_, symbols, data, grid, judge = _judge(spec, "....\n....\n....\n" + corners)
    model, _ = load_checked(spec_, symbols, data, {})
    report = solve_model(model, "cpsat", SolveOptions(time_limit=60), count=3)
    assert report.solutions  # every count(cells(v)) equals the number written by the other formula
    assert [len(grid.corner_cells(r, c)) for r in range(4) for c in range(5)] == \
        [int(ch) for ch in grid.corner_chars]


@pytest.mark.parametrize("spec, where, words", [
    (SPEC.replace("cells(v)", "cells(c)").replace("each v in clue", "each c in all").replace("value(v)", "1"),
     (5, 70), "cells(...) takes one corner of the lattice of cell corners"),
    ("tile blank '.'\ntile link 'a' on corners linked\ndecide shaded: bool on all\n", (2, 26),
     "a tile on corners takes no tags and is not linked"),
    ("tile blank '.'\ntile c number on corners\ntile d number on corners\ndecide shaded: bool on all\n", (3, 6),
     "the spec has one number tile on corners; 'c' is the first"),
    ("tile blank '.'\ntile c '.' on corners\ndecide shaded: bool on all\n"
     "format puzzlink \"t\":\n    corners: number16\n", (5, 14), "number16 cannot fill corners"),
    (SPEC.replace("count(shaded and cells(v))", "count(clue)"), (5, 61),
     "count(...) takes a cell set; this is a set of lattice corners"),
    ("tile blank '.'\ndecide line: bool on corner edges\nrequire for each corner v: value(v) == 0\n", (3, 34),
     "value(...) of a corner reads the clue on it, and the spec puts no tile on the corners"),
])
def test_spec_errors_are_located(spec, where, words):
    errors = spec_errors(spec)
    assert any((line, column) == where and words in message for line, column, message in errors), errors


@pytest.mark.parametrize("map_text, where, words", [
    ("...\n...\n", "m.txt:1:1", "the map gives no 'corners:' layer under its grid"),
    ("...\n...\ncorners:\n....\n....\n", "m.txt:5:4", "the corner layer has 2 rows; it needs 3"),
    ("...\n...\ncorners:\n...\n...\n...\n", "m.txt:4:1", "the corner layer has 3 corners a row; it needs 4"),
    ("...\n...\ncorners:\n....\n..x.\n....\n", "m.txt:5:3", "'x' on corner row 2, column 3 is not a tile on corners"),
    ("...\n...\ncorners:\n....\n....\n....\ncorners:\n....\n", "m.txt:7:1", "'corners:' is given twice"),
])
def test_map_errors_are_located(map_text, where, words):
    with pytest.raises(GridlangError) as info:
        _judge(SPEC, map_text)
    text = str(info.value)
    assert text.startswith(where) and words in text, text


def test_a_corner_layer_for_a_spec_without_tiles_on_corners_is_refused():
    with pytest.raises(GridlangError, match="the spec puts no tile on the corners of the cells"):
        _judge("tile blank '.'\ndecide shaded: bool on all\n", "..\n..\ncorners:\n...\n...\n...\n")


def test_an_unknown_number_is_an_error_at_the_corner_in_the_map():
    spec = SPEC.replace("value(v) is known implies ", "")
    spec_, symbols, data, grid, judge = _judge(spec, "...\n...\ncorners:\n....\n.?..\n....\n")
    with pytest.raises(GridlangError) as info:
        load_checked(spec_, symbols, data, {})
    assert str(info.value).startswith("m.txt:5:2: error: on corner row 2, column 2:"), str(info.value)


def test_a_creek_url_reads_as_pzprjs_reads_it_and_writes_back():
    """pzprjs's test URL (test/script/creek.js): its crosses, row by row, as the checker's board lists them."""
    out = gridlang_process("import", "https://puzz.link/p?creek/6/6/gagaich2cgb6769dt", "--spec", str(CREEK))
    assert out.returncode == 0, out.stderr
    layer = out.stdout.split("corners:\n")[1].split("\n")[:7]
    assert layer == [".0...0.", "....2..", "..22...", "1..1.2.", "1.4.3..", ".......", "......."]
    assert out.stdout.split("\n")[1:7] == ["......"] * 6


@pytest.mark.parametrize("body, column, words", [
    ("00000000000", 40, "unexpected '00' after the puzzle's data (a 2x2 grid is complete before it)"),
    ("4", 32, "the data ends after 1 corners; a 2x2 grid has 9 corners"),
    ("0-", 32, "unexpected '-' in the numbers 0 to 4"),
])
def test_a_url_whose_corners_run_long_or_short_is_refused_at_the_character(body, column, words):
    out = gridlang_process("solve", str(CREEK), "--url", f"https://puzz.link/p?creek/2/2/{body}")
    assert out.returncode == 1
    assert out.stderr.startswith(f"--url:1:{column}: error: {words}"), out.stderr


def test_the_picture_draws_each_clue_on_its_corner(tmp_path):
    svg = tmp_path / "creek.svg"
    out = gridlang_process("solve", str(CREEK), "--url", "https://puzz.link/p?creek/6/6/gagaich2cgb6769dt", "--svg", str(svg),
               "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verified"] is True
    text = svg.read_text()
    group = text.split('class="corner-clues"')[1].split("</g>")[0]
    assert group.count("<circle") + group.count("<ellipse") == 11  # the eleven numbers on the puzzle's crosses
    assert group.count('class="clue corner-clue"') == 11
    assert ">4<" in group and ">3<" in group


MARKS = ("puzzle \"marks\"\ntile blank '.'\ntile white 'o'\ntile black '*'\ntile plain '.' on corners\n"
         "tile mark 'x' on corners\ndecide wall: bool on corner edges\nformat puzzlink \"kramman\":\n"
         "    inner corners: cross marks (1 = mark)\n    cells: circles (1 = white, 2 = black)\n")


def test_cross_marks_on_the_inner_corners_read_and_write_as_pzprjs(tmp_path):
    """pzprjs's kramman test URL (test/script/kramman.js): decodeCrossMark over the crosses inside the grid
    (hascross 1), then the circles; the marks stand where its board's crosses hold 1."""
    from gridlang.formats.maps import encode_map

    spec = tmp_path / "marks.grid"
    spec.write_text(MARKS)
    out = gridlang_process("import", "https://puzz.link/p?kramman/5/5/32223i3f2fb99i", "--spec", str(spec))
    assert out.returncode == 0, out.stderr
    grid, layer = out.stdout.split("corners:\n")
    assert grid.strip().split("\n")[1:] == ["*...o", ".o*..", ".*o*.", "o.*o.", ".o..*"]
    assert layer.split() == ["......", "....x.", "...x..", "..x...", ".x....", "......"]
    map_file = tmp_path / "m.txt"
    map_file.write_text(out.stdout)
    assert encode_map(str(spec), str(map_file)) == "https://puzz.link/p?kramman/5/5/32223i3f2fb99i"
    map_file.write_text(".....\n.....\ncorners:\n......\n......\n......\n")
    assert encode_map(str(spec), str(map_file)) == "https://puzz.link/p?kramman/5/2/4"  # 4 inner corners, no mark
    map_file.write_text(".....\n.....\ncorners:\nx.....\n......\n......\n")
    with pytest.raises(GridlangError, match="the format writes the corners inside the grid only"):
        encode_map(str(spec), str(map_file))


def test_number4_cannot_fill_the_inner_corners():
    errors = spec_errors(MARKS.replace("inner corners: cross marks (1 = mark)", "inner corners: number4"))
    assert any("number4 cannot fill inner corners" in message for _, _, message in errors), errors


def test_a_mark_on_a_corner_is_drawn_as_a_dot_where_pzprjs_draws_its_cross_mark(tmp_path):
    spec = tmp_path / "marks.grid"
    spec.write_text(MARKS)
    svg = tmp_path / "marks.svg"
    out = gridlang_process("solve", str(spec), "--url", "https://puzz.link/p?kramman/5/5/32223i3f2fb99i", "--svg", str(svg))
    assert out.returncode == 0, out.stderr
    group = svg.read_text().split('class="corner-clues"')[1].split("</g>")[0]
    assert group.count('class="corner-mark"') == 4 and "corner-clue" not in group


def test_generate_places_clues_on_the_corners():
    # tests/why/test_why_generate_sites.py proves such puzzles unique and every clue needed
    out = gridlang_process("generate", str(CREEK), "--size", "4x4", "--seed", "1", "--quiet")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1].startswith("# https://puzz.link/p?creek/4/4/") and lines[2:6] == ["...."] * 4
    assert lines[6] == "corners:" and [len(row) for row in lines[7:12]] == [5] * 5
    clues = int(lines[0].split(": ")[1].split(" clues")[0])  # "# seed 1: 6 clues, unique (checked by maxsat), ..."
    assert sum(ch.isdigit() for row in lines[7:12] for ch in row) == clues > 0


@pytest.mark.parametrize("domain", ["bool", "{a, b}"])
def test_a_decision_on_the_corners_is_refused_at_corners(domain):
    """Answers on the corners of the cells (pzprjs's crosses) are not in the language: one sentence, at the
    word, not a syntax error at the next line."""
    errors = spec_errors(f"tile blank '.'\ndecide mark: {domain} on corners\nrequire count(all) > 0\n")
    assert [(line, col) for line, col, _ in errors] == [(2, 18 + len(domain))]
    assert "one per corner of the cells (pzprjs's crosses) is not in the language" in errors[0][2]
