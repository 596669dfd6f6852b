"""The one solve under every front end (gridlang.service.solve): a request in, a model or a report out,
the URL-or-map choice and the seconds of each phase made in one place."""

from __future__ import annotations

import pytest
from horse_data import REPO

import gridlang
from gridlang.ir.backend import SolveOptions
from gridlang.service.solve import Request, compile_request, solve

HORSE = REPO / "puzzles" / "horse.grid"
DAILY = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
NURIKABE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def test_a_spec_path_and_a_map_path_solve_to_the_known_optimum():
    report = solve(Request(spec=str(HORSE), map=str(DAILY), backend="maxsat", options=SolveOptions(time_limit=60)))
    assert report.status == "OPTIMAL" and report.score == 66 and report.verdict.ok
    assert {"parse", "compile", "solve", "verify", "total"} <= set(report.seconds)


def test_a_command_counts_its_start_up():
    _, seconds = compile_request(Request(spec=str(HORSE), map=str(DAILY), startup=True))
    assert seconds["startup"] >= 0 and seconds["parse"] > 0
    _, seconds = compile_request(Request(spec=str(HORSE), map=str(DAILY)))
    assert set(seconds) == {"parse", "compile"}


@pytest.mark.parametrize("puzzle", ["path", "text", "mapdata"])
def test_a_loaded_spec_takes_a_map_as_a_path_its_text_or_its_data(puzzle):
    spec = gridlang.bundled("horse")
    text = DAILY.read_text(encoding="utf-8")
    from gridlang.service.solve import read

    given = {"path": str(DAILY), "text": text, "mapdata": read(spec, str(DAILY))}[puzzle]
    model, seconds = compile_request(Request(spec=spec, map=given))
    assert (model.grid.rows, model.grid.cols) == (14, 12) and model.params["budget"] == 12
    assert set(seconds) == {"parse", "compile"}


def test_a_url_without_a_spec_takes_its_genres_bundled_spec():
    report = solve(Request(url=NURIKABE_URL, unique=True))
    assert report.model.info["spec"].endswith("nurikabe.grid") and report.status == "SOLVED" and report.unique is True
    # the README's answer: 14 shaded cells of 25, the islands 5, 2, 1 and 3
    assert len(report.solution.true_cells("shaded")) == 14


@pytest.mark.parametrize("fields", [{"map": str(DAILY), "url": NURIKABE_URL}, {}, {"map": str(DAILY)}])
def test_a_request_without_one_puzzle_or_without_a_spec_is_refused(fields):
    with pytest.raises(TypeError):
        compile_request(Request(**fields))
