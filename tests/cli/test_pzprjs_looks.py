"""Looks drawn as pzprjs draws some genres: ``symbols``, numbers 1, 2, 3 as Hakoiri's circle, triangle
and square (pzprjs's ``getNumberTextCore``), givens in ink and answers in the answer's green, 0 as
nothing; ``corner``, a room's number small in its cell's top left corner with the line free to pass
the cell (Nagenawa, pzprjs's ``textoption`` TOPLEFT); ``moon``, a black crescent (Moon or Sun)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from gridlang.core.errors import GridlangError
from gridlang.core.grid import Grid
from gridlang.ir.solution import Solution
from gridlang.language.checker import check
from gridlang.language.looks import Looks, symbol
from gridlang.language.parser import parse_spec
from gridlang.pictures.draw import default_style, draw
from gridlang.pictures.lookstyle import ANSWER, looks_style
from gridlang.pictures.textdraw import render

CELL = 40


def _texts(root: ET.Element, cls: str) -> list[tuple[str, str]]:
    return sorted((e.text, e.get("fill")) for e in root.iter() if cls in e.get("class", "").split())


def test_givens_and_answers_as_symbols():
    # a 1x4 row: a given triangle, then three cells whose answers are a circle, nothing and a square;
    # the answer on the given's cell is not drawn over it
    grid = Grid(1, 4, ("2", ".", ".", "."), ("given", "blank", "blank", "blank"))
    looks = Looks(tiles={"given": "symbols", "blank": "plain"}, decisions={"symbol": "symbols"},
                  valued=frozenset({"symbol"}))
    solution = Solution({"symbol": {0: 2, 1: 1, 2: 0, 3: 3}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, solution, style, CELL).to_svg())
    assert _texts(root, "clue") == [("△", "#000000")]
    assert {t for t, _ in _texts(root, "label")} == {"○", "□"}
    assert {fill for _, fill in _texts(root, "label")} == {ANSWER}
    assert render(grid, solution, looks) == "△ ○ . □"


@pytest.mark.parametrize("value,text", [(1, "○"), (2, "△"), (3, "□"), ("3", "□"), ("?", "?"), (0, ""),
                                        (4, ""), (".", "")])
def test_the_symbol_of_a_value(value, text):
    assert symbol(value) == text


def test_symbols_draw_integers_only():
    spec = "tile blank '.'\ndecide kind: {a, b} on all\ndraw kind as symbols\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(spec, "t.grid"))
    assert "'symbols' draws integer values; 'kind' has value names (a, b)" in info.value.message


def test_a_corner_number_leaves_the_cell_to_the_line():
    # a 1x3 row: the number 3 in the first cell, a line through all three cells
    grid = Grid(1, 3, ("3", ".", "."), ("clue", "blank", "blank"))
    looks = Looks(tiles={"clue": "corner", "blank": "plain"}, decisions={"line": "line"},
                  lattices={"line": "edges"})
    solution = Solution({"line": {((0, 0), (0, 1)): 1, ((0, 1), (0, 2)): 1}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, solution, style, CELL, lattices={"line": "edges"}).to_svg())
    (text,) = [e for e in root.iter() if "clue" in e.get("class", "").split()]
    pad = round(0.25 * CELL)
    assert text.text == "3" and float(text.get("x")) < pad + 0.3 * CELL and float(text.get("y")) < pad + 0.5 * CELL
    ends = [float(x) for x in re.findall(r"M([-\d.]+),", " ".join(e.get("d", "") for e in root.iter()
                                                                     if "line" in e.get("class", "").split()))]
    assert min(ends) == pad + 0.5 * CELL  # from the clue cell's centre: nothing to stop at
    assert render(grid, solution, looks) == "3───╴"


def test_a_moon_is_a_crescent_inside_its_cell():
    grid = Grid(1, 2, ("M", "S"), ("moon", "sun"))
    looks = Looks(tiles={"moon": "moon", "sun": "circle"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    shapes = [e for e in root.iter() if "moon" in e.get("class", "").split()]
    assert len(shapes) == 1 and shapes[0].tag.endswith("polygon") and shapes[0].get("fill") == "#000000"
    points = [tuple(map(float, p.split(","))) for p in shapes[0].get("points").split()]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    # As tall as a circle (0.8 of the cell) and narrower than one: the right side is cut away.
    height, width = max(ys) - min(ys), max(xs) - min(xs)
    assert abs(height - 0.8 * CELL) < 1 and 0.3 * height < width < 0.8 * height
    assert render(grid, Solution({}, {}), looks) == "☾ ○"


def _points(e: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in e.get("points").split()]


def _shapes(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def _arrow_row(look: str) -> tuple[Grid, Looks, ET.Element]:
    # a 1x4 row of arrows up, down, left and right, drawn with 40-pixel cells inside a 10-pixel frame
    grid = Grid(1, 4, ("^", "v", "<", ">"), ("up", "down", "left", "right"))
    looks = Looks(tiles=dict.fromkeys(("up", "down", "left", "right"), look))
    style = looks_style(grid, looks).over(default_style(grid))
    return grid, looks, ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())


def test_arrows_in_cells_as_pzprjs_draws_them():
    # pzprjs's drawCellArrows: the tip 0.4 of a cell from the centre, the head's base 0.16 from it and 0.16
    # to each side, a shaft 0.03 to each side (at least a pixel) running back 0.4 from the centre
    grid, looks, root = _arrow_row("arrow")
    arrows = _shapes(root, "arrow")
    assert [e.get("class") for e in arrows] == ["arrow up", "arrow down", "arrow left", "arrow right"]
    assert {e.get("fill") for e in arrows} == {"#000000"}
    assert _points(arrows[0]) == [(30, 14), (23.6, 23.6), (28.8, 23.6), (28.8, 46), (31.2, 46), (31.2, 23.6),
                                  (36.4, 23.6)]
    tips = [_points(e)[0] for e in arrows]
    assert tips == [(30, 14), (70, 46), (94, 30), (166, 30)]  # centres at x = 30, 70, 110, 150 and y = 30
    assert render(grid, Solution({}, {}), looks) == "^ v < >"


def test_a_hollow_arrow_is_wide_and_outlined():
    # pzprjs's drawCellArrows(true) with an outline only (Guide Arrow): the tip 0.35 from the centre, the head
    # from the centre on, 0.35 to each side, a shaft 0.12 to each side
    grid, looks, root = _arrow_row("hollow_arrow")
    arrows = _shapes(root, "arrow")
    assert len(arrows) == 4 and {(e.get("fill"), e.get("stroke")) for e in arrows} == {("#ffffff", "#000000")}
    assert _points(arrows[0]) == [(30, 16), (16, 30), (25.2, 30), (25.2, 44), (34.8, 44), (34.8, 30), (44, 30)]
    assert render(grid, Solution({}, {}), looks) == "^ v < >"


def test_an_arrow_on_a_black_cell_is_white():
    # Makaro's arrows: a black cell, the arrow on it in white; the text keeps the arrow's character
    grid = Grid(1, 2, (">", "#"), ("right", "black"))
    looks = Looks(tiles={"right": "block", "black": "block"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    (arrow,) = _shapes(root, "arrow")
    assert arrow.get("class") == "arrow right" and arrow.get("fill") == "#ffffff"
    assert _points(arrow)[0] == (46, 30)
    tiles = [e for e in root.iter() if "tile-right" in e.get("class", "").split()]
    assert [e.get("fill") for e in tiles] == ["#000000"]
    assert render(grid, Solution({}, {}), looks) == "> #"


def test_a_pencil_tip_points_from_its_shaft():
    # pzprjs's Pencils: a triangle from the two corners of the side behind the tip to the cell's centre,
    # outlined, and the lead, half its size, filled
    grid = Grid(1, 2, ("^", ">"), ("up", "right"))
    looks = Looks(tiles={"up": "tip", "right": "tip"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    shapes = _shapes(root, "tip")
    assert [e.get("class") for e in shapes] == ["tip up"] * 2 + ["tip right"] * 2
    assert [_points(e) for e in shapes] == [[(30, 30), (50, 50), (10, 50)], [(30, 30), (40, 40), (20, 40)],
                                            [(70, 30), (50, 50), (50, 10)], [(70, 30), (60, 40), (60, 20)]]
    assert [(e.get("fill"), e.get("stroke")) for e in shapes[:2]] == [("none", "#000000"), ("#000000", None)]
    assert render(grid, Solution({}, {}), looks) == "^ >"


@pytest.mark.parametrize("tile,look,shown", [("tile mark 'x'", "arrow", "'x'"), ("tile mark number", "tip", "numbers"),
                                             ("tile mark arrow number", "arrow", "clues")])
def test_an_arrow_look_draws_arrow_characters_only(tile, look, shown):
    spec = f"tile blank '.'\n{tile}\ndecide shaded: bool on all\ndraw mark as {look}\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(spec, "t.grid"))
    assert f"{look!r} draws the characters ^ v < > as directions; 'mark' has {shown}" in info.value.message
    assert str(info.value).startswith("t.grid:4:14: error:")


def test_dots_on_a_cell_a_border_and_a_corner_as_pzprjs_draws_them():
    # a 1x2 row: a dot on the first cell, one on the border between the cells, one on the top right corner;
    # pzprjs's No Three draws each as a black dot 0.16 of a cell in radius
    corners = (".", ".", "o", ".", ".", ".")
    grid = Grid(1, 2, ("o", "."), ("dot", "blank"), corner_chars=corners,
                corner_tiles=tuple("corner_dot" if ch == "o" else "none" for ch in corners),
                border_chars=("o",), border_tiles=("border_dot",))
    looks = Looks(tiles={"dot": "dot", "blank": "plain"}, borders={"border_dot": "dot"},
                  corners={"corner_dot": "dot", "none": "plain"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    dots = {cls: [(float(e.get("cx")), float(e.get("cy")), float(e.get("rx")), e.get("fill"))
                  for e in _shapes(root, cls)] for cls in ("dot", "border-dot", "corner-dot")}
    pad = 14  # the frame grows to hold a clue on the frame's corners: 0.3 of a cell and 2 pixels
    assert dots == {"dot": [(pad + 20, pad + 20, 6.4, "#000000")],
                    "border-dot": [(pad + 40, pad + 20, 6.4, "#202020")],
                    "corner-dot": [(pad + 80, pad, 6.4, "#202020")]}
    assert render(grid, Solution({}, {}), looks) == "+ + o\n o .\n+ + +"  # the text keeps the map's characters


def test_ring_and_cut_marks_as_the_kanji_pzprjs_writes():
    # Wagiri's marks: 輪 in 13 strokes, 切 in 4, in black, each inside the square 0.7 of its cell about its
    # centre (28 pixels of 40: from 6 to 34 past the cell's corner)
    grid = Grid(1, 2, ("o", "x"), ("ring", "cut"))
    looks = Looks(tiles={"ring": "ring_kanji", "cut": "cut_kanji"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    for look, strokes, left in (("ring_kanji", 13, 10), ("cut_kanji", 4, 50)):
        lines = _shapes(root, look)
        assert len(lines) == strokes and {(e.get("stroke"), e.get("class")) for e in lines} == {("#000000",
                                                                                                 f"kanji {look}")}
        points = [p for e in lines for p in _points(e)]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        assert left + 6 <= min(xs) and max(xs) <= left + 34 and 16 <= min(ys) and max(ys) <= 44
    assert min(x for e in _shapes(root, "ring_kanji") for x, _ in _points(e)) == 16  # 輪's first stroke
    assert render(grid, Solution({}, {}), looks) == "o x"


def test_arrows_given_as_numbers_and_answered_in_green():
    # Roma's way: a given 2 (pzprjs's down) drawn as a black arrow, the answer's 4 (right) as a green one;
    # the answer on the given's cell is not drawn over it, and a 0 draws nothing
    grid = Grid(1, 3, ("2", ".", "."), ("given", "blank", "blank"))
    looks = Looks(tiles={"given": "arrow", "blank": "plain"}, decisions={"arrow": "arrows"},
                  valued=frozenset({"arrow"}))
    solution = Solution({"arrow": {0: 2, 1: 4, 2: 0}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, solution, style, CELL).to_svg())
    arrows = _shapes(root, "arrow")
    assert [(e.get("class"), e.get("fill"), _points(e)[0]) for e in arrows] == [
        ("arrow down", "#000000", (30, 46)), ("arrow right arrow-4", ANSWER, (86, 30))]
    assert render(grid, solution, looks) == "v > ."


def test_arrows_draw_integers_only():
    spec = "tile blank '.'\ndecide kind: {a, b} on all\ndraw kind as arrows\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(spec, "t.grid"))
    assert "'arrows' draws integer values; 'kind' has value names (a, b)" in info.value.message


def test_a_goal_drawn_as_a_star():
    # Guide Arrow's goal: a black star of ten points, its top point 0.4 of the cell above the centre (which
    # stands 0.03 of the cell below the middle)
    grid = Grid(1, 2, ("G", "."), ("goal", "blank"))
    looks = Looks(tiles={"goal": "star", "blank": "plain"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({}, {}), style, CELL).to_svg())
    (star,) = _shapes(root, "star")
    points = _points(star)
    assert len(points) == 10 and star.get("fill") == "#000000"
    assert points[0] == (30, 30 + 1.2 - 16)
    assert render(grid, Solution({}, {}), looks) == "G ."
