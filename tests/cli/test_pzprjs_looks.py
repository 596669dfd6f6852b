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
