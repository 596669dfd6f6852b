"""A plain map is read without the layered reader, and every layered map still reaches it."""

from __future__ import annotations

import pytest
from horse_data import REPO

from gridlang.formats.layers import is_layered
from gridlang.formats.textmaps import _may_be_layered, read_text_map

MAPS = sorted(p for folder in ("tests/data", "puzzles") for p in (REPO / folder).rglob("*.txt"))


def test_every_layered_map_of_the_repository_passes_the_look_before_the_reader():
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in MAPS]
    layered = [t for t in texts if is_layered(t)]
    assert len(layered) >= 5 and len(texts) - len(layered) >= 100  # both kinds are there to look at
    assert [t for t in layered if not _may_be_layered(t)] == []


@pytest.mark.parametrize("text", [
    "1 2\n3 4\n",            # cells apart
    "1\t2\n3\t4\n",          # a tab
    "1\u00a02\n3\u00a04\n",  # a no-break space, white space to str.split
    "ab\ncd\nrooms:\nAA\nBB\n",
])
def test_a_layered_map_in_any_white_space_passes_the_look(text):
    assert is_layered(text) and _may_be_layered(text)


def test_a_daily_is_no_layered_map_and_is_read_without_the_reader():
    text = (REPO / "tests" / "data" / "horse" / "daily-2026-09-02.txt").read_text()
    assert not _may_be_layered(text)
    data = read_text_map(text, "daily-2026-09-02.txt")
    assert data.rows == text.splitlines()
