"""Pictures of answers: the SVG is valid and shows every wall, mark and path; the PNG
shows them at their pixels; plug-ins style them and unknown puzzles get defaults."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from horse_data import REPO
from PIL import Image
from snake_data import INSTANCES

from gridlang.cli import main
from gridlang.families import horse_draw
from gridlang.families.snake_eggs import EGG_TINTS, SNAKE_GREEN
from gridlang.pictures.canvas import SVG_NS, Canvas
from gridlang.pictures.draw import default_style, draw, hashed_colour, picture, write_picture
from gridlang.plugins import DEFAULT
from gridlang.solving.pipeline import solve

HORSE = REPO / "puzzles" / "horse.grid"
SNAKE = REPO / "puzzles" / "snake_eggs.grid"
DAILY_07 = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
SIX = INSTANCES / "jandhyala_ch32_6x6.txt"
NS = {"svg": SVG_NS}


@pytest.fixture(scope="module")
def daily():
    report = solve(HORSE, DAILY_07)
    assert report.score == 66
    return report


@pytest.fixture(scope="module")
def six():
    return solve(SNAKE, SIX)


def classes(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class attribute holds every word of ``cls``."""
    want = set(cls.split())
    return [e for e in root.iter() if want <= set(e.get("class", "").split())]


def centre(image: Image.Image, cell: int, pad: int, r: int, c: int) -> tuple[int, int, int]:
    return image.getpixel((pad + c * cell + cell // 2, pad + r * cell + cell // 2))[:3]


# ---------------------------------------------------------------- enclose.horse

def test_horse_svg_is_svg_with_one_element_per_tile_wall_and_glyph(daily):
    root = ET.fromstring(picture(daily.model, daily.solution, cell=20).to_svg())
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert (root.get("version"), root.get("width"), root.get("height"), root.get("viewBox")) == (
        "1.1", "250", "290", "0 0 250 290")  # 12 x 14 cells of 20 px and a frame of 5 px
    assert root.find("svg:title", NS).text == "enclose.horse: daily-2026-01-07.txt"
    assert len(classes(root, "tile")) == 168
    assert len(classes(root, "tile tile-water")) == 53
    assert len(classes(root, "mark wall")) == 12
    assert len(classes(root, "glyph glyph-cherry")) == 10
    assert len(classes(root, "glyph glyph-horse")) == 1
    pen = classes(root, "region region-pen")
    assert len(pen) == 1 and pen[0].get("opacity") == "0.3"
    assert len(pen[0]) == len(daily.solution.regions["pen"]) == 51  # 45 grass, 5 cherries, the horse: 66 points
    outline = classes(root, "outline region-pen")
    assert len(outline) == 1 and outline[0].tag == f"{{{SVG_NS}}}path"


def test_horse_png_has_its_size_and_walls_water_and_grass_in_the_games_colours(daily, tmp_path):
    out = tmp_path / "daily.png"
    assert write_picture(picture(daily.model, daily.solution, cell=20), out) == "png"
    image = Image.open(out)
    assert image.size == (250, 290) and image.mode == "RGBA"
    cols = daily.model.grid.cols
    walls = daily.verdict.details["walls"]
    assert len(walls) == 12
    for r, c in walls:
        assert centre(image, 20, 5, r, c) == horse_draw.WALL
    pen = daily.solution.regions["pen"]
    chars = daily.model.grid.chars
    water = [divmod(i, cols) for i, ch in enumerate(chars) if ch == "~"]
    assert {centre(image, 20, 5, r, c) for r, c in water} == {horse_draw.WATER}
    outside = [divmod(i, cols) for i, ch in enumerate(chars)
               if ch == "." and i not in pen and list(divmod(i, cols)) not in walls]
    assert {image.getpixel((5 + c * 20 + 4, 5 + r * 20 + 4))[:3] for r, c in outside} == {horse_draw.GRASS}
    shaded = {image.getpixel((5 + c * 20 + 4, 5 + r * 20 + 4))[:3]
              for r, c in (divmod(i, cols) for i in pen if chars[i] == ".")}
    assert len(shaded) == 1
    (tone,) = shaded
    assert all(min(g, p) <= t <= max(g, p) for t, g, p in zip(tone, horse_draw.GRASS, horse_draw.PEN))
    assert tone != horse_draw.GRASS


def test_portals_take_their_pairs_colours():
    assert horse_draw.portal_colours("0")[0] == (106, 185, 229)
    assert horse_draw.portal_colours("2")[0] == (147, 79, 226)
    assert len({horse_draw.portal_colours(ch)[0] for ch in "0123456789abcdef"}) == 16


# ---------------------------------------------------------------- Snake Eggs

def test_snake_eggs_svg_draws_the_snake_as_one_path_and_labels_every_plain_egg_cell(six):
    root = ET.fromstring(picture(six.model, six.solution, cell=30).to_svg())
    snake = six.verdict.details["snake"]
    assert len(snake) == 21
    (path,) = classes(root, "path kind-snake")
    assert path.get("stroke") == "#2e7d32" and path.get("stroke-width") == "9"
    assert len(re.findall("M", path.get("d"))) == 20  # one segment per step along the snake
    labels = classes(root, "label")
    # the 15 egg cells less the three clues, which show their own digit
    assert sorted(e.text for e in labels) == ["2", "3", "3", "3", "4", "4", "4", "4", "5", "5", "5", "5"]
    assert len(classes(root, "outline kind")) == 1
    assert len(classes(root, "glyph glyph-ring")) == 2


def test_snake_eggs_png_shows_the_snake_green_and_each_egg_in_its_tint(six):
    image = picture(six.model, six.solution, cell=30).to_image()
    assert image.size == (6 * 30 + 16, 6 * 30 + 16)  # a frame of round(0.25 * 30) = 8 px
    for r, c in six.verdict.details["snake"]:
        assert centre(image, 30, 8, r, c) == SNAKE_GREEN
    sizes = sorted(six.verdict.details["eggs"])
    assert sizes == [1, 2, 3, 4, 5]
    kind = six.solution.decisions["kind"]
    for i, v in kind.items():
        if v != "snake":
            r, c = divmod(i, 6)
            corner = image.getpixel((8 + c * 30 + 5, 8 + r * 30 + 5))[:3]
            tint = EGG_TINTS[sizes.index(v)]
            assert "#%02x%02x%02x" % corner == tint


# ---------------------------------------------------------------- defaults

def test_a_puzzle_without_plugin_or_looks_gets_hashed_colours_blocks_and_a_shaded_region(tmp_path):
    """No plug-in and no `draw` statement: tiles and decisions of no standard look take colours
    hashed from their names; the tile of empty cells ('.') is white, as every genre's."""
    spec = tmp_path / "fence.grid"
    spec.write_text(HORSE.read_text().replace('puzzle "enclose.horse"', 'puzzle "Fence Test"'))
    report = solve(spec, DAILY_07)
    assert DEFAULT.style(report.model.grid) is None and report.verdict is None
    canvas = picture(report.model, report.solution, cell=20)
    root = ET.fromstring(canvas.to_svg())
    marks = classes(root, "mark wall")
    assert len(marks) == 12 and {m.get("fill") for m in marks} == {hashed_colour("wall", 0.3, 0.6)} == {"#7a1f4b"}
    grass = classes(root, "tile tile-grass")
    assert {t.get("fill") for t in grass} == {"#ffffff"}
    cherries = classes(root, "tile tile-cherry")
    assert {t.get("fill") for t in cherries} == {hashed_colour("cherry", 0.88, 0.35)}
    assert len(classes(root, "glyph glyph-char")) == 11  # the cherries and the horse; grass is the commonest, water impassable
    assert len(classes(root, "region region-pen")) == 1
    assert canvas.to_svg() == picture(report.model, report.solution, cell=20).to_svg()  # the same, run after run


def test_hashed_colours_are_fixed_by_the_name():
    assert hashed_colour("grass") == "#c7b3e6"
    assert hashed_colour("pen", 0.6, 0.7) == "#c9e052"


def test_enumeration_names_are_tinted_and_numbers_labelled(six):
    grid = six.model.grid
    root = ET.fromstring(draw(grid, six.solution, default_style(grid), cell=20).to_svg())
    assert len(classes(root, "tint kind-snake")) == 1
    assert len(classes(root, "label kind-4")) == 4
    assert not classes(root, "label kind-snake")


def test_canvas_writes_groups_opacity_and_text():
    canvas = Canvas(40, 20, "#ffffff", "t")
    with canvas.group("a", 0.5):
        canvas.rect(0, 0, 10, 10, fill="#ff0000", cls="r")
    canvas.text(30, 10, "7", 12, "#000000", cls="x")
    root = ET.fromstring(canvas.to_svg())
    (g,) = classes(root, "a")
    assert g.get("opacity") == "0.5" and g[0].get("fill") == "#ff0000"
    (t,) = classes(root, "x")
    assert t.text == "7" and t.get("text-anchor") == "middle"
    image = canvas.to_image()
    assert image.getpixel((5, 5)) == (255, 127, 127, 255)  # red at alpha 128/255 on white


def test_a_cell_under_four_pixels_and_an_unknown_suffix_are_refused(daily, tmp_path):
    with pytest.raises(ValueError, match="too small"):
        draw(daily.model.grid, None, None, cell=3)
    with pytest.raises(ValueError, match="name it .svg or .png"):
        write_picture(Canvas(4, 4), tmp_path / "x.gif")


# ---------------------------------------------------------------- the command line

def test_solve_writes_svg_and_png_after_the_answer_and_names_them_on_stderr(tmp_path, capsys):
    svg, png = tmp_path / "a.svg", tmp_path / "a.png"
    assert main(["solve", str(HORSE), "--map", str(DAILY_07), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["solve", str(HORSE), "--map", str(DAILY_07), "--json", "--svg", str(svg), "--png", str(png),
                 "--cell", "16"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["verified_score"] == plain["verified_score"] == 66
    assert captured.err.splitlines() == [f"wrote {svg}", f"wrote {png}"]
    assert Image.open(png).size == (12 * 16 + 8, 14 * 16 + 8)
    assert len(classes(ET.parse(svg).getroot(), "mark wall")) == 12


def test_a_picture_that_cannot_be_written_is_reported_after_the_answer(tmp_path, capsys):
    svg, png = tmp_path / "a.svg", tmp_path / "no such folder" / "a.png"
    assert main(["solve", str(HORSE), "--map", str(DAILY_07), "--svg", str(svg), "--png", str(png)]) == 1
    captured = capsys.readouterr()
    assert "score 66 (verified)" in captured.out  # a long solve's answer is not lost to a bad file name
    assert captured.err.splitlines() == [f"wrote {svg}", f"error: {png}: No such file or directory"]
    assert svg.exists() and not png.exists()


def test_decode_draws_the_external_solvers_answer(tmp_path, capsys):
    import highspy

    mps = tmp_path / "daily.mps"
    assert main(["export", str(HORSE), "--map", str(DAILY_07), "--format", "mps", "-o", str(mps)]) == 0
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(mps))
    h.run()
    h.writeSolution(str(tmp_path / "daily.sol"), 1)
    capsys.readouterr()
    svg = tmp_path / "d.svg"
    assert main(["decode", str(HORSE), "--map", str(DAILY_07), "--solution", str(tmp_path / "daily.sol"),
                 "--svg", str(svg)]) == 0
    assert capsys.readouterr().err == f"wrote {svg}\n"
    assert len(classes(ET.parse(svg).getroot(), "mark wall")) == 12


def test_a_cell_size_below_four_is_an_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["solve", str(HORSE), "--map", str(DAILY_07), "--png", "x.png", "--cell", "3"])
    assert e.value.code == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "gridlang solve: error: argument --cell: a cell must be 4 pixels or more, not 3")


# "wall-clock" is a measure of time, not the puzzle's wall; "walls" is a look (thick borders on edges).
PUZZLE_WORDS = re.compile(r"horse|snake|egg|wall(?!-clock|s\b)|portal|water|grass", re.IGNORECASE)


@pytest.mark.parametrize("module", ["pictures/draw.py", "pictures/canvas.py", "formats/screens/picture.py",
                                    "formats/screens/lattice.py", "formats/screens/imaging.py", "language/looks.py",
                                    "pictures/lookstyle.py", "pictures/glyphs.py", "pictures/strokes.py",
                                    "pictures/textdraw.py"])
def test_the_drawing_and_reading_layers_name_no_puzzle(module):
    text = (REPO / "gridlang" / module).read_text(encoding="utf-8")
    found = [f"{module}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}" for m in PUZZLE_WORDS.finditer(text)]
    assert found == []
