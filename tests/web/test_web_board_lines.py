"""Answers drawn between cells in Play, in a real Chromium against a real server: Masyu's line
between cell centres and Slitherlink's along the cells' sides, drawn by dragging and by keys, undone,
and judged by Check, whose broken rules of a line are drawn on the board; on a phone, by a finger.

``GRIDLANG_SCREENSHOTS=docs pytest tests/web/test_web_board_lines.py`` rewrites the README's picture of a Masyu line checked
(``docs/board-lines.png``)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
)

from board_helpers import (
    LIVE,
    cell,
    check,
    drag,
    open_puzzle,
    opened,
    page_width,
    play,
    point,
    snap,
    touch_drag,
)
from board_puzzles import KROPKI, MASYU, STARBATTLE
from playwright.sync_api import expect

AROUND = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0)]
"""The loop around MASYU's 3x3 grid, by its cells."""
SLITHERLINK = "3.\n..\n"
"""A 3 in the top-left cell of a 2x2 grid: a loop around the top row is an answer."""
TOP_ROW = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (0, 0)]


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
    assert (
        "line 20: line is a loop (2 dead ends at row 1, column 1; row 1, column 3)"
        in verdict
    )
    # the loop rule is outlined at the line's two dead ends, not along the whole line; the pearl's
    # cell is one of them, and its outline is titled with both rules (by their names in masyu.grid)
    expect(overlay.locator(".broken-line")).to_have_count(0)
    broken = overlay.locator("rect.broken")
    expect(broken).to_have_count(2)
    assert broken.locator("title").all_text_contents() == [
        "line 20: the line is one loop; line 21: the line turns on a black circle",
        "line 20: the line is one loop",
    ]
    snap(page, "#board-section", "board-lines")


def test_check_outlines_the_branch_of_a_masyu_line_and_its_dead_end(page):
    play(page, "masyu", MASYU, 9)
    drag(page, [point(page, r + 0.5, c + 0.5) for r, c in AROUND])
    # a spur from the right column's middle into the centre: a branch there, a dead end at its tip
    drag(page, [point(page, 1.5, 2.5), point(page, 1.5, 1.5)])
    overlay = page.locator("#board svg.overlay")
    expect(overlay.locator(".line-mark")).to_have_count(9)
    verdict = check(page)
    assert verdict == (
        "not right: 1 rule is broken\n"
        "line 20: line is a loop (a dead end at row 2, column 2 and a branch at row 2, column 3)"
    )
    expect(overlay.locator("rect.broken")).to_have_count(2)
    expect(overlay.locator(".broken-line")).to_have_count(0)
    # two loops side by side have no dead end nor branch: the line as a whole is drawn over
    play(page, "masyu", "....\n....\n....\n....\n", 16)
    for r, c in ((0, 0), (2, 2)):
        square = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c), (r, c)]
        drag(page, [point(page, y + 0.5, x + 0.5) for y, x in square])
    assert check(page).endswith("form more than one loop)")
    expect(overlay.locator(".broken-line")).to_have_count(8)
    expect(overlay.locator("rect.broken")).to_have_count(0)


def test_check_rings_the_corners_where_a_slitherlink_line_branches_and_ends(page):
    play(page, "slitherlink", SLITHERLINK, 4)
    drag(page, [point(page, r, c) for r, c in TOP_ROW])
    drag(
        page, [point(page, 1, 1), point(page, 2, 1)]
    )  # a spur down the middle from the loop
    verdict = check(page)
    assert verdict.endswith(
        "line is a loop (a dead end at corner row 3, column 2 and a branch at corner row 2, column 2)"
    )
    rings = page.locator("#board svg.overlay .broken-point")
    expect(rings).to_have_count(2)
    assert set(rings.locator("title").all_text_contents()) == {
        "line 17: the line is one loop"
    }
    expect(page.locator("#board svg.overlay .broken-line")).to_have_count(0)


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
        "line 22: for each row r: count(star and r) == stars (with r = row 2: 0 == 1 is false)"
        in verdict
    )
    overlay = page.locator("#board svg.overlay")
    rims = overlay.locator(".broken-region")
    # rows 2 to 6 and columns 2 to 6, each outlined along its rim of 14 cell sides, and 5 rooms
    titles = rims.locator("title").all_text_contents()
    assert (
        titles.count("line 22: each row holds its stars") == 5 * 14
    )  # the rules' names
    assert titles.count("line 23: each column holds its stars") == 5 * 14
    assert len({t for t in titles if t.startswith("line 24: ")}) == 1
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


def test_on_a_phone_a_line_is_drawn_by_a_finger(phone):
    """A touch drag (Chromium's touch events through its protocol, as a finger on a phone) draws the
    line: the board keeps the touch for the drag instead of scrolling the page."""
    play(phone, "masyu", MASYU, 9)
    phone.locator("#board-frame").scroll_into_view_if_needed()
    touch_drag(phone, [point(phone, r + 0.5, c + 0.5) for r, c in AROUND])
    expect(phone.locator("#board svg.overlay .line-mark")).to_have_count(8)
    assert check(phone) == "right: every rule of the puzzle holds"
    assert page_width(phone) == 390


def test_the_share_link_restores_a_line(page, browser, server):
    play(page, "masyu", MASYU, 9)
    drag(page, [point(page, r + 0.5, c + 0.5) for r, c in AROUND])
    expect(page.locator("#board svg.overlay .line-mark")).to_have_count(8)
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    with opened(browser, server.url + link) as other:
        expect(cell(other, 1, 1)).to_have_accessible_name(
            "row 1, column 1: black, line down, right", timeout=10_000
        )
        expect(other.locator("#board svg.overlay .line-mark")).to_have_count(8)
        assert check(other) == "right: every rule of the puzzle holds"


def test_setting_a_masyu_draws_the_edges_the_live_check_finds_forced(page):
    open_puzzle(page, "masyu", "...\n...\n...\n", 9)
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


def test_check_draws_a_broken_frame_border_on_the_frame(page):
    """Mejilink with the frame's border above row 1, column 1 erased: a line drawn along it breaks the rule
    that the loop runs on dotted borders, and Check draws that border where it stands, on the frame's top."""
    play(page, "mejilink", "https://puzz.link/p?mejilink/4/4/g9rm5000", 16)
    drag(page, [point(page, 0, 0), point(page, 0, 1)])
    assert "(with b = the frame above row 1, column 1: the condition is false)" in check(page)
    broken = page.locator("#board svg.overlay .broken-line")
    titles = broken.locator("title").all_text_contents()
    on_dotted = [k for k, t in enumerate(titles) if t == "line 30: the loop runs on dotted borders"]
    assert len(on_dotted) == 1
    line = broken.nth(on_dotted[0])
    top = line.get_attribute("y1")
    assert top == line.get_attribute("y2")  # along the top, from the frame's first corner to its second
    assert float(line.get_attribute("x2")) > float(line.get_attribute("x1"))
    # the line's dead ends, ringed at the frame's corners (0, 0) and (0, 1): the border runs between them
    ends = page.locator("#board svg.overlay .broken-point").all()
    assert sorted((float(p.get_attribute("cx")), float(p.get_attribute("cy"))) for p in ends) == [
        (float(line.get_attribute("x1")), float(top)),
        (float(line.get_attribute("x2")), float(top)),
    ]
