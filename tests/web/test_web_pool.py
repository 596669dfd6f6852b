"""The server's worker pool: a stop reaches a job's deadline (its answer comes back), a cancelled
job stops, a full queue is refused with a Retry-After, and a worker that dies or will not stop
fails only its job and is replaced."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
import time

import pytest

from gridlang.core.errors import MapError
from gridlang.web import pool as pools
from gridlang.web.pool import Pool, QueueFull, TaskFailed, WorkerDied

# ------------------------------------------------------------ tasks run in the workers


def nap(ctx, seconds: float) -> dict:
    """Wait out a deadline of ``seconds`` (a stop ends it early), reporting progress."""
    deadline = ctx.deadline(seconds)
    ctx.progress(phase="napping")
    deadline.improved(7)
    while not deadline.expired():
        time.sleep(0.02)
    return {"stopped": deadline.interrupted, "pid": os.getpid()}


def hang(ctx, seconds: float) -> str:
    """Ignore every deadline (a solver that does not stop)."""
    time.sleep(seconds)
    return "woke"


def die(ctx) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def boom(ctx) -> None:
    raise ValueError("boom")


def bad_map(ctx) -> None:
    raise MapError("the map file is empty")


# ------------------------------------------------------------ the tests


def run(scenario, workers: int = 1, queue: int = 1):
    async def main():
        pool = Pool(workers, queue)
        await pool.start()
        try:
            return await asyncio.wait_for(scenario(pool), 60)
        finally:
            await pool.close()

    # A thread of its own: Playwright's synchronous API (the browser tests) keeps an event loop
    # running in the main thread for the rest of the session.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()


async def started(job, phase: str | None = None) -> None:
    """Wait until a worker runs the job (and has reported ``phase``)."""
    for _ in range(600):
        if job.started is not None and (phase is None or job.progress.get("phase") == phase):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the job did not start: {job.snapshot()}")


def test_stop_ends_the_search_and_keeps_the_answer():
    async def scenario(pool):
        job = pool.submit(nap, (30,), 30)
        await started(job, "napping")
        for _ in range(600):  # the phase and the best answer come in two messages
            if "best" in job.progress:
                break
            await asyncio.sleep(0.05)
        assert job.progress["best"] == 7  # what the deadline's listener reported
        t = time.monotonic()
        pool.stop(job)
        answer = await job.future
        return answer, time.monotonic() - t

    answer, seconds = run(scenario)
    assert answer["stopped"] is True
    assert seconds < 5  # the nap reads its deadline every 0.02 s


def test_a_full_queue_is_refused_with_retry_after_and_a_cancelled_job_stops():
    async def scenario(pool):
        first = pool.submit(nap, (30,), 30)
        second = pool.submit(nap, (30,), 30)
        with pytest.raises(QueueFull) as refused:
            pool.submit(nap, (30,), 30)
        assert refused.value.retry_after >= 1 and pool.status()["refused"] == 1
        await started(first, "napping")
        pid = None
        pool.cancel(second)  # waiting: dropped from the queue
        assert second.future.cancelled() and pool.status()["queued"] == 0
        pool.cancel(first)  # running: stopped, its answer discarded
        assert first.future.cancelled()
        third = pool.submit(nap, (0.1,), 5)
        answer = await third.future
        pid = answer["pid"]
        return pid, [w.process.pid for w in pool.workers]

    pid, workers = run(scenario)
    assert pid in workers  # the cancelled job ended by its deadline: the same worker went on


def test_a_job_that_does_not_stop_has_its_worker_killed_and_replaced(monkeypatch):
    monkeypatch.setattr(pools, "KILL_GRACE", 0.5)

    async def scenario(pool):
        before = pool.workers[0].process.pid
        job = pool.submit(hang, (60,), 0.5)
        with pytest.raises(WorkerDied, match="did not stop 0.5 s past its time limit of 0.5 s"):
            await job.future
        after = await pool.submit(nap, (0.1,), 5).future
        return before, after["pid"]

    before, after = run(scenario)
    assert before != after


def test_a_dead_worker_fails_its_job_only_and_errors_come_back_as_records():
    async def scenario(pool):
        with pytest.raises(WorkerDied, match="was killed by SIGKILL"):
            await pool.submit(die, (), 5).future
        after = await pool.submit(nap, (0.1,), 5).future
        with pytest.raises(TaskFailed) as bad:
            await pool.submit(bad_map, (), 5).future
        with pytest.raises(TaskFailed) as bug:
            await pool.submit(boom, (), 5).future
        return after, bad.value, bug.value

    after, bad, bug = run(scenario)
    assert after["stopped"] is False
    assert bad.status == 400 and bad.record["error"] == "error: the map file is empty"
    assert bug.record is None and "ValueError: boom" in str(bug) and "this is a bug" in str(bug)
