"""The window start (gridlang.ir.connectivity.windows) and CP-SAT's objective cutoff."""

from __future__ import annotations

import pytest
from horse_data import REPO

from gridlang.batch.bench import hard_tail_map
from gridlang.core.deadline import Deadline
from gridlang.formats.maps import parse_map, read_map
from gridlang.ir.backend import SolveOptions, Status, get_backend
from gridlang.ir.checks import violations
from gridlang.ir.connectivity import windows
from gridlang.ir.connectivity.windows import WindowStart, window, window_radii, window_start, windowed_region
from gridlang.ir.model import Sense
from gridlang.language.checker import check
from gridlang.language.parser import parse_file
from gridlang.solving.pipeline import load_checked, solve_model, verify

HORSE = REPO / "puzzles" / "horse.grid"
DAILY_07 = REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt"
EGGS = REPO / "puzzles" / "snake_eggs.grid"
EGGS_MAP = REPO / "puzzles" / "instances" / "snake_eggs" / "jandhyala_ch32_6x6.txt"


def compiled(spec, data, params):
    tree = parse_file(spec)
    model, _ = load_checked(tree, check(tree), data, params)
    return model


def tail(budget: int):
    return compiled(HORSE, parse_map(hard_tail_map(budget), "<tail>", "enclose.horse"), {"budget": str(budget)})


def daily(budget: int):
    return compiled(HORSE, read_map(DAILY_07, "enclose.horse"), {"budget": str(budget)})


def test_windows_are_the_smallest_balls_around_the_horse_holding_each_share():
    model = tail(30)
    con = windowed_region(model)
    assert con is not None and len(con.members) == 760  # 900 cells less the border and the water
    steps, radii = window_radii(model, con)
    member = {c for c, _ in con.members}
    # Breadth-first steps, by their definition: the horse at 0, every other
    # reached cell one more than its nearest reached neighbour.
    assert set(steps) == member and steps[con.roots[0]] == 0
    for cell, d in steps.items():
        if cell != con.roots[0]:
            assert d == 1 + min(steps[v] for v in model.grid.neighbours[cell] if v in steps)
    assert radii == [8, 11, 14] and max(steps.values()) == 28
    for share, radius in zip(windows.WINDOW_SHARES, radii):
        within = [sum(1 for d in steps.values() if d <= r) for r in (radius - 1, radius)]
        assert within[0] <= int(share * len(member)) < within[1]
    clauses = window(con, steps, 12)
    beyond = {c for c, d in steps.items() if d > 12}
    lits = dict(con.members)
    assert sorted(cl.lits for cl in clauses) == sorted((-lits[c],) for c in beyond)


def test_no_window_start_below_its_size_or_without_an_objective():
    assert windowed_region(daily(12)) is None  # 142 candidate cells
    eggs = compiled(EGGS, read_map(EGGS_MAP, "snake-eggs"), {})
    assert eggs.objective is None and windowed_region(eggs) is None


def test_a_window_answer_is_an_answer_of_the_whole_map_and_its_optimum_is_every_backends(monkeypatch):
    model = tail(40)
    monkeypatch.setattr(windows, "WINDOW_SHARES", (0.20,))
    cpsat = get_backend("cpsat")
    settings = cpsat.configure(SolveOptions())
    start = window_start(model, lambda m, part: cpsat._solve(m, SolveOptions(deadline=part), settings),
                         Deadline(120))
    assert (start.radii, start.statuses, start.objective) == ([9], ["OPTIMAL"], 177)
    assert violations(model, start.assignment) == []
    solution, verdict = verify(model, start.assignment, start.objective)  # the published rules, by BFS
    assert verdict.ok and verdict.score == 177
    con = windowed_region(model)
    steps, _ = window_radii(model, con)
    confined = model.with_constraints(window(con, steps, 9))
    for other in ("milp", "asp"):
        result = solve_model(confined, other, SolveOptions(time_limit=120)).result
        assert (result.status, result.objective) == (Status.OPTIMAL, 177), other


def test_cpsat_started_below_the_optimum_climbs_to_it_and_started_at_it_proves_it():
    cpsat = get_backend("cpsat")
    settings = cpsat.configure(SolveOptions())
    fewer = solve_model(daily(11), "cpsat", SolveOptions(time_limit=60)).result
    assert fewer.status is Status.OPTIMAL and fewer.objective == 61
    assert solve_model(daily(11), "asp", SolveOptions(time_limit=60)).result.objective == 61
    model = daily(12)
    # 11 walls are within a budget of 12: an answer, not the best one.
    assert violations(model, fewer.assignment) == []
    climbed = cpsat._solve(model, SolveOptions(time_limit=60), settings, WindowStart(fewer.assignment, 61))
    assert (climbed.status, climbed.objective, climbed.bound) == (Status.OPTIMAL, 66, 66.0)
    proved = cpsat._solve(model, SolveOptions(time_limit=60), settings, WindowStart(climbed.assignment, 66))
    assert (proved.status, proved.objective, proved.bound) == (Status.OPTIMAL, 66, 66.0)
    assert proved.assignment == climbed.assignment  # nothing beats it, so the start is the answer


