"""Every published size: the largest puzzles of the public puzzlekit-dataset, solved end to end.

The dataset (github: SmilingWayne/puzzlekit-dataset) holds puzzles with their
solutions, from 3x3 to 100x100, most of them from janko.at; it states no
licence, so none of it is copied into this repository: give the path of a
clone (or of any folder holding ``GENRE/GENRE_dataset.json`` files, as its
``assets/data`` does)::

    python benchmarks/sizes.py --dataset ~/puzzlekit-dataset --genres akari,nurikabe --largest 4

Each puzzle is converted to a gridlang map (the converters below: the
dataset writes a grid of tokens, ``-`` for an empty cell), then solved by
``gridlang solve --json`` in a fresh process, one after the other, and its
answer compared with the dataset's where the converter reads the solution.
The table gives, per puzzle, the phases' seconds as gridlang reports them
(compile is the model's building, solve the solver's) and the wall time
of the whole process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _cells(problem: str) -> list[list[str]]:
    """The dataset's grid, a list of rows of tokens (its first line is the size)."""
    return [line.split() for line in problem.strip().split("\n")[1:] if line.strip()]


def akari_map(problem: str) -> str:
    rows = _cells(problem)
    return "grid:\n" + "\n".join("".join({"-": ".", "x": "#"}.get(t, t) for t in row) for row in rows) + "\n"


def akari_answer(solution: str) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(_cells(solution)) for c, t in enumerate(row) if t == "o"}


def nurikabe_map(problem: str) -> str:
    return "\n".join(" ".join("." if t == "-" else t for t in row) for row in _cells(problem)) + "\n"


def nurikabe_answer(solution: str) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(_cells(solution)) for c, t in enumerate(row) if t == "x"}


def masyu_map(problem: str) -> str:
    return "\n".join("".join({"-": ".", "w": "o", "b": "*"}[t] for t in row) for row in _cells(problem)) + "\n"


GENRES = {
    # genre: (the dataset's folder, the spec, map converter, answer reader or None, the decision it gives)
    "akari": ("Akari", "akari.grid", akari_map, akari_answer, "light"),
    "nurikabe": ("Nurikabe", "nurikabe.grid", nurikabe_map, nurikabe_answer, "shaded"),
    "masyu": ("Masyu", "masyu.grid", masyu_map, None, None),
}


def _dataset(root: Path, folder: str) -> dict:
    for path in (root / "assets" / "data" / folder / f"{folder}_dataset.json", root / folder / f"{folder}_dataset.json"):
        if path.exists():
            return json.loads(path.read_text())["data"]
    raise SystemExit(f"error: {root} holds no {folder}/{folder}_dataset.json (give a clone of puzzlekit-dataset)")


def _cells_of(key: str) -> int:
    cols, rows = key.rsplit("_", 1)[1].split("x")
    return int(cols) * int(rows)


def run(root: Path, genre: str, largest: int, time_limit: float, backend: str) -> list[dict]:
    folder, spec, to_map, answer_of, decision = GENRES[genre]
    data = _dataset(root, folder)
    keys = sorted(data, key=lambda k: (-_cells_of(k), k))[:largest]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            path = Path(tmp) / f"{genre}_{key}.txt"
            path.write_text(to_map(data[key]["problem"]))
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "gridlang", "solve", str(REPO / "puzzles" / spec),
                                   "--map", str(path), "--json", "--time-limit", str(time_limit),
                                   "--backend", backend], capture_output=True, text=True)
            wall = time.perf_counter() - t0
            row = {"genre": genre, "puzzle": key, "source": data[key].get("source", ""), "wall": wall,
                   "exit": proc.returncode}
            try:
                report = json.loads(proc.stdout)
            except json.JSONDecodeError:
                row["status"] = proc.stderr.strip().splitlines()[0][:100] if proc.stderr.strip() else "no report"
                out.append(row)
                continue
            seconds = report.get("seconds") or {}
            row.update(status=report.get("status"), compile=seconds.get("compile"), solve=seconds.get("solve"),
                       verified=report.get("verified"))
            errors = report.get("errors") or [{}]
            reason = (report.get("stats") or {}).get("reason") or errors[0].get("message") or report.get("message")
            if reason and report.get("status") != "SOLVED":  # why a limit or a refusal stopped it, shortened
                row["status"] = f"{row['status']}: {str(reason)[:90]}"
            if answer_of is not None and report.get("decisions"):
                got = {tuple(cell) for cell, v in report["decisions"].get(decision, []) if v}
                row["matches"] = got == answer_of(data[key]["solution"])
            out.append(row)
    return out


def table(rows: list[dict]) -> str:
    lines = ["| genre | puzzle | status | verified | as published | compile s | solve s | wall s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        def num(x):
            return f"{x:.2f}" if isinstance(x, (int, float)) else "-"
        lines.append(f"| {r['genre']} | {r['puzzle']} | {r.get('status', '-')} | {r.get('verified', '-')} | "
                     f"{r.get('matches', '-')} | {num(r.get('compile'))} | {num(r.get('solve'))} | {num(r['wall'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, required=True, help="a clone of SmilingWayne/puzzlekit-dataset")
    ap.add_argument("--genres", default=",".join(GENRES), help=f"comma-separated, of {', '.join(GENRES)}")
    ap.add_argument("--largest", type=int, default=3, help="the N largest puzzles of each genre")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per puzzle")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--out", type=Path, help="also write the rows as JSON lines")
    args = ap.parse_args(argv)
    rows = []
    for genre in args.genres.split(","):
        if genre not in GENRES:
            raise SystemExit(f"error: no converter for {genre!r}; there are {', '.join(GENRES)}")
        rows += run(args.dataset, genre, args.largest, args.time_limit, args.backend)
    print(table(rows))
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
