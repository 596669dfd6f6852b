"""The line genres (Masyu, Numberlink, Slitherlink) and the decisions on edges they are stated with.

* Each edge construct's lowering is counted against brute force: every
  subset of a tiny map's edges is judged by the interpreter (BFS on the
  chosen edges, no IR), and each backend must enumerate exactly the
  subsets it accepts.
* The real instances in ``puzzles/instances/{masyu,numberlink,slitherlink}``
  (solved to their published answers by tests/puzzles/test_instances.py):
  the genre's independent verifier accepts the answer and rejects it with
  one edge moved.
* puzz.link URLs of these genres: flags refused by name, bodies located;
  ``--json`` lists edges as ``[[[r1, c1], [r2, c2]], value]``; misuse is a
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
from gridlang.formats.puzzlink import decode
from gridlang.ir.backend import SolveOptions, backend_names
from gridlang.ir.solution import Solution
from gridlang.language.checker import check
from gridlang.language.parser import parse_file, parse_spec
from gridlang.plugins import find_plugin
from gridlang.solving.pipeline import load_checked, solve_model

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
BACKENDS = tuple(backend_names())
GENRES = ("masyu", "numberlink", "slitherlink")
PUZZLE = {"masyu": "Masyu", "numberlink": "Numberlink", "slitherlink": "Slitherlink"}


LOOP = "tile cell '.'\ntile clue number\ndecide line: bool on edges\nrequire line is a loop\n"
CASES = {
    "loop between cells": (LOOP, "...\n...\n...\n", "edges", 13),
    "loop on corners": ("tile cell '.'\ndecide line: bool on corner edges\nrequire line is a loop\n",
                        "..\n..\n", "corners", 13),
    "degree on corners": ("tile cell '.'\ntile clue number\ndecide line: bool on corner edges\n"
                          "require for each c in clue: degree(line, c) == value(c)\nrequire line is a loop\n",
                          "2.\n..\n", "corners", None),
    "turn": (LOOP + "require for each c in clue: turn(line, c)\n", "...\n.1.\n...\n", "edges", None),
    "straight beside": (LOOP + "require for each c in clue: straight(line, c)\n"
                               "require for each c in clue: line[c, c + up] implies not straight(line, c + up)\n",
                        "...\n1..\n...\n", "edges", None),
    "component along": ("tile cell '.'\ntile clue number\ndecide line: bool on edges\n"
                        "require for each c in clue: degree(line, c) == 1\n"
                        "require for each p in cell: degree(line, p) == 0 or degree(line, p) == 2\n"
                        "require for each c in clue: count(clue and component of c along line) == 2\n"
                        "require for each c in clue: value(clue and component of c along line) == 2 * value(c)\n",
                        "1.2\n...\n1.2\n", "edges", None),
    "crossing room borders": (LOOP + "require for each room m: sum(count(line[p, q] for q in neighbours(p) and "
                                     "not room(p)) for p in m) == 2\n",
                              "...\n...\n...\nrooms:\naab\naab\nccb\n", "edges", None),
    "component of a set": ("tile cell '.'\ntile clue number\ndecide line: bool on edges\n"
                           "require for each c in clue: degree(line, c) == 1\n"
                           "require for each p in cell: degree(line, p) == 0 or degree(line, p) == 2\n"
                           "require for each cell p: degree(line, p) > 0 implies p in (component of clue along line)\n",
                           "1..\n...\n..2\n", "edges", None),
}


@functools.lru_cache(maxsize=None)
def brute_force(spec_text: str, map_text: str, lattice: str) -> frozenset[frozenset]:
    *_, grid, judge = _judge(spec_text, map_text)
    edges = lattice_edges(grid.rows, grid.cols, lattice)
    found = set()
    for bits in itertools.product((False, True), repeat=len(edges)):
        chosen = {e: True for e, b in zip(edges, bits) if b}
        if judge.evaluate({"line": chosen}).ok:
            found.add(frozenset(chosen))
    return frozenset(found)


@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_lowering_matches_brute_force(name, backend):
    spec_text, map_text, lattice, size = CASES[name]
    expected = brute_force(spec_text, map_text, lattice)
    assert expected and (size is None or len(expected) == size)
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    assert {frozenset(s.decisions["line"]) for s in report.solutions} == expected
    assert report.complete is True


def test_brute_force_counts():
    """The counts themselves: 13 cycles in the 3x3 grid graph; 12 simple paths between the opposite
    corners of a 3x3 grid, no loop beside them; the other cases have few answers."""
    counts = {name: len(brute_force(*CASES[name][:3])) for name in CASES}
    assert counts == {"loop between cells": 13, "loop on corners": 13, "degree on corners": 3,
                      "turn": 8, "straight beside": 4, "component along": 7,
                      "component of a set": 12, "crossing room borders": 7}


# ------------------------------------------------------------------ instances

def _known(genre: str, name: str) -> set:
    """The published answer's edges (``NAME.answer.json``)."""
    answer = json.loads((PUZZLES / "instances" / genre / f"{name}.answer.json").read_text(encoding="utf-8"))
    return {(tuple(a), tuple(b)) for (a, b), v in answer["decisions"]["line"] if v}


