"""A hand-written highspy model of enclose.horse, and a same-moment comparison with gridlang's MILP path.

The reference reads a standard map itself, builds the MILP straight into
``highspy.Highs`` (arrays, no modelling layer), solves it with the lazy
vertex-separator cut loop, and checks the answer by a flood fill from the
horse. It shares no code with gridlang, so the gap between the two is the
price of the spec, the IR and Pyomo.

Model (``p_v``: cell ``v`` is in the pen, for every passable cell; ``w_v``: a
wall on grass cell ``v``)::

    maximize  sum value(v) * p_v
    p_v = 0                      v on the border
    p_horse = 1
    w_v + p_v <= 1               v grass
    p_u <= p_v + w_v             (u, v) neighbours or portal twins (w_v: grass only)
    sum w_v <= budget
    p_s <= sum_{r in N(C)} p_r   s in C, C a component of the pen without the horse (lazy)

The cut loop adds every cut of a round in one ``addRows`` and runs HiGHS
again on the same ``Highs`` object. HiGHS options are its defaults, with the
log off.

Usage::

    python benchmarks/milp_reference.py                          # reference alone, the 214 dailies
    python benchmarks/milp_reference.py --compare                # interleaved with gridlang milp
    python benchmarks/milp_reference.py --compare --maps 'daily-2026-01-0*'

With ``--compare`` each map is solved by both, alternating which goes first,
one solver at a time, in one process (imports paid once, before timing). Wall
and CPU seconds are parse to verified answer for both; the report gives
median, 90th percentile and maximum of each and the ratio of medians.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HORSE_DATA = ROOT / "tests" / "data" / "horse"
SPEC = ROOT / "puzzles" / "horse.grid"

VALUES = {".": 1, "H": 1, "C": 4, "G": 11, "S": -4}


def read_map(path: Path) -> list[str]:
    """The map's rows (equal width, the game's characters)."""
    rows = [line.rstrip("\r\n") for line in path.read_text().splitlines()]
    return [r for r in rows if r]


def solve_reference(path: Path, budget: int) -> tuple[int, int]:
    """Solve one standard map with the reference model.

    Returns:
        ``(score, cut_rounds)``: the verified score and the number of cut rounds.

    Raises:
        RuntimeError: HiGHS did not prove an optimum, or the answer fails the flood fill.
    """
    import highspy
    import numpy as np

    rows = read_map(path)
    h, w = len(rows), len(rows[0])
    passable = [(r, c) for r in range(h) for c in range(w) if rows[r][c] != "~"]
    index = {cell: i for i, cell in enumerate(passable)}
    n = len(passable)
    adj: list[list[int]] = [[] for _ in range(n)]
    twins: dict[str, list[int]] = {}
    for (r, c), i in index.items():
        for dr, dc in ((1, 0), (0, 1)):
            j = index.get((r + dr, c + dc))
            if j is not None:
                adj[i].append(j)
                adj[j].append(i)
        ch = rows[r][c]
        if ch.isdigit() or ch.islower():
            twins.setdefault(ch, []).append(i)
    for group in twins.values():
        for a in group:
            adj[a].extend(b for b in group if b != a)
    grass = [i for i, (r, c) in enumerate(passable) if rows[r][c] == "."]
    wall_col = {i: n + k for k, i in enumerate(grass)}
    horse = next(i for i, (r, c) in enumerate(passable) if rows[r][c] == "H")

    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    ncols = n + len(grass)
    cost = np.zeros(ncols)
    lower = np.zeros(ncols)
    upper = np.ones(ncols)
    for i, (r, c) in enumerate(passable):
        ch = rows[r][c]
        cost[i] = VALUES.get(ch, 1)
        if r in (0, h - 1) or c in (0, w - 1):
            upper[i] = 0
    lower[horse] = 1
    highs.addVars(ncols, lower, upper)
    highs.changeColsCost(ncols, np.arange(ncols, dtype=np.int32), cost)
    highs.changeColsIntegrality(ncols, np.arange(ncols, dtype=np.int32),
                                np.full(ncols, highspy.HighsVarType.kInteger))
    highs.changeObjectiveSense(highspy.ObjSense.kMaximize)

    lo: list[float] = []
    hi: list[float] = []
    starts: list[int] = []
    idx: list[int] = []
    val: list[float] = []

    def row(terms: list[tuple[int, float]], lb: float, ub: float) -> None:
        starts.append(len(idx))
        for j, a in terms:
            idx.append(j)
            val.append(a)
        lo.append(lb)
        hi.append(ub)

    for i in grass:
        row([(i, 1), (wall_col[i], 1)], -inf, 1)
    for u in range(n):
        for v in adj[u]:
            terms = [(u, 1), (v, -1)]
            if v in wall_col:
                terms.append((wall_col[v], -1))
            row(terms, -inf, 0)
    row([(wall_col[i], 1) for i in grass], -inf, budget)

    def flush() -> None:
        highs.addRows(len(lo), np.array(lo), np.array(hi), len(idx),
                      np.array(starts, dtype=np.int32), np.array(idx, dtype=np.int32), np.array(val))
        lo.clear(), hi.clear(), starts.clear(), idx.clear(), val.clear()

    flush()
    rounds = 0
    while True:
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"{path.name}: HiGHS status {highs.modelStatusToString(highs.getModelStatus())}")
        x = highs.getSolution().col_value
        pen = {i for i in range(n) if x[i] > 0.5}
        seen = {horse}
        stack = [horse]
        while stack:
            u = stack.pop()
            for v in adj[u]:
                if v in pen and v not in seen:
                    seen.add(v)
                    stack.append(v)
        stray = pen - seen
        if not stray:
            break
        rounds += 1
        while stray:
            start = stray.pop()
            comp = [start]
            stack = [start]
            while stack:
                u = stack.pop()
                for v in adj[u]:
                    if v in stray:
                        stray.discard(v)
                        comp.append(v)
                        stack.append(v)
            inside = set(comp)
            rim = sorted({v for u in comp for v in adj[u] if v not in inside})
            for s in comp:
                row([(s, 1)] + [(v, -1) for v in rim], -inf, 0)
        flush()
    walls = {i for i in grass if x[wall_col[i]] > 0.5}
    return _verify(rows, passable, adj, horse, walls, budget), rounds


def _verify(rows: list[str], passable: list[tuple[int, int]], adj: list[list[int]], horse: int,
            walls: set[int], budget: int) -> int:
    """The flood fill from the horse around the walls: the pen's score; raises if it escapes."""
    if len(walls) > budget:
        raise RuntimeError("over budget")
    h, w = len(rows), len(rows[0])
    seen = {horse}
    stack = [horse]
    while stack:
        u = stack.pop()
        r, c = passable[u]
        if r in (0, h - 1) or c in (0, w - 1):
            raise RuntimeError("the horse reaches the border")
        for v in adj[u]:
            if v not in walls and v not in seen:
                seen.add(v)
                stack.append(v)
    return sum(VALUES.get(rows[r][c], 1) for r, c in (passable[i] for i in seen))


