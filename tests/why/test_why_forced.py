"""``solve --forced``: the forced cells are exactly those every answer shares, checked against
enumerating every answer (``--count``) of small puzzles with several answers, on every backend, for
cells, edges and an objective; a run cut short says which cells are unknown."""

from __future__ import annotations

import json
import time

import pytest
from horse_data import REPO

import gridlang
from gridlang.cli import main
from gridlang.core.deadline import Deadline
from gridlang.formats.maps import parse_map
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import first_answer, load_checked, solve_model
from gridlang.why import forced_entries, solve_forced
from gridlang.why.instances import entries

SMALL = {
    "nurikabe": ("nurikabe.grid", "2.\n..\n"),
    "masyu": ("masyu.grid", "...\n.o.\n...\n"),
    "slitherlink": ("slitherlink.grid", "3..\n...\n..3\n"),
    "starbattle": ("starbattle.grid", "stars: 1\n....\n....\n....\n....\nrooms:\naabb\naabb\nccdd\nccdd\n"),
    # every optimal pen walls row 4, column 3; the budget's second wall may go on any grass left outside
    "horse": ("horse.grid", "budget: 2\nC.....\n~.~.~~\n.~H~.C\n.C.C.~\nC.~~..\n"),
}


def _model(name):
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file

    spec_file, text = SMALL[name]
    spec = parse_file(REPO / "puzzles" / spec_file)
    symbols = check(spec)
    model, seconds = load_checked(spec, symbols, parse_map(text, f"<{name}>", spec.puzzle.name))
    return model, seconds


def _shared(model, backend="cpsat"):
    """Every (optimal) answer by enumeration: the entries whose value they share, and the others."""
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=10_000)
    assert report.complete and len(report.solutions) >= 2
    shared, differ = {}, set()
    for e in entries(model):
        values = {s.decisions[e.decision].get(e.key, False if e.boolean else None) for s in report.solutions}
        if len(values) == 1:
            shared[e] = values.pop()
        else:
            differ.add(e)
    return shared, differ


@pytest.mark.parametrize("name", sorted(SMALL))
def test_forced_is_exactly_what_every_answer_shares(name):
    model, seconds = _model(name)
    shared, differ = _shared(model)
    report, forced = solve_forced(model, "cpsat", SolveOptions(time_limit=120), seconds)
    assert forced.complete and not forced.unknown
    assert dict(forced.forced) == shared
    assert set(forced.open) == differ
    assert report.unique is False and len(report.solutions) == 2


def test_forced_walls_of_every_best_pen():
    model, seconds = _model("horse")
    _, forced = solve_forced(model, "cpsat", SolveOptions(time_limit=120), seconds)
    walls = sorted(model.grid.cell(e.key) for e, v in forced.forced if v is True)
    assert walls == [(3, 2)]


def test_every_backend_finds_the_same_forced_cells(backend):
    model, seconds = _model("nurikabe")
    _, forced = solve_forced(model, backend, SolveOptions(time_limit=120), seconds)
    assert forced.complete
    assert [(model.grid.cell(e.key), v) for e, v in forced.forced] == [((1, 1), True)]
    assert sorted(model.grid.cell(e.key) for e in forced.open) == [(0, 1), (1, 0)]


def test_a_unique_puzzle_is_all_forced_and_says_so(capsys):
    code = main(["solve", str(REPO / "puzzles" / "sudoku.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "sudoku" / "pzprjs_4x4.txt"), "--forced"])
    out = capsys.readouterr().out
    assert code == 0
    assert "forced: 16 of the 16 cells hold the same value in every answer; the answer is unique" in out
    assert "unique: the solution is the only one (proved)" in out


def test_a_run_cut_short_names_the_unknown_cells():
    model, _ = _model("nurikabe")
    options = SolveOptions(time_limit=60)
    options.deadline = Deadline(0.5)
    report, session = first_answer(model, "cpsat", options, 2)
    while not options.deadline.expired():
        time.sleep(0.05)
    forced = forced_entries(report, session)
    assert not forced.complete and forced.forced == [] and forced.solves == 0
    assert len(forced.unknown) == 3


def test_forced_text_marks_open_cells_and_json_lists_them(capsys, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from gridlang.service.schemas import validator

    path = tmp_path / "two.txt"
    path.write_text(SMALL["nurikabe"][1], encoding="utf-8")
    spec = str(REPO / "puzzles" / "nurikabe.grid")
    assert main(["solve", spec, "--map", str(path), "--forced"]) == 0
    out = capsys.readouterr().out
    assert "2?\n?#\n" in out
    assert "open (2, marked ?): row 1, column 2; row 2, column 1" in out
    assert "cells that differ: row 1, column 2; row 2, column 1" in out
    assert main(["solve", spec, "--map", str(path), "--forced", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    validator("solve").validate(record)
    assert record["forced"] == {"shaded": [[[1, 1], 1]]}
    assert record["open"] == [[0, 1], [1, 0]] and record["unknown"] == [] and record["forced_complete"] is True
    assert record["unique"] is False
    del jsonschema


def test_forced_with_count_is_refused(capsys):
    code = main(["solve", str(REPO / "puzzles" / "nurikabe.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt"), "--forced", "--unique"])
    assert code == 1
    assert "--forced finds the answers it needs itself" in capsys.readouterr().err


def test_the_forced_picture_greys_the_open_cells(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(SMALL["nurikabe"][1], encoding="utf-8")
    svg = tmp_path / "forced.svg"
    assert main(["solve", str(REPO / "puzzles" / "nurikabe.grid"), "--map", str(path), "--forced",
                 "--svg", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.count('class="open"') == 4  # two grey squares, two question marks
    capsys.readouterr()


def test_a_half_typed_akari_forces_exactly_the_cells_no_light_can_take():
    """A map as a setter has it half typed has many answers: 38 solves on clingo, each opening the
    entries its answer changes, until 13 cells are proved dark in every answer and 80 open."""
    found = gridlang.forced(gridlang.bundled("akari"), map=REPO / "tests" / "data" / "why" / "akari_10x10_half.txt",
                            time_limit=120)
    assert found.complete and not found.unknown
    assert found.forced == {"light": {cell: False for cell in [(0, 9), (1, 1), (1, 3), (1, 4), (1, 5), (2, 1), (2, 2),
                                                               (2, 3), (2, 5), (2, 9), (4, 1), (4, 2), (4, 3)]}}
    assert len(found.open) == 80
