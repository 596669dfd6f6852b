"""The difficulty grade against human ratings: Sudokus of the Sudoku Exchange puzzle bank.

    python benchmarks/grading.py             # hint the puzzles not yet in the results file, then report
    python benchmarks/grading.py --rerun     # hint every puzzle again, then report
    python benchmarks/grading.py --part 1/2 & python benchmarks/grading.py --part 2/2
                                             # the puzzles not yet hinted, in two processes side by side
    python benchmarks/grading.py --report    # the report alone, from the results file
    python benchmarks/grading.py --add-depth # the depth's walk for every record again, then report

A rerun took 17 minutes with the greedy steps and some 30 minutes in two
parts side by side with the cheapest ones of 300 rounds a step (the shared
machine, loaded). Each step's search for the cheapest step here ends at its
rounds alone (:data:`gridlang.why.hints.CHEAPEST_ROUNDS`), not at its seconds,
so that the steps are those of a run at rest whatever the load.

The sample is ``benchmarks/data/sudoku-exchange/`` (its README gives the
source, the licence and how it was drawn): 143 puzzles, each with the rating
Sukaku Explainer gave it. Each is hinted once with ``gridlang.hints`` on
``puzzles/sudoku.grid`` (the default backend, no time limit beyond
``--time-limit``); the steps' figures are kept in ``hints.jsonl`` there, one
line per puzzle, so that the report (and a new formula) needs no new run.

The report gives the Spearman rank correlation between the published rating
and: the grade's ``difficulty`` (:mod:`gridlang.why.grade`); the raw
baseline, the largest number of rule instances in one step; the number of
steps and the total of rule instances. Each on the whole sample, on its two
halves (by the parity of the record's hash) and on the diabolical file
alone. Then the choice of the formula: the weight of a known cell in a
step's cost, and an added term for the open cells at the hardest step and
for the number of steps near the hardest, fitted on the first half and
checked on the second. Then the levels' bounds that best sort half A into
the bank's files (checked on half B), the levels against the files, and the
seconds of the hint runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "benchmarks" / "data" / "sudoku-exchange"
RESULTS = DATA / "hints.jsonl"
FILES = ("easy", "medium", "hard", "diabolical")
"""The bank's files, easiest first (ratings below 1.5, below 2.5, below 5, from 5)."""


def sample() -> list[tuple[str, str, str, float]]:
    """``(file, hash, digits, rating)`` of every puzzle of the sample, file by file."""
    out = []
    for name in FILES:
        for line in (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines():
            digest, digits, rating = line.split()
            out.append((name, digest, digits, float(rating)))
    return out


def sudoku_map(digits: str) -> str:
    """The bank's 81 digits (0 for an empty cell) as a map of ``puzzles/sudoku.grid``."""
    return "".join(
        "".join("." if ch == "0" else ch for ch in digits[r * 9 : r * 9 + 9]) + "\n"
        for r in range(9)
    )


def measure(rerun: bool, time_limit: float, part: tuple[int, int] = (1, 1)) -> None:
    """Hint every puzzle of the sample not yet in :data:`RESULTS` (every one with ``rerun``);
    ``part`` ``(i, n)``: only the i-th of every n puzzles (from 1), for n processes side by side."""
    import gridlang
    from gridlang.why import hints as steps

    # The steps of the rounds alone: the search for the cheapest step is not cut at its seconds
    # (on a shared machine a step's rounds can outlast them, and the run's later steps
    # would be the greedy ones), so that the grade is the one a run at rest gives.
    steps.CHEAPEST_SECONDS = float("inf")
    done = set() if rerun else {json.loads(line)["hash"] for line in _lines()}
    if rerun and RESULTS.exists():
        RESULTS.unlink()
    spec = gridlang.bundled("sudoku")
    which, every = part
    # In the order of the records' hashes, not file by file: a run stopped early has hinted a
    # sample of every file, the diabolical ones included.
    for k, (name, digest, digits, rating) in enumerate(
        sorted(sample(), key=lambda r: r[1])
    ):
        if digest in done or k % every != which - 1:
            continue
        t0 = time.perf_counter()
        hints = gridlang.hints(spec, map=sudoku_map(digits), time_limit=time_limit)
        seconds = time.perf_counter() - t0
        run = hints.details
        record = {
            "hash": digest,
            "file": name,
            "rating": rating,
            "complete": run.complete,
            "seconds": round(seconds, 3),
            "solver_calls": run.calls,
            "steps": [
                [*s.cost, len(s.decides), s.search, s.cheapest] for s in run.steps
            ],
            "depth": None if run.depth is None else run.depth.to_json(),
        }
        with RESULTS.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
        print(
            f"{digest} {name:10s} {rating:4.1f}  {len(run.steps)} steps  {seconds:.2f} s",
            file=sys.stderr,
        )


def add_depth() -> None:
    """Give every record of :data:`RESULTS` the walk of :func:`gridlang.why.depth.reasoning_depth`
    again, replacing the one it holds (a hint run makes the same walk after its steps, which do not
    depend on it: 0.03 to 0.1 s a puzzle)."""
    import tempfile

    from gridlang.compiler import compile_tagged
    from gridlang.solving.pipeline import load
    from gridlang.why.depth import reasoning_depth

    digits = {digest: d for _, digest, d, _ in sample()}
    records = [json.loads(line) for line in _lines()]
    with tempfile.TemporaryDirectory() as folder:
        for record in records:
            path = Path(folder) / "map.txt"
            path.write_text(sudoku_map(digits[record["hash"]]), encoding="utf-8")
            model, _ = load(REPO / "puzzles" / "sudoku.grid", path)
            record["depth"] = reasoning_depth(*compile_tagged(model)).to_json()
    RESULTS.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _lines() -> list[str]:
    return RESULTS.read_text(encoding="utf-8").splitlines() if RESULTS.exists() else []


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged)."""
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def difficulty(
    record: dict,
    weight: float,
    probe: float | None = None,
    refutation: float | None = None,
    cap: float | None = -1.0,
) -> float:
    """A record's difficulty by the grade's formula (:func:`gridlang.why.grade.difficulty_of`) with
    ``weight`` per known cell, ``probe`` per doubling of the probes per failed literal,
    ``refutation`` per value a refutation sets and the depth's terms at most ``cap`` times the
    hardest step's cost (the grade's own weights and cap when not given; ``cap`` None: no cap; the
    candidates of the fit)."""
    from gridlang.why import grade

    top = max(s[0] + weight * s[1] for s in record["steps"])
    depth = record.get("depth")
    # the grade counts the terms of a walk that reached the answer, none of one that stopped short
    if not depth or not depth["complete"]:
        depth = {"probes": 0.0, "refutation": 0.0}
    return grade.difficulty_of(
        top,
        depth["probes"],
        depth["refutation"],
        probe_weight=grade.PROBE_WEIGHT if probe is None else probe,
        refutation_weight=grade.REFUTATION_WEIGHT if refutation is None else refutation,
        cap=grade.DEPTH_CAP if cap == -1.0 else cap,
    )


def share(values: list[float], records: list[dict], part, bounds: list[float]) -> float:
    """The mean over the bank's files of the share of ``part``'s puzzles of that file whose
    difficulty falls in its level's band (the bands cut at ``bounds``, ascending)."""
    shares = []
    for k, name in enumerate(FILES):
        members = [i for i in part if records[i]["file"] == name]
        if not members:
            continue
        lo = bounds[k - 1] if k else float("-inf")
        hi = bounds[k] if k < len(bounds) else float("inf")
        shares.append(sum(1 for i in members if lo <= values[i] < hi) / len(members))
    return statistics.fmean(shares)


