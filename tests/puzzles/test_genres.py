"""The classic genres: each spec solves its real instances to the known answer, uniquely, on every backend.

For every instance in ``puzzles/instances/GENRE/`` (``NAME.txt``, with its
known answer in ``NAME.answer``; sources in each folder's README), the
genre's spec is solved on CP-SAT, MILP and MaxSAT with ``--unique``: the
pipeline re-checks the answer against the spec's own rules and the genre's
independent verifier (``gridlang/plugins/GENRE.py``); the test then asserts
the known answer and the uniqueness proof. Instances that take more than a
few seconds on some backend are marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridlang import cli
from gridlang.backend import SolveOptions, backend_names
from gridlang.pipeline import solve
from gridlang.plugins import find_plugin
from gridlang.shapes import polyominoes
from gridlang.solution import Solution

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
BACKENDS = tuple(backend_names())
DECISION = {"starbattle": "star", "sudoku": "digit", "norinori": "shaded", "hitori": "shaded",
            "nurikabe": "shaded", "lits": "shaded", "heyawake": "shaded", "statuepark": "shaded"}
SLOW: set[tuple[str, str, str]] = set()


def instances():
    for genre in DECISION:
        folder = PUZZLES / "instances" / genre
        for path in sorted(folder.glob("*.txt")) if folder.is_dir() else ():
            for backend in BACKENDS:
                marks = [pytest.mark.slow] if (genre, path.stem, backend) in SLOW else []
                yield pytest.param(genre, path.stem, backend, marks=marks, id=f"{genre}-{path.stem}-{backend}")


def answer_rows(genre: str, report) -> list[str]:
    """The solved answer in the ``.answer`` files' format."""
    grid = report.model.grid
    values = report.solution.decisions[DECISION[genre]]
    rows = []
    for r in range(grid.rows):
        row = []
        for c in range(grid.cols):
            v = values.get(r * grid.cols + c)
            if genre == "sudoku":
                row.append(str(v))
            else:
                row.append(("*" if genre == "starbattle" else "#") if v is True else ".")
        rows.append(("" if genre != "sudoku" or grid.rows < 10 else " ").join(row))
    return rows


def known(genre: str, name: str) -> list[str]:
    return (PUZZLES / "instances" / genre / f"{name}.answer").read_text(encoding="utf-8").split()


@pytest.mark.parametrize("genre,name,backend", list(instances()))
def test_known_answer_and_uniqueness(genre, name, backend):
    report = solve(PUZZLES / f"{genre}.grid", PUZZLES / "instances" / genre / f"{name}.txt", backend=backend,
                   unique=True, options=SolveOptions(time_limit=300))
    assert report.verdict is not None and report.verdict.ok, "the genre's own verifier ran and accepted it"
    assert answer_rows(genre, report) == known(genre, name)
    assert report.unique is True
    assert len(report.solutions) == 1


@pytest.mark.parametrize("genre", sorted(DECISION))
def test_spec_is_short(genre):
    path = PUZZLES / f"{genre}.grid"
    if not path.exists():
        pytest.skip(f"{genre} has no spec yet")
    rules = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(rules) <= 30


# ---------------------------------------------------------------- the verifiers

def _solution(genre: str, rows: list[str]) -> Solution:
    if genre == "sudoku":
        values = {i: int(ch) for i, ch in enumerate("".join(rows))}
    else:
        values = {i: True for i, ch in enumerate("".join(rows)) if ch in "#*"}
    return Solution({DECISION[genre]: values}, {})


def _grid(genre: str, name: str):
    from gridlang.checker import check
    from gridlang.maps import build_grid, read_map
    from gridlang.parser import parse_file

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
    rows = known(genre, name)
    r, c = flip
    ch = rows[r][c]
    if genre == "sudoku":
        new = str(int(ch) % len(rows) + 1)
    else:
        new = "." if ch in "#*" else ("*" if genre == "starbattle" else "#")
    rows[r] = rows[r][:c] + new + rows[r][c + 1:]
    params = {"box_rows": 2, "box_cols": 2} if genre == "sudoku" else {"stars": 1, "pieces": polyominoes(4)}
    verdict = find_plugin(_puzzle(genre)).verify(grid, _solution(genre, rows), params)
    assert not verdict.ok
    assert any(words in p for p in verdict.problems), verdict.problems


@pytest.mark.parametrize("genre,name", [("starbattle", "pzprjs_6x6"), ("norinori", "cspuz_6x6"), ("hitori", "cspuz_6x5"),
                                        ("nurikabe", "pzprjs_5x5"), ("sudoku", "cspuz_9x9"), ("lits", "cspuz_10x10"),
                                        ("heyawake", "cspuz_6x6"), ("statuepark", "cspuz_7x6")])
def test_verifier_accepts_the_known_answer(genre, name):
    grid = _grid(genre, name)
    params = {"box_rows": 3, "box_cols": 3} if genre == "sudoku" else {"stars": 1, "pieces": polyominoes(4)}
    assert find_plugin(_puzzle(genre)).verify(grid, _solution(genre, known(genre, name)), params).ok


def _puzzle(genre: str) -> str:
    from gridlang.parser import parse_file

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
