"""Point symmetry (gridlang.constructs.symmetry), counted against brute force on every backend.

``shaded is symmetric about x`` on a 2x3 map: the half-turn about the
centre of cell (0, 1) pairs (0, 0) with (0, 2), keeps (0, 1) and sends
the lower row off the grid, so 2 x 2 = 4 sets; about the middle of the
border under (0, 1) it pairs the six cells three by three, 2^3 = 8; about
the corner between the four left cells it pairs (0, 0) with (1, 1) and
(0, 1) with (1, 0) and sends the right column off the grid, 4.

``wall divides all into regions symmetric about ...``, every set of walls
judged by the verifier: a 2x2 with a dot on its centre corner is one
region, no wall (1 answer); a 1x4 with dots on its end cells and on the
middle border is three regions (1); a 3x3 with a dot on its centre cell is
one region (1); a 2x4 with a dot on the border under (0, 1) and one on
the corner below (0, 2) has none (the border's region would hold (0, 0)
and its mirror (1, 2), which the corner's region holds) (0).
"""

from __future__ import annotations

import itertools

import pytest
from processes import gridlang_process
from tiny import judged_answers, solved_answers, spec_errors
from tiny import spec_judge as _judge

from gridlang.core.errors import GridlangError
from gridlang.core.grid import lattice_edges
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

BASE = "tile cell '.'\ntile dot 'o'\ndecide shaded: bool on all\n"
BORDERS = "tile nothing '.' on borders\ntile border_dot 'o' on borders\n"
CORNERS = "tile nothing '.' on corners\ntile corner_dot 'o' on corners\n"
CASES = {
    "about a cell": (BASE + "require for each d in dot: shaded is symmetric about d\n", ".o.\n...\n", 4),
    "about a border": (BASE + BORDERS + "require for each b in border_dot: shaded is symmetric about b\n",
                       "...\n...\nborders:\n . .\n. o .\n . .\n", 8),
    "about a corner": (BASE + CORNERS + "require for each v in corner_dot: shaded is symmetric about v\n",
                       "...\n...\ncorners:\n....\n.o..\n....\n", 4),
}


DIVIDES = ("tile cell '.'\ntile dot 'o'\ntile none '.' on borders\ntile bdot 'o' on borders\n"
           "tile nc '.' on corners\ntile cdot 'o' on corners\ndecide wall: bool on edges\n"
           "require wall divides all into regions symmetric about dot, bdot, cdot\n")
DIVIDED = {
    "2x2 corner": ("..\n..\nborders:\n.\n..\n.\ncorners:\n...\n.o.\n...\n", 1),
    "1x4": ("o..o\nborders:\n. o .\ncorners:\n.....\n.....\n", 1),
    "3x3 centre": ("...\n.o.\n...\nborders:\n..\n...\n..\n...\n..\ncorners:\n....\n....\n....\n....\n", 1),
    "2x4": ("....\n....\nborders:\n...\n.o..\n...\ncorners:\n.....\n...o.\n.....\n", 0),
}


def _walls(judge, grid) -> frozenset:
    """Brute force: every set of walls the verifier accepts."""
    edges = lattice_edges(grid.rows, grid.cols, "edges")
    found = set()
    for bits in itertools.product((False, True), repeat=len(edges)):
        chosen = frozenset(e for e, b in zip(edges, bits) if b)
        if judge.evaluate({"wall": dict.fromkeys(chosen, True)}).ok:
            found.add(chosen)
    return frozenset(found)


@pytest.mark.parametrize("name", sorted(DIVIDED))
def test_division_matches_brute_force(name, backend):
    map_text, size = DIVIDED[name]
    spec, symbols, data, grid, judge = _judge(DIVIDES, map_text)
    expected = _walls(judge, grid)
    assert len(expected) == size
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=size + 3)
    if expected:
        assert report.complete is True
    else:  # a search that ran out of time would find none either: no answer must be proved
        assert report.status == "INFEASIBLE"
    assert {frozenset(e for e, v in s.decisions["wall"].items() if v) for s in report.solutions} == expected


