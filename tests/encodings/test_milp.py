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

import pytest
from tiny import cell_model, connected_subsets, grid_of, is_connected, rooted_ok  # noqa: E402

from gridlang.core.errors import BackendError, MapError  # noqa: E402
from gridlang.core.grid import Grid  # noqa: E402
from gridlang.exporters.milp.backend import MilpBackend  # noqa: E402
from gridlang.ir.backend import SolveOptions, Status  # noqa: E402
from gridlang.ir.checks import violations  # noqa: E402
from gridlang.ir.model import Clause, Cmp, Connected, Linear, Model, Objective, Sense  # noqa: E402

STRATEGIES = ("auto", "cuts", "flow")


def brute_connected(grid: Grid, allowed: set[int], roots=(), size=None) -> int:
    """Subsets of ``allowed`` that meet :func:`tiny.rooted_ok` and have ``size`` cells."""
    return connected_subsets(grid, roots, size, allowed)


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
    pytest.param(3, 3, (), (0, 8), None, (), marks=slow),  # 97: one piece or one per root
    (3, 3, (), (), 4, ()),                                 # 36: tetromino placements
    (3, 3, (), (4,), 4, (1,)),                             # tetrominoes through the centre, not (0,1)
    (2, 4, ((0, 7),), (), 4, (5,)),                        # sized, through a portal
    (3, 3, (), (0, 8), 5, ()),                             # 24: sized, one piece or one per root
    (2, 4, ((0, 7),), (0,), 4, ()),                        # 19: rooted, sized, walks of both parities
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
        assert rooted_ok(grid, {i for i in range(grid.size) if values[i]}, roots)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("rows,cols,links,forced,size", [
    (3, 3, (), 4, 4),           # 28 tetrominoes through the centre
    (2, 4, ((0, 7),), 0, 3),    # 8 trominoes through a corner, across a portal
])
def test_sized_region_with_a_forced_member(strategy, rows, cols, links, forced, size):
    # A rootless region of known size with one member forced by a unit clause,
    # lowered as built (the compiler would make that member the root; the
    # rooted cases above cover depth layers from an anchor). Same answers as
    # a root there.
    grid = grid_of(rows, cols, links)
    members = tuple((i, i + 1) for i in range(grid.size))
    cons = [Connected(members, (), size, "region"), Clause((forced + 1,)),
            Linear(tuple((1, i + 1) for i in range(grid.size)), Cmp.EQ, size)]
    found = enumerate_all(cell_model(grid, cons), strategy)
    assert len(found) == brute_connected(grid, set(range(grid.size)), (forced,), size)


def test_auto_gives_sized_regions_depth_layers_or_flow_when_too_many(monkeypatch):
    from gridlang.exporters.milp.linear import connected

    grid = grid_of(3, 3)
    members = tuple((i, i + 1) for i in range(grid.size))
    model = cell_model(grid, [Connected(members, (), 4, "region"),
                              Linear(tuple((1, i + 1) for i in range(9)), Cmp.EQ, 4)])
    depths = MilpBackend().solve(model, SolveOptions())
    assert depths.stats["encodings"] == {"region": "depths"}
    # 9 pick columns and depths 1..3 for each cell.
    assert depths.stats["variables"] == 9 + 9 + 9 * 3
    monkeypatch.setattr(connected, "DEPTH_COLUMNS", 26)
    flow = MilpBackend().solve(model, SolveOptions())
    assert flow.stats["encodings"] == {"region": "flow"}
    for result in (depths, flow):
        cells = {i for i in range(9) if result.assignment.values[i]}
        assert len(cells) == 4 and is_connected(grid, cells)


