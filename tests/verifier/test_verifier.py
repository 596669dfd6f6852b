"""The enclose.horse verifier: written from the rules, it catches what a wrong model claims."""

from __future__ import annotations

import pytest
from horse_data import POCKET, REPO

from gridlang.core.errors import VerificationError
from gridlang.families.horse import verify as horse_verify
from gridlang.ir.backend import SolveOptions, get_backend
from gridlang.ir.model import Connected
from gridlang.ir.solution import Solution
from gridlang.solving.pipeline import load, verify

HORSE = REPO / "puzzles" / "horse.grid"


def grid_of(tmp_path, text: str, spec=HORSE):
    path = tmp_path / "m.txt"
    path.write_text(text)
    model, _ = load(spec, path)
    return model


def walls(model, *cells):
    return Solution({"wall": {model.grid.index(r, c): True for r, c in cells}}, {})


def test_model_without_connectivity_claims_53_and_the_verifier_refuses(tmp_path):
    model = grid_of(tmp_path, "budget: 6\n" + POCKET)
    broken = type(model)(model.name, model.grid, model.variables,
                         tuple(c for c in model.constraints if not isinstance(c, Connected)),
                         model.objective, model.decisions, model.regions, model.params, model.info)
    result = get_backend("cpsat").solve(broken, SolveOptions())
    assert result.objective == 53  # the sealed pocket, counted by a model that forgot connectivity
    # Against the original model the IR check already fails ...
    with pytest.raises(VerificationError, match="region 'pen' is not connected"):
        verify(model, result.assignment, result.objective)
    # ... and against the faulty encoding itself, the rules catch it.
    with pytest.raises(VerificationError) as e:
        verify(broken, result.assignment, result.objective)
    assert "the solver claims 53, but the enclose.horse rules score this answer" in str(e.value)
    assert int(str(e.value).rsplit(" ", 1)[1]) <= 2  # only what the horse really reaches


def test_a_wrong_assignment_breaks_the_model_check(tmp_path):
    model = grid_of(tmp_path, "budget: 6\n" + POCKET)
    result = get_backend("cpsat").solve(model, SolveOptions())
    values = list(result.assignment.values)
    values[model.decisions[0].cells[0][1][0][1] - 1] ^= True  # flip one wall
    from gridlang.ir.model import Assignment

    with pytest.raises(VerificationError) as e:
        verify(model, Assignment(tuple(values)), result.objective)
    spec = model.info["spec"]
    assert str(e.value) == ("error: the solver's answer breaks the compiled model:\n"
                            f"  {spec}:25:9: 'require count(wall) <= budget': linear constraint evaluates to "
                            "7 <= 6: false")


def test_rules_score_walls_budget_and_escape(tmp_path):
    model = grid_of(tmp_path, "budget: 2\n~~~~~\n~.H.~\n~~.~~\n~~.~~\n")
    # Walls on both grass cells beside the horse and one below: over budget.
    v = horse_verify(model.grid, walls(model, (1, 1), (1, 3), (2, 2)), {"budget": 2})
    assert not v.ok and "3 walls exceed the budget of 2" in v.problems
    assert v.score == 1
    # No wall below: the horse walks down to the border.
    v = horse_verify(model.grid, walls(model, (1, 1)), {"budget": 2})
    assert not v.ok and any("reaches the border at row 4, column 3" in p for p in v.problems)
    # A wall on water or on the horse is not allowed.
    v = horse_verify(model.grid, walls(model, (0, 0), (2, 2)), {"budget": 2})
    assert any("a wall stands on '~' at row 1, column 1" in p for p in v.problems)
    # Enclosed: horse + two grass cells = 3 points.
    v = horse_verify(model.grid, walls(model, (2, 2)), {"budget": 2})
    assert v.ok and v.score == 3


def test_rules_of_the_variants(tmp_path):
    text = "budget: 4\n~~~~~~~\n~H.C.U~\n~~~.~~~\n~~~.~~~\n"
    model = grid_of(tmp_path, text, REPO / "puzzles" / "horse_lovebirds.grid")
    sealed = walls(model, (3, 3))
    assert horse_verify(model.grid, sealed, {"budget": 4}, "lovebirds").score == 1 + 1 + 4 + 1 + 1 + 1
    assert horse_verify(model.grid, sealed, {"budget": 4}, "costlywalls").score == 9 - 6
    apart = walls(model, (1, 4), (3, 3))
    v = horse_verify(model.grid, apart, {"budget": 4}, "lovebirds")
    assert not v.ok and "the unicorn is not in the horse's enclosure" in v.problems
    v = horse_verify(model.grid, apart, {"budget": 4}, "loversquarrel")
    assert v.ok and v.score == (1 + 1 + 4 + 1) + 1  # H . C and the cell below C; U alone
    v = horse_verify(model.grid, sealed, {"budget": 4}, "loversquarrel")
    assert not v.ok and "the horse and the unicorn share an enclosure" in v.problems


def test_portal_twins_are_adjacent(tmp_path):
    model = grid_of(tmp_path, "budget: 2\n~~~~~~~\n~H1~1.~\n~~~~~.~\n")
    v = horse_verify(model.grid, walls(model, (1, 5)), {"budget": 2})
    assert v.ok and v.score == 3  # H and both portals; the wall stops the walk to the border
    v = horse_verify(model.grid, walls(model), {"budget": 2})
    assert not v.ok


def test_the_costly_walls_price_is_the_specs_parameter(tmp_path):
    model = grid_of(tmp_path, "budget: 4\n~~~~~~~\n~H.C.~~\n~~~.~~~\n~~~.~~~\n",
                    REPO / "puzzles" / "horse_costlywalls.grid")
    sealed = walls(model, (3, 3))  # H . C . and the cell below C: 1 + 1 + 4 + 1 + 1
    for cost, score in ((None, 8 - 6), (6, 8 - 6), (2, 8 - 2), (0, 8)):
        params = {"budget": 4} if cost is None else {"budget": 4, "wall_cost": cost}
        assert horse_verify(model.grid, sealed, params, "costlywalls").score == score
    # The game's other rules keep no price, whatever a spec declares.
    assert horse_verify(model.grid, sealed, {"budget": 4, "wall_cost": 2}, "standard").score == 8


@pytest.mark.parametrize("how", ["flag", "header"])
@pytest.mark.parametrize("cost", [0, 2, 3])
def test_costly_walls_with_another_price_verify(tmp_path, how, cost):
    # The plug-in's checker assumed 6 points a wall whatever the spec said: an
    # optimal answer under --wall_cost 2 ended in exit 4 ("the solver claims 53,
    # but the enclose.horse rules score this answer 1").
    from gridlang.solving.pipeline import solve

    spec = REPO / "puzzles" / "horse_costlywalls.grid"
    bonus = REPO / "puzzles" / "maps" / "bonus-2026-03-26-costlywalls.txt"
    path = tmp_path / "bonus.txt"
    path.write_text((f"wall_cost: {cost}\n" if how == "header" else "") + bonus.read_text())
    report = solve(spec, path, {"wall_cost": str(cost)} if how == "flag" else None, "cpsat")
    assert report.verdict.ok and report.score == report.result.objective
    # The same walls under the standard rules score the pen; the price comes off it.
    standard = horse_verify(report.model.grid, report.solution, {"budget": 13}, "standard").score
    assert report.score == standard - cost * len(report.verdict.details["walls"])
    if cost == 0:
        assert report.score == 79  # the map's optimum under the standard rules
