"""Answers drawn between cells in Play, in a real Chromium against a real server: Masyu's line
between cell centres and Slitherlink's along the cells' sides, drawn by dragging and by keys, undone,
and judged by Check, whose broken rules of a line are drawn on the board."""

from __future__ import annotations

import re

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
LIVE = 30_000


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
