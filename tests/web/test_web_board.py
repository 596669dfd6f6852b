"""The page's board in a real Chromium (Playwright) against a real server, driven by clicks and keys:
the puzzle drawn before any solve, set by clicking and typing with live uniqueness, played and
checked, the hint's steps walked, and links that round-trip.

``GRIDLANG_SCREENSHOTS=docs pytest tests/web/test_web_board.py`` rewrites the README's pictures of
the board: ``docs/board-set.png`` (a Nurikabe set, unique), ``docs/board-play.png`` (a Sudoku
played and checked) and ``docs/board-hint.png`` (the hint stepper)."""

from __future__ import annotations

import json
import re
import time

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
)

from board_helpers import (
    LIVE,
    accessibility_violations,
    cell,
    check,
    choose_spec,
    exported,
    imported,
    new_grid,
    open_puzzle,
    opened,
    page_width,
    play,
    snap,
    textbox,
    tiles,
)
from board_puzzles import (
    NURIKABE,
    STARBATTLE,
    STARBATTLE_MAP,
    STARBATTLE_ROOMS,
    SUDOKU,
    SUDOKU_ANSWER,
)
from playwright.sync_api import expect

import gridlang
from gridlang.cli import main

NURIKABE_CLUES = {(0, 1): "5", (1, 2): "2", (3, 2): "1", (4, 3): "3"}
SUDOKU_GIVENS = {(0, 1), (1, 3), (2, 0), (3, 2)}


def set_a_two_on_a_2x2_nurikabe(page) -> None:
    """An empty 2x2 Nurikabe, a 2 set in its top-left cell by a click and a key: two answers."""
    choose_spec(page, "nurikabe")
    new_grid(page, 2, 2)
    cell(page, 1, 1).click()
    page.keyboard.type("2")


