"""Snake Eggs on the MaxSAT backend: plain SAT with the cut loop, uniqueness by blocking clauses.

Every instance is known to have exactly one solution (the published or
independently computed one in ``tests/data/snake_eggs_expected.json``); the
answer must be that solution, proved unique.
"""

from __future__ import annotations

import pytest
from snake_data import EXPECTED, INSTANCES, SPEC, solution_rows

from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving import pipeline

SMALL = ["igornadj_test_2x8", "igornadj_test_5x5", "pzprjs_test_5x5", "jandhyala_ch32_6x6", "math3205_stub_6x6"]
# The two published 10x10 instances run by default; the derived gallery ones
# (1.8 to 9.5 s each on a busy machine) under -m slow, as the benchmark runs them.
LARGE = ["math3205_stub_10x10", "ctc_tuzz_10x10"] + [
    pytest.param(f"derived/{p.stem}", marks=pytest.mark.slow) for p in sorted((INSTANCES / "derived").glob("*.txt"))]


def solve_unique(name: str, strategy: str = "cuts"):
    report = pipeline.solve(SPEC, INSTANCES / f"{name}.txt", backend="maxsat",
                            options=SolveOptions(connectivity=strategy), unique=True)
    assert solution_rows(report) == EXPECTED[name]["solution"]
    return report


@pytest.mark.parametrize("name", SMALL)
def test_small_instances_are_unique(name):
    report = solve_unique(name)
    assert report.result.status is Status.OPTIMAL
    assert report.unique is True
    assert len(report.solutions) == 1


@pytest.mark.parametrize("name", ["igornadj_test_5x5", "jandhyala_ch32_6x6"])
def test_tree_strategy_agrees_on_uniqueness(name):
    report = solve_unique(name, "tree")
    assert report.unique is True and len(report.solutions) == 1


@pytest.mark.parametrize("name", LARGE)
def test_large_instances_are_unique(name):
    report = solve_unique(name)
    assert report.unique is True and len(report.solutions) == 1
