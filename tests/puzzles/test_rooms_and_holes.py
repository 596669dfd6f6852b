"""Cells in no room: pzprjs's holes join no rooms (its room graph's ``isnodevalid``).

A Double Back whose 2x2 block of holes touches three rooms: read as a flood through every cell,
the holes joined the rooms around them into one, and the puzzle had several answers (a valid
puzzle can as well come out infeasible so). With ``tile block '*' no room`` the rooms are pzprjs's and the
puzzle has one answer. The URL was written by gridlang from a map of four rooms around the holes
(``encode_map``) and reads back to the same rooms.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tiny import spec_judge

from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load, load_checked, solve_model

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "puzzles" / "doubleback.grid"
URL = "https://puzz.link/p?doubleback/6/6/880g2100221u001go000"
ROOMS = ["aabbbb", "aabbbb", "aa..bb", "ac..bb", "ccccbb", "aaaaab"]


def _import(spec: Path = SPEC) -> str:
    out = subprocess.run([sys.executable, "-m", "gridlang", "import", URL, "--spec", str(spec)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_holes_are_in_no_room_and_the_rooms_stay_apart():
    text = _import()
    assert text.split("rooms:\n")[1].split() == ROOMS
    spec, symbols, data, grid, judge = spec_judge(SPEC.read_text(), text)
    holes = [i for i, t in enumerate(grid.tiles) if t == "block"]
    assert [grid.rooms[i] for i in holes] == [-1] * 4
    assert len(grid.room_cells()) == 4  # the top-left, the right, the one below the holes, the bottom row
    assert sorted(len(cells) for cells in grid.room_cells()) == [5, 5, 7, 15]


@pytest.mark.parametrize("backend", ["asp", "cpsat"])
def test_the_puzzle_has_one_answer_where_joined_rooms_gave_several(backend, tmp_path):
    joined = tmp_path / "joined.grid"  # the spec as it was: the holes a tile like any other
    joined.write_text(SPEC.read_text().replace("tile block '*' no room", "tile block '*'"))
    assert _import(joined).split("rooms:\n")[1].split() == ["aaaaaa", "aaaaaa", "aaaaaa", "aaaaaa", "aaaaaa",
                                                             "bbbbba"]  # three rooms and the holes, one
    counts = {}
    for name, spec_path in (("pzprjs's rooms", SPEC), ("joined", joined)):
        spec, symbols, data, grid, judge = spec_judge(spec_path.read_text(), _import(spec_path))
        model, _ = load_checked(spec, symbols, data, {})
        report = solve_model(model, backend, SolveOptions(time_limit=60), count=3)
        for solution in report.solutions:
            assert judge.evaluate(solution.decisions).ok
        counts[name] = (len(report.solutions), report.complete)
    assert counts == {"pzprjs's rooms": (1, True), "joined": (3, False)}  # joined: three answers and more


def test_the_url_writes_back_without_borders_beside_the_holes(tmp_path):
    from gridlang.formats.maps import encode_map

    path = tmp_path / "m.txt"
    path.write_text(_import())
    assert encode_map(str(SPEC), str(path)) == URL


def test_room_of_a_cell_in_no_room_is_empty_for_the_compiler_and_the_verifier():
    spec_text = ("tile blank '.'\ntile hole '*' no room\ndecide shaded: bool on blank\n"
                 "require for each p in hole: count(room(p)) == 0\n"
                 "require for each room m: count(shaded and m) == 1\n")
    map_text = ".*.\n.*.\nrooms:\naaa\naaa\n"  # the holes split one label into two rooms
    spec, symbols, data, grid, judge = spec_judge(spec_text, map_text)
    assert grid.rooms == (0, -1, 1, 0, -1, 1)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, "cpsat", SolveOptions(time_limit=60), count=10)
    assert report.complete is True and len(report.solutions) == 4  # one shaded cell in each two-cell room
    assert all(judge.evaluate(s.decisions).ok for s in report.solutions)


DATASET = ROOT / "tests" / "data" / "dataset"


@pytest.mark.parametrize("backend", ["auto", "cpsat"])
@pytest.mark.parametrize("genre, name, holes, answer", [
    ("lits", "lits_47_12x12", 20, 56),  # 14 rooms, a tetromino each
    ("starbattle", "starbattle_10_10x10", 24, 20),  # two stars a row
])
def test_janko_puzzles_with_holes_have_their_published_answer(genre, name, holes, answer, backend, tmp_path):
    from gridlang.batch.dataset import GENRES

    record = json.loads((DATASET / f"{name}.json").read_text())
    kind = GENRES[genre]
    path = tmp_path / f"{name}.txt"
    path.write_text(kind.to_map(record["problem"]))
    model, _ = load(ROOT / "puzzles" / kind.spec, path)
    assert model.grid.tiles.count("hole") == holes
    assert all(model.grid.rooms[i] == -1 for i, t in enumerate(model.grid.tiles) if t == "hole")
    report = solve_model(model, backend, SolveOptions(time_limit=60), unique=True)
    assert report.verdict.ok and (len(report.solutions), report.complete) == (1, True)
    cols = model.grid.cols
    found = {divmod(i, cols) for i in report.solution.true_cells(kind.decision)}
    assert len(found) == answer and found == kind.answer(record["solution"])
