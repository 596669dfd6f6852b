"""The difficulty grade (:mod:`gridlang.why.grade`): the hardest step's cost and its level, on Sudokus
of the Sudoku Exchange puzzle bank rated by Sukaku Explainer (benchmarks/data/sudoku-exchange/), and
the calibration figures docs/benchmarks.md gives, recomputed from the kept hint runs."""

from __future__ import annotations

import importlib.util
import json

import pytest
from horse_data import REPO

import gridlang
from gridlang.cli import main
from gridlang.why.grade import LEVELS, grade, level_of, step_cost
from gridlang.why import hints as hint_search
from gridlang.why.hints import Hints, Step

DATA = REPO / "benchmarks" / "data" / "sudoku-exchange"


def _grading():
    """benchmarks/grading.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location(
        "grading", REPO / "benchmarks" / "grading.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(name: str, digest: str) -> tuple[str, float]:
    """The digits and rating of a record of the sample."""
    for line in (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        h, digits, rating = line.split()
        if h == digest:
            return digits, float(rating)
    raise KeyError(digest)


def _steps(*costs: tuple[int, int]) -> Hints:
    return Hints(
        [Step([], [object()] * rules, [None] * known) for rules, known in costs], True
    )


def test_the_difficulty_is_the_costliest_step_and_its_level_the_bound_above_it():
    graded = grade(_steps((1, 0), (3, 4), (2, 8), (1, 8)))
    assert (graded.difficulty, graded.level, graded.hardest, graded.complete) == (
        4.0,
        "easy",
        2,
        True,
    )
    assert [step_cost(s) for s in _steps((1, 0), (3, 4)).steps] == [1.0, 4.0]
    assert [level_of(d) for d in (0.0, 5.75, 6.0, 7.75, 8.0, 12.75, 13.0, 40.0)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
        "expert",
        "expert",
    ]
    assert [name for name, _ in LEVELS] == ["easy", "medium", "hard", "expert"]
    assert grade(Hints([], False)) is None


def test_an_easy_sudoku_grades_easy_and_a_diabolical_one_expert_and_higher(capsys, monkeypatch):
    # The first easy record of the sample (rated 1.2) and its first diabolical one (rated 6.4). Each
    # step's search for the cheapest step ends at its rounds alone, as the calibration's does, so the
    # grade is the one a run at rest gives whatever the load (cut at its seconds under load, a step's
    # search left the later steps greedy: 24.0 at step 43 where the rounds give 18.25 at step 41).
    monkeypatch.setattr(hint_search, "CHEAPEST_SECONDS", float("inf"))
    found = {}
    for name, digest in (("easy", "0000183b305c"), ("diabolical", "012984ed3b47")):
        digits, rating = _record(name, digest)
        hints = gridlang.hints(
            gridlang.bundled("sudoku"),
            map=_grading().sudoku_map(digits),
            time_limit=300,
        )
        assert hints.complete
        found[rating] = (hints.difficulty, hints.level, hints.hardest)
    assert found == {1.2: (4.0, "easy", 32), 6.4: (18.25, "expert", 41)}


def test_hint_json_gives_the_grade_and_each_step_its_cost(capsys):
    code = main(["hint", "--url", "https://puzz.link/p?sudoku/4/4/g1k23k3g", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (record["difficulty"], record["level"], record["difficulty_complete"]) == (
        2.5,
        "easy",
        True,
    )
    costs = [step["difficulty"] for step in record["steps"]]
    assert max(costs) == 2.5 and costs.index(2.5) + 1 == record["hardest_step"]
    assert all(
        step["difficulty"] == step["cost"][0] + 0.25 * step["cost"][1]
        for step in record["steps"]
    )


def test_the_calibration_figures_of_the_docs_hold():
    grading = _grading()
    records = [
        json.loads(line)
        for line in (DATA / "hints.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(records) == 143 and all(r["complete"] for r in records)
    ratings = [r["rating"] for r in records]
    graded = [grading.difficulty(r["steps"], 0.25) for r in records]
    baseline = [max(s[0] for s in r["steps"]) for r in records]
    assert round(grading.spearman(graded, ratings), 3) == GRADED
    assert round(grading.spearman(baseline, ratings), 3) == BASELINE
    levels = [level_of(d) for d in graded]
    own = {"easy": "easy", "medium": "medium", "hard": "hard", "diabolical": "expert"}
    assert sum(1 for r, lv in zip(records, levels) if own[r["file"]] == lv) == AGREE


@pytest.mark.slow
@pytest.mark.parametrize("name", ["easy", "medium", "hard", "diabolical"])
def test_the_kept_hint_runs_are_what_a_run_gives_now(name, monkeypatch):
    # Two records of each file hinted again: the steps' figures are those benchmarks/grading.py kept,
    # each step's search ended at its rounds alone as there (not at its seconds, which a load reaches).
    monkeypatch.setattr(hint_search, "CHEAPEST_SECONDS", float("inf"))
    kept = {
        r["hash"]: r
        for r in map(
            json.loads, (DATA / "hints.jsonl").read_text(encoding="utf-8").splitlines()
        )
    }
    lines = (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:2]
    for line in lines:
        digest, digits, _rating = line.split()
        hints = gridlang.hints(
            gridlang.bundled("sudoku"),
            map=_grading().sudoku_map(digits),
            time_limit=600,
        )
        steps = [
            [*s.cost, len(s.decides), s.search, s.cheapest] for s in hints.details.steps
        ]
        assert steps == kept[digest]["steps"], digest


GRADED = 0.878
"""docs/benchmarks.md's Spearman correlation of the grade with the rating, on the whole sample."""
BASELINE = 0.870
"""The same of the largest count of rule instances in one step."""
AGREE = 126
"""The puzzles whose level is their file's."""
