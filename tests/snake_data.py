"""The Snake Eggs instances the tests run, and their known solutions.

``EXPECTED`` (tests/data/snake_eggs_expected.json) holds, per instance name
(``derived/...`` for the derived ones), the published or independently
computed unique solution as rows of ``0`` (snake) and egg sizes.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "puzzles" / "snake_eggs.grid"
INSTANCES = ROOT / "puzzles" / "instances" / "snake_eggs"
EXPECTED = json.loads((ROOT / "tests" / "data" / "snake_eggs_expected.json").read_text(encoding="utf-8"))


def solution_rows(report) -> list[str]:
    """The report's solution as the data set writes it: ``0`` snake, ``k`` egg of size k."""
    return kind_rows(report.model.grid, report.solution.decisions["kind"])


def kind_rows(grid, kind) -> list[str]:
    """A ``kind`` decision (one value per cell, row-major) as the data set's rows."""
    return [" ".join("0" if kind[r * grid.cols + c] == "snake" else str(kind[r * grid.cols + c])
                     for c in range(grid.cols)) for r in range(grid.rows)]