@pytest.mark.parametrize("strategy, size, expected", [("auto", 4, 36), ("cuts", None, 41)])
def test_session_enumerates_in_the_kept_model(strategy, size, expected):
    # Every solve after the first adds its blocking clause to the model HiGHS
    # keeps; the count is the brute force's (36 tetrominoes of the 3x3 grid
    # with depth layers; 41 connected sets of the 2x3 grid with the cut loop,
    # whose cuts stay in the model).
    grid = grid_of(3, 3) if size else grid_of(2, 3)
    n = grid.size
    cons = [Connected(tuple((i, i + 1) for i in range(n)), (), size, "region")]
    if size:
        cons.append(Linear(tuple((1, i + 1) for i in range(n)), Cmp.EQ, size))
    session = MilpBackend().session(cell_model(grid, cons), SolveOptions(connectivity=strategy))
    found = set()
    while True:
        result = session.solve()
        assert result.stats["incremental"] is bool(found)
        if result.status is Status.INFEASIBLE:
            break
        assert result.status is Status.OPTIMAL
        values = result.assignment.values[:n]
        assert values not in found and is_connected(grid, {i for i in range(n) if values[i]})
        found.add(values)
        session.add([Clause(tuple(-(v + 1) if val else v + 1 for v, val in enumerate(values)))])
    assert len(found) == expected == brute_connected(grid, set(range(n)), (), size)


def test_session_rebuilds_after_a_connected_or_an_empty_clause():
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    # At least four cells (the region may be empty otherwise).
    model = cell_model(grid, [Linear(tuple((1, i + 1) for i in range(6)), Cmp.GE, 4)])
    session = MilpBackend().session(model, SolveOptions())
    assert session.solve().status is Status.OPTIMAL
    # Cells 0 and 5 (opposite corners) both in, and one piece with them.
    session.add([Clause((1,)), Clause((6,)), Connected(members, (0,), None, "region")])
    result = session.solve()
    assert result.stats["incremental"] is False and result.status is Status.OPTIMAL
    cells = {i for i in range(6) if result.assignment.values[i]}
    assert {0, 5} <= cells and is_connected(grid, cells)
    session.add([Clause(())])
    assert session.solve().status is Status.INFEASIBLE
    again = session.solve()
    assert again.status is Status.INFEASIBLE and again.stats["incremental"] is False


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


# --- Linear with enforce literals (big-M) -----------------------------------


def brute_linear(nvars: int, cons: list[Linear]) -> int:
    """Assignments of ``nvars`` Booleans meeting every constraint, by definition."""
    def holds(values, lit):
        return values[abs(lit) - 1] == (lit > 0)

    count = 0
    for values in itertools.product((False, True), repeat=nvars):
        ok = True
        for con in cons:
            if not all(holds(values, e) for e in con.enforce):
                continue
            lhs = sum(c for c, lit in con.terms if holds(values, lit))
            ok = ok and con.op.holds(lhs, con.rhs)
        count += ok
    return count


LINEAR_CASES = {
    # x1 + x2 + x3 <= 1 when x4
    "le": [Linear(((1, 1), (1, 2), (1, 3)), Cmp.LE, 1, (4,))],
    # 2 x1 - 3 ~x2 + x3 >= 1 when ~x4 and x5
    "ge_negative": [Linear(((2, 1), (-3, -2), (1, 3)), Cmp.GE, 1, (-4, 5))],
    # x1 + x2 + ~x3 == 2 when x4; x4 also appears in the terms of a second one
    "eq": [Linear(((1, 1), (1, 2), (1, -3)), Cmp.EQ, 2, (4,)),
           Linear(((1, 4), (1, 5)), Cmp.LE, 1, (-1,))],
    # never violated when enforced (M <= 0): the row is dropped, all 32 count
    "redundant": [Linear(((1, 1), (1, 2)), Cmp.LE, 5, (3,))],
    # infeasible when enforced: forces its enforce literal false
    "forces_off": [Linear(((1, 1), (1, 2)), Cmp.GE, 3, (3, -4))],
    # enforce literals that contradict each other: never on
    "never_on": [Linear(((1, 1),), Cmp.GE, 2, (2, -2))],
    # a reified degree, as Numberlink states it: x1 -> x2 + x3 + x4 == 0, ~x1 -> x2 + x3 + x4 == 2
    "paired": [Linear(((1, 2), (1, 3), (1, 4)), Cmp.EQ, 0, (1,)),
               Linear(((1, 2), (1, 3), (1, 4)), Cmp.EQ, 2, (-1,))],
    # halves on a negative literal, with weights and a negative term: ~x5 -> L <= 1, x5 -> L >= 2
    "paired_negative": [Linear(((2, 1), (-1, -2), (1, 3)), Cmp.LE, 1, (-5,)),
                        Linear(((2, 1), (-1, -2), (1, 3)), Cmp.GE, 2, (5,))],
    # two enforcement literals, a side that holds only at L's bound: x4 and ~x5 -> x1 - x2 + 2 ~x3 >= 3
    "at_bound": [Linear(((1, 1), (-1, 2), (2, -3)), Cmp.GE, 3, (4, -5))],
}


