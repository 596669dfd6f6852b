"""The page of ``gridlang serve`` in a real Chromium (Playwright), against a real server: controls
found by their accessible names, answers read off the SVG drawn in the page.

``GRIDLANG_SCREENSHOT=docs/serve.png pytest tests/web/test_web_page.py -k daily`` rewrites the
README's picture of the page."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is missing: pip install '.[test]'")

from board_helpers import choose_spec, textbox  # noqa: E402
from horse_data import REPO  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

import gridlang  # noqa: E402
from gridlang.batch.bench import hard_tail_map  # noqa: E402

NURIKABE = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
DAILY = (REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text(encoding="utf-8")
SCREENS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "screens"
SOLVED = 30_000
"""Milliseconds a solve may take in the page (they take about a second; the machine may be busy)."""


def cells_of(page, figure: str, selector: str) -> set[tuple[int, int]]:
    """The ``(row, col)`` cells of the shapes matching ``selector`` in the SVG inside the element with
    role ``img`` named ``figure``: each shape's centre as the browser lays it out, in the grid of the
    picture's tiles (the first tile's place and size give the frame and the cell). The boxes are read
    at one instant, so that a board drawn above the picture meanwhile cannot move them apart."""
    svg = page.get_by_role("img", name=figure, exact=True).locator("svg").first
    boxes = svg.evaluate("""(svg, selector) => {
        const box = (e) => { const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; };
        return {frame: box(svg), shapes: Array.from(svg.querySelectorAll(selector), box)};
    }""", selector)
    fx, fy, fw, _ = boxes["frame"]
    scale = fw / float(svg.get_attribute("width"))
    tile = svg.locator(".tiles rect").first
    pad, cell = float(tile.get_attribute("x")), float(tile.get_attribute("width"))
    found = set()
    for x0, y0, w, h in boxes["shapes"]:
        x = (x0 + w / 2 - fx) / scale
        y = (y0 + h / 2 - fy) / scale
        found.add((int((y - pad) // cell), int((x - pad) // cell)))
    return found


def solve_the_daily_with_budget_12(page):
    """The daily of 2026-01-07 without its budget line, the budget typed in the box, solved to its
    published score 66; the status element."""
    choose_spec(page, "horse")
    rows = "".join(line + "\n" for line in DAILY.splitlines() if not line.startswith("budget"))
    textbox(page, "Puzzle").fill(rows)
    textbox(page, "budget").fill("12")
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("score 66 (verified)", timeout=SOLVED)
    return status


def test_a_puzzlink_nurikabe_is_solved_and_drawn(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill(NURIKABE)
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("status SOLVED", timeout=SOLVED)
    expect(status).to_contain_text("verified")
    expected = set(gridlang.solve(url=NURIKABE).decisions["shaded"])
    assert len(expected) == 14
    assert cells_of(page, "Answer", ".mark.shaded") == expected


def test_the_daily_with_budget_12_scores_66_and_the_pen_is_drawn(page, tmp_path):
    status = solve_the_daily_with_budget_12(page)
    expect(status).to_contain_text("status OPTIMAL")
    expect(status).to_contain_text("walls 12/12")
    walls = cells_of(page, "Answer", ".mark.wall")
    pen = cells_of(page, "Answer", ".region-pen rect")
    assert len(walls) == 12 and all(DAILY.splitlines()[r + 1][c] == "." for r, c in walls)
    assert len(pen) > 40 and not walls & pen
    assert page.get_by_role("img", name="Answer").locator("svg .outline.region-pen").count() == 1
    with page.expect_download() as download:
        page.get_by_role("button", name="Download LP").click()
    assert download.value.suggested_filename == "horse.lp"
    assert "\nmax \n" in Path(download.value.path()).read_text()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download PNG").click()
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    picture = os.environ.get("GRIDLANG_SCREENSHOT")
    page.screenshot(path=picture or str(tmp_path / "serve.png"), full_page=True)


def test_a_typo_in_the_spec_is_shown_at_its_line(page):
    page.get_by_role("combobox", name="Bundled spec").select_option("")
    spec = textbox(page, "Spec")
    spec.fill('puzzle "x"\ntile a \'.\'\ndecide s: bool on a\nrequre count(s) >= 1\n')
    textbox(page, "Puzzle").fill("..\n")
    page.get_by_role("button", name="Solve", exact=True).click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("<spec>:4:1: error: unexpected name 'requre'; did you mean 'require'?",
                                  timeout=SOLVED)
    expect(page.locator("#gutter span.error")).to_have_text("4")


def test_unique_on_a_puzzle_with_two_answers_outlines_the_cells_that_differ(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill("2.\n..\n")
    page.get_by_role("button", name="Unique?").click()
    expect(page.locator("#note")).to_contain_text("not unique", timeout=SOLVED)
    answers = [sorted(a.decisions["shaded"]) for a in gridlang.solutions(gridlang.bundled("nurikabe"), map="2.\n..\n")]
    first, second = (set(a) for a in answers)
    differ = first ^ second
    assert cells_of(page, "Second answer", "rect.differ") == differ
    assert cells_of(page, "Answer", "rect.differ") == differ
    shown = {frozenset(cells_of(page, "Answer", ".mark.shaded")), frozenset(cells_of(page, "Second answer",
                                                                                         ".mark.shaded"))}
    assert shown == {frozenset(first), frozenset(second)}


def test_stop_keeps_the_best_answer_so_far(page):
    choose_spec(page, "horse")
    textbox(page, "Puzzle").fill(hard_tail_map(40, 30))
    textbox(page, "budget").fill("40")
    page.get_by_role("spinbutton", name="Time limit (seconds)").fill("60")
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("best so far", timeout=2 * SOLVED)  # about 2 s at rest; 30 s seen under load
    page.get_by_role("button", name="Stop").click()
    expect(status).to_contain_text("status FEASIBLE", timeout=10_000)
    expect(status).to_contain_text("(verified)")
    expect(page.locator("#note")).to_contain_text("stopped")
    walls = cells_of(page, "Answer", ".mark.wall")
    assert 0 < len(walls) <= 40
    expect(page.get_by_role("button", name="Stop")).to_be_disabled()


def test_the_share_link_reopens_the_same_state(page, browser, server):
    page.get_by_role("combobox", name="Bundled spec").select_option("")
    spec = 'puzzle "Nurikabe"\ntile blank \'.\'\ntile clue number\ndecide shaded: bool on blank\n' \
           "require shaded is connected\n"
    textbox(page, "Spec").fill(spec)
    textbox(page, "Puzzle").fill("3 . .\n. . .\n")
    page.get_by_role("combobox", name="Backend").select_option("asp")
    page.get_by_role("spinbutton", name="Time limit (seconds)").fill("25")
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    assert link.startswith("/#s=")
    other = browser.new_context().new_page()
    try:
        other.goto(server.url + link)
        expect(other.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
        expect(textbox(other, "Spec")).to_have_value(spec)
        expect(textbox(other, "Puzzle")).to_have_value("3 . .\n. . .\n")
        expect(other.get_by_role("combobox", name="Backend")).to_have_value("asp")
        expect(other.get_by_role("spinbutton", name="Time limit (seconds)")).to_have_value("25")
        expect(other.get_by_role("combobox", name="Bundled spec")).to_have_value("")
    finally:
        other.context.close()
    choose_spec(page, "horse")
    textbox(page, "budget").fill("7")
    textbox(page, "Puzzle").fill("~~~\n~H~\n~~~\n")
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    other = browser.new_context().new_page()
    try:
        other.goto(server.url + link)
        expect(textbox(other, "budget")).to_have_value("7", timeout=30_000)
        expect(other.get_by_role("combobox", name="Bundled spec")).to_have_value("horse")
        expect(textbox(other, "Puzzle")).to_have_value("~~~\n~H~\n~~~\n")
    finally:
        other.context.close()


def test_cells_drawn_by_clicking_cycle_through_the_tiles(page):
    choose_spec(page, "horse")
    page.get_by_role("spinbutton", name="Rows").fill("3")
    page.get_by_role("spinbutton", name="Columns").fill("3")
    page.get_by_role("button", name="New grid").click()
    expect(textbox(page, "Puzzle")).to_have_value("~~~\n~~~\n~~~\n")
    middle = page.get_by_role("button", name="row 2, column 2: water")
    middle.click()
    expect(textbox(page, "Puzzle")).to_have_value("~~~\n~.~\n~~~\n")
    page.get_by_role("button", name="row 2, column 2: grass").click()
    expect(textbox(page, "Puzzle")).to_have_value("~~~\n~H~\n~~~\n")


@pytest.mark.skipif(not SCREENS.is_dir(), reason="the screenshots of ../shared/data/screens are not here")
def test_a_screenshot_becomes_the_puzzle(page):
    choose_spec(page, "horse")
    page.get_by_label("Screenshot", exact=True).set_input_files(str(SCREENS / "example.png"))
    expected = (SCREENS / "example_map.txt").read_text().split()
    expect(textbox(page, "Puzzle")).to_have_value("\n".join(expected) + "\n", timeout=SOLVED)
    expect(page.get_by_role("status")).to_contain_text("read the map off example.png")


def test_forced_cells_and_the_first_hint_are_drawn(page):
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill("2.\n..\n")
    page.get_by_role("button", name="Forced cells").click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("forced: done", timeout=SOLVED)
    forced = gridlang.forced(gridlang.bundled("nurikabe"), map="2.\n..\n")
    assert cells_of(page, "Answer", "rect.open") == set(forced.open) == {(0, 1), (1, 0)}
    assert cells_of(page, "Answer", ".mark.shaded") == {(1, 1)}
    textbox(page, "Puzzle").fill(NURIKABE)
    page.get_by_role("button", name="Hint").click()
    expect(status).to_contain_text("hint: done", timeout=SOLVED)
    # the first step: the clue 1's four neighbours are shaded
    assert cells_of(page, "Answer", "rect.decides") == {(2, 2), (3, 1), (3, 3), (4, 2)}


def test_solve_then_hint_on_the_daily_draws_the_first_step(page):
    # the horse's one way out (row 9, column 7) is decided first, by "the best score is 66" alone
    status = solve_the_daily_with_budget_12(page)
    page.get_by_role("button", name="Hint").click()
    expect(status).to_contain_text("hint: done", timeout=SOLVED)
    assert cells_of(page, "Answer", "rect.decides") == {(8, 6)}
    expect(page.locator("#output")).to_contain_text("solved in 16 steps, each checked")


def test_on_a_phone_the_page_is_no_wider_than_the_screen(page):
    """At 390 x 844 pixels (a phone), before and after a solve of a daily: every control within reach,
    nothing wider than the screen (the page was 754 pixels wide after a solve)."""
    page.set_viewport_size({"width": 390, "height": 844})
    width = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
    assert page.evaluate(width) <= 390
    choose_spec(page, "horse")
    textbox(page, "Puzzle").fill(DAILY)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("status OPTIMAL", timeout=SOLVED)
    assert page.evaluate(width) <= 390
    for name in ("Hint", "Explain", "Solve"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, name
    box = textbox(page, "Spec").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_an_error_takes_the_previous_answer_and_its_downloads_away(page):
    """A solve, then a spec with a typo: the error is shown alone, not above the answer of the puzzle
    before, and the downloads of that answer are no longer offered."""
    choose_spec(page, "nurikabe")
    textbox(page, "Puzzle").fill(NURIKABE)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("status SOLVED", timeout=SOLVED)
    assert page.get_by_role("img", name="Answer").locator("svg").count() == 1
    expect(page.get_by_role("button", name="Download SVG")).to_be_enabled()
    spec = textbox(page, "Spec")
    spec.fill(spec.input_value().replace("require", "requre", 1))
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("did you mean 'require'?", timeout=SOLVED)
    expect(page.get_by_role("status")).to_have_text("error", timeout=SOLVED)  # the solve's, not the spec check's
    assert page.get_by_role("img", name="Answer").locator("svg").count() == 0
    for name in ("Download SVG", "Download PNG", "Download JSON"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()


def test_a_url_of_another_genre_is_solved_with_its_genre_spec(page):
    """The list starts at horse; a Nurikabe URL pasted there is solved as a Nurikabe (it was refused:
    horse.grid declares no puzz.link format), and the list and the spec then show Nurikabe's."""
    expect(page.get_by_role("combobox", name="Bundled spec")).to_have_value("horse", timeout=10_000)
    textbox(page, "Puzzle").fill(NURIKABE)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("status SOLVED", timeout=SOLVED)
    assert cells_of(page, "Answer", ".mark.shaded") == set(gridlang.solve(url=NURIKABE).decisions["shaded"])
    expect(page.get_by_role("combobox", name="Bundled spec")).to_have_value("nurikabe")
    expect(textbox(page, "Spec")).to_have_value(re.compile(r'puzzle "Nurikabe"'), timeout=10_000)


def test_a_genre_chosen_while_the_start_pages_spec_loads_keeps_its_own_spec(browser, server):
    # the start page's spec (horse) answering after a genre was chosen overwrote the chosen one's text,
    # so the page showed the horse's rules beside a Gokigen generated from its name
    context = browser.new_context(viewport={"width": 390, "height": 900})
    tab = context.new_page()
    tab.route("**/api/specs/horse", lambda route: (tab.wait_for_timeout(1500), route.continue_()))
    tab.goto(server.url + "/")
    tab.get_by_role("combobox", name="Bundled spec").select_option("gokigen")
    expect(tab.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
    tab.wait_for_timeout(2500)  # past the horse's delayed answer
    spec = tab.evaluate("() => document.querySelector('textarea').value")
    context.close()
    assert spec.startswith('# Gokigen Naname (pzprjs "gokigen")'), spec[:60]
