"""Small-integer decisions on edges (Hashiwokakero's bridges) and the named corners of the lattice.

* Each construct's lowering is counted against brute force: every
  assignment of values to a tiny map's edges is judged by the interpreter
  (sums and BFS over the given edges, no IR), and each backend must
  enumerate exactly the assignments it accepts.
* The real Hashiwokakero instances (solved to their published answers by
  tests/puzzles/test_instances.py): the genre's verifier accepts them and
  rejects a changed bridge.
* Slitherlink stated with explicit corner rules (degree 0 or 2 at every
  corner, each clue counted over the cell's corners, the line connected)
  gives the bundled spec's unique answer on its instances.
* A changed decision is a violation located at its rule; misuse is a
  located error.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
from tiny import spec_judge as _judge

from gridlang import cli
from gridlang.core.errors import GridlangError
from gridlang.core.grid import lattice_edges
from gridlang.formats.maps import build_grid, read_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import Interpreter
from gridlang.ir.backend import SolveOptions, backend_names
from gridlang.ir.solution import Solution
from gridlang.language.checker import check
from gridlang.language.parser import parse_file, parse_spec
from gridlang.plugins import find_plugin
from gridlang.solving.pipeline import load_checked, solve, solve_model

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
HASHI = PUZZLES / "instances" / "hashiwokakero"
BACKENDS = tuple(backend_names())


INT = "tile cell '.'\ntile clue number\ndecide b: 0..2 on edges\n"
CORNERS = "tile cell '.'\ntile clue number\ndecide line: bool on corner edges\n"
ZERO_OR_TWO = "require for each corner v: degree(line, v) == 0 or degree(line, v) == 2\n"
# name: (spec, map, lattice, values an edge takes, the number of answers when known by hand)
CASES = {
    "integer degree": (INT + "require for each c in clue: degree(b, c) == value(c)\n"
                             "require for each p in cell: degree(b, p) <= 2\n", "3..\n..1\n", "edges", (0, 1, 2), None),
    "integer edge value": (INT + "require for each p in cell: b[p, p + left] == b[p, p + right]\n"
                                 "require for each p in cell: b[p, p + up] + b[p, p + down] == 0\n"
                                 "require for each c in clue: degree(b, c) == value(c)\n",
                           "1.1\n2.2\n", "edges", (0, 1, 2), 2),
    "sum over neighbours": (INT + "require for each c in clue: sum(b[c, q] for q in neighbours(c)) == value(c)\n"
                                  "require for each p in cell: count(b[p, q] == 2 for q in neighbours(p)) <= 1\n",
                            "2.\n.2\n", "edges", (0, 1, 2), 7),
    "integer connected": (INT + "require b is connected\nrequire for each c in clue: degree(b, c) > 0\n"
                                "require for each cell p: degree(b, p) <= 2\n", "1.\n.1\n", "edges", (0, 1, 2), None),
    "integer loop": (INT + "require b is a loop\n", "..\n..\n", "edges", (0, 1, 2), 16),
    "integer turn": (INT + "require for each c in clue: turn(b, c)\nrequire for each cell p: degree(b, p) <= 2\n",
                     "1.\n..\n", "edges", (0, 1, 2), 4),
    "integer component": (INT + "require for each c in clue: degree(b, c) == value(c)\n"
                                "require for each p in cell: degree(b, p) == 0 or degree(b, p) == 2\n"
                                "require for each c in clue: count(clue and component of c along b) == 2\n",
                          "1.1\n...\n", "edges", (0, 1, 2), None),
    "corners loop": (CORNERS + ZERO_OR_TWO + "require line is connected\n", "..\n..\n", "corners", (0, 1), 14),
    "corners of a cell": (CORNERS + ZERO_OR_TWO + "require for each c in clue: sum(count(line[v, w] for w in "
                          "corners(c)) for v in corners(c)) == 2 * value(c)\nrequire line is connected\n",
                          "2.\n..\n", "corners", (0, 1), None),
    "straight and turn at corners": (CORNERS + ZERO_OR_TWO + "require line is connected\n"
                                     "require for each c in clue: count(straight(line, v) for v in corners(c)) == "
                                     "value(c)\nrequire for each corner v: turn(line, v) implies "
                                     "degree(line, v + right) + degree(line, v - right) == 2\n",
                                     ".2.\n", "corners", (0, 1), 2),
    "corner offsets": (CORNERS + ZERO_OR_TWO + "require line is connected\n"
                       "require for each c in clue, each corner v, each w in corners(c):\n"
                       "    v = w implies line[v, v + right] or line[v, v - up]\n", "1.\n..\n", "corners", (0, 1), None),
    "integer on corners": ("tile cell '.'\ndecide w: 0..2 on corner edges\n"
                           "require for each corner v: degree(w, v) == 2\n", ".\n", "corners", (0, 1, 2), 3),
}


def _name(spec_text: str) -> str:
    return spec_text.split("decide ")[1].split(":")[0]


def _nonzero(decisions: dict) -> frozenset:
    return frozenset((e, 1 if v is True else v) for e, v in decisions.items() if v is True or type(v) is int and v)


@functools.lru_cache(maxsize=None)
def brute_force(spec_text: str, map_text: str, lattice: str, values: tuple[int, ...]) -> frozenset[frozenset]:
    *_, grid, judge = _judge(spec_text, map_text)
    edges = lattice_edges(grid.rows, grid.cols, lattice)
    name, boolean = _name(spec_text), values == (0, 1)
    found = set()
    for combo in itertools.product(values, repeat=len(edges)):
        given = {e: (v == 1 if boolean else v) for e, v in zip(edges, combo) if v or not boolean}
        if judge.evaluate({name: given}).ok:
            found.add(_nonzero(given))
    return frozenset(found)


@pytest.mark.parametrize("case", sorted(CASES))
def test_lowering_matches_brute_force(case, backend):
    spec_text, map_text, lattice, values, size = CASES[case]
    expected = brute_force(spec_text, map_text, lattice, values)
    assert expected and (size is None or len(expected) == size)
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    assert {_nonzero(s.decisions[_name(spec_text)]) for s in report.solutions} == expected
    assert report.complete is True


def test_brute_force_counts():
    """The counts themselves: a 2x2 loop of 1 or 2 bridges on each of its four edges (16); the 13
    cycles of the 3x3 corner lattice and the empty line (14); the others as the rules leave them."""
    counts = {case: len(brute_force(*CASES[case][:4])) for case in CASES}
    assert counts == {"integer degree": 10, "integer edge value": 2, "sum over neighbours": 7,
                      "integer connected": 7, "integer loop": 16, "integer turn": 4, "integer component": 6,
                      "corners loop": 14, "corners of a cell": 3, "straight and turn at corners": 2,
                      "corner offsets": 5, "integer on corners": 3}


# ------------------------------------------------------------------ Hashiwokakero

def _published(folder: str, name: str, decision: str) -> dict:
    """The published answer's edges with a value other than 0 (``NAME.answer.json``)."""
    answer = json.loads((PUZZLES / "instances" / folder / f"{name}.answer.json").read_text(encoding="utf-8"))
    return {(tuple(a), tuple(b)): v for (a, b), v in answer["decisions"][decision] if v}


