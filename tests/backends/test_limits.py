"""Hard limits: large near-empty maps under a time limit, the memory limit, and the
encodings and counters that keep large models small.

The wall-clock figures per backend and map size are in docs/reliability.md
(measured, under load); these tests assert what a run reports: its status
and exit code, the seconds the command accounts for, and why it stopped.
"""

from __future__ import annotations

import gc
import itertools
import json
import time

import pytest
from horse_data import REPO
from timing import busy

from gridlang.batch.bench import hard_tail_map
from gridlang.cli import main
from gridlang.core import memory
from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError, MapError
from gridlang.exporters.maxsat.cardinality import AtLeast, CostBound
from gridlang.exporters.maxsat.dimacs import read_dimacs_solution
from gridlang.exporters.milp.linear.form import integral_bound
from gridlang.ir.model import Cmp, Linear, Sense
from gridlang.ir.transforms.to_cnf import card_encoding, linear_clauses

HORSE = str(REPO / "puzzles" / "horse.grid")
DAILY = str(REPO / "puzzles" / "maps" / "daily-2026-01-07.txt")
BACKENDS = ("cpsat", "milp", "maxsat")


def near_empty(tmp_path, size: int) -> str:
    """A ``size`` x ``size`` map of grass with about 3 % water, the horse in the centre, budget 40."""
    path = tmp_path / f"near-empty-{size}.txt"
    path.write_text("budget: 40\n" + hard_tail_map(40, size=size))
    return str(path)


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def check_limited_run(tmp_path, capsys, backend: str, size: int, limit: float = 2.0) -> dict:
    """Solve a near-empty map under ``limit`` seconds and check that the report is honest."""
    t0 = time.perf_counter()
    code, out, err = run(["solve", HORSE, "--map", near_empty(tmp_path, size), "-b", backend,
                          "--time-limit", limit, "--json"], capsys)
    wall = time.perf_counter() - t0
    report = json.loads(out)
    assert report["status"] in ("FEASIBLE", "UNKNOWN"), report["status"]  # nothing proved in 2 s on these maps
    if report["status"] == "FEASIBLE":
        assert code == 0
        assert report["verified"] is True and report["objective"] == report["verified_score"]
        assert report["bound"] >= report["objective"]
    else:
        assert code == 3 and report["objective"] is None and report["decisions"] is None
        stats = report["stats"]
        # The reason says where the time went.
        assert "time limit" in stats["reason"]
    # The command accounts for no more time than it took, and stays within the limit's margin.
    assert report["seconds"]["total"] <= wall
    assert report["seconds"]["total"] <= busy(limit * 1.1)  # at rest within 10 % + 1 s: docs/benchmarks.md
    return report


@pytest.mark.parametrize("backend", BACKENDS)
def test_near_empty_60x60_under_a_time_limit_of_2_s(tmp_path, capsys, backend):
    check_limited_run(tmp_path, capsys, backend, 60)


@pytest.mark.slow
@pytest.mark.parametrize("size", [100, 200])
@pytest.mark.parametrize("backend", BACKENDS)
def test_near_empty_large_maps_under_a_time_limit_of_2_s(tmp_path, capsys, backend, size):
    check_limited_run(tmp_path, capsys, backend, size)


def test_the_time_running_out_while_compiling_is_unknown_with_its_reason(tmp_path, capsys):
    code, out, _ = run(["solve", HORSE, "--map", near_empty(tmp_path, 100), "-t", "0.001", "--json"], capsys)
    report = json.loads(out)
    assert code == 3
    assert report["status"] == "UNKNOWN"
    assert report["stats"]["reason"] in ("the time limit ran out while the model was compiled",
                                         "the time limit ran out before solving")
    code, out, _ = run(["solve", HORSE, "--map", near_empty(tmp_path, 100), "-t", "0.001"], capsys)
    assert code == 3
    assert "no solution found within the time limit of 0.001 s, and none ruled out" in out


# ---------------------------------------------------------------------------
# memory


def test_a_tiny_memory_limit_is_refused_up_front(capsys):
    code, out, err = run(["solve", HORSE, "--map", DAILY, "--memory-limit", "10M"], capsys)
    assert code == 1
    assert out == ""
    assert err.startswith("error: gridlang holds ")
    assert err.rstrip().endswith("before it reads the model, more than the memory limit of 10 MB; "
                                 "raise it with --memory-limit SIZE")