def test_domain_of_a_tile_values():
    """``values of clue``: the distinct numbers on the map, ascending, after the listed values."""
    spec = ("tile cell '.'\ntile clue number\ndecide n: {0} | values of clue on all\n"
            "require for each c in clue: n[c] = value\nrequire for each p in cell: n[p] = 0\n")
    spec_, symbols, data, _, _ = _judge(spec, "3 . 12\n. 3 .\n")
    model, _ = load_checked(spec_, symbols, data, {})
    assert model.decisions[0].values == (0, 3, 12)
    report = solve_model(model, "cpsat", count=3)
    assert [s.decisions["n"] for s in report.solutions] == [{0: 3, 1: 0, 2: 12, 3: 0, 4: 3, 5: 0}]


@pytest.mark.parametrize("genre", GENRES)
def test_spec_is_short(genre):
    """Its statements, less comments, the `draw` lines (how it looks) and the URL format's lines (how its URLs
    read), fit in 12 lines: they are its rules."""
    from gridlang.language import ast

    path = PUZZLES / f"{genre}.grid"
    spec = parse_file(path)
    formats = {n for f in spec.of(ast.Format) for n in range(f.span.line, max(i.span.line for i in f.items) + 1)}
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len([ln for k, ln in enumerate(lines, 1)
                if k not in formats and ln.strip() and not ln.lstrip().startswith(("#", "draw "))]) <= 12


def _grid(genre: str, name: str):
    spec = parse_file(PUZZLES / f"{genre}.grid")
    return build_grid(check(spec), read_map(PUZZLES / "instances" / genre / f"{name}.txt", spec.puzzle.name))


@pytest.mark.parametrize("genre,name,words", [
    ("masyu", "pzprjs_6x6", "dead ends"),
    ("numberlink", "cspuz_6x6", "lines end, branch or cross away from numbers"),
    ("slitherlink", "cspuz_4x4", "sides on the loop"),
])
def test_verifier_accepts_the_answer_and_rejects_a_broken_one(genre, name, words):
    grid = _grid(genre, name)
    plugin = find_plugin(PUZZLE[genre])
    edges = sorted(_known(genre, name))
    assert plugin.verify(grid, Solution({"line": {e: True for e in edges}}, {}), {}).ok
    broken = Solution({"line": {e: True for e in edges[1:]}}, {})
    verdict = plugin.verify(grid, broken, {})
    assert not verdict.ok
    assert any(words in p for p in verdict.problems), verdict.problems


def test_masyu_verifier_reads_the_circles():
    """A loop round the whole 6x6 board is one loop, but breaks the circles' rules."""
    grid = _grid("masyu", "pzprjs_6x6")
    ring = {e: True for e in lattice_edges(6, 6, "edges")
            if all(r in (0, 5) for r in (e[0][0], e[1][0])) and e[0][0] == e[1][0]
            or all(c in (0, 5) for c in (e[0][1], e[1][1])) and e[0][1] == e[1][1]}
    verdict = find_plugin("Masyu").verify(grid, Solution({"line": ring}, {}), {})
    assert not verdict.ok
    assert any("misses the circle at row 2, column 2" in p for p in verdict.problems), verdict.problems


