"""One deadline per command: time limits over every solve, Ctrl-C on every backend."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from timing import busy

from gridlang.batch.bench import hard_tail_map
from gridlang.core.deadline import Deadline, SolverAbandoned, run_solver
from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving.pipeline import solve

REPO = Path(__file__).resolve().parents[2]
HORSE = REPO / "puzzles" / "horse.grid"
WEEKLY_05 = REPO / "tests" / "data" / "horse" / "weekly-05.txt"
EGGS = REPO / "puzzles" / "snake_eggs.grid"
DERIVED_03 = REPO / "puzzles" / "instances" / "snake_eggs" / "derived" / "derived_tuzz_gallery_03_three.txt"
BACKENDS = ("cpsat", "milp", "maxsat", "asp")
# A setting per backend that the Ctrl-C test passes, as a user would.
SETTING = {"cpsat": "cpsat.num_workers=2", "milp": "milp.warmstart=true", "maxsat": "maxsat.algorithm=lsu",
           "asp": "asp.threads=1"}


def test_deadline_counts_down_and_stop_calls_the_hooks():
    d = Deadline(10.0)
    assert 9.0 < d.remaining() <= 10.0 and not d.expired()
    calls = []
    with d.on_stop(lambda: calls.append("solver")):
        d.stop()
    assert calls == ["solver"]
    assert d.expired() and d.remaining() == 0.0
    assert Deadline(None).remaining() is None


def test_a_slice_ends_first_of_its_own_limit_and_the_command_and_stops_with_it():
    d = Deadline(10.0)
    with d.slice(2.0) as part:
        assert 1.0 < part.remaining() <= 2.0
    with d.slice(60.0) as part:
        assert 9.0 < part.remaining() <= 10.0
        d.stop()  # Ctrl-C during the slice
        assert part.expired() and part.remaining() == 0.0
    with d.slice(5.0) as part:  # a slice of a stopped command is stopped from the start
        assert part.expired()
    with Deadline(None).slice(3.0) as part:
        assert 2.0 < part.remaining() <= 3.0


def test_the_cause_says_which_stop_ended_the_time():
    assert Deadline(0.0).cause() == "the time limit ran out"
    ctrl_c = Deadline(10.0)
    ctrl_c.stop()
    assert ctrl_c.cause() == "the search was stopped"
    watched = Deadline(10.0)
    with watched.slice(5.0) as part:
        watched.stop("memory limit")
        assert part.cause() == watched.cause() == "the memory limit was reached"


def test_a_solver_left_behind_is_reported_so_not_as_never_called():
    from tiny import cell_model, grid_of

    from gridlang.ir.connectivity.driver import lazy_solve
    from gridlang.ir.model import Objective, Sense

    class Stuck:  # an oracle whose solver ignored the stop, as RC2 on a 900-cell map did
        improving = False

        def __init__(self, ctrl_c: bool = False):
            self.ctrl_c = ctrl_c

        def solve(self, deadline, incumbent):
            if self.ctrl_c:
                deadline.stop()
            else:
                time.sleep(deadline.remaining())
            raise SolverAbandoned("the solver, which did not stop when asked, was left behind")

    model = cell_model(grid_of(1, 2), [], Objective(Sense.MAXIMIZE, ((1, 1), (1, 2))))
    out = lazy_solve(model, Stuck(), [], Deadline(0.2))
    assert out.status == "unknown" and out.stats["abandoned"] is True
    assert out.stats["reason"] == ("the time limit ran out, and the solver, which did not stop when asked, "
                                   "was left behind")
    out = lazy_solve(model, Stuck(ctrl_c=True), [], Deadline(5.0))
    assert out.stats["reason"] == ("the search was stopped, and the solver, which did not stop when asked, "
                                   "was left behind")


def test_run_solver_returns_the_value_and_raises_the_error():
    assert run_solver(Deadline(5.0), lambda: 42, lambda: None) == 42
    with pytest.raises(ZeroDivisionError):
        run_solver(Deadline(5.0), lambda: 1 // 0, lambda: None)


def test_a_solver_that_ignores_stop_is_abandoned_and_the_streams_come_back():
    """A call that neither ends nor stops is left behind past the deadline;
    the standard streams it redirected are put back."""
    release = threading.Event()
    saved = sys.stdout

    def stubborn():
        sys.stdout = open(os.devnull, "w")  # what Pyomo does to capture HiGHS
        release.wait(10)

    start = time.perf_counter()
    with pytest.raises(SolverAbandoned):
        run_solver(Deadline(0.2), stubborn, lambda: None)
    release.set()
    assert sys.stdout is saved
    assert time.perf_counter() - start < busy(1.5)  # the stubborn solver would hold on for 10 s


def test_a_solve_after_one_left_behind_waits_for_it_to_put_the_streams_back():
    """A HiGHS run left behind still holds Pyomo's capture of standard output; when it ends it puts
    back what it found. A solve started meanwhile, under its own capture, failed at its end
    ("Captured output ... does not match sys.stdout"); it now waits for the one left behind."""
    release = threading.Event()

    def captured(hold: threading.Event | None):
        def call():
            found = sys.stdout
            mine = sys.stdout = open(os.devnull, "w")  # what Pyomo's capture does
            try:
                if hold is not None:
                    hold.wait(10)
                else:
                    time.sleep(0.6)  # the one left behind ends meanwhile, unless waited for
                return sys.stdout is mine  # Pyomo raises when this is not so
            finally:
                sys.stdout = found
                mine.close()
        return call

    with pytest.raises(SolverAbandoned):
        run_solver(Deadline(0.1), captured(release), lambda: None)
    threading.Timer(0.3, release.set).start()  # it stops, a moment after the next call began
    assert run_solver(Deadline(busy(10.0)), captured(None), lambda: None) is True


def test_a_solver_that_honours_stop_returns_its_answer():
    stopped = threading.Event()
    d = Deadline(None)
    threading.Timer(0.2, d.stop).start()
    assert run_solver(d, lambda: stopped.wait(10) and "stopped", stopped.set) == "stopped"


@pytest.mark.parametrize("backend", BACKENDS)
def test_unique_within_the_limit_on_every_backend(backend):
    """--unique on derived Snake Eggs 03 with 2 s: the second solve gets what
    the first left, and the whole run ends near the limit. MILP finds no
    answer in that time (UNKNOWN); CP-SAT, MaxSAT and ASP prove uniqueness."""
    limit = 2.0
    start = time.perf_counter()
    report = solve(EGGS, DERIVED_03, backend=backend, options=SolveOptions(time_limit=limit), unique=True)
    elapsed = time.perf_counter() - start
    assert elapsed < busy(limit + 1.5)  # the limit, the abandon grace, the start-up imports
    if report.result.status is Status.OPTIMAL:
        assert report.unique in (True, None)
    else:
        assert report.result.status is Status.UNKNOWN and report.unique is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_prints_the_best_answer_so_far_and_exits_130(backend, tmp_path):
    """weekly-05 takes the MILP, MaxSAT and clingo several seconds, and the
    near-empty 30x30 map of budget 40 (optimum 252) takes CP-SAT 25 s; SIGINT after 2.5 s."""
    if backend == "cpsat":
        puzzle, budget, best = tmp_path / "tail.txt", "40", 252
        puzzle.write_text(hard_tail_map(40))
    else:
        puzzle, budget, best = WEEKLY_05, "16", 169
    proc = subprocess.Popen(
        [sys.executable, "-m", "gridlang", "solve", str(HORSE), "--map", str(puzzle), "--budget", budget,
         "--backend", backend, "--json", "--set", SETTING[backend]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO.parent)
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    if proc.returncode == 0:
        pytest.skip(f"{backend} proved the map before the signal")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    answer = json.loads(out)
    assert answer["status"] in ("FEASIBLE", "UNKNOWN")
    if answer["status"] == "FEASIBLE":
        assert answer["verified"] is True and answer["verified_score"] == answer["objective"] <= best


def test_maxsat_keeps_pysat_from_handling_ctrl_c_itself(monkeypatch):
    # From the main thread PySAT meets SIGINT with a longjmp out of its C++
    # code (freeing that solver later aborted the process); the maxsat
    # backend tells it it is never in the main thread, so gridlang's own
    # handler (catch_interrupt) is the only one.
    from pysat._utils import MainThread

    monkeypatch.setattr(MainThread, "check", staticmethod(lambda: True))  # as PySAT has it in the main thread
    report = solve(HORSE, REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt", {"budget": "12"},
                   backend="maxsat", options=SolveOptions(time_limit=60))
    assert report.result.status is Status.OPTIMAL and report.result.objective == 66
    assert threading.current_thread() is threading.main_thread()
    assert MainThread.check() is False


def test_a_deadline_ahead_tells_the_same_listener_of_better_answers():
    """The search runs under ``ahead(...)`` (it keeps back the time to check its answer): its better
    answers must still reach the command's listener (``gridlang serve``'s "best so far")."""
    heard = []
    d = Deadline(10.0)
    d.listener = heard.append
    d.ahead(1.0).improved(7)
    with d.slice(1.0) as part:
        part.improved(8)
    assert heard == [7, 8]


def test_clingo_tells_the_listener_of_each_better_answer():
    """clingo's better models reach the command's listener as they are found (``gridlang serve``'s
    "best so far" on the asp backend), ending at the optimum."""
    heard = []
    d = Deadline(60.0)
    d.listener = heard.append
    report = solve(HORSE, REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt", {"budget": "12"},
                   backend="asp", options=SolveOptions(deadline=d))
    assert report.result.status is Status.OPTIMAL and report.result.objective == 66
    assert heard[-1] == 66 and heard == sorted(heard)
    assert len(set(heard)) >= 2, heard  # the answers before the optimum too, not the round's last alone
