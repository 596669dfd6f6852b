"""MaxSAT backend on tiny hand-built IR models: encodings checked by counting.

Every count below is compared with a brute force over all assignments (or all
cell subsets), computed in the test from the definition, not from the IR.
"""

from __future__ import annotations

import itertools
import json

import pytest
import tiny  # noqa: E402
from tiny import cell_model  # noqa: E402
from tiny import grid_of as make_grid  # noqa: E402

from gridlang.core.errors import BackendError, MapError  # noqa: E402
from gridlang.core.grid import Grid  # noqa: E402
from gridlang.exporters.maxsat.backend import MaxSatBackend, lower  # noqa: E402
from gridlang.ir.backend import SolveOptions, Status  # noqa: E402
from gridlang.ir.checks import violations  # noqa: E402
from gridlang.ir.model import Assignment, Clause, Cmp, Connected, Linear, Model, Objective, Sense  # noqa: E402

STRATEGIES = ("cuts", "tree")


def connected_subsets(grid: Grid, roots=(), size=None) -> int:
    """Brute force (see :func:`tiny.connected_subsets`)."""
    return tiny.connected_subsets(grid, roots, size)


def enumerate_solutions(model: Model, strategy: str, limit: int = 10_000) -> set[tuple[bool, ...]]:
    """All solutions of a model without objective, by blocking clauses on its variables."""
    backend = MaxSatBackend()
    found: set[tuple[bool, ...]] = set()
    current = model
    while len(found) < limit:
        result = backend.solve(current, SolveOptions(connectivity=strategy))
        if result.status is Status.INFEASIBLE:
            return found
        assert result.status is Status.OPTIMAL
        values = result.assignment.values
        assert values not in found
        assert violations(model, result.assignment) == []
        found.add(values)
        block = Clause(tuple(-(v + 1) if val else v + 1 for v, val in enumerate(values)))
        current = current.with_constraints((block,))
    raise AssertionError("too many solutions")


CASES = [
    # (rows, cols, links, roots, size)
    (3, 3, (), (), None),
    (3, 3, (), (4,), None),
    (3, 3, (), (0, 8), None),
    (3, 3, (), (), 4),
    (2, 4, (), (), None),
    (2, 4, (), (5,), None),
    (2, 4, (), (), 3),
    (2, 4, ((0, 7),), (0,), None),
    (2, 4, ((0, 7),), (), 3),
]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("rows,cols,links,roots,size", CASES)
def test_connected_count_matches_brute_force(strategy, rows, cols, links, roots, size):
    grid = make_grid(rows, cols, links)
    members = tuple((i, i + 1) for i in range(grid.size))
    cons = [Connected(members, roots, size, "r")]
    if size is not None:
        cons.append(Linear(tuple((1, i + 1) for i in range(grid.size)), Cmp.EQ, size))
    model = cell_model(grid, cons)
    assert len(enumerate_solutions(model, strategy)) == connected_subsets(grid, roots, size)


@pytest.mark.parametrize("rows,cols,links,roots,size", [c for c in CASES if c[3]])
def test_connected_count_without_root_side_cuts(rows, cols, links, roots, size):
    # The plain separator cuts alone must be exact too.
    grid = make_grid(rows, cols, links)
    members = tuple((i, i + 1) for i in range(grid.size))
    model = cell_model(grid, [Connected(members, roots, size, "r")])
    backend = MaxSatBackend()
    found = set()
    current = model
    while True:
        r = backend.solve(current, SolveOptions(connectivity="cuts", extra={"cuts.root_side": False}))
        if r.status is Status.INFEASIBLE:
            break
        found.add(r.assignment.values)
        current = current.with_constraints(
            (Clause(tuple(-(v + 1) if b else v + 1 for v, b in enumerate(r.assignment.values))),)
        )
    assert len(found) == connected_subsets(grid, roots, size)


def test_connected_brute_force_counts_are_the_known_ones():
    # Connected induced subgraphs (OEIS A059525): 13 in the 2x2 grid, 218 in the
    # 3x3 grid; a path of 5 cells has 5+4+3+2+1 intervals. Plus the empty set.
    assert connected_subsets(make_grid(2, 2)) == 14
    assert connected_subsets(make_grid(3, 3)) == 219
    assert connected_subsets(make_grid(1, 5)) == 16
    # 2x4 ladder, 3 cells: paths of two edges, sum of C(degree, 2) = 4*1 + 4*3.
    assert connected_subsets(make_grid(2, 4), size=3) == 16


