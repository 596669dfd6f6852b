"""The compile step at size: each genre's largest puzzle of the puzzlekit-dataset, ``gridlang compile``.

For every genre of ``gridlang.batch.dataset.GENRES`` that the dataset holds,
its largest puzzle (by cells; the first key on a tie) is converted to a map
and compiled by ``gridlang compile SPEC --map MAP`` in a fresh process: the
spec and map parsed and checked, the model built. The table gives the
phases gridlang prints (parse, compile), the process's wall and CPU
seconds (user and system: on a busy machine the wall time is mostly
waiting), and issue 49's target (1 s up to 50x50, 0.4 ms a cell beyond:
4 s at 100x100), met when the process's CPU seconds, start-up included,
are within it::

    python benchmarks/compile_sizes.py --dataset CLONE [--genres akari,nurikabe] [--timeout 300]

The dataset states no licence; give the path of a clone (or of a folder of
``GENRE/GENRE_dataset.json`` files, as its ``assets/data``).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gridlang.batch.dataset import GENRES, DatasetError, available, load
from gridlang.batch.versus import compile_target
from gridlang.formats.catalog import spec_path

TIMES = re.compile(r"time: parse ([0-9.]+) s, compile ([0-9.]+) s")


def largest(root: Path, genre: str):
    """The genre's largest puzzle that its converter reads, and its map."""
    for puzzle in sorted(load(root, genre), key=lambda p: (-p.cells, p.key)):
        try:
            return puzzle, GENRES[genre].to_map(puzzle.problem)
        except DatasetError:
            continue
    return None, None


def measure(root: Path, genre: str, timeout: float, tmp: Path) -> dict | None:
    puzzle, text = largest(root, genre)
    if puzzle is None:
        return None
    path = tmp / f"{genre}.txt"
    path.write_text(text, encoding="utf-8")
    cmd = [
        sys.executable,
        "-m",
        "gridlang",
        "compile",
        str(spec_path(Path(GENRES[genre].spec).stem)),
        "--map",
        str(path),
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, cwd=tmp, timeout=timeout, check=False
        )
        out, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired:
        out, code = "", None
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    found = TIMES.search(out)
    return {
        "genre": genre,
        "puzzle": puzzle.key,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "cells": puzzle.cells,
        "parse": float(found.group(1)) if found else None,
        "compile": float(found.group(2)) if found else None,
        "wall": wall,
        "cpu": cpu,
        "exit": code,
        "note": ""
        if found
        else (f"killed at {timeout:.0f} s" if code is None else _sentence(out)),
    }


def _sentence(out: str) -> str:
    """The error's sentence of a refusal (its first line holding ``error:``), else the output's last line."""
    lines = [line.strip() for line in out.strip().splitlines() if line.strip()] or [""]
    said = next((line for line in lines if "error:" in line), lines[-1])
    return said.split("error:", 1)[-1].strip()[:200]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--dataset",
        type=Path,
        required=True,
        help="a clone of SmilingWayne/puzzlekit-dataset",
    )
    ap.add_argument(
        "--genres", help="comma-separated (default: every genre the dataset holds)"
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds before a compile is killed",
    )
    args = ap.parse_args(argv)
    genres = args.genres.split(",") if args.genres else available(args.dataset)
    print(
        "| genre | largest puzzle | cells | parse s | compile s | wall s | CPU s | target s | met |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for genre in genres:
            if genre not in GENRES:
                print(f"| {genre} | not a genre the dataset benchmark reads ({', '.join(sorted(GENRES))}) |")
                continue
            r = measure(args.dataset, genre, args.timeout, Path(tmp))
            if r is None:
                print(f"| {genre} | no puzzle of it that its converter reads |")
                continue
            target = compile_target(r["cells"])
            built = None if r["compile"] is None else r["parse"] + r["compile"]
            # judged by the process's CPU seconds (start-up included, so at least the step's own): on a busy
            # machine the phases' wall seconds are mostly waiting for a core
            met = "yes" if built is not None and r["cpu"] <= target else "no"
            fmt = lambda x: "-" if x is None else f"{x:.2f}"
            print(
                f"| {genre} | {r['puzzle']} ({r['rows']}x{r['cols']}) | {r['cells']} | {fmt(r['parse'])} | "
                f"{fmt(r['compile'])} | {r['wall']:.2f} | {r['cpu']:.2f} | {target:.2f} | {met}"
                f"{': ' + r['note'] if r['note'] else ''} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
