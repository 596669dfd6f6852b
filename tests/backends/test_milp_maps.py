"""MILP backend on real enclose.horse maps: published optima, files, golden LP.

Maps and optima come from ``tests/data/horse`` (``manifest.json``, field
``optimal_score``: the game's own published optimum). Every answer is
re-checked by the puzzle's independent verifier (rules, not IR), and the
verified score is the one compared.

Refresh the golden LP file with ``GRIDLANG_REFRESH_GOLDEN=1 pytest
tests/test_milp_maps.py -k golden`` after a deliberate change to the lowering.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import highspy  # noqa: E402
import pytest

from gridlang.compiler import compile_puzzle  # noqa: E402
from gridlang.exporters.milp.backend import MilpBackend  # noqa: E402
from gridlang.ir.backend import SolveOptions, Status  # noqa: E402
from gridlang.ir.model import Cmp, Linear, Model  # noqa: E402
from gridlang.solving.pipeline import verify  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "horse"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SPECS = {
    "standard": ROOT / "puzzles" / "horse.grid",
    "costlywalls": ROOT / "puzzles" / "horse_costlywalls.grid",
    "lovebirds": ROOT / "puzzles" / "horse_lovebirds.grid",
}

MANIFEST = {e["file"]: e for e in json.loads((DATA / "manifest.json").read_text())}
STRATEGIES = ("cuts", "flow")


def compile_map(name: str) -> Model:
    entry = MANIFEST[name]
    return compile_puzzle(SPECS[entry["variant"]], DATA / name, {"budget": str(entry["budget"])})


def solve_and_verify(name: str, strategy: str) -> int:
    model = compile_map(name)
    result = MilpBackend().solve(model, SolveOptions(connectivity=strategy))
    assert result.status is Status.OPTIMAL
    _, verdict = verify(model, result.assignment, result.objective)
    assert verdict is not None and verdict.score == result.objective == result.bound
    return verdict.score


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_daily_2026_01_07_scores_66(strategy):
    assert MANIFEST["daily-2026-01-07.txt"]["optimal_score"] == 66
    assert solve_and_verify("daily-2026-01-07.txt", strategy) == 66


# Quick maps that exercise the pieces: cut rounds (04-04: 2 rounds; 04-20: 10
# cuts; 06-14: 136 cuts), bees worth -4 (01-21, 03-01), portals (01-12, 06-14),
# the golden apple (06-11), a 9x9 map (03-01). Numbers: the game's optima.
FAST = {
    "daily-2025-12-30.txt": 68,
    "daily-2026-01-12.txt": 204,
    "daily-2026-01-21.txt": 50,
    "daily-2026-03-01.txt": 13,
    "daily-2026-04-04.txt": 15,
    "daily-2026-04-20.txt": 22,
    "daily-2026-06-11.txt": 75,
    "daily-2026-06-14.txt": 145,
}
# The slowest for this backend on 2 cores (several seconds each), and the
# reference model's slowest (01-05).
SLOW = {
    "daily-2025-12-31.txt": 90,
    "daily-2026-01-01.txt": 74,
    "daily-2026-01-05.txt": 95,
    "daily-2026-01-06.txt": 86,
    "daily-2026-01-10.txt": 94,
    "daily-2026-03-10.txt": 99,
    "daily-2026-04-28.txt": 60,
}


def test_the_numbers_are_the_published_optima():
    for name, score in {**FAST, **SLOW}.items():
        assert MANIFEST[name]["optimal_score"] == score, name


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", sorted(FAST))
def test_fast_maps_reach_their_optimum(name, strategy):
    assert solve_and_verify(name, strategy) == FAST[name]


@pytest.mark.slow
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", sorted(SLOW))
def test_slow_maps_reach_their_optimum(name, strategy):
    assert solve_and_verify(name, strategy) == SLOW[name]


def bonus(variant: str) -> list[str]:
    return sorted(f for f, e in MANIFEST.items()
                  if e["kind"] == "bonus" and e["variant"] == variant and e.get("optimal_score") is not None)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_variants_reach_their_optimum(strategy):
    # Costly walls (score minus 6 per wall) and lovebirds (the unicorn shares the pen).
    assert solve_and_verify("bonus-2026-04-07-costlywalls.txt", strategy) == 12
    assert solve_and_verify("bonus-2026-04-03-lovebirds.txt", strategy) == 86


@pytest.mark.slow
@pytest.mark.parametrize("name", bonus("costlywalls") + bonus("lovebirds"))
def test_every_published_variant_optimum(name):
    assert solve_and_verify(name, "cuts") == MANIFEST[name]["optimal_score"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(f for f, e in MANIFEST.items()
                                        if e["kind"] == "daily" and e.get("optimal_score") is not None))
def test_every_published_daily_optimum(name):
    assert solve_and_verify(name, "cuts") == MANIFEST[name]["optimal_score"]


# --- files --------------------------------------------------------------------


def test_mps_round_trip_through_highspy_alone(tmp_path):
    name = "daily-2026-01-07.txt"
    model = compile_map(name)
    path = str(tmp_path / "daily.mps")
    MilpBackend().write(model, path, "mps", SolveOptions())
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(path) == highspy.HighsStatus.kOk
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert round(h.getInfo().objective_function_value) == 66
    sol = str(tmp_path / "daily.sol")
    h.writeSolution(sol, 0)
    assignment = MilpBackend().read_solution(model, sol)
    assert model.objective.value(assignment) == 66
    _, verdict = verify(model, assignment, 66)
    assert verdict.score == 66


def normalise_lp(text: str) -> list[str]:
    """LP text compared modulo whitespace, number spelling and the map's directory."""
    out = []
    for line in text.splitlines():
        if line.startswith("\\ map: ") or line.startswith("\\ spec: "):
            key, _, value = line.partition(": ")
            line = f"{key}: {Path(value).name}"
        words = []
        for word in line.split():
            if re.fullmatch(r"[+-]?\d+(\.\d*)?([eE][+-]?\d+)?", word):
                word = repr(float(word))
            words.append(word)
        if words:
            out.append(" ".join(words))
    return out


def test_golden_lp(tmp_path):
    # 9x9, budget 8, optimum 13: small enough to read.
    model = compile_map("daily-2026-03-01.txt")
    path = tmp_path / "daily-2026-03-01.lp"
    MilpBackend().write(model, str(path), "lp", SolveOptions())
    golden = GOLDEN / "milp-daily-2026-03-01.lp"
    if os.environ.get("GRIDLANG_REFRESH_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(path.read_text())
    assert normalise_lp(path.read_text()) == normalise_lp(golden.read_text())


def test_learned_cuts_are_handed_on():
    """The cuts of the loop come back as IR rows: valid for the optimum, and they spare the rounds."""
    model = compile_map("daily-2026-04-04.txt")
    plain = SolveOptions(connectivity="cuts", extra={"milp.seed_cuts": 0})  # 2 rounds unseeded
    first = MilpBackend().solve(model, plain)
    assert first.status is Status.OPTIMAL and first.stats["cut_rounds"] >= 1
    learned = first.stats["learned_cuts"]
    assert len(learned) == first.stats["cuts"] > 0
    assert all(isinstance(cut, Linear) and cut.op is Cmp.LE for cut in learned)
    assert all(sum(a for a, lit in cut.terms if first.assignment.holds(lit)) <= cut.rhs for cut in learned)
    again = MilpBackend().solve(model.with_constraints(learned), plain)
    assert again.objective == first.objective == 15
    assert again.stats["cut_rounds"] < first.stats["cut_rounds"]
