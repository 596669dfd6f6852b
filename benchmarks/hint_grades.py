"""Hints and their grade on the shipped genre instances up to 10 x 10: seconds, solver calls, difficulty.

    python benchmarks/hint_grades.py [--time-limit 60] [--genres lits,nurikabe] [--largest 10]

Every instance of ``puzzles/instances/GENRE/`` (the spec named by the
folder) whose grid has at most ``--largest`` rows and columns is hinted once
with ``gridlang hint --json`` (the default backend) under ``--time-limit``
seconds, in a child process killed :data:`GRACE` seconds past that limit. Each run is kept, one JSON line, in ``--results`` (by default
``hint_grades.jsonl`` in the current directory; a run already there is not
repeated), and the table printed at the end lists, per instance, the
seconds, the solver calls of the step search, the steps, and the difficulty
and level of :mod:`gridlang.why.grade`, or why there is none (stopped by the
time limit: the difficulty of the steps found is then a lower bound).
Seconds are wall-clock, the child's start-up included. The table gives beside
the difficulty the hardest step's cost and what the depth's walk added
(:mod:`gridlang.why.depth`: counted only when the walk reaches the answer).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GRACE = 60.0
"""Seconds past its time limit after which a run is killed."""


def instances(
    genres: set[str] | None, largest: int
) -> list[tuple[str, Path, int, int]]:
    """``(genre, path, rows, cols)`` of the shipped instances of at most ``largest`` rows and columns."""
    import gridlang
    from gridlang.core.errors import GridlangError
    from gridlang.formats.maps import build_grid
    from gridlang.service.solve import read

    root = REPO / "puzzles" / "instances"
    out = []
    for path in sorted(root.glob("*/*.txt")):
        genre = path.parent.name
        if (
            genres is not None
            and genre not in genres
            or not (REPO / "puzzles" / f"{genre}.grid").is_file()
        ):
            continue
        try:
            spec = gridlang.bundled(genre)
            grid = build_grid(spec.symbols, read(spec, path))
        except GridlangError as e:
            print(f"{genre}/{path.name}: not read: {e}", file=sys.stderr)
            continue
        rows, cols = grid.rows, grid.cols
        if rows <= largest and cols <= largest:
            out.append((genre, path, rows, cols))
    return out


def run(path: Path, genre: str, time_limit: float) -> dict:
    """One hint run's figures: ``gridlang hint --json`` in a child process, killed when it is still
    running :data:`GRACE` seconds past its time limit (a run that does not stop at its limit is
    reported so, not waited for)."""
    command = [
        sys.executable,
        "-m",
        "gridlang",
        "hint",
        str(REPO / "puzzles" / f"{genre}.grid"),
        "--map",
        str(path),
        "--time-limit",
        str(time_limit),
        "--memory-limit",
        "2G",
        "--json",
    ]
    t0 = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            check=False,
            capture_output=True,
            text=True,
            timeout=time_limit + GRACE,
        )
    except subprocess.TimeoutExpired:
        return {
            "error": f"still running {GRACE:g} s past its time limit: killed",
            "seconds": round(time.perf_counter() - t0, 3),
        }
    seconds = time.perf_counter() - t0
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {
            "error": (done.stderr.strip().splitlines() or ["no output"])[-1][:200],
            "seconds": round(seconds, 3),
        }
    if out.get("steps") is None:
        return {
            "error": out.get("message") or f"status {out.get('status')}",
            "seconds": round(seconds, 3),
        }
    return {
        "seconds": round(seconds, 3),
        "solver_calls": out["hint_stats"]["solver_calls"],
        "steps": len(out["steps"]),
        "complete": out["complete"],
        "difficulty": out["difficulty"],
        "level": out["level"],
        "hardest_cost": out.get("hardest_cost"),
        "depth": out.get("depth"),
        "reason": out["reason"],
    }


def regrade(record: dict) -> dict:
    """The record with its ``difficulty`` and ``level`` worked out again by today's grade
    (:func:`gridlang.why.grade.difficulty_of`) from its kept ``hardest_cost`` and ``depth``, so
    that runs kept before a change of the grade's formula are read by the new one (a record without
    them is returned as it is)."""
    from gridlang.why.grade import difficulty_of, level_of

    depth, cost = record.get("depth"), record.get("hardest_cost")
    if depth is None or cost is None:
        return record
    counted = depth["complete"]
    value = difficulty_of(
        cost,
        depth["probes"] if counted else 0.0,
        depth["refutation"] if counted else 0.0,
    )
    return {**record, "difficulty": value, "level": level_of(value)}


def walk_text(record: dict) -> str:
    """What the depth's walk of a run added to its difficulty: ``+7.04`` (it reached the answer),
    ``0, short`` (it stopped short, so adds nothing), ``0`` (propagation alone), or ``-`` (not made)."""
    depth = record.get("depth")
    if depth is None:
        return "-"
    if not depth["complete"]:
        return "0, short"
    added = round(record["difficulty"] - record["hardest_cost"], 2)
    return f"+{added:g}" if added else "0"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="seconds per instance (default 60)",
    )
    p.add_argument(
        "--genres",
        help="comma-separated genres (the folders of puzzles/instances/); default all",
    )
    p.add_argument(
        "--largest", type=int, default=10, help="the most rows and columns (default 10)"
    )
    p.add_argument(
        "--results",
        type=Path,
        default=Path("hint_grades.jsonl"),
        help="the runs kept, JSON lines",
    )
    args = p.parse_args()
    done = {}
    if args.results.exists():
        for line in args.results.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done[record["instance"]] = record
    for genre, path, rows, cols in instances(
        set(args.genres.split(",")) if args.genres else None, args.largest
    ):
        name = f"{genre}/{path.stem}"
        if name in done:
            continue
        record = {
            "instance": name,
            "size": f"{rows}x{cols}",
            **run(path, genre, args.time_limit),
        }
        done[name] = record
        with args.results.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
        print(json.dumps(record), file=sys.stderr, flush=True)
    print(
        "| instance | size | seconds | solver calls | steps | hardest step | walk | difficulty | level |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    finished = []
    done = {name: regrade(r) for name, r in done.items()}
    for name, r in sorted(done.items()):
        if "error" in r:
            print(
                f"| {name} | {r['size']} | {r['seconds']:.2f} | - | - | - | - | - | {r['error']} |"
            )
            continue
        stopped = not r["complete"]
        if not stopped:
            finished.append(r)
        difficulty = (
            "-"
            if r["difficulty"] is None
            else f"{r['difficulty']:g}" + (" at least" if stopped else "")
        )
        level = r["level"] or "-"
        cost = r.get("hardest_cost")
        print(
            f"| {name} | {r['size']} | {r['seconds']:.2f}{' (stopped)' if stopped else ''} | {r['solver_calls']} | "
            f"{r['steps']} | {'-' if cost is None else f'{cost:g}'} | {walk_text(r)} | {difficulty} | {level} |"
        )
    if finished:
        seconds = [r["seconds"] for r in finished]
        print(
            f"\n{len(finished)} of {len(done)} reached the answer: seconds median {statistics.median(seconds):.2f}, "
            f"max {max(seconds):.2f}; levels "
            + ", ".join(
                f"{level} {sum(1 for r in finished if r['level'] == level)}"
                for level in ("easy", "medium", "hard", "expert")
            )
            + f"; the walk reached the answer (its terms counted) on "
            f"{sum(1 for r in finished if (r.get('depth') or {}).get('complete'))}"
        )


if __name__ == "__main__":
    main()
