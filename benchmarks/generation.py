"""Generation seconds per genre and size, median and max over seeds: the table of docs/benchmarks.md.

    python benchmarks/generation.py                          # the default cases, seeds 1 to 5, 300 s each
    python benchmarks/generation.py --seeds 3 --time-limit 120
    python benchmarks/generation.py --cases nurikabe:10,sudoku:9:rotational
    python benchmarks/generation.py --survey 5 --time-limit 5   # every bundled spec, seed 1: what is refused

Each puzzle is made by ``gridlang generate`` in a process of its own (as a user runs it: start-up
included), with ``--time-limit``; a run stopped by the limit is counted at its seconds and marked
(``timeouts``). A line of JSON per run goes to stderr as it is measured; the table (Markdown) to
stdout at the end. Seconds are wall-clock; on a shared machine they vary with its load, which the
table's caption should state.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CASES = [  # genre, size, symmetry, parameters
    ("nurikabe", 10, "none", {}),
    ("sudoku", 9, "none", {}),
    ("sudoku", 9, "rotational", {}),
    ("slitherlink", 10, "none", {}),
    ("masyu", 10, "none", {}),
    ("tapa", 6, "none", {}),
    ("yajilin", 6, "none", {}),
    ("heyawake", 6, "none", {}),
    ("nurikabe", 6, "none", {}),
    ("akari", 7, "none", {}),
    ("starbattle", 8, "none", {}),
]
"""The default cases: the four of issue 50, the clue kinds written in several characters (Tapa's number
lists, Yajilin's arrows) and the rules that read both clue tiles and rooms (Heyawake), and a few more."""


def run(genre: str, size: int, symmetry: str, params: dict, seed: int, time_limit: float) -> dict:
    """One ``gridlang generate`` run: its exit code, seconds and clue count (None when it made none)."""
    command = [sys.executable, "-m", "gridlang", "generate", genre, "--size", f"{size}x{size}", "--seed",
               str(seed), "--symmetry", symmetry, "--time-limit", str(time_limit), "--quiet"]
    for name, value in params.items():
        command += ["--param", f"{name}={value}"]
    t0 = time.perf_counter()
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=REPO)
    seconds = time.perf_counter() - t0
    head = re.match(r"# seed \d+: (\d+) clues", done.stdout)
    return {"genre": genre, "size": f"{size}x{size}", "symmetry": symmetry, "seed": seed, "exit": done.returncode,
            "seconds": round(seconds, 2), "clues": int(head.group(1)) if head else None,
            "error": done.stderr.strip().splitlines()[-1] if done.returncode not in (0, 3) and done.stderr else None}


def table(records: list[dict]) -> str:
    """The Markdown table: one row per case, median and max seconds, made and timed out, clues."""
    lines = ["| genre | size | symmetry | seeds | made | timeouts | median s | max s | clues (median) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    cases: dict[tuple, list[dict]] = {}
    for r in records:
        cases.setdefault((r["genre"], r["size"], r["symmetry"]), []).append(r)
    for (genre, size, symmetry), rs in cases.items():
        seconds = [r["seconds"] for r in rs]
        clues = [r["clues"] for r in rs if r["clues"] is not None]
        lines.append(f"| {genre} | {size} | {symmetry} | {len(rs)} | {sum(r['exit'] == 0 for r in rs)} | "
                     f"{sum(r['exit'] == 3 for r in rs)} | {statistics.median(seconds):.1f} | {max(seconds):.1f} | "
                     f"{statistics.median(clues) if clues else '-'} |")
    return "\n".join(lines)


def survey(size: int, time_limit: float) -> list[dict]:
    """Every bundled spec made once (seed 1) at ``size`` x ``size`` (:func:`run`), a record each."""
    # imported on use: the cases above run gridlang in processes of their own only
    from gridlang.api import bundled_specs

    records = []
    for name in bundled_specs():
        record = run(name, size, "none", {}, 1, time_limit)
        print(json.dumps(record), file=sys.stderr, flush=True)
        records.append(record)
    return records


def survey_table(records: list[dict], time_limit: float) -> str:
    """What :func:`survey` found, as Markdown: how many specs made a puzzle, ran out of time or were
    refused, and the refusals grouped by their sentence (the spec's path left out, or written SPEC)."""
    made = sum(r["exit"] == 0 for r in records)
    timeouts = sum(r["exit"] == 3 for r in records)
    refused: dict[str, list[str]] = {}
    for r in records:
        if r["exit"] not in (0, 3):
            sentence = re.sub(r"^error: \S+\.grid: ", "error: ", r["error"] or f"exit {r['exit']}")
            sentence = re.sub(r"/\S+/[\w-]+\.grid", "SPEC", sentence)
            refused.setdefault(sentence, []).append(r["genre"])
    size = records[0]["size"] if records else "-"
    lines = [(f"{len(records)} specs at {size}, --time-limit {time_limit:g}: {made} made a puzzle, "
              f"{timeouts} ran out of time, {len(records) - made - timeouts} refused or failed."), "",
             "| specs | sentence |", "| --- | --- |"]
    for sentence, names in sorted(refused.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"| {len(names)}: {', '.join(names)} | {sentence.replace('|', '/')} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=5, help="seeds 1 to N per case (default 5)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds per run (default 300)")
    p.add_argument("--cases", help="comma-separated GENRE:SIZE[:SYMMETRY] (default: the cases of CASES)")
    p.add_argument("--survey", type=int, metavar="SIZE",
                   help="make every bundled spec once at SIZE x SIZE and table what is refused")
    args = p.parse_args()
    if args.survey:
        print(survey_table(survey(args.survey, args.time_limit), args.time_limit))
        return
    cases = CASES
    if args.cases:
        cases = []
        for item in args.cases.split(","):
            genre, size, *rest = item.split(":")
            cases.append((genre, int(size), rest[0] if rest else "none", {}))
    records = []
    for genre, size, symmetry, params in cases:
        for seed in range(1, args.seeds + 1):
            record = run(genre, size, symmetry, params, seed, args.time_limit)
            print(json.dumps(record), file=sys.stderr, flush=True)
            records.append(record)
    print(table(records))


if __name__ == "__main__":
    main()