def test_a_search_stopped_at_once_claims_no_bound():
    # CP-SAT stopped before its search reports the bound 0.0; under the cutoff
    # that once became "the bound is the incumbent", 61, below the optimum 66.
    cpsat = get_backend("cpsat")
    fewer = solve_model(daily(11), "cpsat", SolveOptions(time_limit=60)).result
    assert fewer.objective == 61
    settings = cpsat.configure(SolveOptions(extra={"cpsat.max_time_in_seconds": 1e-5}))
    stopped = cpsat._solve(daily(12), SolveOptions(time_limit=60), settings, WindowStart(fewer.assignment, 61))
    assert (stopped.status, stopped.objective, stopped.bound) == (Status.FEASIBLE, 61, None)


def test_the_cutoff_is_one_row_whose_bound_moves():
    from gridlang.exporters.cpsat.lowering import Lowering
    from gridlang.exporters.cpsat.proto import _INT64

    model = daily(12)
    assert model.objective.sense is Sense.MAXIMIZE
    built = Lowering(model, "cuts")
    rows = len(built.cp.proto.constraints)
    built.cutoff(60)
    assert len(built.cp.proto.constraints) == rows + 1
    row = built.cp.proto.constraints[rows].linear
    low = 61 - model.objective.constant  # the objective's literals are all positive here
    assert list(row.domain) == [low, _INT64[1]] and len(row.vars) == len(model.objective.terms)
    built.cutoff(64)
    assert len(built.cp.proto.constraints) == rows + 1 and list(row.domain) == [low + 4, _INT64[1]]


def test_the_time_limit_covers_the_windows_and_the_solve_after_them():
    import time

    t0 = time.perf_counter()
    result = get_backend("cpsat").solve(tail(30), SolveOptions(time_limit=8))  # no deadline given: one is made
    # The windows take 2 s of the 8; a fresh clock for the solve after them would end near 10 s.
    elapsed = time.perf_counter() - t0
    assert "window_radii" in result.stats
    # A fresh clock would end after the windows' seconds on top of the 8: the margin is less than those.
    assert elapsed < 8 + max(1.2, 0.9 * result.stats["window_seconds"]), (elapsed, result.stats["window_seconds"])
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)


@pytest.mark.parametrize("backend", ["cpsat", "maxsat"])
@pytest.mark.parametrize("setting,ran", [(None, True), (False, False)])
def test_the_window_start_runs_on_the_hard_tail_unless_turned_off(backend, setting, ran, monkeypatch):
    monkeypatch.setattr(windows, "WINDOW_SHARES", (0.15,))  # one window, with all of the start's time
    # Half of the 6 s for the start (a quarter by default, 1.5 s, which a CPU-bound job beside the
    # tests made too short for MaxSAT's forked RC2 to answer the window at all).
    monkeypatch.setattr(windows, "WINDOW_TIME_SHARE", 0.5)
    extra = {} if setting is None else {f"{backend}.window": setting}
    result = solve_model(tail(40), backend, SolveOptions(time_limit=6, extra=extra)).result
    assert ("window_radii" in result.stats) is ran
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    if ran:
        # The first window holds the 143 cells within 8 steps of the horse, and 40 walls
        # close all of them in: at rest the window is proved in its share of the time (a
        # busy machine may leave it FEASIBLE); the answer is at least the start's.
        assert result.stats["window_radii"] == "8" and result.stats["window_statuses"] in ("OPTIMAL", "FEASIBLE")
        assert result.objective >= result.stats["window_objective"]
        if result.stats["window_statuses"] == "OPTIMAL":
            assert result.stats["window_objective"] >= 143


def test_a_solve_that_ends_without_an_answer_keeps_the_windows(monkeypatch):
    from gridlang.ir.backend import Result

    monkeypatch.setattr(windows, "WINDOW_SHARES", (0.15,))
    model = tail(40)
    cpsat = get_backend("cpsat")
    settings = cpsat.configure(SolveOptions())

    def solve(m, options, start):
        if start is None:  # a window
            return cpsat._solve(m, options, settings)
        return Result(Status.UNKNOWN, stats={"reason": "the time limit ran out while the CP-SAT model was built"})

    result = windows.solve_with_window_start(model, SolveOptions(time_limit=60), True, solve)
    assert (result.status, result.objective, result.stats["window_radii"]) == (Status.FEASIBLE, 143, "8")
    assert violations(model, result.assignment) == [] and model.objective.value(result.assignment) == 143
    assert result.stats["reason"] == "the time limit ran out while the CP-SAT model was built"


def test_log_gives_a_line_per_window(capsys):
    solve_model(tail(40), "cpsat", SolveOptions(time_limit=4, log=True))
    lines = [l for l in capsys.readouterr().err.splitlines() if l.startswith("window start: ")]
    assert lines and lines[0].startswith("window start: radius 8 (143 of 762 cells): OPTIMAL, objective 143,")
