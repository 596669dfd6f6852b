"""Figures of docs/why.md: forced cells, explanations and hints per genre, and the generation rate.

    python benchmarks/why.py tools [--time-limit 60]          # forced, explain, hints on the shipped instances
    python benchmarks/why.py tools --genres lits,nurikabe     # only these genres' instances (and no explain)
    python benchmarks/why.py tools --tools forced,explain --max-side 10   # no hints; instances up to 10x10
    python benchmarks/why.py generate [--budget 60]           # puzzles per minute, 6x6 and 10x10, five genres

``tools`` runs ``gridlang.forced`` and ``gridlang.hints`` on every shipped
genre instance (``puzzles/instances/``, the spec named by the folder) and
``gridlang.explain`` on the six infeasible puzzles of ``tests/data/why``;
it prints, per genre, the median and the largest seconds of each (a run
stopped by the time limit is counted at its seconds and marked), and for
``forced`` how many instances took at most 2 s. ``--tools`` keeps some of
the three; ``--max-side N`` keeps the instances of at most N rows and N
columns. Each ``forced`` record on stderr names the backend ``auto`` chose,
the grid's size and the entries proved forced.
``generate`` makes puzzles from seeds 0, 1, ... of each genre and size
until ``--budget`` seconds have passed (the puzzle under way is finished),
and prints the puzzles per minute. Each line is also printed as JSON on
stderr as it is measured. Seconds are wall-clock, one process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

GENERATED = [  # genre, size, params
    ("nurikabe", 6, {}), ("sudoku", 6, {"box_rows": 2, "box_cols": 3}), ("masyu", 6, {}),
    ("slitherlink", 6, {}), ("starbattle", 6, {"stars": 1}),
    ("nurikabe", 10, {}), ("sudoku", 9, {"box_rows": 3, "box_cols": 3}), ("masyu", 10, {}),
    ("slitherlink", 10, {}), ("starbattle", 10, {"stars": 2}),
]
"""The configurations of ``generate`` (Sudoku at 9x9 for the large size: a 10x10 Sudoku's digit 10
is no one-character clue)."""

INFEASIBLE = [("sudoku", "sudoku_two_ones.txt"), ("heyawake", "heyawake_domino_two.txt"), ("horse", "horse_leak.txt"),
              ("sudoku", "sudoku_9x9_two_sevens.txt"), ("akari", "akari_10x10_three.txt"),
              ("nurikabe", "nurikabe_10x9_eight.txt")]


def _instances(genres: set[str] | None = None) -> list[tuple[str, Path]]:
    root = REPO / "puzzles" / "instances"
    out = []
    for path in sorted(root.rglob("*.txt")):
        genre = path.relative_to(root).parts[0]
        if (REPO / "puzzles" / f"{genre}.grid").is_file() and (genres is None or genre in genres):
            out.append((genre, path))
    return out


def _log(record: dict) -> None:
    print(json.dumps(record), file=sys.stderr, flush=True)


def _size(path: Path) -> tuple[int, int]:
    """The rows and columns of a map file (a URL decoded through its genre's bundled spec)."""
    from gridlang.formats.maps import read_map

    data = read_map(path)
    return len(data.rows), max(len(r) for r in (data.char_spans or data.rows))


def _about(found) -> dict:
    """The backend ``auto`` chose, the grid's size and the count of forced entries of a ``gridlang.forced``."""
    grid = found.result.report.model.grid
    return {"backend": found.result.chosen, "size": f"{grid.rows}x{grid.cols}",
            "forced": sum(len(v) for v in found.forced.values())}


def _puzzle_args(path: Path) -> list[str]:
    """``--url URL`` for an instance file that holds a puzz.link URL, else ``--map PATH``."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            return ["--url", line.strip()] if line.startswith("https://puzz.link/") else ["--map", str(path)]
    return ["--map", str(path)]


def _forced_process(genre: str, path: Path, time_limit: float) -> dict:
    """``gridlang solve SPEC --url URL --forced --json`` in a fresh process: its wall and CPU seconds
    (start-up included), the backend ``auto`` chose and the count of forced entries."""
    import os
    import subprocess

    command = [sys.executable, "-m", "gridlang", "solve", str(REPO / "puzzles" / f"{genre}.grid"),
               *_puzzle_args(path), "--forced", "--json", "--time-limit", str(time_limit)]
    t = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - t
    record = {"seconds": round(seconds, 3), "cpu": round(usage.ru_utime + usage.ru_stime, 3),
              "exit": child.returncode}
    try:
        found = json.loads(out)
    except ValueError:
        return record | {"complete": False}
    return record | {"complete": bool(found.get("forced_complete")), "backend": found.get("chosen"),
                     "size": found.get("size"), "forced": sum(len(v) for v in (found.get("forced") or {}).values())}


def tools(time_limit: float, genres: set[str] | None = None, which: tuple[str, ...] = ("forced", "hints", "explain"),
          max_side: int | None = None, process: bool = False) -> None:
    import gridlang

    rows: dict[str, dict[str, list[tuple[float, bool]]]] = {}
    for genre, path in _instances(genres):
        spec = gridlang.bundled(genre)
        if max_side is not None and max(_size(path)) > max_side:
            continue
        if process and "forced" in which:
            record = _forced_process(genre, path, time_limit)
            rows.setdefault(genre, {}).setdefault("forced", []).append((record["seconds"], record["complete"]))
            _log({"genre": genre, "map": path.name, "tool": "forced", "process": True} | record)
        for tool in [t for t in ("forced", "hints") if t in which and not (process and t == "forced")]:
            t = time.perf_counter()
            about = {}
            try:
                found = getattr(gridlang, tool)(spec, map=path, time_limit=time_limit)
                done = found is not None and found.complete if tool == "hints" else found.complete
                about = _about(found) if tool == "forced" else {}
            except Exception as e:  # noqa: BLE001 - a figure, not a test: say what failed
                found, done = None, False
                _log({"genre": genre, "map": path.name, "tool": tool, "error": str(e)[:200]})
            seconds = time.perf_counter() - t
            rows.setdefault(genre, {}).setdefault(tool, []).append((seconds, done))
            _log({"genre": genre, "map": path.name, "tool": tool, "seconds": round(seconds, 3), "complete": done}
                 | about)
    for genre, name in INFEASIBLE if genres is None and "explain" in which else ():
        t = time.perf_counter()
        why = gridlang.explain(gridlang.bundled(genre), map=REPO / "tests" / "data" / "why" / name,
                               time_limit=time_limit)
        seconds = time.perf_counter() - t
        rows.setdefault(genre, {}).setdefault("explain", []).append((seconds, why.minimal))
        _log({"genre": genre, "map": name, "tool": "explain", "seconds": round(seconds, 3), "minimal": why.minimal})
    print("| genre | instances | forced: median | forced: max | forced: within 2 s | hints: median | hints: max "
          "| explain |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for genre in sorted(rows):
        runs = rows[genre].get("forced", [])
        cells = [genre, str(len(runs) or "-")]
        for tool in ("forced", "hints"):
            runs = rows[genre].get(tool)
            if not runs:
                cells += ["-", "-", "-"] if tool == "forced" else ["-", "-"]
                continue
            cut = sum(not ok for _, ok in runs)
            cells += [f"{statistics.median(s for s, _ in runs):.2f} s",
                      f"{max(s for s, _ in runs):.2f} s" + (f" ({cut} stopped)" if cut else "")]
            if tool == "forced":
                cells.append(str(sum(s <= 2.0 and ok for s, ok in runs)))
        runs = rows[genre].get("explain")
        cells.append(", ".join(f"{s:.2f} s" for s, _ in runs) if runs else "-")
        print("| " + " | ".join(cells) + " |")


def generate(budget: float, cap: float) -> None:
    import gridlang
    from gridlang.core.errors import GridlangError

    print("| genre | size | puzzles | seconds | puzzles per minute | clues (median) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for genre, size, params in GENERATED:
        start = time.perf_counter()
        made, clues, seed = 0, [], 0
        while time.perf_counter() - start < budget:
            try:
                g = gridlang.generate(genre, (size, size), seed=seed, params=params, time_limit=cap)
            except GridlangError as e:
                _log({"genre": genre, "size": size, "seed": seed, "error": str(e)[:200]})
                break
            made += 1
            clues.append(g.clues)
            _log({"genre": genre, "size": size, "seed": seed, "seconds": round(g.seconds, 3), "clues": g.clues,
                  "tries": g.tries})
            seed += 1
        seconds = time.perf_counter() - start
        rate = made / seconds * 60
        print(f"| {genre} | {size}x{size} | {made} | {seconds:.0f} | {rate:.1f} | "
              f"{statistics.median(clues) if clues else '-'} |", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("tools")
    t.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    t.add_argument("--genres", help="comma-separated genres (the folders of puzzles/instances/); default all")
    t.add_argument("--tools", default="forced,hints,explain",
                   help="comma-separated tools of forced, hints, explain (default all three)")
    t.add_argument("--max-side", type=int, help="only the instances of at most this many rows and columns")
    t.add_argument("--process", action="store_true",
                   help="forced as 'gridlang solve SPEC --url URL --forced --json' in a fresh process each")
    g = sub.add_parser("generate")
    g.add_argument("--budget", type=float, default=60.0, help="seconds per genre and size (default 60)")
    g.add_argument("--cap", type=float, default=300.0, help="seconds one puzzle may take (default 300)")
    args = p.parse_args()
    if args.what == "tools":
        tools(args.time_limit, set(args.genres.split(",")) if args.genres else None,
              tuple(args.tools.split(",")), args.max_side, args.process)
    else:
        generate(args.budget, args.cap)


if __name__ == "__main__":
    main()
