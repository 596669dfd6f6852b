"""``solve --explain``: the three infeasible puzzles of the issue, and three shipped instances made
infeasible by one wrong given (tests/data/why/README.md), each get a set of rule instances
that cannot hold together, every proper subset of which has an answer (re-solved on CP-SAT, not on
the SAT oracle that found the set), named as SPEC:LINE:COL with the cells, clues and parameters."""

from __future__ import annotations

import json
import re

import pytest
from horse_data import REPO
from why_data import WHY_DATA, cpsat_status, restricted

from gridlang.cli import main
from gridlang.compiler import compile_tagged
from gridlang.ir.backend import Status
from gridlang.solving.pipeline import load
from gridlang.why import explain

PUZZLES = {
    "sudoku": ("sudoku.grid", "sudoku_two_ones.txt"),
    "heyawake": ("heyawake.grid", "heyawake_domino_two.txt"),
    "horse": ("horse.grid", "horse_leak.txt"),
    "sudoku 9x9": ("sudoku.grid", "sudoku_9x9_two_sevens.txt"),
    "akari": ("akari.grid", "akari_10x10_three.txt"),
    "nurikabe": ("nurikabe.grid", "nurikabe_10x9_eight.txt"),
}
SLOW = {"nurikabe"}  # its explanation's first oracle call takes 67 cut rounds, 2 to 3 CPU seconds


def _paths(name):
    spec, data = PUZZLES[name]
    return REPO / "puzzles" / spec, WHY_DATA / data


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in sorted(PUZZLES)])
def test_every_proper_subset_of_the_explanation_has_an_answer(name):
    model, _ = load(*_paths(name))
    found = explain(model)
    assert found is not None and found.minimal
    tagged, tagging = compile_tagged(model)
    kept = [i.tag for i in found.instances]
    assert cpsat_status(restricted(tagged, tagging.tags, kept)) is Status.INFEASIBLE
    for drop in kept:
        rest = [t for t in kept if t != drop]
        assert cpsat_status(restricted(tagged, tagging.tags, rest)).has_solution, f"{drop} is spare"


def test_the_sudoku_explanation_is_the_two_givens_and_their_row():
    model, _ = load(*_paths("sudoku"))
    found = explain(model)
    assert [(i.rule, i.cells) for i in found.instances] == [
        ("for each g in given: digit[g] == value(g)", ((0, 0),)),
        ("for each g in given: digit[g] == value(g)", ((0, 2),)),
        ("for each row r: all different digit in r", ((0, 0), (0, 1), (0, 2), (0, 3))),
    ]
    assert [i.clues for i in found.instances] == [("given 1 at row 1, column 1",), ("given 1 at row 1, column 3",), ()]
    assert [(i.line, i.col) for i in found.instances] == [(21, 34), (21, 34), (23, 38)]  # after the rules' names


def test_the_heyawake_explanation_names_the_clue_and_the_rule_against_touching():
    model, _ = load(*_paths("heyawake"))
    found = explain(model)
    rules = [i.rule for i in found.instances]
    assert rules[0] == "for each c in clue: count(shaded and room(c)) == value(c)"
    assert found.instances[0].clues == ("clue 2 at row 1, column 1",)
    assert rules[1].startswith("for each cell p: shaded[p] implies not any(shaded[q]")
    assert set(found.instances[1].cells) == {(0, 0), (0, 1)}


def test_a_shipped_sudoku_with_a_second_seven_in_a_column_is_explained_by_the_two_givens_and_the_column():
    model, _ = load(*_paths("sudoku 9x9"))
    found = explain(model)
    assert found.minimal
    assert [(i.rule, i.cells) for i in found.instances] == [
        ("for each g in given: digit[g] == value(g)", ((1, 0),)),
        ("for each g in given: digit[g] == value(g)", ((3, 0),)),
        ("for each column k: all different digit in k", tuple((r, 0) for r in range(9))),
    ]


def test_a_shipped_akari_with_a_3_for_its_2_is_explained_by_three_clues_and_three_lights_that_would_see_another():
    model, _ = load(*_paths("akari"))
    found = explain(model)
    assert found.minimal
    assert [i.clues for i in found.instances[:3]] == [("clue 3 at row 1, column 3",), ("clue 3 at row 4, column 5",),
                                                      ("clue 2 at row 6, column 1",)]
    # "no light shines on another" looks right and down from each light: the lights at row 1, columns
    # 2 and 4 (each would see the light below it) and at row 5, column 1 (the one right of it)
    assert sorted(i.cells for i in found.instances[3:]) == [((0, 1),), ((0, 3),), ((4, 0),)]
    assert {i.name for i in found.instances[3:]} == {"no light shines on another"}


@pytest.mark.slow
def test_a_shipped_nurikabe_with_an_8_for_its_7_is_explained_by_its_clues_and_connected_walls():
    model, _ = load(*_paths("nurikabe"))
    found = explain(model)
    assert found.minimal
    assert len(found.instances) == 14
    assert found.instances[0].rule == "shaded is connected"
    assert ("clue 8 at row 3, column 5",) in [i.clues for i in found.instances]


def test_the_horse_explanation_names_the_leaking_cell_and_the_budget():
    model, _ = load(*_paths("horse"))
    found = explain(model)
    assert [(i.rule, i.cells, i.params) for i in found.instances] == [
        ("pen avoids border", ((2, 4),), {}),
        ("count(wall) <= budget", (), {"budget": 0}),
    ]


