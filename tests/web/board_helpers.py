"""What the board's browser tests do again and again: find a control or a cell by its accessible name,
choose a bundled spec and give it a puzzle, draw by dragging (a mouse or a finger) across the picture's
lattice, Check, export, and ask axe-core. Each takes a Playwright page of the ``page`` or ``phone``
fixture (conftest.py)."""

from __future__ import annotations

import itertools
import os
import re
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from playwright.sync_api import expect

from gridlang.cli import main

LIVE = 30_000
"""Milliseconds a board, a live check or a Check may take after an edit (about a second at rest; the
machine may be busy)."""

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
"""axe-core 4.10.3 (Deque Systems, MPL-2.0, vendor/axe-core.LICENSE), the accessibility engine, as npm ships it."""


def textbox(page, name: str):
    """The text box named ``name`` exactly (``Spec``, ``Puzzle``, a parameter's)."""
    return page.get_by_role("textbox", name=name, exact=True)


def cell(page, row: int, col: int):
    """The button over the board's cell in row ``row``, column ``col`` (from 1)."""
    return page.get_by_role("group", name="Board cells").get_by_role(
        "button", name=re.compile(rf"^row {row}, column {col}: ")
    )


def place(page, name: str):
    """The button over a border or corner, by the start of its accessible name."""
    return page.get_by_role("group", name="Board borders and corners").get_by_role(
        "button", name=re.compile("^" + re.escape(name) + ": ")
    )


def tiles(page):
    """The cells the board's picture draws."""
    return page.get_by_role("img", name="Board").locator("svg .tiles rect")


def snap(page, selector: str, name: str) -> None:
    """With ``GRIDLANG_SCREENSHOTS`` set to a folder, a picture of the element there as ``NAME.png``."""
    folder = os.environ.get("GRIDLANG_SCREENSHOTS")
    if folder:
        page.locator(selector).screenshot(path=str(Path(folder) / f"{name}.png"))


@contextmanager
def opened(browser, url: str):
    """A page of a fresh browser context (no storage) at ``url`` (a share link), ready; the context
    closed after the ``with`` block."""
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(url)
        expect(tab.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
        yield tab
    finally:
        context.close()


def choose_spec(page, name: str) -> None:
    """Choose the bundled spec ``name`` and wait until its text is in the Spec box."""
    page.get_by_role("combobox", name="Bundled spec").select_option(name)
    text = (
        resources.files("gridlang.puzzles")
        .joinpath(f"{name}.grid")
        .read_text(encoding="utf-8")
    )
    expect(textbox(page, "Spec")).to_have_value(text, timeout=10_000)


def open_puzzle(page, spec: str, puzzle: str, cells: int) -> None:
    """The bundled spec chosen and the puzzle (a text map or a URL) typed, once its board of ``cells``
    cells is drawn."""
    choose_spec(page, spec)
    textbox(page, "Puzzle").fill(puzzle)
    expect(tiles(page)).to_have_count(cells, timeout=LIVE)


def play(page, spec: str, puzzle: str, cells: int) -> None:
    """:func:`open_puzzle`, then Play."""
    open_puzzle(page, spec, puzzle, cells)
    page.get_by_role("radio", name="Play").check()


def new_grid(page, rows: int, cols: int, cells: int | None = None) -> None:
    """An empty board of ``rows`` x ``cols`` cells by Rows, Columns and New grid, once it is drawn
    (``cells`` cells drawn, the frame of clues around the grid included; ``rows * cols`` unless given)."""
    page.get_by_role("spinbutton", name="Rows").fill(str(rows))
    page.get_by_role("spinbutton", name="Columns").fill(str(cols))
    page.get_by_role("button", name="New grid").click()
    expect(tiles(page)).to_have_count(
        rows * cols if cells is None else cells, timeout=LIVE
    )


def point(page, r: float, c: float) -> tuple[float, float]:
    """Where point (r, c) of the picture's cell lattice is on the screen, in CSS pixels: corner (r, c) at
    whole numbers, a cell's centre at (r + 0.5, c + 0.5)."""
    box = page.locator("#board-frame").bounding_box()
    pad, side, width, height = page.evaluate(
        "() => [board.pad, board.cell, board.width, board.height]"
    )
    return (
        box["x"] + (pad + c * side) * box["width"] / width,
        box["y"] + (pad + r * side) * box["height"] / height,
    )


def drag(page, points: list[tuple[float, float]]) -> None:
    """A mouse pressed at the first point, moved through the others, released."""
    page.mouse.move(*points[0])
    page.mouse.down()
    for p in points[1:]:
        page.mouse.move(*p, steps=4)
    page.mouse.up()


def touch_drag(page, points: list[tuple[float, float]]) -> None:
    """A finger put down at the first point, moved through the others (a few moves between two of
    them), lifted: Chromium's touch events through its protocol, as on a phone."""
    touch = page.context.new_cdp_session(page)
    x, y = points[0]
    touch.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
    )
    for a, b in itertools.pairwise(points):
        for k in range(1, 5):
            x = a[0] + (b[0] - a[0]) * k / 4
            y = a[1] + (b[1] - a[1]) * k / 4
            touch.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
            )
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def check(page) -> str:
    """Check pressed; the verdict's text once it has come."""
    verdict = page.locator("#verdict")
    page.get_by_role("button", name="Check").click()
    expect(verdict).not_to_have_text(re.compile(r"^(checking)?$"), timeout=LIVE)
    return verdict.inner_text()


def exported(page) -> str:
    """Export URL pressed; the puzz.link URL it gives."""
    page.get_by_role("button", name="Export URL").click()
    out = page.get_by_role("textbox", name="puzz.link URL")
    expect(out).to_have_value(re.compile(r"^https://puzz\.link/p\?"), timeout=LIVE)
    return out.input_value()


def imported(url: str, capsys) -> list[str]:
    """The text map ``gridlang import`` reads from a URL, its comment line left out."""
    capsys.readouterr()
    assert main(["import", url]) == 0
    return capsys.readouterr().out.splitlines()[1:]


def rooms_layer(page) -> list[str]:
    """The rows of the ``rooms:`` layer in the Puzzle box."""
    text = textbox(page, "Puzzle").input_value().splitlines()
    return text[text.index("rooms:") + 1 :]


def page_width(page) -> int:
    """How wide the page is laid out, in CSS pixels (wider than the window: a horizontal scroll)."""
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
    )


def accessibility_violations(page) -> list[str]:
    """What axe-core finds against WCAG 2 A and AA on the page as it stands: ``RULE: TARGETS`` each.
    (axe is evaluated through the browser's protocol: the page's own scripts policy forbids others.)"""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    return page.evaluate(
        """async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations
               .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)"""
    )