def _hashi_known(name: str) -> dict:
    return _published("hashiwokakero", name, "bridge")


def test_hashiwokakero_answers_as_drawn():
    """The published answers, read back: on the 5x5, 20 edges carry bridges, 10 of them two (14
    bridges over 9 spans, 5 of them double); on the 6x6, 33 edges, 9 of them two."""
    for name, edges, doubles in (("pzprjs_5x5", 20, 10), ("cspuz_6x6", 33, 9)):
        known = _hashi_known(name)
        assert (len(known), sum(v == 2 for v in known.values())) == (edges, doubles)


def test_hashiwokakero_verifier_rejects_a_changed_bridge():
    spec = parse_file(PUZZLES / "hashiwokakero.grid")
    grid = build_grid(check(spec), read_map(HASHI / "pzprjs_5x5.txt", "Hashiwokakero"))
    plugin = find_plugin("Hashiwokakero")
    known = _hashi_known("pzprjs_5x5")
    verdict = plugin.verify(grid, Solution({"bridge": dict(known)}, {}), {})
    assert verdict.ok and verdict.details["bridges"] == 14
    lighter = dict(known)
    lighter[((0, 0), (0, 1))] = 1  # one bridge of the double from the 4 over the sea to the 2
    verdict = plugin.verify(grid, Solution({"bridge": lighter}, {}), {})
    assert "a bridge ends or changes in the sea at row 1, column 2" in verdict.problems
    assert "the island 4 at row 1, column 1 has 3 bridges" in verdict.problems
    cut = {e: v for e, v in known.items() if e[0][0] != 4 and e[1][0] != 4}  # no bridge to the bottom row
    verdict = plugin.verify(grid, Solution({"bridge": cut}, {}), {})
    assert any("apart from the one at row 1, column 1" in p for p in verdict.problems), verdict.problems


