"""Generate on the page, in a real Chromium against a real server: the clue positions' symmetry, a level
of difficulty asked for (the nearest given when none is made in time), each stage shown as it comes,
and Stop keeping the best map made so far."""

from __future__ import annotations

import re

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
)

from board_helpers import choose_spec, textbox
from playwright.sync_api import expect

import gridlang

MADE = 60_000
"""Milliseconds a generation may take on the page (longer than a live check: it proves each
candidate map unique)."""


def sudoku(page) -> None:
    choose_spec(page, "sudoku")
    textbox(page, "box_rows").fill("2")
    textbox(page, "box_cols").fill("2")
    page.get_by_role("spinbutton", name="Rows").fill("4")
    page.get_by_role("spinbutton", name="Columns").fill("4")
    page.get_by_role("spinbutton", name="Seed").fill("3")


def test_generate_places_its_clues_with_the_symmetry_chosen_and_grades_the_puzzle(page):
    sudoku(page)
    page.get_by_role("combobox", name="Symmetry").select_option("rotational")
    page.get_by_role("button", name="Generate").click()
    expected = gridlang.generate(
        gridlang.bundled("sudoku"),
        (4, 4),
        3,
        {"box_rows": 2, "box_cols": 2},
        symmetry="rotational",
    )
    expect(textbox(page, "Puzzle")).to_have_value(expected.map, timeout=MADE)
    assert expected.map.splitlines()[2:] == [
        ".1..",
        ".4..",
        "..1.",
        "..3.",
    ]  # a half turn keeps the clues' places
    expect(page.locator("#generating")).to_have_text(
        re.compile(
            r"^made in [0-9.]+ s: 4 clues, seed 3, unique, easy \(difficulty 2\.75\)$"
        )
    )


def test_a_difficulty_not_made_in_time_gives_the_nearest_puzzle_and_says_so(page):
    sudoku(page)
    page.get_by_role("spinbutton", name="Time limit (seconds)").fill("4")
    page.get_by_role("combobox", name="Difficulty").select_option("expert")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#generating")).to_have_text(
        re.compile(
            r"^made in [0-9.]+ s: [0-9]+ clues, seed [0-9]+, unique, easy \(difficulty [0-9.]+\); the time limit "
            r"ran out before an expert puzzle was made: this is the nearest of [0-9]+ \(easy\)$"
        ),
        timeout=MADE,
    )
    expect(textbox(page, "Puzzle")).to_have_value(
        re.compile(r"^box_rows: 2\nbox_cols: 2\n([.1-4]{4}\n){4}$")
    )


@pytest.mark.slow  # about 20 s: a 16x16 Nurikabe is made until its clues are placed, then stopped (a 12x12
# is made whole in seconds)
def test_generate_shows_each_stage_and_stop_keeps_the_best_map_made(page):
    page.get_by_role("combobox", name="Bundled spec").select_option("nurikabe")
    expect(textbox(page, "Spec")).to_have_value(
        re.compile(r'puzzle "Nurikabe"'), timeout=10_000
    )
    page.get_by_role("spinbutton", name="Rows").fill("16")
    page.get_by_role("spinbutton", name="Columns").fill("16")
    page.get_by_role("button", name="Generate").click()
    status = page.locator("#generating")
    expect(status).to_have_text(
        re.compile(
            r"^generating a 16x16 puzzle: [0-9]+ s, seed 0: [0-9]+ clues placed"
        ),
        timeout=MADE,
    )
    page.get_by_role("button", name="Stop generating").click()
    expect(status).to_have_text(
        re.compile(
            r"^stopped after [0-9.]+ s; the search was stopped: this is the best map made, and "
        ),
        timeout=MADE,
    )
    rows = textbox(page, "Puzzle").input_value().splitlines()
    assert len(rows) == 16 and all(len(r) == 16 for r in rows)
    expect(page.get_by_role("button", name="Generate")).to_be_enabled()
