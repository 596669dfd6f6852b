"""A violation names the places its ``for each`` bound: the cells of the row, column or room it failed
in, the borders and the corners, so that a front end can draw a rule that names no cell."""

from __future__ import annotations

from gridlang.formats.maps import parse_map
from gridlang.interpreter import evaluate
from gridlang.solving.pipeline import load_checked
from gridlang.solving.spec import bundled

KROPKI = "n: 2\n..\n..\nborders:\n w\nb .\n ."
CREEK = "..\n..\ncorners:\n...\n.4.\n...\n"


def judged(name: str, text: str, decisions: dict) -> list:
    spec = bundled(name)
    model, _ = load_checked(spec.ast, spec.symbols, parse_map(text, "m.txt"), {}, None)
    return evaluate(
        spec.ast, spec.symbols, model.grid, model.params, decisions
    ).violations


def test_a_row_s_violation_names_its_cells_as_its_region():
    bound = [
        (v.rule_text.split(":")[0], v.region)
        for v in judged(
            "starbattle", "stars: 1\n..\n..\nrooms:\naa\nbb\n", {"star": {0: True}}
        )
    ]
    assert bound == [
        ("for each row r", ((1, 0), (1, 1))),
        ("for each column k", ((0, 1), (1, 1))),
        ("for each room m", ((1, 0), (1, 1))),
    ]


def test_a_border_s_and_a_corner_s_violations_name_them():
    violations = judged("kropki", KROPKI, {"digit": {0: 1, 1: 1, 2: 2, 3: 2}})
    rows, (white, none) = violations[:2], violations[2:]
    assert [r.region for r in rows] == [
        ((0, 0), (0, 1)),
        ((1, 0), (1, 1)),
    ]  # 1 1 and 2 2: not all different
    assert (
        white.borders == (((0, 0), (0, 1)),)
        and white.region == ()
        and white.corners == ()
    )
    assert none.borders == (
        ((0, 1), (1, 1)),
    )  # 1 over 2 with no dot between: they are consecutive
    (clue,) = judged("creek", CREEK, {"shaded": {0: True}})
    assert clue.corners == ((1, 1),) and clue.cells == ()
