"""The maxsat backend's SAT solver settings, end to end: a solver it cannot
use is refused in one line before any solver is made, and a usable one solves."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from horse_data import REPO

from gridlang.core.errors import BackendError
from gridlang.exporters.maxsat.settings import MaxSatSettings

HORSE = REPO / "puzzles" / "horse.grid"
DAILY_07 = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
"""Budget 12, optimum 66."""


def solve(*settings: str, json_out: bool = False) -> subprocess.CompletedProcess:
    """``gridlang solve`` of daily-2026-01-07 on the maxsat backend with ``--set`` of each of ``settings``."""
    argv = [sys.executable, "-m", "gridlang", "solve", str(HORSE), "--map", str(DAILY_07), "--budget", "12",
            "-b", "maxsat"]
    for s in settings:
        argv += ["--set", s]
    if json_out:
        argv.append("--json")
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=REPO)


def assert_refused(proc: subprocess.CompletedProcess, words: str) -> None:
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines == [lines[0]] and lines[0].startswith("error: ") and words in lines[0], proc.stderr
    for bad in ("Traceback", "this is a bug", "Exception ignored", "Warning"):
        assert bad not in proc.stderr, proc.stderr


def cms_missing() -> bool:
    import pysat.solvers

    return not pysat.solvers.cms_present


@pytest.mark.skipif(not cms_missing(), reason="pycryptosat is installed")
@pytest.mark.parametrize("settings", [
    ("maxsat.lsu.solver=cms",),
    ("maxsat.lsu.start=cms",),
    ("maxsat.algorithm=rc2", "maxsat.rc2.solver=cms"),
    ("maxsat.algorithm=rc2", "maxsat.rc2.fork=false", "maxsat.rc2.solver=cryptominisat"),
    ("maxsat.sat.solver=cms",),
])
def test_a_solver_whose_package_is_missing_is_refused_in_one_line(settings):
    key = settings[-1].split("=")[0].removeprefix("maxsat.")
    assert_refused(solve(*settings), f"setting '{key}': SAT solver '{settings[-1].split('=')[1]}' needs the "
                                     "Python package 'pycryptosat'")


@pytest.mark.parametrize("settings,words", [
    (("maxsat.algorithm=rc2", "maxsat.rc2.solver=kissat"),
     "setting 'rc2.solver': RC2 solves under assumptions, which PySAT's 'kissat' ignores"),
    (("maxsat.algorithm=rc2", "maxsat.rc2.fork=false", "maxsat.rc2.solver=ks"),
     "setting 'rc2.solver': RC2 solves under assumptions, which PySAT's 'ks' ignores"),
    (("maxsat.lsu.start=none", "maxsat.lsu.solver=kissat"),
     "setting 'lsu.solver': the linear search (lsu) solves under assumptions, which PySAT's 'kissat' ignores"),
    (("maxsat.lsu.start=kissat",),
     "setting 'lsu.start': the linear search (lsu) solves under assumptions, which PySAT's 'kissat' ignores"),
    (("maxsat.sat.solver=kissat",),
     "setting 'sat.solver': the cut loop adds clauses between calls, which PySAT's 'kissat' cannot take"),
    (("maxsat.lsu.solver=lgl",), "setting 'lsu.solver': this backend calls PySAT's solve_limited, which 'lgl' lacks"),
    (("maxsat.algorithm=rc2", "maxsat.rc2.solver=lingeling"),
     "setting 'rc2.solver': this backend calls PySAT's solve_limited, which 'lingeling' lacks"),
])
def test_a_solver_without_what_the_algorithm_calls_is_refused_in_one_line(settings, words):
    assert_refused(solve(*settings), words)


@pytest.mark.parametrize("settings", [
    (),
    ("maxsat.lsu.solver=g4",),
    ("maxsat.lsu.start=none", "maxsat.lsu.solver=glucose4"),
    ("maxsat.lsu.start=none", "maxsat.lsu.solver=cd15"),
])
def test_a_usable_lsu_solver_finds_the_optimum(settings):
    proc = solve(*settings, json_out=True)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["status"], data["objective"], data["verified_score"]) == ("OPTIMAL", 66, 66)
    assert "Traceback" not in proc.stderr and "Warning" not in proc.stderr


@pytest.mark.parametrize("family", ["cadical103", "cadical153", "cadical195", "cadical300", "glucose4", "minisatgh"])
def test_solvers_with_assumptions_pass_the_check(family):
    from pysat.solvers import SolverNames

    name = getattr(SolverNames, family)[0]
    s = MaxSatSettings.read("maxsat", {"maxsat.lsu.solver": name, "maxsat.rc2.solver": name, "maxsat.sat.solver": name})
    assert (s.lsu.solver, s.rc2.solver, s.sat.solver) == (name, name, name)


def test_the_refusal_comes_from_the_settings_before_any_solver():
    with pytest.raises(BackendError) as e:
        MaxSatSettings.read("maxsat", {"algorithm": "rc2", "rc2.solver": "kissat404"})
    assert "RC2 solves under assumptions" in e.value.message and "\n" not in e.value.message
