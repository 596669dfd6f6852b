"""CP-SAT specifics: the exported proto, time limits, and both strategies on unrooted regions."""

from __future__ import annotations

import pytest
from horse_data import REPO
from tiny import connected_subsets

from gridlang.cli import main
from gridlang.core.grid import Grid
from gridlang.ir.backend import SolveOptions, Status, get_backend
from gridlang.ir.model import Clause, Connected, Model, Var

HORSE = REPO / "puzzles" / "horse.grid"
DAILY_07 = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"


def test_pbtxt_export_is_reproducible_and_solves_to_66(tmp_path):
    from ortools.sat.python import cp_model

    paths = [tmp_path / "a.pbtxt", tmp_path / "b.pbtxt"]
    for p in paths:
        assert main(["export", str(HORSE), "--map", str(DAILY_07), "--format", "pbtxt", "-o", str(p)]) == 0
    a, b = (p.read_text() for p in paths)
    assert a == b
    assert "# connectivity: flow" in a and "wall_3_0" in a
    model = cp_model.CpModel()
    model.Proto().parse_text_format("".join(l for l in a.splitlines(True) if not l.startswith("#")))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 8
    assert solver.Solve(model) == cp_model.OPTIMAL
    assert round(solver.ObjectiveValue()) == 66


@pytest.mark.parametrize("strategy,encoding", [("tree", "tree"), ("cuts", "flow")])
def test_pbtxt_export_with_a_strategy_solves_to_66(tmp_path, capsys, strategy, encoding):
    from ortools.sat.python import cp_model

    out = tmp_path / "m.pbtxt"
    assert main(["export", str(HORSE), "--map", str(DAILY_07), "--format", "pbtxt", "-o", str(out),
                 "--connectivity", strategy]) == 0
    text = out.read_text()
    assert f"# connectivity: {encoding}" in text
    assert ("cannot live in a file" in capsys.readouterr().err) == (strategy != encoding)
    model = cp_model.CpModel()
    model.Proto().parse_text_format("".join(l for l in text.splitlines(True) if not l.startswith("#")))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 8
    solver.parameters.max_time_in_seconds = 120
    assert solver.Solve(model) == cp_model.OPTIMAL
    assert round(solver.ObjectiveValue()) == 66


def brute_count(grid: Grid, size: int | None) -> int:
    return connected_subsets(grid, (), size)


@pytest.mark.parametrize("strategy", ["auto", "cuts", "flow", "tree"])
@pytest.mark.parametrize("size", [None, 3])
def test_unrooted_connected_counts_match_brute_force(strategy, size):
    from gridlang.ir.model import Cmp, Linear

    grid = Grid(2, 3, tuple("." * 6), tuple("t" * 6))
    variables = tuple(Var("x", i, None, grid.cell(i)) for i in range(6))
    cons = [Connected(tuple((i, i + 1) for i in range(6)), (), size, "r")]
    if size is not None:
        cons.append(Linear(tuple((1, i + 1) for i in range(6)), Cmp.EQ, size))
    backend, found = get_backend("cpsat"), 0
    while True:
        model = Model("t", grid, variables, tuple(cons), None)
        res = backend.solve(model, SolveOptions(connectivity=strategy))
        if res.status is Status.INFEASIBLE:
            break
        found += 1
        cons.append(Clause(tuple(-(i + 1) if res.assignment.values[i] else i + 1 for i in range(6))))
    assert found == brute_count(grid, size)


def test_brute_force_counts_connected_subsets_of_a_2x3_grid():
    grid = Grid(2, 3, tuple("." * 6), tuple("t" * 6))
    # By hand, per size: the empty set; 6 cells; 7 edges; 4 L-trominoes in
    # each of the two 2x2 windows plus the 2 rows; the 15 four-cell sets but
    # the 5 whose missing pair cuts the grid; 6; the whole grid.
    assert [brute_count(grid, k) for k in range(7)] == [1, 6, 7, 10, 10, 6, 1]
    assert brute_count(grid, None) == 41


def test_the_cut_loop_starts_from_the_seed_cuts(monkeypatch):
    # Every seed cut is a row of the first model, on top of the cuts of the
    # loop and the objective cutoff (a row once a round has an incumbent, which
    # depends on CP-SAT's first answer): the same map solved without seeds has
    # exactly that many fewer rows.
    from gridlang import compiler
    from gridlang.exporters.cpsat import backend as cpsat

    model = compiler.compile_puzzle(HORSE, DAILY_07)
    backend = get_backend("cpsat")
    seeded = backend.solve(model, SolveOptions(connectivity="cuts", time_limit=120))
    monkeypatch.setattr(cpsat, "seed_cuts", lambda grid, con: [])
    bare = backend.solve(model, SolveOptions(connectivity="cuts", time_limit=120))
    for r in (seeded, bare):
        assert (r.status, r.objective) == (Status.OPTIMAL, 66)
    assert seeded.stats["seed_cuts"] > 0 and bare.stats["seed_cuts"] == 0
    assert (seeded.stats["constraints"] - seeded.stats["seed_cuts"] - seeded.stats["cuts"]
            - seeded.stats["cutoff_rows"] == bare.stats["constraints"] - bare.stats["cuts"] - bare.stats["cutoff_rows"])


