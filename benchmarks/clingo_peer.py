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
    python benchmarks/clingo_peer.py --compare --fresh       # both as a user runs them: a new process each
    python benchmarks/clingo_peer.py --compare --fresh --variant 'race=--set auto.race=asp,cpsat'
    python benchmarks/clingo_peer.py --compare --fresh --variant 'before=@/path/to/venv/bin/gridlang'
    python benchmarks/clingo_peer.py MAP BUDGET              # the script alone on one map: its answer as JSON
    python benchmarks/clingo_peer.py --batch 2 --maps '*'    # the 233 standard maps on a pool of 2 processes

The peer is timed warm (clingo imported before timing), from the facts'
text to the proved optimum. With ``--compare`` each map is then solved by a
new ``gridlang solve --json`` process (the user's view), timed by its own
``seconds.compile + seconds.solve``. Both answers are compared with the
known optimum in ``tests/data/horse/manifest.json``; the report gives the
median, 90th percentile (the 193rd of 214 sorted times, as ``gridlang
bench`` and ``milp_reference.py`` take it) and maximum of each, and how many maps each left
unproved within ``--time-limit`` seconds.

With ``--fresh`` both sides are timed as a person waits for them: each map
is solved by a new ``python clingo_peer.py MAP BUDGET`` process (the peer
as a script: Python's start, clingo's import, the facts, grounding and the
proof, its answer printed) and by a new ``gridlang solve SPEC --map MAP
--budget B --json`` process (the ``gridlang`` command beside this Python),
each timed from its start to its exit by the wall clock, with its CPU
seconds (user and system, its threads included); which of the two runs
first rotates from map to map (with --variant, each variant is one more run). Run alone on one map, the script imports
nothing but ``sys``, ``json``, ``collections`` and clingo.

With ``--batch N`` the peer runs as ``gridlang batch`` does: the maps on a
pool of ``N`` worker processes, each importing clingo once, answers written
as they come; it prints the total wall time and maps per second
(``benchmarks/peak_memory.py`` measures the pool's memory from outside).
"""

from __future__ import annotations

import json
import sys
from collections import deque

VALUES = {".": 1, "H": 1, "C": 4, "G": 11, "S": -4}
"""The tiles' values (``milp_reference.VALUES``; the script alone imports nothing of it)."""

PROGRAM = """
{ wall(V) : grass(V) } B :- budget(B).
reach(V) :- horse(V).
reach(V) :- reach(U), edge(U, V), passable(V), not wall(V).
:- reach(V), border(V).
#maximize { W, V : reach(V), value(V, W) }.
#show wall/1.
"""



def read_map(path) -> list[str]:
    """The map's rows (equal width, the game's characters), as ``milp_reference.read_map`` reads them."""
    with open(path, encoding="utf-8") as f:
        return [r for r in (line.rstrip("\r\n") for line in f) if r]


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


def solve_peer(path, budget: int, time_limit: float) -> tuple[int | None, bool]:
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


def _environment() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's run keeps its bytecode caches
    return env


def _gridlang_command(path, budget: int, time_limit: float, backend: str, extra: tuple[str, ...] = ()) -> list[str]:
    """``gridlang solve --json`` as a user types it: the console script beside this Python, else ``-m gridlang``;
    ``extra`` (a variant's arguments, ``--set auto.race=asp,cpsat``) at the end. A first word of ``extra``
    that starts with ``@`` names another install's console script (``@/tmp/before/bin/gridlang``), run
    instead, so that two builds are timed side by side."""
    from pathlib import Path

    from milp_reference import SPEC

    script = Path(sys.executable).with_name("gridlang")
    if extra and extra[0].startswith("@"):
        script, extra = Path(extra[0][1:]), extra[1:]
        if not script.is_file():
            raise SystemExit(f"clingo_peer: no console script at {script}")
    head = [str(script)] if script.is_file() else [sys.executable, "-m", "gridlang"]
    return head + ["solve", str(SPEC), "--map", str(path), "--budget", str(budget), "--backend", backend,
                   "--time-limit", str(time_limit), "--json", *extra]


def _gridlang_answer(stdout: str) -> tuple[int | None, bool, dict]:
    """A ``gridlang solve --json`` answer: ``(verified score, proved, seconds by phase)``."""
    try:
        d = json.loads(stdout)
    except json.JSONDecodeError:
        return None, False, {}
    good = d.get("verified") is True
    return (d.get("verified_score") if good else None), d.get("status") == "OPTIMAL" and good, d.get("seconds", {})


def solve_gridlang(path, budget: int, time_limit: float, backend: str) -> tuple[int | None, bool, float]:
    """``gridlang solve --json`` in a new process: ``(verified score, proved, compile + solve seconds)``."""
    import subprocess

    run = subprocess.run(_gridlang_command(path, budget, time_limit, backend), capture_output=True, text=True,
                         env=_environment(), cwd="/")
    got, proved, s = _gridlang_answer(run.stdout)
    return got, proved, (s["compile"] + s["solve"]) if s else float("nan")


def timed_process(command: list[str]) -> tuple[str, float, float]:
    """Run ``command`` in a new process from ``/``: ``(standard output, wall seconds, CPU seconds)``.

    The wall clock runs from just before the process is started to its
    exit; the CPU seconds are its user and system time, its threads
    included (``wait4``'s resource usage).
    """
    import os
    import subprocess
    import tempfile
    import time

    with tempfile.TemporaryFile("w+") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=_environment(), cwd="/")
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = 0  # reaped above
        out.seek(0)
        return out.read(), wall, usage.ru_utime + usage.ru_stime


def solve_fresh(path, budget: int, time_limit: float, backend: str, order: int,
                variants: dict[str, tuple[str, ...]] | None = None) -> dict[str, dict]:
    """One map solved by the peer script and by ``gridlang solve``, each in a new process, timed as a user waits.

    Args:
        order: which run goes first; the runs (the peer, then each
            variant) are rotated by ``order`` places, so that over the maps
            each is first as often as the others.
        variants: gridlang's runs by name, each with its extra arguments;
            default one, ``gridlang``, with none.

    Returns:
        ``{"peer": ..., NAME: ...}``, each ``score``, ``proved``,
        ``seconds`` (the wall clock, start to exit) and ``cpu``; gridlang's
        also ``phases``, its own ``seconds``.
    """
    peer = [sys.executable, __file__, str(path), str(budget), "--time-limit", str(time_limit)]
    runs = [("peer", peer)] + [(name, _gridlang_command(path, budget, time_limit, backend, extra))
                               for name, extra in (variants or {"gridlang": ()}).items()]
    k = order % len(runs)
    row = {}
    for name, command in runs[k:] + runs[:k]:
        stdout, wall, cpu = timed_process(command)
        if name == "peer":
            try:
                d = json.loads(stdout)
                got, proved, phases = d["score"], d["proved"], None
            except (json.JSONDecodeError, KeyError):
                got, proved, phases = None, False, None
        else:
            got, proved, phases = _gridlang_answer(stdout)
        row[name] = {"score": got, "proved": proved, "seconds": round(wall, 4), "cpu": round(cpu, 4)}
        if phases is not None:
            row[name]["phases"] = phases
    return row


def script(argv: list[str]) -> int:
    """The peer as a script on one map: ``MAP BUDGET [--time-limit S]``; prints ``{"score", "proved"}``."""
    limit = float(argv[argv.index("--time-limit") + 1]) if "--time-limit" in argv else 60.0
    got, proved = solve_peer(argv[0], int(argv[1]), limit)
    print(json.dumps({"score": got, "proved": proved}))
    return 0


def _batch_task(task: tuple) -> tuple[str, int | None, bool, int]:
    """One map of ``--batch``, in a pool worker: ``(name, score, proved, known optimum)``."""
    path, budget, optimum, limit = task
    got, proved = solve_peer(path, budget, limit)
    return path.name, got, proved, optimum


def batch(todo: list, workers: int, limit: float, out=None) -> int:
    """The maps of ``todo`` on a pool of ``workers`` processes; prints wall time, maps per second, misses.

    Returns:
        1 when a proved answer differs from the known optimum, else 0.
    """
    import multiprocessing
    import time

    t0 = time.perf_counter()
    proved_right = unproved = wrong = 0
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for name, got, proved, optimum in pool.imap_unordered(_batch_task, [(*t, limit) for t in todo]):
            unproved += not proved
            wrong += proved and got != optimum
            proved_right += proved and got == optimum
            if out is not None:
                out.write(json.dumps({"name": name, "score": got, "proved": proved, "optimum": optimum}) + "\n")
    wall = time.perf_counter() - t0
    print(f"peer batch: {len(todo)} maps on {workers} processes in {wall:.1f} s, {len(todo) / wall:.2f} maps/s; "
          f"{proved_right} proved at the known optimum, {unproved} unproved, {wrong} wrong")
    return 1 if wrong else 0


def main(argv: list[str] | None = None) -> int:
    import statistics
    import time

    from milp_reference import arguments, cases, emit, percentile

    p = arguments(__doc__, "also run `gridlang solve --json`, interleaved")
    p.add_argument("--backend", default="auto", help="gridlang's backend with --compare (default auto)")
    p.add_argument("--time-limit", type=float, default=60, help="seconds per solve (default 60)")
    p.add_argument("--fresh", action="store_true",
                   help="with --compare: the peer script and gridlang each in a new process, timed start to exit")
    p.add_argument("--batch", type=int, metavar="N", help="the peer alone on a pool of N processes, as gridlang batch")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=ARGS",
                   help="with --compare --fresh: one more gridlang run per map, NAME, with the extra arguments "
                        "ARGS (--variant 'race=--set auto.race=asp,cpsat'); a first word @PATH runs the console "
                        "script PATH of another install (--variant 'before=@/tmp/venv/bin/gridlang'); repeatable")
    args = p.parse_args(argv)
    variants = {"gridlang": ()}
    for v in args.variant:
        name, _, extra = v.partition("=")
        if not name or name in variants or name == "peer":
            p.error(f"--variant {v!r}: give NAME=ARGS with a new name")
        variants[name] = tuple(extra.split())
    if len(variants) > 1 and not (args.compare and args.fresh):
        p.error("--variant needs --compare --fresh")
    todo = cases(args.maps)
    if not todo:
        print("no maps match", file=sys.stderr)
        return 1
    if args.batch:
        with open(args.out or "/dev/null", "w") as out:
            return batch(todo, args.batch, args.time_limit, out)
    if not args.fresh:
        solve_peer(*todo[0][:2], args.time_limit)  # warm-up: clingo's import is paid before timing
    times: dict[str, list[float]] = {"peer": []}
    if args.compare:
        times.update({name: [] for name in variants})
    cpu: dict[str, list[float]] = {k: [] for k in times}
    unproved = {k: 0 for k in times}
    wrong = 0
    out = open(args.out, "w") if args.out else None
    for k, (path, budget, optimum) in enumerate(todo):
        if args.compare and args.fresh:
            row = {"name": path.name, "optimum": optimum, **solve_fresh(path, budget, args.time_limit, args.backend,
                                                                         k, variants)}
        else:
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
            if "cpu" in r:
                cpu[name].append(r["cpu"])
            unproved[name] += not r["proved"]
            wrong += r["proved"] and r["score"] != optimum
        emit(row, out, None if args.quiet else f"{path.name:28s} " + "  ".join(
            f"{n} {row[n]['score']} {row[n]['seconds']:7.3f} s{'' if row[n]['proved'] else ' unproved'}"
            for n in times))
    if out:
        out.close()
    print()
    for name, ts in times.items():
        label = name if name == "peer" else f"gridlang {args.backend}" if name == "gridlang" else name
        line = (f"{label:15s} maps {len(ts):4d}  median {statistics.median(ts):.3f} s  p90 {percentile(ts, 90):.3f} s  "
                f"max {max(ts):.3f} s  unproved {unproved[name]}")
        if cpu[name]:
            line += f"  cpu median {statistics.median(cpu[name]):.3f} s  p90 {percentile(cpu[name], 90):.3f} s"
        print(line)
    if wrong:
        print(f"{wrong} proved answers differ from the known optimum", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and not sys.argv[1].startswith("-"):
        sys.exit(script(sys.argv[1:]))
    sys.exit(main())
