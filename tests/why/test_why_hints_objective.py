"""``gridlang hint`` on a puzzle with an objective (enclose.horse): the steps explain the optimal
answers, "the best score is N" one more instance a step may use; an optimum not proved is a
sentence and exit 3, and a ``--step K`` beyond the steps a located error, exit 1."""

from __future__ import annotations

import json

import pytest
from horse_data import REPO, known_optimum, manifest
from why_data import unproved_step

import gridlang
from gridlang.cli import main
from gridlang.compiler import compile_tagged
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load
from gridlang.why import solve_hints
from gridlang.why.depth import Depth
from gridlang.why.grade import grade, level_of
from gridlang.why.instances import with_optimum
from gridlang.why.render import hints_text

SPEC = REPO / "puzzles" / "horse.grid"
DAILY = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
OPTIMUM = known_optimum(next(e for e in manifest() if e["file"] == DAILY.name))
"""66: the game's own published optimum for the daily (tests/data/horse/manifest.json), not gridlang's."""


@pytest.fixture(scope="module")
def daily():
    model, seconds = load(SPEC, DAILY)
    report, hints = solve_hints(model, "auto", SolveOptions(time_limit=300), seconds)
    return model, report, hints


def test_the_daily_is_decided_cell_by_cell_as_its_optimal_answer(daily):
    model, report, hints = daily
    assert OPTIMUM == 66 and report.result.objective == OPTIMUM
    assert hints is not None and hints.complete and not hints.open and not hints.unknown and hints.reason is None
    decided = {}
    for step in hints.steps:
        for e, v in step.decides:
            assert e not in decided, f"{e} decided twice"
            decided[e] = v
    grass = [cell for cell, _ in model.decisions[0].cells]
    assert sorted(e.key for e in decided) == sorted(grass)  # every grass cell, once
    # the optimum is unique (the forced cells leave none open), so every answer of the steps is it
    forced = gridlang.forced(SPEC, map=DAILY, backend="cpsat")
    assert forced.complete and forced.open == []
    walls = set(gridlang.solve(SPEC, map=DAILY, backend="cpsat").decisions["wall"])
    assert len(walls) == 12
    assert {model.grid.cell(e.key) for e, v in decided.items() if v} == walls
    assert report.unique is True


def test_every_step_of_the_daily_follows_from_its_rules_and_the_optimum(daily):
    model, _, hints = daily
    tagged, tagging = with_optimum(*compile_tagged(model), OPTIMUM)
    uses = 0
    for k, step in enumerate(hints.steps, start=1):
        known = [e.literal(v) for e, v in step.known]
        failed = unproved_step(tagged, tagging.tags, step.groups, known, [e.literal(v) for e, v in step.decides])
        assert failed is None, f"step {k} is not shown to follow from its rules and cells: {failed}"
        uses += any(i.binding == f"the best score is {OPTIMUM}, so the answer scores at least {OPTIMUM}"
                    for i in step.instances)
    assert uses > 0  # without the optimum nothing is forced: a pen of one cell meets every rule


def test_the_first_step_of_the_daily_is_the_horse_s_one_way_out(daily, capsys):
    # The horse (row 8, column 7) has water on three sides: its one way out is the grass below it. A
    # wall there pens the horse alone, a score of 1, short of 66: the optimum alone decides it.
    model, _, hints = daily
    first = hints.steps[0]
    assert first.cost == (1, 0)
    assert [(model.grid.cell_name(e.key), v) for e, v in first.decides] == [("row 9, column 7", False)]
    code = main(["hint", str(SPEC), "--map", str(DAILY), "--steps", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("step 1 (1 rule, 0 known): row 9, column 7 is not wall\n  by ")
    assert out.splitlines()[1].endswith("horse.grid:27:1: maximize value(pen)  "
                                        "[the best score is 66, so the answer scores at least 66]")


def test_the_daily_is_graded_by_its_hardest_step_from_the_optimum_on(daily):
    # The walk of failed literals over the daily's clauses (its connectivity's cuts absent from a
    # fresh oracle) finds one failed literal, then none: stopped short of the answer, it adds nothing
    # (counted, and its probes over every open value, 208 each, it added 46.3: expert).
    model, _, hints = daily
    assert hints.depth == Depth(2, 1, 1.0, 1.0, False)
    graded = grade(hints)
    assert graded.difficulty == graded.cost and graded.level == level_of(graded.cost)
    assert hints_text(model, hints).splitlines()[-2].endswith(
        "; graded from the best score on, which the steps take as proved: finding it is not graded")


def test_step_one_of_the_daily_is_drawn_and_a_step_beyond_is_a_located_error(tmp_path, capsys):
    svg = tmp_path / "step.svg"
    code = main(["hint", str(SPEC), "--map", str(DAILY), "--steps", "2", "--step", "1", "--svg", str(svg)])
    assert code == 0
    text = svg.read_text(encoding="utf-8")
    assert text.count('class="decides"') == 1  # row 9, column 7
    assert text.count('class="uses rule"') == 0 and text.count('class="known"') == 0  # the optimum has no cells
    capsys.readouterr()
    code = main(["hint", str(SPEC), "--map", str(DAILY), "--steps", "2", "--step", "3", "--svg", str(svg)])
    assert code == 1
    assert "--step 3: there are 2 steps" in capsys.readouterr().err


def test_an_optimum_not_proved_is_said_and_exits_as_a_time_limit(tmp_path, capsys):
    # CP-SAT stops at its first answer: a solver's limit, as --time-limit's is, with no optimum proved
    args = ["hint", str(SPEC), "--map", str(DAILY), "--backend", "cpsat",
            "--set", "cpsat.stop_after_first_solution=true"]
    code = main(args + ["--step", "1", "--svg", str(tmp_path / "none.svg")])
    out = capsys.readouterr().out
    assert code == 3
    assert out.startswith("hints: not computed: the optimum is not proved (the time limit, or a limit given to the "
                          "solver, ran out first; the best answer found scores ")
    assert not (tmp_path / "none.svg").exists()
    code = main(args + ["--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 3
    assert record["status"] == "FEASIBLE" and record["steps"] == [] and record["complete"] is False
    grass = sum(row.count(".") for row in DAILY.read_text().splitlines()[1:])
    assert record["reason"].startswith("the optimum is not proved") and len(record["unknown"]) == grass == 104


def test_a_step_beyond_none_is_a_located_error(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(".?\n..\n")  # three cells, each shaded in some answer: no step
    code = main(["hint", str(REPO / "puzzles" / "nurikabe.grid"), "--map", str(path), "--step", "1",
                 "--svg", str(tmp_path / "s.svg")])
    assert code == 1
    assert "--step 1: there are 0 steps" in capsys.readouterr().err
    assert not (tmp_path / "s.svg").exists()


def test_cells_no_call_settles_are_unknown_not_open(daily, monkeypatch, capsys):
    # Every solver call of the search given no conflict to spend: the steps by propagation still
    # come, the rest are settled by no call. The daily's optimum is unique, so no cell differs between its
    # optimal answers: a cell left is unknown (exit 3), never "open".
    import gridlang.why.hints as hints_module

    monkeypatch.setattr(hints_module, "CONFLICTS", 0)
    model, _, _ = daily
    _, hints = solve_hints(model, "auto", SolveOptions(time_limit=300), {})
    assert hints.open == [] and hints.unknown and hints.gave_up and not hints.complete
    code = main(["hint", str(SPEC), "--map", str(DAILY)])
    out = capsys.readouterr().out
    assert code == 3 and "open (" not in out
    assert "entries left undecided (marked ?); no solver call of the search settled them" in out
