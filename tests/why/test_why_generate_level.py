"""``gridlang generate --difficulty LEVEL``: puzzles graded by their hint steps, seed after seed, until one
is at the level asked; at the time limit, the closest one made, with its grade in the sentence."""

from __future__ import annotations

import json
from argparse import Namespace

import pytest

import gridlang
from gridlang.cli import main
from gridlang.cli.generate import _print_best
from gridlang.core.deadline import Deadline
from gridlang.service.schemas import validator
from gridlang.why.generation import GenerateError, GenerateTimeUp, Generated, generate_at
from gridlang.why.generation.aim import _distance
from gridlang.why.grade import Grade, level_of

SUDOKU = ["--param", "box_rows=2", "--param", "box_cols=2"]


def test_a_puzzle_asked_easy_is_graded_easy_and_its_json_says_so(capsys):
    assert main(["generate", "sudoku", "--size", "4x4", *SUDOKU, "--seed", "3", "--difficulty", "easy",
                 "--json", "--quiet"]) == 0
    record = json.loads(capsys.readouterr().out)
    validator("generate").validate(record)
    assert record["level"] == "easy" == level_of(record["difficulty"])
    # the grade is that of the map's own hint steps
    hints = gridlang.hints(gridlang.bundled("sudoku"), map=record["map"])
    assert hints.to_json()["difficulty"] == record["difficulty"]


def test_seeds_are_tried_until_the_level_and_the_closest_is_kept_at_the_time_limit():
    """A 4x4 Sudoku is never graded expert: every seed is tried until the time runs out, and the
    error carries the closest puzzle made, a finished one, with its grade."""
    spec = gridlang.bundled("sudoku")
    tried = []

    def make(spec, seed, **options):
        tried.append(seed)
        return gridlang.generate(spec, (4, 4), seed, params={"box_rows": 2, "box_cols": 2},
                                 deadline=options["deadline"])

    with pytest.raises(GenerateTimeUp) as e:
        generate_at(make, spec, "expert", 5, Deadline(8.0))
    assert tried[:2] == [5, 6]
    assert e.value.proved == "level" and e.value.best.count("\n") == 6  # two header lines, four rows
    assert "graded easy (difficulty " in e.value.note and e.value.note.endswith(")")
    assert ", not expert: the closest made in time (seed 5)" in e.value.note


def test_the_distance_orders_by_level_then_by_the_gap_to_the_band():
    near_hard, far = Grade(15.5, "medium", 1, True), Grade(3.0, "easy", 1, True)
    assert _distance(Grade(20.0, "hard", 1, True), "hard") == (0, 0.0)
    assert _distance(near_hard, "hard") == (1, 0.25) < _distance(far, "hard") == (2, 12.75)


def test_an_unknown_level_is_refused_in_a_sentence(capsys):
    with pytest.raises(GenerateError, match="unknown difficulty 'fiendish': one of easy, medium, hard, expert"):
        generate_at(lambda *a, **k: Generated("", None, 0, 0, 0.0, "maxsat"), gridlang.bundled("sudoku"),
                    "fiendish", 0, Deadline(None))
    with pytest.raises(SystemExit) as stop:
        main(["generate", "sudoku", "--size", "4x4", "--difficulty", "fiendish"])
    assert stop.value.code != 0 and "invalid choice: 'fiendish'" in capsys.readouterr().err


@pytest.mark.parametrize("closest,tried,seed", [(Generated("1.\n..\n", None, 7, 1, 0.5, "maxsat"), 3, 7),
                                                (None, 3, 8)])
def test_the_map_left_at_the_time_limit_names_the_seed_it_came_from(closest, tried, seed, capsys):
    # From seed 5: the closest puzzle graded is its own seed's; with none, the map is the seed under way's.
    e = GenerateTimeUp("time")
    e.best, e.proved, e.note, e.closest, e.tried = "1.\n..\n", "level", "graded easy", closest, tried
    _print_best(e, Namespace(seed=5, json=False), 0)
    assert capsys.readouterr().out.splitlines()[0] == f"# seed {seed}: the best map when the time ran out: graded easy"
    _print_best(e, Namespace(seed=5, json=True), 0)
    assert json.loads(capsys.readouterr().out)["seed"] == seed