def test_hashiwokakero_json_lists_every_edge_with_its_value_and_verifies(tmp_path, capsys):
    spec, map_ = str(PUZZLES / "hashiwokakero.grid"), str(HASHI / "pzprjs_5x5.txt")
    assert cli.main(["solve", spec, "--map", map_, "--json", "--backend", "maxsat"]) == 0
    answer = json.loads(capsys.readouterr().out)
    entries = answer["decisions"]["bridge"]
    assert entries[:3] == [[[[0, 0], [0, 1]], 2], [[[0, 0], [1, 0]], 2], [[[0, 1], [0, 2]], 2]]
    assert len(entries) == 40 and sorted({v for _, v in entries}) == [0, 1, 2]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    assert cli.main(["verify", spec, "--map", map_, "--solution", str(path)]) == 0
    capsys.readouterr()
    entries[0][1] = 1  # the double bridge from the 4 at (0, 0) made single
    path.write_text(json.dumps(answer), encoding="utf-8")
    assert cli.main(["verify", spec, "--map", map_, "--solution", str(path)]) != 0
    err = capsys.readouterr()
    assert "hashiwokakero.grid:24:9: rule violated: for each c in clue: degree(bridge, c) == value(c)" in err.out + err.err
    assert "with c = row 1, column 1: 3 == 4 is false" in err.out + err.err


def test_hashiwokakero_picture_draws_double_bridges_as_two_strokes(tmp_path):
    spec, map_ = str(PUZZLES / "hashiwokakero.grid"), str(HASHI / "pzprjs_5x5.txt")
    assert cli.main(["solve", spec, "--map", map_, "--svg", str(tmp_path / "h.svg"), "--backend", "asp"]) == 0
    svg = (tmp_path / "h.svg").read_text(encoding="utf-8")
    path = svg.split('<path class="line bridge" d="')[1].split('"')[0]
    known = _hashi_known("pzprjs_5x5")
    assert path.count("M") == sum(known.values()) == 30


# ------------------------------------------------------------------ Slitherlink by its corners

SLITHER_BY_CORNERS = """\
puzzle "Slitherlink"
tile blank '.'
tile clue '0'-'4' value digit
decide line: bool on corner edges
require for each corner v: degree(line, v) == 0 or degree(line, v) == 2
require for each c in clue: sum(count(line[v, w] for w in corners(c)) for v in corners(c)) == 2 * value(c)
require line is connected
format puzzlink "slither":
    cells: number4
"""


@pytest.mark.parametrize("name", ["pzprjs_5x5", "cspuz_4x4"])
def test_slitherlink_stated_by_its_corners_gives_the_bundled_answer(name, backend, tmp_path):
    spec = tmp_path / "corners.grid"
    spec.write_text(SLITHER_BY_CORNERS, encoding="utf-8")
    instance = PUZZLES / "instances" / "slitherlink" / f"{name}.txt"
    bundled = solve(PUZZLES / "slitherlink.grid", instance, backend="cpsat", unique=True)
    report = solve(spec, instance, backend=backend, unique=True, options=SolveOptions(time_limit=120))
    assert report.verdict is not None and report.verdict.ok, "Slitherlink's own verifier accepted it"
    assert report.unique is True and bundled.unique is True
    known = set(_published("slitherlink", name, "line"))
    assert set(report.solution.decisions["line"]) == set(bundled.solution.decisions["line"]) == known


def _evaluate(spec_text: str, map_path: Path, decisions: dict):
    spec = parse_spec(spec_text, "t.grid")
    symbols = check(spec)
    data = read_map(map_path, spec.puzzle.name if spec.puzzle else None)
    grid = build_grid(symbols, data)
    return Interpreter(spec, symbols, grid, resolve_params(symbols, data, {})).evaluate(decisions)


