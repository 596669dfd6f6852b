"""Every enclose.horse map with a known optimum, solved by CP-SAT to exactly that optimum.

Each answer is re-checked by the rule verifier (BFS over the map) inside the
pipeline, and its score is the one compared. The default run takes a fixed
sample (every eighth map of each variant, plus the maps named in the issue);
``pytest -m slow`` runs the rest, and benchmarks/bench.py times them all.
"""

from __future__ import annotations

import pytest
from horse_data import HORSE_DATA, SPECS, cases, known_optimum

from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving.pipeline import solve

ALWAYS = {"daily-2026-01-07.txt", "daily-2026-01-12.txt", "daily-2026-01-18.txt", "daily-2026-01-21.txt"}


def params_for(variant: str, every: int = 8):
    out = []
    for k, e in enumerate(cases(variant)):
        slow = k % every != 0 and e["file"] not in ALWAYS
        marks = [pytest.mark.slow] if slow else []
        out.append(pytest.param(e, id=e["file"], marks=marks))
    return out


def check_map(entry: dict, variant: str) -> None:
    report = solve(SPECS[variant], HORSE_DATA / entry["file"], {"budget": str(entry["budget"])}, "cpsat",
                   SolveOptions(time_limit=600))
    assert report.result.status is Status.OPTIMAL
    assert report.verdict is not None and report.verdict.ok
    assert report.score == known_optimum(entry)
    assert report.result.objective == known_optimum(entry)
    assert len(report.verdict.details["walls"]) <= entry["budget"]


@pytest.mark.parametrize("entry", params_for("standard"))
def test_standard_map_reaches_known_optimum(entry):
    check_map(entry, "standard")


@pytest.mark.parametrize("entry", params_for("costlywalls"))
def test_costlywalls_map_reaches_known_optimum(entry):
    check_map(entry, "costlywalls")


@pytest.mark.parametrize("entry", params_for("lovebirds"))
def test_lovebirds_map_reaches_known_optimum(entry):
    check_map(entry, "lovebirds")


@pytest.mark.parametrize("entry", params_for("loversquarrel", every=4))
def test_loversquarrel_map_reaches_reference_optimum(entry):
    check_map(entry, "loversquarrel")


def test_every_standard_map_with_a_budget_has_a_case():
    # 171 published optima and 62 reference optima: 233 standard maps.
    assert len(cases("standard")) == 233
    assert len(cases("costlywalls")) == 39
    assert len(cases("lovebirds")) == 38
