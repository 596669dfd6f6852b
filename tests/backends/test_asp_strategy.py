"""The asp backend's default connectivity by the region's size and roots (``exporters/asp/backend.py``).

A large region goes to the cut loop unless the reach rules suit it: a rooted region of known size
stays with reach however large, a region without a root up to ``REACH_MAX_UNROOTED`` members, a
rooted region of unknown size up to ``REACH_MAX_MEMBERS``. The rule is read on ``Connected`` nodes
over the first n cells, and once on a solved model, whose statistics name the strategy used.
clingo's failed-literal detection is asked for in a model without an objective whose regions all
have a root, one of them a known size.
"""

from __future__ import annotations

import pytest
from gridlang.exporters.asp.backend import AspBackend, beyond_reach
from tiny import cell_model, grid_of

from gridlang.ir.backend import SolveOptions, Status
from gridlang.ir.model import Clause, Connected, Objective, Sense


def _region(n: int, roots: tuple[int, ...] = (), size: int | None = None) -> Connected:
    return Connected(tuple((i, i + 1) for i in range(n)), roots, size)


@pytest.mark.parametrize(
    "n,roots,size,expected",
    [
        (2500, (), None, False),  # no root: reach up to 2,500 members
        (2501, (), None, True),
        (1000, (0,), None, False),  # a root, size unknown: reach up to 1,000
        (1001, (0,), None, True),
        (5000, (0,), 5, False),  # a root and a known size: reach however large
    ],
)
def test_beyond_reach(n, roots, size, expected):
    assert beyond_reach(_region(n, roots, size)) is expected


def test_a_large_region_without_a_root_is_solved_by_the_reach_rules():
    grid = grid_of(30, 40)  # 1,200 cells: more than a rooted region may have
    some = Clause(tuple(i + 1 for i in range(grid.size)))
    model = cell_model(grid, [some, _region(grid.size)])
    result = AspBackend().solve(model, SolveOptions(time_limit=60))
    assert result.status is Status.OPTIMAL
    assert result.stats["connectivity"] == "reach"


@pytest.mark.parametrize(
    "roots,size,objective,setting,expected",
    [
        ((0,), 5, False, "auto", ["--lookahead=atom"]),  # an island: probed
        ((0,), None, False, "auto", []),  # no known size
        ((), 5, False, "auto", []),  # no root
        ((0,), 5, True, "auto", []),  # an objective: left out
        ((0,), 5, False, "no", []),
        ((), None, False, "body", ["--lookahead=body"]),
    ],
)
def test_failed_literals_for_rooted_regions_of_known_size(
    roots, size, objective, setting, expected
):
    grid = grid_of(2, 3)
    goal = Objective(Sense.MAXIMIZE, ((1, 1),)) if objective else None
    model = cell_model(grid, [_region(grid.size, roots, size)], goal)
    args = AspBackend().arguments(SolveOptions(extra={"asp.lookahead": setting}), model)
    assert [a for a in args if a.startswith("--lookahead")] == expected


def test_no_failed_literals_beside_a_region_without_a_root():
    grid = grid_of(2, 3)
    island = Connected(((0, 1), (1, 2)), (0,), 2)
    free = Connected(((3, 4), (4, 5), (5, 6)), (), 2)
    assert "--lookahead=atom" in AspBackend().arguments(
        SolveOptions(), cell_model(grid, [island])
    )
    assert not any(
        a.startswith("--lookahead")
        for a in AspBackend().arguments(
            SolveOptions(), cell_model(grid, [island, free])
        )
    )


def test_a_raw_lookahead_option_wins():
    grid = grid_of(2, 3)
    model = cell_model(grid, [_region(grid.size, (0,), 5)])
    args = AspBackend().arguments(
        SolveOptions(extra={"asp.options.lookahead": "hybrid"}), model
    )
    assert [a for a in args if a.startswith("--lookahead")] == ["--lookahead=hybrid"]