@pytest.mark.parametrize("name", sorted(LINEAR_CASES))
def test_linear_with_enforce_matches_brute_force(name):
    cons = LINEAR_CASES[name]
    grid = grid_of(1, 5)
    found = enumerate_all(cell_model(grid, cons), "cuts")
    assert len(found) == brute_linear(5, cons) == EXPECTED_LINEAR_COUNTS[name]


def test_guarded_rows_are_exact_and_a_pair_is_tighter_than_big_m():
    """Every 0/1 point meets the rows exactly when it meets the IR; a pair is one row that cuts what big-M keeps."""
    from gridlang.exporters.milp.linear import lower_rows

    for name, cons in LINEAR_CASES.items():
        low = lower_rows(cell_model(grid_of(1, 5), cons), "cuts")
        for values in itertools.product((0, 1), repeat=5):
            rows_hold = all(_row_holds(row, values) for row in low.rows) and not low.infeasible
            ir = violations(cell_model(grid_of(1, 5), cons), _assignment(values)) == []
            assert rows_hold == ir, (name, values)
    low = lower_rows(cell_model(grid_of(1, 5), LINEAR_CASES["paired"]), "cuts")
    # x1 = 1/4: the two big-M rows allow L = x2 + x3 + x4 anywhere in [2 - 2 x1, min(3 (1 - x1), 2 + x1)]
    # = [3/2, 9/4]; the pair says L = 2 - 2 x1 = 3/2 exactly.
    assert not all(_row_holds(row, (0.25, 0.75, 0.75, 0.5, 0)) for row in low.rows)
    assert all(_row_holds(row, (0.25, 0.5, 0.5, 0.5, 0)) for row in low.rows)
    assert [(row.coefs, row.lo, row.hi) for row in low.rows] == [({0: 2, 1: 1, 2: 1, 3: 1}, 2, 2)]


def _row_holds(row, values) -> bool:
    lhs = sum(a * values[j] for j, a in row.coefs.items())
    return (row.lo is None or lhs >= row.lo - 1e-9) and (row.hi is None or lhs <= row.hi + 1e-9)


def _assignment(values):
    from gridlang.ir.model import Assignment

    return Assignment(tuple(bool(v) for v in values))


# Counted by hand, over the 32 assignments of x1..x5.
EXPECTED_LINEAR_COUNTS = {
    "le": 16 + 4 * 2,        # x4 off: 16; x4 on: 4 (x1,x2,x3) patterns with sum <= 1, x5 free
    "ge_negative": 32 - 5,   # on for the 8 with ~x4, x5; 2*x1 - 3*(1-x2) + x3 >= 1 fails for 5 of them
    "eq": 16 + 2 * 2 + 1,    # x4 off: 16; on: (1,1,1), (1,0,0) with x5 free, (0,1,0) with x5 = 0
    "redundant": 32,
    "forces_off": 32 - 8,    # x3 and not x4 is impossible
    "never_on": 32,
    "paired": 2 * (1 + 3),   # x5 free; x1 on: (0,0,0); x1 off: 3 patterns with two of x2..x4
    "paired_negative": 2 * (5 + 3),  # x4 free; x5 off: 5 of the 8 (x1, x2, x3) give L <= 1; on: 3 give L >= 2
    "at_bound": 32 - 8 + 1,  # on for the 8 with x4, ~x5: only x1, ~x2, ~x3 meets it
}