def test_connected_with_subset_of_candidates():
    # Only the border ring of a 3x3 grid may be chosen (the centre is never a member).
    grid = make_grid(3, 3)
    ring = tuple((i, i + 1) for i in range(9) if i != 4)
    cons = [Connected(ring, (0,), None, "ring"), Clause((-5,))]
    model = cell_model(grid, cons)
    # Brute force: connected arcs of an 8-cycle through cell 0: the whole ring or a
    # path containing 0 of length k (k positions for each k in 1..7).
    want = 1 + sum(k for k in range(1, 8))
    for strategy in STRATEGIES:
        assert len(enumerate_solutions(model, strategy)) == want


def connected_member_sets(grid: Grid, members: set[int], root) -> list[set[int]]:
    """Brute force: subsets of ``members`` holding the root(s), every cell reached from one."""
    roots = set(root) if isinstance(root, tuple) else {root}
    out = []
    cells = sorted(members)
    for mask in range(1 << len(cells)):
        chosen = {c for i, c in enumerate(cells) if mask >> i & 1}
        if not roots <= chosen:
            continue
        if tiny.reached(grid, chosen, roots) == chosen:
            out.append(chosen)
    return out


# A 4x5 grid with holes (#) leaves cut vertices and an unreachable cell (18):
#   0  1  2  #  4
#   5  #  7  8  9
#  10  # 12  #  #
#  15  #  # 18  #
HOLES_GRID = (4, 5)
HOLES = {3, 6, 11, 13, 14, 16, 17, 19}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_articulation_cuts_are_valid_and_exact(strategy):
    from gridlang.ir.connectivity.separation import cut_clause, seed_cuts

    grid = make_grid(*HOLES_GRID)
    members = {i for i in range(grid.size) if i not in HOLES}
    con = Connected(tuple((i, i + 1) for i in sorted(members)), (0,), None, "pen")
    sets = connected_member_sets(grid, members, 0)
    clauses = [cut_clause(c) for c in seed_cuts(grid, con)]
    # A tree of bridges: each cell implies its parent (cells 1, 2, 5, 7, 8, 9, 10
    # head blocks); cell 18 is cut off.
    assert sorted(clauses) == sorted([[-3, 2], [-8, 3], [-13, 8], [-9, 8], [-5, 10], [-10, 9],
                                      [-11, 6], [-16, 11], [-19]])
    for chosen in sets:
        for cl in clauses:
            assert any((l > 0) == ((abs(l) - 1) in chosen) for l in cl)
    model = cell_model(grid, [con] + [Clause((-(h + 1),)) for h in sorted(HOLES)])
    assert len(enumerate_solutions(model, strategy)) == len(sets)


def test_articulation_cuts_valid_on_random_hole_patterns():
    import random

    from gridlang.ir.connectivity.separation import cut_clause, seed_cuts

    rng = random.Random(7)
    grid = make_grid(3, 4, ((0, 11),))
    checked = 0
    for k in range(40):
        members = {i for i in range(12) if i in (5, 10) or rng.random() < 0.7}
        roots = (5,) if k % 2 else (5, 10)
        con = Connected(tuple((i, i + 1) for i in sorted(members)), roots, None, "pen")
        clauses = [cut_clause(c) for c in seed_cuts(grid, con, pairs=True)]
        for chosen in connected_member_sets(grid, members, roots):
            for cl in clauses:
                assert any((l > 0) == ((abs(l) - 1) in chosen) for l in cl)
        checked += len(clauses)
    assert checked == 208


def brute_linear(terms, op: Cmp, rhs: int, enforce, nvars: int) -> int:
    count = 0
    for bits in itertools.product((False, True), repeat=nvars):
        a = Assignment(bits)
        if enforce and not all(a.holds(l) for l in enforce):
            count += 1
            continue
        lhs = sum(c for c, l in terms if a.holds(l))
        count += op.holds(lhs, rhs)
    return count


