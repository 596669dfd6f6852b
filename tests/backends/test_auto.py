"""The ``auto`` backend: the documented rules on real inputs, races that reach the known optimum."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from horse_data import HORSE_DATA, REPO, SPECS, known_optimum, manifest

from gridlang.batch.bench import hard_tail_map
from gridlang.core.errors import BackendError
from gridlang.formats.maps import parse_map
from gridlang.ir.backend import DEFAULT_BACKEND, SolveOptions, Status, backend_names, get_backend
from gridlang.solving.auto import AutoBackend, Features, narrowed, plan
from gridlang.solving.pipeline import load, solve, solve_model
from gridlang.solving.race import race

SNAKE = REPO / "puzzles" / "snake_eggs.grid"
SNAKE_MAP = REPO / "puzzles" / "instances" / "snake_eggs" / "ctc_tuzz_10x10.txt"


def entry(name: str) -> dict:
    return next(e for e in manifest() if e["file"] == name)


def daily(name: str):
    model, _ = load(SPECS["standard"], HORSE_DATA / name, {"budget": str(entry(name)["budget"])})
    return model


def test_auto_is_the_registered_default():
    assert DEFAULT_BACKEND == "auto" and "auto" in backend_names()
    assert isinstance(get_backend("auto"), AutoBackend)


def test_the_rules_as_documented():
    horse = Features(objective=True, solutions=1)
    assert plan(horse) == plan(horse, ()) == ("cpsat",)
    assert plan(horse, ("asp", "milp")) == ("asp", "milp")
    assert plan(Features(False, 1)) == ("asp",)
    assert plan(Features(False, 2)) == ("asp",)
    assert plan(Features(True, 2)) == ("cpsat",)
    assert plan(Features(True, 5), ("asp", "milp")) == ("cpsat",)  # no race for many answers
    # Rule 4: a small map races clingo and CP-SAT; a larger one, or none allowed, CP-SAT alone.
    assert plan(Features(True, 1, 441), (), 450) == ("asp", "cpsat")
    assert plan(Features(True, 1, 450), (), 450) == ("asp", "cpsat")
    assert plan(Features(True, 1, 451), (), 450) == ("cpsat",)
    assert plan(Features(True, 1, 441), (), 0) == ("cpsat",)
    assert plan(Features(True, 1, 441), ("maxsat", "milp"), 450) == ("maxsat", "milp")  # a named race wins
    assert plan(Features(True, 2, 100), (), 450) == ("cpsat",)  # --unique: no race
    assert plan(Features(False, 1, 100), (), 450) == ("asp", "cpsat")  # no objective: CP-SAT joins later
    assert plan(Features(False, 2, 450), (), 450) == ("asp", "cpsat")
    assert plan(Features(False, 2, 451), (), 450) == ("asp",)  # a large map: clingo alone
    assert plan(Features(True, 1, 441, warm=True), (), 450) == ("cpsat",)  # CP-SAT loaded: the race buys nothing
    # Rule 1a: blocks as large as their label go to MaxSAT's cut loop, with or without --unique.
    assert plan(Features(False, 1, sized_blocks=True)) == plan(Features(False, 2, sized_blocks=True)) == ("maxsat",)
    assert plan(Features(True, 1, 441, sized_blocks=True), (), 450) == ("asp", "cpsat")  # an objective: as before


@pytest.mark.parametrize("genre,chosen", [("fillomino", ("maxsat",)), ("pentominous", ("asp", "cpsat"))])
def test_blocks_sized_by_their_label_go_to_maxsat(genre, chosen):
    """Fillomino's blocks have as many cells as their number, Pentominous' five whatever the letter."""
    spec = REPO / "puzzles" / f"{genre}.grid"
    instance = next((REPO / "puzzles" / "instances" / genre).glob("pzprjs_*.txt"))
    model, _ = load(spec, instance, {})
    assert Features.of(model, SolveOptions()).sized_blocks is (chosen == ("maxsat",))
    assert AutoBackend.choose(model, SolveOptions(solutions=2)) == chosen


def test_the_rules_on_real_maps(monkeypatch):
    import gridlang.solving.auto as auto

    monkeypatch.setattr(auto, "cpsat_loaded", lambda: False)  # as in a fresh process
    opts = SolveOptions()
    model = daily("daily-2026-01-07.txt")
    assert Features.of(model, opts) == Features(True, 1, model.grid.size)
    assert AutoBackend.choose(model, opts) == ("asp", "cpsat")
    assert AutoBackend.choose(model, SolveOptions(extra={"auto.race_cells": 0})) == ("cpsat",)
    assert AutoBackend.choose(model, SolveOptions(extra={"auto.race": "asp,milp"})) == ("asp", "milp")
    assert AutoBackend.choose(model, SolveOptions(extra={"auto.race": "milp, asp"})) == ("milp", "asp")
    assert AutoBackend.choose(model, SolveOptions(extra={"auto.race": " "})) == ("asp", "cpsat")
    assert AutoBackend.choose(model, SolveOptions(solutions=2)) == ("cpsat",)
    eggs, _ = load(SNAKE, SNAKE_MAP)
    assert Features.of(eggs, opts) == Features(False, 1, eggs.grid.size)
    assert AutoBackend.choose(eggs, SolveOptions(solutions=2)) == ("asp", "cpsat")
    spec = SPECS["standard"]
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file
    from gridlang.solving.pipeline import load_checked

    tree = parse_file(spec)
    tail, _ = load_checked(tree, check(tree), parse_map(hard_tail_map(30), "<tail>", "enclose.horse"),
                           {"budget": "30"})
    assert tail.grid.size == 900 and AutoBackend.choose(tail, opts) == ("cpsat",)


def test_a_race_names_two_different_backends():
    for bad in ("asp", "asp,asp", "asp,gurobi", "asp,milp,cpsat"):
        with pytest.raises(BackendError, match=f"--set auto.race={bad}: give two different backends of "
                                               "cpsat, milp, maxsat, asp, comma-separated"):
            AutoBackend.choose(daily("daily-2026-01-07.txt"), SolveOptions(extra={"auto.race": bad}))


def test_explicit_wishes_narrow_the_choice():
    horse = ("asp", "milp")
    assert narrowed(horse, SolveOptions(extra={"cpsat.num_workers": 4})) == ("cpsat",)
    assert narrowed(horse, SolveOptions(mip_gap=0.0)) == ("milp",)
    assert narrowed(horse, SolveOptions(connectivity="flow")) == ("milp",)
    assert narrowed(horse, SolveOptions(connectivity="reach")) == ("asp",)
    assert narrowed(horse, SolveOptions(connectivity="cuts")) == horse
    with pytest.raises(BackendError, match="settings for cpsat and milp"):
        narrowed(horse, SolveOptions(extra={"cpsat.num_workers": 4, "milp.seed_cuts": 1}))
    with pytest.raises(BackendError, match="backend 'auto' has no connectivity strategy 'telepathy'; it offers "
                                           "auto, cuts, flow, tree, reach"):
        narrowed(horse, SolveOptions(connectivity="telepathy"))


RACE = {"auto.race": "asp,cpsat"}


@pytest.mark.parametrize("name", ["daily-2026-01-07.txt", "daily-2026-01-10.txt", "daily-2026-01-21.txt"])
def test_a_race_reaches_the_known_optimum_verified(name):
    report = solve_model(daily(name), "auto", SolveOptions(time_limit=120, extra=RACE))
    assert report.result.status is Status.OPTIMAL and report.verdict.ok
    assert report.score == report.result.objective == known_optimum(entry(name))
    assert report.backend == "auto" and report.result.stats["raced"] == "asp,cpsat"
    assert report.result.stats["chosen"] in ("asp", "cpsat")


@pytest.fixture
def forked(monkeypatch):
    """The pids of the race children forked during a test (other children, such as
    multiprocessing's resource tracker left by a batch test, are not the race's)."""
    from gridlang.solving import race as racing

    pids = []

    class Recorded(racing._Child):
        def __init__(self, *args):
            super().__init__(*args)
            pids.append(self.pid)

    monkeypatch.setattr(racing, "_Child", Recorded)
    return pids


def assert_reaped(pids) -> None:
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # killed and reaped


def test_race_children_are_gone_after_a_proof(forked):
    model = daily("daily-2026-01-07.txt")
    AutoBackend.load_library(model, SolveOptions())
    name, result = race(model, SolveOptions(time_limit=120), ("asp", "milp"))
    assert (result.status, result.objective) == (Status.OPTIMAL, 66)
    assert len(forked) == 1
    time.sleep(0.5)
    assert_reaped(forked)


def test_a_race_past_its_time_limit_ends_on_time_with_the_better_answer():
    spec = SPECS["standard"]
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file
    from gridlang.solving.pipeline import load_checked

    tree = parse_file(spec)
    model, _ = load_checked(tree, check(tree), parse_map(hard_tail_map(40), "<tail>", "enclose.horse"),
                            {"budget": "40"})
    t0 = time.perf_counter()
    name, result = race(model, SolveOptions(time_limit=3), ("asp", "milp"))
    assert time.perf_counter() - t0 < 3 + 5  # the limit, KILL_AFTER, and slack for a loaded machine
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert result.stats["raced"] == "asp,milp"


def test_unique_after_a_race_goes_on_with_the_winner(tmp_path):
    from test_backends_agree import SMALL

    path = tmp_path / "small.txt"
    path.write_text(SMALL)
    report = solve(SPECS["standard"], path, None, "auto", SolveOptions(), count=3)
    assert (report.result.status, report.score, len(report.solutions), report.complete) == \
        (Status.OPTIMAL, 15, 1, True)
    assert report.result.stats["chosen"] == "cpsat"  # more than one solution asked: no race


def test_snake_eggs_unique_on_auto():
    small = SNAKE_MAP.parent / "jandhyala_ch32_6x6.txt"
    report = solve(SNAKE, small, None, "auto", SolveOptions(time_limit=120), unique=True)
    assert report.result.status is Status.OPTIMAL and report.unique is True
    assert report.result.stats["chosen"] == "asp"


def test_auto_writes_no_files(tmp_path):
    with pytest.raises(BackendError, match="backend 'auto' writes no files"):
        get_backend("auto").write(daily("daily-2026-01-07.txt"), str(tmp_path / "m.lp"), "lp", SolveOptions())


def test_cli_json_says_which_backend_answered(tmp_path):
    command = [sys.executable, "-m", "gridlang", "solve", str(SPECS["standard"]), "--map",
               str(HORSE_DATA / "daily-2026-01-07.txt"), "--param",
               f"budget={entry('daily-2026-01-07.txt')['budget']}", "--json"]
    alone = command + ["--set", "auto.race_cells=0"]
    row = json.loads(subprocess.run(alone, capture_output=True, text=True, cwd=tmp_path, check=True).stdout)
    assert (row["status"], row["objective"], row["backend"], row["chosen"]) == ("OPTIMAL", 66, "auto", "cpsat")
    assert "raced" not in row["stats"]
    # A daily races by its size, or the two named.
    for extra, raced in (([], "asp,cpsat"), (["--set", "auto.race=cpsat,asp"], "cpsat,asp")):
        row = json.loads(subprocess.run(command + extra, capture_output=True, text=True, cwd=tmp_path,
                                        check=True).stdout)
        assert (row["status"], row["objective"], row["backend"]) == ("OPTIMAL", 66, "auto")
        assert row["chosen"] in ("asp", "cpsat") and row["stats"]["raced"] == raced


def test_ctrl_c_stops_both_children_and_keeps_the_better_answer(forked):
    import threading

    from gridlang.core.deadline import Deadline

    spec = SPECS["standard"]
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file
    from gridlang.solving.pipeline import load_checked

    tree = parse_file(spec)
    model, _ = load_checked(tree, check(tree), parse_map(hard_tail_map(40), "<tail>", "enclose.horse"),
                            {"budget": "40"})
    AutoBackend.load_library(model, SolveOptions())
    deadline = Deadline(None)
    threading.Timer(2.0, deadline.stop).start()  # what the first Ctrl-C does
    t0 = time.perf_counter()
    report = solve_model(model, "auto", SolveOptions(deadline=deadline))  # cpsat alone
    assert time.perf_counter() - t0 < 2.0 + 3.0
    assert report.interrupted and report.result.stats["chosen"] == "cpsat"
    deadline = Deadline(None)
    threading.Timer(2.0, deadline.stop).start()
    t0 = time.perf_counter()
    name, result = race(model, SolveOptions(deadline=deadline), ("asp", "milp"))  # both stopped by SIGTERM
    assert time.perf_counter() - t0 < 2.0 + 3.0
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN) and result.stats["raced"] == "asp,milp"
    assert len(forked) == 1
    time.sleep(0.5)
    assert_reaped(forked)


def test_a_delayed_race_reaches_the_same_optimum():
    model = daily("daily-2026-01-10.txt")
    report = solve_model(model, "auto", SolveOptions(time_limit=120, extra={**RACE, "auto.race_after": 0.2}))
    assert (report.result.status, report.score) == (Status.OPTIMAL, known_optimum(entry("daily-2026-01-10.txt")))
    with pytest.raises(BackendError, match="auto.race_after=-1"):
        get_backend("auto").configure(SolveOptions(extra={"auto.race_after": -1}))


def test_a_first_race_lets_the_easy_maps_end_alone(monkeypatch):
    # A process's first race forks its child after first_race_after (0.2 s:
    # the child imports its solver first), a later one after race_after (0).
    import gridlang.solving.auto as auto
    import gridlang.solving.race as racing

    delays = []

    def recorded(model, options, names, after=0.0, *rest):
        delays.append(after)
        return race(model, options, names, after, *rest)

    monkeypatch.setattr(racing, "race", recorded)
    model = daily("daily-2026-01-10.txt")
    best = known_optimum(entry("daily-2026-01-10.txt"))
    for first, extra in ((True, {}), (False, {}), (False, {"auto.race_after": 0.1}),
                         (True, {"auto.first_race_after": 0.05})):
        if first:
            fresh = [0]
            monkeypatch.setattr(auto, "RACES", fresh)
            monkeypatch.setattr(racing, "RACES", fresh)
        report = solve_model(model, "auto", SolveOptions(time_limit=120, extra={**RACE, **extra}))
        assert (report.result.status, report.score) == (Status.OPTIMAL, best)
    assert delays == [0.2, 0.0, 0.1, 0.05]
    with pytest.raises(BackendError, match="auto.first_race_after=-1"):
        get_backend("auto").configure(SolveOptions(extra={"auto.first_race_after": -1}))


def test_a_race_session_goes_on_with_the_winner(tmp_path):
    from test_backends_agree import SMALL

    from gridlang.ir.model import Clause, Cmp, Linear
    from gridlang.ir.solution import blocking_clause
    from gridlang.solving.race import RaceSession

    path = tmp_path / "small.txt"
    path.write_text(SMALL)
    model, _ = load(SPECS["standard"], path)
    session = RaceSession(AutoBackend(), model, SolveOptions(time_limit=60), ("asp", "milp"))
    first = session.solve()
    assert (first.status, first.objective, first.stats["raced"]) == (Status.OPTIMAL, 15, "asp,milp")
    objective = model.objective
    session.add([Linear(objective.terms, Cmp.EQ, first.objective - objective.constant),
                 Clause(blocking_clause(model, first.assignment))])
    second = session.solve()  # the only optimum blocked: none left, on the winner's backend
    assert (second.status, second.stats["chosen"]) == (Status.INFEASIBLE, first.stats["chosen"])


def test_a_delay_forks_no_child_when_the_first_backend_finishes_within_it(monkeypatch):
    forks = []
    real_fork = os.fork

    def counted_fork():
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counted_fork)
    model = daily("daily-2026-03-01.txt")
    AutoBackend.load_library(model, SolveOptions())
    name, result = race(model, SolveOptions(time_limit=60), ("asp", "milp"), after=30.0)
    assert (name, result.status, result.objective, len(forks)) == ("asp", Status.OPTIMAL, 13, 0)
    name, result = race(model, SolveOptions(time_limit=60), ("asp", "milp"))
    assert (result.status, result.objective, len(forks)) == (Status.OPTIMAL, 13, 1)


def test_cpsat_as_the_partner_proves_the_daily_clingo_needs_longest_for():
    name = "daily-2026-04-28.txt"  # clingo alone: 16 s at rest; raced against CP-SAT: 1.6 s
    model = daily(name)
    AutoBackend.load_library(model, SolveOptions(extra=RACE))
    report = solve_model(model, "auto", SolveOptions(time_limit=120, extra=RACE))
    assert (report.result.stats["chosen"], report.result.status, report.score) == \
        ("cpsat", Status.OPTIMAL, known_optimum(entry(name)))
    assert report.verdict.ok and report.result.stats["raced"] == "asp,cpsat"


def stub_backends(monkeypatch, solve, keep=()) -> None:
    """Stand-in backends for :func:`race`: backend NAME answers ``solve(NAME)``,
    but the backends named in ``keep`` stay the real ones."""
    import gridlang.solving.race as racing

    real = racing.get_backend

    class Stub:
        def __init__(self, name):
            self.name = name

        def load_library(self):
            pass

        def session(self, model, options):
            return self

        def solve(self):
            return solve(self.name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    monkeypatch.setattr(racing, "get_backend", lambda name: real(name) if name in keep else Stub(name))


def test_a_race_child_runs_at_a_lower_priority(monkeypatch):
    # Two stand-in backends: the one here gives up at once, the child answers
    # with its own niceness, so the race's answer is the child's.
    from gridlang.ir.backend import Result
    from gridlang.solving.race import CHILD_NICE

    def solve(name):
        if name == "here":
            return Result(Status.UNKNOWN)
        return Result(Status.INFEASIBLE, stats={"nice": os.nice(0)})

    stub_backends(monkeypatch, solve)
    name, result = race(daily("daily-2026-01-07.txt"), SolveOptions(time_limit=30), ("here", "child"))
    lowered = min(19, os.nice(0) + CHILD_NICE)  # 19: the lowest priority there is
    assert (name, result.status, result.stats["nice"]) == ("child", Status.INFEASIBLE, lowered)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="a thread's own niceness is Linux's")
@pytest.mark.parametrize("yield_after", [0.9, float("inf")])
def test_a_race_gives_way_to_its_child_after_yield_after(monkeypatch, yield_after):
    # clingo searches daily-2026-04-28 (16 s alone) in a thread of its own;
    # the child, a stand-in, sleeps. yield_after into the race clingo's thread
    # drops to the child's priority; the Python threads, the caller's and one
    # started during the race (a pool's, say), keep theirs, and so does the
    # search thread of another clingo solve, begun before the race.
    import threading

    from gridlang.ir.backend import Result
    from gridlang.solving.race import CHILD_NICE

    def nice(tid: int) -> int:
        return os.getpriority(os.PRIO_PROCESS, tid)

    def idle(tid: int) -> bool:
        return os.sched_getscheduler(tid) == os.SCHED_IDLE

    def solve(name):
        time.sleep(3.0)
        return Result(Status.UNKNOWN)

    stub_backends(monkeypatch, solve, keep=("asp",))
    model = daily("daily-2026-04-28.txt")
    get_backend("asp").load_library()
    earlier = threading.Thread(target=lambda: get_backend("asp").session(model, SolveOptions(time_limit=3.0)).solve())
    known = {int(t) for t in os.listdir("/proc/self/task")}
    earlier.start()
    time.sleep(0.3)  # its search thread runs before the race begins
    before = {int(t) for t in os.listdir("/proc/self/task")}
    other = before - known - {earlier.native_id}
    seen = {}
    pool = threading.Event()

    def watch():
        time.sleep(0.1)
        started = threading.Thread(target=pool.wait)
        started.start()
        time.sleep(1.4)
        # On a busy machine the race may begin late: look again, until just before its end.
        for _ in range(8):
            python = {t.native_id for t in threading.enumerate()}
            solver = {int(t) for t in os.listdir("/proc/self/task")} - before - python
            if {nice(t) for t in solver} == {lowered}:
                break
            time.sleep(0.1)
        seen.update(solver={nice(t) for t in solver}, started=nice(started.native_id),
                    caller=nice(threading.main_thread().native_id), other={nice(t) for t in other},
                    idle=(sum(idle(t) for t in solver), len(solver)))
        pool.set()

    base = nice(threading.get_native_id())
    lowered = min(19, base + CHILD_NICE) if yield_after < 1 else base
    watcher = threading.Thread(target=watch)
    watcher.start()
    # clingo's first answer takes some 0.3 s at rest; lowered after 0.9 s beside the earlier solve and
    # another test's worker, it found none within 2.5 s once: the race runs to 4.5 s (the stand-in
    # child gives up at 3.6 s), so that an answer is there however busy the machine.
    name, result = race(model, SolveOptions(time_limit=4.5), ("asp", "child"), after=0.6, yield_after=yield_after)
    watcher.join()
    earlier.join()
    assert (name, result.status) == ("asp", Status.FEASIBLE)
    idle_threads, solver_threads = seen.pop("idle")
    assert seen == {"solver": {lowered}, "started": base, "caller": base, "other": {base}}
    # clingo splits the search of a horse map between two threads: from the fork (0.6 s in, when
    # they run even on a busy machine) one keeps its share and the others run only on an idle core,
    # unless the search here never gives way.
    assert solver_threads >= 2
    assert idle_threads == (solver_threads - 1 if yield_after < 1 else 0)
    for bad in (-1, float("nan")):
        with pytest.raises(BackendError, match="auto.yield_after="):
            get_backend("auto").configure(SolveOptions(extra={"auto.yield_after": bad}))


def test_a_child_forked_mid_solve_proves_a_map_clingo_stalls_on():
    name = "daily-2026-08-22.txt"  # clingo: 5 s at rest; the MILP: 0.25 s
    model = daily(name)
    AutoBackend.load_library(model, SolveOptions())
    t0 = time.perf_counter()
    # Giving way after 1 s, as auto's races do by default: with the child at
    # clingo's priority, jobs running beside the test cannot starve it alone.
    winner, result = race(model, SolveOptions(time_limit=120), ("asp", "milp"), after=0.3, yield_after=1.0)
    assert (winner, result.status, result.objective) == ("milp", Status.OPTIMAL, known_optimum(entry(name)))
    assert time.perf_counter() - t0 < 60


def test_a_batch_worker_loads_cpsat_and_runs_it_alone():
    # A process that will solve many maps (a batch's warm-up: no model) loads CP-SAT's library,
    # and then rule 4 races nothing: the import it would save is paid.
    import subprocess
    import sys

    code = ("import sys; from gridlang.solving.auto import AutoBackend, cpsat_loaded; print(cpsat_loaded()); "
            "AutoBackend.load_library(); print(cpsat_loaded())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
    from gridlang.solving.auto import cpsat_loaded

    AutoBackend.load_library()
    assert cpsat_loaded() and AutoBackend.choose(daily("daily-2026-01-07.txt"), SolveOptions()) == ("cpsat",)


def test_cpsat_joins_clingo_on_a_puzzle_without_an_objective_that_clingo_finds_hard(tmp_path):
    # janko.at's Aqre 28 (tests/data/dataset): one room of 98 cells with the clue 75. clingo proved
    # nothing within 60 s; CP-SAT, joining after auto.join_after (0.25 s), proves it unique.
    from gridlang.batch.dataset import GENRES

    record = json.loads((REPO / "tests" / "data" / "dataset" / "aqre_28_10x10.json").read_text())
    kind = GENRES["aqre"]
    path = tmp_path / "aqre.txt"
    path.write_text(kind.to_map(record["problem"]))
    model, _ = load(REPO / "puzzles" / kind.spec, path)
    report = solve_model(model, "auto", SolveOptions(time_limit=60), unique=True)
    assert (report.result.stats["chosen"], report.result.stats["raced"]) == ("cpsat", "asp,cpsat")
    assert (report.result.status, len(report.solutions), report.complete) == (Status.OPTIMAL, 1, True)
    found = {divmod(i, model.grid.cols) for i in report.solution.true_cells("shaded")}
    assert len(found) == 75 and found == kind.answer(record["solution"])  # the clue: 75 shaded in the room


def test_each_solve_of_a_count_is_raced_on_the_same_question(tmp_path):
    # A 5x5 Star Battle of five row-rooms has 14 answers. With CP-SAT forked at once on every solve,
    # either side may answer each one: the blocking clauses reach both, so the answers are clingo's own.
    path = tmp_path / "rows.txt"
    path.write_text("stars: 1\n" + ".....\n" * 5 + "rooms:\n" + "".join(c * 5 + "\n" for c in "abcde"))
    model, _ = load(REPO / "puzzles" / "starbattle.grid", path)

    def answers(backend, extra):
        report = solve_model(model, backend, SolveOptions(time_limit=60, extra=extra), count=20)
        return report.complete, {tuple(s.true_cells("star")) for s in report.solutions}, report.result.stats

    alone = answers("asp", {})
    raced = answers("auto", {"auto.join_after": 0})
    assert (raced[0], len(raced[1])) == alone[:1] + (14,) and raced[1] == alone[1]
    assert raced[2]["raced"] == "asp,cpsat"
