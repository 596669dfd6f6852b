"""``gridlang bench dataset``: the puzzlekit-dataset's puzzles, gridlang and a peer side by side.

For each puzzle drawn (:func:`gridlang.batch.dataset.sample`), in turn:
gridlang solves its map with ``--unique`` in a fresh ``gridlang solve
--json`` process on each backend asked for, then the peer solves the same
puzzle in a fresh process of its own, so that a change in the machine's
load falls on both sides alike. Each side's answer is compared with the
dataset's published solution.

The peer is a command given the puzzle: ``CMD TYPE PROBLEM SOLUTION
SECONDS``, with ``TYPE`` puzzlekit's name of the genre, ``PROBLEM`` and
``SOLUTION`` files holding the dataset's texts, ``SECONDS`` the time
limit. It prints one JSON object, ``{"status": ..., "matches": true |
false | null}`` (``matches`` null when it found no answer).
:data:`PEER_SCRIPT`, run by a Python that has puzzlekit (``--peer-python``),
is that command for puzzlekit: it solves with ``puzzlekit.solve`` and
compares by puzzlekit's own ``grid_verifier``. puzzlekit is never imported
here: it is no dependency of gridlang.

A row per puzzle and side: ``genre``, ``puzzle`` (``GENRE/KEY``),
``band``, ``rows``, ``cols``, ``cells``, ``side`` (``gridlang`` or
``peer``), ``backend``, ``status``, ``correct`` (the answer is the
published one; for gridlang, verified too), ``unique`` (gridlang: proved
unique, None when not proved), ``wall`` (seconds from the process's start
to its exit), ``seconds`` (gridlang's phases, as ``solve --json`` reports
them), ``error`` (why there is no answer, when there is none).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from gridlang.batch.dataset import (
    BANDS,
    GENRES,
    DatasetError,
    Puzzle,
    answer_of_report,
    available,
    load,
    sample,
)

PEER_SCRIPT = Path(__file__).with_name("puzzlekit_peer.py")
"""The peer command's script for puzzlekit, run as ``PYTHON PEER_SCRIPT TYPE PROBLEM SOLUTION SECONDS``."""

GRACE = 30.0
"""Seconds past the time limit after which a side's process is killed (its row says so)."""


def compile_target(cells: int) -> float:
    """Issue 49's target for the compile step of a puzzle of ``cells`` cells, in CPU seconds: 1 s up
    to 50x50 (2,500 cells), 0.4 ms a cell beyond (4 s at 100x100)."""
    return max(1.0, 0.4e-3 * cells)


def peer_command(
    python: str | None = None, command: Sequence[str] | None = None
) -> list[str] | None:
    """The peer's command: ``command`` as given, else ``python`` running :data:`PEER_SCRIPT`, else None."""
    if command:
        return list(command)
    return None if python is None else [python, str(PEER_SCRIPT)]


def draw(
    root: str | Path,
    genres: Iterable[str] | None = None,
    bands: Iterable[str] = BANDS,
    per_band: int | None = 5,
    largest: int = 1,
    seed: int = 0,
) -> tuple[list[Puzzle], list[str]]:
    """The puzzles to run, and a note per genre on what was left out and why.

    Puzzles without a published solution are not drawn (the note counts them).

    Args:
        root: the dataset (see :func:`gridlang.batch.dataset.load`).
        genres: keys of :data:`~gridlang.batch.dataset.GENRES`; None for every one the dataset holds.
        bands, per_band, largest, seed: as :func:`gridlang.batch.dataset.sample` takes them.

    Raises:
        DatasetError: an unknown genre or band, a genre the dataset lacks, or none at all.
    """
    bands = list(bands)
    unknown = [b for b in bands if b not in BANDS]
    if unknown:
        raise DatasetError(
            f"no size band {unknown[0]!r}; there are {', '.join(BANDS)}", None
        )
    names = available(root) if genres is None else list(genres)
    if not names:
        raise DatasetError(f"{root} holds none of the genres {', '.join(GENRES)}", None)
    chosen: list[Puzzle] = []
    notes = []
    for genre in names:
        puzzles = load(root, genre)
        unsolved = [p for p in puzzles if not p.solution.strip()]
        if unsolved:
            notes.append(
                f"{genre}: {len(unsolved)} of {len(puzzles)} puzzles have no published solution and "
                f"were not drawn ({', '.join(p.key for p in unsolved[:5])}{', ...' if len(unsolved) > 5 else ''})"
            )
        chosen += sample(
            [p for p in puzzles if p.solution.strip()], bands, per_band, largest, seed
        )
    return chosen, notes