LINEARS = [
    (((1, 1), (1, 2), (1, 3), (1, 4), (1, -5)), Cmp.LE, 2, ()),
    (((1, 1), (1, 2), (1, 3), (1, 4), (1, -5)), Cmp.GE, 3, (6,)),
    (((1, 1), (1, 2), (1, 3), (1, 4), (1, 5)), Cmp.EQ, 2, (-6,)),
    (((3, 1), (-2, 2), (2, -3), (1, 4), (5, 5)), Cmp.LE, 4, ()),
    (((3, 1), (-2, 2), (2, -3), (1, 4), (5, 5)), Cmp.GE, 5, (6,)),
    (((3, 1), (-2, 2), (2, -3), (1, 4), (5, 5)), Cmp.EQ, 6, (6, -1)),
    (((2, 1), (2, 2), (2, 3), (4, 4), (3, 1)), Cmp.EQ, 7, ()),
    (((2, 1), (2, 2), (2, 3)), Cmp.LE, -1, (6,)),
    (((2, 1), (2, 2), (2, 3)), Cmp.GE, 7, ()),
]


@pytest.mark.parametrize("terms,op,rhs,enforce", LINEARS)
def test_linear_count_matches_brute_force(terms, op, rhs, enforce):
    grid = make_grid(1, 6)
    model = cell_model(grid, [Linear(terms, op, rhs, enforce)])
    want = brute_linear(terms, op, rhs, enforce, 6)
    if want == 0:
        assert MaxSatBackend().solve(model, SolveOptions()).status is Status.INFEASIBLE
    else:
        assert len(enumerate_solutions(model, "cuts")) == want


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", "ktotalizer", "mtotalizer", "kmtotalizer", "cardnetwrk"])
def test_cardinality_encodings_count(encoding):
    grid = make_grid(1, 6)
    con = Linear(tuple((1, v) for v in range(1, 6)), Cmp.LE, 2, (6,))
    model = cell_model(grid, [con])
    backend = MaxSatBackend()
    found = set()
    current = model
    while True:
        r = backend.solve(current, SolveOptions(extra={"card.encoding": encoding}))
        if r.status is Status.INFEASIBLE:
            break
        found.add(r.assignment.values)
        current = current.with_constraints(
            (Clause(tuple(-(v + 1) if b else v + 1 for v, b in enumerate(r.assignment.values))),)
        )
    # x6 false: 32 assignments; x6 true: C(5,0)+C(5,1)+C(5,2) = 16.
    assert len(found) == 48


def brute_optimum(model: Model) -> int:
    best = None
    for bits in itertools.product((False, True), repeat=model.num_vars):
        a = Assignment(bits)
        if violations(model, a):
            continue
        value = model.objective.value(a)
        if best is None or (value > best if model.objective.sense is Sense.MAXIMIZE else value < best):
            best = value
    return best


ALGORITHMS = ("lsu", "rc2")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("sense", [Sense.MAXIMIZE, Sense.MINIMIZE])
def test_objective_constant_and_negative_coefficients(sense, algorithm):
    grid = make_grid(1, 6)
    cons = [
        Clause((1, 2)),
        Clause((-3, -4)),
        Linear(((2, 1), (3, 2), (1, 5), (1, 6)), Cmp.LE, 4),
        Linear(((1, 3), (1, 6)), Cmp.GE, 1, (-1,)),
    ]
    obj = Objective(sense, ((5, 1), (-3, 2), (4, -3), (-2, 4), (1, 5), (3, 6), (-1, -6), (2, 1)), 17)
    model = cell_model(grid, cons, obj)
    want = brute_optimum(model)
    result = MaxSatBackend().solve(model, SolveOptions(extra={"algorithm": algorithm}))
    assert result.status is Status.OPTIMAL
    assert result.objective == want == obj.value(result.assignment)
    assert want == (32 if sense is Sense.MAXIMIZE else 13)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_objective_with_connectivity(strategy, algorithm):
    # A 3x4 "pen": maximise cell values; the region must be connected and hold cell 0.
    # A second high-value pocket at cell 11 is reachable only through negative cells.
    grid = make_grid(3, 4)
    values = [1, 1, -3, 5, 1, -1, -2, -1, 1, -1, -4, 6]
    members = tuple((i, i + 1) for i in range(12))
    cons = [Connected(members, (0,), None, "pen"), Clause((1,)),
            Linear(tuple((1, i + 1) for i in range(12)), Cmp.LE, 8)]
    obj = Objective(Sense.MAXIMIZE, tuple((v, i + 1) for i, v in enumerate(values)), -3)
    model = cell_model(grid, cons, obj)
    want = brute_optimum(model)
    result = MaxSatBackend().solve(model, SolveOptions(connectivity=strategy, extra={"algorithm": algorithm}))
    assert result.status is Status.OPTIMAL
    assert result.objective == want == obj.value(result.assignment)
    assert violations(model, result.assignment) == []
    assert want == 8