def test_the_board_is_drawn_before_any_solve_as_svg_draws_it(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill(NURIKABE)
    board = page.get_by_role("img", name="Board")
    expect(board.locator("svg .tiles rect")).to_have_count(25)
    svg = board.locator("svg").first
    # the same picture as --svg draws for the map, no answer on it: its clues, no shaded cell
    assert svg.locator(".glyphs text").all_text_contents() == ["5", "2", "1", "3"]
    assert svg.locator(".mark").count() == 0
    expect(page.get_by_role("status")).to_have_text("")


def test_a_nurikabe_set_by_clicking_is_unique_after_its_last_clue_and_exports_its_url(
    page, capsys
):
    choose_spec(page, "nurikabe")
    new_grid(page, 5, 5)
    live = page.locator("#live")
    clues = list(NURIKABE_CLUES.items())
    for (r, c), number in clues[:-1]:
        cell(
            page, r + 1, c + 1
        ).click()  # a click cycles blank -> clue 1; digits typed make the number
        page.keyboard.type(number)
    expect(live).to_have_text(
        "no answer", timeout=LIVE
    )  # 5 + 2 + 1 unshaded cells cannot be placed
    (r, c), number = clues[-1]
    cell(page, r + 1, c + 1).click()
    page.keyboard.type(number)
    expect(live).to_have_text("unique", timeout=LIVE)
    expect(textbox(page, "Puzzle")).to_have_value(".5...\n..2..\n.....\n..1..\n...3.\n")
    snap(page, "#board-section", "board-set")
    url = exported(page)
    assert url == NURIKABE
    # the command line reads the URL back as the same puzzle, with the same unique answer
    assert imported(url, capsys) == [".5...", "..2..", ".....", "..1..", "...3."]
    assert main(["solve", "--url", url, "--unique", "--json"]) == 0
    back = json.loads(capsys.readouterr().out)
    typed = gridlang.solve(
        gridlang.bundled("nurikabe"), map=".5...\n..2..\n.....\n..1..\n...3.\n"
    )
    assert back["unique"] is True
    assert {tuple(rc) for rc, _ in back["decisions"]["shaded"]} == set(
        typed.decisions["shaded"]
    )


def test_a_clue_that_leaves_two_answers_outlines_the_cells_that_differ(page):
    set_a_two_on_a_2x2_nurikabe(page)
    expect(page.locator("#live")).to_have_text(
        "more than one answer: 2 cells differ (outlined)", timeout=LIVE
    )
    differ = page.locator("#board svg.overlay rect.differ")
    expect(differ).to_have_count(2)
    # the shaded cell every answer shares is drawn as forced
    expect(page.locator("#board svg.overlay rect.forced")).to_have_count(1)
    page.keyboard.press("Backspace")  # the clue goes: a board of blanks has no answer
    expect(page.locator("#live")).to_have_text("no answer", timeout=LIVE)
    expect(differ).to_have_count(0)


def test_export_url_says_why_a_spec_without_a_format_has_none(page):
    open_puzzle(page, "horse", "budget: 1\n~~~\n~H~\n~~~\n", 9)
    page.get_by_role("button", name="Export URL").click()
    expect(page.locator("#board-note")).to_have_text(
        "No puzz.link URL: this spec declares no puzz.link format"
    )
    expect(page.get_by_role("textbox", name="puzz.link URL")).to_have_value("")


def test_a_number_of_two_figures_is_typed_and_the_board_is_reached_by_keys(page):
    choose_spec(page, "nurikabe")
    new_grid(page, 4, 4)
    cell(page, 1, 1).click()
    page.keyboard.type("12")
    expect(textbox(page, "Puzzle")).to_have_value(
        "12 . . .\n. . . .\n. . . .\n. . . .\n"
    )
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.type("5")
    expect(textbox(page, "Puzzle")).to_have_value(
        "12 . . .\n. 5 . .\n. . . .\n. . . .\n"
    )
    page.keyboard.press("Backspace")
    expect(textbox(page, "Puzzle")).to_have_value(
        "12 . . .\n. . . .\n. . . .\n. . . .\n"
    )
    expect(cell(page, 1, 1)).to_have_accessible_name("row 1, column 1: clue 12")


def test_editing_a_star_battle_keeps_its_rooms(page):
    """The rooms: layer under the grid is a layer, not cells: clicking a cell edits the grid above it."""
    open_puzzle(page, "starbattle", STARBATTLE, 36)
    assert (
        page.get_by_role("group", name="Board cells").get_by_role("button").count()
        == 36
    )
    # the spec's next tile, a hole; the rooms: layer stays as it is
    cell(page, 1, 1).click()
    expect(textbox(page, "Puzzle")).to_have_value(re.compile(r"\nstars: 1\n\*\.{5}\n"))
    assert textbox(page, "Puzzle").input_value().splitlines()[3:] == STARBATTLE_MAP[2:]
    cell(page, 1, 1).click()  # and back to a cell
    expect(textbox(page, "Puzzle")).to_have_value(re.compile(r"\nstars: 1\n\.{6}\n"))
    text = textbox(page, "Puzzle").input_value()
    assert text.splitlines()[1:] == STARBATTLE_MAP
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("status SOLVED", timeout=LIVE)


def test_a_star_battle_is_set_with_its_rooms_typed_on_the_board(page):
    """A new grid of a map with rooms keeps a rooms: layer; its labels are typed cell by cell (Layer:
    rooms), and the puzzle is unique once the rooms are those of pzprjs's test puzzle."""
    open_puzzle(page, "starbattle", STARBATTLE, 36)
    new_grid(page, 6, 6)
    expect(textbox(page, "Puzzle")).to_have_value(
        "stars: 1\n" + "......\n" * 6 + "rooms:\n" + "aaaaaa\n" * 6
    )
    page.get_by_role("combobox", name="Layer").select_option("rooms")
    rooms = STARBATTLE_ROOMS
    for r, row in enumerate(rooms):
        for c, label in enumerate(row):
            if label != "a":
                cell(page, r + 1, c + 1).focus()
                page.keyboard.press(label)
    expect(cell(page, 6, 1)).to_have_accessible_name("row 6, column 1: room b")
    expect(page.locator("#live")).to_have_text("unique", timeout=LIVE)
    expect(textbox(page, "Puzzle")).to_have_value(
        "stars: 1\n" + "......\n" * 6 + "rooms:\n" + "\n".join(rooms) + "\n"
    )
    assert exported(page) == STARBATTLE


def test_a_player_solves_a_sudoku_by_clicking_and_typing_and_check_says_right(page):
    play(page, "sudoku", SUDOKU, 16)
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: given 1")
    first = True
    for r, row in enumerate(SUDOKU_ANSWER):
        for c, digit in enumerate(row):
            if (r, c) in SUDOKU_GIVENS:
                continue
            cell(page, r + 1, c + 1).click()
            page.keyboard.type(
                "4" if first else str(digit)
            )  # the first digit wrong, put right after Check
            first = False
    verdict = check(page)
    assert verdict.startswith("not right: 3 rules are broken")
    assert "line 23: for each row r: all different digit in r" in verdict
    cell(page, 1, 1).click()
    page.keyboard.type("2")
    assert check(page) == "right: every rule of the puzzle holds"
    assert page.locator("#board svg.overlay .value").count() == 12
    snap(page, "#board-section", "board-play")
    expect(page.get_by_role("img", name="Answer").locator("svg")).to_have_count(
        0
    )  # no solver answer shown


def test_a_player_solves_a_sudoku_by_clicks_alone_and_check_says_right(page):
    """No key pressed: each click on a cell gives it the next digit (1, 2, ... and empty again)."""
    play(page, "sudoku", SUDOKU, 16)
    for r, row in enumerate(SUDOKU_ANSWER):
        for c, digit in enumerate(row):
            if (r, c) in SUDOKU_GIVENS:
                continue
            for _ in range(digit):
                cell(page, r + 1, c + 1).click()
            expect(cell(page, r + 1, c + 1)).to_have_accessible_name(
                f"row {r + 1}, column {c + 1}: blank, {digit}"
            )
    assert check(page) == "right: every rule of the puzzle holds"


def test_a_fillomino_s_sizes_past_its_listed_values_are_clicked_and_typed(page):
    """A 2x6 Fillomino: 1 to 3 listed, the sizes 4 to 12 a range (its open value). Twelve clicks walk
    the first cell through both to 12, a thirteenth empties it; "12" typed gives the rest 12 (the 1
    typed first is a listed value, the 12 one of the range), and one block of 12 is right."""
    play(page, "fillomino", ". . . . . .\n. . . . . .\n", 12)
    for _ in range(12):
        cell(page, 1, 1).click()
    expect(cell(page, 1, 1)).to_have_accessible_name("row 1, column 1: blank, 12")
    cell(page, 1, 1).click()
    expect(cell(page, 1, 1)).to_have_accessible_name("row 1, column 1: blank, empty")
    cell(page, 1, 1).click()
    expect(cell(page, 1, 1)).to_have_accessible_name("row 1, column 1: blank, 1")
    for r in range(2):
        for c in range(6):
            cell(page, r + 1, c + 1).click()
            page.keyboard.type("12")
    expect(cell(page, 2, 6)).to_have_accessible_name("row 2, column 6: blank, 12")
    assert check(page) == "right: every rule of the puzzle holds"


def test_a_player_shades_a_nurikabe_with_undo_and_redo(page):
    play(page, "nurikabe", "2.\n..\n", 4)
    cell(page, 2, 2).click()
    cell(page, 1, 2).click()
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, shaded")
    assert check(page) == "right: every rule of the puzzle holds"
    page.get_by_role("button", name="Undo").click()
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, empty")
    verdict = check(page)
    assert verdict.startswith("not right: 2 rules are broken")
    assert "line 22: " in verdict
    expect(page.locator("#board svg.overlay rect.broken")).to_have_count(
        1
    )  # the clue whose island is wrong
    page.get_by_role("button", name="Redo").click()
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, shaded")
    cell(page, 1, 2).focus()
    page.keyboard.press("Control+z")  # the keys undo and redo too
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, empty")
    page.keyboard.press("Control+y")
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, shaded")
    cell(page, 1, 2).click()  # a second click: a dot (not shaded)
    expect(cell(page, 1, 2)).to_have_accessible_name(
        "row 1, column 2: blank, not shaded"
    )
    assert page.locator("#board svg.overlay .mark").count() == 1
    assert page.locator("#board svg.overlay .dot").count() == 1


def test_the_hint_stepper_walks_a_nurikabe_to_its_end(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill(NURIKABE)
    page.get_by_role("button", name="Hint").click()
    count = page.locator("#step-count")
    expect(count).to_have_text("Step 1 of 9", timeout=LIVE)
    text = page.locator("#step-text")
    expect(text).to_contain_text("step 1 (1 rule, 0 known): row 3, column 3 is shaded")
    expect(text).to_contain_text(
        "puzzles/nurikabe.grid:22:56: each island has as many cells as its number"
    )
    answer = page.get_by_role("img", name="Answer")
    assert answer.locator("svg rect.decides").count() == 4
    expect(page.get_by_role("button", name="Previous step")).to_be_disabled()
    for k in range(2, 10):
        page.get_by_role("button", name="Next step").click()
        expect(count).to_have_text(f"Step {k} of 9")
        expect(text).to_contain_text(f"step {k} (")
    expect(page.get_by_role("button", name="Next step")).to_be_disabled()
    page.get_by_role("button", name="Previous step").click()
    expect(count).to_have_text("Step 8 of 9")
    snap(page, "#outputs", "board-hint")
    assert "{" not in page.locator("#output").text_content()  # words, not JSON
    expect(page.locator("#output")).to_contain_text("solved in 9 steps")


def test_the_share_link_restores_the_puzzle_the_mode_and_the_answer(
    page, browser, server
):
    play(page, "nurikabe", "2.\n..\n", 4)
    cell(page, 2, 2).click()
    cell(page, 1, 2).click()
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: blank, shaded")
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    with opened(browser, server.url + link) as other:
        expect(other.get_by_role("radio", name="Play")).to_be_checked()
        expect(cell(other, 2, 2)).to_have_accessible_name(
            "row 2, column 2: blank, shaded", timeout=10_000
        )
        assert check(other) == "right: every rule of the puzzle holds"


def test_explain_says_in_sentences_which_rules_cannot_hold_together(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill("2.\n.2\n")
    page.get_by_role("button", name="Explain").click()
    output = page.locator("#output")
    expect(output).to_contain_text(
        "explanation: these 2 rule instances cannot hold together", timeout=LIVE
    )
    expect(output).to_contain_text(
        "puzzles/nurikabe.grid:23:41: each island holds one number"
    )
    assert (
        "/site-packages/" not in output.text_content()
        and "{" not in output.text_content()
    )
    # the instances' cells outlined on the board: the clue of the first (the second has none)
    expect(page.locator("#board svg.overlay rect.broken")).to_have_count(1)
    textbox(page, "Puzzle").fill("2.\n..\n")
    page.get_by_role("button", name="Explain").click()
    expect(output).to_have_text(
        "nothing to explain: the puzzle is not proved infeasible", timeout=LIVE
    )


def test_on_a_phone_the_board_fits_and_is_played_by_taps(phone):
    """At 390 x 844 pixels, with touch: the board and its controls within the screen, a cell tapped."""
    play(phone, "nurikabe", NURIKABE, 25)
    cell(phone, 3, 3).tap()
    expect(cell(phone, 3, 3)).to_have_accessible_name("row 3, column 3: blank, shaded")
    assert page_width(phone) <= 390
    for name in ("Check", "Undo", "Export URL"):
        box = phone.get_by_role("button", name=name, exact=True).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (
            name
        )
    box = phone.get_by_role("img", name="Board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_play_says_how_a_line_between_cells_is_drawn(page):
    play(page, "masyu", "https://puzz.link/p?masyu/6/6/1063000i3000", 36)
    expect(page.locator("#board-help")).to_have_text(
        "Drag from cell to cell to draw the line (drag again to erase); Shift and an arrow key "
        "draw from the selected cell; Check judges the answer."
    )
    # a loop's connectivity is no LP, MPS or WCNF file: only clingo's program is offered
    for name in ("Download LP", "Download MPS", "Download WCNF"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_disabled()
    expect(
        page.get_by_role("button", name="Download ASP (.lp)", exact=True)
    ).to_be_enabled()
    textbox(page, "Puzzle").fill(NURIKABE)
    expect(page.get_by_role("button", name="Download LP", exact=True)).to_be_enabled(
        timeout=30_000
    )


def test_a_genre_is_picked_by_typing_its_name(page):
    genre = page.get_by_role("combobox", name="Genre")
    bundled = page.get_by_role("combobox", name="Bundled spec")
    for typed, spec, puzzle in (
        ("lightup", "akari", "Akari"),
        ("Star Battle", "starbattle", "Star Battle"),
        ("mashu", "masyu", "Masyu"),
        ("nurikabe", "nurikabe", "Nurikabe"),
    ):
        genre.fill(typed)
        genre.press("Enter")
        expect(bundled).to_have_value(spec)
        expect(textbox(page, "Spec")).to_have_value(
            re.compile(rf'puzzle "{puzzle}"'), timeout=10_000
        )
    genre.fill("no such genre")
    genre.press("Enter")
    expect(page.locator("#genre-note")).to_have_text(
        "No bundled spec is called no such genre."
    )
    expect(bundled).to_have_value("nurikabe")


def test_a_url_of_another_genre_gets_its_board_and_becomes_a_map_to_edit(page):
    """The list starts at horse; a Nurikabe URL pasted there is drawn with Nurikabe's spec, which the
    page then shows, and a click on its board turns the URL into its text map, edited."""
    expect(page.get_by_role("combobox", name="Bundled spec")).to_have_value(
        "horse", timeout=10_000
    )
    textbox(page, "Puzzle").fill(NURIKABE)
    expect(tiles(page)).to_have_count(25)
    expect(page.get_by_role("combobox", name="Bundled spec")).to_have_value("nurikabe")
    expect(textbox(page, "Spec")).to_have_value(
        re.compile(r'puzzle "Nurikabe"'), timeout=10_000
    )
    expect(cell(page, 1, 1)).to_have_accessible_name("row 1, column 1: blank")
    cell(page, 1, 1).click()
    expect(textbox(page, "Puzzle")).to_have_value(
        f"# nurikabe 5x5, from {NURIKABE}\n15...\n..2..\n.....\n..1..\n...3.\n"
    )
    expect(page.locator("#live")).to_have_text("no answer", timeout=LIVE)


def test_the_board_set_played_and_solved_has_no_accessibility_violations(page):
    set_a_two_on_a_2x2_nurikabe(page)
    expect(page.locator("#live")).to_have_text(
        re.compile("more than one answer"), timeout=LIVE
    )
    assert accessibility_violations(page) == []
    page.get_by_role("radio", name="Play").check()
    cell(page, 2, 2).click()
    assert check(page).startswith("not right")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#step-count")).to_have_text(
        re.compile(r"Step 1 of \d+"), timeout=LIVE
    )
    assert accessibility_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert accessibility_violations(page) == []


def test_generate_makes_a_puzzle_on_the_board_and_cancel_drops_one(page, server):
    choose_spec(page, "sudoku")
    textbox(page, "box_rows").fill("2")
    textbox(page, "box_cols").fill("2")
    page.get_by_role("spinbutton", name="Rows").fill("4")
    page.get_by_role("spinbutton", name="Columns").fill("4")
    page.get_by_role("spinbutton", name="Seed").fill("3")
    page.get_by_role("button", name="Generate").click()
    expected = gridlang.generate(
        gridlang.bundled("sudoku"), (4, 4), 3, {"box_rows": 2, "box_cols": 2}
    )
    expect(textbox(page, "Puzzle")).to_have_value(expected.map, timeout=LIVE)
    expect(page.locator("#generating")).to_contain_text(
        f"{expected.clues} clues, seed 3, unique"
    )
    expect(page.locator("#live")).to_have_text("unique", timeout=LIVE)
    expect(tiles(page)).to_have_count(16)
    # a Nurikabe of 12x12 takes longer than a click: Cancel drops it, and the puzzle stays
    choose_spec(page, "nurikabe")
    page.get_by_role("spinbutton", name="Rows").fill("12")
    page.get_by_role("spinbutton", name="Columns").fill("12")
    page.get_by_role("button", name="Generate").click()
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator("#generating")).to_have_text("cancelled")
    expect(page.get_by_role("button", name="Generate")).to_be_enabled()
    expect(textbox(page, "Puzzle")).to_have_value(expected.map)
    until = time.monotonic() + 15  # the server stops the job when its request goes
    while server.get("/api/health")["running"] and time.monotonic() < until:
        time.sleep(0.2)
    assert server.get("/api/health")["running"] == 0


def test_an_error_names_the_bundled_spec_and_speaks_the_page_s_words(page):
    """A horse map without its budget: the error names puzzles/horse.grid, not the folder it is installed
    in, and asks for the budget under Parameters, not as --budget on a command line."""
    choose_spec(page, "horse")
    textbox(page, "Puzzle").fill("~~~\n~H~\n~~~\n")
    expect(page.locator("#board-note")).to_have_text(
        "Not a puzzle to solve yet: puzzles/horse.grid:18:7: error: parameter 'budget' has no value: "
        "give budget a value under Parameters, or a 'budget: VALUE' line above the map"
    )
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text(
        "puzzles/horse.grid:18:7: error: parameter 'budget' has no value: give budget a value under Parameters",
        timeout=LIVE,
    )
    assert not page.get_by_role("alert").text_content().startswith("/")


def test_a_clue_larger_than_the_board_says_no_answer(page):
    choose_spec(page, "nurikabe")
    new_grid(page, 2, 2)
    cell(page, 1, 1).click()
    page.keyboard.type("5")
    expect(page.locator("#live")).to_have_text("no answer", timeout=LIVE)
    # the puzzle reads: a rule that fails whatever the decisions is an infeasible puzzle, not bad input
    expect(page.locator("#board-note")).to_have_text("")
    expect(tiles(page)).to_have_count(4)