# --- objective ----------------------------------------------------------------

WEIGHTS = (3, -2, 5, -4, 1, 2)  # per cell of a 2x3 grid


def brute_best(grid: Grid, weights, roots, constant: int, sense: Sense) -> int:
    values = []
    for k in range(grid.size + 1):
        for subset in itertools.combinations(range(grid.size), k):
            cells = set(subset)
            if rooted_ok(grid, cells, roots):
                values.append(constant + sum(weights[i] for i in cells))
    return max(values) if sense is Sense.MAXIMIZE else min(values)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("sense,roots,constant", [
    (Sense.MAXIMIZE, (0,), -7),
    (Sense.MAXIMIZE, (), 11),
    (Sense.MINIMIZE, (4,), 5),
])
def test_objective_keeps_its_constant(strategy, sense, roots, constant):
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    objective = Objective(sense, tuple((w, i + 1) for i, w in enumerate(WEIGHTS)), constant)
    model = cell_model(grid, [Connected(members, roots, None, "r")], objective)
    result = MilpBackend().solve(model, SolveOptions(connectivity=strategy))
    want = brute_best(grid, WEIGHTS, roots, constant, sense)
    # max with root 0: {0,1,2,4,5} = 3-2+5+1+2 = 9, -7 -> 2; max rootless: 9 + 11 = 20;
    # min with root 4: {1,3,4} = -2-4+1 = -5, +5 -> 0.
    assert want == {(-7): 2, 11: 20, 5: 0}[constant]
    assert result.status is Status.OPTIMAL
    assert result.objective == want
    assert result.bound == want
    assert objective.value(result.assignment) == want


def test_objective_over_negative_literals():
    # minimize 3*~x1 + 2*x2 - 4*~x3 + 6 subject to x1 | x2 and x2 | ~x3:
    # x1=1, x2=0 forces x3=0: 0 + 0 - 4 + 6 = 2; x1=0 needs x2=1 (cost 3 + 2) -> worse.
    grid = grid_of(1, 3)
    objective = Objective(Sense.MINIMIZE, ((3, -1), (2, 2), (-4, -3)), 6)
    model = cell_model(grid, [Clause((1, 2)), Clause((2, -3))], objective)
    result = MilpBackend().solve(model, SolveOptions())
    assert (result.status, result.objective, result.assignment.values) == (Status.OPTIMAL, 2, (True, False, False))


# --- statuses and options -----------------------------------------------------


def test_empty_clause_is_infeasible():
    model = cell_model(grid_of(1, 2), [Clause(())])
    result = MilpBackend().solve(model, SolveOptions())
    assert result.status is Status.INFEASIBLE and result.assignment is None


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_solver_proves_infeasibility(strategy):
    # Root at one corner of a 2x3 grid, the opposite corner forced in, at most 3 cells.
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    cons = [Connected(members, (0,), None, "r"), Clause((6,)),
            Linear(tuple((1, i + 1) for i in range(6)), Cmp.LE, 3)]
    result = MilpBackend().solve(cell_model(grid, cons), SolveOptions(connectivity=strategy))
    # 0 and 5 are 3 steps apart: a region reaching 5 from 0 has at least 4 cells.
    assert result.status is Status.INFEASIBLE


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_roots_in_separate_candidate_components_are_one_piece_each(strategy):
    # The flood fill from two cells that cannot meet: each root is its own piece.
    grid = grid_of(1, 3)
    cons = [Connected(((0, 1), (2, 3)), (0, 2), None, "r")]
    result = MilpBackend().solve(cell_model(grid, cons), SolveOptions(connectivity=strategy))
    assert result.status is Status.OPTIMAL
    assert (result.assignment.values[0], result.assignment.values[2]) == (True, True)


