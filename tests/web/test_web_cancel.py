"""A request the client gives up stops its solve on the real server: a ``POST /api/solve`` whose
connection closes, and a page's job whose progress stream closes. And ``gridlang serve``'s own
arguments are refused in one line."""

from __future__ import annotations

import socket
import time

import pytest

httpx = pytest.importorskip("httpx", reason="these tests need httpx: pip install '.[test]'")

from gridlang.batch.bench import hard_tail_map  # noqa: E402
from gridlang.cli import main  # noqa: E402

LONG = {"bundled": "horse", "puzzle": hard_tail_map(40, 30), "params": {"budget": 40}, "time_limit": 60}
"""A solve that runs to its 60 s limit unless stopped (a near-empty 30 x 30 map)."""

FREED = 15.0
"""Seconds within which a dropped solve must have left its worker (it stops within a second or
two; the pool kills a worker 5 s after a stop it ignores)."""


def idle_within(server, seconds: float) -> dict:
    """The server's health once no worker is busy; fails after ``seconds``."""
    until = time.monotonic() + seconds
    while True:
        health = server.get("/api/health")
        if health["running"] == 0 and health["queued"] == 0:
            return health
        assert time.monotonic() < until, f"the dropped solve still runs: {health}"
        time.sleep(0.1)


def busy_within(server, seconds: float = 30.0) -> None:
    until = time.monotonic() + seconds
    while server.get("/api/health")["running"] == 0:
        assert time.monotonic() < until, "the solve never started"
        time.sleep(0.05)


def test_a_solve_whose_client_goes_away_is_stopped(server):
    idle_within(server, 60)
    before = server.get("/api/health")
    with httpx.Client(base_url=server.url, timeout=httpx.Timeout(60, read=3)) as client:
        with pytest.raises(httpx.ReadTimeout):
            client.post("/api/solve", json=LONG)
    t = time.monotonic()
    after = idle_within(server, FREED)
    assert after["served"] == before["served"]  # dropped, not answered
    assert time.monotonic() - t < FREED


def test_a_page_job_whose_stream_closes_is_stopped(server):
    idle_within(server, 60)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        job = client.post("/api/jobs", json=LONG)
        assert job.status_code == 202
        with client.stream("GET", job.json()["events"]) as events:
            lines = events.iter_lines()
            assert next(lines) == "event: progress"
        busy_within(server)
    idle_within(server, FREED)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        gone = client.post(f"/api/jobs/{job.json()['id']}/stop")
        assert gone.status_code in (202, 404)


def test_serve_refuses_bad_arguments_in_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}: ") and len(err.splitlines()) == 1
    for argv, words in ((["serve", "--port", "70000"], "give a whole number from 0 to 65,535, not 70000"),
                        (["serve", "--workers", "0"], "give a whole number from 1 to 256"),
                        (["serve", "--queue", "-1"], "give a whole number from 0 to 10,000"),
                        (["serve", "--time-limit", "0"], "give a number of seconds more than 0")):
        with pytest.raises(SystemExit) as exit:
            main(argv)
        assert exit.value.code == 1
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, err