def test_objective_fixed_literals_go_to_offset():
    grid = make_grid(1, 3)
    model = cell_model(grid, [Clause((1,)), Clause((-2,)), Clause((-1, 3))],
                       Objective(Sense.MAXIMIZE, ((4, 1), (5, 2), (-7, 3)), 2))
    low = lower(model)
    assert low.soft == []
    assert low.offset == 4 - 7 + 2
    result = MaxSatBackend().solve(model, SolveOptions())
    assert (result.status, result.objective) == (Status.OPTIMAL, -1)


def test_infeasible_and_unknown_strategy():
    grid = make_grid(1, 2)
    model = cell_model(grid, [Clause((1,)), Clause((-1,))], Objective(Sense.MAXIMIZE, ((1, 2),)))
    for algorithm in ALGORITHMS:
        assert MaxSatBackend().solve(model, SolveOptions(extra={"algorithm": algorithm})).status is Status.INFEASIBLE
    with pytest.raises(BackendError, match="unknown MaxSAT algorithm 'bnb'; choose auto, lsu or rc2"):
        MaxSatBackend().solve(model, SolveOptions(extra={"algorithm": "bnb"}))
    with pytest.raises(BackendError, match="no connectivity strategy 'flow'"):
        MaxSatBackend().solve(model, SolveOptions(connectivity="flow"))


def test_several_roots_each_reach_their_part():
    # Roots 0 and 3 of a 1x5 strip, cell 1 forbidden: {0, 3}, {0, 2, 3}, {0, 3, 4},
    # {0, 2, 3, 4}: one component per root is allowed (a flood fill from both).
    grid = make_grid(1, 5)
    members = tuple((i, i + 1) for i in range(5))
    model = cell_model(grid, [Connected(members, (0, 3), None, "r"), Clause((-2,))])
    for strategy in STRATEGIES:
        assert len(enumerate_solutions(model, strategy)) == 4
    # A root that can never be a member: infeasible.
    ring = tuple((i, i + 1) for i in range(1, 5))
    model = cell_model(grid, [Connected(ring, (0,), None, "r")])
    for strategy in STRATEGIES:
        assert MaxSatBackend().solve(model, SolveOptions(connectivity=strategy)).status is Status.INFEASIBLE


# -------------------------------------------------------------------- files


def small_pen_model() -> Model:
    grid = make_grid(3, 3)
    members = tuple((i, i + 1) for i in range(9))
    cons = [Connected(members, (4,), None, "pen"), Linear(tuple((1, i + 1) for i in range(9)), Cmp.LE, 4)]
    obj = Objective(Sense.MAXIMIZE, tuple((v, i + 1) for i, v in enumerate([3, -1, 3, 1, 1, -2, 1, 1, 5])), -10)
    model = cell_model(grid, cons, obj)
    return Model(model.name, grid, model.variables, model.constraints, obj,
                 info={"spec": "tests/pen.grid", "map": "tiny 3x3"}, params={"budget": 4})


def test_wcnf_round_trip_and_reproducible(tmp_path):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    model = small_pen_model()
    backend = MaxSatBackend()
    path = str(tmp_path / "pen.wcnf")
    written = backend.write(model, path, "wcnf", SolveOptions())
    assert written == [path, path + ".vars.json"]
    text = open(path).read()
    assert "h " in text and "p wcnf" not in text
    offset = next(int(l.split("offset ")[1].split(":")[0]) for l in text.splitlines() if l.startswith("c objective"))
    with RC2(WCNF(from_file=path)) as rc2:
        lits = rc2.compute()
        score = offset - rc2.cost
    want = brute_optimum(model)
    assert score == want == -2
    a = Assignment(tuple(l > 0 for l in lits[: model.num_vars]))
    assert violations(model, a) == [] and model.objective.value(a) == want
    # Byte-for-byte reproducible, sidecar included.
    again = str(tmp_path / "again.wcnf")
    backend.write(model, again, "wcnf", SolveOptions())
    assert open(again, "rb").read() == open(path, "rb").read()
    assert open(again + ".vars.json", "rb").read() == open(path + ".vars.json", "rb").read()
    names = json.load(open(path + ".vars.json"))
    assert names["5"] == {"var": "x[1,1]", "family": "x", "cell": [1, 1], "value": None}
    assert len(names) == max(abs(l) for l in lits)


