"""The classic genres: their specs stay short, and their published-rules verifiers judge the published answers.

The instances themselves (``puzzles/instances/GENRE/``: a URL or a map in
``NAME.txt``, the published answer in ``NAME.answer.json``, sources in
each folder's README) are solved, proved unique and verified by
tests/puzzles/test_instances.py, which reads them as data. Here each
genre's own verifier (``gridlang/plugins/GENRE.py``) accepts a published
answer and rejects it with one cell changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridlang import cli
from gridlang.core.shapes import polyominoes
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import encode
from gridlang.ir.solution import Solution
from gridlang.language.parser import parse_file
from gridlang.plugins import find_plugin

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
GENRES = ("starbattle", "sudoku", "norinori", "hitori", "nurikabe", "lits", "heyawake", "statuepark", "tapa",
          "fillomino")


@pytest.mark.parametrize("genre", GENRES)
def test_spec_is_short(genre):
    path = PUZZLES / f"{genre}.grid"
    if not path.exists():
        pytest.skip(f"{genre} has no spec yet")
    rules = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(rules) <= 30


# ---------------------------------------------------------------- the verifiers

def known(genre: str, name: str) -> tuple[str, dict]:
    """The published answer: its decision's name and values by cell index (a Boolean decision's true cells)."""
    answer = json.loads((PUZZLES / "instances" / genre / f"{name}.answer.json").read_text(encoding="utf-8"))
    (decision, entries), = answer["decisions"].items()
    cols = _grid(genre, name).cols
    return decision, {r * cols + c: (v if decision == "digit" else True) for (r, c), v in entries}


def _grid(genre: str, name: str):
    from gridlang.formats.maps import build_grid, read_map
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file

    spec = parse_file(PUZZLES / f"{genre}.grid")
    return build_grid(check(spec), read_map(PUZZLES / "instances" / genre / f"{name}.txt", spec.puzzle.name))


@pytest.mark.parametrize("genre,name,flip,words", [
    ("starbattle", "pzprjs_6x6", (0, 0), "holds 2 stars, not 1"),
    ("norinori", "pzprjs_5x5", (0, 2), "shaded cells, not 2"),
    ("hitori", "pzprjs_4x4", (0, 0), "unshaded"),
    ("nurikabe", "pzprjs_5x5", (0, 0), "walls"),
    ("sudoku", "pzprjs_4x4", (0, 0), "does not hold each digit once"),
    ("lits", "pzprjs_4x4", (0, 0), "not a tetromino"),
    ("heyawake", "pzprjs_6x6", (0, 0), "shaded cells, not 2"),
    ("statuepark", "pzprjs_7x7", (0, 4), "black circle"),
])
def test_verifier_rejects_a_broken_answer(genre, name, flip, words):
    grid = _grid(genre, name)
    decision, values = known(genre, name)
    cell = flip[0] * grid.cols + flip[1]
    if decision == "digit":
        values[cell] = values[cell] % grid.cols + 1
    elif cell in values:
        del values[cell]
    else:
        values[cell] = True
    params = {"box_rows": 2, "box_cols": 2} if genre == "sudoku" else {"stars": 1, "pieces": polyominoes(4)}
    verdict = find_plugin(_puzzle(genre)).verify(grid, Solution({decision: values}, {}), params)
    assert not verdict.ok
    assert any(words in p for p in verdict.problems), verdict.problems


@pytest.mark.parametrize("genre,name", [("starbattle", "pzprjs_6x6"), ("norinori", "cspuz_6x6"), ("hitori", "cspuz_6x5"),
                                        ("nurikabe", "pzprjs_5x5"), ("sudoku", "cspuz_9x9"), ("lits", "cspuz_10x10"),
                                        ("heyawake", "cspuz_6x6"), ("statuepark", "cspuz_7x6")])
def test_verifier_accepts_the_known_answer(genre, name):
    grid = _grid(genre, name)
    decision, values = known(genre, name)
    params = {"box_rows": 3, "box_cols": 3} if genre == "sudoku" else {"stars": 1, "pieces": polyominoes(4)}
    assert find_plugin(_puzzle(genre)).verify(grid, Solution({decision: values}, {}), params).ok


def _puzzle(genre: str) -> str:
    from gridlang.language.parser import parse_file

    return parse_file(PUZZLES / f"{genre}.grid").puzzle.name


# ------------------------------------------------------------------- the CLI

def test_json_lists_cell_decisions_by_standard_name(capsys):
    code = cli.main(["solve", str(PUZZLES / "starbattle.grid"), "--map",
                     str(PUZZLES / "instances" / "starbattle" / "pzprjs_6x6.txt"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert sorted(tuple(cell) for cell, value in out["decisions"]["star"]) == [
        (0, 1), (1, 3), (2, 5), (3, 2), (4, 4), (5, 0)]
    assert all(value == 1 for _, value in out["decisions"]["star"])


def test_sudoku_json_gives_each_digit(capsys):
    code = cli.main(["solve", str(PUZZLES / "sudoku.grid"), "--map",
                     str(PUZZLES / "instances" / "sudoku" / "pzprjs_4x4.txt"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [[0, 0], 2] in out["decisions"]["digit"] and len(out["decisions"]["digit"]) == 16


def test_renderer_outlines_rooms(capsys):
    code = cli.main(["solve", str(PUZZLES / "starbattle.grid"), "--map",
                     str(PUZZLES / "instances" / "starbattle" / "pzprjs_6x6.txt")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == "+---+---+---+---+---+---+"
    assert out[1] == "| .   *   . | .   .   . |"


def test_heyawake_drawing_keeps_the_number_of_a_shaded_cell(capsys):
    # In this instance the cell holding the top room's 2 is shaded.
    code = cli.main(["solve", str(PUZZLES / "heyawake.grid"), "--map",
                     str(PUZZLES / "instances" / "heyawake" / "cspuz_6x6.txt")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[1] == "|  #    . | #2    . |  .    # |"
    assert out[5] == "|  3    #    . |  . |  #    . |"


def test_a_fillomino_size_not_given_is_a_cell_of_its_own(capsys):
    """pzprjs's ``?`` clue (``.`` in the URL): a cell whose size is not told, read as the ``?`` tile and
    written back as ``.``. On this 2x2 the ``?`` cannot be 1 (beside the given 1), so the other three
    cells make one region of 3."""
    url = "https://puzz.link/p?fillomino/2/2/.1h"
    code = cli.main(["import", url])
    text = capsys.readouterr().out
    assert code == 0 and text.splitlines()[1:] == ["?1", ".."]
    spec = parse_file(PUZZLES / "fillomino.grid")
    assert encode(spec, parse_map(text, "m.txt", spec.puzzle.name)) == url
    code = cli.main(["solve", "--url", url, "--unique", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["unique"] is True and out["verified"] is True
    assert out["decisions"]["digit"] == [[[0, 0], 3], [[0, 1], 1], [[1, 0], 3], [[1, 1], 3]]
