"""The board's places that are not cells, in a real Chromium against a real server: clues on borders
(Kropki's dots, Minarism's inequalities and differences) and on corners (Creek's numbers) set by
clicking and typing, clues outside the grid (Skyscrapers), and rooms drawn by dragging along the
cells' sides, each round-tripping through the Puzzle box's map and Export URL.

``GRIDLANG_SCREENSHOTS=docs pytest tests/web/test_web_board_places.py`` rewrites the README's picture of a Kropki set on its borders
(``docs/board-borders.png``)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
)

from board_helpers import (
    LIVE,
    accessibility_violations,
    cell,
    check,
    drag,
    exported,
    imported,
    new_grid,
    open_puzzle,
    opened,
    page_width,
    place,
    play,
    point,
    rooms_layer,
    snap,
    textbox,
    tiles,
    touch_drag,
)
from board_puzzles import KROPKI, MASYU, STARBATTLE
from playwright.sync_api import expect

KROPKI_BORDERS = [
    " w . w",
    "b . . b",
    " w . w",
    "b . w w",
    " . b w",
    ". b b .",
    " w b .",
]
MINARISM = "https://puzz.link/p?minarism/4/4/hhhq21pgi"
CREEK = "https://puzz.link/p?creek/6/7/q2cgcj18cdm3c88cl"
SKYSCRAPERS = "https://puzz.link/p?skyscrapers/4/4/k13h4j3g"


def test_a_kropki_dot_is_cycled_by_a_click_on_its_border_and_the_url_follows(
    page, capsys
):
    open_puzzle(page, "kropki", KROPKI, 16)
    board = page.get_by_role("img", name="Board")
    # the puzzle's 15 dots as the server draws them: 8 white, 7 black
    expect(board.locator("svg .border-circle")).to_have_count(8)
    expect(board.locator("svg .border-disc")).to_have_count(7)
    # 24 borders of a 4x4 grid, each a button named for its two cells and its tile
    expect(
        page.get_by_role("group", name="Board borders and corners").get_by_role(
            "button"
        )
    ).to_have_count(24)
    first = place(page, "border of row 1, columns 1 and 2")
    expect(first).to_have_accessible_name("border of row 1, columns 1 and 2: white")
    first.click()  # white -> black
    expect(first).to_have_accessible_name("border of row 1, columns 1 and 2: black")
    lower = place(page, "border of column 2, rows 1 and 2")
    expect(lower).to_have_accessible_name("border of column 2, rows 1 and 2: none")
    lower.click()  # none -> white
    expect(lower).to_have_accessible_name("border of column 2, rows 1 and 2: white")
    borders = [" b . w", "b w . b", *KROPKI_BORDERS[2:]]
    expect(textbox(page, "Puzzle")).to_have_value(
        f"# kropki 4x4, from {KROPKI}\nn: 4\n"
        + "....\n" * 4
        + "borders:\n"
        + "\n".join(borders)
        + "\n"
    )
    expect(board.locator("svg .border-disc")).to_have_count(
        8, timeout=LIVE
    )  # the dot turned black
    expect(board.locator("svg .border-circle")).to_have_count(
        8
    )  # and the new white one
    expect(page.locator("#live")).not_to_have_text("checking", timeout=LIVE)
    snap(page, "#board-section", "board-borders")
    url = exported(page)
    assert url != KROPKI
    assert imported(url, capsys)[-7:] == borders
    # the URL read back gives the same board
    textbox(page, "Puzzle").fill(url)
    expect(place(page, "border of column 2, rows 1 and 2")).to_have_accessible_name(
        "border of column 2, rows 1 and 2: white", timeout=LIVE
    )


def test_a_minarism_difference_is_typed_on_a_border_and_an_inequality_by_its_key(
    page, capsys
):
    open_puzzle(page, "minarism", MINARISM, 16)
    border = place(page, "border of row 1, columns 3 and 4")
    expect(border).to_have_accessible_name("border of row 1, columns 3 and 4: greater")
    border.focus()
    page.keyboard.press("<")
    expect(border).to_have_accessible_name("border of row 1, columns 3 and 4: less")
    page.keyboard.press(
        "ArrowDown"
    )  # straight down: the border between the same columns in row 2
    below = place(page, "border of row 2, columns 3 and 4")
    expect(below).to_be_focused()
    page.keyboard.type("3")
    expect(below).to_have_accessible_name(
        "border of row 2, columns 3 and 4: difference 3"
    )
    expect(textbox(page, "Puzzle")).to_have_value(
        re.compile(r"borders:\n > > <\n2 1 \. \.\n \. \. 3\n")
    )
    assert imported(exported(page), capsys)[-7:-4] == [" > > <", "2 1 . .", " . . 3"]


def test_a_creek_number_is_set_on_a_corner_and_drawn_in_its_disc(page, capsys):
    open_puzzle(page, "creek", CREEK, 42)
    group = page.get_by_role("group", name="Board borders and corners").get_by_role(
        "button"
    )
    expect(group).to_have_count(
        7 * 8
    )  # the (6 + 1) x (7 + 1) corners, the frame's included
    corner = place(page, "corner 1, 2")
    expect(corner).to_have_accessible_name("corner 1, 2: plain")
    corner.click()  # plain -> a number, 1
    expect(corner).to_have_accessible_name("corner 1, 2: clue 1")
    page.keyboard.type("0")
    expect(corner).to_have_accessible_name("corner 1, 2: clue 0")
    lines = imported(exported(page), capsys)
    assert lines[lines.index("corners:") + 1] == ".0....."


def test_a_skyscrapers_clue_outside_the_grid_cycles_between_frame_and_number(page):
    open_puzzle(page, "skyscrapers", SKYSCRAPERS, 36)
    outside = cell(page, 1, 2)  # above column 1 of the 4x4 grid
    expect(outside).to_have_accessible_name("row 1, column 2: frame")
    outside.click()
    expect(outside).to_have_accessible_name("row 1, column 2: clue 1")
    outside.click()  # back to the frame, never a blank cell outside the grid
    expect(outside).to_have_accessible_name("row 1, column 2: frame")
    inside = cell(page, 2, 2)
    inside.click()  # blank -> a number, never the frame inside the grid
    expect(inside).to_have_accessible_name("row 2, column 2: clue 1")
    inside.click()
    expect(inside).to_have_accessible_name("row 2, column 2: blank")
    # a new grid keeps the frame around it, on all four sides, and n follows its size
    new_grid(page, 3, 3, cells=25)
    expect(textbox(page, "Puzzle")).to_have_value(
        "n: 3\n+++++\n+...+\n+...+\n+...+\n+++++\n"
    )
    expect(page.locator("#live")).to_have_text(
        re.compile("^more than one answer"), timeout=LIVE
    )


def test_a_new_kropki_grid_has_an_empty_borders_layer_and_its_n(page):
    open_puzzle(page, "kropki", KROPKI, 16)
    new_grid(page, 3, 3)
    expect(textbox(page, "Puzzle")).to_have_value(
        "n: 3\n...\n...\n...\nborders:\n . .\n. . .\n . .\n. . .\n . .\n"
    )
    expect(
        page.get_by_role("group", name="Board borders and corners").get_by_role(
            "button"
        )
    ).to_have_count(12)
    place(page, "border of row 1, columns 1 and 2").click()  # none -> white
    expect(textbox(page, "Puzzle")).to_have_value(re.compile(r"borders:\n w \.\n"))
    # with no dot but one, 1 2 3 cannot stand in a row without two of them side by side and no dot between
    expect(page.locator("#live")).to_have_text("no answer", timeout=LIVE)


def test_rooms_are_drawn_by_dragging_along_the_cells_sides(page):
    open_puzzle(page, "starbattle", STARBATTLE, 36)
    new_grid(page, 6, 6)
    puzzle = textbox(page, "Puzzle")
    expect(puzzle).to_have_value(
        "stars: 1\n" + "......\n" * 6 + "rooms:\n" + "aaaaaa\n" * 6
    )
    # down the side between columns 3 and 4, from the top of the frame to its bottom: two rooms
    drag(page, [point(page, r, 3) for r in range(7)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaabbb\n){6}$"))
    expect(tiles(page)).to_have_count(36)
    # the drag began on a border: it erases, the upper half of it; the rooms join, the lower half stays drawn
    drag(page, [point(page, r, 3) for r in range(4)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaaaaa\n){6}$"))
    overlay = page.locator("#board svg.overlay")
    expect(overlay.locator(".open-wall")).to_have_count(3)
    # across the left half at the middle: the lower left block is a room of its own
    drag(page, [point(page, 3, c) for c in range(4)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaaaaa\n){3}(bbbaaa\n){3}$"))
    expect(overlay.locator(".open-wall")).to_have_count(0)
    assert rooms_layer(page) == ["aaaaaa"] * 3 + ["bbbaaa"] * 3
    # a drag is no click: the cell where it ended kept its tile
    expect(
        page.get_by_role("group", name="Board cells").get_by_role(
            "button", name=re.compile(r"^row 4, column 4: cell$")
        )
    ).to_have_count(1)


def test_an_open_room_border_comes_back_by_undo_a_reload_and_the_share_link(
    page, browser, server
):
    """A border that closes no room is no label of the rooms: layer; the page keeps it beside the map,
    so that Undo, a reload and the share link give back the board as the setter drew it."""
    open_puzzle(page, "starbattle", STARBATTLE, 36)
    new_grid(page, 6, 6)
    puzzle = textbox(page, "Puzzle")
    one_room = re.compile(r"rooms:\n(aaaaaa\n){6}$")
    open_walls = page.locator("#board svg.overlay .open-wall")
    # the upper half of the side between columns 3 and 4: three sides drawn, one room still
    drag(page, [point(page, r, 3) for r in range(4)])
    expect(open_walls).to_have_count(3)
    expect(puzzle).to_have_value(one_room)
    # each dashed where it stands: down the side, three cells from the frame's left, one cell each
    ends = sorted(
        tuple(float(w.get_attribute(a)) for a in ("y1", "y2", "x1", "x2"))
        for w in open_walls.all()
    )
    pad, side = ends[0][0], ends[0][1] - ends[0][0]
    assert ends == [
        (pad + k * side, pad + (k + 1) * side, pad + 3 * side, pad + 3 * side)
        for k in range(3)
    ]
    # its lower half: two rooms
    drag(page, [point(page, r, 3) for r in range(3, 7)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaabbb\n){6}$"))
    expect(open_walls).to_have_count(0)
    page.get_by_role("button", name="Undo").click()  # the drag, one step
    expect(puzzle).to_have_value(one_room)
    expect(open_walls).to_have_count(3)
    page.get_by_role("button", name="Redo").click()
    expect(open_walls).to_have_count(0)
    cell(page, 1, 1).focus()
    page.keyboard.press("Control+z")  # the keys undo while setting too
    expect(open_walls).to_have_count(3)
    page.reload()
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
    expect(tiles(page)).to_have_count(36, timeout=LIVE)
    expect(puzzle).to_have_value(one_room)
    expect(open_walls).to_have_count(3)
    link = page.get_by_role("link", name="Share link").get_attribute("href")
    with opened(browser, server.url + link) as other:
        expect(textbox(other, "Puzzle")).to_have_value(one_room)
        expect(other.locator("#board svg.overlay .open-wall")).to_have_count(
            3, timeout=LIVE
        )
    # the drawing goes on where it stood: the lower half closes the two rooms
    drag(page, [point(page, r, 3) for r in range(3, 7)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaabbb\n){6}$"))
    expect(open_walls).to_have_count(0)


def test_rooms_are_drawn_by_a_finger_on_a_phone(phone):
    open_puzzle(phone, "starbattle", STARBATTLE, 36)
    new_grid(phone, 6, 6)
    phone.locator("#board-frame").scroll_into_view_if_needed()
    # down the side between columns 3 and 4, then across the left half at the middle
    touch_drag(phone, [point(phone, r, 3) for r in range(7)])
    puzzle = textbox(phone, "Puzzle")
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaabbb\n){6}$"))
    touch_drag(phone, [point(phone, 3, c) for c in range(4)])
    expect(puzzle).to_have_value(re.compile(r"rooms:\n(aaabbb\n){3}(cccbbb\n){3}$"))
    assert rooms_layer(phone) == ["aaabbb"] * 3 + ["cccbbb"] * 3
    # the finger drew: no cell it ended on was tapped, and the page did not scroll sideways
    expect(cell(phone, 4, 4)).to_have_accessible_name("row 4, column 4: cell")
    assert page_width(phone) == 390


def test_the_borders_buttons_the_lines_and_generate_s_controls_pass_axe_at_both_widths(
    page,
):
    open_puzzle(page, "kropki", KROPKI, 16)
    place(page, "border of row 1, columns 1 and 2").focus()
    assert accessibility_violations(page) == []
    play(page, "masyu", MASYU, 9)
    cell(page, 1, 1).focus()
    page.keyboard.press("Shift+ArrowRight")
    assert check(page).startswith("not right")
    assert accessibility_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert accessibility_violations(page) == []
    assert page_width(page) == 390  # no horizontal scroll


MEJILINK = "https://puzz.link/p?mejilink/4/4/g9rm4"


def test_a_mejilink_border_on_the_frame_is_a_button_and_its_click_reaches_the_url(page, capsys):
    """Tiles on borders and frame: the 40 borders of a 4x4 grid, the frame's 16 among them, each a button; a
    click on the frame's border above row 1, column 1 turns it from dotted to erased, and the URL written
    back holds the frame's digits (pzprjs leaves them out only when none is set)."""
    open_puzzle(page, "mejilink", MEJILINK, 16)
    expect(
        page.get_by_role("group", name="Board borders and corners").get_by_role("button")
    ).to_have_count(40)
    top = place(page, "frame above row 1, column 1")
    expect(top).to_have_accessible_name("frame above row 1, column 1: dotted")
    top.click()
    expect(top).to_have_accessible_name("frame above row 1, column 1: erased")
    expect(place(page, "frame right of row 4, column 4")).to_have_accessible_name(
        "frame right of row 4, column 4: dotted"
    )
    expect(textbox(page, "Puzzle")).to_have_value(re.compile(r"borders:\n \. - - -\n- \. - - -\n"))
    url = exported(page)
    assert url == "https://puzz.link/p?mejilink/4/4/g9rm5000"
    assert imported(url, capsys)[-9:][0] == " . - - -"


def test_a_new_mejilink_grid_has_a_borders_layer_with_its_frame(page):
    open_puzzle(page, "mejilink", MEJILINK, 16)
    new_grid(page, 2, 3)
    expect(textbox(page, "Puzzle")).to_have_value(
        re.compile(r"\.\.\.\n\.\.\.\n(rooms:\naaa\naaa\n)?borders:\n - - -\n- - - -\n - - -\n- - - -\n - - -\n$")
    )
    expect(
        page.get_by_role("group", name="Board borders and corners").get_by_role("button")
    ).to_have_count(17)
