"""MILP backend on tiny hand-built IR models: encodings checked by counting.

Each count is compared with a brute force over all cell subsets or all
assignments, computed here from the definitions, not from the IR or the
backend. Solutions are enumerated with no-good cuts (one blocking clause per
solution found) on the IR variables only, so flow and root-selection columns
never multiply the count.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest

pytest.importorskip("pyomo")
pytest.importorskip("highspy")

from gridlang.backend import SolveOptions, Status  # noqa: E402
from gridlang.errors import BackendError, MapError  # noqa: E402
from gridlang.exporters.milp import MilpBackend  # noqa: E402
from gridlang.grid import Grid  # noqa: E402
from gridlang.ir import (  # noqa: E402
    Assignment,
    Clause,
    Cmp,
    Connected,
    Linear,
    Model,
    Objective,
    Sense,
    Var,
    violations,
)

STRATEGIES = ("cuts", "flow")


def grid_of(rows: int, cols: int, links: tuple[tuple[int, int], ...] = ()) -> Grid:
    n = rows * cols
    return Grid(rows, cols, tuple("." * n), tuple(["grass"] * n), links)


def cell_model(grid: Grid, constraints, objective=None, extra: int = 0, name: str = "tiny") -> Model:
    """Variable ``i + 1`` is cell ``i``'s member; ``extra`` global variables follow."""
    variables = tuple(Var("x", i, None, grid.cell(i)) for i in range(grid.size))
    variables += tuple(Var("y", None, k) for k in range(extra))
    return Model(name, grid, variables, tuple(constraints), objective,
                 info={"spec": "tiny.grid", "map": "tiny.txt"})


def is_connected(grid: Grid, cells: set[int]) -> bool:
    if not cells:
        return True
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        u = stack.pop()
        for v in grid.neighbours[u]:
            if v in cells and v not in seen:
                seen.add(v)
                stack.append(v)
    return seen == cells


def brute_connected(grid: Grid, allowed: set[int], roots=(), size=None) -> int:
    """Subsets of ``allowed`` that are connected, hold every root and have ``size`` cells."""
    count = 0
    cells_list = sorted(allowed)
    for k in range(len(cells_list) + 1):
        if size is not None and k != size:
            continue
        for subset in itertools.combinations(cells_list, k):
            cells = set(subset)
            if all(r in cells for r in roots) and is_connected(grid, cells):
                count += 1
    return count


def enumerate_all(model: Model, strategy: str, limit: int = 1000) -> set[tuple[bool, ...]]:
    """Every solution of a model without objective, by no-good cuts."""
    backend = MilpBackend()
    found: set[tuple[bool, ...]] = set()
    current = model
    while len(found) <= limit:
        result = backend.solve(current, SolveOptions(connectivity=strategy))
        if result.status is Status.INFEASIBLE:
            return found
        assert result.status is Status.OPTIMAL
        values = result.assignment.values
        assert values not in found
        assert violations(model, result.assignment) == []
        found.add(values)
        current = current.with_constraints(
            (Clause(tuple(-(v + 1) if val else v + 1 for v, val in enumerate(values))),))
    raise AssertionError("more solutions than the limit")


# (rows, cols, links, roots, size, excluded cells); the brute-force count is
# noted for each. Cases with more than ~50 solutions are slow on 2 cores (a
# full solve, cut loop included, per solution) and marked so.
slow = pytest.mark.slow
CONNECTED_CASES = [
    (3, 3, (), (0, 8), None, ()),                          # 45
    (3, 3, (), (), 4, ()),                                 # 36: tetromino placements
    (3, 3, (), (0,), None, (4,)),                          # 29: arcs of the ring through 0
    (2, 4, (), (), 3, ()),                                 # 16
    (2, 4, ((0, 7),), (), None, (1, 5)),                   # 31: a portal closes a ring
    (2, 3, (), (), None, ()),                              # 41
    pytest.param(3, 3, (), (), None, (), marks=slow),      # 219 (OEIS A059525 + empty)
    pytest.param(3, 3, (), (4,), None, (), marks=slow),    # 161
    pytest.param(2, 4, (), (), None, (), marks=slow),      # 109
    pytest.param(2, 4, (), (5,), None, (), marks=slow),    # 68
    pytest.param(2, 4, ((0, 7),), (0,), None, (), marks=slow),  # 85
]


def test_brute_force_counts_are_the_published_ones():
    # Connected induced subgraphs of the 3x3 grid: 218 (OEIS A059525), plus the empty set.
    assert brute_connected(grid_of(3, 3), set(range(9))) == 219
    # 2x2: 4 singletons, 4 dominoes, 4 trominoes, the square, the empty set.
    assert brute_connected(grid_of(2, 2), set(range(4))) == 14


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("rows,cols,links,roots,size,excluded", CONNECTED_CASES)
def test_connected_solutions_match_brute_force(strategy, rows, cols, links, roots, size, excluded):
    grid = grid_of(rows, cols, links)
    allowed = set(range(grid.size)) - set(excluded)
    members = tuple((i, i + 1) for i in sorted(allowed))
    cons = [Connected(members, roots, size, "region")]
    cons += [Clause((-(i + 1),)) for i in excluded]
    if size is not None:
        cons.append(Linear(tuple((1, i + 1) for i in sorted(allowed)), Cmp.EQ, size))
    found = enumerate_all(cell_model(grid, cons), strategy)
    assert len(found) == brute_connected(grid, allowed, roots, size)
    for values in found:
        assert is_connected(grid, {i for i in range(grid.size) if values[i]})


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_connected_with_negative_member_literals(strategy):
    # The region is the set of cells whose variable is FALSE (a "not wall" region),
    # rooted at cell 0 of a 2x3 grid.
    grid = grid_of(2, 3)
    members = tuple((i, -(i + 1)) for i in range(grid.size))
    found = enumerate_all(cell_model(grid, [Connected(members, (0,), None, "open")]), strategy)
    assert len(found) == brute_connected(grid, set(range(6)), (0,))
    for values in found:
        assert is_connected(grid, {i for i in range(6) if not values[i]})
