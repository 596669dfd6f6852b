"""``gridlang bench``: named sets of real puzzles on several backends, interleaved map by map.

Each map is solved by every backend in turn before the next map starts, so
that a change in the machine's load falls on all backends alike. A solve
runs warm, in this process (the solver libraries imported once, as in a
batch), or ``fresh``, in a new ``gridlang solve --json`` process each time
(the user's view, start-up included). Every row goes to a JSON-lines file
in the format of ``gridlang batch`` (so ``gridlang plot`` draws it), plus
``set``, ``expected`` (the known optimum, or None), ``correct`` (verified,
proved, and at the known optimum; with ``unique``, proved unique),
``wall`` (seconds of the whole call, process start-up included when
fresh), ``cpu`` (CPU seconds of the call, solver threads included; when
fresh, the child process's own, where the system reports them) and, when
fresh, ``peak_memory`` (the process's peak resident size, bytes).

The summary gives, beside the chosen phases (``compile+solve`` by
default), the end-to-end wall time of the same rows: with ``--fresh``
what a person waits for, from the process's start to its exit.

Named sets, from a checkout's ``tests/data/horse`` (its ``manifest.json``
gives budgets and known optima) and ``puzzles/instances``:

* ``dailies`` (214 standard dailies), ``weeklies`` (7), ``customs`` (12),
  ``standard`` (the 233 of them), ``january`` (the 31 dailies of January
  2026), ``costlywalls``, ``lovebirds``, ``loversquarrel``;
* ``snake-eggs``: the Snake Eggs instances, solved with ``--unique``;
* ``genres``: every instance of every classic genre bundled with a spec
  (``puzzles/instances/NAME/*.txt`` beside ``puzzles/NAME.grid``), solved
  with ``--unique``;
* ``urls``: the puzz.link URLs of ``benchmarks/urls.txt``, real puzzles
  published as examples by other solvers and editors (each line's comment
  names its source) and none of them among the tests' instances, each
  solved with its genre's bundled spec (as ``gridlang solve --url``) and
  ``--unique``;
* ``hard-tail``: three near-empty 30x30 maps (grass with a few water
  cells, the horse near the centre) with budgets 30, 35 and 40, generated
  here with a fixed seed: the shape of map that took a 32-thread MILP
  thousands of seconds in the UCSD study.
"""

from __future__ import annotations

# random, statistics and subprocess are imported where used: the CLI imports
# this module for SETS on every command, ``gridlang check`` included.
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

from gridlang.core.errors import GridlangError, MapError, Span

SETS = ("dailies", "weeklies", "customs", "standard", "january", "costlywalls", "lovebirds",
        "loversquarrel", "snake-eggs", "genres", "urls", "hard-tail")

SPEC_OF = {"standard": "horse.grid", "costlywalls": "horse_costlywalls.grid", "lovebirds": "horse_lovebirds.grid",
           "loversquarrel": "horse_loversquarrel.grid"}


def cases(name: str, root: Path, pattern: str | None = None) -> list[dict[str, Any]]:
    """The maps of a named set: ``spec``, ``map``, ``params``, ``expected``, ``unique``, ``name``.

    Args:
        name: one of :data:`SETS`.
        root: the checkout (holding ``puzzles/`` and ``tests/data/horse``).
        pattern: keep only map files whose name matches this glob.

    Raises:
        MapError: an unknown set, or a checkout without the set's data.
    """
    import fnmatch

    puzzles = root / "puzzles"
    if name not in SETS:
        raise MapError(f"unknown set {name!r}; choose one of {', '.join(SETS)}", Span("<bench>", 1, 1))
    if name == "snake-eggs":
        out = [{"name": p.name, "spec": puzzles / "snake_eggs.grid", "map": p, "params": {}, "expected": None,
                "unique": True} for p in sorted((puzzles / "instances" / "snake_eggs").rglob("*.txt"))]
    elif name == "genres":
        out = [{"name": f"{spec.stem}/{p.stem}", "spec": spec, "map": p, "params": {}, "expected": None,
                "unique": True}
               for spec in sorted(puzzles.glob("*.grid")) if spec.stem != "snake_eggs"
               for p in sorted((puzzles / "instances" / spec.stem).glob("*.txt"))]
    elif name == "urls":
        out = url_cases(root / "benchmarks" / "urls.txt")
    elif name == "hard-tail":
        out = [{"name": f"near-empty-30x30-budget-{b}", "spec": puzzles / "horse.grid", "map": hard_tail_map(b),
                "params": {"budget": str(b)}, "expected": None, "unique": False} for b in (30, 35, 40)]
    else:
        data = root / "tests" / "data" / "horse"
        manifest = data / "manifest.json"
        if not manifest.is_file():
            raise MapError("no tests/data/horse/manifest.json here: run gridlang bench from a checkout, "
                           "or give --root", Span(str(manifest), 1, 1))
        records = json.loads(manifest.read_text(encoding="utf-8"))
        variant = name if name in SPEC_OF else "standard"
        kinds = {"dailies": {"daily"}, "january": {"daily"}, "weeklies": {"weekly"}, "customs": {"custom"}}.get(
            name, {"daily", "weekly", "custom", "bonus"})
        out = []
        for e in sorted(records, key=lambda e: e["file"]):
            expected = e["optimal_score"] if e["optimal_score"] is not None else e.get("reference_optimum")
            if e["variant"] != variant or e["kind"] not in kinds or e["budget"] is None or expected is None:
                continue
            if name == "january" and not e["file"].startswith("daily-2026-01-"):
                continue
            out.append({"name": e["file"], "spec": puzzles / SPEC_OF[variant], "map": data / e["file"],
                        "params": {"budget": str(e["budget"])}, "expected": expected, "unique": False})
    if pattern:
        out = [c for c in out if fnmatch.fnmatch(c["name"], pattern)]
    return out


