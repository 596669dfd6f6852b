"""Genres drawn from their specs' looks (`draw NAME as LOOK`, gridlang/language/looks.py): the SVG's
classed elements show what a player reads (room borders where rooms meet, one shaded mark per
shaded cell, circles and numbers the lines stop at, numbers readable on shaded cells), the
text shows the same, and structured clues and outside frames are drawn as pzprjs draws them."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from horse_data import REPO

from gridlang.core.grid import Grid
from gridlang.ir.solution import Solution
from gridlang.language.looks import Looks, letter
from gridlang.pictures import strokes
from gridlang.pictures.canvas import SVG_NS
from gridlang.pictures.draw import default_style, draw, picture
from gridlang.pictures.lookstyle import ANSWER, SHADE, looks_style
from gridlang.pictures.textdraw import render, tokens
from gridlang.solving.pipeline import solve

PUZZLES = REPO / "puzzles"
INSTANCES = PUZZLES / "instances"
CELL = 40
PAD = 10  # round(0.25 * CELL)


@pytest.fixture(scope="module")
def solved():
    """genre/instance -> its report, solved once for the module."""
    cache = {}

    def get(genre: str, name: str):
        if (genre, name) not in cache:
            cache[(genre, name)] = solve(PUZZLES / f"{genre}.grid", INSTANCES / genre / f"{name}.txt",
                                         backend="cpsat")
        return cache[(genre, name)]

    return get


def svg(report) -> ET.Element:
    return ET.fromstring(picture(report.model, report.solution, cell=CELL).to_svg())


def classes(root: ET.Element, cls: str) -> list[ET.Element]:
    want = set(cls.split())
    return [e for e in root.iter() if want <= set(e.get("class", "").split())]


def segments(path: ET.Element) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    pairs = re.findall(r"M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)", path.get("d"))
    return [((float(a), float(b)), (float(c), float(d))) for a, b, c, d in pairs]


def centre(i: int, cols: int, cell: int = CELL, pad: int = PAD) -> tuple[float, float]:
    r, c = divmod(i, cols)
    return pad + (c + 0.5) * cell, pad + (r + 0.5) * cell


def texts(root: ET.Element, cls: str = "clue") -> list[ET.Element]:
    return [e for e in classes(root, cls) if e.tag == f"{{{SVG_NS}}}text"]


# ---------------------------------------------------------------- lines stop at circles and numbers

def test_masyu_pearls_are_circles_and_the_loop_stops_at_their_edge(solved):
    report = solved("masyu", "pzprjs_6x6")
    grid = report.model.grid
    root = svg(report)
    whites = [i for i, ch in enumerate(grid.chars) if ch == "o"]
    blacks = [i for i, ch in enumerate(grid.chars) if ch == "*"]
    assert len(classes(root, "circle circled")) == len(whites) == 3
    assert {e.get("fill") for e in classes(root, "circle filled")} == {"#000000"} and len(blacks) == 2
    (line,) = classes(root, "line line")
    pairs = segments(line)
    assert len(pairs) == sum(1 for v in report.solution.decisions["line"].values() if v is True)
    ends = [p for pair in pairs for p in pair]
    for i in whites + blacks:  # the loop passes every pearl: two ends stop on its circle, none inside
        cx, cy = centre(i, grid.cols)
        near = [math.dist(p, (cx, cy)) for p in ends if math.dist(p, (cx, cy)) < CELL / 2]
        assert len(near) == 2 and all(abs(d - 0.4 * CELL) < 0.01 for d in near), (i, near)


def test_numberlink_lines_cross_no_number(solved):
    report = solved("numberlink", "cspuz_6x6")
    root = svg(report)
    numbers = texts(root)
    assert sorted(e.text for e in numbers) == sorted(ch for ch in report.model.grid.chars if ch != ".")
    (line,) = classes(root, "line line")
    assert not classes(root, "label")  # the helper decision `number` is hidden
    half = 0.3 * CELL  # a number's text stays within this of its centre
    for e in numbers:
        x, y = float(e.get("x")), float(e.get("y"))
        for (x1, y1), (x2, y2) in segments(line):
            crosses = (min(x1, x2) <= x + half and max(x1, x2) >= x - half
                       and min(y1, y2) <= y + half and max(y1, y2) >= y - half)
            assert not crosses, (e.text, x, y, (x1, y1, x2, y2))


def test_hashiwokakero_bridges_run_between_the_islands_circles(solved):
    report = solved("hashiwokakero", "pzprjs_5x5")
    grid = report.model.grid
    root = svg(report)
    islands = [i for i, ch in enumerate(grid.chars) if ch != "."]
    assert len(classes(root, "circle circled")) == len(islands) == 10
    (bridges,) = classes(root, "line bridge")
    pairs = segments(bridges)
    assert len(pairs) == sum(report.solution.decisions["bridge"].values()) == 30
    r = 0.4 * CELL
    for i in islands:
        cx, cy = centre(i, grid.cols)
        for p in (p for pair in pairs for p in pair):
            d = math.dist(p, (cx, cy))
            assert d > r - 0.01, "no bridge runs into an island's circle"
            if d < CELL / 2:
                assert abs(d - r) < 0.01  # it stops on the circle (two bridges on a chord of it)


# ---------------------------------------------------------------- shading, rooms, blocks

def test_nurikabe_one_shaded_mark_per_shaded_cell_and_none_on_a_number(solved):
    report = solved("nurikabe", "pzprjs_5x5")
    grid = report.model.grid
    root = svg(report)
    shaded = report.solution.true_cells("shaded")
    marks = classes(root, "mark shaded")
    assert len(marks) == len(shaded) == 14 and {m.get("fill") for m in marks} == {SHADE}
    assert {(float(m.get("x")), float(m.get("y"))) for m in marks} == {
        (PAD + (i % grid.cols) * CELL, PAD + (i // grid.cols) * CELL) for i in shaded}
    image = picture(report.model, report.solution, cell=CELL).to_image()
    for i in shaded:
        x, y = centre(i, grid.cols)
        assert "#%02x%02x%02x" % image.getpixel((int(x), int(y)))[:3] == SHADE


def test_heyawake_numbers_stay_readable_on_shaded_cells(solved):
    report = solved("heyawake", "cspuz_6x6")
    grid = report.model.grid
    root = svg(report)
    shaded = set(report.solution.true_cells("shaded"))
    inks = {}
    for e in texts(root):
        x, y = float(e.get("x")), float(e.get("y"))
        i = int((y - PAD) // CELL) * grid.cols + int((x - PAD) // CELL)
        inks[i] = e.get("fill")
    assert set(inks) == {i for i, ch in enumerate(grid.chars) if ch != "."}
    assert {inks[i] for i in inks if i in shaded} == {"#ffffff"}  # the top room's 2 stands on a shaded cell
    assert {inks[i] for i in inks if i not in shaded} == {"#000000"}


def _room_sides(grid: Grid) -> int:
    rooms, cols = grid.rooms, grid.cols
    return sum(1 for i in range(grid.size) for j in (i + 1, i + cols)
               if j < grid.size and (j == i + cols or j % cols) and rooms[i] != rooms[j])


def test_star_battle_rooms_have_thick_borders_where_they_meet(solved):
    report = solved("starbattle", "pzprjs_6x6")
    root = svg(report)
    (rooms,) = classes(root, "rooms")
    assert len(segments(rooms)) == _room_sides(report.model.grid) == 30
    assert float(rooms.get("stroke-width")) > 2 * float(classes(root, "grid")[0].get("stroke-width"))
    (chassis,) = classes(root, "chassis")
    assert segments(chassis) == [((10, 10), (250, 10)), ((250, 10), (250, 250)), ((10, 250), (250, 250)),
                                 ((10, 10), (10, 250))]
    assert len(classes(root, "mark star")) == 6


def test_lits_rooms_are_outlined_too(solved):
    report = solved("lits", "pzprjs_4x4")
    (rooms,) = classes(svg(report), "rooms")
    assert len(segments(rooms)) == _room_sides(report.model.grid)


def test_sudoku_boxes_are_outlined_and_answers_drawn_apart_from_the_givens(solved):
    report = solved("sudoku", "cspuz_9x9")
    root = svg(report)
    (blocks,) = classes(root, "blocks")
    assert len(segments(blocks)) == 2 * 9 + 2 * 9  # two box borders across the grid, each way
    givens = [ch for ch in report.model.grid.chars if ch != "."]
    assert len(texts(root)) == len(givens)
    answers = texts(root, "label")
    assert len(answers) == 81 - len(givens) and {e.get("fill") for e in answers} == {ANSWER}


def test_slitherlink_is_drawn_on_dots_without_a_frame(solved):
    report = solved("slitherlink", "pzprjs_5x5")
    root = svg(report)
    assert len([e for e in classes(root, "corner-dots")[0]]) == 36
    assert not classes(root, "chassis") and not classes(root, "grid")
    (line,) = classes(root, "line line")
    assert all(x1 == x2 or y1 == y2 for (x1, y1), (x2, y2) in segments(line))
    assert segments(line)[0][0] == (10, 10)  # along the grid: corners, not centres


def test_statue_park_circles_stay_visible_on_shaded_cells(solved):
    report = solved("statuepark", "pzprjs_7x7")
    root = svg(report)
    assert {e.get("fill") for e in classes(root, "circle filled")} == {"#000000"}
    assert {e.get("fill") for e in classes(root, "circle circled")} == {"#ffffff"}


# ---------------------------------------------------------------- text from the same looks

def test_text_draws_pearls_bridges_and_boxes(solved, capsys):
    masyu = solved("masyu", "pzprjs_6x6")
    from gridlang.language.looks import of_model

    text = render(masyu.model.grid, masyu.solution, of_model(masyu.model))
    assert text.splitlines()[0] == "┌───○─┐ ┌─┐" and "●" in text
    hashi = solved("hashiwokakero", "pzprjs_5x5")
    assert render(hashi.model.grid, hashi.solution, of_model(hashi.model)).splitlines()[:2] == ["4═══2 · ·", "║"]
    sudoku = solved("sudoku", "pzprjs_4x4")
    assert render(sudoku.model.grid, sudoku.solution, of_model(sudoku.model)).splitlines()[:5] == [
        "+---+---+---+---+", "| 2   1 | 4   3 |", "|       |       |", "| 4   3 | 1   2 |", "+-------+-------+"]


# ---------------------------------------------------------------- structured clues and frames

def _clue_picture(chars, tiles, looks: Looks, rows: int, cols: int, solution: Solution | None = None):
    grid = Grid(rows, cols, tuple(chars), tuple(tiles))
    style = looks_style(grid, looks).over(default_style(grid))
    canvas = draw(grid, solution, style, CELL, "", None, looks.lattices)
    return grid, ET.fromstring(canvas.to_svg())


def test_structured_clues_are_drawn_as_pzprjs_draws_them():
    looks = Looks(tiles={"arrow": "number", "list": "number", "sum": "split", "blank": "plain"})
    _, root = _clue_picture(["^2", "1,3,3", "12,7", "0,7", "."], ["arrow", "list", "sum", "sum", "blank"], looks,
                            1, 5)
    found = [(e.text, float(e.get("x")), float(e.get("y")), float(e.get("font-size"))) for e in texts(root)]
    x0 = PAD
    # the arrow's number left of the centre, its arrow head (a polygon) right of it
    two = [t for t in found if t[0] == "2"][0]
    assert two[1] < x0 + CELL / 2
    heads = [e for e in classes(root, "clue") if e.tag == f"{{{SVG_NS}}}polygon"]
    (head,) = heads
    xs = [float(p.split(",")[0]) for p in head.get("points").split()]
    assert min(xs) > x0 + CELL / 2
    # the list: three small numbers, two above the centre and one below
    listed = [t for t in found if x0 + CELL <= t[1] < x0 + 2 * CELL]
    assert [t[0] for t in listed] == ["1", "3", "3"] and all(t[3] < 0.62 * CELL for t in listed)
    assert listed[0][2] < PAD + CELL / 2 < listed[2][2]
    # the sums: a diagonal, the down sum below it on the left, the across sum above it on the right
    sums = [t for t in found if x0 + 2 * CELL <= t[1] < x0 + 3 * CELL]
    assert [t[0] for t in sums] == ["12", "7"]
    assert sums[0][1] < sums[1][1] and sums[0][2] > sums[1][2]
    across_only = [t[0] for t in found if t[1] >= x0 + 3 * CELL]
    assert across_only == ["7"]  # a 0 is not written
    assert len(classes(root, "tile tile-sum")) == 2 and {e.get("fill") for e in classes(root, "tile tile-sum")} == {
        "#c0c0c0"}


def test_an_outside_frame_has_no_boxes_and_the_border_runs_inside_it():
    # A 3x3 grid with clues outside on the top and the left (pzprjs excells), corner '+'.
    chars = ["+", "3", "1", "2", "2", ".", ".", ".", "1", ".", ".", ".", "3", ".", ".", "."]
    tiles = ["frame", "clue", "clue", "clue", "clue", "blank", "blank", "blank"] * 2
    tiles = [("frame" if i == 0 else "clue" if i < 4 or i % 4 == 0 else "blank") for i in range(16)]
    looks = Looks(tiles={"frame": "frame", "clue": "number", "blank": "plain"})
    grid, root = _clue_picture(chars, tiles, looks, 4, 4)
    assert looks.outside(grid) == frozenset({0, 1, 2, 3, 4, 8, 12})
    assert sorted(e.text for e in texts(root)) == ["1", "1", "2", "2", "3", "3"]
    (chassis,) = classes(root, "chassis")
    left, top = PAD + CELL, PAD + CELL
    assert segments(chassis)[0] == ((left, top), (PAD + 4 * CELL, top))
    for (x1, y1), (x2, y2) in segments(classes(root, "grid")[0]):
        assert min(x1, x2) >= left - 1 and min(y1, y2) >= top - 1, "no grid line in the frame"
    text = tokens(grid, Solution({}, {}), looks)
    assert text[:5] == [" ", "3", "1", "2", "2"]


def test_a_frame_above_and_on_the_left_leaves_the_last_row_and_column_in_the_grid():
    # Doppelblock's map: clues above and on the left; the last row has no clue (its first cell is a
    # frame cell), and neither has the last column, yet both are the grid's.
    chars = ["+", "1", "+", "+", "2", ".", ".", ".", "+", ".", ".", "."]
    tiles = ["frame" if ch == "+" else "blank" if ch == "." else "clue" for ch in chars]
    looks = Looks(tiles={"frame": "frame", "clue": "number", "blank": "plain"})
    grid = Grid(3, 4, tuple(chars), tuple(tiles))
    assert looks.outside(grid) == frozenset({0, 1, 2, 3, 4, 8})


def test_clues_stacked_two_deep_stand_free_and_a_grid_row_of_givens_stays_in_the_grid():
    # A Nonogram's map: two rows of clues above a 3x3 grid and two columns on the left, the corner
    # block of frame cells; every clue row and column stands free, the grid's rows do not.
    chars = ["+", "+", "1", "+", "+",
             "+", "+", "2", "3", "1",
             "+", "3", ".", ".", ".",
             "1", "1", ".", ".", ".",
             "+", "+", ".", ".", "."]
    tiles = ["frame" if ch == "+" else "blank" if ch == "." else "clue" for ch in chars]
    looks = Looks(tiles={"frame": "frame", "clue": "number", "blank": "plain"})
    grid = Grid(5, 5, tuple(chars), tuple(tiles))
    assert looks.outside(grid) == frozenset(range(10)) | {10, 11, 15, 16, 20, 21}
    # Skyscrapers' map with a row of given digits: framed on one line only, so that row stays inside.
    chars = ["+", "1", "+", "+", "2", "1", "3", "+", "+", ".", ".", "+", "+", "+", "+", "+"]
    tiles = ["frame" if ch == "+" else "blank" if ch == "." else "clue" for ch in chars]
    grid = Grid(4, 4, tuple(chars), tuple(tiles))
    assert looks.outside(grid) == frozenset({0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15})


def test_a_frame_of_split_clues_keeps_its_boxes_and_no_digit_stands_outside():
    # Kakuro's map: the clue row and column are boxed split cells; the corner is a frame cell.
    chars = ["+", "4,0", "3,0", "0,3", ".", ".", "0,7", ".", "."]
    tiles = ["frame" if ch == "+" else "sum" if "," in ch else "cell" for ch in chars]
    looks = Looks(tiles={"frame": "frame", "sum": "split", "cell": "plain"}, decisions={"digit": "number"},
                  valued=frozenset({"digit"}))
    digits = Solution({"digit": {0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 2, 6: 0, 7: 3, 8: 4}}, {})
    grid = Grid(3, 3, tuple(chars), tuple(tiles))
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, digits, style, CELL, "", set(), {}).to_svg())
    assert sorted(e.text for e in classes(root, "label")) == ["1", "2", "3", "4"]
    (chassis,) = classes(root, "chassis")
    assert segments(chassis)[0] == ((PAD, PAD), (PAD + 3 * CELL, PAD))  # around the boxed frame too
    assert tokens(grid, digits, looks)[:4] == [" ", "4\\", "3\\", "\\3"]


def test_letter_clues_are_drawn_as_letters():
    # pzprjs writes Dominion's letters as numbers (1 for A); they are drawn, and printed, as letters.
    grid = Grid(1, 4, ("2", "?", "27", "."), ("clue", "clue", "clue", "blank"))
    looks = Looks(tiles={"clue": "letters", "blank": "plain"}, decisions={"shaded": "shade"})
    style = looks_style(grid, looks).over(default_style(grid))
    shaded = Solution({"shaded": {3: True}}, {})
    root = ET.fromstring(draw(grid, shaded, style, CELL, "", {"shaded"}, {}).to_svg())
    assert [e.text for e in classes(root, "clue")] == ["B", "?", "AA"]
    assert tokens(grid, shaded, looks) == ["B", "?", "AA", "#"]


def test_a_negative_digit_and_a_split_cell_without_sums_draw_nothing():
    # pzprjs's -1 is a cell left without a number (Sukoro, View); a Kakuro clue cell without sums is `+`.
    chars = ["+", "0,3", ".", "."]
    tiles = ["block", "sum", "cell", "cell"]
    looks = Looks(tiles={"block": "split", "sum": "split", "cell": "plain"}, decisions={"digit": "number"},
                  valued=frozenset({"digit"}))
    digits = Solution({"digit": {0: 0, 1: 0, 2: -1, 3: 0}}, {})
    grid = Grid(2, 2, tuple(chars), tuple(tiles))
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, digits, style, CELL, "", set(), {}).to_svg())
    assert sorted(e.text for e in classes(root, "label")) == ["0"]
    assert sorted(e.text for e in classes(root, "clue") if e.text) == ["3"]
    assert tokens(grid, digits, looks) == ["\\", "\\3", ".", "0"]


def test_cages_are_dashed_inside_their_rooms_and_a_corner_sum_leaves_the_cell_to_its_digit():
    # A Killer Sudoku's picture: `draw rooms as cages`, the cage sums `draw total as corner`.
    chars = ["3", ".", "4", "."]
    tiles = ["total", "blank", "total", "blank"]
    looks = Looks(tiles={"total": "corner", "blank": "plain"}, decisions={"digit": "number"},
                  valued=frozenset({"digit"}), rooms="cages")
    grid = Grid(2, 2, tuple(chars), tuple(tiles), rooms=(0, 0, 1, 1))
    digits = Solution({"digit": {0: 1, 1: 2, 2: 3, 3: 1}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, digits, style, CELL, "", set(), {}).to_svg())
    assert not classes(root, "rooms") and classes(root, "cages")
    assert sorted(e.text for e in classes(root, "corner")) == ["3", "4"]
    assert sorted(e.text for e in classes(root, "label")) == ["1", "1", "2", "3"]
    assert tokens(grid, digits, looks) == ["1", "2", "3", "1"]


def test_a_letters_tile_writes_its_numbers_as_letters_and_an_answer_leaves_it_alone():
    # Letter clues written as numbers (1 = A): `draw clue as letters`; the answer's letters stay off them.
    chars = ["3", ".", "1", "?"]
    tiles = ["clue", "blank", "clue", "clue"]
    looks = Looks(tiles={"clue": "letters", "blank": "plain"}, decisions={"letter": "letters"},
                  valued=frozenset({"letter"}))
    grid = Grid(2, 2, tuple(chars), tuple(tiles))
    letters = Solution({"letter": {0: 3, 1: 2, 2: 1, 3: 2}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, letters, style, CELL, "", set(), {}).to_svg())
    assert sorted(e.text for e in classes(root, "clue")) == ["?", "A", "C"]
    assert [e.text for e in classes(root, "label")] == ["B"]
    assert tokens(grid, letters, looks) == ["C", "B", "A", "?"]


def test_cage_lines_meet_at_inner_corners():
    # An L-shaped cage of three cells and one cell apart: the L's outline is six lines, inset by 4
    # pixels; the lines of its inner corner meet at one point.
    lines = strokes.cage_lines(2, 2, lambda i: (0, 0, 0, 1)[i], 0, 40, 4)
    ends = [p for line in lines for p in line]
    cage = [line for line in lines if not all(40 < x and 40 < y for x, y in line)]
    assert len(cage) == 8  # the L's six sides, two of them in two cells each
    assert ends.count((36.0, 36.0)) == 2  # the inner corner: (0, 1)'s bottom line meets (1, 0)'s right line
    assert strokes.dashes([((0, 0), (10, 0))], 4, 2) == [((0, 0), (4, 0)), ((6, 0), (10, 0))]


def test_dashes_leave_no_sliver_where_a_segment_ends_on_a_gap():
    # 32 pixels in dashes and gaps of 3.2 (Mejilink's dotted border on a cell of 32) are five dashes: the
    # steps add up to a hair under 32 and left a sixth dash of 3.6e-15 pixels; the cages' 16-pixel side
    # in dashes of 1.92 and gaps of 1.28 likewise five. A real short last dash stays (12 to 13).
    assert len(strokes.dashes([((0, 0), (32, 0))], 3.2, 3.2)) == 5
    assert len(strokes.dashes([((0, 0), (0, 16))], 1.92, 1.28)) == 5
    assert strokes.dashes([((0, 0), (13, 0))], 4, 2)[-1] == ((12, 0), (13, 0))


def test_a_tree_tile_is_drawn_as_a_tree_beside_the_tents():
    # Tents' trees (`draw tree as tree`): a crown and a trunk per tree, its map character in the text.
    grid = Grid(1, 3, ("T", ".", "T"), ("tree", "blank", "tree"))
    looks = Looks(tiles={"tree": "tree", "blank": "plain"}, decisions={"tent": "tent"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({"tent": {1: True}}, {}), style, CELL, booleans={"tent"}).to_svg())
    assert len(classes(root, "tree")) == 4  # two trees, each a crown and a trunk
    assert len(classes(root, "mark tent")) == 2  # the tent and its door
    assert tokens(grid, Solution({"tent": {1: True}}, {}), looks) == ["T", "^", "T"]


def test_water_is_shading_in_pzprjs_blue():
    # Aquarium's water (`draw shaded as blue`): the shaded cell filled #0096ff, its number in white.
    grid = Grid(1, 2, ("2", "."), ("clue", "blank"))
    looks = Looks(tiles={"clue": "number", "blank": "plain"}, decisions={"shaded": "blue"})
    water = Solution({"shaded": {0: True, 1: True}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, water, style, CELL, booleans={"shaded"}).to_svg())
    fills = {e.get("fill") for e in classes(root, "mark shaded")}
    assert fills == {"#0096ff"}
    assert {e.get("fill") for e in classes(root, "clue") if e.text == "2"} == {"#ffffff"}
    assert tokens(grid, water, looks) == ["#2", "#"]


def test_answer_looks_lamps_stones_tents_letters_and_areas():
    grid = Grid(2, 3, (".", "#", ".", ".", ".", "."), ("blank", "wall", "blank", "blank", "blank", "blank"))
    looks = Looks(tiles={"blank": "plain", "wall": "block"}, decisions={"light": "bulb"})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, Solution({"light": {0: True}}, {}), style, CELL).to_svg())
    lit = classes(root, "lit light")[0]
    assert len(lit) == 2  # the lamp's cell and the one below; the black cell stops it to the right
    assert len(classes(root, "mark light")) == 1
    looks = Looks(tiles={"blank": "plain", "wall": "block"},
                  decisions={"stone": "stones", "tent": "tent", "n": "letters", "part": "areas"},
                  valued=frozenset({"n", "part"}))
    solution = Solution({"stone": {0: True}, "tent": {2: True}, "n": {3: 1, 4: 2, 5: 0},
                         "part": {0: 1, 2: 1, 3: 1, 4: 2, 5: 2}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, solution, style, CELL, booleans={"stone", "tent"}).to_svg())
    assert len(classes(root, "mark stone")) == 1 and len(classes(root, "white-stone stone")) == 4
    assert len(classes(root, "mark tent")) == 2  # the tent and its door
    assert sorted(e.text for e in classes(root, "label")) == ["A", "B"]
    (areas,) = classes(root, "areas part")
    assert len(segments(areas)) == 2  # between the values 1 and 2: (1, 0)-(1, 1) and (0, 2)-(1, 2)
    assert render(grid, solution, looks).splitlines() == [
        "+---+---+---+", "| ● | # | ^ |", "|   +---+---+", "| A | B   ○ |", "+---+---+---+"]
    assert (letter(1), letter(26), letter(27), letter(0)) == ("A", "Z", "AA", "")


def test_blocks_look_writes_the_digits_and_outlines_the_blocks():
    """``blocks``: a value decision's digits in the answer's colour, and thick borders between different
    values (pzprjs's Fillomino), in the picture and in the text."""
    grid = Grid(2, 3, (".", "2", ".", ".", ".", "."), ("blank", "given", "blank", "blank", "blank", "blank"))
    looks = Looks(tiles={"blank": "plain", "given": "number"}, decisions={"digit": "blocks"},
                  valued=frozenset({"digit"}))
    solution = Solution({"digit": {0: 2, 1: 2, 2: 3, 3: 1, 4: 3, 5: 3}}, {})
    style = looks_style(grid, looks).over(default_style(grid))
    root = ET.fromstring(draw(grid, solution, style, CELL).to_svg())
    assert sorted(e.text for e in classes(root, "label")) == ["1", "2", "3", "3", "3"]  # not over the given 2
    (blocks,) = classes(root, "areas digit")
    assert len(segments(blocks)) == 4  # 2|3 and 2/1 and 2/3 on the top row's bottom, 1|3
    assert render(grid, solution, looks).splitlines() == [
        "+---+---+---+", "| 2   2 | 3 |", "+---+---+   |", "| 1 | 3   3 |", "+---+---+---+"]
