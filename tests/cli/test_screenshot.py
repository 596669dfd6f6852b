"""Maps read off pictures: the game's screenshots give their true maps exactly, maps
drawn by gridlang read back at any cell size, and what cannot be read says why."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gridlang.checker import check
from gridlang.cli import main
from gridlang.draw import default_style, draw
from gridlang.errors import ImageError
from gridlang.lattice import find_lattice, load_image
from gridlang.maps import build_grid, read_map
from gridlang.parser import parse_file
from gridlang.plugins import DEFAULT, find_plugin
from gridlang.plugins import horse_draw

from horse_data import HORSE_DATA, REPO

HORSE = REPO / "puzzles" / "horse.grid"
PLUGIN = find_plugin("enclose.horse")


def _screens() -> Path | None:
    """The game's screenshots: $GRIDLANG_SCREENS, else shared/data/screens beside a parent of the repository."""
    if os.environ.get("GRIDLANG_SCREENS"):
        return Path(os.environ["GRIDLANG_SCREENS"])
    for parent in REPO.parents:
        if (parent / "shared" / "data" / "screens").is_dir():
            return parent / "shared" / "data" / "screens"
    return None


SCREENS = _screens()
needs_screens = pytest.mark.skipif(SCREENS is None, reason="../shared/data/screens is not here")
SHOTS = sorted(p.stem for p in SCREENS.glob("*.png")) if SCREENS else []

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


def canonical(rows: list[str]) -> list[str]:
    """Rows with portal characters renamed in order of first appearance (pairs kept)."""
    names: dict[str, str] = {}
    out = []
    for row in rows:
        line = []
        for ch in row:
            if ch not in horse_draw.PORTAL_CHARS:
                line.append(ch)
                continue
            names.setdefault(ch, horse_draw.PORTAL_CHARS[len(names)])
            line.append(names[ch])
        out.append("".join(line))
    return out


def true_map(stem: str) -> list[str]:
    return (SCREENS / f"{stem}_map.txt").read_text().split()


# ---------------------------------------------------------------- the game's screenshots

@needs_screens
def test_every_screenshot_is_known():
    assert set(SHOTS) == set(LATTICES)


@needs_screens
@pytest.mark.parametrize("stem", sorted(LATTICES))
def test_screenshot_grid_is_found(stem):
    lattice = find_lattice(load_image(SCREENS / f"{stem}.png"))
    rows, cols, pitch = LATTICES[stem]
    assert (lattice.rows, lattice.cols) == (rows, cols)
    assert abs(lattice.x.pitch - pitch) < 0.1 and abs(lattice.y.pitch - pitch) < 0.1


