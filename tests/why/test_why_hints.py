"""``gridlang hint``: on the shipped genre instances (a walk of puzzles/instances, no genre named)
the steps reach the whole verified answer, and every step is checked again on CP-SAT: the cells it
decides follow from its rule instances and known cells alone. The small instances run by default,
all up to 10 x 10 under ``-m slow``."""

from __future__ import annotations

import json
import re

import pytest
from horse_data import REPO
from hypothesis import assume, given
from hypothesis import strategies as st
from why_data import shipped_instances, unproved_step

from gridlang.cli import main
from gridlang.compiler import compile_tagged
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load
from gridlang.why import solve_hints

SMALL = 4
"""The default run takes the instances of at most this many cells a side."""


def _check(spec, path):
    model, seconds = load(spec, path)
    report, hints = solve_hints(model, "auto", SolveOptions(time_limit=600), seconds)
    assert hints is not None and hints.complete and not hints.open and not hints.unknown, path
    decided = {}
    for step in hints.steps:
        for e, v in step.decides:
            assert e not in decided, f"{path}: {e} decided twice"
            decided[e] = v
    answer = report.solution.decisions
    assert all(answer[e.decision].get(e.key, False if e.boolean else None) == v for e, v in decided.items())
    assert len(decided) == sum(len(d.cells) for d in model.decisions)
    tagged, tagging = compile_tagged(model)
    for k, step in enumerate(hints.steps, start=1):
        known = [e.literal(v) for e, v in step.known]
        failed = unproved_step(tagged, tagging.tags, step.groups, known, [e.literal(v) for e, v in step.decides])
        assert failed is None, f"{path}: step {k} ({len(step.groups)} rules, {len(known)} known, " \
            f"minimal {step.minimal}) is not shown to follow from its rules and cells: {failed}"
    return hints


DEAR = {"armyants": 376, "icewalk": 88, "lither": 22, "guidearrow": 109}
"""Small instances whose whole hint takes long, with the seconds one took in the default run (2026-12-02, on
two cores): their answers hold numbering decisions (a path's positions, a line's depths, Guide Arrow's
distances to the goal) that the step search decides cell by cell. They run under ``-m slow`` with the larger instances."""


def _small():
    for spec, path in shipped_instances(SMALL):
        marks = (pytest.mark.slow,) if spec.stem in DEAR else ()
        yield pytest.param(spec, path, id=f"{spec.stem}-{path.stem}", marks=marks)


@pytest.mark.parametrize("spec, path", list(_small()))
def test_hints_reach_the_answer_and_every_step_follows(spec, path):
    _check(spec, path)


@pytest.mark.slow
@pytest.mark.parametrize("spec, path", [sp for sp in shipped_instances(10) if sp not in shipped_instances(SMALL)],
                         ids=lambda p: p.stem)
def test_hints_on_every_instance_up_to_10x10(spec, path):
    _check(spec, path)


