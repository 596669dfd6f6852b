"""The bundled enclose.horse maps and their known optima (tests/data/horse)."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HORSE_DATA = REPO / "tests" / "data" / "horse"
SPECS = {
    "standard": REPO / "puzzles" / "horse.grid",
    "costlywalls": REPO / "puzzles" / "horse_costlywalls.grid",
    "lovebirds": REPO / "puzzles" / "horse_lovebirds.grid",
    "loversquarrel": REPO / "puzzles" / "horse_loversquarrel.grid",
}


def manifest() -> list[dict]:
    """Every manifest record."""
    return json.loads((HORSE_DATA / "manifest.json").read_text())


def known_optimum(entry: dict) -> int | None:
    """The game's published optimum, else the reference MILP's."""
    if entry["optimal_score"] is not None:
        return entry["optimal_score"]
    return entry.get("reference_optimum")


def cases(variant: str) -> list[dict]:
    """Records of one variant that have a budget and a known optimum, by file name."""
    return sorted((e for e in manifest()
                   if e["variant"] == variant and e["budget"] is not None and known_optimum(e) is not None),
                  key=lambda e: e["file"])


# A pocket above the water line is sealed off by the map itself: a model
# without connectivity counts its 50 cells (53 in all); the horse reaches 2.
POCKET = """\
~~~~~~~~~~~~
~..........~
~..........~
~..........~
~..........~
~..........~
~.~~~~~~~~.~
............
............
............
.....H......
............
"""