@needs_screens
@pytest.mark.parametrize("stem", sorted(LATTICES))
def test_screenshot_imports_to_its_true_map(stem):
    rows = PLUGIN.read_image(str(SCREENS / f"{stem}.png"))
    assert canonical(rows) == canonical(true_map(stem))
    assert rows == true_map(stem)  # the portals even keep the game's own characters


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
    for stem in ("portal_calibration", "2026.01.22", "2026.01.23", "example"):
        args += [str(SCREENS / f"{stem}.png"), str(SCREENS / f"{stem}_map.txt")]
    assert main(["calibrate-image", *args, "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 14 tiles learned from 4 pictures\n"
    shipped = resources.files("gridlang.data").joinpath("horse_colours.json").read_text()
    assert out.read_text() == shipped
    data = json.loads(shipped)
    assert [k["char"] for k in data["classes"]] == list("0123456789") + ["H", "G", "S", "C"]
    assert main(["import-image", str(SCREENS / "2026.01.22.png"), "--calibration", str(out)]) == 0
    assert capsys.readouterr().out.split() == true_map("2026.01.22")


@needs_screens
def test_a_map_of_the_wrong_size_is_refused_by_calibration(tmp_path, capsys):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("~~~\n~H~\n~~~\n")
    assert main(["calibrate-image", str(SCREENS / "example.png"), str(wrong), "-o", str(tmp_path / "c.json")]) == 1
    assert capsys.readouterr().err == (f"error: {SCREENS / 'example.png'} shows a grid of 21 rows and 21 columns, "
                                       f"but its map has 3 rows and 3 columns\n")


# ---------------------------------------------------------------- drawn by gridlang, read back

def drawn(name: str, cell: int, tmp_path: Path) -> tuple[Path, list[str]]:
    data = read_map(HORSE_DATA / name)
    grid = build_grid(check(parse_file(HORSE)), data)
    path = tmp_path / f"{name}-{cell}.png"
    draw(grid, None, PLUGIN.style(grid).over(default_style(grid)), cell).to_image().save(path)
    return path, data.rows


ROUND_TRIP = [  # maps with portals, cherries, golden apples and bees; several sizes each
    ("daily-2026-03-25.txt", (20, 37, 64)),   # 15 x 15, portals 0-2, C G S
    ("weekly-03.txt", (20, 33)),              # 25 x 25, portals 1-3, C G S
    ("daily-2026-04-07.txt", (24, 48)),       # 16 x 12, portals 0, 2, 3
    ("custom-01oE0n.txt", (16,)),             # 30 x 30, portals 0-7, C S
]


@pytest.mark.parametrize("name, cell", [(n, c) for n, cells in ROUND_TRIP for c in cells])
def test_a_drawn_map_reads_back_as_itself(name, cell, tmp_path):
    path, rows = drawn(name, cell, tmp_path)
    assert PLUGIN.read_image(str(path)) == rows
    lattice = find_lattice(load_image(path))
    assert (lattice.rows, lattice.cols, lattice.x.pitch, lattice.y.pitch) == pytest.approx(
        (len(rows), len(rows[0]), cell, cell), abs=0.05)


# ---------------------------------------------------------------- what cannot be read

def test_not_an_image_is_one_sentence(capsys):
    assert main(["import-image", str(HORSE)]) == 1
    assert capsys.readouterr().err == f"error: {HORSE} is not an image (Pillow reads PNG, JPEG, GIF, BMP, WebP)\n"


def test_a_missing_file_is_one_sentence(tmp_path, capsys):
    assert main(["solve", str(HORSE), "--image", str(tmp_path / "none.png"), "--budget", "3"]) == 1
    assert capsys.readouterr().err == f"error: cannot read {tmp_path / 'none.png'}: no such file\n"


def test_a_picture_without_grid_is_one_sentence(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (200, 150), (53, 105, 63)).save(blank)
    assert main(["import-image", str(blank)]) == 1
    assert capsys.readouterr().err == (f"error: no grid found in {blank}: no thin lines recur at one pitch "
                                       f"between its columns\n")


def test_an_unknown_colour_names_its_cell(tmp_path, capsys):
    path, rows = drawn("daily-2026-03-25.txt", 32, tmp_path)
    image = np.array(Image.open(path).convert("RGB"))
    pad = 8
    image[pad + 5 * 32 + 6: pad + 6 * 32 - 6, pad + 4 * 32 + 6: pad + 5 * 32 - 6] = (255, 0, 255)
    Image.fromarray(image).save(path)
    assert rows[5][4] == "."
    assert main(["import-image", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: the tile at row 6, column 5 has colours no tile of the calibration "
                          f"has (mostly #ff00ff; ")
    assert err.endswith("add a picture that shows it with gridlang calibrate-image\n") and err.count("\n") == 1


def test_a_portal_without_twin_is_refused(tmp_path):
    path, rows = drawn("daily-2026-03-25.txt", 32, tmp_path)
    assert rows[1][11] == "0" and rows[6][3] == "0" and rows[3][11] == "1"
    image = np.array(Image.open(path).convert("RGB"))
    pad = 8
    cell = lambda r, c: (slice(pad + r * 32, pad + (r + 1) * 32), slice(pad + c * 32, pad + (c + 1) * 32))
    image[cell(6, 3)] = image[cell(3, 11)]  # the second portal 0 now shows portal 1's colour
    Image.fromarray(image).save(path)
    with pytest.raises(ImageError, match=r": the portal tile at \(row 2, column 12\) has no twin of its colour; "
                                         r"linked tiles come in pairs$"):
        PLUGIN.read_image(str(path))
    image[cell(6, 3)] = image[cell(1, 11)]
    image[cell(5, 4)] = image[cell(3, 11)]  # a third portal 1, on grass
    Image.fromarray(image).save(path)
    with pytest.raises(ImageError, match=r": 3 portal tiles of one colour at \(row 4, column 12\), "
                                         r"\(row 6, column 5\), \(row 9, column 3\); linked tiles come in pairs$"):
        PLUGIN.read_image(str(path))


def test_a_broken_calibration_file_is_one_sentence(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    blank = tmp_path / "blank.png"
    Image.new("RGB", (10, 10)).save(blank)
    assert main(["import-image", str(blank), "--calibration", str(bad)]) == 1
    assert capsys.readouterr().err == f"error: calibration {bad} is not a calibration (KeyError: 'background')\n"


def test_a_plugin_without_pictures_reads_none():
    assert DEFAULT.read_image("x.png") is None and DEFAULT.calibrate_image([]) is None