def test_the_first_steps_are_the_easiest():
    hints = _check(REPO / "puzzles" / "nurikabe.grid", REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
    first = hints.steps[0]
    assert first.cost == (1, 0)  # the clue 1's island is itself alone: its four neighbours are shaded
    assert first.instances[0].binding == "c = row 4, column 3 (clue 1)"
    assert sorted((e.key, v) for e, v in first.decides) == [(12, True), (16, True), (18, True), (22, True)]


def test_hint_text_names_each_step(capsys):
    code = main(["hint", str(REPO / "puzzles" / "nurikabe.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("step 1 (1 rule, 0 known): row 3, column 3 is shaded; row 4, column 2 is shaded; "
                          "row 4, column 4 is shaded; row 5, column 3 is shaded\n  by ")
    assert ("nurikabe.grid:22:56: each island has as many cells as its number  "  # the rule's name
            "[c = row 4, column 3 (clue 1)]") in out
    assert "\n. 5 # # #\n. # 2 . #\n. # # # #\n. # 1 # .\n# # # 3 .\n" in out  # as solve prints it
    assert "difficulty 1.75: easy (step 5, 1 rule and 3 known, is the hardest; " in out
    steps = re.findall(r"^step (\d+) ", out, flags=re.M)
    assert steps == [str(k) for k in range(1, len(steps) + 1)]
    assert f"solved in {len(steps)} steps, each checked" in out


def test_hint_json_validates_and_gives_steps(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from gridlang.service.schemas import validator

    code = main(["hint", "--url", "https://puzz.link/p?sudoku/4/4/g1k23k3g", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    validator("hint").validate(record)
    assert record["complete"] is True and record["unique"] is True and record["open"] == []
    decided = sorted(kv for step in record["steps"] for kv in step["decides"]["digit"])
    assert decided == sorted(record["decisions"]["digit"])
    first = record["steps"][0]
    assert first["cost"] == [1, 0] and first["cells"] == [] and first["rules"][0]["rule"].startswith("for each g")
    assert all(step["minimal"] for step in record["steps"])  # no core's shrinking ran out of its budget
    del jsonschema


def test_hint_on_a_puzzle_with_two_answers_leaves_the_open_cells(capsys):
    import gridlang

    hints = gridlang.hints(gridlang.bundled("nurikabe"), map="2.\n..\n")
    assert not hints.complete and hints.open == [(0, 1), (1, 0)]
    assert [step.decides for step in hints.steps] == [{"shaded": {(1, 1): True}}]
    assert hints.result.unique is False


def test_a_step_picture_highlights_what_it_uses_and_decides(tmp_path, capsys):
    svg = tmp_path / "step.svg"
    code = main(["hint", str(REPO / "puzzles" / "nurikabe.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt"), "--step", "8", "--svg", str(svg)])
    assert code == 0
    text = svg.read_text(encoding="utf-8")
    # step 8: the 2x2 window at row 3, column 4 (four cells), three known cells, one cell decided
    assert text.count('class="uses rule"') == 4
    assert text.count('class="known"') == 3
    assert text.count('class="decides"') == 1
    capsys.readouterr()


def test_steps_stops_early_and_names_the_rest_unknown(capsys):
    code = main(["hint", str(REPO / "puzzles" / "nurikabe.grid"), "--map",
                 str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt"), "--steps", "2", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert len(record["steps"]) == 2 and record["complete"] is False and len(record["unknown"]) == 21 - 6


def test_entries_left_unknown_on_cells_and_edges_are_listed_cells_first(capsys):
    import gridlang

    path = REPO / "puzzles" / "instances" / "numberlink" / "cspuz_6x6.txt"
    hints = gridlang.hints(gridlang.bundled("numberlink"), map=path, max_steps=1)
    assert len(hints.steps) == 1 and not hints.complete
    kinds = [isinstance(k[0], tuple) for k in hints.unknown]
    assert kinds == sorted(kinds) and kinds[0] is False and kinds[-1] is True  # cells, then edges
    code = main(["hint", str(REPO / "puzzles" / "numberlink.grid"), "--map", str(path), "--steps", "1", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0 and len(record["unknown"]) == len(hints.unknown)
    assert isinstance(record["unknown"][0][0], int) and isinstance(record["unknown"][-1][0], list)


@given(st.integers(1, 40), st.lists(st.sets(st.integers(0, 39), min_size=1, max_size=5), min_size=1, max_size=4))
def test_shrink_leaves_a_minimal_subset_in_order(n, needed):
    # holds(S): S contains one of the needed sets; monotone, as unit propagation from more known cells is.
    from gridlang.why.hints import shrink

    items = list(range(n))
    needed = [t for t in needed if t <= set(items)]
    assume(needed)
    calls = []

    def holds(subset):
        calls.append(len(subset))
        return any(t <= set(subset) for t in needed)

    kept = shrink(items, holds)
    assert kept == sorted(kept) and set(kept) <= set(items)  # a subset, in the items' order
    assert holds(kept)
    assert all(not holds([x for x in kept if x != y]) for y in kept)  # no single item can go


def test_shrink_needs_few_calls_when_few_items_are_needed():
    from gridlang.why.hints import shrink

    calls = []

    def holds(subset):
        calls.append(1)
        return 517 in subset and 3 in subset

    assert shrink(range(1024), holds) == [3, 517]
    assert len(calls) < 64  # one item at a time would take 1,024


def _oracle(seconds: float):
    """An oracle over a real 5x5 Nurikabe whose deadline is ``seconds`` away."""
    from gridlang.core.deadline import Deadline
    from gridlang.why.oracle import Oracle

    model, _ = load(REPO / "puzzles" / "nurikabe.grid",
                    REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
    tagged, tagging = compile_tagged(model)
    return Oracle(tagged, tagging, Deadline(seconds))


def test_a_solver_call_in_flight_is_stopped_at_the_deadline():
    # A slice of a 10x10 Snake Eggs can run for seconds; the oracle interrupts it at the
    # deadline instead of reading the clock after it (a hint run ended 11 s past 600 s so).
    # Here the solver's call waits until it is interrupted, as a long search would.
    import threading
    import time

    oracle = _oracle(0.5)
    interrupted = threading.Event()
    searches = []

    def solve_limited(assumptions=(), expect_interrupt=False):
        searches.append(expect_interrupt)
        if expect_interrupt:  # the first slice, in this thread, spent its conflicts undecided
            interrupted.wait(30)

    oracle.solver.solve_limited = solve_limited
    oracle.solver.interrupt = interrupted.set
    oracle.solver.clear_interrupt = interrupted.clear
    t0 = time.monotonic()
    assert oracle.check(oracle.groups).status == "unknown"
    assert time.monotonic() - t0 < 5  # the deadline, its grace and a wide margin; 30 s without the interrupt
    assert searches[0] is False and len(searches) > 1 and all(searches[1:])
    oracle.close()


def test_a_call_that_ignores_the_interrupt_is_left_behind_and_the_solver_used_no_more(monkeypatch):
    # The call goes on in its thread; touching its solver again could crash the process, so
    # every later question is unknown (propagation derives nothing) and close() leaves it be.
    import threading
    import time

    import gridlang.core.deadline

    monkeypatch.setattr(gridlang.core.deadline, "ABANDON_AFTER", 0.1)
    oracle = _oracle(0.3)
    released = threading.Event()
    real = oracle.solver
    # its first slice, in this thread, spends its conflicts undecided; the next ignores the interrupt
    oracle.solver = type("Deaf", (), {"solve_limited": lambda self, assumptions=(), expect_interrupt=False:
                                      released.wait(30) if expect_interrupt else None,
                                      "interrupt": lambda self: None,
                                      "conf_budget": lambda self, n: None,
                                      "accum_stats": lambda self: {"conflicts": 0}})()
    t0 = time.monotonic()
    assert oracle.check(oracle.groups).status == "unknown"
    assert time.monotonic() - t0 < 5 and oracle.abandoned
    # Nothing reaches the solver now: it has no add_clause, propagate or delete to call.
    assert oracle.check(oracle.groups).status == "unknown"
    assert oracle.propagate(oracle.groups) == set()
    oracle.add_clause([1])
    oracle.close()
    released.set()
    real.delete()


def test_a_step_not_shown_minimal_says_so():
    from dataclasses import replace

    from gridlang.why.render import step_text

    model, _ = load(REPO / "puzzles" / "nurikabe.grid", REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
    _, hints = solve_hints(model, "auto", SolveOptions(time_limit=60), {}, max_steps=1)
    step = hints.steps[0]
    assert "not shown minimal" not in step_text(model, 1, step)
    cut_short = replace(step, minimal=False)
    assert step_text(model, 1, cut_short).startswith("step 1 (1 rule, 0 known; not shown minimal: some may be spare): ")


def test_the_final_grid_is_drawn_as_solve_draws_it(capsys):
    spec, path = str(REPO / "puzzles" / "sudoku.grid"), str(REPO / "puzzles" / "instances" / "sudoku" / "pzprjs_4x4.txt")
    assert main(["solve", spec, "--map", path]) == 0
    solved = capsys.readouterr().out.split("\n\n")[0]
    assert main(["hint", spec, "--map", path]) == 0
    out = capsys.readouterr().out
    assert "\n\n" + solved + "\n\nsolved in " in out
    assert solved.startswith("+---")  # the boxes outlined, as solve draws them


def test_a_bundled_spec_is_named_by_its_file_name_and_one_here_by_its_relative_path(tmp_path, monkeypatch, capsys):
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    monkeypatch.chdir(tmp_path)  # not the checkout: the spec is the bundled one, wherever installed
    assert main(["hint", "--url", url, "--steps", "1"]) == 0
    out = capsys.readouterr().out
    assert "\n  by nurikabe.grid:22:56: each island has as many cells as its number  [c = " in out
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "n.grid").write_text((REPO / "puzzles" / "nurikabe.grid").read_text(encoding="utf-8"),
                                               encoding="utf-8")
    assert main(["hint", str(tmp_path / "mine" / "n.grid"), "--url", url, "--steps", "1"]) == 0
    assert "\n  by mine/n.grid:22:56: each island has as many cells as its number  [c = " in capsys.readouterr().out


def test_the_oracle_encodes_no_more_rows_once_the_time_is_out():
    # A 5x5 Ichimaga-X has 300 rows of 100 weighted terms whose encoding took minutes and
    # gigabytes: the oracle reads the deadline before each row and, past it, makes no call.
    from gridlang.core.deadline import Deadline
    from gridlang.ir.model import Linear
    from gridlang.why.oracle import Oracle

    model, _ = load(REPO / "puzzles" / "nurikabe.grid", REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
    tagged, tagging = compile_tagged(model)
    assert any(isinstance(c, Linear) for c in tagged.constraints)
    oracle = Oracle(tagged, tagging, Deadline(0))
    assert oracle.abandoned
    assert oracle.check(oracle.groups).status == "unknown" and oracle.calls == 0
    alive = Oracle(tagged, tagging, Deadline(None))
    assert not alive.abandoned and alive.check(alive.groups).status == "sat"
