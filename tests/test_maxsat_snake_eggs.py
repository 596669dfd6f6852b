"""Snake Eggs on the MaxSAT backend: plain SAT with the cut loop, uniqueness by blocking clauses.

Every published instance is known to have exactly one solution (the
independent check recorded in ``tests/data/snake_eggs``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gridlang import pipeline  # noqa: E402

from gridlang.backend import SolveOptions, Status  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "puzzles" / "snake_eggs.grid"
INSTANCES = ROOT / "puzzles" / "instances" / "snake_eggs"

SMALL = ["igornadj_test_2x8", "igornadj_test_5x5", "pzprjs_test_5x5", "jandhyala_ch32_6x6", "math3205_stub_6x6"]
LARGE = ["math3205_stub_10x10", "ctc_tuzz_10x10"]


def solve_unique(name: str, strategy: str = "cuts"):
    path = INSTANCES / f"{name}.txt"
    if not SPEC.exists() or not path.exists():
        pytest.skip("Snake Eggs spec or instance not available")
    return pipeline.solve(SPEC, path, backend="maxsat",
                          options=SolveOptions(connectivity=strategy), unique=True)


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


@pytest.mark.slow
@pytest.mark.parametrize("name", LARGE)
def test_large_instances_are_unique(name):
    report = solve_unique(name)
    assert report.unique is True and len(report.solutions) == 1
