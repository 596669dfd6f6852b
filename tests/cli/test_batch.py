"""gridlang batch: many real maps, one verified JSON line each, resumable after kill -9, on a
process pool and on a two-worker Dask cluster; gridlang plot over the results.

The batches that are stopped here are real subprocesses sent real signals:
SIGINT to the whole process group (what a terminal's Ctrl-C does), SIGKILL
to the batch alone or to one of its workers (what the out-of-memory killer
does); psutil then says which of its processes are left.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from horse_data import HORSE_DATA, known_optimum, manifest

from gridlang.batch.bench import hard_tail_map
from gridlang.batch.run import completed, run_batch
from gridlang.cli import main
from gridlang.core.workers import core_count

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "puzzles" / "horse.grid"
DAILIES = [HORSE_DATA / f"daily-2026-01-{d:02d}.txt" for d in (1, 2, 3, 6, 7, 8)]
OPTIMA = {e["file"]: known_optimum(e) for e in manifest()}
QUICK = [DAILIES[1], DAILIES[4]]  # the two solved fastest here on maxsat (0.3 and 1.6 s)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_optimal(records: list[dict], maps: list[Path]) -> None:
    assert sorted(r["map"] for r in records) == sorted(str(m) for m in maps)
    for r in records:
        assert r["status"] == "OPTIMAL" and r["verified"] is True, r
        assert r["objective"] == OPTIMA[Path(r["map"]).name]
        assert r["host"] and r["size"][0] * r["size"][1] > 0


def test_batch_on_a_pool_reaches_every_known_optimum_and_resumes(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code = main(["batch", str(SPEC), *map(str, DAILIES[:4]), "--out", str(out), "--backend", "maxsat",
                 "--workers", "2"])
    assert code == 0
    assert "4 maps (0 done before): 4 OPTIMAL" in capsys.readouterr().out
    check_optimal(lines(out), DAILIES[:4])
    first = out.read_text()
    # A torn line (a batch killed mid-write) is dropped and its map solved again.
    with out.open("a") as f:
        f.write('{"map": "' + str(DAILIES[4]))
    summary = run_batch(SPEC, DAILIES[:5], out, backend="maxsat", workers=1)
    assert (summary.total, summary.skipped, summary.statuses) == (5, 4, {"OPTIMAL": 5})
    assert out.read_text().startswith(first)
    check_optimal(lines(out), DAILIES[:5])


@pytest.mark.parametrize("workers", [None, 1], ids=["default", "one-process"])
def test_the_cores_are_shared_among_the_workers(tmp_path, workers):
    # A batch is judged by its throughput: by default a process per core, each
    # CP-SAT solve with one worker; a single process gets them all.
    out = tmp_path / "r.jsonl"
    run_batch(SPEC, DAILIES[:2], out, backend="cpsat", workers=workers)
    cores = core_count()
    processes = min(cores, 2) if workers is None else workers
    records = lines(out)
    check_optimal(records, DAILIES[:2])
    assert [r["stats"]["workers"] for r in records] == [cores // processes] * 2
    assert len({r["pid"] for r in records}) <= processes


@pytest.mark.parametrize("settings,threads", [(None, 1), ({"asp.parallel": "split"}, 2)], ids=["default", "given"])
def test_clingo_keeps_to_one_thread_a_map_in_a_batch_unless_told(tmp_path, settings, threads):
    # A one-off solve of a daily splits clingo's search between two threads; a batch's workers, one
    # per core, solve with the backend's batch_settings (one thread), unless the batch is given others.
    out = tmp_path / "r.jsonl"
    run_batch(SPEC, DAILIES[:2], out, backend="asp", workers=1, settings=settings)
    records = lines(out)
    check_optimal(records, DAILIES[:2])
    assert [r["stats"]["threads"] for r in records] == [threads] * 2


@pytest.mark.parametrize("backend,shared", [("cpsat", True), ("auto", True), ("milp", True), ("asp", False),
                                            ("maxsat", False)])
def test_only_solvers_whose_threads_are_a_share_get_one(tmp_path, monkeypatch, backend, shared):
    # clingo's thread count picks its search (two threads: a portfolio, faster on costly
    # walls even two processes at once), so it keeps its own; MaxSAT has one thread.
    import gridlang.batch.run

    given = []

    def run_local(tasks, workers, stop):  # the pool, not started: the tasks it is given
        given.extend(tasks)
        yield from ()

    monkeypatch.setattr(gridlang.batch.run, "_run_local", run_local)
    run_batch(SPEC, DAILIES[:3], tmp_path / "r.jsonl", backend=backend, workers=1)
    assert [t.threads for t in given] == [core_count() if shared else None] * 3


def test_completed_drops_broken_lines(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text('{"map": "a", "status": "OPTIMAL"}\n[1, 2]\n{"map": "b"}\n{"map": "c"')
    assert sorted(completed(out)) == ["a", "b"]
    assert out.read_text() == '{"map": "a", "status": "OPTIMAL"}\n{"map": "b"}\n'


def test_kill_9_mid_batch_then_rerun_completes_without_redoing(tmp_path):
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "gridlang", "batch", str(SPEC), *map(str, DAILIES), "--out", str(out),
           "--backend", "maxsat", "--workers", "1"]
    # Outside the checkout, whose gridlang/ would shadow the installed package.
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            cwd=tmp_path)
    deadline = time.time() + 120
    while time.time() < deadline and (not out.exists() or out.read_text().count("\n") < 2):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = completed(out)
    assert 2 <= len(before) < len(DAILIES)
    with out.open("ab") as f:
        f.write(b'{"puzzle": "enclose.horse", "map": "')  # what a kill mid-write leaves
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({len(before)} done before)" in rerun.stdout
    records = lines(out)
    check_optimal(records, DAILIES)
    for r in records:
        if r["map"] in before:
            assert r == before[r["map"]]


def test_the_same_batch_on_a_two_worker_dask_cluster(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster:
        assert main(["batch", str(SPEC), *map(str, DAILIES[:4]), "--out", str(out), "--backend", "maxsat",
                     "--scheduler", cluster.scheduler_address]) == 0
        assert "4 maps (0 done before): 4 OPTIMAL" in capsys.readouterr().out
    records = lines(out)
    check_optimal(records, DAILIES[:4])
    assert len({r["pid"] for r in records}) >= 1


def test_a_bad_map_gets_its_error_in_its_line_and_the_batch_goes_on(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("budget: 3\n~~~\n~HX\n~~~\n")
    out = tmp_path / "r.jsonl"
    code = main(["batch", str(SPEC), str(bad), str(DAILIES[0]), "--out", str(out), "--backend", "maxsat"])
    assert code == 1
    by_map = {r["map"]: r for r in lines(out)}
    assert by_map[str(bad)]["status"] == "ERROR"
    assert f"{bad}:3:3: error:" in by_map[str(bad)]["error"]
    assert by_map[str(DAILIES[0])]["objective"] == OPTIMA[DAILIES[0].name]
    assert "2 maps (0 done before): 1 ERROR, 1 OPTIMAL" in capsys.readouterr().out


def test_plot_draws_one_series_per_backend(tmp_path, capsys):
    a, b = tmp_path / "maxsat.jsonl", tmp_path / "cpsat.jsonl"
    run_batch(SPEC, DAILIES[:3], a, backend="maxsat")
    run_batch(SPEC, DAILIES[:3], b, backend="cpsat")
    from gridlang.pictures.plot import plot

    fig = plot([a, b], tmp_path / "cdf.png")
    cdf, size = fig.axes
    assert [line.get_label() for line in cdf.get_lines()] == ["maxsat: maxsat (3 of 3 solved)",
                                                               "cpsat: cpsat (3 of 3 solved)"]
    assert len(size.collections) == 2
    assert main(["plot", str(a), str(b), "-o", str(tmp_path / "cdf.svg")]) == 0
    assert (tmp_path / "cdf.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "cdf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ stopping, killing, dying

def hard_maps(folder: Path, budgets: tuple[int, ...] = (30, 35)) -> list[Path]:
    """Near-empty 30x30 maps (the benchmark's hard tail): no backend proves them within a minute here."""
    out = []
    for b in budgets:
        path = folder / f"near-empty-{b}.txt"
        path.write_text(f"budget: {b}\n" + hard_tail_map(b))
        out.append(path)
    return out


def start(tmp_path: Path, maps: list[Path], out: Path, *flags: str) -> subprocess.Popen:
    """A batch in its own process group (outside the checkout, whose gridlang/ would shadow the installed one)."""
    cmd = [sys.executable, "-m", "gridlang", "batch", str(SPEC), *map(str, maps), "--out", str(out), *flags]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=tmp_path)


