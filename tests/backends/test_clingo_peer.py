"""The five-rule clingo peer of benchmarks/clingo_peer.py proves the published optima, and its check bites."""

from __future__ import annotations

import sys

import pytest
from horse_data import HORSE_DATA, REPO, known_optimum, manifest

sys.path.insert(0, str(REPO / "benchmarks"))  # as `python benchmarks/clingo_peer.py` runs it
import clingo_peer as peer  # noqa: E402


# 01-07: cherries; 01-27: portals, an apple and bees (a tile worth -4).
@pytest.mark.parametrize("name", ["daily-2026-01-07.txt", "daily-2026-01-27.txt"])
def test_the_peer_proves_the_published_optimum(name):
    e = next(e for e in manifest() if e["file"] == name)
    assert peer.solve_peer(HORSE_DATA / name, e["budget"], 60) == (known_optimum(e), True)


def test_the_peer_check_refuses_an_open_pen_and_too_many_walls():
    rows = peer.read_map(HORSE_DATA / "daily-2026-01-07.txt")
    assert peer.score(rows, set(), 12) is None  # no walls: the horse walks off the map
    grass = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
    assert peer.score(rows, set(grass[:13]), 12) is None


def test_the_peer_as_a_script_answers_one_map_in_its_own_process():
    import json
    import subprocess

    daily = HORSE_DATA / "daily-2026-01-07.txt"
    probe = ("import runpy, sys\n"
             f"sys.argv = [{str(REPO / 'benchmarks' / 'clingo_peer.py')!r}, {str(daily)!r}, '12']\n"
             "try:\n"
             "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
             "except SystemExit:\n"
             "    pass\n"
             "print(sorted(m for m in ('argparse', 'statistics', 'milp_reference', 'gridlang') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    answer, loaded = out.stdout.splitlines()
    assert json.loads(answer) == {"score": 66, "proved": True}
    assert loaded == "[]"  # as lean as a person's script: Python, clingo and the map


def test_fresh_runs_time_both_sides_as_a_person_waits():
    row = peer.solve_fresh(HORSE_DATA / "daily-2026-01-07.txt", 12, 60, "auto", order=1)
    for side in ("peer", "gridlang"):
        assert (row[side]["score"], row[side]["proved"]) == (66, True)
        assert row[side]["seconds"] > 0 and row[side]["cpu"] > 0
    assert row["gridlang"]["phases"]["solve"] > 0


def test_the_peer_batch_solves_maps_on_a_pool_as_gridlang_batch_does(tmp_path, capsys):
    import json

    todo = [(HORSE_DATA / e["file"], e["budget"], known_optimum(e)) for e in manifest()
            if e["file"] in ("daily-2026-01-07.txt", "daily-2026-01-27.txt")]
    with open(tmp_path / "rows.jsonl", "w") as out:
        assert peer.batch(todo, 2, 60, out) == 0
    rows = sorted((r["name"], r["score"], r["proved"]) for r in map(json.loads, open(tmp_path / "rows.jsonl")))
    assert rows == sorted((path.name, optimum, True) for path, _, optimum in todo)
    assert "2 maps on 2 processes" in capsys.readouterr().out
