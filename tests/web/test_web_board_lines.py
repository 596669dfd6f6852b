"""Answers drawn between cells in Play, in a real Chromium against a real server: Masyu's line
between cell centres and Slitherlink's along the cells' sides, drawn by dragging and by keys, undone,
and judged by Check, whose broken rules of a line are drawn on the board; on a phone, by a finger.

``GRIDLANG_SCREENSHOTS=docs pytest tests/web/test_web_board_lines.py`` rewrites the README's picture of a Masyu line checked
(``docs/board-lines.png``)."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
)

from playwright.sync_api import expect

MASYU = "*..\n...\n...\n"
"""A black pearl in a corner: the loop runs around the 3x3 grid, two cells straight from it each way."""
AROUND = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0)]
SLITHERLINK = "3.\n..\n"
"""A 3 in the top-left cell of a 2x2 grid: a loop around the top row is an answer."""
TOP_ROW = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (0, 0)]
STARBATTLE = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
KROPKI = "https://puzz.link/p?kropki/4/4/aa7fioco"
LIVE = 30_000


def snap(page, selector: str, name: str) -> None:
    """With ``GRIDLANG_SCREENSHOTS`` set to a folder, a picture of the element there as ``NAME.png``."""
    folder = os.environ.get("GRIDLANG_SCREENSHOTS")
    if folder:
        page.locator(selector).screenshot(path=str(Path(folder) / f"{name}.png"))


def textbox(page, name: str):
    return page.get_by_role("textbox", name=name, exact=True)


def cell(page, row: int, col: int):
    return page.get_by_role("group", name="Board cells").get_by_role(
        "button", name=re.compile(rf"^row {row}, column {col}: ")
    )


def play(page, spec: str, text: str, cells: int) -> None:
    """The bundled spec, its puzzle typed as a map, and Play."""
    page.get_by_role("combobox", name="Bundled spec").select_option(spec)
    expect(textbox(page, "Spec")).to_have_value(
        re.compile(r"puzzle \""), timeout=10_000
    )
    textbox(page, "Puzzle").fill(text)
    expect(
        page.get_by_role("img", name="Board").locator("svg .tiles rect")
    ).to_have_count(cells, timeout=LIVE)
    page.get_by_role("radio", name="Play").check()


def point(page, r: float, c: float) -> tuple[float, float]:
    """Where point (r, c) of the picture's cell lattice is on the screen (a cell's centre at r + 0.5)."""
    box = page.locator("#board-frame").bounding_box()
    pad, side, width, height = page.evaluate(
        "() => [board.pad, board.cell, board.width, board.height]"
    )
    return (
        box["x"] + (pad + c * side) * box["width"] / width,
        box["y"] + (pad + r * side) * box["height"] / height,
    )


def drag(page, points) -> None:
    page.mouse.move(*points[0])
    page.mouse.down()
    for p in points[1:]:
        page.mouse.move(*p, steps=4)
    page.mouse.up()


def check(page) -> str:
    verdict = page.locator("#verdict")
    page.get_by_role("button", name="Check").click()
    expect(verdict).not_to_have_text(re.compile(r"^(checking)?$"), timeout=LIVE)
    return verdict.inner_text()


def test_a_masyu_loop_is_dragged_through_the_cells_undone_and_checked(page):
    play(page, "masyu", MASYU, 9)
    expect(page.get_by_role("combobox", name="Decision")).to_have_value("line")
    expect(page.locator("#board-help")).to_have_text(
        "Drag from cell to cell to draw the line (drag again to erase); Shift and an arrow key "
        "draw from the selected cell; Check judges the answer."
    )
    drag(page, [point(page, r + 0.5, c + 0.5) for r, c in AROUND])
    expect(cell(page, 1, 1)).to_have_accessible_name(
        "row 1, column 1: black, line down, right"
    )
    expect(cell(page, 2, 2)).to_have_accessible_name("row 2, column 2: blank, no line")
    overlay = page.locator("#board svg.overlay")
    expect(overlay.locator(".line-mark")).to_have_count(8)
    assert check(page) == "right: every rule of the puzzle holds"
    # the drag is one step of Undo
    page.get_by_role("button", name="Undo").click()
    expect(overlay.locator(".line-mark")).to_have_count(0)
    page.get_by_role("button", name="Redo").click()
    expect(overlay.locator(".line-mark")).to_have_count(8)
    # a drag that begins on a drawn edge erases: the top row's two edges go
    drag(page, [point(page, 0.5, c + 0.5) for c in range(3)])
    expect(overlay.locator(".line-mark")).to_have_count(6)
    verdict = check(page)
    assert verdict.startswith("not right: 2 rules are broken\n")
    assert "line 20: line is a loop" in verdict
    assert (
        "line 21: for each c in black: turn(line, c) (with c = row 1, column 1"
        in verdict
    )
    # the loop rule names no cell: the line that breaks it is drawn over in red, titled with the rule
    broken = overlay.locator(".broken-line")
    expect(broken).to_have_count(6)
    # titled by the rule's name (masyu.grid: require "the line is one loop": line is a loop)
    assert broken.first.locator("title").text_content() == "line 20: the line is one loop"
    snap(page, "#board-section", "board-lines")
    expect(overlay.locator(".broken")).to_have_count(
        1
    )  # the pearl's cell, where it does not turn


def test_a_masyu_edge_is_drawn_by_shift_and_an_arrow_key(page):
    play(page, "masyu", MASYU, 9)
    cell(page, 2, 2).focus()
    page.keyboard.press("Shift+ArrowRight")
    expect(cell(page, 2, 2)).to_have_accessible_name(
        "row 2, column 2: blank, line right"
    )
    expect(cell(page, 2, 3)).to_have_accessible_name(
        "row 2, column 3: blank, line left"
    )
    page.keyboard.press("Shift+ArrowRight")  # again: erased
    expect(cell(page, 2, 2)).to_have_accessible_name("row 2, column 2: blank, no line")


def test_a_slitherlink_loop_is_dragged_along_the_cells_sides_and_checked(page):
    play(page, "slitherlink", SLITHERLINK, 4)
    expect(page.locator("#board-help")).to_contain_text(
        "Drag from corner to corner along the cells' sides to draw the line"
    )
    drag(page, [point(page, r, c) for r, c in TOP_ROW])
    expect(cell(page, 1, 1)).to_have_accessible_name(
        "row 1, column 1: clue, sides top, bottom, left"
    )
    expect(cell(page, 2, 1)).to_have_accessible_name(
        "row 2, column 1: blank, sides top"
    )
    assert check(page) == "right: every rule of the puzzle holds"


def test_check_outlines_the_rows_columns_and_rooms_of_a_star_battle_that_miss_a_star(
    page,
):
    play(page, "starbattle", STARBATTLE, 36)
    cell(page, 1, 1).click()  # one star, in row 1, column 1 and its room
    verdict = check(page)
    assert verdict.startswith("not right: 15 rules are broken\n")
    assert (
        "line 19: for each row r: count(star and r) == stars (with r = row 2: 0 == 1 is false)"
        in verdict
    )
    overlay = page.locator("#board svg.overlay")
    rims = overlay.locator(".broken-region")
    # rows 2 to 6 and columns 2 to 6, each outlined along its rim of 14 cell sides, and 5 rooms
    titles = rims.locator("title").all_text_contents()
    assert titles.count("line 19: each row holds its stars") == 5 * 14  # the rules' names
    assert titles.count("line 20: each column holds its stars") == 5 * 14
    assert len({t for t in titles if t.startswith("line 21: ")}) == 1
    # a new mark takes the outlines away
    cell(page, 2, 4).click()
    expect(rims).to_have_count(0)


def test_check_draws_the_kropki_borders_whose_dots_are_broken(page):
    play(page, "kropki", KROPKI, 16)
    for r in range(4):
        for c in range(4):
            cell(page, r + 1, c + 1).focus()
            page.keyboard.type(str((r + c) % 4 + 1))
    expect(cell(page, 4, 4)).to_have_accessible_name("row 4, column 4: blank, 3")
    verdict = check(page)
    assert verdict.startswith("not right: 17 rules are broken\n")
    broken = page.locator("#board svg.overlay .broken-line")
    expect(broken).to_have_count(
        17
    )  # each broken dot's border, and each border that should have one
    titles = broken.locator("title").all_text_contents()
    assert sum(t.startswith("line 36: for each b in white") for t in titles) == 3


def test_hashiwokakero_bridges_are_one_more_at_each_drag(page):
    play(page, "hashiwokakero", "2.2\n", 3)
    across = [point(page, 0.5, c + 0.5) for c in range(3)]
    drag(page, across)
    expect(cell(page, 1, 2)).to_have_accessible_name(
        "row 1, column 2: sea, bridge left 1, right 1"
    )
    assert check(page).startswith("not right: 2 rules are broken\n")
    drag(page, across)  # a second bridge
    expect(cell(page, 1, 2)).to_have_accessible_name(
        "row 1, column 2: sea, bridge left 2, right 2"
    )
    expect(page.locator("#board svg.overlay .line-mark")).to_have_count(4)
    assert check(page) == "right: every rule of the puzzle holds"
    drag(page, across)  # a third drag takes them away
    expect(cell(page, 1, 2)).to_have_accessible_name("row 1, column 2: sea, no bridge")


def test_on_a_phone_a_line_is_drawn_by_a_finger(browser, server):
    """A touch drag (Chromium's touch events through its protocol, as a finger on a phone) draws the
    line: the board keeps the touch for the drag instead of scrolling the page."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
        play(page, "masyu", MASYU, 9)
        page.locator("#board-frame").scroll_into_view_if_needed()
        touch = context.new_cdp_session(page)
        points = [point(page, r + 0.5, c + 0.5) for r, c in AROUND]
        x, y = points[0]
        touch.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
        )
        for a, b in itertools.pairwise(points):
            for k in range(1, 5):  # a few moves between two cell centres
                x = a[0] + (b[0] - a[0]) * k / 4
                y = a[1] + (b[1] - a[1]) * k / 4
                touch.send(
                    "Input.dispatchTouchEvent",
                    {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
                )
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(page.locator("#board svg.overlay .line-mark")).to_have_count(8)
        assert check(page) == "right: every rule of the puzzle holds"
        assert page.evaluate("document.documentElement.scrollWidth") == 390
    finally:
        context.close()


def test_the_share_link_restores_a_line(page, browser, server):
    play(page, "masyu", MASYU, 9)
    drag(page, [point(page, r + 0.5, c + 0.5) for r, c in AROUND])
    expect(page.locator("#board svg.overlay .line-mark")).to_have_count(8)
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    other = browser.new_context().new_page()
    try:
        other.goto(server.url + link)
        expect(other.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
        expect(cell(other, 1, 1)).to_have_accessible_name(
            "row 1, column 1: black, line down, right", timeout=10_000
        )
        expect(other.locator("#board svg.overlay .line-mark")).to_have_count(8)
        assert check(other) == "right: every rule of the puzzle holds"
    finally:
        other.context.close()


def test_setting_a_masyu_draws_the_edges_the_live_check_finds_forced(page):
    page.get_by_role("combobox", name="Bundled spec").select_option("masyu")
    expect(textbox(page, "Spec")).to_have_value(
        re.compile(r'puzzle "Masyu"'), timeout=10_000
    )
    textbox(page, "Puzzle").fill("...\n...\n...\n")
    expect(
        page.get_by_role("img", name="Board").locator("svg .tiles rect")
    ).to_have_count(9, timeout=LIVE)
    cell(page, 1, 1).click()  # blank -> white
    # white -> black: two cells straight from it each way, then two ways back
    cell(page, 1, 1).click()
    expect(page.locator("#live")).to_have_text(
        re.compile("^more than one answer"), timeout=LIVE
    )
    # forced: the pearl's two arms of two edges each, and the edge on from each arm's end
    expect(page.locator("#board svg.overlay .forced-line")).to_have_count(6)
    # a white pearl on the right side: the loop runs around the grid
    cell(page, 2, 3).click()
    expect(page.locator("#live")).to_have_text("unique", timeout=LIVE)
    expect(page.locator("#board svg.overlay .forced-line")).to_have_count(8)
