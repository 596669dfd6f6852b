"""Load on a real ``gridlang serve`` with 2 workers and a queue of 4: 40 dailies sent at once (``-m slow``;
8, the smallest, by default). Every
request is answered, or refused with 503 and a Retry-After and answered on a retry; none is lost;
each answer is verified and scores the game's published optimum, checked again here by the spec's
own rules; and the page keeps answering meanwhile.

``pytest -s -m slow tests/web/test_web_load.py`` prints the figures (requests, concurrency, median
and max seconds, refusals, the page's slowest answer). It takes about two minutes on the 2-core
machine while other jobs load it, hence ``slow``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import time

import pytest

httpx = pytest.importorskip("httpx", reason="the load test needs httpx: pip install '.[test]'")

from horse_data import HORSE_DATA, cases, known_optimum  # noqa: E402

import gridlang  # noqa: E402

REQUESTS = 40
"""Dailies sent at once (``-m slow``)."""

FEW = 8
"""Dailies sent by default: more than the 2 workers and the queue of 4 hold, so some are refused. As many
as the server has workers go first, and the rest once the server runs them all, so that the rest find
every worker busy whatever the machine's speed."""

SLOW = ("daily-2026-01-05.txt", "daily-2026-01-13.txt")
"""Two dailies CP-SAT takes about half a second each on at rest: the first requests of the default run.
The smallest dailies take some 25 ms, and sent first they could leave a worker free before the rest
arrived (a run saw no refusal at all)."""

PAGE_SECONDS = 5.0
"""The most the page or the health check may take to answer while the workers are busy (they answer
in milliseconds; the margin covers a machine shared with other jobs)."""


def dailies(count: int) -> list[dict]:
    """``count`` dailies: the first by date for the full load, else :data:`SLOW`, then the smallest."""
    every = [e for e in cases("standard") if e["kind"] == "daily"]
    if count < REQUESTS:
        every.sort(key=lambda e: (e["file"] not in SLOW, e["width"] * e["height"], e["file"]))
    return every[:count]


async def load(url: str, entries: list[dict], workers: int) -> tuple[list, list[float]]:
    page_seconds: list[float] = []
    done = asyncio.Event()
    limits = httpx.Limits(max_connections=len(entries) + 4, max_keepalive_connections=len(entries) + 4)
    async with httpx.AsyncClient(base_url=url, timeout=180, limits=limits) as client:

        async def solve(entry: dict):
            body = {"bundled": "horse", "puzzle": (HORSE_DATA / entry["file"]).read_text(encoding="utf-8"),
                    "params": {"budget": entry["budget"]}, "time_limit": 60}
            start, refused = time.monotonic(), 0
            while True:
                response = await client.post("/api/solve", json=body)
                if response.status_code != 503:
                    break
                refused += 1
                await asyncio.sleep(int(response.headers["retry-after"]))
            return entry, response, time.monotonic() - start, refused

        async def browse() -> None:
            while not done.is_set():
                start = time.monotonic()
                page = await client.get("/")
                health = await client.get("/api/health")
                assert page.status_code == health.status_code == 200
                page_seconds.append(time.monotonic() - start)
                await asyncio.sleep(0.25)

        async def all_busy() -> None:
            for _ in range(3000):  # 30 s at most
                if (await client.get("/api/health")).json()["running"] >= workers:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"the server never ran {workers} requests at once within 30 s")

        watcher = asyncio.ensure_future(browse())
        try:
            first = [asyncio.ensure_future(solve(e)) for e in entries[:workers]]
            await all_busy()
            results = await asyncio.gather(*first, *(solve(e) for e in entries[workers:]))
        finally:
            done.set()
            await watcher
    return results, page_seconds


@pytest.mark.parametrize("count", [FEW, pytest.param(REQUESTS, marks=pytest.mark.slow)])
def test_dailies_at_once_are_all_answered_and_verified(server, count):
    entries = dailies(count)
    assert len(entries) == count
    before = server.get("/api/health")
    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # the main thread may hold Playwright's loop
        results, page_seconds = thread.submit(asyncio.run, load(server.url, entries, before["workers"])).result()
    spec = gridlang.bundled("horse")
    assert sorted(e["file"] for e, *_ in results) == sorted(e["file"] for e in entries)  # none lost
    for entry, response, _, _ in results:
        assert response.status_code == 200, (entry["file"], response.text)
        record = response.json()
        optimum = known_optimum(entry)
        assert (record["status"], record["verified"], record["objective"], record["verified_score"]) == \
            ("OPTIMAL", True, optimum, optimum), entry["file"]
        walls = {tuple(cell): True for cell in record["horse"]["walls"]}
        verdict = gridlang.verify(spec, HORSE_DATA / entry["file"], {"wall": walls},
                                  params={"budget": entry["budget"]})
        assert verdict.ok and verdict.objective == optimum, entry["file"]
    seconds = [s for *_, s, _ in results]
    refusals = sum(r for *_, r in results)
    after = server.get("/api/health")
    assert after["served"] - before["served"] == count
    assert after["refused"] - before["refused"] == refusals
    assert page_seconds and max(page_seconds) < PAGE_SECONDS
    # The rest arrive with every worker busy: what the queue cannot hold is refused at least once.
    assert (before["workers"], before["queue"]) == (2, 4)  # the server of tests/web/conftest.py
    assert refusals >= count - before["workers"] - before["queue"] > 0
    print(f"\n{count} requests at once, 2 workers, a queue of 4: median {statistics.median(seconds):.2f} s, "
          f"max {max(seconds):.2f} s from first try to answer; {refusals} refusals (503) across "
          f"{sum(1 for *_, r in results if r)} requests, each answered on a retry; the page answered "
          f"{len(page_seconds)} times meanwhile, in {max(page_seconds):.3f} s at most")
