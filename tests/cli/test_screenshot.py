"""Maps read off pictures: the game's screenshots give their true maps exactly, and so do
copies of them zoomed from 0.5x to 3x, framed by a page or a browser, compressed as JPEG
down to quality 60 or cropped; a calibration learned from three screenshots reads the
fourth or names a cell it cannot read; and what cannot be read says why, by row and column."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from horse_data import HORSE_DATA, REPO
from PIL import Image
from screens import ALTERATIONS, SCREENS, SHOTS, altered, shot, true_map

from gridlang.cli import main
from gridlang.core.errors import ImageError
from gridlang.families.horse import TILE_NAMES
from gridlang.formats.maps import build_grid, read_map
from gridlang.formats.screens.imaging import calibrate, checked, read_cells, read_picture
from gridlang.formats.screens.lattice import find_lattice
from gridlang.formats.screens.picture import open_picture
from gridlang.language.checker import check
from gridlang.language.parser import parse_file
from gridlang.pictures.draw import default_style, draw
from gridlang.plugins import DEFAULT, find_plugin

HORSE = REPO / "puzzles" / "horse.grid"
PLUGIN = find_plugin("enclose.horse")
needs_screens = pytest.mark.skipif(SCREENS is None, reason="../shared/data/screens is not here")

# rows, columns, pitch (pixels) of each screenshot's grid, measured on its grid lines
LATTICES = {
    "example": (21, 21, 50.1),
    "portal_calibration": (8, 12, 85.4),
    "2026.01.22": (17, 13, 63.9),
    "2026.01.23": (12, 11, 87.5),
}
# the daily each screenshot shows, with its budget and optimum (tests/data/horse/manifest.json)
DAILIES = {"2026.01.22": ("daily-2026-01-22.txt", 9, 79), "2026.01.23": ("daily-2026-01-23.txt", 11, 25),
           "example": ("daily-2026-01-09.txt", 13, 103)}
ORDER = ("portal_calibration", "2026.01.22", "2026.01.23", "example")  # the shipped calibration's sources


def canonical(rows: list[str]) -> list[str]:
    """Rows with portal characters renamed in order of first appearance (pairs kept)."""
    names: dict[str, str] = {}
    out = []
    for row in rows:
        line = []
        for ch in row:
            if ch in TILE_NAMES or ch == "~" or ch == ".":
                line.append(ch)
                continue
            names.setdefault(ch, "0123456789abcdefghijklmnopqrstuvwxyz"[len(names)])
            line.append(names[ch])
        out.append("".join(line))
    return out


@lru_cache(maxsize=None)
def learn(stems: tuple[str, ...]) -> object:
    """A calibration learned from the screenshots ``stems`` with their true maps."""
    return calibrate([(SCREENS / f"{s}.png", true_map(s)) for s in stems],
                     lambda ch: TILE_NAMES.get(ch, "portal"), lambda ch: ch not in TILE_NAMES)


# ---------------------------------------------------------------- the game's screenshots

@needs_screens
def test_every_screenshot_is_known():
    assert set(SHOTS) == set(LATTICES)


@needs_screens
@pytest.mark.parametrize("stem", sorted(LATTICES))
def test_screenshot_grid_is_found(stem):
    lattice = find_lattice(open_picture(SCREENS / f"{stem}.png").rgb)
    rows, cols, pitch = LATTICES[stem]
    assert (lattice.rows, lattice.cols) == (rows, cols)
    assert abs(lattice.x.pitch - pitch) < 0.1 and abs(lattice.y.pitch - pitch) < 0.1


@needs_screens
@pytest.mark.parametrize("stem", sorted(LATTICES))
def test_screenshot_imports_to_its_true_map(stem):
    assert PLUGIN.read_image(str(SCREENS / f"{stem}.png")) == true_map(stem)  # portals keep the game's characters


@needs_screens
def test_import_image_prints_the_map(capsys):
    assert main(["import-image", str(SCREENS / "2026.01.23.png")]) == 0
    assert capsys.readouterr().out == "\n".join(true_map("2026.01.23")) + "\n"


@needs_screens
@pytest.mark.parametrize("stem", sorted(DAILIES))
def test_solve_from_a_screenshot_reaches_the_dailys_optimum(stem, capsys):
    daily, budget, optimum = DAILIES[stem]
    assert canonical(read_map(HORSE_DATA / daily).rows) == canonical(true_map(stem))
    assert main(["solve", str(HORSE), "--image", str(SCREENS / f"{stem}.png"), "--budget", str(budget),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["verified_score"], data["status"], data["map"]) == (optimum, "OPTIMAL",
                                                                      str(SCREENS / f"{stem}.png"))


@needs_screens
def test_calibration_rebuilds_byte_for_byte(tmp_path, capsys):
    out = tmp_path / "colours.json"
    args = []
    for stem in ORDER:
        args += [str(SCREENS / f"{stem}.png"), str(SCREENS / f"{stem}_map.txt")]
    assert main(["calibrate-image", *args, "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 16 tiles learned from 4 pictures\n"
    shipped = resources.files("gridlang.data").joinpath("horse_colours.json").read_text()
    assert out.read_text() == shipped
    data = json.loads(shipped)
    assert [k["char"] for k in data["classes"]] == ["~"] + list("0123456789") + [".", "H", "G", "S", "C"]
    assert data["sources"] == [f"{s}.png" for s in ORDER]
    assert main(["import-image", str(SCREENS / "2026.01.22.png"), "--calibration", str(out)]) == 0
    assert capsys.readouterr().out.split() == true_map("2026.01.22")


@needs_screens
def test_a_map_of_the_wrong_size_is_refused_by_calibration(tmp_path, capsys):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("~~~\n~H~\n~~~\n")
    assert main(["calibrate-image", str(SCREENS / "example.png"), str(wrong), "-o", str(tmp_path / "c.json")]) == 1
    assert capsys.readouterr().err == (f"{SCREENS / 'example.png'}: error: the picture shows a grid of 21 rows and "
                                       f"21 columns, but its map has 3 rows and 3 columns\n")


# ---------------------------------------------------------------- calibrated on three, read on the fourth

@needs_screens
@pytest.mark.parametrize("held", sorted(LATTICES))
def test_a_calibration_from_three_screenshots_reads_the_fourth(held):
    """Every cell whose tile the other three show is read, surely and right; every cell of a
    tile they lack is unsure (a portal of an unseen colour may pass for another colour: the
    pairs then no longer add up); the map is printed only when it is the true one."""
    others = tuple(s for s in ORDER if s != held)
    cal = learn(others)
    known = set("".join("".join(true_map(s)) for s in others))
    truth = true_map(held)
    reading = read_cells(SCREENS / f"{held}.png", cal)
    for r, row in enumerate(truth):
        for c, ch in enumerate(row):
            if ch in known:
                assert (reading.chars[r][c], bool(reading.sure[r, c])) == (ch, True), (r, c)
            elif ch in TILE_NAMES:
                assert not reading.sure[r, c], (r, c)
    try:
        rows = checked(reading, cal, SCREENS / f"{held}.png")
    except ImageError as e:
        assert held != "example"  # its tiles are all in the other three: it must be read
        assert not set("".join(truth)) <= known
        named = [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"row (\d+), column (\d+)", e.message)]
        assert named and any(truth[r][c] not in known for r, c in named), e.message
    else:
        assert rows == truth


# ---------------------------------------------------------------- altered copies

# one screenshot per alteration runs by default (3x, the slowest to make, under -m slow); every pair under -m slow
QUICK = [(name, ORDER[k % len(ORDER)]) for k, name in enumerate(ALTERATIONS) if name != "scale-3"]


@needs_screens
@pytest.mark.parametrize("name, stem", QUICK)
def test_an_altered_screenshot_reads_to_its_true_map(name, stem, tmp_path):
    assert PLUGIN.read_image(str(altered(stem, name, tmp_path))) == true_map(stem)


@pytest.mark.slow
@needs_screens
@pytest.mark.parametrize("name, stem", [(n, s) for n in ALTERATIONS for s in ORDER if (n, s) not in QUICK])
def test_every_altered_screenshot_reads_to_its_true_map(name, stem, tmp_path):
    assert PLUGIN.read_image(str(altered(stem, name, tmp_path))) == true_map(stem)


@pytest.mark.slow
@needs_screens
@pytest.mark.parametrize("name", sorted(ALTERATIONS))
def test_altered_copies_of_the_fourth_read_with_a_calibration_from_three(name, tmp_path):
    cal = learn(tuple(s for s in ORDER if s != "example"))
    assert read_picture(altered("example", name, tmp_path), cal) == true_map("example")


# ---------------------------------------------------------------- what cannot be read

@needs_screens
def test_an_unknown_tile_names_its_cell(tmp_path, capsys):
    image = np.array(shot("2026.01.23").convert("RGB"))
    rows, cols, pitch = LATTICES["2026.01.23"]
    lattice = find_lattice(image)
    x0, y0 = int(lattice.x.edge(4)) + 10, int(lattice.y.edge(5)) + 10
    image[y0: y0 + int(pitch) - 20, x0: x0 + int(pitch) - 20] = (255, 0, 255)
    path = tmp_path / "magenta.png"
    Image.fromarray(image).save(path)
    assert true_map("2026.01.23")[5][4] == "."
    assert main(["import-image", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: error: the tile at row 6, column 5 is unsure: its nearest tile, ")
    assert err.endswith("add a picture of it with gridlang calibrate-image\n") and err.count("\n") == 1


@needs_screens
def test_a_portal_without_twin_is_refused(tmp_path):
    image = np.array(shot("portal_calibration").convert("RGB"))
    assert true_map("portal_calibration")[1][1:3] == "01" and true_map("portal_calibration")[2][1] == "0"
    lattice = find_lattice(image)

    def cell(r, c):
        return (slice(int(lattice.y.edge(r)) + 2, int(lattice.y.edge(r + 1)) - 1),
                slice(int(lattice.x.edge(c)) + 2, int(lattice.x.edge(c + 1)) - 1))

    image[cell(2, 1)] = image[cell(1, 2)][: image[cell(2, 1)].shape[0], : image[cell(2, 1)].shape[1]]
    path = tmp_path / "twin.png"
    Image.fromarray(image).save(path)
    with pytest.raises(ImageError) as e:
        PLUGIN.read_image(str(path))
    assert e.value.message == "the portal tile at row 2, column 2 has no twin of its colour; linked tiles come in pairs"
    assert str(e.value) == f"{path}: error: {e.value.message}"


@needs_screens
def test_cells_that_are_not_square_are_refused(tmp_path, capsys):
    im = shot("2026.01.23").convert("RGB")
    path = tmp_path / "stretched.png"
    im.resize((round(im.width * 1.1), im.height), Image.LANCZOS).save(path)
    assert main(["import-image", str(path)]) == 1
    assert capsys.readouterr().err == (f"{path}: error: the grid in the picture is not regular: its cells are "
                                       f"96.0 pixels wide but 87.5 high, and the game's cells are square\n")


@needs_screens
def test_a_crop_through_the_board_is_refused(tmp_path, capsys):
    path = tmp_path / "cut.png"
    im = shot("2026.01.23")
    im.crop((0, 0, im.width, int(21 + 11.5 * 87.5))).save(path)  # half of the last row shows
    assert main(["import-image", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}: error: the picture cuts off the board at its bottom: it "
                                              f"shows only ")


def test_a_picture_without_grid_is_one_sentence(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (200, 150), (53, 105, 63)).save(blank)
    assert main(["import-image", str(blank)]) == 1
    assert capsys.readouterr().err == (f"{blank}: error: no grid found in the picture: no thin light lines recur "
                                       f"at one pitch\n")


def drawn(name: str, cell: int, tmp_path: Path) -> tuple[Path, list[str]]:
    data = read_map(HORSE_DATA / name)
    grid = build_grid(check(parse_file(HORSE)), data)
    path = tmp_path / f"{name}-{cell}.png"
    draw(grid, None, PLUGIN.style(grid).over(default_style(grid)), cell).to_image().save(path)
    return path, data.rows


ROUND_TRIP = [  # maps with portals, cherries, golden apples and bees; several sizes each
    ("daily-2026-03-25.txt", (20, 37, 64)),   # 15 x 15
    ("weekly-03.txt", (20, 33)),              # 25 x 25
    ("daily-2026-04-07.txt", (24, 48)),       # 16 x 12
    ("custom-01oE0n.txt", (16,)),             # 30 x 30, rows of water without lines
]


@pytest.mark.parametrize("name, cell", [(n, c) for n, cells in ROUND_TRIP for c in cells])
def test_the_grid_of_a_drawn_map_is_found_at_any_cell_size(name, cell, tmp_path):
    path, rows = drawn(name, cell, tmp_path)
    lattice = find_lattice(open_picture(path).rgb)
    assert (lattice.rows, lattice.cols, lattice.x.pitch, lattice.y.pitch) == pytest.approx(
        (len(rows), len(rows[0]), cell, cell), abs=0.05)


def test_a_drawing_is_refused_not_misread(tmp_path):
    """gridlang's own drawings are not the game's: their sprites are no calibration's."""
    path, rows = drawn("daily-2026-03-25.txt", 32, tmp_path)
    with pytest.raises(ImageError) as e:
        PLUGIN.read_image(str(path))
    assert re.match(r"the tile at row \d+, column \d+ is unsure: ", e.value.message)


def test_a_broken_calibration_file_is_one_sentence(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    blank = tmp_path / "blank.png"
    Image.new("RGB", (10, 10)).save(blank)
    assert main(["import-image", str(blank), "--calibration", str(bad)]) == 1
    assert capsys.readouterr().err == f"error: calibration {bad} is not a calibration (KeyError: 'cell')\n"


def test_a_plugin_without_pictures_reads_none():
    assert DEFAULT.read_image("x.png") is None and DEFAULT.calibrate_image([]) is None