def test_no_time_left_is_unknown():
    grid = grid_of(2, 2)
    model = cell_model(grid, [Connected(tuple((i, i + 1) for i in range(4)), (0,), None, "r")])
    result = MilpBackend().solve(model, SolveOptions(time_limit=0.0))
    assert (result.status, result.assignment, result.objective) == (Status.UNKNOWN, None, None)


def test_threads_and_gap_options_are_honoured():
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    objective = Objective(Sense.MAXIMIZE, tuple((w, i + 1) for i, w in enumerate(WEIGHTS)), 0)
    model = cell_model(grid, [Connected(members, (0,), None, "r")], objective)
    for workers in (1, 2, None, 1):
        result = MilpBackend().solve(model, SolveOptions(workers=workers, mip_gap=0.0))
        assert (result.status, result.objective) == (Status.OPTIMAL, 9)
        # HiGHS's own option values, read back after the solve (0: HiGHS picks).
        assert (result.stats["threads"], result.stats["mip_rel_gap"]) == (workers or 0, 0.0)
    result = MilpBackend().solve(model, SolveOptions(workers=1, mip_gap=0.25))
    assert result.stats["mip_rel_gap"] == 0.25 and result.objective is not None
    assert result.objective >= 0.75 * 9


def test_stats_report_sizes_and_times():
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    model = cell_model(grid, [Connected(members, (0,), None, "r")])
    flow = MilpBackend().solve(model, SolveOptions(connectivity="flow"))
    # 7 edges -> 14 arcs, minus the 2 into the root; 5 balance rows, 12 capacity rows.
    assert flow.stats["variables"] == 6 + 12
    assert flow.stats["constraints"] == 1 + 5 + 12
    assert 0 < flow.build_seconds == flow.stats["build_seconds"] <= flow.seconds
    cuts = MilpBackend().solve(model, SolveOptions(connectivity="cuts"))
    # No flow columns or rows: the root row and whatever cuts the loop added.
    assert cuts.stats["variables"] == 6
    assert cuts.stats["constraints"] == 1 + cuts.stats["cuts"]
    assert cuts.stats["connectivity"] == "cuts"


def test_unknown_strategy_and_format_are_refused(tmp_path):
    model = cell_model(grid_of(1, 2), [Clause((1,))])
    with pytest.raises(BackendError, match="connectivity strategy 'tree'"):
        MilpBackend().solve(model, SolveOptions(connectivity="tree"))
    with pytest.raises(BackendError, match="not 'wcnf'"):
        MilpBackend().write(model, str(tmp_path / "m.wcnf"), "wcnf", SolveOptions())


# --- files --------------------------------------------------------------------


def small_model() -> Model:
    """Weighted 2x3 region rooted at cell 0; cells 1 and 2 not both (when ~y, and y is false).

    Optimum: {0,3,4,5,2} = 3-4+1+2+5 = 7 (reaching cell 2 around the bottom),
    minus 3: 4.
    """
    grid = grid_of(2, 3)
    members = tuple((i, i + 1) for i in range(6))
    objective = Objective(Sense.MAXIMIZE, tuple((w, i + 1) for i, w in enumerate(WEIGHTS)), -3)
    cons = [Connected(members, (0,), None, "pen"), Linear(((1, 2), (1, 3)), Cmp.LE, 1, (-7,)),
            Clause((-7,))]
    return cell_model(grid, cons, objective, extra=1)


def highs_solve(path: str):
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(path) == highspy.HighsStatus.kOk
    h.run()
    return h