def test_files_refuse_lazy_cuts(tmp_path):
    with pytest.raises(BackendError, match="cannot hold lazy cuts"):
        MaxSatBackend().write(small_pen_model(), str(tmp_path / "x.wcnf"), "wcnf", SolveOptions(connectivity="cuts"))
    with pytest.raises(BackendError, match="no connectivity strategy 'flow'"):
        MaxSatBackend().write(small_pen_model(), str(tmp_path / "x.wcnf"), "wcnf", SolveOptions(connectivity="flow"))


def test_cnf_only_without_objective(tmp_path):
    model = small_pen_model()
    with pytest.raises(BackendError, match="use --format wcnf"):
        MaxSatBackend().write(model, str(tmp_path / "x.cnf"), "cnf", SolveOptions())
    grid = make_grid(2, 4)
    members = tuple((i, i + 1) for i in range(8))
    plain = cell_model(grid, [Connected(members, (), 3, "r"), Linear(tuple((1, i + 1) for i in range(8)), Cmp.EQ, 3)])
    path = str(tmp_path / "x.cnf")
    MaxSatBackend().write(plain, path, "cnf", SolveOptions())
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_file=path)
    # Count the projections onto the cell variables: connected 3-cell subsets of 2x4.
    seen = set()
    with Solver(name="g3", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            m = s.get_model()[:8]
            seen.add(tuple(m))
            s.add_clause([-l for l in m])
    assert len(seen) == connected_subsets(grid, (), 3) == 16


def test_read_solution_both_forms(tmp_path):
    model = small_pen_model()
    backend = MaxSatBackend()
    old = tmp_path / "old.sol"
    old.write_text("c hello\ns OPTIMUM FOUND\no 12\nv 1 -2 3 -4\nv 5 -6 -7 8 9 -10 11 0\n")
    a = backend.read_solution(model, str(old))
    assert a.values == (True, False, True, False, True, False, False, True, True)
    new = tmp_path / "new.sol"
    new.write_text("s OPTIMUM FOUND\no 12\nv 1010100110110\n")
    assert backend.read_solution(model, str(new)).values == a.values


@pytest.mark.parametrize(
    "text,line,col,words",
    [
        ("s OPTIMUM FOUND\nv 1 -2 x3 0\n", 2, 8, "not a literal"),
        ("v 1 2 3 4 5 6 7 8 9 0\nv 1\n", 2, 3, "after the closing 0"),
        ("v 1 -1 2 3 4 5 6 7 8 9 0\n", 1, 5, "both ways"),
        ("c only comments\n", 1, 1, "no 'v' line"),
        ("v 1 2 3 0\n", 1, 9, "has no value"),
        ("s OPTIMUM FOUND\nhello\n", 2, 1, "expected a 'v'"),
        ("c x\ns UNSATISFIABLE\n", 2, 1, "no solution"),
        ("v 1011\n", 1, 7, "gives 4 values"),
    ],
)
def test_read_solution_errors_point_at_the_place(tmp_path, text, line, col, words):
    model = small_pen_model()
    path = tmp_path / "bad.sol"
    path.write_text(text)
    with pytest.raises(MapError, match=words) as info:
        MaxSatBackend().read_solution(model, str(path))
    assert (info.value.span.line, info.value.span.column) == (line, col)
    assert info.value.span.file == str(path)


def test_time_limit_reports_a_status():
    # A zero time limit proves nothing: UNKNOWN, no solution, no crash.
    model = small_pen_model()
    result = MaxSatBackend().solve(model, SolveOptions(time_limit=0.0))
    assert result.status is Status.UNKNOWN and result.assignment is None
