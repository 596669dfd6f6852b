"""Snake Eggs on the MILP backend: the cut loop, uniqueness by no-good cuts.

Each answer must be the instance's known unique solution
(tests/data/snake_eggs_expected.json), proved unique. On the 2-core test
machine HiGHS proves the instances up to 6x6 and derived_tuzz_gallery_02_two
(about 7 s, marked slow); the other 10x10 instances are not solved within
60 s per solve (see the module docstring of the MILP backend) and have no
test here until they are.
"""

from __future__ import annotations

import pytest

from gridlang import pipeline
from gridlang.backend import SolveOptions, Status

from snake_data import EXPECTED, INSTANCES, SPEC, solution_rows

SMALL = ["igornadj_test_2x8", "igornadj_test_5x5", "pzprjs_test_5x5", "jandhyala_ch32_6x6", "math3205_stub_6x6"]
PROVED_10X10 = ["derived/derived_tuzz_gallery_02_two"]


def check_unique(name: str, time_limit: float | None = None) -> None:
    report = pipeline.solve(SPEC, INSTANCES / f"{name}.txt", backend="milp",
                            options=SolveOptions(time_limit=time_limit), unique=True)
    assert report.result.status is Status.OPTIMAL
    assert report.unique is True and report.complete is True and len(report.solutions) == 1
    assert solution_rows(report) == EXPECTED[name]["solution"]


@pytest.mark.parametrize("name", SMALL)
def test_small_instances_are_unique(name):
    check_unique(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROVED_10X10)
def test_proved_large_instances_are_unique(name):
    check_unique(name, time_limit=120)
