"""Plots of batch results: the share of maps solved against time, and time against size.

:func:`plot` reads one or more JSON-lines files written by ``gridlang
batch`` (or ``benchmarks/bench.py``) and draws, with matplotlib, two panels:

* the cumulative share of maps solved (a verified answer, proved optimal or
  feasible without an objective) against seconds, on a log axis, one
  series per file and backend (the presentation of the UCSD enclose.horse
  study);
* seconds against the number of cells, one marker series per file and
  backend.

A series is labelled ``FILE-STEM: BACKEND`` (just the backend with one file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from .errors import MapError, Span


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
        for r in load_results(f):
            label = str(r.get("backend", "?"))
            if len(files) > 1:
                label = f"{Path(f).stem}: {label}"
            groups.setdefault(label, []).append(r)
    return groups


def solved(record: dict) -> bool:
    """A verified answer that is proved: OPTIMAL, or SOLVED for a puzzle without an objective."""
    return bool(record.get("verified")) and record.get("status") in ("OPTIMAL", "SOLVED")


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
        MapError: a results file cannot be read.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = series(files)
    fig, (cdf, size) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, records in groups.items():
        times = sorted(t for r in records if solved(r) and (t := seconds(r)) is not None)
        n = len(records)
        if times:
            cdf.step([times[0]] + times, [0.0] + [(i + 1) / n for i in range(len(times))], where="post",
                     label=f"{label} ({len(times)}/{n})")
        points = [(r["size"][0] * r["size"][1], seconds(r)) for r in records
                  if isinstance(r.get("size"), list) and len(r["size"]) == 2 and seconds(r) is not None]
        if points:
            size.scatter([p[0] for p in points], [p[1] for p in points], s=10, alpha=0.7, label=label)
    cdf.set_xscale("log")
    cdf.set_xlabel("seconds")
    cdf.set_ylabel("share of maps solved")
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
