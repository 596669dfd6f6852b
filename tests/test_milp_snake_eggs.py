"""Snake Eggs on the MILP backend: the cut loop, uniqueness by no-good cuts.

Every published instance is known to have exactly one solution (the
independent check recorded in ``tests/data/snake_eggs``). Each answer is
re-checked by the puzzle's verifier inside the pipeline. The 10x10
instances are marked slow; on the 2-core test machine HiGHS proves only
derived_tuzz_gallery_02_two within the limit (see the module docstring of
the MILP backend), so the others are expected failures until it does, and
an unexpected pass is reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gridlang import pipeline
from gridlang.backend import SolveOptions, Status

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "puzzles" / "snake_eggs.grid"
INSTANCES = ROOT / "puzzles" / "instances" / "snake_eggs"

SMALL = ["igornadj_test_2x8", "igornadj_test_5x5", "pzprjs_test_5x5", "jandhyala_ch32_6x6", "math3205_stub_6x6"]
PROVED_10X10 = ["derived_tuzz_gallery_02_two"]  # about 7 s
LARGE = ["math3205_stub_10x10", "ctc_tuzz_10x10"] + sorted(
    p.stem for p in (INSTANCES / "derived").glob("*.txt") if p.stem not in PROVED_10X10)


def solve_unique(path: Path, time_limit: float | None = None):
    return pipeline.solve(SPEC, path, backend="milp",
                          options=SolveOptions(time_limit=time_limit), unique=True)


@pytest.mark.parametrize("name", SMALL)
def test_small_instances_are_unique(name):
    report = solve_unique(INSTANCES / f"{name}.txt")
    assert report.result.status is Status.OPTIMAL
    assert report.unique is True and report.complete is True
    assert len(report.solutions) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", PROVED_10X10)
def test_proved_large_instances_are_unique(name):
    report = solve_unique(INSTANCES / "derived" / f"{name}.txt", time_limit=120)
    assert report.result.status is Status.OPTIMAL
    assert report.unique is True and report.complete is True


@pytest.mark.slow
@pytest.mark.xfail(reason="HiGHS does not prove the 10x10 instances within 300 s on 2 cores", strict=False)
@pytest.mark.parametrize("name", LARGE)
def test_large_instances_are_unique(name):
    path = INSTANCES / f"{name}.txt"
    if not path.exists():
        path = INSTANCES / "derived" / f"{name}.txt"
    report = solve_unique(path, time_limit=300)
    assert report.result.status is Status.OPTIMAL
    assert report.unique is True and report.complete is True
