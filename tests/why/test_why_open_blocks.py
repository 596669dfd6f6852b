"""The tools that say why, on a decision whose largest values are made as one (Fillomino's sizes above
the largest number its rules compare them with, gridlang/constructs/blocks/domains.py): they compile the
spec again rule instance by rule instance and read answers by their variables, so a given number must
stay a rule instance of its own (a 6x6 hint once read "solved in 1 step" when given numbers had
narrowed the values), and a cell held at the open value is no one size."""

from __future__ import annotations

import pytest
from horse_data import REPO
from why_data import cpsat_status, restricted, unproved_step

from gridlang.compiler import compile_tagged
from gridlang.formats.maps import parse_map
from gridlang.ir.backend import SolveOptions, Status
from gridlang.language.checker import check
from gridlang.language.parser import parse_file
from gridlang.solving.pipeline import first_answer, load, load_checked
from gridlang.why import explain, solve_hints
from gridlang.why.backbone import forced_entries

SPEC = REPO / "puzzles" / "fillomino.grid"
SIX = REPO / "puzzles" / "instances" / "fillomino" / "pzprjs_6x6.txt"


def _model(rows: str):
    spec = parse_file(SPEC)
    model, _ = load_checked(
        spec, check(spec), parse_map(rows, "m.txt", "Fillomino"), {}
    )
    return model


def test_a_6x6_hint_takes_its_givens_one_by_one_and_every_step_follows():
    model, seconds = load(SPEC, SIX)
    assert (
        model.decisions[0].values == (1, 2, 3, 4, 5, 6)
        and model.decisions[0].open_value == 6
    )
    report, hints = solve_hints(model, "auto", SolveOptions(time_limit=120), seconds)
    assert hints.complete and not hints.open and not hints.unknown
    # the 12 givens first, one cell each and one rule instance each, then the rules decide the other 24 cells
    # (how many steps they take depends on the step search's 5 s cut, so on the load)
    assert [(len(step.decides), len(step.groups)) for step in hints.steps[:12]] == [
        (1, 1)
    ] * 12
    assert sum(len(step.decides) for step in hints.steps[12:]) == 24
    answer = report.solution.decisions["digit"]
    assert all(answer[e.key] == v for step in hints.steps for e, v in step.decides)
    tagged, tagging = compile_tagged(model)
    for step in hints.steps:
        known = [e.literal(v) for e, v in step.known]
        assert (
            unproved_step(
                tagged,
                tagging.tags,
                step.groups,
                known,
                [e.literal(v) for e, v in step.decides],
            )
            is None
        )


@pytest.mark.parametrize(
    "rows,forced,unsized,opened",
    [
        (
            "1 . . . . 1\n",
            [1, 4, 4, 4, 4, 1],
            [],
            [],
        ),  # unique: the block of four is forced at its size
        (
            "1 . . . . 1 . . .\n",
            [1, None, None, None, None, 1, None, None, None],
            [1, 2, 3, 4],
            [6, 7, 8],
        ),
    ],
)
def test_a_cell_held_at_the_open_value_is_forced_only_at_one_size(
    rows, forced, unsized, opened
):
    """On the second map cells 2 to 5 are a block of four in every answer, but the model sees only "four or
    more" (Fillomino's tri rule compares the digits with 3): not called forced."""
    model = _model(rows)
    report, session = first_answer(model, "maxsat", SolveOptions(time_limit=60), 2)
    found = forced_entries(report, session)
    values = {e.key: v for e, v in found.forced}
    assert [values.get(i) for i in range(len(forced))] == forced
    assert (
        sorted(e.key for e in found.unsized) == unsized
        and sorted(e.key for e in found.open) == opened
    )
    assert found.complete is (not unsized)


def test_an_infeasible_map_is_explained_by_a_given():
    """Two given 1s side by side: the second given is the explanation, since the blocks' sizes are stated as
    one node that every rule instance keeps (it is no instance of its own), under which the first cell, shut
    in by the given 1, is a block of 1 beside it; without it there is an answer (CP-SAT, not the oracle)."""
    model = _model("1 1 . . . .\n")
    found = explain(model)
    assert found is not None and found.minimal
    assert [i.binding for i in found.instances] == ["g = row 1, column 2 (given 1)"]
    tagged, tagging = compile_tagged(model)
    kept = [i.tag for i in found.instances]
    assert cpsat_status(restricted(tagged, tagging.tags, kept)) is Status.INFEASIBLE
    for drop in kept:
        assert (
            cpsat_status(
                restricted(tagged, tagging.tags, [k for k in kept if k != drop])
            )
            is Status.OPTIMAL
        )