@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_written_file_solves_to_the_same_optimum(tmp_path, fmt):
    model = small_model()
    solved = MilpBackend().solve(model, SolveOptions())
    path = str(tmp_path / f"m.{fmt}")
    paths = MilpBackend().write(model, path, fmt, SolveOptions(connectivity="flow"))
    assert paths == [path, path + ".vars.json"]
    h = highs_solve(path)
    # The constant -3 travels in the file (Pyomo's ONE_VAR_CONSTANT column).
    assert round(h.getInfo().objective_function_value) == solved.objective == 4
    sol = str(tmp_path / "m.sol")
    h.writeSolution(sol, 0)
    assignment = MilpBackend().read_solution(model, sol)
    assert model.objective.value(assignment) == 4
    assert violations(model, assignment) == []


@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_written_pair_of_halves_solves_to_the_same_optimum(tmp_path, fmt):
    """A reified count written as its one paired row: a valid file, the backend's optimum."""
    objective = Objective(Sense.MAXIMIZE, ((1, 1), (2, 2), (1, 3), (1, 4)), 0)
    model = cell_model(grid_of(1, 5), LINEAR_CASES["paired"], objective)
    assert MilpBackend().solve(model, SolveOptions()).objective == 3  # x1 off, x2 and one of x3, x4
    path = str(tmp_path / f"m.{fmt}")
    MilpBackend().write(model, path, fmt, SolveOptions())
    with open(path, encoding="utf-8") as fh:
        assert "linear_1_with_linear_2" in fh.read()
    assert round(highs_solve(path).getInfo().objective_function_value) == 3


def test_written_files_are_reproducible_and_labelled(tmp_path):
    model = small_model()
    backend = MilpBackend()
    a = backend.write(model, str(tmp_path / "a.mps"), "mps", SolveOptions())
    b = backend.write(model, str(tmp_path / "b.mps"), "mps", SolveOptions())
    assert open(a[0], "rb").read() == open(b[0], "rb").read()
    assert open(a[1], "rb").read() == open(b[1], "rb").read()
    text = open(a[0]).read()
    assert text.splitlines()[:9] == [
        "* gridlang model of puzzle 'tiny'",
        "* map: tiny.txt",
        "* spec: tiny.grid",
        "* connectivity: single-commodity flow",
        "* columns: see the sidecar .vars.json; rows end in _L<line> of the spec",
        "* run: python -c \"import highspy; h = highspy.Highs(); h.readModel('FILE'); h.run(); "
        "h.writeSolution('ANSWER', 1)\"",
        "* then: gridlang decode SPEC --map MAP --solution ANSWER --format mps (SPEC, MAP and parameters as above)",
        "* (any MIP solver will do: HiGHS, Gurobi, SCIP and CBC solution files are read)",
        "* Source:     Pyomo MPS Writer",
    ]
    assert backend.notes == []
    # Every column of the file is in the sidecar and nothing else is.
    section = text.split("\nCOLUMNS\n")[1].split("\nRHS\n")[0]
    columns = {line.split()[0] for line in section.splitlines()}
    sidecar = json.loads(open(a[1]).read())
    assert set(sidecar) == columns
    assert sidecar["x_1_2"] == {"var": "x[1,2]", "family": "x", "cell": [1, 2], "value": None,
                                "index": 6, "aux": False}
    assert sidecar["y_0"]["cell"] is None and sidecar["y_0"]["var"] == "y=0"
    assert sidecar["flow_pen_0_0_0_1"]["aux"] is True
    assert sidecar["flow_pen_0_0_0_1"]["arc"] == [[0, 0], [0, 1]]