def test_a_model_clearly_larger_than_the_memory_limit_is_refused_before_solving(tmp_path):
    import subprocess
    import sys

    # In a process of its own: the limit bounds the whole process, and this one holds the test suite.
    proc = subprocess.run([sys.executable, "-m", "gridlang", "solve", HORSE, "--map", near_empty(tmp_path, 100),
                           "--memory-limit", "150M"], capture_output=True, text=True, cwd=REPO.parent, timeout=120)
    code, out, err = proc.returncode, proc.stdout, proc.stderr
    assert code == 1
    assert out == ""
    assert err.strip() == ("error: this 100x100 model (19,405 variables, 47,368 constraints) needs about 309 MB on "
                           "cpsat, more than the memory limit of 150 MB; raise it with --memory-limit SIZE or use a "
                           "smaller map")


@pytest.mark.parametrize("text", ["0", "-5G", "nan", "lots", "1e30G"])
def test_a_memory_limit_that_is_no_size_is_refused_by_the_option(capsys, text):
    with pytest.raises(SystemExit) as e:
        main(["solve", HORSE, "--map", DAILY, f"--memory-limit={text}"])
    assert e.value.code == 1
    assert "gridlang solve: error: argument --memory-limit: give a size" in capsys.readouterr().err


def test_sizes():
    assert memory.parse_size("800") == 800 * 2**20
    assert memory.parse_size("512M") == 512 * 2**20
    assert memory.parse_size("1.5GB") == 3 * 2**29
    assert memory.parse_size("64k") == 2**16
    assert memory.human(3 * 2**29) == "1.5 GB"
    assert memory.default_limit() == memory.physical_memory() * 3 // 4


def test_the_watchdog_stops_the_deadline_past_the_limit():
    deadline = Deadline(60)
    with memory.watch(deadline, memory.resident() + 20 * 2**20):
        block = bytearray(60 * 2**20)
        for i in range(0, len(block), 4096):
            block[i] = 1  # touch every page, so that it is resident
        until = time.perf_counter() + 5
        while not deadline.interrupted and time.perf_counter() < until:
            time.sleep(0.02)
    assert deadline.interrupted and deadline.expired()
    assert deadline.reason == "memory limit"
    del block


def test_the_watchdog_refuses_a_limit_already_passed():
    with pytest.raises(BackendError, match="before it reads the model, more than the memory limit of 1 MB"):
        with memory.watch(Deadline(), 2**20):
            pass


# ---------------------------------------------------------------------------
# encodings and counters


def test_the_cardinality_encoding_is_chosen_by_size():
    assert card_encoding("auto", 1000, 40) == "mtotalizer"
    assert card_encoding("auto", 1001, 40) == "kmtotalizer"
    assert card_encoding("auto", 40000, 200) == "cardnetwrk"
    assert card_encoding("seqcounter", 40000, 200) == "seqcounter"
    from pysat.formula import IDPool

    # count(wall) <= 40 over the 3,265 grass cells of the near-empty 60x60
    # map: 49,415 clauses (the full totalizer made 6.2 million).
    pool = IDPool(start_from=3266)
    clauses = linear_clauses(Linear(tuple((1, v) for v in range(1, 3266)), Cmp.LE, 40), pool)
    assert len(clauses) == 49415


def _satisfiable(clauses, assumptions) -> bool:
    from pysat.solvers import Solver

    with Solver(name="g3", bootstrap_with=clauses) as s:
        return s.solve(assumptions=assumptions)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_at_least_m_holds_exactly_on_the_assignments_with_m_true(n):
    top = [n]

    def new_var():
        top[0] += 1
        return top[0]

    counter = AtLeast(list(range(1, n + 1)), new_var)
    for m in range(0, n + 2):
        out = counter.output(m)
        for values in itertools.product((False, True), repeat=n):
            fixed = [v if on else -v for v, on in zip(range(1, n + 1), values)]
            expected = sum(values) >= m
            if out is None:
                assert m > n and not expected
            elif out == 0:
                assert m <= 0 and expected
            else:
                assert _satisfiable(counter.clauses, fixed + [out]) == expected, (n, m, values)


