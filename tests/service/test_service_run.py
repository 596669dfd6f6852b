"""What a request asks for beyond the answer, through the service's one entry point
(gridlang.service.solve.run): the forced cells (the backbone), the explanation of an infeasible
puzzle, the hints, and the pictures, each checked against what the Python API's own functions give
and against the known answers of the bundled puzzles."""

from __future__ import annotations

import io

import pytest
from horse_data import REPO
from PIL import Image
from why_data import WHY_DATA

import gridlang
from gridlang.ir.backend import SolveOptions
from gridlang.service.result import result_of
from gridlang.service.solve import Request, compile_request, run
from gridlang.service.why import forced_cells, hints_of
from gridlang.why.instances import entries

HORSE = REPO / "puzzles" / "horse.grid"
DAILY = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
LEAK = WHY_DATA / "horse_leak.txt"  # the horse reaches the border and the budget is 0: no answer
TWO_PENS = WHY_DATA / "horse_two_pens.txt"
NURIKABE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def _options() -> SolveOptions:
    return SolveOptions(time_limit=120)


# ---------------------------------------------------------------- forced cells

@pytest.mark.parametrize("map", [DAILY, TWO_PENS], ids=["daily", "two-pens"])
def test_the_forced_cells_are_those_the_api_gives(map):
    outcome = run(Request(spec=str(HORSE), map=str(map), backend="cpsat", options=_options(), forced=True))
    assert outcome.forced is not None and outcome.forced.complete and outcome.forced.reason is None
    assert "forced" in outcome.report.seconds and outcome.explanation is None and outcome.hints is None
    mine = forced_cells(result_of(outcome.report), outcome.forced)
    api = gridlang.forced(str(HORSE), map=str(map), backend="cpsat", time_limit=120)
    assert mine.forced == api.forced and mine.open == api.open and mine.unknown == api.unknown == []
    assert outcome.report.unique is (not api.open)


def test_the_daily_is_all_forced_at_its_optimum():
    outcome = run(Request(spec=str(HORSE), map=str(DAILY), backend="cpsat", options=_options(), forced=True))
    report, backbone = outcome.report, outcome.forced
    assert report.score == 66 and report.unique is True and backbone.open == []
    # every entry is forced, and the forced walls are the answer's 12 walls
    assert len(backbone.forced) == len(entries(report.model))
    walls = sorted(e.key for e, value in backbone.forced if e.decision == "wall" and value is True)
    assert walls == sorted(report.solution.true_cells("wall"))
    assert len(walls) == 12


def test_a_url_asks_for_forced_cells_as_a_map_does():
    outcome = run(Request(url=NURIKABE_URL, forced=True, options=_options()))
    assert outcome.report.model.info["spec"].endswith("nurikabe.grid")
    # the README's puzzle has one answer: every entry is forced (the 21 cells without a clue), 14 shaded
    assert outcome.forced.complete and outcome.report.unique is True
    assert len(outcome.forced.forced) == len(entries(outcome.report.model)) == 21
    assert sum(value is True for _, value in outcome.forced.forced) == 14


# ---------------------------------------------------------------- explanations

def test_an_infeasible_puzzle_is_explained_by_its_rules():
    outcome = run(Request(spec=str(HORSE), map=str(LEAK), options=_options(), explain=True))
    assert outcome.report.status == "INFEASIBLE" and "explain" in outcome.report.seconds
    found = outcome.explanation
    assert found is not None and found.minimal
    assert [(i.rule, i.cells, i.params) for i in found.instances] == [
        ("pen avoids border", ((2, 4),), {}),
        ("count(wall) <= budget", (), {"budget": 0}),
    ]
    api = gridlang.explain(str(HORSE), map=str(LEAK), time_limit=120)
    assert [i.to_json() for i in api.instances] == [i.to_json() for i in found.instances]


def test_a_puzzle_with_an_answer_has_nothing_to_explain():
    outcome = run(Request(spec=str(HORSE), map=str(DAILY), options=_options(), explain=True))
    assert outcome.report.score == 66 and outcome.explanation is None
    assert "explain" not in outcome.report.seconds


# ---------------------------------------------------------------- hints

def test_the_hints_are_those_the_api_gives():
    nurikabe = gridlang.bundled("nurikabe")
    instance = gridlang.bundled_map("nurikabe/pzprjs_5x5")
    outcome = run(Request(spec=nurikabe, map=instance, options=_options(), hints=True))
    api = gridlang.hints(nurikabe, map=instance, time_limit=120)
    assert outcome.hints.complete and outcome.report.unique is True and "hints" in outcome.report.seconds
    assert hints_of(result_of(outcome.report), outcome.hints).steps == api.steps
    assert len(api.steps) == 9 and api.steps[0].cost == (1, 0)
    short = run(Request(spec=nurikabe, map=instance, options=_options(), hints=True, max_steps=2))
    assert len(short.hints.steps) == 2 and not short.hints.complete


