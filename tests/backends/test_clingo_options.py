"""benchmarks/clingo_options.py times clingo's options on the horse programs; its variants replace the
backend's options by name, and a proof at another optimum than the manifest's stops it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from horse_data import REPO

sys.path.insert(0, str(REPO / "benchmarks"))  # as `python benchmarks/clingo_options.py` runs it
import clingo_options  # noqa: E402


def test_a_variant_replaces_the_option_of_its_name():
    base = ["--opt-mode=opt", "--parallel-mode=2,split", "--trans-ext=card", "--opt-heuristic=sign"]
    assert clingo_options.arguments(base, ["--opt-heuristic=no"]) == [
        "--opt-mode=opt", "--parallel-mode=2,split", "--trans-ext=card", "--opt-heuristic=no"]
    assert clingo_options.arguments(base, ["--heuristic=Vsids"]) == base + ["--heuristic=Vsids"]
    assert clingo_options.arguments(base, []) == base


def test_the_script_times_each_variant_on_each_map():
    # daily-2026-01-07 (optimum 66) and 01-27 (portals, bees; 38): both variants prove the manifest's optimum.
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "clingo_options.py"), "--maps",
                           "daily-2026-01-[02]7.txt", "--runs", "1", "--", "--opt-heuristic=no", ""],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr  # each proof checked against the manifest's optimum
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["--opt-heuristic=no", "as"]
    for line in lines:  # both maps proved by both variants, well within the 30 s limit
        assert " maps 2 " in line and " unproved 0 " in line
        assert float(re.search(r" max ([0-9.]+) s ", line).group(1)) < 30


@pytest.mark.parametrize("argv,words", [
    (["--maps", "no-such-map", "--", ""], "clingo_options: no map of the set 'dailies' matches 'no-such-map'"),
    (["--maps", "daily-2026-01-07.txt", "--", "--opt-heuristic=cost"],
     "clingo_options: clingo refuses --opt-mode=opt --parallel-mode=2,split --trans-ext=card "
     "--opt-heuristic=cost: 'cost' invalid value for: 'opt-heuristic'"),
])
def test_bad_input_ends_the_run_with_a_sentence(argv, words):
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "clingo_options.py"), *argv],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 1 and done.stderr.startswith(words) and "Traceback" not in done.stderr


def test_only_the_horse_sets_are_offered():
    # The other sets of gridlang bench (genres, snake-eggs, urls) have no optimum to check a proof against.
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "clingo_options.py"), "--set", "genres", "--",
                           ""], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and "invalid choice: 'genres'" in done.stderr and "Traceback" not in done.stderr


def test_a_proof_at_another_optimum_stops_the_run(monkeypatch):
    import gridlang.batch.bench as bench

    real = bench.cases

    def off_by_one(name, root, pattern=None):
        return [dict(case, expected=case["expected"] + 1) for case in real(name, root, pattern)]

    monkeypatch.setattr(bench, "cases", off_by_one)
    monkeypatch.setattr(sys, "argv", ["clingo_options.py", "--maps", "daily-2026-01-07.txt", "--runs", "1", "--", ""])
    with pytest.raises(SystemExit) as stopped:
        clingo_options.main()
    assert str(stopped.value) == "daily-2026-01-07.txt: as is proved 66, not 67"
