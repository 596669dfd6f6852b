"""What a one-off ``gridlang solve --json`` of a daily costs before its work, beside the clingo script's.

Two measures of one daily (``daily-2026-09-02``, budget 17, by default),
each a new process as a user runs it, the spec served from its cache (a
first run fills it):

* ``python -X importtime``, ``--runs`` times for ``gridlang solve`` and for
  ``benchmarks/clingo_peer.py MAP BUDGET``: each module's own and
  cumulative microseconds, the least of the runs (the machine is shared:
  the least is the one least disturbed). Modules both load (``typing``,
  ``enum``, ``re``, ``json``, clingo's) cost gridlang nothing over the
  script; the report sums and lists those only gridlang loads, its own and
  the standard library's it brings.
* with ``--callgrind N``, valgrind's callgrind, ``N`` runs each: the
  instructions of the whole process and of its main thread (clasp's
  search thread moves from run to run; the main thread, where the imports
  and gridlang's work run, does not), the median of the runs, with
  ``PYTHONHASHSEED=0``. Instruction counts do not depend on the load.

Usage::

    python benchmarks/startup.py                             # importtime, 5 runs, the top 40 of gridlang's own
    python benchmarks/startup.py --runs 9 --top 80 --backend asp --callgrind 3
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from clingo_peer import _environment, _gridlang_command

ROOT = Path(__file__).resolve().parent.parent
PEER = Path(__file__).resolve().parent / "clingo_peer.py"
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def commands(daily: str, budget: int, backend: str) -> dict[str, list[str]]:
    """The two commands measured, by side: ``gridlang`` (``solve --json``, 30 s limit) and ``script``."""
    path = ROOT / "tests" / "data" / "horse" / f"{daily}.txt"
    return {
        "gridlang": _gridlang_command(path, budget, 30.0, backend),
        "script": [
            sys.executable,
            str(PEER),
            str(path),
            str(budget),
            "--time-limit",
            "30",
        ],
    }


def import_times(command: list[str]) -> dict[str, tuple[int, int]]:
    """``command`` run once under ``-X importtime``: ``{module: (own µs, cumulative µs)}``."""
    if (
        command[0] != sys.executable
    ):  # the console script: run by this Python, as its first line says
        command = [sys.executable, *command]
    run = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]],
        check=False,
        capture_output=True,
        text=True,
        env=_environment(),
        cwd="/",
    )
    times = {}
    for line in run.stderr.splitlines():
        m = LINE.match(line)
        if m:
            times[m.group(4)] = (int(m.group(1)), int(m.group(2)))
    return times


def least(runs: list[dict[str, tuple[int, int]]]) -> dict[str, tuple[int, int]]:
    """Each module every run loaded, with the least own and the least cumulative time of the runs."""
    names = set.intersection(*(set(r) for r in runs))
    return {n: (min(r[n][0] for r in runs), min(r[n][1] for r in runs)) for n in names}


def instructions(command: list[str], runs: int) -> tuple[int, int]:
    """The median of ``runs`` callgrind runs of ``command``: (the whole process's instructions, its main thread's)."""
    whole, main = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs):
            out = os.path.join(tmp, f"cg-{k}")
            subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    "--dump-instr=no",
                    "--separate-threads=yes",
                    f"--callgrind-out-file={out}",
                    *command,
                ],
                capture_output=True,
                env=dict(_environment(), PYTHONHASHSEED="0"),
                cwd="/",
                check=False,
            )
            counts = []
            for f in sorted(Path(tmp).glob(f"cg-{k}-*")):
                m = re.search(
                    r"^summary: (\d+)", f.read_text(errors="replace"), re.MULTILINE
                )
                counts.append(int(m.group(1)) if m else 0)
            whole.append(sum(counts))
            main.append(counts[0] if counts else 0)
    return int(statistics.median(whole)), int(statistics.median(main))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--daily",
        default="daily-2026-09-02",
        help="the map under tests/data/horse (default daily-2026-09-02)",
    )
    p.add_argument(
        "--budget", type=int, default=17, help="its wall budget (default 17)"
    )
    p.add_argument(
        "--backend", default="auto", help="gridlang's backend (default auto)"
    )
    p.add_argument(
        "--runs", type=int, default=5, help="importtime runs of each side (default 5)"
    )
    p.add_argument(
        "--top",
        type=int,
        default=40,
        help="gridlang's own modules listed, costliest first (default 40)",
    )
    p.add_argument(
        "--callgrind",
        type=int,
        default=0,
        metavar="N",
        help="also N callgrind runs of each side",
    )
    args = p.parse_args(argv)
    cmds = commands(args.daily, args.budget, args.backend)
    subprocess.run(
        cmds["gridlang"], check=False, capture_output=True, env=_environment(), cwd="/"
    )  # the spec cache filled
    times = {
        side: least([import_times(cmd) for _ in range(args.runs)])
        for side, cmd in cmds.items()
    }
    ours, script = times["gridlang"], times["script"]
    own = {n: t for n, t in ours.items() if n not in script}
    print(
        f"modules loaded: gridlang {len(ours)}, the script {len(script)}, both {len(set(ours) & set(script))}; "
        f"gridlang's own {len(own)} ({sum(n.startswith('gridlang') for n in own)} of gridlang)"
    )
    for label, table in (
        ("gridlang, every module", ours),
        ("gridlang's own", own),
        (
            "gridlang's own, gridlang's modules",
            {n: t for n, t in own.items() if n.startswith("gridlang")},
        ),
        ("the script, every module", script),
    ):
        print(
            f"  {label:38s} {sum(t[0] for t in table.values()) / 1000:7.2f} ms (sum of own times, least of {args.runs})"
        )
    print(
        f"\ngridlang's own modules, costliest first (own µs, cumulative µs), least of {args.runs} runs:"
    )
    for name, (self_us, cumulative) in sorted(own.items(), key=lambda kv: -kv[1][0])[
        : args.top
    ]:
        print(f"  {self_us:6d} {cumulative:7d}  {name}")
    if args.callgrind:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed: no instruction counts", file=sys.stderr)
            return 1
        print(
            f"\ninstructions (millions), median of {args.callgrind} callgrind runs: whole process, main thread"
        )
        for side, cmd in cmds.items():
            whole, main_thread = instructions(cmd, args.callgrind)
            print(f"  {side:9s} {whole / 1e6:8.1f} {main_thread / 1e6:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