# ---------------------------------------------------------------- pictures

def test_the_answers_pictures_are_written_as_the_api_draws_them(tmp_path):
    svg, png = tmp_path / "daily.svg", tmp_path / "daily.png"
    outcome = run(Request(spec=str(HORSE), map=str(DAILY), backend="cpsat", options=_options(),
                          pictures={"svg": svg, "png": png}, cell=16))
    assert [(p.format, p.path, p.data) for p in outcome.pictures] == [("svg", str(svg), None), ("png", str(png), None)]
    assert outcome.notes == [] and outcome.unwritten is None
    answer = gridlang.solve(str(HORSE), map=str(DAILY), backend="cpsat", time_limit=120)  # the daily has one answer
    assert svg.read_text(encoding="utf-8") == answer.picture("svg", cell=16)
    assert Image.open(png).size == (12 * 16 + 8, 14 * 16 + 8)


def test_a_picture_kept_is_in_the_outcome():
    outcome = run(Request(spec=str(HORSE), map=str(DAILY), backend="cpsat", options=_options(),
                          pictures={"png": None, "svg": None}))
    assert [p.format for p in outcome.pictures] == ["png", "svg"] and all(p.path is None for p in outcome.pictures)
    png, svg = (p.data for p in outcome.pictures)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and Image.open(io.BytesIO(png)).size == (12 * 32 + 16, 14 * 32 + 16)
    assert svg == result_of(outcome.report).picture("svg")


def test_with_forced_the_picture_is_the_forced_cells():
    outcome = run(Request(spec=str(HORSE), map=str(TWO_PENS), backend="cpsat", options=_options(), forced=True,
                          pictures={"svg": None}))
    assert outcome.forced.open  # two pens: some cells are open, greyed with a "?"
    assert outcome.pictures[0].data == forced_cells(result_of(outcome.report), outcome.forced).picture("svg")
    assert outcome.pictures[0].data != result_of(outcome.report).picture("svg")


@pytest.mark.parametrize("forced, note", [(False, "no answer to draw"),
                                          (True, "no forced cells to draw: there is no answer")])
def test_no_answer_leaves_a_note_and_no_picture(forced, note, tmp_path):
    svg = tmp_path / "leak.svg"
    outcome = run(Request(spec=str(HORSE), map=str(LEAK), options=_options(), forced=forced, pictures={"svg": svg}))
    assert outcome.report.status == "INFEASIBLE"
    assert outcome.notes == [note] and outcome.pictures == [] and not svg.exists()


def test_a_picture_that_cannot_be_written_keeps_the_answer(tmp_path):
    svg, png = tmp_path / "daily.svg", tmp_path / "no such folder" / "daily.png"
    outcome = run(Request(spec=str(HORSE), map=str(DAILY), options=_options(), pictures={"svg": svg, "png": png}))
    assert outcome.report.score == 66
    assert [p.path for p in outcome.pictures] == [str(svg)] and svg.exists()
    assert isinstance(outcome.unwritten, FileNotFoundError) and outcome.unwritten.filename == str(png)


# ---------------------------------------------------------------- the request itself

@pytest.mark.parametrize("fields, words", [
    ({"forced": True, "count": 2}, "without count"),
    ({"forced": True, "unique": True}, "without unique"),
    ({"hints": True, "forced": True}, "without forced"),
    ({"hints": True, "unique": True}, "without unique"),
    ({"pictures": {"gif": None}}, "unknown picture format 'gif'"),
    ({"pictures": {"svg": None}, "cell": 3}, "too small to draw"),
])
def test_what_does_not_go_together_is_refused_before_any_work(fields, words):
    # the map does not exist: a request that started work would fail on reading it
    with pytest.raises(ValueError, match=words):
        run(Request(spec=str(HORSE), map=str(REPO / "no-such-map.txt"), **fields))


def test_the_phases_are_reported_as_they_begin():
    phases = []
    run(Request(spec=str(HORSE), map=str(DAILY), options=_options()), progress=phases.append)
    assert phases == ["compiling", "solving"]


def test_the_seconds_a_front_end_spent_reading_count_as_parse_not_startup():
    _, seconds = compile_request(Request(spec=str(HORSE), map=str(DAILY), startup=True, parse_seconds=5.0))
    assert seconds["parse"] > 5.0 and seconds["startup"] == 0.0