# ------------------------------------------------------------------ URLs

@pytest.mark.parametrize("url,words,column", [
    ("https://puzz.link/p?masyu/f/4/4/0003i0", "the flags 'f'", 27),
    ("https://puzz.link/p?slither/5/5/cbcb", "the data ends after 12 cells; a 5x5 grid has 25", 37),
    ("https://puzz.link/p?numlin/3/1/1.1", "a number not given (?) has no tile in", 33),
    ("https://puzz.link/p?numlin/x/3/1/1g1", "the flags 'x'", 28),
])
def test_bad_line_urls(url, words, column):
    with pytest.raises(GridlangError) as info:
        decode(url)
    assert words in str(info.value)
    assert info.value.span.column == column


def test_url_solves_with_the_bundled_spec(capsys):
    code = cli.main(["solve", "--url", "https://puzz.link/p?slither/4/4/dgdh2c71", "--unique", "--json",
                     "--backend", "cpsat"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["puzzle"] == "Slitherlink" and out["verified"] is True and out["unique"] is True
    got = {(tuple(a), tuple(b)) for (a, b), v in out["decisions"]["line"] if v == 1}
    assert got == _known("slitherlink", "cspuz_4x4")
    assert all(len(entry) == 2 and len(entry[0]) == 2 and len(entry[0][0]) == 2 for entry in out["decisions"]["line"])


# Arukone: pzprjs test/script/arukone.js (MIT licence), its 4x4 puzzle and the
# answer its test accepts with every cell on a line ("passallcell").
ARUKONE_URL = "https://puzz.link/p?arukone/4/4/12l3123j"
ARUKONE_ANSWER = {((0, 0), (1, 0)), ((0, 1), (0, 2)), ((0, 2), (0, 3)), ((0, 3), (1, 3)), ((1, 0), (1, 1)),
                  ((1, 1), (2, 1)), ((1, 2), (1, 3)), ((1, 2), (2, 2)), ((2, 0), (3, 0)), ((2, 3), (3, 3)),
                  ((3, 0), (3, 1)), ((3, 1), (3, 2)), ((3, 2), (3, 3))}


@pytest.mark.parametrize("backend", BACKENDS)
def test_arukone_url_fills_every_cell_and_is_unique(backend, capsys):
    code = cli.main(["solve", "--url", ARUKONE_URL, "--unique", "--json", "--backend", backend])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["puzzle"] == "Arukone" and out["verified"] is True and out["unique"] is True
    assert {(tuple(a), tuple(b)) for (a, b), v in out["decisions"]["line"] if v == 1} == ARUKONE_ANSWER


def test_arukone_e_flag_lets_cells_stay_empty(capsys):
    # Janko's Arukone 181 leaves two cells empty: as pzprjs's arukone (every
    # cell on a line) it has no answer; with the e flag (empty_cells = 1) it
    # is Numberlink's puzzle, and Numberlink's answer.
    body = "8/8/g3k64l1j2m5k6134y5k2"
    assert "empty_cells: 1" in decode(f"https://puzz.link/p?arukone/e/{body}").text.splitlines()
    assert cli.main(["solve", "--url", f"https://puzz.link/p?arukone/{body}", "--backend", "asp"]) == 2
    assert "INFEASIBLE" in capsys.readouterr().out
    assert cli.main(["solve", "--url", f"https://puzz.link/p?arukone/e/{body}", "--unique", "--json",
                     "--backend", "asp"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["puzzle"] == "Arukone" and out["unique"] is True and out["verified"] is True
    assert cli.main(["solve", "--url", f"https://puzz.link/p?numlin/{body}", "--unique", "--json",
                     "--backend", "asp"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"]["line"] == out["decisions"]["line"]
    on_line = {tuple(p) for (a, b), v in out["decisions"]["line"] if v == 1 for p in (a, b)}
    assert len(on_line) == 62


def test_json_answer_verifies(tmp_path, capsys):
    spec, map_ = str(PUZZLES / "masyu.grid"), str(PUZZLES / "instances" / "masyu" / "pzprjs_6x6.txt")
    assert cli.main(["solve", spec, "--map", map_, "--json", "--backend", "cpsat"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["decisions"]["line"][0] == [[[0, 0], [0, 1]], 1]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    assert cli.main(["verify", spec, "--map", map_, "--solution", str(path)]) == 0
    answer["decisions"]["line"] = answer["decisions"]["line"][1:]
    path.write_text(json.dumps(answer), encoding="utf-8")
    assert cli.main(["verify", spec, "--map", map_, "--solution", str(path)]) != 0
    answer["decisions"]["line"] = [[[[0, 0], [1, 1]], 1]]
    path.write_text(json.dumps(answer), encoding="utf-8")
    assert cli.main(["verify", spec, "--map", map_, "--solution", str(path)]) != 0
    assert "no edge of 'line'" in capsys.readouterr().err


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("rule,words,column", [
    ("require count(line) == 2", "'line' is a decision on edges, not a cell set", 15),
    ("require for each cell p: line[p]", "'line' is a decision on edges", 26),
    ("require for each cell p: straight(line, p)", "'line' is on corner edges, so this takes a corner", 41),
    ("require for each cell p: degree(x, p) == 2", "'x' is a decision on cells", 33),
    ("require for each cell p: not (line is a loop)", "'is a loop' is a rule of its own", 31),
])
def test_edge_misuse_is_located(rule, words, column):
    text = f"tile cell '.'\ndecide x: bool on all\ndecide line: bool on corner edges\n{rule}\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert words in str(info.value)
    assert f"t.grid:4:{column}:" in str(info.value)


# ------------------------------------------------------------------ files and pictures

def test_files_hold_a_loop_or_refuse_it(tmp_path, capsys):
    """A single loop goes into a CP-SAT file as a circuit and into an ASP program as reachability;
    the lazy edge cuts cannot live in a file, so the other formats refuse it by name."""
    spec, map_ = str(PUZZLES / "masyu.grid"), str(PUZZLES / "instances" / "masyu" / "pzprjs_6x6.txt")
    assert cli.main(["export", spec, "--map", map_, "--format", "pbtxt", "--output", str(tmp_path / "m.pbtxt")]) == 0
    assert "circuit" in (tmp_path / "m.pbtxt").read_text(encoding="utf-8")
    assert cli.main(["export", spec, "--map", map_, "--format", "asp", "--output", str(tmp_path / "m.lp")]) == 0
    assert (tmp_path / "m.lp").read_text(encoding="utf-8").count("gedge(0,") == 60
    capsys.readouterr()
    for fmt in ("lp", "wcnf"):
        assert cli.main(["export", spec, "--map", map_, "--format", fmt, "--output", str(tmp_path / f"m.{fmt}")]) != 0
        assert "'line' is connected through chosen edges" in capsys.readouterr().err


def test_picture_draws_the_line(tmp_path):
    spec, map_ = str(PUZZLES / "slitherlink.grid"), str(PUZZLES / "instances" / "slitherlink" / "cspuz_4x4.txt")
    assert cli.main(["solve", spec, "--map", map_, "--svg", str(tmp_path / "s.svg")]) == 0
    svg = (tmp_path / "s.svg").read_text(encoding="utf-8")
    path = svg.split('<path class="line line" d="')[1].split('"')[0]
    assert path.count("M") == len(_known("slitherlink", "cspuz_4x4")) == 22
    assert path.startswith("M8,8 L40,8 ")  # the top edge of cell (0, 0): corners (0, 0) and (0, 1), 32 px apart


# ------------------------------------------------------------------ more real URLs

MORE = [
    # SmilingWayne/PuzzleSolver, docs/puzzles/slitherlink.md: Janko's Slitherlink 421 on puzz.link
    pytest.param("https://puzz.link/p?slither/10/10/ic5137bg7bchbgdccb7dgddg7ddabdgdhc7bg7316dbg", id="janko-421"),
    # puzsq.logicpuzzle.app, puzzles 101601 and 14223 (Puzzle Square JP), in their puzz.link form
    pytest.param("https://puzz.link/p?slither/10/10/ld1080ddnbg2836dn1dn5380dgdnc0632daj", id="puzsq-101601"),
    pytest.param("https://puzz.link/p?slither/10/10/58287d517c11ch11bg222cg37d82226c73bg322dg12ch23a617b68388d",
                 id="puzsq-14223"),
]


@pytest.mark.parametrize("url", MORE)
def test_every_backend_proves_the_same_unique_loop(url, capsys):
    """No answer is stored: a verified answer proved unique is the puzzle's, and the backends agree on it."""
    answers = {}
    for backend in BACKENDS:
        code = cli.main(["solve", "--url", url, "--unique", "--json", "--backend", backend, "--time-limit", "120"])
        out = json.loads(capsys.readouterr().out)
        assert (code, out["verified"], out["unique"]) == (0, True, True), backend
        answers[backend] = out["decisions"]["line"]
    first = next(iter(answers.values()))
    assert all(a == first for a in answers.values())


def test_bundled_specs_are_installed_with_the_package(tmp_path):
    # Run outside the checkout: the genre's spec comes from the installed package.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "gridlang", "solve", "--url", ARUKONE_URL, "--json",
                          "--backend", "asp"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["puzzle"] == "Arukone" and answer["verified"] is True
    assert Path(answer["spec"]).name == "arukone.grid" and Path(answer["spec"]).is_file()


# Real 10x10 Numberlink URLs from public puzzle lists (docs/benchmarks.md, "Line genres"). The MILP is
# left out: HiGHS finds no answer to either within 60 s (the relaxation is a fractional routing that
# its LP cannot tell from a real one; docs/benchmarks.md says what was tried).
NUMBERLINK_10X10 = [
    pytest.param("https://puzz.link/p?numlin/10/10/1h2j65s5h3h1zk4y6k2i3m4l", id="numlin-1h2j65"),
    pytest.param("https://puzz.link/p?numlin/10/10/2n1h4o3o2o51o6g6o5zj3n4", id="numlin-2n1h4o",
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("url", NUMBERLINK_10X10)
def test_numberlink_10x10_has_one_answer_every_sat_backend_agrees_on(url, capsys):
    """Proved unique and verified on CP-SAT, MaxSAT and clingo, and the same lines on each."""
    answers = {}
    for backend in ("cpsat", "maxsat", "asp"):
        code = cli.main(["solve", "--url", url, "--unique", "--json", "--backend", backend, "--time-limit", "120"])
        out = json.loads(capsys.readouterr().out)
        assert (code, out["verified"], out["unique"]) == (0, True, True), backend
        answers[backend] = (out["decisions"]["line"], out["decisions"]["number"])
    first = next(iter(answers.values()))
    assert all(a == first for a in answers.values())
    # Every cell is on a line in both answers: 100 cells on 6 paths are 94 chosen edges of the 180.
    assert sum(value for _, value in first[0]) == 94


def _squares(*tops):
    """The four edges around each 1x1 square of corners whose top-left corner is given."""
    out = {}
    for r, c in tops:
        for e in (((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                  ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))):
            out[e] = True
    return out


@pytest.mark.parametrize("rule,words", [
    ("require line is a loop", "the chosen edges of 'line' form more than one loop"),
    ("require line is connected", "the chosen edges of 'line' fall into 2 pieces (4, 4 points)"),
])
def test_two_separate_squares_break_loop_and_connected(rule, words):
    # Corners of a 3x3 map: the squares at (0, 0) and (2, 2) share no corner.
    *_, judge = _judge(f"tile cell '.'\ndecide line: bool on corner edges\n{rule}\n", "...\n...\n...\n")
    assert judge.evaluate({"line": _squares((0, 0))}).ok
    verdict = judge.evaluate({"line": _squares((0, 0), (2, 2))})
    assert not verdict.ok
    assert words in verdict.render(), verdict.render()