@pytest.mark.parametrize("small", [False, True])
def test_the_cost_bound_is_exact_on_both_sides(monkeypatch, small):
    import gridlang.exporters.maxsat.cardinality as cardinality

    if small:  # count the satisfied units, as on a near-empty map
        monkeypatch.setattr(cardinality, "COUNTER_MAX_SIZE", 0)
    counted = [1, 2, 3, 4, 5, 5]  # literal 5 has weight 2
    bound = CostBound(counted)
    clauses: list[list[int]] = []
    for best in (6, 5, 3, 1):  # falling, as the search finds cheaper answers
        literal, new = bound.below(best, top=5)
        clauses.extend(new)
        for values in itertools.product((False, True), repeat=5):
            fixed = [v if on else -v for v, on in zip(range(1, 6), values)]
            cost = sum(values[abs(l) - 1] for l in counted)
            expected = cost < best
            if literal is None:
                assert not expected
            else:
                assert _satisfiable(clauses, fixed + ([literal] if literal else [])) == expected, (best, values)
    assert (bound.gain is not None) == small
    bound.delete()


def test_a_large_milp_bound_is_rounded_to_the_next_integer_only():
    assert integral_bound(1e9 + 0.4, Sense.MAXIMIZE) == 1e9
    assert integral_bound(66.0000001, Sense.MAXIMIZE) == 66.0
    assert integral_bound(65.9999999, Sense.MINIMIZE) == 66.0
    assert integral_bound(-1e9 - 0.4, Sense.MINIMIZE) == -1e9


# ---------------------------------------------------------------------------
# backend settings, logs and answer files


def test_cpsat_explains_a_parameter_value_it_refuses(capsys):
    code, out, err = run(["solve", HORSE, "--map", DAILY, "--set", "cpsat.num_workers=-3"], capsys)
    assert code == 1
    assert err.strip() == ("error: CP-SAT refused its parameters: parameter 'num_workers' should be in [0,10000]. "
                           "Current value is -3")


def test_cpsat_refuses_a_conflict_limit_below_1(capsys):
    code, _, err = run(["solve", HORSE, "--map", DAILY, "--set", "cpsat.max_number_of_conflicts=0"], capsys)
    assert code == 1
    assert err.strip() == "error: CP-SAT parameter 'max_number_of_conflicts' must be at least 1, not 0"


@pytest.mark.parametrize("extra,workers,full", [
    ([], 2, "1 full problem subsolver: [max_lp]"),
    (["--set", "cpsat.subsolvers=reduced_costs, max_lp", "--set", "cpsat.num_workers=3"], 3,
     "2 full problem subsolvers: [max_lp, reduced_costs]"),
    (["--workers", "4"], 4, "3 full problem subsolvers: [core, default_lp, max_lp]"),
    (["--set", "cpsat.num_workers=8"], 8, "6 full problem subsolvers: [core, default_lp, max_lp, no_lp, "
                                          "quick_restart, reduced_costs]"),
])
def test_cpsat_runs_max_lp_for_an_objective_unless_told_otherwise(extra, workers, full, capsys):
    code, out, err = run(["solve", HORSE, "--map", DAILY, "-b", "cpsat", "--log", "--json", "-t", "60", *extra],
                         capsys)
    assert code == 0 and json.loads(out)["objective"] == 66
    assert "Starting search at" in err and f"s with {workers} workers." in err
    assert full in err.splitlines()


def test_maxsat_log_goes_to_stderr_and_json_stays_one_object(capsys):
    code, out, err = run(["solve", HORSE, "--map", DAILY, "-b", "maxsat", "--log", "--json"], capsys)
    assert code == 0
    report = json.loads(out)
    lines = err.strip().splitlines()
    assert all(line.startswith("maxsat: ") for line in lines)
    assert "hard and" in lines[0] and "algorithm lsu, cardinality auto" in lines[0]
    assert lines[1].startswith("maxsat: call 1: feasible, objective ")
    assert lines[-1].startswith(f"maxsat: optimal: objective {report['objective']}, bound {report['objective']}")


def test_a_solution_file_is_read_bounded_and_located(tmp_path):
    junk = tmp_path / "junk.out"
    junk.write_bytes(b"v 1 2\n\xbc\x00")
    with pytest.raises(MapError) as e:
        read_dimacs_solution(str(junk), ["1", "2"])
    assert e.value.render().splitlines()[0] == f"{junk}:2:1: error: the solution file is not UTF-8 text (byte 0xbc)"
    big = tmp_path / "big.out"
    big.write_bytes(b"v" + b" 1" * (8 * 2**20 + 1))
    with pytest.raises(MapError) as e:
        read_dimacs_solution(str(big), ["1"])
    assert e.value.render().splitlines()[0] == (f"{big}:1:16777217: error: the solution file is 16,777,219 bytes "
                                                "long; gridlang reads a solution file of at most 16,777,216 bytes")