def test_cuts_request_writes_flow_and_says_so(tmp_path, caplog):
    model = small_model()
    backend = MilpBackend()
    with caplog.at_level("INFO", logger="gridlang.milp"):
        path = backend.write(model, str(tmp_path / "m.lp"), "lp", SolveOptions(connectivity="cuts"))[0]
    assert backend.notes == ["lazy separator cuts cannot live in a file; "
                             "the file uses single-commodity flow for connectivity"]
    assert backend.notes[0] in caplog.text
    lines = open(path).read().splitlines()
    assert lines[3] == ("\\ connectivity: single-commodity flow "
                        "(requested: lazy vertex-separator cuts, which cannot live in a file)")
    assert any(line.startswith("c_u_flowcap_pen_0_0_0_1_:") for line in lines)


def write_sol(tmp_path, text: str) -> str:
    path = tmp_path / "answer.sol"
    path.write_text(text)
    return str(path)


def gurobi_text(model: Model, values: dict[str, float], extra: str = "", drop: str = "") -> str:
    lines = ["# Solution for model tiny", "# Objective value = 4"]
    for name, value in values.items():
        if name != drop:
            lines.append(f"{name} {value}")
    return "\n".join(lines) + "\n" + extra


def solution_values(tmp_path) -> tuple[Model, dict[str, float]]:
    model = small_model()
    path = str(tmp_path / "m.mps")
    MilpBackend().write(model, path, "mps", SolveOptions())
    h = highs_solve(path)
    sidecar = json.loads(open(path + ".vars.json").read())
    values = dict(zip(sidecar, h.getSolution().col_value))
    return model, values


def test_read_gurobi_solution(tmp_path):
    model, values = solution_values(tmp_path)
    assignment = MilpBackend().read_solution(model, write_sol(tmp_path, gurobi_text(model, values)))
    assert model.objective.value(assignment) == 4


def test_read_highs_pretty_solution(tmp_path):
    model = small_model()
    path = str(tmp_path / "m.lp")
    MilpBackend().write(model, path, "lp", SolveOptions())
    h = highs_solve(path)
    sol = str(tmp_path / "pretty.sol")
    h.writeSolution(sol, 1)
    assert model.objective.value(MilpBackend().read_solution(model, sol)) == 4


def test_unknown_column_points_at_its_line(tmp_path):
    model, values = solution_values(tmp_path)
    path = write_sol(tmp_path, gurobi_text(model, values, extra="  wall_9_9 1\n"))
    with pytest.raises(MapError) as err:
        MilpBackend().read_solution(model, path)
    line = 3 + len(values)
    assert (err.value.span.line, err.value.span.column) == (line, 3)
    assert "no column named 'wall_9_9'" in err.value.message
    assert err.value.render().endswith("\n      wall_9_9 1\n      ^^^^^^^^")


def test_missing_column_is_reported(tmp_path):
    model, values = solution_values(tmp_path)
    path = write_sol(tmp_path, gurobi_text(model, values, drop="x_0_2"))
    with pytest.raises(MapError, match="no value for column 'x_0_2'") as err:
        MilpBackend().read_solution(model, path)
    assert err.value.span.line == 1


def test_fractional_value_is_refused(tmp_path):
    model, values = solution_values(tmp_path)
    values["x_0_1"] = 0.5
    path = write_sol(tmp_path, gurobi_text(model, values))
    with pytest.raises(MapError, match="'x_0_1' is binary but has the value 0.5") as err:
        MilpBackend().read_solution(model, path)
    assert err.value.span.line == 3 + list(values).index("x_0_1")


def test_highs_file_without_solution_is_refused(tmp_path):
    text = "Model status\nInfeasible\n\n# Primal solution values\nNone\n"
    with pytest.raises(MapError, match="no feasible primal solution") as err:
        MilpBackend().read_solution(small_model(), write_sol(tmp_path, text))
    assert err.value.span.line == 5


def test_to_pyomo_names_columns_as_the_files_do():
    from gridlang.exporters.milp.backend import to_pyomo

    pm, label = to_pyomo(small_model(), "flow")
    assert [label(pm.x[j]) for j in range(7)] == ["x_0_0", "x_0_1", "x_0_2", "x_1_0", "x_1_1", "x_1_2", "y_0"]
    assert label(pm.rows[0]) == "rootin_pen_0_0"  # the Connected node comes first
    # 6 IR variables + y, and 14 - 2 arcs (none into the root) of flow.
    assert len(pm.x) == 7 + 12


