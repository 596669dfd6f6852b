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
from gridlang.compiler import compile_tagged
from gridlang.core.deadline import Deadline
from gridlang.formats.maps import parse_map
from gridlang.solving.pipeline import load
from gridlang.why import hints as hint_search
from gridlang.why.depth import Depth, reasoning_depth
from gridlang.why.grade import LEVELS, difficulty_of, grade, level_of, step_cost
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


def test_the_difficulty_is_the_costliest_step_and_the_depth_s_terms_and_its_level_the_bound_above_it():
    graded = grade(_steps((1, 0), (3, 4), (2, 8), (1, 8)))
    assert (graded.difficulty, graded.level, graded.hardest, graded.complete) == (
        4.0,
        "easy",
        2,
        False,  # no depth's walk: a lower bound
    )
    walked = _steps((1, 0), (3, 4))
    walked.depth = Depth(1, 2, 4.0, 30.0, True)
    # 4 + 6 x log2(4) + 0.1 x 30 = 19, the walk's 15 capped at the hardest step's 4
    assert (grade(walked).difficulty, grade(walked).level, grade(walked).complete) == (
        8.0,
        "medium",
        True,
    )
    walked.depth = Depth(1, 1, 1.5, 4.0, True)
    # 4 + 6 x log2(1.5) + 0.1 x 4 = 4 + 3.51 + 0.4, under the cap
    assert grade(walked).difficulty == 7.91
    # a walk that stopped short of the answer (LITS 10x10's: 13.5 probes each, refutations of 8,
    # then no failed literal) adds nothing: its figures count what its clauses do not see
    stuck = _steps((1, 0), (3, 4))
    stuck.depth = Depth(2, 3, 13.5, 8.0, False)
    assert (grade(stuck).difficulty, grade(stuck).level, grade(stuck).cost) == (
        4.0,
        "easy",
        4.0,
    )
    assert difficulty_of(7.0, 1.5, 82.0) == 14.0  # 7 + (6 x 0.585 + 8.2, capped at 7)
    assert difficulty_of(18.25, 123 / 71, 81.0) == 31.11  # 18.25 + 4.76 + 8.1
    assert difficulty_of(2.5, 0.0, 0.0) == 2.5
    assert [step_cost(s) for s in _steps((1, 0), (3, 4)).steps] == [1.0, 4.0]
    assert [level_of(d) for d in (0.0, 5.75, 6.0, 15.5, 15.75, 22.25, 22.5, 40.0)] == [
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


def test_the_depth_s_walk_on_a_diabolical_sudoku_and_an_easy_one():
    # The first diabolical record (rated 6.4): unit propagation from the clues leaves 123 values
    # open, 71 of them fail (1.73 probes each), the median refutation sets 81 values, and one round
    # of failed literals reaches the answer; the first easy one (1.2) needs unit propagation alone.
    found = {}
    for name, digest in (("easy", "0000183b305c"), ("diabolical", "012984ed3b47")):
        digits, rating = _record(name, digest)
        text = _grading().sudoku_map(digits)
        model, _ = load(
            REPO / "puzzles" / "sudoku.grid",
            "<sample>",
            map_data=parse_map(text, "<sample>", "Sudoku"),
        )
        found[rating] = reasoning_depth(*compile_tagged(model))
    assert found[1.2] == Depth(0, 0, 0.0, 0.0, True)
    # a deadline already passed: no round, not complete (the grade is then a lower bound)
    stopped = reasoning_depth(*compile_tagged(model), Deadline(0.0))
    assert (stopped.rounds, stopped.complete) == (0, False)
    assert (
        found[6.4].depth,
        found[6.4].rounds,
        round(found[6.4].probes, 4),
        found[6.4].refutation,
        found[6.4].complete,
    ) == (1, 1, 1.7324, 81.0, True)


def test_an_easy_sudoku_grades_easy_and_a_diabolical_one_expert_and_higher(
    capsys, monkeypatch
):
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
    # 6.4: 18.25 + 6 x log2(123 / 71) + 0.1 x 81
    assert found == {1.2: (4.0, "easy", 32), 6.4: (31.11, "expert", 41)}


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
    # unit propagation alone solves it: the depth adds nothing
    assert record["depth"] == {
        "depth": 0,
        "rounds": 0,
        "probes": 0.0,
        "refutation": 0.0,
        "complete": True,
    }
    assert record["hardest_cost"] == 2.5


def test_a_nurikabe_s_walk_stops_where_propagation_sees_no_failed_literal(capsys):
    # Unit propagation over Nurikabe's clauses sees its connectivity only through the cuts learned,
    # none in a fresh oracle: no value fails at the first round, and the grade is the step's cost.
    jsonschema = pytest.importorskip("jsonschema")
    from gridlang.service.schemas import validator

    code = main(
        [
            "hint",
            str(REPO / "puzzles" / "nurikabe.grid"),
            "--map",
            str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt"),
            "--json",
        ]
    )
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    validator("hint").validate(record)
    assert record["depth"] == {
        "depth": 2,
        "rounds": 0,
        "probes": 0.0,
        "refutation": 0.0,
        "complete": False,
    }
    assert (record["difficulty"], record["hardest_cost"], record["level"]) == (
        1.75,
        1.75,
        "easy",
    )
    del jsonschema


def test_the_walk_probes_only_values_that_set_another():
    # LITS 4x4 (pzprjs): two rounds of failed literals reach the answer. In the round where the
    # contradictions are scarcest the values that set another are twice those that fail (2 probes
    # each); counted over every open value, those that set nothing included, it was 2.67.
    model, _ = load(
        REPO / "puzzles" / "lits.grid",
        REPO / "puzzles" / "instances" / "lits" / "pzprjs_4x4.txt",
    )
    walked = reasoning_depth(*compile_tagged(model))
    assert walked == Depth(1, 2, 2.0, 6.0, True)


def test_the_hint_table_reads_kept_runs_by_today_s_grade():
    # benchmarks/hint_grades.py's records of the Chocona 4x4 and the LITS 10x10, as kept by a run
    # before the cap (19.74) and before the walk stopped short added nothing (7.25 + 32.7)
    spec = importlib.util.spec_from_file_location(
        "hint_grades", REPO / "benchmarks" / "hint_grades.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    chocona = {
        "difficulty": 19.74,
        "level": "hard",
        "hardest_cost": 2.5,
        "depth": {
            "depth": 1,
            "rounds": 3,
            "probes": 7.0,
            "refutation": 4.0,
            "complete": True,
        },
    }
    lits = {
        "difficulty": 39.98,
        "level": "expert",
        "hardest_cost": 7.25,
        "depth": {
            "depth": 2,
            "rounds": 3,
            "probes": 40.0,
            "refutation": 8.0,
            "complete": False,
        },
    }
    assert [
        (r["difficulty"], r["level"], script.walk_text(r))
        for r in map(script.regrade, (chocona, lits))
    ] == [(5.0, "easy", "+2.5"), (7.25, "medium", "0, short")]


def test_the_calibration_figures_of_the_docs_hold():
    grading = _grading()
    records = [
        json.loads(line)
        for line in (DATA / "hints.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(records) == 143 and all(r["complete"] for r in records)
    ratings = [r["rating"] for r in records]
    graded = [grading.difficulty(r, 0.25) for r in records]
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


GRADED = 0.905
"""docs/benchmarks.md's Spearman correlation of the grade with the rating, on the whole sample."""
BASELINE = 0.870
"""The same of the largest count of rule instances in one step."""
AGREE = 128
"""The puzzles whose level is their file's."""