def run(
    puzzles: Sequence[Puzzle],
    backends: Sequence[str] = ("auto",),
    time_limit: float = 60.0,
    peer: Sequence[str] | None = None,
    progress: bool = False,
    echo: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Solve each puzzle with gridlang on each backend, then with the peer, each in a fresh process.

    Args:
        puzzles: what :func:`draw` gives.
        backends: gridlang's backends, each run in turn on a puzzle.
        time_limit: seconds for each side on a puzzle (``--time-limit``, and the peer's ``SECONDS``);
            a process still running :data:`GRACE` seconds later is killed.
        peer: the peer's command (:func:`peer_command`), or None for gridlang alone.
        progress: show a tqdm bar on stderr.
        echo: called with each row as it is made.

    Returns:
        The rows (the module's docstring lists their fields), in the order they were run.
    """
    bar = None
    if progress:
        from tqdm import tqdm  # imported on use, not at start-up

        bar = tqdm(total=len(puzzles), unit="puzzle", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="gridlang-dataset-") as tmp:
        for puzzle in puzzles:
            if bar is not None:
                bar.set_description(puzzle.name)
            for backend in backends:
                rows.append(_gridlang(puzzle, backend, time_limit, Path(tmp)))
                if echo is not None:
                    echo(rows[-1])
            if peer is not None:
                rows.append(_peer(puzzle, list(peer), time_limit, Path(tmp)))
                if echo is not None:
                    echo(rows[-1])
            if bar is not None:
                bar.update()
    if bar is not None:
        bar.close()
    return rows


def _base(puzzle: Puzzle, side: str, backend: str | None) -> dict[str, Any]:
    return {
        "genre": puzzle.genre,
        "puzzle": puzzle.name,
        "band": puzzle.band,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "cells": puzzle.cells,
        "side": side,
        "backend": backend,
        "status": None,
        "correct": False,
        "unique": None,
        "wall": None,
        "cpu": None,
        "seconds": None,
        "error": None,
    }


def _child(
    cmd: list[str], time_limit: float, cwd: Path
) -> tuple[str, str, int | None, float, float | None]:
    """Run ``cmd``; its output, exit code (None when killed at the limit plus :data:`GRACE`), wall
    seconds, and CPU seconds (user and system, its threads included; None where the system does not
    report a child's)."""
    before = _children_cpu()
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd,
            check=False,
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=time_limit + GRACE,
        )
        out, err, code = proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:

        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")

        out, err, code = text(e.stdout), text(e.stderr), None
    wall = time.perf_counter() - t0
    after = _children_cpu()
    return (
        out,
        err,
        code,
        wall,
        None if before is None or after is None else round(after - before, 4),
    )


def _children_cpu() -> float | None:
    """User and system seconds of this process's waited-for children, or None off POSIX."""
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _gridlang(
    puzzle: Puzzle, backend: str, time_limit: float, tmp: Path
) -> dict[str, Any]:
    # imported on use, not at start-up
    from gridlang.formats.catalog import spec_path

    row = _base(puzzle, "gridlang", backend)
    genre = GENRES[puzzle.genre]
    try:
        text = genre.to_map(puzzle.problem)
        expected = genre.answer(puzzle.solution)
    except DatasetError as e:
        row.update(status="UNREADABLE", error=e.message)
        return row
    path = tmp / f"{puzzle.genre}_{puzzle.key}.txt"
    path.write_text(text, encoding="utf-8")
    cmd = [
        sys.executable,
        "-m",
        "gridlang",
        "solve",
        str(spec_path(Path(genre.spec).stem)),
        "--map",
        str(path),
        "--json",
        "--unique",
        "--backend",
        backend,
        "--time-limit",
        str(time_limit),
    ]
    stdout, stderr, code, wall, cpu = _child(cmd, time_limit, tmp)
    row.update(wall=round(wall, 4), cpu=cpu)
    if code is None:
        row.update(
            status="KILLED", error=f"still running {GRACE:.0f} s past the time limit"
        )
        return row
    report = _report(stdout, stderr)
    if report is None:
        row.update(
            status="ERROR", error=_last_line(stderr) or f"exit {code}, no report"
        )
        return row
    got = answer_of_report(report, genre.decision, genre.values)
    seconds = report.get("seconds") or {}
    reason = (
        (report.get("stats") or {}).get("reason")
        or report.get("message")
        or ((report.get("errors") or [{}])[0].get("message"))
    )
    row.update(
        status=report.get("status"),
        unique=report.get("unique"),
        seconds=seconds or None,
        correct=bool(report.get("verified")) and got == expected,
        error=None
        if got is not None
        else (str(reason)[:300] if reason else f"exit {code}, no answer"),
    )
    if got is not None and got != expected:
        row["error"] = "the answer differs from the published solution"
    return row


def _report(stdout: str, stderr: str) -> dict[str, Any] | None:
    """``solve --json``'s record: on stdout, or, for a time-out before any model or an error, the
    record on the last line of stderr; None when there is neither."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    for text in (stdout, lines[-1] if lines else ""):
        try:
            report = json.loads(text)
        except ValueError:
            continue
        if isinstance(report, dict):
            return report
    return None


def _peer(
    puzzle: Puzzle, command: list[str], time_limit: float, tmp: Path
) -> dict[str, Any]:
    row = _base(puzzle, "peer", None)
    problem = tmp / f"{puzzle.genre}_{puzzle.key}.problem.txt"
    solution = tmp / f"{puzzle.genre}_{puzzle.key}.solution.txt"
    problem.write_text(puzzle.problem, encoding="utf-8")
    solution.write_text(puzzle.solution, encoding="utf-8")
    cmd = [
        *command,
        GENRES[puzzle.genre].peer,
        str(problem),
        str(solution),
        str(time_limit),
    ]
    try:
        stdout, stderr, code, wall, cpu = _child(cmd, time_limit, tmp)
    except OSError as e:
        row.update(
            status="ERROR",
            error=f"the peer command {command[0]!r} did not start: {e.strerror}",
        )
        return row
    row.update(wall=round(wall, 4), cpu=cpu)
    if code is None:
        row.update(
            status="KILLED", error=f"still running {GRACE:.0f} s past the time limit"
        )
        return row
    try:
        answer = json.loads(_last_line(stdout))
        status, matches = str(answer["status"]), answer.get("matches")
    except (ValueError, KeyError, TypeError):
        row.update(
            status="ERROR", error=_last_line(stderr) or f"exit {code}, no answer line"
        )
        return row
    error = answer.get("error")
    if error is None and matches is None:
        error = "no answer"
    elif error is None and matches is False:
        error = "the answer differs from the published solution"
    row.update(status=status, correct=matches is True, error=error)
    return row


def _head(names: Sequence[str]) -> list[str]:
    return ["| " + " | ".join(names) + " |", "|" + " --- |" * len(names)]


def _stats(values: list[float]) -> tuple[str, str]:
    if not values:
        return "-", "-"
    return f"{statistics.median(values):.2f}", f"{max(values):.2f}"


def _groups(
    rows: Iterable[dict[str, Any]],
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault((r["genre"], r["band"]), []).append(r)
    return dict(sorted(out.items(), key=lambda kv: (kv[0][0], BANDS.index(kv[0][1]))))


def _band_label(band: str) -> str:
    return "beyond 50x50" if band == "beyond" else f"up to {band}x{band}"


def table(rows: Sequence[dict[str, Any]]) -> str:
    """Per genre, size band and backend, a Markdown table: puzzles, gridlang's correct answers, those
    proved unique, its median and max wall seconds, the peer's correct answers, median and max, and
    the ratio of the medians over the puzzles both sides answered as published (gridlang / peer;
    below 1 gridlang is faster; ``-`` when there is none); then the median CPU
    seconds of each side (user and system, threads included), which a busy machine inflates less."""
    head = (
        "genre",
        "band",
        "backend",
        "puzzles",
        "correct",
        "unique",
        "median s",
        "max s",
        "peer correct",
        "peer median s",
        "peer max s",
        "ratio",
        "cpu median s",
        "peer cpu median s",
    )
    lines = _head(head)
    for (genre, band), group in _groups(rows).items():
        peer = [r for r in group if r["side"] == "peer"]
        pwalls = [r["wall"] for r in peer if r["wall"] is not None]
        pmed, pmax = _stats(pwalls)
        backends = list(
            dict.fromkeys(r["backend"] for r in group if r["side"] == "gridlang")
        )
        for backend in backends:
            ours = [
                r for r in group if r["side"] == "gridlang" and r["backend"] == backend
            ]
            walls = [r["wall"] for r in ours if r["wall"] is not None]
            med, top = _stats(walls)
            both = {r["puzzle"] for r in peer if r["correct"]} & {
                r["puzzle"] for r in ours if r["correct"]
            }
            ours_both = [r["wall"] for r in ours if r["puzzle"] in both]
            peer_both = [r["wall"] for r in peer if r["puzzle"] in both]
            ratio = (
                f"{statistics.median(ours_both) / statistics.median(peer_both):.2f}"
                if ours_both and peer_both
                else "-"
            )
            lines.append(
                f"| {genre} | {_band_label(band)} | {backend} | {len(ours)} | "
                f"{sum(r['correct'] for r in ours)} | {sum(r['unique'] is True for r in ours)} | {med} | {top} | "
                f"{sum(r['correct'] for r in peer) if peer else '-'} | {pmed if peer else '-'} | "
                f"{pmax if peer else '-'} | {ratio} | {_cpu(ours)} | {_cpu(peer) if peer else '-'} |"
            )
    return "\n".join(lines)


def _said(error: str | None) -> str | None:
    """An error on one line of a table: the first line of a located error (``FILE:LINE:COL: error:
    ...``), without its place, at most 200 characters."""
    if not error:
        return error
    first = error.strip().splitlines()[0]
    return first.split("error: ", 1)[-1][:200]


def _cpu(rows: Sequence[dict[str, Any]]) -> str:
    values = [r["cpu"] for r in rows if r.get("cpu") is not None]
    return f"{statistics.median(values):.2f}" if values else "-"


def growth(rows: Sequence[dict[str, Any]]) -> str:
    """How gridlang's phases grow with the grid: per genre and band, the median cells, and the median
    and max of parse + compile seconds and of solve seconds (``--unique``'s second solve included),
    from the rows' phase seconds, and the largest puzzle's parse + compile milliseconds per cell."""
    head = (
        "genre",
        "band",
        "puzzles",
        "median cells",
        "compile s median",
        "compile s max",
        "solve s median",
        "solve s max",
        "ms/cell (largest)",
    )
    lines = _head(head)
    for (genre, band), group in _groups(rows).items():
        timed = [r for r in group if r["side"] == "gridlang" and _compiled(r)]
        if not timed:
            continue
        build = [_build(r) for r in timed]
        solve = [float(r["seconds"].get("solve", 0.0)) for r in timed]
        big = max(timed, key=lambda r: r["cells"])
        lines.append(
            f"| {genre} | {_band_label(band)} | {len(timed)} | {statistics.median(r['cells'] for r in timed):.0f} | "
            f"{' | '.join(_stats(build))} | {' | '.join(_stats(solve))} | "
            f"{1000 * _build(big) / big['cells']:.3f} |"
        )
    return "\n".join(lines)


def _compiled(row: dict[str, Any]) -> bool:
    """Whether a row's phase seconds hold the model's building (not so for a time-out before it)."""
    return bool(row["seconds"]) and "compile" in row["seconds"]


def _build(row: dict[str, Any]) -> float:
    """Parse + compile seconds of a row (the spec and map read, checked, and the model built)."""
    return float(row["seconds"].get("parse", 0.0)) + float(
        row["seconds"].get("compile", 0.0)
    )


def compile_at_size(rows: Sequence[dict[str, Any]]) -> str:
    """The largest puzzle of each genre among the rows: its parse + compile seconds against issue
    49's targets, 1 s up to 50x50 (2,500 cells) and 0.4 ms a cell beyond (4 s at 100x100)."""
    lines = [
        "| genre | largest puzzle | cells | parse + compile s | target s | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    by_genre: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["side"] != "gridlang":
            continue
        best = by_genre.get(r["genre"])
        if (
            best is None
            or r["cells"] > best["cells"]
            or (r["cells"] == best["cells"] and _compiled(r) and not _compiled(best))
        ):
            by_genre[r["genre"]] = r
    for genre, r in sorted(by_genre.items()):
        target = compile_target(r["cells"])
        if _compiled(r):
            built, met = f"{_build(r):.2f}", "yes" if _build(r) <= target else "no"
        else:
            built, met = "-", f"no: {r['status']}: {_said(r['error'])}"
        lines.append(
            f"| {genre} | {r['puzzle'].split('/', 1)[1]} | {r['cells']} | {built} | {target:.2f} | {met} |"
        )
    return "\n".join(lines)


def largest_proved(rows: Sequence[dict[str, Any]]) -> str:
    """Per genre and backend, the largest puzzle (by cells) whose answer was the published one and
    proved unique within the limit, and the smallest that was not, with why (its status and error)."""
    lines = _head(
        (
            "genre",
            "backend",
            "proved",
            "largest proved",
            "smallest not proved",
            "why not",
        )
    )
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        if r["side"] == "gridlang":
            groups.setdefault((r["genre"], r["backend"]), []).append(r)
    for (genre, backend), group in sorted(groups.items()):
        good = [r for r in group if r["correct"] and r["unique"] is True]
        bad = [r for r in group if not (r["correct"] and r["unique"] is True)]
        top = max(good, key=lambda r: r["cells"], default=None)
        low = min(bad, key=lambda r: r["cells"], default=None)
        why = (
            "-"
            if low is None
            else f"{low['status']}: {_said(low['error']) or 'unique ' + str(low['unique'])}"
        )
        lines.append(
            f"| {genre} | {backend} | {len(good)} of {len(group)} | "
            f"{'-' if top is None else _size(top)} | {'-' if low is None else _size(low)} | {why[:120]} |"
        )
    return "\n".join(lines)


def _size(row: dict[str, Any]) -> str:
    return f"{row['puzzle'].split('/', 1)[1]} ({row['cells']} cells)"


def findings(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One line per puzzle that is work left: gridlang wrong, unreadable, not proved unique, or slower
    than the peer where the peer's answer was the published one; and per puzzle the peer got wrong
    or did not answer. Empty when there is none."""
    out = []
    peer = {r["puzzle"]: r for r in rows if r["side"] == "peer"}
    for r in rows:
        if r["side"] != "gridlang":
            continue
        where = f"{r['puzzle']} ({r['rows']}x{r['cols']}, {r['backend']})"
        if not r["correct"]:
            out.append(
                f"gridlang not correct: {where}: {r['status']}: {_said(r['error']) or 'not verified'}"
            )
        elif r["unique"] is not True:
            out.append(
                f"gridlang not proved unique: {where}: unique {r['unique']}, {r['wall']:.2f} s"
            )
        p = peer.get(r["puzzle"])
        if (
            p is not None
            and p["correct"]
            and r["wall"] is not None
            and p["wall"] is not None
            and r["wall"] > p["wall"]
        ):
            out.append(
                f"gridlang slower than the peer: {where}: {r['wall']:.2f} s against {p['wall']:.2f} s"
            )
    for r in peer.values():
        if not r["correct"]:
            out.append(
                f"peer not correct: {r['puzzle']} ({r['rows']}x{r['cols']}): {r['status']}: {_said(r['error'])}"
            )
    return out