def test_read_scip_and_cbc_solutions_list_only_nonzeros(tmp_path):
    model, values = solution_values(tmp_path)
    nonzero = {name: v for name, v in values.items() if abs(v) > 1e-9}
    scip = "solution status: optimal solution found\nobjective value:                 4\n" + "".join(
        f"{name:<40}{v:>10g} \t(obj:0)\n" for name, v in nonzero.items())
    cbc = "Optimal - objective value 4.00000000\n" + "".join(
        f"{k:>7} {name:<30}{v:>12g}{0:>24}\n" for k, (name, v) in enumerate(nonzero.items()))
    # SCIPwriteSol (pyscipopt's Model.writeSol) leaves out the status line.
    scip_written = scip.split("\n", 1)[1]
    for text in (scip, scip_written, cbc):
        assignment = MilpBackend().read_solution(model, write_sol(tmp_path, text))
        assert model.objective.value(assignment) == 4
    with pytest.raises(MapError, match="no primal solution") as err:
        MilpBackend().read_solution(model, write_sol(tmp_path, "solution status: infeasible\nno solution available\n"))
    assert err.value.span.line == 1
    bad = scip.replace("x_0_0 ", "x_9_9 ", 1) if "x_0_0 " in scip else scip + "x_9_9 1 \t(obj:0)\n"
    with pytest.raises(MapError, match="no column named 'x_9_9'"):
        MilpBackend().read_solution(model, write_sol(tmp_path, bad))


def test_puzzle_without_objective_writes_minimize_zero(tmp_path):
    # Region rooted at cell 0 of a 1x3 strip, cell 2 forced in: all three cells.
    grid = grid_of(1, 3)
    model = cell_model(grid, [Connected(tuple((i, i + 1) for i in range(3)), (0,), None, "r"), Clause((3,))])
    path = str(tmp_path / "m.mps")
    MilpBackend().write(model, path, "mps", SolveOptions())
    assert "\n N  feasibility\n" in open(path).read()
    assert "ONE_VAR_CONSTANT" in json.loads(open(path + ".vars.json").read())
    h = highs_solve(path)
    h.writeSolution(str(tmp_path / "m.sol"), 0)
    assert MilpBackend().read_solution(model, str(tmp_path / "m.sol")).values == (True, True, True)


def test_unknown_setting_is_refused_by_name():
    model = cell_model(grid_of(2, 2), [Clause((1,))])
    with pytest.raises(BackendError, match="backend 'milp' has no setting 'seed_cut'"):
        MilpBackend().solve(model, SolveOptions(extra={"milp.seed_cut": 1}))


def test_highs_options_merge_whole_and_one_at_a_time():
    from gridlang.exporters.milp.backend import MilpSettings

    options = SolveOptions(extra={"milp.highs_options.presolve": "off",
                                  "milp.highs_options": {"mip_heuristic_effort": 0.3}})
    assert MilpBackend().configure(options).highs_options == {"presolve": "off", "mip_heuristic_effort": 0.3}
    assert MilpSettings().highs_options == {}  # the default is not changed in place
    model = cell_model(grid_of(2, 2), [Clause((1,))])
    with pytest.raises(BackendError, match="HiGHS has no option 'presolv'"):
        MilpBackend().solve(model, SolveOptions(extra={"milp.highs_options": {"presolv": "off"}}))
    # A value of no type HiGHS takes (only the Python API can pass one).
    with pytest.raises(BackendError, match=r"HiGHS refuses the value \[1\] for its option 'presolve'"):
        MilpBackend().solve(model, SolveOptions(extra={"milp.highs_options": {"presolve": [1]}}))
