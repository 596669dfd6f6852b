"""The slant genres (Gokigen Naname, Wagiri) and how slants and the numbers on corners are drawn.

Their instances (``puzzles/instances/{gokigen,wagiri}``) are solved to their
published answers, proved unique and verified by tests/puzzles/test_instances.py;
the constructs they are written with are counted against brute force in
tests/compiler/test_cycles.py. Here: the URLs read as pzprjs reads them,
the spec's verifier rejects a published answer with one slant turned, the
text and the pictures draw each slant as its diagonal and each number on
its corner, and the looks' misuse is a located error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from processes import gridlang_process
from tiny import spec_errors

from gridlang.formats.maps import build_grid, read_map
from gridlang.interpreter import Interpreter
from gridlang.language.checker import check
from gridlang.language.looks import resolve
from gridlang.language.parser import parse_file, parse_spec

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
GOKIGEN = PUZZLES / "gokigen.grid"


def _judge(genre: str, name: str):
    """The instance's interpreter and its published answer (cell index -> slant)."""
    spec = parse_file(PUZZLES / f"{genre}.grid")
    symbols = check(spec)
    data = read_map(PUZZLES / "instances" / genre / f"{name}.txt", spec.puzzle.name)
    grid = build_grid(symbols, data)
    answer = json.loads((PUZZLES / "instances" / genre / f"{name}.answer.json").read_text(encoding="utf-8"))
    values = {r * grid.cols + c: v for (r, c), v in answer["decisions"]["slant"]}
    return Interpreter(spec, symbols, grid, {}), values


@pytest.mark.parametrize("genre, name, cell, words", [
    # the 4 on the corner (1, 1) loses the slant of cell (0, 0)
    ("gokigen", "pzprjs_4x4", 0, ["with v = the corner at row 2, column 2: the condition is false"]),
    # cell (1, 1) turned: the 4 loses it, and it closes a diamond round the corner (2, 2)
    ("gokigen", "pzprjs_4x4", 5, ["with v = the corner at row 2, column 2: the condition is false",
                                  "'slant' closes a cycle through 4 points: (2, 3), (1, 2), (2, 1), (3, 2)"]),
    # the cut cell (1, 2) turned: the 2 on the corner (2, 2) loses it, and it closes a loop
    ("wagiri", "pzprjs_4x4", 6, ["with v = the corner at row 3, column 3: the condition is false",
                                 "with p = row 2, column 3: the condition is false"]),
    # the ring cell (0, 1) turned: the 4 loses it, and both rings' loop opens
    ("wagiri", "pzprjs_4x4", 1, ["with v = the corner at row 2, column 2: the condition is false",
                                 "with p = row 1, column 2: the condition is false",
                                 "with p = row 4, column 3: the condition is false"]),
])
def test_the_verifier_rejects_a_turned_slant(genre, name, cell, words):
    judge, values = _judge(genre, name)
    assert judge.evaluate({"slant": values}).ok
    values[cell] = "/" if values[cell] == "\\" else "\\"
    violations = [str(v) for v in judge.evaluate({"slant": values}).violations]
    assert len(violations) == len(words)
    assert all(w in v for w, v in zip(words, violations))


def test_the_url_reads_as_pzprjs_reads_it():
    """pzprjs's test URL (test/script/gokigen.js): decode4Cross over the (R + 1) x (C + 1) crosses, row by
    row, as its pzprv3 file lists them (`. . . 0 . / . 4 . . . / 2 . . . 2 / ...`)."""
    out = gridlang_process("import", "https://puzz.link/p?gokigen/4/4/iaegcgcj6a", "--spec", str(GOKIGEN))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("corners:\n")[1].split() == ["...0.", ".4...", "2...2", ".....", ".1.0."]


def test_a_wagiri_url_reads_its_corners_then_its_cells():
    """pzprjs's test URL (test/script/wagiri.js): decode4Cross, then decodeNumber10 over the cells (1 ring,
    2 cut), as its pzprv3 file lists them (crosses `. 4 . . 1 / ...`, cells `. 1 . . / . . 2 . / ...`)."""
    out = gridlang_process("import", "https://puzz.link/p?wagiri/4/4/lebcacja1d2b1d1a", "--spec", str(PUZZLES / "wagiri.grid"))
    assert out.returncode == 0, out.stderr
    cells, corners = out.stdout.split("corners:\n")
    assert cells.split()[-4:] == [".o..", "..x.", ".o..", "..o."]
    assert corners.split() == [".....", ".4..1", "..2..", "0..2.", "....."]


def test_text_and_pictures_draw_the_slants(tmp_path):
    svg = tmp_path / "g.svg"
    out = gridlang_process("solve", str(GOKIGEN), "--url", "https://puzz.link/p?gokigen/4/4/iaegcgcj6a", "--svg", str(svg),
               "--time-limit", "60")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:9] == ["+ + + 0 +", r" \ / \ /", "+ 4 + + +", " / \\ \\ \\", "2 + + + 2", r" \ \ / /",
                         "+ + + + +", " / / / \\", "+ 1 + 0 +"]
    text = svg.read_text()
    paths = dict(re.findall(r'<path class="slant slant (forward|backward)" d="([^"]*)"', text))
    assert paths["backward"].count("M") == 8 and paths["forward"].count("M") == 8
    # the cell (0, 0) holds '\': from its top-left corner to its bottom-right one (32 pixels a cell)
    assert "M12,12 L44,44" in paths["backward"] and "M44,44 L76,12" in paths["forward"]
    group = text.split('class="corner-clues"')[1].split("</g>")[0]
    assert group.count('class="clue corner-clue"') == 6
    # pzprjs's dashed grid, the frame's lines too (10 lines of 4 cells, a dash and a gap each 0.08 of a cell:
    # 25 dashes a line), and no chassis
    grid = re.search(r'<path class="grid" d="([^"]*)"', text).group(1)
    assert grid.count("M") == 10 * 25
    assert 'class="borders"' not in text


def test_slants_are_the_default_look_of_a_slant_decision():
    looks = resolve(check(parse_spec("tile blank '.'\ntile clue number on corners\ntile dot 'x' on corners\n"
                                     "decide slant: {'/', '\\\\'} on all\ndecide kind: {a, b} on all\n"
                                     "draw dot as dot\n", "t.grid")))
    assert looks.decisions == {"slant": "slants", "kind": "default"}
    assert looks.corners == {"clue": "number", "dot": "dot"}


@pytest.mark.parametrize("extra, where, words", [
    ("draw kind as slants\n", (3, 14), "'slants' draws the values '/' and '\\' as diagonals; 'kind' has neither"),
    ("draw clue as shade\n", (3, 14), "'clue' cannot be drawn as 'shade'"),
])
def test_misdrawn_slants_and_corners_are_located(extra, where, words):
    errors = spec_errors("tile clue number on corners\ndecide kind: {a, b} on all\n" + extra)
    assert [(line, col) for line, col, _ in errors] == [where]
    assert words in errors[0][2]


@pytest.mark.parametrize("genre, count", [("gokigen", 7), ("wagiri", 11)])
def test_spec_is_short(genre, count):
    """Its statements, less comments, the `draw` lines and the URL format's lines: its rules, as the gallery
    counts them."""
    from gridlang.language import ast

    path = PUZZLES / f"{genre}.grid"
    spec = parse_file(path)
    formats = {n for f in spec.of(ast.Format) for n in range(f.span.line, max(i.span.line for i in f.items) + 1)}
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len([ln for k, ln in enumerate(lines, 1)
                if k not in formats and ln.strip() and not ln.lstrip().startswith(("#", "draw "))]) == count
