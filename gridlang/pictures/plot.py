"""Plots of batch results: the share of maps solved against time, and time against size.

:func:`plot` reads one or more JSON-lines files written by ``gridlang
batch`` (or ``benchmarks/bench.py``) and draws, with matplotlib, two panels:

* the cumulative share of maps solved (a verified answer, proved optimal,
  or ``SOLVED`` without an objective) against seconds, on a log axis, one
  series per file and backend (the presentation of the UCSD enclose.horse
  study). The share is of every map of the series: a map that ended in an
  error, or without a proof (FEASIBLE, UNKNOWN, INFEASIBLE), counts in the
  denominator, so a series reaches 1 only when every map was solved;
* seconds against the number of cells, one marker series per file and
  backend.

A series is labelled ``FILE-STEM: BACKEND`` (just the backend with one
file), then how many of its maps were solved and what became of the rest:
``maxsat (8 of 10 solved; 2 errors)``. An ERROR line without a ``backend``
(written by an earlier version) joins the file's backend when the file has
only one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from gridlang.core.errors import MapError, Span

SOLVED_STATUSES = ("OPTIMAL", "SOLVED")
"""Statuses that count as solved (with a verified answer): a proved optimum, or an answer where there is
no objective (``SOLVED``; ``OPTIMAL`` in lines of earlier versions)."""


def load_results(path: str | Path) -> list[dict]:
    """The JSON objects of a results file, one per line (blank lines skipped).

    Raises:
        MapError: a line that is not a JSON object, located.
    """
    out = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MapError(f"cannot read the results file: {e}", Span(str(path), 1, 1)) from e
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as e:
            raise MapError(f"not a JSON line: {e}", Span(str(path), no, 1), source=text) from e
        if not isinstance(record, dict):
            raise MapError("a results line is a JSON object", Span(str(path), no, 1), source=text)
        out.append(record)
    return out


def series(files: Sequence[str | Path]) -> dict[str, list[dict]]:
    """Records grouped by series label (see the module docstring), in file order."""
    groups: dict[str, list[dict]] = {}
    for f in files:
        records = load_results(f)
        backends = {r["backend"] for r in records if isinstance(r.get("backend"), str)}
        only = next(iter(backends)) if len(backends) == 1 else "?"
        for r in records:
            label = str(r.get("backend", only))
            if len(files) > 1:
                label = f"{Path(f).stem}: {label}"
            groups.setdefault(label, []).append(r)
    return groups


def solved(record: dict) -> bool:
    """A verified answer that is proved optimal, or a verified answer without an objective."""
    return bool(record.get("verified")) and record.get("status") in SOLVED_STATUSES


def legend(label: str, records: Sequence[dict]) -> str:
    """``LABEL (K of N solved; E errors, U unsolved)``: every map counts in N."""
    n = len(records)
    k = sum(solved(r) for r in records)
    errors = sum(r.get("status") == "ERROR" for r in records)
    rest = n - k - errors
    parts = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
    parts += [f"{rest} unsolved"] if rest else []
    return f"{label} ({k} of {n} solved" + (f"; {', '.join(parts)})" if parts else ")")


def seconds(record: dict) -> float | None:
    """The map's total seconds, or None when the line has none."""
    s = record.get("seconds")
    if isinstance(s, dict) and isinstance(s.get("total"), (int, float)):
        return float(s["total"])
    if isinstance(record.get("wall"), (int, float)):  # benchmarks/bench.py rows
        return float(record["wall"])
    return None


def plot(files: Sequence[str | Path], out: str | Path, title: str | None = None):
    """Draw the two panels for ``files`` into ``out`` (PNG, SVG or PDF by its suffix).

    Returns:
        The matplotlib ``Figure`` (its axes: share solved, seconds by cells).

    Raises:
        MapError: a results file cannot be read; ``out`` is one of the
            results files, or has a suffix no figure format has.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backend_bases import FigureCanvasBase

    _check_output(Path(out), files, FigureCanvasBase.get_supported_filetypes())

    groups = series(files)
    fig, (cdf, size) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, records in groups.items():
        times = sorted(t for r in records if solved(r) and (t := seconds(r)) is not None)
        n = len(records)
        if times:
            cdf.step([times[0]] + times, [0.0] + [(i + 1) / n for i in range(len(times))], where="post",
                     label=legend(label, records))
        else:  # nothing solved: the series is named all the same
            cdf.plot([], [], label=legend(label, records))
        points = [(r["size"][0] * r["size"][1], seconds(r)) for r in records
                  if isinstance(r.get("size"), list) and len(r["size"]) == 2 and seconds(r) is not None]
        if points:
            size.scatter([p[0] for p in points], [p[1] for p in points], s=10, alpha=0.7, label=label)
    cdf.set_xscale("log")
    cdf.set_xlabel("seconds")
    cdf.set_ylabel("share of all maps solved")
    cdf.set_ylim(0, 1.02)
    cdf.grid(True, which="both", alpha=0.3)
    cdf.legend(fontsize=8)
    size.set_yscale("log")
    size.set_xlabel("cells")
    size.set_ylabel("seconds")
    size.grid(True, which="both", alpha=0.3)
    if groups:
        size.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(str(out))
    plt.close(fig)
    return fig


def _check_output(out: Path, files: Sequence[str | Path], formats: dict[str, str]) -> None:
    """Refuse a figure file that is one of the results files, or whose suffix is no figure format."""
    for f in files:
        try:
            same = out.exists() and Path(f).exists() and os.path.samefile(out, f)
        except OSError:
            same = False
        if same:
            raise MapError(f"--output {out} is one of the results files to plot; a figure never overwrites its "
                           "input: give it a new name ending in .png, .svg or .pdf")
    if out.suffix[1:].lower() not in formats:
        raise MapError(f"--output {out}: a figure is written as .png, .svg or .pdf (or another format matplotlib "
                       f"writes: {', '.join(sorted(formats))}), chosen by the suffix")