def best_bounds(
    values: list[float], records: list[dict], part
) -> tuple[list[float], float]:
    """The three bounds (each a quarter step, between the difficulties seen) that sort ``part``
    best into the bank's four files (:func:`share`; the lowest bounds among ties)."""
    seen = sorted({values[i] for i in part})
    cuts = sorted({round((a + b) / 2 * 4) / 4 for a, b in itertools.pairwise(seen)})
    best: tuple[float, list[float]] = (-1.0, [])
    for i, x in enumerate(cuts):
        for j in range(i + 1, len(cuts)):
            for k in range(j + 1, len(cuts)):
                bounds = [x, cuts[j], cuts[k]]
                value = share(values, records, part, bounds)
                if value > best[0]:
                    best = (value, bounds)
    return best[1], best[0]


def report() -> None:
    # imported on use, not at start-up
    from gridlang.why.grade import KNOWN_WEIGHT, LEVELS, level_of

    records = [json.loads(line) for line in _lines()]
    if not records:
        sys.exit("no results yet: run without --report")
    ratings = [r["rating"] for r in records]
    halves = {
        "all": range(len(records)),
        "half A": [i for i, r in enumerate(records) if int(r["hash"], 16) % 2 == 0],
        "half B": [i for i, r in enumerate(records) if int(r["hash"], 16) % 2 == 1],
        "diabolical": [i for i, r in enumerate(records) if r["file"] == "diabolical"],
    }

    def rho(values: list[float], part) -> float:
        return spearman([values[i] for i in part], [ratings[i] for i in part])

    counts = {name: sum(1 for r in records if r["file"] == name) for name in FILES}
    print(
        f"{len(records)} puzzles ({', '.join(f'{n} {name}' for name, n in counts.items())}); "
        f"halves A {len(halves['half A'])}, B {len(halves['half B'])}\n"
    )
    measures = {
        "difficulty (the grade)": [difficulty(r, KNOWN_WEIGHT) for r in records],
        "the hardest step's cost alone": [
            difficulty(r, KNOWN_WEIGHT, 0.0, 0.0) for r in records
        ],
        "largest rule instances in a step": [
            max(s[0] for s in r["steps"]) for r in records
        ],
        "probes per failed literal": [r["depth"]["probes"] for r in records],
        "values a refutation sets": [r["depth"]["refutation"] for r in records],
        "depth (0 or 1 here)": [r["depth"]["depth"] for r in records],
        "steps": [len(r["steps"]) for r in records],
        "total rule instances": [sum(s[0] for s in r["steps"]) for r in records],
    }
    print("| measure | Spearman, all | half A | half B | diabolical only |")
    print("| --- | --- | --- | --- | --- |")
    for name, values in measures.items():
        print(
            f"| {name} | "
            + " | ".join(f"{rho(values, part):.3f}" for part in halves.values())
            + " |"
        )

    print(
        "\nthe fit (on half A; checked on half B): weight of a known cell, per doubling of the probes, "
        "per value of a refutation"
    )
    print("| known | probes | refutation | half A | half B | all | diabolical only |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    fits = []
    for weight in (0.0, 0.1, 0.25, 0.5):
        for probe in (0.0, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0):
            for refutation in (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5):
                values = [
                    difficulty(r, weight, probe, refutation, None) for r in records
                ]
                fits.append(
                    (
                        rho(values, halves["half A"]),
                        rho(values, halves["half B"]),
                        rho(values, halves["all"]),
                        rho(values, halves["diabolical"]),
                        weight,
                        probe,
                        refutation,
                    )
                )
    for a, b, whole, diabolical, weight, probe, refutation in sorted(
        fits, reverse=True
    )[:8]:
        print(
            f"| {weight:g} | {probe:g} | {refutation:g} | {a:.3f} | {b:.3f} | {whole:.3f} | {diabolical:.3f} |"
        )
    print(
        "\nthe cap (on half A, with the grade's weights): the depth's terms at most this many times "
        "the hardest step's cost"
    )
    print("| cap | half A | half B | all | diabolical only | capped |")
    print("| --- | --- | --- | --- | --- | --- |")
    for cap in (0.5, 0.75, 1.0, 1.5, 2.0, None):
        values = [difficulty(r, KNOWN_WEIGHT, cap=cap) for r in records]
        capped = sum(
            1
            for r, v in zip(records, values)
            if v != difficulty(r, KNOWN_WEIGHT, cap=None)
        )
        print(
            f"| {'none' if cap is None else f'{cap:g}'} | "
            + " | ".join(
                f"{rho(values, halves[part]):.3f}"
                for part in ("half A", "half B", "all", "diabolical")
            )
            + f" | {capped} |"
        )

    values = measures["difficulty (the grade)"]
    bounds, a_share = best_bounds(values, records, halves["half A"])
    b_share = share(values, records, halves["half B"], bounds)
    print(
        f"\nthe levels' bounds that best sort half A into the files: {', '.join(f'{b:g}' for b in bounds)} "
        f"(mean share of a file given its level: half A {a_share:.2f}, half B {b_share:.2f}); "
        f"the grade's: {', '.join(f'{b:g}' for _, b in LEVELS[:-1])}"
    )
    print(
        "\nlevels against the bank's files (rows: the file; columns: the level given)"
    )
    names = [name for name, _ in LEVELS]
    print("| file | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    grades = [level_of(v) for v in measures["difficulty (the grade)"]]
    for name in FILES:
        row = [
            sum(1 for r, g in zip(records, grades) if r["file"] == name and g == level)
            for level in names
        ]
        print(f"| {name} | " + " | ".join(map(str, row)) + " |")
    agree = statistics.fmean(
        sum(1 for r, g in zip(records, grades) if r["file"] == name and g == level)
        / counts[name]
        for name, level in zip(FILES, names)
        if counts[name]
    )
    print(f"\nmean share of each file given its own level: {agree:.2f}")
    seconds = [r["seconds"] for r in records]
    print(
        f"hint seconds: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}; "
        f"complete {sum(1 for r in records if r['complete'])} of {len(records)}; the depth's walk "
        f"reaches the answer (so its terms count) on "
        f"{sum(1 for r in records if (r.get('depth') or {}).get('complete'))}"
    )


def _part(text: str) -> tuple[int, int]:
    """argparse type of ``--part``: ``I/N`` with ``1 <= I <= N``."""
    try:
        which, every = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not I/N (such as 1/2)") from None
    if not 1 <= which <= every:
        raise argparse.ArgumentTypeError(f"{text!r}: I must be from 1 to N")
    return which, every


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rerun", action="store_true", help="hint every puzzle again")
    parser.add_argument(
        "--report", action="store_true", help="report from the results file only"
    )
    parser.add_argument(
        "--add-depth",
        action="store_true",
        help="give every record the depth's walk again (no hint run), then report",
    )
    parser.add_argument(
        "--time-limit", type=float, default=600.0, help="seconds per puzzle"
    )
    parser.add_argument(
        "--part",
        default=(1, 1),
        type=_part,
        help="I/N: hint only the I-th of every N puzzles (N processes side by side)",
    )
    args = parser.parse_args()
    which, every = args.part
    if args.rerun and every > 1:
        # each part would delete the results file the others are writing to
        parser.error(
            f"--rerun empties the results file, which every part writes to: remove {RESULTS} "
            "once, then run the parts without --rerun"
        )
    if args.add_depth:
        add_depth()
    elif not args.report:
        measure(args.rerun, args.time_limit, (which, every))
    report()


if __name__ == "__main__":
    main()