def test_a_cell_no_point_reaches_is_an_error_at_the_map():
    spec, symbols, data, _, _ = _judge(DIVIDES, "o.o\nborders:\n. .\ncorners:\n....\n....\n")
    with pytest.raises(GridlangError, match="no point of the regions has this cell's mirror image") as e:
        load_checked(spec, symbols, data, {})
    assert "row 1, column 2" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_symmetry_matches_brute_force(name, backend):
    spec_text, map_text, size = CASES[name]
    spec, symbols, data, grid, judge = _judge(spec_text, map_text)
    expected = judged_answers(judge, grid, "shaded")
    assert len(expected) == size
    assert solved_answers(spec, symbols, data, grid, backend, "shaded", expected) == expected


def test_a_missing_mirror_is_named_by_the_verifier():
    spec_text, map_text, _ = CASES["about a cell"]
    *_, judge = _judge(spec_text, map_text)
    verdict = judge.evaluate({"shaded": {0: True, 1: True}})
    assert not verdict.ok
    assert ("row 1, column 1 is in it, and its mirror image is row 1, column 3, not in it"
            in str(verdict.violations[0]))
    assert judge.evaluate({"shaded": {0: True, 1: True, 2: True}}).ok


@pytest.mark.parametrize("spec, where, words", [
    (BASE + "require for each row r: shaded is symmetric about r\n", (4, 51),
     "'is symmetric about' takes a point: one cell"),
    (BASE + "require for each d in dot: not (shaded is symmetric about d)\n", (4, 33),
     "'is symmetric about' is a rule of its own"),
    (BASE + "require for each d in dot: count(shaded) is symmetric about d\n", (4, 28),
     "'is symmetric about' applies to a set of cells; this is a linear sum"),
    (BASE + "require shaded divides all into regions symmetric about dot\n", (4, 9),
     "'divides ... into regions' takes a Boolean decision on edges between cells"),
    (BASE + "decide wall: bool on edges\nrequire wall divides all into regions symmetric about cell, row\n",
     (5, 61), "'symmetric about' names the tiles that hold the regions' points"),
    (BASE + "decide wall: bool on edges\nrequire wall divides shaded into regions symmetric about dot\n", (5, 22),
     "'divides ... into regions' cuts a fixed cell set"),
])
def test_misuse_is_a_located_error(spec, where, words):
    errors = spec_errors(spec)
    assert [(line, col) for line, col, _ in errors] == [where]
    assert words in errors[0][2]


@pytest.mark.parametrize("spec_text, map_text, where, words", [
    (BASE + "require for each row r: shaded is symmetric about r\n", ".o.\n...\n", "s.grid:4:51: error: ",
     "'is symmetric about' takes a point"),
    (DIVIDES.replace("dot, bdot, cdot", "dot, rows"), "o\nborders:\ncorners:\n..\n..\n", "s.grid:8:60: error: ",
     "'rows' is not declared"),
    (DIVIDES, "o.o\nborders:\n. .\ncorners:\n....\n....\n", "m.txt:1:2: error: ",
     "no point of the regions has this cell's mirror image"),
])
def test_the_command_line_locates_the_error(tmp_path, spec_text, map_text, where, words):
    """A misused construct is one located sentence with a caret, exit 1, and no traceback."""
    (tmp_path / "s.grid").write_text(spec_text, encoding="utf-8")
    (tmp_path / "m.txt").write_text(map_text, encoding="utf-8")
    done = gridlang_process("solve", "s.grid", "--map", "m.txt", "--time-limit", "10", cwd=tmp_path)
    assert done.returncode == 1
    assert where in done.stderr and words in done.stderr and "^" in done.stderr
    assert "Traceback" not in done.stderr
