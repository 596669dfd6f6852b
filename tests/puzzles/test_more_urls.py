"""Real puzz.link URLs beyond the bundled instances: every backend proves the
same unique answer, checked by the genre's published rules.

No answer is stored here: a verified answer that is proved unique is the
puzzle's answer, and the four backends must agree on it. Sources (each URL
as published there):

* Nurikabe: tck.mn, "Penalty theory in wall puzzles" (the solved boards are
  printed beside the URLs);
* Heyawake 7x7 and 10x8, Sudoku: sarbeshtiwari/pencil-puzzle-bench-games
  (URLs paired with solution files);
* Norinori: semiexp/cspuz, tests/test_serializer.py (MIT licence);
* Statue Park: T0nyX1ang/noqx, solver/statuepark.py, its examples;
* Hitori 8x8, Star Battle 10x10 (two stars), and the two broken puzzles at
  the end: penpa-edit's list of puzz.link parser test URLs.

The default run takes one small Nurikabe; ``pytest -m slow`` takes the rest.
"""

from __future__ import annotations

import json

import pytest

from gridlang import cli
from gridlang.ir.backend import backend_names

UNIQUE = [
    pytest.param("https://puzz.link/p?nurikabe/7/5/u5n5p", id="nurikabe-7x5"),
    pytest.param("https://puzz.link/p?nurikabe/7/7/2g4h3o2q2p2i4k5", id="nurikabe-7x7", marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?nurikabe/10/6/g3v5l3l5i3zi", id="nurikabe-10x6", marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?heyawake/7/7/2hblosca00fhjg0fs012g1i313h", id="heyawake-7x7",
                 marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?heyawake/10/8/98ih52a2i54a8kgoo7700vv00ss33i0222332321i", id="heyawake-10x8",
                 marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?sudoku/9/9/j8m952l614k4i2j5i7i12i58g761i935943i826g28i14g", id="sudoku-a",
                 marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?sudoku/9/9/h75q23g8h1k9h2i7h3k6h2i3h4k4h3g45q78h", id="sudoku-b",
                 marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?norinori/6/6/93op35pb9vpq", id="norinori-6x6", marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?statuepark/12/12/3g3g6000515100003ala0i003g3a0060515160003g3g0000//p",
                 id="statuepark-12x12", marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?hitori/8/8/8416325715684121262378436475273858613542475783762346528431821615",
                 id="hitori-8x8", marks=pytest.mark.slow),
    pytest.param("https://puzz.link/p?starbattle/10/10/2/5g252c2qkgbakk98igse7g88cp3730so000u",
                 id="starbattle-10x10", marks=pytest.mark.slow),
]


def _solve(url: str, backend: str, capsys) -> tuple[int, dict]:
    code = cli.main(["solve", "--url", url, "--unique", "--json", "--backend", backend, "--time-limit", "120"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("url", UNIQUE)
def test_every_backend_proves_the_same_unique_answer(url, capsys):
    answers = {}
    for backend in backend_names():
        code, out = _solve(url, backend, capsys)
        assert (code, out["status"], out["verified"], out["unique"]) == (0, "SOLVED", True, True), backend
        answers[backend] = out["decisions"]
    first = next(iter(answers.values()))
    assert all(a == first for a in answers.values())


@pytest.mark.slow
def test_a_heyawake_whose_room_cannot_hold_its_number_is_infeasible(capsys):
    # A room of 9 cells in this parser fixture asks for 6 shaded cells; 5 fit.
    for backend in backend_names():
        code, out = _solve("https://puzz.link/p?heyawake/10/8/4k94j266sdc488g0206rv300cro0074g321g26", backend,
                           capsys)
        assert (code, out["status"]) == (2, "INFEASIBLE"), backend


@pytest.mark.slow
def test_a_lits_with_several_answers_is_not_unique(capsys):
    for backend in backend_names():
        code, out = _solve("https://puzz.link/p?lits/6/6/lldoa4043q6c", backend, capsys)
        assert (code, out["verified"], out["unique"]) == (0, True, False), backend


def test_hitori_cells_of_unknown_number_take_no_part_in_repeats(capsys):
    # '%' is a cell whose number is not given; it may be shaded or not.
    url = "https://puzz.link/p?hitori/8/8/.%.632..1.6..1.12.23..%3.%7..7..5.6.35%..7.7..7.2.%6.2.%.1..1.1./"
    code = cli.main(["solve", "--url", url, "--json", "--backend", "maxsat"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["verified"]) == (0, "SOLVED", True)


def test_a_kurochute_clue_not_given_is_read_and_stays_unshaded(capsys):
    # pzprjs's own puzzle (robx/pzprjs test/script/kurochute.js, MIT) with its first clue, the 1 at
    # row 1, column 1, written '.' (a number not given): the URL was refused. The clue cell stays
    # unshaded, and the published answer is still one (of several: the 1 no longer pins it).
    url = "https://puzz.link/p?kurochute/5/5/.32k1i1i2k332"
    assert cli.main(["import", url]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "?32.."
    code = cli.main(["solve", "--url", url, "--count", "100", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["verified"]) == (0, True)
    published = {(0, 4), (1, 0), (1, 2), (2, 4), (3, 3), (4, 0)}
    answers = [{tuple(cell) for cell, v in answer["shaded"] if v} for answer in out["solutions"]]
    assert out["complete"] and len(answers) == 3
    assert published in answers and all((0, 0) not in a for a in answers)
