"""Rules with names: ``require "NAME": RULE``. The name is read at its rule, changes nothing the rule
means, and is what hint steps, their JSON and broken-rule reports show; an empty name is an error at
its quotes."""

from __future__ import annotations

import json

import pytest
from tiny import spec_judge

from gridlang.cli import main
from gridlang.core.errors import GridSyntaxError
from gridlang.language.parser import parse_spec

SPEC = """tile blank '.'
tile clue number
decide shaded: bool on blank
require "the shaded cells are connected": shaded is connected
require "each island holds as many cells as its number":
    for each c in clue: count(component of c in not shaded) == value(c)
require for each c in clue: count(clue and component of c in not shaded) == 1
require for each p in blank: not shaded[p] implies any(p in (component of c in not shaded) for c in clue)
"""
MAP = "2...\n....\n...3\n"
ISLANDS = "for each c in clue: count(component of c in not shaded) == value(c)"


def test_each_name_is_read_at_its_rule():
    spec = parse_spec(SPEC, "n.grid")
    assert [spec.name_of(st) for st in spec.statements] == [
        "", "", "", "the shaded cells are connected", "each island holds as many cells as its number", "", ""]


def test_a_name_changes_nothing_the_rule_means():
    unnamed = SPEC.replace('"the shaded cells are connected": ', "").replace(
        '"each island holds as many cells as its number":\n    ', "")
    *_, grid, named_judge = spec_judge(SPEC, MAP)
    *_, _, plain_judge = spec_judge(unnamed, MAP)
    answers = ({}, {grid.index(1, 1): True, grid.index(0, 2): True}, dict.fromkeys((1, 2, 3, 5, 7, 8, 9), True))
    verdicts = [(named_judge.evaluate({"shaded": a}), plain_judge.evaluate({"shaded": a})) for a in answers]
    assert [(named.ok, plain.ok) for named, plain in verdicts] == [(False, False), (False, False), (True, True)]
    for named, plain in verdicts:  # the same violations, a line apart below the name's own line
        assert [(v.span.line, v.reason) for v in named.violations] == [
            (v.span.line + (1 if v.span.line >= 5 else 0), v.reason) for v in plain.violations]


def test_a_broken_named_rule_is_reported_by_its_name_and_text():
    *_, judge = spec_judge(SPEC, MAP)
    verdict = judge.evaluate({"shaded": {}})
    first = verdict.violations[0]
    assert (first.span.line, first.name) == (6, "each island holds as many cells as its number")
    assert first.render().splitlines()[0] == (
        f"t.grid:6:5: rule violated: each island holds as many cells as its number ({ISLANDS})")
    unnamed = [v for v in verdict.violations if v.span.line == 7]
    assert unnamed and unnamed[0].name == "" and "rule violated: for each c in clue" in unnamed[0].render()


def test_hint_steps_show_the_name(tmp_path, capsys):
    (tmp_path / "n.grid").write_text(SPEC)
    (tmp_path / "m.txt").write_text(MAP)
    assert main(["hint", str(tmp_path / "n.grid"), "--map", str(tmp_path / "m.txt"), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    first = steps[0]["rules"][0]
    assert (first["line"], first["name"], first["rule"]) == (
        6, "each island holds as many cells as its number", ISLANDS)
    names = {(r["line"], r["name"]) for s in steps for r in s["rules"]}
    assert names == {(6, "each island holds as many cells as its number"), (8, None)}  # line 8 has no name
    assert main(["hint", str(tmp_path / "n.grid"), "--map", str(tmp_path / "m.txt"), "--step", "1"]) == 0
    out = capsys.readouterr().out
    assert "n.grid:6:5: each island holds as many cells as its number  [c = row 1, column 1 (clue 2)]" in out
    assert ISLANDS not in out


@pytest.mark.parametrize("name", ['""', '"   "'])
def test_an_empty_name_is_an_error_at_its_quotes(name):
    with pytest.raises(GridSyntaxError) as e:
        parse_spec(f"tile blank '.'\ndecide s: bool on all\nrequire {name}: count(s) <= 2\n", "e.grid")
    assert (e.value.span.line, e.value.span.column) == (3, 9)
    assert "a rule's name is empty" in e.value.message
