"""The five-rule clingo model of enclose.horse that issue 18 measures gridlang against, side by side.

The peer reads a standard map itself, states the puzzle in five rules of
answer-set programming, and has clingo prove the optimum on one thread.
Reachability is a recursive rule, so it needs no flow and no cuts::

    { wall(V) : grass(V) } B :- budget(B).
    reach(V) :- horse(V).
    reach(V) :- reach(U), edge(U, V), passable(V), not wall(V).
    :- reach(V), border(V).
    #maximize { W, V : reach(V), value(V, W) }.

over the facts ``passable/1``, ``grass/1``, ``horse/1``, ``border/1``,
``value/2``, ``budget/1`` and ``edge/2`` (side neighbours and portal twins,
both ways). Its answer is checked by a flood fill from the horse. It shares
no code with gridlang.

Usage::

    python benchmarks/clingo_peer.py                         # the peer alone, the 214 dailies
    python benchmarks/clingo_peer.py --compare               # interleaved with `gridlang solve --json`
    python benchmarks/clingo_peer.py --compare --maps 'daily-2026-01-0*' --backend cpsat

The peer is timed warm (clingo imported before timing), from the facts'
text to the proved optimum. With ``--compare`` each map is then solved by a
new ``gridlang solve --json`` process (the user's view), timed by its own
``seconds.compile + seconds.solve``. Both answers are compared with the
known optimum in ``tests/data/horse/manifest.json``; the report gives the
median, 90th percentile (the 193rd of 214 sorted times, as ``gridlang
bench`` and ``milp_reference.py`` take it) and maximum of each, and how many maps each left
unproved within ``--time-limit`` seconds.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

# The map reading, tile values and map list of the other reference model,
# which shares no code with gridlang either.
from milp_reference import SPEC, VALUES, arguments, cases, emit, percentile, read_map

PROGRAM = """
{ wall(V) : grass(V) } B :- budget(B).
reach(V) :- horse(V).
reach(V) :- reach(U), edge(U, V), passable(V), not wall(V).
:- reach(V), border(V).
#maximize { W, V : reach(V), value(V, W) }.
#show wall/1.
"""



def neighbours(rows: list[str]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Passable cell -> its passable side neighbours and portal twins."""
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c] != "~"]
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {v: [] for v in cells}
    twins: dict[str, list[tuple[int, int]]] = {}
    for r, c in cells:
        for v in ((r + 1, c), (r, c + 1)):
            if v in adj:
                adj[(r, c)].append(v)
                adj[v].append((r, c))
        ch = rows[r][c]
        if ch.isdigit() or ch.islower():
            twins.setdefault(ch, []).append((r, c))
    for group in twins.values():
        for a in group:
            adj[a].extend(b for b in group if b != a)
    return adj


def facts(rows: list[str], budget: int) -> str:
    """The map as facts for :data:`PROGRAM`; cells numbered ``r * width + c``."""
    h, w = len(rows), len(rows[0])
    out = [f"budget({budget})."]
    for (r, c), vs in neighbours(rows).items():
        v = r * w + c
        ch = rows[r][c]
        out.append(f"passable({v}). value({v},{VALUES.get(ch, 1)}).")
        if ch == ".":
            out.append(f"grass({v}).")
        elif ch == "H":
            out.append(f"horse({v}).")
        if r in (0, h - 1) or c in (0, w - 1):
            out.append(f"border({v}).")
        out.extend(f"edge({v},{a * w + b})." for a, b in vs)
    return "\n".join(out)


def score(rows: list[str], walls: set[tuple[int, int]], budget: int) -> int | None:
    """The pen's value by a flood fill from the horse; None when the walls break a rule."""
    h, w = len(rows), len(rows[0])
    if len(walls) > budget or any(rows[r][c] != "." for r, c in walls):
        return None
    adj = neighbours(rows)
    start = next(v for v in adj if rows[v[0]][v[1]] == "H")
    seen, todo = {start}, deque([start])
    while todo:
        u = todo.popleft()
        if u[0] in (0, h - 1) or u[1] in (0, w - 1):
            return None
        for v in adj[u]:
            if v not in seen and v not in walls:
                seen.add(v)
                todo.append(v)
    return sum(VALUES.get(rows[r][c], 1) for r, c in seen)


