"""The five-rule clingo peer of benchmarks/clingo_peer.py proves the published optima, and its check bites."""

from __future__ import annotations

import sys

import pytest

from horse_data import HORSE_DATA, REPO, known_optimum, manifest

sys.path.insert(0, str(REPO / "benchmarks"))  # as `python benchmarks/clingo_peer.py` runs it
import clingo_peer as peer  # noqa: E402


# 01-07: cherries; 01-27: portals, an apple and bees (a tile worth -4).
@pytest.mark.parametrize("name", ["daily-2026-01-07.txt", "daily-2026-01-27.txt"])
def test_the_peer_proves_the_published_optimum(name):
    e = next(e for e in manifest() if e["file"] == name)
    assert peer.solve_peer(HORSE_DATA / name, e["budget"], 60) == (known_optimum(e), True)


def test_the_peer_check_refuses_an_open_pen_and_too_many_walls():
    rows = peer.read_map(HORSE_DATA / "daily-2026-01-07.txt")
    assert peer.score(rows, set(), 12) is None  # no walls: the horse walks off the map
    grass = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
    assert peer.score(rows, set(grass[:13]), 12) is None