def test_explain_prints_spec_line_col_and_exits_2(capsys):
    spec, data = _paths("horse")
    code = main(["solve", str(spec), "--map", str(data), "--explain"])
    out = capsys.readouterr().out
    assert code == 2
    lines = out.split("explanation:", 1)[1].splitlines()
    assert "cannot hold together (dropping any one of them leaves an answer)" in lines[0]
    assert re.fullmatch(r"  .*horse\.grid:24:9: pen avoids border  \[row 3, column 5 \(grass\)\]", lines[1])
    assert re.fullmatch(r"  .*horse\.grid:25:9: count\(wall\) <= budget  \[budget = 0\]", lines[2])


def test_explain_json_validates_and_lists_each_instance(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from gridlang.service.schemas import validator

    spec, data = _paths("sudoku")
    code = main(["solve", str(spec), "--map", str(data), "--explain", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 2
    validator("solve").validate(record)
    assert record["status"] == "INFEASIBLE" and record["explanation_minimal"] is True
    assert [(e["line"], e["cells"]) for e in record["explanation"]] == [(21, [[0, 0]]), (21, [[0, 2]]),
                                                                        (23, [[0, 0], [0, 1], [0, 2], [0, 3]])]
    assert {"file", "line", "col", "rule", "cells"} <= set(record["explanation"][0])
    del jsonschema


def test_explain_on_a_puzzle_with_an_answer_says_there_is_nothing_to_explain(capsys):
    code = main(["solve", str(REPO / "puzzles" / "sudoku.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "sudoku" / "pzprjs_4x4.txt"), "--explain"])
    assert code == 0
    assert "explain: nothing to explain, the puzzle is not proved infeasible" in capsys.readouterr().out


def test_a_conflict_budget_gives_up_and_a_core_cut_short_is_not_called_minimal():
    from gridlang.why.mus import minimal_core
    from gridlang.why.oracle import Oracle

    model, _ = load(*_paths("sudoku"))
    tagged, tagging = compile_tagged(model)
    oracle = Oracle(tagged, tagging)
    assert oracle.check(oracle.groups, [], budget=0).status == "unknown"
    assert minimal_core(oracle, oracle.groups, budget=0) is None
    core = minimal_core(oracle, oracle.groups)
    assert core is not None and core.minimal and len(core.groups) == 3


def test_a_core_out_of_time_keeps_what_it_did_not_try_and_is_not_called_minimal():
    from gridlang.why.mus import minimal_core
    from gridlang.why.oracle import Oracle

    model, _ = load(*_paths("sudoku"))
    tagged, tagging = compile_tagged(model)
    oracle = Oracle(tagged, tagging)
    first = oracle.check(oracle.groups, [])
    core = minimal_core(oracle, oracle.groups, seconds=0)
    assert core is not None and not core.minimal
    assert core.calls == 1 and sorted(map(repr, core.groups)) == sorted(map(repr, first.groups))  # none tried
    assert oracle.check(core.groups, []).status == "unsat"


def test_a_core_of_instances_and_known_cells_is_minimal_in_both():
    from gridlang.why.instances import entries
    from gridlang.why.mus import minimal_core
    from gridlang.why.oracle import Oracle

    model, _ = load(REPO / "puzzles" / "sudoku.grid", REPO / "puzzles" / "instances" / "sudoku" / "pzprjs_4x4.txt")
    tagged, tagging = compile_tagged(model)
    oracle = Oracle(tagged, tagging)
    answer = oracle.check(oracle.groups, [])
    assert answer.status == "sat"
    cells = [e.literal(e.value_in(answer.assignment)) for e in entries(tagged)]
    target, known = cells[0], cells[5:]  # a corner cell's digit, from most of the others
    core = minimal_core(oracle, oracle.groups, known, [-target])
    assert core is not None and core.minimal and core.groups and core.lits
    assert oracle.check(core.groups, core.lits + [-target]).status == "unsat"
    for g in core.groups:  # every instance and every known cell is needed
        assert oracle.check([h for h in core.groups if h != g], core.lits + [-target]).status == "sat"
    for lit in core.lits:
        assert oracle.check(core.groups, [l for l in core.lits if l != lit] + [-target]).status == "sat"


@pytest.mark.parametrize("row", ["2.2", "2..2"])
def test_a_rule_false_on_the_map_is_an_infeasible_puzzle_explained(row, tmp_path, capsys):
    # Two clues of 2 on three cells: the islands' total (4) exceeds the cells, which the compiler
    # sees before any solver; on four cells the solver finds the clash. Both are infeasible puzzles
    # (exit 2) with an explanation, never an input error.
    path = tmp_path / "n.txt"
    path.write_text(row + "\n", encoding="utf-8")
    spec = str(REPO / "puzzles" / "nurikabe.grid")
    assert main(["solve", spec, "--map", str(path), "--explain", "--json", "--time-limit", "60"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "INFEASIBLE" and out["explanation_minimal"] is True
    lines = sorted(i["line"] for i in out["explanation"])
    assert lines == ([29] if row == "2.2" else [23, 29])
    for command in (["solve", spec, "--map", str(path)], ["hint", spec, "--map", str(path)]):
        assert main(command + ["--time-limit", "60"]) == 2
    assert "INFEASIBLE" in capsys.readouterr().out
