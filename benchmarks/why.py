"""Figures of docs/why.md: forced cells, explanations and hints per genre, and the generation rate.

    python benchmarks/why.py tools [--time-limit 60]          # forced, explain, hints on the shipped instances
    python benchmarks/why.py tools --genres lits,nurikabe     # only these genres' instances (and no explain)
    python benchmarks/why.py generate [--budget 60]           # puzzles per minute, 6x6 and 10x10, five genres

``tools`` runs ``gridlang.forced`` and ``gridlang.hints`` on every shipped
genre instance (``puzzles/instances/``, the spec named by the folder) and
``gridlang.explain`` on the three infeasible puzzles of ``tests/data/why``;
it prints, per genre, the median and the largest seconds of each (a run
stopped by the time limit is counted at its seconds and marked).
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

INFEASIBLE = [("sudoku", "sudoku_two_ones.txt"), ("heyawake", "heyawake_domino_two.txt"), ("horse", "horse_leak.txt")]


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


def tools(time_limit: float, genres: set[str] | None = None) -> None:
    import gridlang

    rows: dict[str, dict[str, list[tuple[float, bool]]]] = {}
    for genre, path in _instances(genres):
        spec = gridlang.bundled(genre)
        for tool in ("forced", "hints"):
            t = time.perf_counter()
            try:
                found = getattr(gridlang, tool)(spec, map=path, time_limit=time_limit)
                done = found is not None and found.complete if tool == "hints" else found.complete
            except Exception as e:  # noqa: BLE001 - a figure, not a test: say what failed
                found, done = None, False
                _log({"genre": genre, "map": path.name, "tool": tool, "error": str(e)[:200]})
            seconds = time.perf_counter() - t
            rows.setdefault(genre, {}).setdefault(tool, []).append((seconds, done))
            _log({"genre": genre, "map": path.name, "tool": tool, "seconds": round(seconds, 3), "complete": done})
    for genre, name in INFEASIBLE if genres is None else ():
        t = time.perf_counter()
        why = gridlang.explain(gridlang.bundled(genre), map=REPO / "tests" / "data" / "why" / name,
                               time_limit=time_limit)
        seconds = time.perf_counter() - t
        rows.setdefault(genre, {}).setdefault("explain", []).append((seconds, why.minimal))
        _log({"genre": genre, "map": name, "tool": "explain", "seconds": round(seconds, 3), "minimal": why.minimal})
    print("| genre | instances | forced: median | forced: max | hints: median | hints: max | explain |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for genre in sorted(rows):
        cells = [genre, str(len(rows[genre].get("forced", [])) or "-")]
        for tool in ("forced", "hints"):
            runs = rows[genre].get(tool)
            if not runs:
                cells += ["-", "-"]
                continue
            cut = sum(not ok for _, ok in runs)
            cells += [f"{statistics.median(s for s, _ in runs):.2f} s",
                      f"{max(s for s, _ in runs):.2f} s" + (f" ({cut} stopped)" if cut else "")]
        runs = rows[genre].get("explain")
        cells.append(f"{runs[0][0]:.2f} s" if runs else "-")
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
    g = sub.add_parser("generate")
    g.add_argument("--budget", type=float, default=60.0, help="seconds per genre and size (default 60)")
    g.add_argument("--cap", type=float, default=300.0, help="seconds one puzzle may take (default 300)")
    args = p.parse_args()
    if args.what == "tools":
        tools(args.time_limit, set(args.genres.split(",")) if args.genres else None)
    else:
        generate(args.budget, args.cap)


if __name__ == "__main__":
    main()