def test_a_corner_rule_broken_by_a_missing_edge_is_located():
    instance = PUZZLES / "instances" / "slitherlink" / "cspuz_4x4.txt"
    known = _published("slitherlink", "cspuz_4x4", "line")
    assert _evaluate(SLITHER_BY_CORNERS, instance, {"line": {e: True for e in known}}).ok
    broken = {e: True for e in known if e != ((0, 0), (0, 1))}
    verdict = _evaluate(SLITHER_BY_CORNERS, instance, {"line": broken})
    reasons = [(v.span.line, v.span.column, v.reason) for v in verdict.violations]
    assert (5, 9, "with v = the corner at row 1, column 1: the condition is false") in reasons
    assert (5, 9, "with v = the corner at row 1, column 2: the condition is false") in reasons
    assert (6, 9, "with c = row 1, column 1: 4 == 6 is false (the cells counted)") in reasons
    assert len(reasons) == 3, reasons


def test_integer_edges_off_their_domain_or_missing_are_violations_of_the_decide():
    known = _hashi_known("pzprjs_5x5")
    text = (PUZZLES / "hashiwokakero.grid").read_text(encoding="utf-8")
    every = {e: known.get(e, 0) for e in lattice_edges(5, 5, "edges")}
    assert _evaluate(text, HASHI / "pzprjs_5x5.txt", {"bridge": every}).ok
    bad = dict(every)
    bad[((4, 3), (4, 4))] = 3
    del bad[((0, 3), (0, 4))]
    verdict = _evaluate(text, HASHI / "pzprjs_5x5.txt", {"bridge": bad})
    at_decide = [v.reason for v in verdict.violations if v.span.line == 22]
    assert at_decide == ["'bridge' takes values outside its domain (0, 1, 2) on 1 edge(s): ((4, 3), (4, 4)): 3",
                         "'bridge' has no value on 1 of its edges: ((0, 3), (0, 4))"]


# ------------------------------------------------------------------ errors

BASE = ("tile cell '.'\ntile clue number\ndecide x: bool on all\ndecide line: bool on corner edges\n"
        "decide b: 0..2 on edges\n")


@pytest.mark.parametrize("rule,words,column", [
    ("require for each corner v: x[v]", "x[...] takes one cell; this is a corner of the lattice", 30),
    ("require for each corner v: degree(b, v) == 1", "'b' is made on edges between cells", 38),
    ("require for each cell p: line[p, p + up]", "'line' is on corner edges, so this takes a corner", 31),
    ("require for each cell p: straight(line, p)", "'line' is on corner edges, so this takes a corner", 41),
    ("require for each corner v: count(v) == 1", "count(...) takes a cell set; this is a set of lattice corners", 34),
    ("require for each corner v: x in (component of v along b)", "starts from a cell; this is a corner", 47),
    ("require for each cell p, each v in corners(p): v = p", "'v' is a corner; it equals another corner", 52),
    ("require for each corner v, each w in corners(v): line[v, w]", "corners(...) takes one cell; this is a corner",
     46),
    ("require all different b in all", "'b' is a decision on edges", 23),
    ("require (b = 2) in x", "'b' is a decision on edges", 10),
    ("require for each neighbours p, q: b[p] = 1", "'b' is a decision on edges", 35),
    ("require b is connected with size 3", "'with size' counts the cells of a cell set", 34),
    ("require for each cell p: b[p, p + up]", "a rule is a condition; this is a linear sum", 26),
])
def test_misuse_of_corners_and_integer_edges_is_located(rule, words, column):
    with pytest.raises(GridlangError) as info:
        check(parse_spec(BASE + rule + "\n", "t.grid"))
    assert words in str(info.value)
    assert f"t.grid:6:{column}:" in str(info.value)


def test_value_names_on_edges_are_located():
    with pytest.raises(GridlangError) as info:
        check(parse_spec("tile cell '.'\ndecide b: {none, one} | {2} on edges\n", "t.grid"))
    assert "t.grid:2:12: error: a decision on edges takes Boolean or integer values" in str(info.value)


def test_a_comparison_outside_an_edge_domain_is_located(tmp_path):
    spec = tmp_path / "t.grid"
    spec.write_text(INT + "require for each p in cell: b[p, p + right] == 3\n", encoding="utf-8")
    map_ = tmp_path / "m.txt"
    map_.write_text("..\n", encoding="utf-8")
    with pytest.raises(GridlangError) as info:
        solve(spec, map_, backend="cpsat")
    assert "t.grid:4:29: error: b[p, q] == 3 cannot hold: 3 is not a value of 'b' (0..2)" in str(info.value)