@contextlib.contextmanager
def reaped(proc: subprocess.Popen):
    """Whatever the test finds, no process of the batch's group outlives it."""
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=10)


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def line_count(out: Path) -> int:
    return out.read_text().count("\n") if out.exists() else 0


def family(pid: int) -> list[psutil.Process]:
    """The batch's processes: its workers, their solver children, multiprocessing's resource tracker."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def workers(pid: int) -> list[psutil.Process]:
    out = []
    for p in family(pid):
        with contextlib.suppress(psutil.Error):
            if p.ppid() == pid and "--multiprocessing-fork" in p.cmdline():
                out.append(p)
    return out


def test_ctrl_c_stops_the_workers_at_once_and_keeps_every_finished_answer(tmp_path):
    out = tmp_path / "r.jsonl"
    proc = start(tmp_path, [QUICK[0], *hard_maps(tmp_path)], out, "--backend", "maxsat", "--workers", "2",
                 "--time-limit", "60")
    with reaped(proc):
        wait_for(lambda: line_count(out) >= 1 or proc.poll() is not None, 120, "the daily")
        time.sleep(0.5)  # both workers are on a near-empty map, a minute from its end
        processes = family(proc.pid)
        before = out.read_text()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        sent = time.monotonic()
        stdout, stderr = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    assert proc.returncode == 130, stderr
    assert took < 5, took  # 2 s asked for: with room for a second busy process on the machine
    assert out.read_text() == before  # the maps stopped midway wrote nothing
    check_optimal(lines(out), QUICK[:1])
    assert "3 maps (0 done before): 1 OPTIMAL, 2 not solved (stopped)" in stdout
    assert stderr.strip().endswith("interrupted")
    assert len(processes) >= 3  # two workers and the resource tracker, all gone now
    assert not psutil.wait_procs(processes, timeout=5)[1]


@pytest.mark.parametrize("flags, children", [([], 0), (["--set", "maxsat.algorithm=rc2"], 2)],
                         ids=["workers", "workers-and-their-rc2-children"])
def test_kill_9_of_a_batch_leaves_no_process_behind(tmp_path, flags, children):
    out = tmp_path / "r.jsonl"
    proc = start(tmp_path, hard_maps(tmp_path), out, "--backend", "maxsat", "--workers", "2", "--time-limit", "60",
                 *flags)
    with reaped(proc):
        waited = time.monotonic() + 120
        while len(processes := family(proc.pid)) < 3 + children and proc.poll() is None:
            assert time.monotonic() < waited, "waited 120 s for the workers (and their RC2 children)"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # the batch alone: its workers are left to notice
        proc.wait()
        alive = psutil.wait_procs(processes, timeout=5)[1]
    assert len(processes) >= 3 + children  # two workers, the resource tracker (and a solver child each)
    assert not alive, [" ".join(p.cmdline())[-80:] for p in alive]


def test_a_dead_worker_costs_only_its_map_which_is_tried_again_then_recorded_and_resumed(tmp_path):
    out = tmp_path / "r.jsonl"
    [hard] = hard_maps(tmp_path, (30,))
    flags = ("--backend", "maxsat", "--workers", "1")
    proc = start(tmp_path, [hard, *QUICK], out, *flags, "--time-limit", "60")
    killed: list[int] = []
    with reaped(proc):
        for _ in range(2):  # the worker given the map, then the fresh one that tries it again
            wait_for(lambda: [w for w in workers(proc.pid) if w.pid not in killed] or proc.poll() is not None, 60,
                     "a worker")
            assert proc.poll() is None, proc.communicate()
            [worker] = [w for w in workers(proc.pid) if w.pid not in killed]
            time.sleep(1)
            worker.kill()  # SIGKILL, as the kernel's out-of-memory killer sends
            killed.append(worker.pid)
        stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1, stderr
    by_map = {r["map"]: r for r in lines(out)}
    died = by_map[str(hard)]
    assert (died["status"], died["attempts"], died["pid"], died["backend"]) == ("ERROR", 2, killed[1], "maxsat")
    assert died["worker_died"]["signal"] == "SIGKILL" and died["worker_died"]["exit_code"] is None
    assert died["error"].startswith("error: the worker solving this map was killed by SIGKILL")
    assert "so was the fresh worker that tried it again" in died["error"]
    check_optimal([by_map[str(m)] for m in QUICK], QUICK)  # the other maps went on
    assert "3 maps (0 done before): 1 ERROR, 2 OPTIMAL" in stdout
    # A rerun gives that map to a worker again, and only that map.
    rerun = subprocess.run([sys.executable, "-m", "gridlang", "batch", str(SPEC), str(hard), *map(str, QUICK),
                            "--out", str(out), *flags, "--time-limit", "1"], capture_output=True, text=True,
                           timeout=120, cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert "3 maps (2 done before)" in rerun.stdout
    records = lines(out)
    assert [r["map"] for r in records] == [*map(str, QUICK), str(hard)]
    assert records[-1]["status"] in ("FEASIBLE", "UNKNOWN") and "worker_died" not in records[-1]


def test_the_pool_reports_what_a_task_raised_and_how_a_worker_ended():
    from gridlang.core.workers import Died, Done, Raised, run_pool

    done, raised = run_pool(["[1]", "{"], 1, json.loads)  # one worker: in order
    assert isinstance(done, Done) and done.value == [1] and done.attempts == 1
    assert isinstance(raised, Raised) and raised.error.startswith("JSONDecodeError: ") and raised.pid
    [died] = run_pool([3], 2, os._exit)  # the task ends its worker, then the fresh one
    assert isinstance(died, Died) and [(d.signal, d.exit_code) for d in died.deaths] == [(None, 3), (None, 3)]
    assert died.deaths[0].text() == "exited with status 3" and died.deaths[0].pid != died.deaths[1].pid


def test_a_second_batch_on_the_same_results_file_is_refused(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    proc = start(tmp_path, hard_maps(tmp_path, (30,)), out, "--backend", "maxsat", "--time-limit", "60")
    with reaped(proc):
        wait_for(lambda: workers(proc.pid) or proc.poll() is not None, 60, "the first batch's worker")
        code = main(["batch", str(SPEC), str(DAILIES[0]), "--out", str(out), "--backend", "maxsat"])
        assert (code, capsys.readouterr().err) == (1, f"error: {out} is being written by another batch (pid "
                                                      f"{proc.pid}); wait for it to end, or give --out another file\n")
        assert out.read_text() == ""
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["near-empty-30.txt", "r.jsonl"]  # the lock file went too


def test_outputs_never_overwrite_an_input(tmp_path, capsys):
    folder = tmp_path / "maps"
    folder.mkdir()
    daily = folder / DAILIES[0].name
    daily.write_text(DAILIES[0].read_text())
    record = folder / "level.json"  # a map as the game's JSON record: one line, an object with a "map"
    record.write_text(json.dumps({"map": DAILIES[1].read_text(), "budget": 9}))
    manifest_file = folder / "manifest.json"
    manifest_file.write_text(json.dumps([{"file": daily.name, "budget": 10}], indent=1))
    spec = tmp_path / "horse.grid"
    spec.write_text(SPEC.read_text())
    for target, what in ((spec, "the spec"), (record, "a map"), (manifest_file, "the manifest of the maps")):
        before = target.read_bytes()
        assert main(["batch", str(spec), str(folder), "--out", str(target), "--backend", "maxsat"]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: --out {target} is {what}") and "would destroy an input of 'gridlang batch'" in err
        assert target.read_bytes() == before
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"map": str(daily), "backend": "maxsat", "status": "ERROR", "verified": False})
                       + "\n")
    before = results.read_bytes()
    assert main(["plot", str(results), "-o", str(results)]) == 1
    assert capsys.readouterr().err.startswith(f"error: --output {results} is a results file: writing it would destroy")
    assert main(["plot", str(results), "-o", str(tmp_path / "figure.jsonl")]) == 1
    assert "a figure is written as .png, .svg or .pdf" in capsys.readouterr().err
    assert results.read_bytes() == before and not (tmp_path / "figure.jsonl").exists()


@pytest.mark.parametrize("address, why", [
    ("garbage", "the address names no port"),
    ("tcp://[::1", "not an address of the form tcp://HOST:PORT"),
    ("http://127.0.0.1:8786", "over tcp:// only (tcp://HOST:8786), not http://"),
    ("tcp://", "the address names no host and no port"),
    ("inproc://x", "over tcp:// only (tcp://HOST:8786), not inproc://"),
    ("ucx://127.0.0.1:8786", "over tcp:// only (tcp://HOST:8786), not ucx://"),
    ("tcp://127.0.0.1:99999", "the port '99999' is not a number from 1 to 65535"),
])
def test_a_bad_scheduler_address_gets_one_line_at_once(tmp_path, capsys, address, why):
    began = time.monotonic()
    code = main(["batch", str(SPEC), str(DAILIES[0]), "--out", str(tmp_path / "r.jsonl"), "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 1 and time.monotonic() - began < 2
    assert err.startswith(f"error: --scheduler {address}: ") and why in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.jsonl").exists()


def test_a_scheduler_port_where_nothing_listens_is_reported_within_seconds(tmp_path, capsys):
    with socket.socket() as s:  # a port that was free a moment ago and that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    code = main(["batch", str(SPEC), str(DAILIES[0]), "--out", str(tmp_path / "r.jsonl"),
                 "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert code == 1 and time.monotonic() - began < 10
    assert capsys.readouterr().err == (f"error: --scheduler tcp://127.0.0.1:{port}: cannot reach a Dask scheduler "
                                       "there: connection refused\n")


def test_a_listener_that_is_no_dask_scheduler_is_given_up_in_time():
    from gridlang.batch.run import connect
    from gridlang.core.errors import BackendError

    with socket.socket() as silent:  # accepts connections, answers nothing
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        address = "tcp://127.0.0.1:%d" % silent.getsockname()[1]
        began = time.monotonic()
        with pytest.raises(BackendError) as caught:
            connect(address, timeout=1.0)
        assert time.monotonic() - began < 5
    assert caught.value.render() == (f"error: --scheduler {address}: something listens there, but no Dask scheduler "
                                     "answered within 2 s")


def test_plot_counts_the_maps_that_ended_in_an_error(tmp_path):
    bad = []
    for k in range(2):
        bad.append(tmp_path / f"bad{k}.txt")
        bad[-1].write_text("budget: 3\n~~~\n~HX\n~~~\n")
    out = tmp_path / "r.jsonl"
    summary = run_batch(SPEC, [*bad, *DAILIES[:2]], out, backend="maxsat", workers=1)
    assert summary.statuses == {"ERROR": 2, "OPTIMAL": 2}
    from gridlang.pictures.plot import plot

    [line] = plot([out], tmp_path / "cdf.png").axes[0].get_lines()
    assert line.get_label() == "maxsat (2 of 4 solved; 2 errors)"
    assert max(line.get_ydata()) == 0.5
    # The ERROR lines of earlier versions had no backend: they join the file's one backend.
    out.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "backend" or r["status"] != "ERROR"})
                           + "\n" for r in lines(out)))
    [line] = plot([out], tmp_path / "cdf.png").axes[0].get_lines()
    assert line.get_label() == "maxsat (2 of 4 solved; 2 errors)"


def test_a_batch_skips_maps_for_other_rules_with_one_line(tmp_path, capsys):
    folder = tmp_path / "maps"
    folder.mkdir()
    for m in DAILIES[:2]:
        (folder / m.name).write_text(m.read_text())
    costly = REPO / "puzzles" / "maps" / "bonus-2026-03-26-costlywalls.txt"  # says so in its header
    (folder / costly.name).write_text(costly.read_text())
    lovebirds = HORSE_DATA / "bonus-2026-03-17-lovebirds.txt"  # its header dropped: the manifest says so
    (folder / lovebirds.name).write_text(lovebirds.read_text().split("\n", 1)[1])
    records = [e for e in manifest() if e["file"] in {m.name for m in DAILIES[:2]} | {lovebirds.name}]
    (folder / "manifest.json").write_text(json.dumps(records))
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(SPEC), str(folder), "--out", str(out), "--backend", "maxsat"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("skipped 2 maps written for other rules than the spec's: 1 costlywalls "
                            f"({REPO / 'puzzles' / 'horse_costlywalls.grid'}), 1 lovebirds "
                            f"({REPO / 'puzzles' / 'horse_lovebirds.grid'}); run each with its spec\n")
    assert "2 maps (0 done before): 2 OPTIMAL" in captured.out
    check_optimal(lines(out), [folder / m.name for m in DAILIES[:2]])


def test_ctrl_c_stops_generate_on_the_pool_with_every_printed_puzzle_whole(tmp_path):
    # generate --count on the batch's pool: four 10x10 Nurikabe, several seconds each
    proc = subprocess.Popen([sys.executable, "-m", "gridlang", "generate", "nurikabe", "--size", "10x10", "--count",
                             "4", "--workers", "2", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, start_new_session=True)
    with reaped(proc):
        wait_for(lambda: len(workers(proc.pid)) == 2 or proc.poll() is not None, 120, "the two workers")
        time.sleep(1.0)
        processes = family(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        sent = time.monotonic()
        stdout, stderr = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    assert proc.returncode == 130, stderr
    assert took < 5, took
    made = [json.loads(line) for line in stdout.splitlines()]  # every line a whole puzzle
    assert stderr.endswith(f"interrupted after {len(made)} of 4 puzzles\n") and "Traceback" not in stderr
    assert len(processes) >= 2 and not psutil.wait_procs(processes, timeout=5)[1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_among_the_maps_is_refused_at_once_not_waited_for(tmp_path, capsys):
    """Its header was read in the parent before any map was solved, and the
    read waited for a writer: the batch stalled with nothing written."""
    fifo = tmp_path / "b.txt"
    os.mkfifo(fifo)
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    code = main(["batch", str(SPEC), str(DAILIES[1]), str(fifo), "--out", str(out)])
    assert time.monotonic() - started < 60
    assert code == 1 and not out.exists()
    assert capsys.readouterr().err.startswith(f"{fifo}:1:1: error: not a regular file (a named pipe or a device)")