def test_batch_refuses_a_map_given_as_its_results_file(tmp_path, capsys):
    target = tmp_path / "map.txt"
    target.write_text((REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text())
    before = target.read_bytes()
    code, _, err = run(["batch", HORSE, DAILY, "--out", target, "-t", "5"], capsys)
    assert code == 1
    assert err.startswith(f"{target}:1:1: error: {target} is not a results file: line 1 is not a gridlang result")
    assert target.read_bytes() == before


def test_batch_does_not_read_a_device_to_resume(capsys):
    code, _, err = run(["batch", HORSE, DAILY, "--out", "/dev/full", "-t", "5", "--workers", "1"], capsys)
    assert code == 1
    assert err.strip() == "error: No space left on device"


def test_the_linear_search_proves_the_optimum_counting_the_satisfied_units(monkeypatch, capsys):
    import gridlang.exporters.maxsat.cardinality as cardinality

    # Force the counter of near-empty maps (AtLeast) on a daily of known optimum 66.
    monkeypatch.setattr(cardinality, "COUNTER_MAX_SIZE", 0)
    code, out, _ = run(["solve", HORSE, "--map", DAILY, "-b", "maxsat", "--json"], capsys)
    report = json.loads(out)
    assert (code, report["status"], report["objective"], report["verified_score"]) == (0, "OPTIMAL", 66, 66)


def test_a_cardinality_encoding_too_long_for_the_time_left_is_not_begun():
    # count(wall) <= 40 over 38,812 cells: 1.55 million units, about 0.64 s at
    # rest; with 0.05 s left it is not started, and with no deadline it is.
    from pysat.solvers import Solver

    from gridlang.core.deadline import BuildTimeout, Deadline
    from gridlang.ir.model import Cmp, Linear, Model, Var
    from gridlang.ir.transforms import linear_to_clauses

    n = 38_812
    model = Model(name="count", grid=None, variables=tuple(Var("x", i) for i in range(n)),
                  constraints=(Linear(tuple((1, v) for v in range(1, n + 1)), Cmp.LE, 40),), objective=None)
    with pytest.raises(BuildTimeout):
        linear_to_clauses(model, deadline=Deadline(0.05))
    small = Model(name="count", grid=None, variables=tuple(Var("x", i) for i in range(30)),
                  constraints=(Linear(tuple((1, v) for v in range(1, 31)), Cmp.LE, 4),), objective=None)
    clauses = [c.lits for c in linear_to_clauses(small, deadline=Deadline(0.05)).constraints]
    with Solver(name="cadical195", bootstrap_with=clauses) as sat:  # begun, and exact: 4 of 30, not 5
        assert sat.solve(assumptions=[1, 2, 3, 4, *range(-30, -4)]) is True
        assert sat.solve(assumptions=[1, 2, 3, 4, 5]) is False


def test_fewer_collections_raises_the_youngest_threshold_and_restores_every_one():
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with memory.fewer_collections():
            assert gc.get_threshold() == (10_000, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(50_000, 5, 5)  # a higher threshold already set is kept
        with memory.fewer_collections():
            assert gc.get_threshold() == (50_000, 5, 5)
        gc.set_threshold(0, 10, 10)  # a collector turned off stays off
        with memory.fewer_collections():
            assert gc.get_threshold() == (0, 10, 10)
        gc.set_threshold(700, 10, 10)
        with pytest.raises(ValueError), memory.fewer_collections():  # restored when the block raises
            raise ValueError
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_a_value_kept_for_the_last_object_is_made_once_per_object_by_identity():
    calls = []

    @memory.kept_for_last
    def size(x):
        calls.append(x)
        return len(x)

    a, b = [1, 2], [1, 2, 3]
    assert [size(a), size(a), size(b), size(b), size(a)] == [2, 2, 3, 3, 2]
    assert [c is a for c in calls] == [True, False, True]  # a, then b, then a again: made three times
    assert size([1, 2]) == 2 and len(calls) == 4  # an equal list that is not a: made again