def url_cases(path: Path) -> list[dict[str, Any]]:
    """The cases of a file of puzz.link URLs, one per line (``#`` starts a comment, blank lines are
    skipped); each case is named ``GENRE/COLSxROWS`` from its URL, with ``-2``, ``-3`` for repeats.

    Raises:
        MapError: no such file.
        UrlError: a line that is no puzz.link URL (located at its line, with a caret).
    """
    # imported on use, not at start-up
    from gridlang.language.encodings.url import Where, parse_url

    if not path.is_file():
        raise MapError(f"no {path.name} at {path.parent}: run gridlang bench from a checkout, or give --root",
                       Span(str(path), 1, 1))
    text = path.read_text(encoding="utf-8")
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        url = line.split("#", 1)[0].strip()
        if not url:
            continue
        link = parse_url(url, Where(str(path), number, line.index(url) + 1, text))
        name = f"{link.pid}/{link.cols}x{link.rows}"
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name += f"-{seen[name]}"
        out.append({"name": name, "spec": None, "map": None, "url": url, "params": {}, "expected": None,
                    "unique": True})
    return out


def hard_tail_map(budget: int, size: int = 30, seed: int = 7) -> str:
    """A near-empty ``size`` x ``size`` map (about 3 % water, the horse near the centre), as text."""
    import random

    rng = random.Random(seed * 1000 + budget)
    rows = [["." for _ in range(size)] for _ in range(size)]
    for _ in range(size * size * 3 // 100):
        rows[rng.randrange(size)][rng.randrange(size)] = "~"
    rows[size // 2][size // 2 - 1] = "H"
    return "\n".join("".join(r) for r in rows) + "\n"


def run(sets: Sequence[str], backends: Sequence[str], out: str | Path, root: str | Path = ".",
        fresh: bool = False, time_limit: float | None = 120, pattern: str | None = None,
        settings: dict[str, object] | None = None, echo=None) -> list[dict[str, Any]]:
    """Solve every map of ``sets`` with every backend, interleaved; append rows to ``out``.

    Returns:
        The rows, in the order they were run.

    Raises:
        GridlangError: an unknown set or missing data (before any solving).
    """
    root = Path(root).resolve()
    todo = [(s, c) for s in sets for c in cases(s, root, pattern)]
    rows = []
    with Path(out).open("a", encoding="utf-8") as sink:
        for set_name, case in todo:
            for backend in backends:
                row = _fresh(case, backend, time_limit, settings) if fresh else _warm(case, backend, time_limit,
                                                                                      settings)
                row.update(set=set_name, name=case["name"], expected=case["expected"])
                row["correct"] = bool(row.get("verified")) and row.get("status") in ("OPTIMAL", "SOLVED") and (
                    case["expected"] is None or row.get("objective") == case["expected"]) and (
                    not case["unique"] or row.get("unique") is True)
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                rows.append(row)
                if echo is not None:
                    echo(f"{'ok ' if row['correct'] else 'BAD'} {backend:7s} {case['name']:42s} "
                         f"{str(row.get('status')):10s} {row.get('objective')!s:>6} {row['wall']:8.3f} s")
    return rows


def _warm(case: dict, backend: str, time_limit: float | None, settings) -> dict[str, Any]:
    # imported on use, not at start-up
    from gridlang.service.calls import report_json, solve

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        spec = None if case["spec"] is None else str(case["spec"])
        result = solve(spec, case["map"], backend=backend, time_limit=time_limit, params=case["params"],
                       unique=case["unique"], settings=settings, url=case.get("url"))
        row = report_json(result.report, str(case["spec"]), _map_name(case))
    except GridlangError as e:
        row = {"status": "ERROR", "verified": False, "error": e.render(), "backend": backend}
    row.update(map=_map_name(case), wall=round(time.perf_counter() - t0, 4),
               cpu=round(time.process_time() - c0, 4))
    return row


def _fresh(case: dict, backend: str, time_limit: float | None, settings) -> dict[str, Any]:
    import tempfile

    map_arg = case["map"]
    tmp = None
    if isinstance(map_arg, str):  # generated text
        tmp = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        tmp.write(map_arg)
        tmp.close()
        map_arg = tmp.name
    puzzle = ["--url", case["url"]] if case.get("url") else [str(case["spec"]), "--map", str(map_arg)]
    cmd = [sys.executable, "-m", "gridlang", "solve", *puzzle, "--json", "--backend", backend]
    cmd += [f"--param={k}={v}" for k, v in case["params"].items()]
    cmd += [f"--set={k}={v}" for k, v in (settings or {}).items()]
    if time_limit is not None:
        cmd += ["--time-limit", str(time_limit)]
    if case["unique"]:
        cmd.append("--unique")
    t0 = time.perf_counter()
    stdout, stderr, cpu, peak = _child(cmd)
    wall = time.perf_counter() - t0
    if tmp is not None:
        Path(tmp.name).unlink()
    try:
        row = json.loads(stdout)
    except ValueError:
        row = {"status": "ERROR", "verified": False, "error": stderr.strip()[-500:], "backend": backend}
    row.update(map=_map_name(case), wall=round(wall, 4), cpu=None if cpu is None else round(cpu, 4),
               peak_memory=peak)
    return row


def _child(cmd: list[str]) -> tuple[str, str, float | None, int | None]:
    """Run ``cmd`` from a neutral directory (a checkout's gridlang/ would shadow the installed package).

    Returns:
        Its standard output and error, its CPU seconds (user and system,
        its threads included) and its peak resident size in bytes, the
        last two None where the system has no ``os.wait4``.
    """
    import os
    import subprocess
    import tempfile

    where = tempfile.gettempdir()
    if not hasattr(os, "wait4"):
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=where)
        return proc.stdout, proc.stderr, None, None
    # Files, not pipes: the child is reaped by os.wait4 (for its resource usage), so nothing may wait on pipes.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=where)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return stdout, stderr, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * scale


def _map_name(case: dict) -> str:
    if case.get("url"):
        return case["url"]
    return str(case["map"]) if not isinstance(case["map"], str) else case["name"]


def metric(row: dict[str, Any], name: str) -> float | None:
    """A row's seconds by ``name``: ``elapsed`` (the whole call, its ``wall``), ``total``, or a sum of
    phases (``compile+solve``)."""
    if name == "elapsed":
        return row.get("wall")
    seconds = row.get("seconds")
    if not isinstance(seconds, dict):
        return None
    try:
        return sum(float(seconds[p]) for p in name.split("+"))
    except KeyError:
        return None


def summary(rows: Iterable[dict[str, Any]], name: str = "compile+solve", baseline: str | None = None) -> list[str]:
    """Per set and backend: maps, correct, median, p90 and max of ``name``, and beside them of the
    end-to-end wall time (``elapsed``: with ``--fresh``, the process's start to its exit), each with
    the ratios of median and p90 against ``baseline`` (default: the first backend)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r.get("set", "?"), r.get("backend", "?")), []).append(r)
    lines = []
    base: dict[tuple[str, str], tuple[float, float]] = {}
    shown = [name] if name == "elapsed" else [name, "elapsed"]
    for (set_name, backend), rs in groups.items():
        parts = []
        for each in shown:
            figures = _figures(rs, each)
            if figures is None:
                continue
            med, p90, top, slow = figures
            if baseline is None or backend == baseline:
                base.setdefault((set_name, each), (med, p90))
            b = base.get((set_name, each))
            ratio = f"  x{med / b[0]:.2f} / x{p90 / b[1]:.2f}" if b and b[0] > 0 and b[1] > 0 else ""
            label = "end to end" if each == "elapsed" and name != "elapsed" else each
            parts.append(f"{label} median {med:.3f} s  p90 {p90:.3f} s  max {top:.3f} s ({slow}){ratio}")
        if parts:
            lines.append(f"{set_name:12s} {backend:7s} maps {len(rs):4d}  correct {sum(r['correct'] for r in rs):4d}  "
                         + "  |  ".join(parts))
    return lines


def _figures(rows: list[dict[str, Any]], name: str) -> tuple[float, float, float, str] | None:
    """Median, 90th percentile and maximum of ``name`` over ``rows``, and the name of the slowest;
    None when no row has it."""
    import statistics

    timed = [(v, r) for r in rows if (v := metric(r, name)) is not None]
    if not timed:
        return None
    values = sorted(v for v, _ in timed)
    slow = max(timed, key=lambda t: t[0])[1]
    return statistics.median(values), values[min(len(values) - 1, int(0.9 * len(values)))], values[-1], slow["name"]
