"""What the page's board costs: ``POST /api/board``, the live check and ``POST /api/check`` on a real
``gridlang serve``, timed as the browser sees them (the request's round trip).

For each puzzle the board is drawn (``/api/board``: the map compiled and drawn, its URL written),
the live check runs as the page runs it after an edit (``/api/tools/forced`` with a time limit of
5 s: the answer, then the forced cells, which settle uniqueness), and an empty answer is checked
(``/api/check``). Each is run ``--repeat`` times in turn; the report gives the median and the most
seconds of each.

Usage::

    python benchmarks/board.py                  # the puzzles below, 7 times each
    python benchmarks/board.py --repeat 3 --workers 1
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIVE_SECONDS = 5

PUZZLES = [
    ("nurikabe 5x5 (pzprjs)", "nurikabe", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"),
    ("nurikabe 10x9 (Wikipedia)", "nurikabe", "nurikabe/wikipedia_10x9"),
    (
        "sudoku 9x9 (cspuz)",
        "sudoku",
        "https://puzz.link/p?sudoku/9/9/k8g1g7i2i99o2g3h75q19h5g4o83i4i6g4g5k",
    ),
    (
        "starbattle 6x6 (pzprjs)",
        "starbattle",
        "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou",
    ),
    (
        "akari 10x10 (cspuz)",
        "akari",
        "https://puzz.link/p?akari/10/10/hcscl.h.idn.i.cgcndg.h.ncs.h",
    ),
    (
        "masyu 10x10 (cspuz)",
        "masyu",
        "https://puzz.link/p?masyu/10/10/0600003i06b1300600000a30600i090330",
    ),
]
"""(label, bundled spec, a URL or a shipped instance's name)."""


def post(url: str, body: dict) -> tuple[float, int, dict]:
    """Seconds, HTTP status and JSON answer of one POST."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            data, status = response.read(), response.status
    except urllib.error.HTTPError as e:
        data, status = e.read(), e.code
    return time.perf_counter() - t0, status, json.loads(data)


def puzzle_text(source: str) -> str:
    """A URL as it is; a shipped instance's text."""
    if source.startswith("http"):
        return source
    return (REPO / "puzzles" / "instances" / f"{source}.txt").read_text(
        encoding="utf-8"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gridlang",
            "serve",
            "--port",
            "0",
            "--workers",
            str(args.workers),
            "--time-limit",
            "60",
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        base = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline()).group(0)
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        print(f"{'puzzle':28} {'request':8} {'median s':>9} {'max s':>7}  answer")
        for label, spec, source in PUZZLES:
            body = {"bundled": spec, "puzzle": puzzle_text(source)}
            runs: dict[str, list[float]] = {"board": [], "live": [], "check": []}
            said = {}
            for _ in range(args.repeat):
                seconds, status, board = post(base + "/api/board", body)
                runs["board"].append(seconds)
                said["board"] = f"{status} {board.get('rows')}x{board.get('cols')}"
                seconds, status, live = post(
                    base + "/api/tools/forced", {**body, "time_limit": LIVE_SECONDS}
                )
                runs["live"].append(seconds)
                j = live.get("json") or {}
                said["live"] = (
                    f"{status} {j.get('status')}, {len(j.get('open') or [])} open, "
                    f"forced complete {j.get('forced_complete')}"
                )
                seconds, status, judged = post(
                    base + "/api/check", {**body, "answer": {}}
                )
                runs["check"].append(seconds)
                said["check"] = (
                    f"{status} {(judged.get('text') or judged.get('error', '')).splitlines()[0][:40]}"
                )
            for name, times in runs.items():
                print(
                    f"{label:28} {name:8} {statistics.median(times):9.3f} {max(times):7.3f}  {said[name]}"
                )
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