# The proto gridlang writes for CP-SAT (exporters/cpsat/proto.py, Proto) must be the
# one ortools.sat.python.cp_model writes for the same constraints, text for text.

_BOOLS, _INTS = 3, 2  # variables 0-2 Boolean, 3-4 integer in [-4, 5]


def _reference(ops):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    m.SetName("p")
    xs = [m.NewBoolVar(f"b{i}") for i in range(_BOOLS)] + [m.NewIntVar(-4, 5, f"i{i}") for i in range(_INTS)]

    def lit(ref):
        return xs[ref] if ref >= 0 else xs[~ref].Not()

    for op in ops:
        kind = op[0]
        if kind == "linear":
            _, terms, low, high, enforce = op
            expr = sum(c * lit(r) for c, r in terms)
            if low is not None and high is not None:
                ct = m.AddLinearConstraint(expr, low, high) if low != high else m.Add(expr == low)
            elif low is not None:
                ct = m.Add(expr >= low)
            else:
                ct = m.Add(expr <= high)
            if enforce:
                ct.OnlyEnforceIf([lit(r) for r in enforce])
        elif kind == "bool_or":
            m.AddBoolOr([lit(r) for r in op[1]])
        elif kind == "implication":
            m.AddImplication(lit(op[1]), lit(op[2]))
        elif kind == "at_most_one":
            m.AddAtMostOne([lit(r) for r in op[1]])
        elif kind == "exactly_one":
            m.AddExactlyOne([lit(r) for r in op[1]])
        elif kind == "circuit":
            m.AddCircuit([(0, 1, m.NewConstant(1)), (1, 0, lit(op[1])), (0, 0, lit(op[2]))])
        elif kind == "objective":
            _, terms, constant, maximise = op
            expr = sum(c * lit(r) for c, r in terms) + constant
            m.Maximize(expr) if maximise else m.Minimize(expr)
        elif kind == "hint":
            m.ClearHints()
            for i, value in enumerate(op[1]):
                m.AddHint(xs[i], value)
    return str(m.Proto())


def _ours(ops):
    from gridlang.exporters.cpsat.proto import Proto

    p = Proto("p")
    for i in range(_BOOLS):
        p.bool_var(f"b{i}")
    for i in range(_INTS):
        p.int_var(-4, 5, f"i{i}")
    for op in ops:
        kind = op[0]
        if kind == "linear":
            p.linear(*op[1:])
        elif kind in ("bool_or", "at_most_one", "exactly_one"):
            getattr(p, kind)(op[1])
        elif kind == "implication":
            p.implication(op[1], op[2])
        elif kind == "circuit":
            p.circuit([(0, 1, p.constant(1)), (1, 0, op[1]), (0, 0, op[2])])
        elif kind == "objective":
            p.objective(*op[1:])
        elif kind == "hint":
            p.hint(range(_BOOLS), op[1])
    return str(p.proto)


def _ops():
    from hypothesis import strategies as st

    boolean = st.integers(0, _BOOLS - 1)
    literal = st.one_of(boolean, boolean.map(lambda i: ~i))
    variable = st.one_of(literal, st.integers(_BOOLS, _BOOLS + _INTS - 1))
    # At least one term: cp_model turns a sum of no terms into a Python bool, a constraint of its own kind.
    terms = st.lists(st.tuples(st.integers(-3, 3), variable), min_size=1, max_size=5)
    bound = st.one_of(st.none(), st.integers(-6, 6))
    linear = st.tuples(st.just("linear"), terms, bound, bound, st.lists(literal, max_size=2)).filter(
        lambda op: (op[2] is not None or op[3] is not None) and (op[2] is None or op[3] is None or op[2] <= op[3]))
    literals = st.lists(literal, min_size=1, max_size=3)
    return st.lists(st.one_of(
        linear,
        st.tuples(st.sampled_from(["bool_or", "at_most_one", "exactly_one"]), literals),
        st.tuples(st.just("implication"), literal, literal),
        st.tuples(st.just("circuit"), literal, literal),
        st.tuples(st.just("hint"), st.lists(st.booleans(), min_size=_BOOLS, max_size=_BOOLS)),
    ), max_size=6).flatmap(lambda ops: st.one_of(
        st.just(ops),
        st.tuples(st.just("objective"), st.lists(st.tuples(st.integers(-3, 3), literal), max_size=4),
                  st.integers(-5, 5), st.booleans()).map(lambda obj: ops + [obj])))


def test_the_proto_is_cp_model_s_text_for_text():
    from hypothesis import given, settings

    @settings(max_examples=300, deadline=None)
    @given(_ops())
    def same(ops):
        assert _ours(ops) == _reference(ops)

    same()
