"""Benchmark gridlang on the real enclose.horse maps and Snake Eggs instances.

Every solve goes through the whole pipeline (parse, compile, solve, verify
by the rules) and is compared with the known optimum from the manifest. The
report gives per-map seconds and, per backend and strategy, the median, 90th
percentile and maximum, the number solved to the known optimum, and the ratio
of medians against the first configuration.

Usage::

    python benchmarks/bench.py                       # CP-SAT, every standard map
    python benchmarks/bench.py --backend cpsat milp maxsat --variant all
    python benchmarks/bench.py --backend maxsat --maps 'daily-2026-0[12]*' --time-limit 60
    python benchmarks/bench.py --snake-eggs --backend cpsat --connectivity flow cuts

Results also go to ``--out`` (JSON lines, one per solve) for later comparison.
Runs are sequential: the machine's cores belong to the solver.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import sys
import time
from pathlib import Path

from gridlang.core.errors import GridlangError
from gridlang.ir.backend import SolveOptions, get_backend
from gridlang.solving.pipeline import load, solve_model

# The data and specs of this checkout; gridlang itself is the installed
# package (a checkout's gridlang/ lacks the exporters installed inside it).
ROOT = Path(__file__).resolve().parents[1]

HORSE_DATA = ROOT / "tests" / "data" / "horse"
SPECS = {
    "standard": ROOT / "puzzles" / "horse.grid",
    "costlywalls": ROOT / "puzzles" / "horse_costlywalls.grid",
    "lovebirds": ROOT / "puzzles" / "horse_lovebirds.grid",
    "loversquarrel": ROOT / "puzzles" / "horse_loversquarrel.grid",
}


def horse_cases(variants: list[str], pattern: str | None) -> list[dict]:
    """Manifest records with a budget and a known optimum, filtered."""
    manifest = json.loads((HORSE_DATA / "manifest.json").read_text())
    cases = []
    for e in manifest:
        expected = e["optimal_score"] if e["optimal_score"] is not None else e.get("reference_optimum")
        if e["budget"] is None or expected is None or e["variant"] not in variants:
            continue
        if pattern and not fnmatch.fnmatch(e["file"], pattern):
            continue
        cases.append({"name": e["file"], "spec": SPECS[e["variant"]], "map": HORSE_DATA / e["file"],
                      "params": {"budget": str(e["budget"])}, "expected": expected,
                      "variant": e["variant"], "cells": e["width"] * e["height"]})
    return cases


def snake_cases(pattern: str | None) -> list[dict]:
    """Snake Eggs instances under puzzles/instances/snake_eggs (solved and proven unique)."""
    cases = []
    for path in sorted((ROOT / "puzzles" / "instances" / "snake_eggs").rglob("*.txt")):
        if pattern and not fnmatch.fnmatch(path.name, pattern):
            continue
        cases.append({"name": path.name, "spec": ROOT / "puzzles" / "snake_eggs.grid", "map": path,
                      "params": {}, "expected": None, "variant": "snake_eggs", "unique": True})
    return cases


def run_case(case: dict, backend: str, connectivity: str | None, time_limit: float | None,
             extra: dict | None = None) -> dict:
    """Solve one case; return a result row (never raises for a bad answer)."""
    row = {"name": case["name"], "variant": case["variant"], "backend": backend,
           "connectivity": connectivity or "default", "expected": case["expected"]}
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        model, seconds = load(case["spec"], case["map"], case["params"])
        options = SolveOptions(time_limit=time_limit, connectivity=connectivity, extra=dict(extra or {}))
        report = solve_model(model, backend, options, unique=case.get("unique", False), seconds=seconds)
        res = report.result
        row.update(status=res.status.value, score=report.score, build=round(res.build_seconds, 4),
                   solve=round(report.seconds["solve"], 4), connectivity=res.stats.get("connectivity", "?"),
                   rounds=res.stats.get("cut_rounds"))
        if case.get("unique"):
            row["unique"] = report.unique
        correct = res.status.value == "OPTIMAL" and (case["expected"] is None or report.score == case["expected"])
        if case.get("unique"):
            correct = correct and report.unique is True
        row["correct"] = correct
    except GridlangError as e:
        row.update(status="ERROR", error=e.render().splitlines()[0], correct=False)
    row["seconds"] = round(time.perf_counter() - t0, 4)
    # CPU seconds of this process and its solver threads: unlike wall time,
    # not inflated by other work on the machine (CP-SAT's portfolio of 8
    # workers counts every worker).
    row["cpu"] = round(time.process_time() - c0, 4)
    return row


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def summarise(rows: list[dict]) -> list[str]:
    """Per configuration: solved/correct counts, median, p90, max seconds; ratio of medians."""
    configs: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        configs.setdefault((r["backend"], r["connectivity"]), []).append(r)
    lines, first_median = [], None
    for (backend, conn), rs in configs.items():
        secs = [r["seconds"] for r in rs]
        cpu = [r["cpu"] for r in rs]
        wrong = [r["name"] for r in rs if not r["correct"]]
        med = statistics.median(secs)
        first_median = first_median or med
        slowest = max(rs, key=lambda r: r["seconds"])
        lines.append(
            f"{backend:7s} {conn:8s} maps {len(rs):4d}  correct {len(rs) - len(wrong):4d}  "
            f"median {med:7.3f} s  p90 {percentile(secs, 90):7.3f} s  max {max(secs):7.3f} s "
            f"({slowest['name']})  ratio {med / first_median:5.2f}  "
            f"cpu median {statistics.median(cpu):7.3f} s max {max(cpu):7.3f} s")
        if wrong:
            lines.append(f"        not solved to the known answer: {', '.join(wrong[:20])}"
                         + (" ..." if len(wrong) > 20 else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", nargs="+", default=["cpsat"], help="backends to compare")
    p.add_argument("--connectivity", nargs="+", default=[None], help="strategies (default: each backend's)")
    p.add_argument("--variant", nargs="+", default=["standard"],
                   help="standard costlywalls lovebirds loversquarrel, or all")
    p.add_argument("--maps", help="only map files matching this glob")
    p.add_argument("--snake-eggs", action="store_true", help="run the Snake Eggs instances instead")
    p.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve (default 120)")
    p.add_argument("--out", default="bench-results/latest.jsonl", help="where to write the rows")
    p.add_argument("--quiet", action="store_true", help="print the summary only")
    p.add_argument("--set", action="append", default=[], metavar="BACKEND.SETTING=VALUE",
                   help="a backend setting, as on the command line (repeatable)")
    args = p.parse_args(argv)
    variants = list(SPECS) if "all" in args.variant else args.variant
    cases = snake_cases(args.maps) if args.snake_eggs else horse_cases(variants, args.maps)
    if not cases:
        print("no cases match", file=sys.stderr)
        return 1
    for b in args.backend:
        get_backend(b)  # fail early on a missing backend
    from gridlang.cli import _setting

    extra = dict(_setting(item) for item in args.set)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    with out.open("w") as f:
        for backend in args.backend:
            for conn in args.connectivity:
                for case in cases:
                    row = run_case(case, backend, conn, args.time_limit, extra)
                    rows.append(row)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    if not args.quiet:
                        mark = "ok " if row["correct"] else "BAD"
                        print(f"{mark} {backend:7s} {row['connectivity']:8s} {row['name']:40s} "
                              f"{row.get('status', '?'):10s} score {row.get('score')!s:>5s} "
                              f"expect {row['expected']!s:>5s}  {row['seconds']:8.3f} s  cpu {row['cpu']:8.3f} s", flush=True)
    print()
    print("\n".join(summarise(rows)))
    return 0 if all(r["correct"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
