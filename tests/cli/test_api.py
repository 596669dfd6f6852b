"""The Python API: docs/api.md runs as a doctest (from outside the repository), and
what a notebook user meets: the shipped puzzles by name, short reprs, pictures, the
backend that answered, answers one at a time, puzz.link URLs."""

from __future__ import annotations

import doctest
import fnmatch
import io
import time
import tomllib
import xml.etree.ElementTree as ET

import pytest
from horse_data import REPO
from PIL import Image

import gridlang
from gridlang.core.deadline import Deadline
from gridlang.formats.catalog import NotBundledError

NURIKABE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


@pytest.fixture(scope="module")
def horse():
    return gridlang.bundled("horse")


@pytest.fixture(scope="module")
def daily(horse):
    return gridlang.solve(horse, map=gridlang.bundled_map("daily-2026-01-07"), backend="maxsat", time_limit=120)


def test_docs_api_examples_hold(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the examples name no path of the repository
    failures, tried = doctest.testfile(str(REPO / "docs" / "api.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried >= 40
    assert failures == 0


def test_module_docstring_example_holds(monkeypatch, tmp_path):
    import gridlang.api

    monkeypatch.chdir(tmp_path)
    failures, tried = doctest.testmod(gridlang.api)
    assert (failures, tried) == (0, 5)


# ---------------------------------------------------------------- the shipped puzzles

def test_every_shipped_spec_and_map_is_found_by_name():
    specs = gridlang.bundled_specs()
    assert set(specs) == {p.stem for p in (REPO / "puzzles").glob("*.grid")}
    maps = gridlang.bundled_maps()
    on_disk = [p for folder in ("maps", "instances") for p in (REPO / "puzzles" / folder).rglob("*.txt")]
    assert len(maps) == len(on_disk) and len(maps) > 100  # every map and instance on disk, by name
    assert gridlang.bundled_map("daily-2026-01-07").read_text() == (
        REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text()
    assert gridlang.bundled_map("snake_eggs/derived/derived_tuzz_gallery_02_two").is_file()
    assert gridlang.bundled_maps("sudoku") == ("sudoku/cspuz_9x9", "sudoku/pzprjs_4x4")
    assert gridlang.bundled("mashu").puzzle == "Masyu"  # a puzz.link alias names its genre's spec


def test_a_name_not_shipped_is_refused_with_the_closest():
    with pytest.raises(NotBundledError, match="did you mean 'starbattle'"):
        gridlang.bundled("star_battle")
    with pytest.raises(LookupError, match="did you mean 'nurikabe/pzprjs_5x5'"):
        gridlang.bundled_map("nurikabe/pzprjs_5x6")
    with pytest.raises(NotBundledError):
        gridlang.bundled_map("../pyproject")


def test_the_wheel_holds_every_shipped_map():
    """Every map and instance matches a package-data pattern, so `pip install .` ships it."""
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "gridlang.puzzles"]
    root = REPO / "puzzles"
    files = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    wanted = [f for f in files if f.endswith((".grid", ".txt"))]
    assert [f for f in wanted if not any(fnmatch.fnmatch(f, pat) and f.count("/") == pat.count("/")
                                         for pat in patterns)] == []


# ---------------------------------------------------------------- results

def test_a_spec_and_a_result_have_short_reprs(horse, daily):
    assert repr(horse) == f"<Spec 'enclose.horse' from {gridlang.formats.catalog.spec_path('horse')}>"
    assert repr(daily) == ("<SolveResult enclose.horse 14x12: OPTIMAL, objective 66, verified; backend maxsat; "
                           "decisions {'wall': 12}>")


def test_a_result_names_the_backend_asked_for_and_the_one_that_answered(horse):
    daily = gridlang.bundled_map("daily-2026-01-07")
    auto = gridlang.solve(horse, map=daily, time_limit=120)
    assert (auto.backend, auto.objective) == ("auto", 66)
    assert auto.chosen in ("asp", "cpsat") and auto.to_json()["chosen"] == auto.chosen  # a daily: clingo raced by CP-SAT
    asp = gridlang.solve(horse, map=daily, backend="asp", time_limit=120)
    assert (asp.backend, asp.chosen, asp.objective) == ("asp", "asp", 66)


def test_the_picture_is_the_answer_drawn_as_svg_and_png(daily):
    svg = daily.picture("svg", cell=20)
    root = ET.fromstring(svg.encode())
    assert (root.get("width"), root.get("height")) == ("250", "290")  # 12 x 14 cells, a frame of 5 px
    walls = [e for e in root.iter() if {"mark", "wall"} <= set(e.get("class", "").split())]
    assert len(walls) == 12
    image = Image.open(io.BytesIO(daily.picture(format="png", cell=20)))
    assert (image.format, image.size) == ("PNG", (250, 290))
    with pytest.raises(ValueError, match="svg, png"):
        daily.picture("gif")


def test_jupyter_shows_the_picture_and_a_caption(daily):
    svg = daily._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    page = daily._repr_html_()
    assert page.startswith("<figure><svg") and page.endswith(
        "<figcaption>OPTIMAL, objective 66, verified; backend maxsat</figcaption></figure>")


# ---------------------------------------------------------------- puzz.link, answers one by one

def test_a_puzzlink_url_is_solved_with_its_genres_bundled_spec():
    r = gridlang.solve(url=NURIKABE_URL, unique=True, time_limit=120)
    assert (r.puzzle, r.size, r.verified, r.unique, len(r.decisions["shaded"])) == ("Nurikabe", (5, 5), True, True, 14)
    with pytest.raises(TypeError, match="not both"):
        gridlang.solve(map="2.\n..\n", url=NURIKABE_URL)
    with pytest.raises(TypeError, match="map="):
        gridlang.solve(gridlang.bundled("nurikabe"))


def test_answers_come_one_at_a_time_each_verified():
    answers = gridlang.solutions(gridlang.bundled("nurikabe"), map="2.\n..\n", backend="cpsat", time_limit=120)
    assert answers.report is None  # nothing solved before the loop asks
    loop = iter(answers)
    first = next(loop)
    assert first.verified and len(answers.report.solutions) == 1  # the second not searched yet
    second = next(loop)
    assert second.verified and second.decisions != first.decisions
    assert list(loop) == [] and answers.complete is True
    assert repr(answers) == "<Answers of Nurikabe: 2 found, all there are>"
    assert {frozenset(a) for a in (first.decisions["shaded"], second.decisions["shaded"])} == {
        frozenset({(1, 0), (1, 1)}), frozenset({(0, 1), (1, 1)})}


def test_answers_stop_at_the_limit_and_at_the_time_limit():
    sudoku = gridlang.bundled("sudoku")
    blank = "\n".join(["." * 9] * 9) + "\n"  # far more answers than anyone can list
    answers = gridlang.solutions(sudoku, map=blank, limit=3, time_limit=120)
    assert len(list(answers)) == 3 and answers.complete is False
    assert repr(answers) == "<Answers of Sudoku: 3 found, perhaps more>"
    with pytest.raises(ValueError, match="limit=0"):
        gridlang.solutions(sudoku, map=blank, limit=0)
    t0 = time.perf_counter()
    answers = gridlang.solutions(sudoku, map=blank, deadline=Deadline(3.0))
    found = sum(1 for _ in answers)  # as many as 3 s allow (at rest, dozens), then the loop ends
    assert answers.complete is False and len(answers.report.solutions) == found
    assert time.perf_counter() - t0 < 2 * 3.0 + 1


def test_bad_input_raises_at_the_call_not_in_the_loop():
    with pytest.raises(gridlang.core.errors.GridlangError, match="row 1, column 2"):
        gridlang.solutions(gridlang.bundled("nurikabe"), map="2X\n..\n")
