"""Benchmark: solve and prove unique every Snake Eggs instance (CP-SAT by default).

Run from the repository root::

    python benchmarks/snake_eggs_bench.py [--backend cpsat|milp|maxsat|asp] [--strategy NAME|all]
        [--only NAME] [--time-limit S] [--repeat N]

For each instance under ``puzzles/instances/snake_eggs`` it runs the full
pipeline (parse, compile, solve, verify, then one more solve with a blocking
clause to prove uniqueness) and prints the wall-clock seconds of solve +
uniqueness proof and the CPU seconds of the process (every solver thread
counted), then the median and maximum of both per group (published 10x10,
derived). Timings on a shared 2-core machine are noisy: report, do not
assert.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gridlang.ir.backend import SolveOptions, backend_class, backend_names
from gridlang.solving.pipeline import solve

SPEC = "puzzles/snake_eggs.grid"
ROOT = Path("puzzles/instances/snake_eggs")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="cpsat", choices=tuple(backend_names()))
    p.add_argument("--strategy", default=None,
                   help="a connectivity strategy of the backend, or 'all' (default: the backend's default)")
    p.add_argument("--only", help="substring of the instance names to run")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds per solve")
    p.add_argument("--repeat", type=int, default=1, help="runs per instance (the median is kept)")
    args = p.parse_args(argv)
    offered = backend_class(args.backend).connectivity
    if args.strategy is not None and args.strategy != "all" and args.strategy not in offered:
        p.error(f"backend {args.backend!r} offers the strategies {', '.join(offered)}")
    strategies = offered if args.strategy == "all" else (args.strategy or offered[0],)
    paths = sorted(ROOT.glob("*.txt")) + sorted(ROOT.glob("derived/*.txt"))
    if args.only:
        paths = [q for q in paths if args.only in q.name]
    results: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    for strategy in strategies:
        for path in paths:
            runs, cpus = [], []
            for _ in range(args.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                report = solve(SPEC, path, backend=args.backend, unique=True,
                               options=SolveOptions(connectivity=strategy, time_limit=args.time_limit))
                runs.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            secs, cpu_secs = statistics.median(runs), statistics.median(cpus)
            proved = "unique" if report.unique else "NOT PROVED UNIQUE (time limit?)"
            group = "derived" if "derived" in path.parts else (
                "published 10x10" if "10x10" in path.name else "small")
            results.setdefault((strategy, group), []).append(secs)
            cpu.setdefault((strategy, group), []).append(cpu_secs)
            print(f"{strategy:5s} {group:16s} {path.stem:40s} {secs:7.2f} s  cpu {cpu_secs:7.2f} s  {proved}  "
                  f"(solve {report.seconds['solve']:.2f} s, last solve's cut rounds "
                  f"{report.result.stats.get('cut_rounds')})", flush=True)
    print()
    for (strategy, group), secs in sorted(results.items()):
        print(f"{strategy:5s} {group:16s} n={len(secs)}  median {statistics.median(secs):6.2f} s  "
              f"max {max(secs):6.2f} s  cpu median {statistics.median(cpu[strategy, group]):6.2f} s  "
              f"max {max(cpu[strategy, group]):6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
