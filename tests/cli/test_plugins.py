"""Puzzle plug-ins: found by the spec's puzzle name, their hooks reach the CLI,
and the generic layers name no puzzle."""

from __future__ import annotations

import json
import re

import pytest
from horse_data import REPO
from snake_data import INSTANCES

from gridlang import plugins
from gridlang.cli import main
from gridlang.core.errors import MapError
from gridlang.families.horse import HorsePlugin
from gridlang.families.snake_eggs import SnakeEggsPlugin
from gridlang.formats.maps import read_map
from gridlang.plugins import DEFAULT, Plugin, find_plugin
from gridlang.solving.pipeline import solve

HORSE = REPO / "puzzles" / "horse.grid"
DAILY_07 = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
RECORD = REPO / "tests" / "data" / "snake_eggs" / "jandhyala_ch32_6x6.json"


@pytest.mark.parametrize("name, kind", [
    ("enclose.horse", HorsePlugin), ("Enclose.Horse", HorsePlugin), ("ENCLOSE.HORSE", HorsePlugin),
    ("Snake Eggs", SnakeEggsPlugin), ("snake eggs", SnakeEggsPlugin), ("SNAKE  EGGS", SnakeEggsPlugin),
])
def test_plugin_is_found_by_name_whatever_the_case(name, kind):
    plugin = find_plugin(name)
    assert type(plugin) is kind
    assert plugin is find_plugin(name.lower())  # imported once, then kept


@pytest.mark.parametrize("name", ["kakuro", "paths", "", None, "enclose.horses"])
def test_unknown_puzzle_gets_the_default_plugin_whose_hooks_do_nothing(name):
    plugin = find_plugin(name)
    assert plugin is DEFAULT and plugin.name == ""
    assert (plugin.verify(None, None, {}), plugin.render(None, None), plugin.read_map("m", "x"),
            plugin.summary(None, None), plugin.extras(None, None)) == (None, None, None, [], {})


def test_horse_extras_hold_the_walls_of_the_solved_daily():
    report = solve(HORSE, DAILY_07)  # the budget comes from the file's header
    assert report.score == 66
    plugin = find_plugin(report.model.name)
    extras = plugin.extras(report.model, report.solution)
    assert extras["budget"] == 12
    assert len(extras["walls"]) == 12
    assert extras["walls"] == report.verdict.details["walls"]
    rows = DAILY_07.read_text().splitlines()[1:]
    assert {rows[r][c] for r, c in extras["walls"]} == {"."}
    assert plugin.summary(report.model, report.solution) == ["walls 12/12"]
    assert plugin.extras(report.model, None) == {"walls": None, "budget": 12}


def test_snake_record_is_read_by_its_plugin_and_refused_by_another():
    text = read_map(INSTANCES / "jandhyala_ch32_6x6.txt")
    assert read_map(RECORD, "Snake Eggs").rows == text.rows  # the spec's plug-in
    assert read_map(RECORD).rows == text.rows  # no puzzle named: every plug-in is asked
    with pytest.raises(MapError) as e:
        read_map(RECORD, "enclose.horse")
    assert e.value.message == 'a JSON map is an object with a "map" string'
    assert (e.value.span.line, e.value.span.column) == (1, 1)


# A plug-in from outside the package: registered by module path, found by name.
TALLY_MODULE = '''
from gridlang.formats.maps import MapData
from gridlang.plugins import Plugin


class Tally(Plugin):
    name = "tally"

    def read_map(self, path, text):
        if not text.startswith("TALLY "):
            return None
        width = int(text.split()[1])
        return MapData(path, text, ["xx" + "." * (width - 2)], [(1, 1)], {"k": ("2", None)})

    def summary(self, model, solution):
        return [f"marked {len(solution.true_cells('mark'))}"]

    def extras(self, model, solution):
        return {"marked": None if solution is None else solution.true_cells("mark")}


PLUGIN = Tally()
'''

TALLY_SPEC = '''puzzle "Tally Marks"
tile cell '.'
tile spot 'x' value 1
param k: int >= 0
decide mark: bool on spot
require count(mark) == k
maximize value(mark)
'''


@pytest.fixture
def tally(tmp_path, monkeypatch):
    (tmp_path / "tally_plugin.py").write_text(TALLY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(plugins, "_REGISTRY", dict(plugins._REGISTRY))
    monkeypatch.setattr(plugins, "_LOADED", dict(plugins._LOADED))
    plugins.register("tally marks", "tally_plugin")
    spec = tmp_path / "tally.grid"
    spec.write_text(TALLY_SPEC)
    grid = tmp_path / "row.tally"
    grid.write_text("TALLY 5\n")
    return spec, grid


def test_registered_plugin_reads_its_map_and_fills_the_status_line_and_json(tally, capsys):
    spec, grid = tally
    assert isinstance(find_plugin("Tally Marks"), Plugin) and find_plugin("TALLY MARKS").name == "tally"
    assert main(["solve", str(spec), "--map", str(grid)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# # . . .\n")  # no renderer of its own: drawn from the spec's looks
    assert "score 2 (checked by the spec's rules)   status OPTIMAL   marked 2   backend" in out
    assert main(["solve", str(spec), "--map", str(grid), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tally"] == {"marked": [0, 1]}
    assert data["decisions"] == {"mark": [[[0, 0], 1], [[0, 1], 1]]}
    assert data["verifier"] == "spec"


def test_json_of_a_puzzle_without_plugin_carries_decisions_only(tmp_path, capsys):
    spec = tmp_path / "plain.grid"
    spec.write_text(TALLY_SPEC.replace("Tally Marks", "Plain Marks"))
    grid = tmp_path / "plain.txt"
    grid.write_text("k: 3\nx.xx\n")
    assert main(["solve", str(spec), "--map", str(grid), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] == {"mark": [[[0, 0], 1], [[0, 2], 1], [[0, 3], 1]]}
    assert not {"walls", "budget", "horse", "snake_eggs", "tally"} & set(data)


# ------------------------------------------------- the generic layers know no puzzle

# "wall-clock" is a measure of time, not the puzzle's wall.
PUZZLE_WORDS = re.compile(r"horse|snake|egg|wall(?!-clock)", re.IGNORECASE)


GENERIC = sorted(str(p.relative_to(REPO / "gridlang"))
                 for pattern in ("cli/*.py", "compiler/*.py", "interpreter/*.py", "formats/maps.py", "solving/pipeline.py")
                 for p in (REPO / "gridlang").glob(pattern))


def test_the_generic_layers_are_all_there():
    assert {"cli/commands.py", "compiler/core.py", "interpreter/core.py", "formats/maps.py", "solving/pipeline.py"} <= set(GENERIC)


@pytest.mark.parametrize("module", GENERIC)
def test_generic_layers_name_no_puzzle(module):
    text = (REPO / "gridlang" / module).read_text(encoding="utf-8")
    found = [f"{module}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}" for m in PUZZLE_WORDS.finditer(text)]
    assert found == []
