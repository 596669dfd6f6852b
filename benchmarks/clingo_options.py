"""clingo's options measured on the enclose.horse sets, warm: the figures behind the asp backend's ``auto`` settings.

Each map of a set (``gridlang bench``'s sets of the horse data: ``dailies``,
``lovebirds``, ...) is compiled and its program written as ``gridlang export
-f asp`` writes it (connectivity by reachability), then loaded, grounded and
solved to the proved optimum in this process, once per variant in turn and
``--runs`` times, the least of the runs kept (the machine is shared: the
least is the one least disturbed). clingo's arguments are those the asp
backend passes for the map (:meth:`AspBackend.arguments`), with each
variant's options replacing those of the same name: ``"--opt-heuristic=no"``
is the backend without its sign heuristic, ``""`` the backend as it is. A
search not finished within ``--time-limit`` seconds counts as that limit and
as unproved; a proof at another optimum than the manifest's stops the run.

The report gives, per variant, the median, the 90th percentile, the maximum
and the total of the seconds, the maps left unproved, and on how many maps it
was faster than the first variant. No map matching ``--maps``, a map that
cannot be read or an option clingo refuses ends the run with a sentence.

Usage::

    python benchmarks/clingo_options.py -- "--opt-heuristic=no" ""
    python benchmarks/clingo_options.py --set lovebirds --threads 1 -- "--opt-heuristic=no" ""
    python benchmarks/clingo_options.py --maps 'daily-2026-0[1-3]-*' -- "" "--heuristic=Vsids"

(the ``--`` ends the script's own options: the variants are clingo's.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HORSE_SETS = ("dailies", "weeklies", "customs", "standard", "january", "costlywalls", "lovebirds", "loversquarrel")
"""The sets of ``gridlang bench`` that hold horse maps with a known optimum."""


def _name(option: str) -> str:
    return option.lstrip("-").split("=", 1)[0]


def arguments(base: list[str], variant: list[str]) -> list[str]:
    """``base`` with each option of ``variant`` in place of the one of the same name (or added)."""
    names = {_name(o) for o in variant}
    return [o for o in base if _name(o) not in names] + variant


def solve(path: str, args: list[str], limit: float) -> tuple[float, int | None]:
    """Load, ground and solve the program at ``path``: ``(seconds, the proved optimal cost or None)``.

    Raises:
        SystemExit: clingo refuses ``args``, in a sentence.
    """
    import clingo

    start = time.perf_counter()
    try:
        ctl = clingo.Control(args, logger=lambda code, message: None)
    except RuntimeError as e:
        sys.exit(f"clingo_options: clingo refuses {' '.join(args)}: {str(e).split(': ', 1)[-1]}")
    ctl.load(path)
    ctl.ground([("base", [])])
    last: int | None = None

    def on_model(m) -> None:
        nonlocal last
        last = m.cost[0]

    with ctl.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(limit):
            handle.cancel()
        proved = handle.get().exhausted
    return time.perf_counter() - start, (last if proved else None)


def main() -> None:
    from gridlang.exporters.asp.backend import AspBackend

    from gridlang.batch.bench import cases
    from gridlang.compiler import compile_puzzle
    from gridlang.core.errors import GridlangError
    from gridlang.ir.backend import SolveOptions
    from gridlang.ir.model import Sense

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help="clingo options, one string per variant ('' for as is), after --")
    ap.add_argument("--set", default="dailies", choices=HORSE_SETS,
                    help="a horse set of gridlang bench (default dailies)")
    ap.add_argument("--maps", help="only maps whose file name matches this glob")
    ap.add_argument("--runs", type=int, default=2, help="runs per map and variant, the least kept (default 2)")
    ap.add_argument("--threads", type=int, default=0, help="asp.threads (default: the backend's)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per search (default 30)")
    args = ap.parse_args()
    variants = [v.split() for v in args.variants]
    backend = AspBackend()
    options = SolveOptions(extra={"asp.threads": args.threads} if args.threads else {})
    seconds: list[list[float]] = [[] for _ in variants]
    unproved = [0 for _ in variants]
    try:
        chosen = cases(args.set, ROOT, args.maps)
    except GridlangError as e:
        sys.exit(f"clingo_options: {e.message}")
    if not chosen:
        sys.exit(f"clingo_options: no map of the set {args.set!r} matches {args.maps!r}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in chosen:
            model = compile_puzzle(case["spec"], case["map"], case["params"])
            path = str(Path(tmp) / "program.lp")
            backend.write(model, path, "asp", options)
            base = backend.arguments(options, model)
            for i, variant in enumerate(variants):
                best = args.time_limit
                for _ in range(args.runs):
                    spent, cost = solve(path, arguments(base, variant), args.time_limit)
                    if cost is not None:  # the header's "score = constant -/+ Optimization"
                        objective = model.objective
                        score = objective.constant - cost if objective.sense is Sense.MAXIMIZE \
                            else objective.constant + cost
                        if score != case["expected"]:
                            sys.exit(f"{case['name']}: {' '.join(variant) or 'as is'} proved {score}, "
                                     f"not {case['expected']}")
                        best = min(best, spent)
                seconds[i].append(best)
                unproved[i] += best >= args.time_limit
    first = seconds[0]
    for variant, times, left in zip(args.variants, seconds, unproved):
        p90 = sorted(times)[max(0, round(0.9 * len(times)) - 1)]
        print(f"{variant or 'as is':40s} maps {len(times)}  median {statistics.median(times):.4f} s  "
              f"p90 {p90:.3f} s  max {max(times):.3f} s  total {sum(times):.2f} s  unproved {left}  "
              f"faster than the first on {sum(a < b for a, b in zip(times, first))}")


if __name__ == "__main__":
    main()