def solve_peer(path: Path, budget: int, time_limit: float) -> tuple[int | None, bool]:
    """Solve one map with the peer program on one clingo thread.

    Returns:
        ``(score, proved)``: the flood-filled score of clingo's last model
        (None without one, or when it breaks a rule) and whether clingo
        proved it optimal within ``time_limit`` seconds.
    """
    import clingo

    rows = read_map(path)
    w = len(rows[0])
    ctl = clingo.Control(["--opt-mode=opt", "--parallel-mode=1"])
    ctl.add("base", [], facts(rows, budget) + PROGRAM)
    ctl.ground([("base", [])])
    last: list[set[tuple[int, int]]] = []

    def on_model(m) -> None:
        last[:] = [{divmod(s.arguments[0].number, w) for s in m.symbols(shown=True)}]

    with ctl.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(time_limit):
            handle.cancel()
        outcome = handle.get()
    proved = bool(outcome.exhausted) and not outcome.interrupted
    return (score(rows, last[0], budget) if last else None), proved


def solve_gridlang(path: Path, budget: int, time_limit: float, backend: str) -> tuple[int | None, bool, float]:
    """``gridlang solve --json`` in a new process: ``(verified score, proved, compile + solve seconds)``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's run keeps its bytecode caches
    run = subprocess.run([sys.executable, "-m", "gridlang", "solve", str(SPEC), "--map", str(path),
                          "--budget", str(budget), "--backend", backend, "--time-limit", str(time_limit),
                          "--json"], capture_output=True, text=True, env=env, cwd="/")
    try:
        d = json.loads(run.stdout)
    except json.JSONDecodeError:
        return None, False, float("nan")
    s = d["seconds"]
    good = d.get("verified") is True
    return (d.get("verified_score") if good else None), d["status"] == "OPTIMAL" and good, s["compile"] + s["solve"]


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__, "also run `gridlang solve --json`, interleaved")
    p.add_argument("--backend", default="auto", help="gridlang's backend with --compare (default auto)")
    p.add_argument("--time-limit", type=float, default=60, help="seconds per solve (default 60)")
    args = p.parse_args(argv)
    todo = cases(args.maps)
    if not todo:
        print("no maps match", file=sys.stderr)
        return 1
    solve_peer(*todo[0][:2], args.time_limit)  # warm-up: clingo's import is paid before timing
    times: dict[str, list[float]] = {"peer": []}
    if args.compare:
        times["gridlang"] = []
    unproved = {k: 0 for k in times}
    wrong = 0
    out = open(args.out, "w") if args.out else None
    for path, budget, optimum in todo:
        t0 = time.perf_counter()
        got, proved = solve_peer(path, budget, args.time_limit)
        row = {"name": path.name, "optimum": optimum,
               "peer": {"score": got, "proved": proved, "seconds": round(time.perf_counter() - t0, 4)}}
        if args.compare:
            g, g_proved, g_sec = solve_gridlang(path, budget, args.time_limit, args.backend)
            row["gridlang"] = {"score": g, "proved": g_proved, "seconds": round(g_sec, 4)}
        for name in times:
            r = row[name]
            times[name].append(r["seconds"])
            unproved[name] += not r["proved"]
            wrong += r["proved"] and r["score"] != optimum
        emit(row, out, None if args.quiet else f"{path.name:28s} " + "  ".join(
            f"{n} {row[n]['score']} {row[n]['seconds']:7.3f} s{'' if row[n]['proved'] else ' unproved'}"
            for n in times))
    if out:
        out.close()
    print()
    for name, ts in times.items():
        label = name if name == "peer" else f"gridlang {args.backend}"
        print(f"{label:15s} maps {len(ts):4d}  median {statistics.median(ts):.3f} s  p90 {percentile(ts, 90):.3f} s  "
              f"max {max(ts):.3f} s  unproved {unproved[name]}")
    if wrong:
        print(f"{wrong} proved answers differ from the known optimum", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
