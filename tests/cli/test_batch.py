"""gridlang batch: many real maps, one verified JSON line each, resumable after kill -9, on a
process pool and on a two-worker Dask cluster; gridlang plot over the results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gridlang.batch import completed, run_batch
from gridlang.cli import main
from horse_data import HORSE_DATA, known_optimum, manifest

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "puzzles" / "horse.grid"
DAILIES = [HORSE_DATA / f"daily-2026-01-{d:02d}.txt" for d in (1, 2, 3, 6, 7, 8)]
OPTIMA = {e["file"]: known_optimum(e) for e in manifest()}


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


def test_the_same_batch_on_a_two_worker_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        summary = run_batch(SPEC, DAILIES[:4], out, backend="maxsat", client=client)
        assert summary.statuses == {"OPTIMAL": 4}
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
    from gridlang.plot import plot

    fig = plot([a, b], tmp_path / "cdf.png")
    cdf, size = fig.axes
    assert [line.get_label() for line in cdf.get_lines()] == ["maxsat: maxsat (3 of 3 solved)",
                                                               "cpsat: cpsat (3 of 3 solved)"]
    assert len(size.collections) == 2
    assert main(["plot", str(a), str(b), "-o", str(tmp_path / "cdf.svg")]) == 0
    assert (tmp_path / "cdf.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "cdf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
