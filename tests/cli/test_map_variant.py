"""A map says which rules it is for (`variant: NAME` above the grid), and a spec for other rules refuses it
at that line, naming the spec to use; the bundled variant maps carry the line their manifest gives."""

from __future__ import annotations

import json

import pytest
from horse_data import HORSE_DATA, REPO, known_optimum, manifest

from gridlang.cli import main
from gridlang.core.errors import MapError
from gridlang.formats.maps import parse_map, stated_variant

COSTLY = "puzzles/maps/bonus-2026-03-26-costlywalls.txt"


@pytest.fixture(autouse=True)
def in_the_repository(monkeypatch):
    monkeypatch.chdir(REPO)  # the paths in the messages are the ones given on the command line


@pytest.mark.parametrize("spec, rules, use", [
    ("puzzles/horse.grid", "standard", "puzzles/horse_costlywalls.grid"),
    ("puzzles/horse_lovebirds.grid", "lovebirds", "puzzles/horse_costlywalls.grid"),
])
def test_a_map_for_other_rules_is_refused_at_its_header(capsys, spec, rules, use):
    assert main(["solve", spec, "--map", COSTLY]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"{COSTLY}:1:10: error: this map is for the costlywalls rules, but {spec} states the {rules} ones (use {use})",
        "    variant: costlywalls",
        "             ^^^^^^^^^^^",
    ]


def test_a_map_stating_the_standard_rules_is_refused_by_a_variant_spec(tmp_path, capsys):
    daily = (REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text()
    path = tmp_path / "daily.txt"
    path.write_text("variant: standard\n" + daily)
    assert main(["solve", "puzzles/horse_costlywalls.grid", "--map", str(path)]) == 1
    assert capsys.readouterr().err.startswith(
        f"{path}:1:10: error: this map is for the standard rules, but puzzles/horse_costlywalls.grid states the "
        "costlywalls ones (use puzzles/horse.grid)\n")
    assert main(["verify", "puzzles/horse_costlywalls.grid", "--map", str(path), "--solution", str(path)]) == 1
    assert "this map is for the standard rules" in capsys.readouterr().err


def test_the_variant_header_is_the_rules_never_a_parameter(capsys):
    entry = next(e for e in manifest() if e["file"] == COSTLY.rsplit("/", 1)[1])
    assert main(["solve", "puzzles/horse_costlywalls.grid", "--map", COSTLY, "--backend", "cpsat", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["objective"]) == ("OPTIMAL", known_optimum(entry))
    assert record["params"] == {"budget": 13, "wall_cost": 6}
    data = parse_map("variant: lovebirds\nbudget: 3\n~H~\n~U~\n", "m.txt")
    assert data.variant[0] == "lovebirds" and (data.variant[1].line, data.variant[1].column) == (1, 10)
    assert list(data.params) == ["budget"] and data.rows == ["~H~", "~U~"]
    record = parse_map(json.dumps({"map": "~H~\n", "variant": "costlywalls", "budget": 2}), "m.json")
    assert record.variant[0] == "costlywalls" and list(record.params) == ["budget"]


@pytest.mark.parametrize("text, message, where", [
    ("variant: costly walls\n~H~\n", "variant: names the rules the map is for, one word", (1, 10)),
    ("variant: lovebirds\nvariant: lovebirds\n~H~\n", "header 'variant' is given twice", (2, 1)),
    ('{"map": "~H~", "variant": 3}', '"variant" names the rules the map is for, as a string', (1, 27)),
])
def test_a_malformed_variant_header_is_a_located_error(text, message, where):
    with pytest.raises(MapError) as caught:
        parse_map(text, "m.txt")
    assert message in caught.value.message
    assert (caught.value.span.line, caught.value.span.column) == where


def test_every_bundled_variant_map_states_the_variant_of_its_manifest_record():
    for entry in manifest():
        stated = stated_variant(HORSE_DATA / entry["file"])
        assert stated == (None if entry["variant"] == "standard" else entry["variant"]), entry["file"]
    for path in sorted((REPO / "puzzles" / "maps").glob("*.txt")):
        kind = path.stem.rsplit("-", 1)[1] if path.name.startswith("bonus-") else None
        assert stated_variant(path) == kind, path.name
