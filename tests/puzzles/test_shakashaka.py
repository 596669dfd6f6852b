"""Shakashaka and how triangles are drawn.

Its instances (``puzzles/instances/shakashaka``) are solved to their
published answers, proved unique and verified by tests/puzzles/test_instances.py;
the rule they are written with is counted against brute force in
tests/compiler/test_triangles.py. Here: the URL read as pzprjs reads it,
the spec's verifier rejecting a published answer with one triangle turned,
the text and the pictures drawing each triangle as the half-cell it covers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from processes import gridlang_process

from gridlang.formats.maps import build_grid, read_map
from gridlang.interpreter import Interpreter
from gridlang.language.checker import check
from gridlang.language.looks import resolve
from gridlang.language.parser import parse_file, parse_spec

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
SHAKASHAKA = PUZZLES / "shakashaka.grid"
URL = "https://puzz.link/p?shakashaka/6/6/cgbhdhegdrb"


def _judge(name: str):
    """The instance's interpreter and its published answer (cell index -> value)."""
    spec = parse_file(SHAKASHAKA)
    symbols = check(spec)
    data = read_map(PUZZLES / "instances" / "shakashaka" / f"{name}.txt", spec.puzzle.name)
    grid = build_grid(symbols, data)
    answer = json.loads((PUZZLES / "instances" / "shakashaka" / f"{name}.answer.json").read_text(encoding="utf-8"))
    values = {r * grid.cols + c: v for (r, c), v in answer["decisions"]["tri"]}
    return Interpreter(spec, symbols, grid, {}), values


@pytest.mark.parametrize("cell, value, words", [
    # (0, 1) turned from '◤' to '◥': the 2 still sees two triangles, but the white diamond below is broken
    (1, "◥", ["is no rectangle"]),
    # (0, 1) made white: the 2 at (0, 0) sees one triangle, and the white area runs into the diamond
    (1, ".", ["1 == 2 is false", "is no rectangle"]),
])
def test_the_verifier_rejects_a_changed_triangle(cell, value, words):
    judge, values = _judge("pzprjs_6x6")
    assert judge.evaluate({"tri": values}).ok
    values[cell] = value
    violations = [str(v) for v in judge.evaluate({"tri": values}).violations]
    assert len(violations) == len(words)
    assert all(w in v for w, v in zip(words, violations))


def test_the_url_reads_as_pzprjs_reads_it():
    """pzprjs's test URL (test/script/shakashaka.js): decode4Cell, as its pzprv3 file lists the numbers
    (`2 . . . 1 . / . . . 3 . . / . . 4 . . . / 3 . . . . . / . . . . . . / . . . 1 . .`)."""
    out = gridlang_process("import", URL, "--spec", str(SHAKASHAKA))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("grid:\n")[1].split() == ["2...1.", "...3..", "..4...", "3.....", "......", "...1.."]


def test_text_and_pictures_draw_the_triangles(tmp_path):
    svg = tmp_path / "s.svg"
    out = gridlang_process("solve", str(SHAKASHAKA), "--url", URL, "--svg", str(svg), "--time-limit", "60")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:6] == ["2 ◤ ◥ . 1 .", "◤ . ◢ 3 ◤ ◥", "◣ ◢ 4 ◤ . ◢", "3 ◤ ◥ ◣ ◢ .",
                                           "◤ . ◢ . ◤ ◥", "◣ ◢ . 1 ◣ ◢"]
    text = svg.read_text()
    kinds = re.findall(r'<polygon class="triangle (\S+) tri"', text)
    assert {k: kinds.count(k) for k in set(kinds)} == {"bottom-left": 4, "bottom-right": 7, "top-right": 4,
                                                       "top-left": 7}
    # the cell (0, 1) holds '◤': its top-left, top-right and bottom-left corners (32 pixels a cell, 8 of margin)
    assert '<polygon class="triangle top-left tri" points="40,8 72,8 40,40"' in text


def test_triangles_are_the_default_look_of_a_triangle_decision():
    looks = resolve(check(parse_spec("tile blank '.'\ndecide tri: {'.', '◣', '◢', '◥', '◤'} on all\n"
                                     "decide kind: {a, b} on all\n", "t.grid")))
    assert looks.decisions == {"tri": "triangles", "kind": "default"}


def test_spec_is_short():
    """Its statements, less comments, the `draw` lines and the URL format's lines: its rules, as the gallery
    counts them."""
    from gridlang.language import ast

    spec = parse_file(SHAKASHAKA)
    formats = {n for f in spec.of(ast.Format) for n in range(f.span.line, max(i.span.line for i in f.items) + 1)}
    lines = SHAKASHAKA.read_text(encoding="utf-8").splitlines()
    assert len([ln for k, ln in enumerate(lines, 1)
                if k not in formats and ln.strip() and not ln.lstrip().startswith(("#", "draw "))]) == 7


@pytest.mark.parametrize("url, where, words", [
    ("https://puzz.link/p?shakashaka/6/6/cgbhd", "--url:1:41: error: ",
     "the data ends after 12 cells; a 6x6 grid has 36"),
    ("https://puzz.link/p?shakashaka/6/6/cgbhdhegdrbzzz", "--url:1:47: error: ",
     "unexpected 'zzz' after the puzzle's data (a 6x6 grid is complete before it)"),
])
def test_a_url_that_runs_short_or_long_is_located(url, where, words):
    out = gridlang_process("solve", "--url", url, "--time-limit", "20")
    assert out.returncode == 1
    assert out.stderr.startswith(where + words)
    assert "Traceback" not in out.stderr


def test_an_answer_with_a_value_that_is_no_triangle_is_located(tmp_path):
    """A slant where the spec's values are triangles: the answer file's place, exit 1."""
    answer = json.loads((PUZZLES / "instances" / "shakashaka" / "pzprjs_6x6.answer.json").read_text(encoding="utf-8"))
    answer["decisions"]["tri"][0][1] = "/"
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    out = gridlang_process("verify", str(SHAKASHAKA), "--map", str(PUZZLES / "instances" / "shakashaka" / "pzprjs_6x6.txt"),
               "--solution", str(path))
    assert out.returncode == 1
    assert out.stderr.startswith(f"{path}:1:33: error: '/' is not a value of 'tri' (., ◣, ◢, ◥, ◤)")
    assert "Traceback" not in out.stderr