def solve_gridlang(path: Path, budget: int) -> tuple[int, int]:
    """The gridlang MILP path, parse to verified answer: ``(score, cut_rounds)``."""
    from gridlang.ir.backend import SolveOptions
    from gridlang.solving.pipeline import solve

    report = solve(SPEC, path, {"budget": str(budget)}, backend="milp", options=SolveOptions(time_limit=120))
    if report.result.status.value != "OPTIMAL":
        raise RuntimeError(f"{path.name}: gridlang status {report.result.status.value}")
    return report.score, int(report.result.stats.get("cut_rounds", 0))


def cases(pattern: str) -> list[tuple[Path, int, int]]:
    """Standard maps matching ``pattern`` with a budget and a known optimum, as in ``bench.py``."""
    manifest = json.loads((HORSE_DATA / "manifest.json").read_text())
    out = []
    for e in manifest:
        expected = e["optimal_score"] if e["optimal_score"] is not None else e.get("reference_optimum")
        if e["variant"] == "standard" and e["budget"] is not None and expected is not None \
                and fnmatch.fnmatch(e["file"], pattern):
            out.append((HORSE_DATA / e["file"], e["budget"], expected))
    return out


def _timed(fn, path: Path, budget: int) -> tuple[int, int, float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    score, rounds = fn(path, budget)
    return score, rounds, time.perf_counter() - t0, time.process_time() - c0


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile, nearest rank: the 193rd of 214 sorted values for q = 90."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def emit(row: dict, out, line: str | None) -> None:
    """One map's result: ``row`` as a JSON line to ``out`` (an open file, or None), and ``line`` printed (None: quiet)."""
    if out:
        out.write(json.dumps(row) + "\n")
    if line is not None:
        print(line, flush=True)


def arguments(doc: str, compare: str) -> argparse.ArgumentParser:
    """The options of a comparison script: ``--maps``, ``--compare`` (helped by ``compare``), ``--out``, ``--quiet``."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--maps", default="daily-*", help="map files matching this glob (default: the dailies)")
    p.add_argument("--compare", action="store_true", help=compare)
    p.add_argument("--out", help="write one JSON line per map here")
    p.add_argument("--quiet", action="store_true", help="print the summary only")
    return p


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__, "also run gridlang's MILP path, interleaved").parse_args(argv)
    todo = cases(args.maps)
    if not todo:
        print("no maps match", file=sys.stderr)
        return 1
    solvers = {"reference": solve_reference}
    if args.compare:
        solvers["gridlang"] = solve_gridlang
    # Warm-up: imports and first-call costs are paid once, before timing.
    for fn in solvers.values():
        fn(*todo[0][:2])
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in solvers}
    out = open(args.out, "w") if args.out else None
    bad = 0
    for k, (path, budget, optimum) in enumerate(todo):
        order = list(solvers) if k % 2 == 0 else list(reversed(solvers))
        row: dict[str, object] = {"name": path.name, "optimum": optimum}
        for name in order:
            score, rounds, wall, cpu = _timed(solvers[name], path, budget)
            times[name].append((wall, cpu))
            row[name] = {"score": score, "rounds": rounds, "seconds": round(wall, 4), "cpu": round(cpu, 4)}
            if score != optimum:
                bad += 1
        emit(row, out, None if args.quiet else f"{path.name:28s} " + "  ".join(
            f"{n} {row[n]['score']:4d} {row[n]['seconds']:7.3f} s cpu {row[n]['cpu']:7.3f} s r{row[n]['rounds']}"
            for n in solvers))
    if out:
        out.close()
    print()
    medians = {}
    for name, ts in times.items():
        wall = [t[0] for t in ts]
        cpu = [t[1] for t in ts]
        medians[name] = (statistics.median(wall), statistics.median(cpu))
        print(f"{name:10s} maps {len(ts):4d}  wall median {medians[name][0]:.3f} s p90 {percentile(wall, 90):.3f} s "
              f"max {max(wall):.3f} s  cpu median {medians[name][1]:.3f} s p90 {percentile(cpu, 90):.3f} s "
              f"max {max(cpu):.3f} s")
    if args.compare:
        g, r = medians["gridlang"], medians["reference"]
        print(f"ratio of medians gridlang / reference: wall {g[0] / r[0]:.2f}  cpu {g[1] / r[1]:.2f}")
    if bad:
        print(f"{bad} answers differ from the published optimum", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
