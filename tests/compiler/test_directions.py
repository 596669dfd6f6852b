"""Decided directions (gridlang.compiler.directions): ``p + dir[p]``, counted against brute force on every backend.

Each case is a tiny spec whose decision ``dir`` takes a direction or
``none`` on every cell; the verifier judges every assignment of ``dir``
(and of ``shaded`` where the spec has it), and each backend must
enumerate exactly the answers it accepts. The counts are the brute
force's, written down so that a verifier that accepted nothing could not
pass:

* "steps into a set": on ``.x`` over ``..`` every blank cell beside the
  wall ``x`` points at it (the top-left cell right, the bottom-right one
  up), the bottom-left one, with no wall beside it, and ``x`` point
  nowhere: 1 answer.
* "points off the grid": on a 1x2 map with none, left or right,
  ``not shaded[p + dir[p]]`` holds where dir points off the grid or
  nowhere: 9 answers unshaded, 6 with either cell shaded, 4 with both, 25.
* "the neighbour it points at": ``q = p + dir[q]`` inside a count, on a
  1x3 map: the middle cell is pointed at by both ends in 3 of the 27
  assignments, 24.
* "two steps": ``dir[p + dir[p]] = none`` for every cell that points, on
  a 1x3 map; off the grid there is no value, so no end cell points out:
  4 answers with the middle pointing nowhere, 1 with it pointing left, 1
  right, 6.
* "the other way": ``shaded[p - dir[p]]`` and ``p + -dir[p] + dir[p]``
  (p itself when p - dir[p] is on the grid) on a 1x2 map: the left cell
  may point left only with the right one shaded and itself not, the
  right one right in the mirror case, both never: 4 + 1 + 1, 6.
* "an arrow's direction": ``dir[c] = direction(c)`` for the arrows the map
  gives (``>`` and ``<``) or none, the blank cells none or up: 2 x 2 x 2 x
  2, 16.
* "a line of sight": ``sight from p toward dir[p] through all`` holds one
  shaded cell, on a 1x3 map: summed over the 8 shadings, the choices of
  the three cells multiply to 1 + 4 + 4 + 4 + 4 + 12 + 4 + 3, 36.
"""

from __future__ import annotations

import itertools
import json

import pytest
from processes import gridlang_process
from tiny import spec_errors
from tiny import spec_judge as _judge

from gridlang.core.errors import GridlangError
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

DIRS = ("none", "up", "down", "left", "right")
HEAD = (
    "tile blank '.'\ntile wall 'x'\ndecide dir: {none, up, down, left, right} on all\n"
)
SHADED = "decide shaded: bool on all\n"

CASES = {
    "steps into a set": (
        HEAD
        + "require for each p in blank: wall[p + dir[p]] or (dir[p] = none and not any(wall[q] for q in "
        "neighbours(p)))\nrequire for each p in wall: dir[p] = none\n",
        ".x\n..\n",
        1,
    ),
    "points off the grid": (
        HEAD + SHADED + "require for each cell p: not shaded[p + dir[p]]\n"
        "require for each cell p: dir[p] = none or dir[p] = left or dir[p] = right\n",
        "..\n",
        25,
    ),
    "the neighbour it points at": (
        HEAD
        + "require for each cell p: count(q = p + dir[q] for q in neighbours(p)) <= 1\n"
        "require for each cell p: dir[p] = none or dir[p] = left or dir[p] = right\n",
        "...\n",
        24,
    ),
    "two steps": (
        HEAD
        + "require for each cell p: dir[p] != none implies dir[p + dir[p]] = none\n"
        "require for each cell p: dir[p] != up and dir[p] != down\n",
        "...\n",
        6,
    ),
    "the other way": (
        HEAD
        + SHADED
        + "require for each cell p: dir[p] != none implies shaded[p - dir[p]] and "
        "not shaded[p + -dir[p] + dir[p]]\n"
        "require for each cell p: dir[p] != up and dir[p] != down\n",
        "..\n",
        6,
    ),
    "an arrow's direction": (
        HEAD.replace("tile wall 'x'", "tile given '^' 'v' '<' '>'")
        + "require for each c in given: dir[c] = direction(c) or dir[c] = none\n"
        "require for each p in blank: dir[p] = none or dir[p] = up\n",
        ".>\n<.\n",
        16,
    ),
    "a line of sight": (
        HEAD
        + SHADED
        + "require for each cell p: dir[p] != none implies count(shaded and sight from p toward dir[p] "
        "through all) == 1\nrequire for each cell p: dir[p] = none or dir[p] = left or dir[p] = right\n",
        "...\n",
        36,
    ),
}


def _assignments(judge, grid, shaded: bool) -> frozenset:
    """Brute force: every (dir values, shaded cells) the verifier accepts."""
    found = set()
    cells = range(grid.size)
    for values in itertools.product(DIRS, repeat=grid.size):
        for bits in itertools.product((False, True), repeat=grid.size if shaded else 0):
            answer = {"dir": dict(zip(cells, values))}
            if shaded:
                answer["shaded"] = {i: True for i, b in zip(cells, bits) if b}
            if judge.evaluate(answer).ok:
                found.add((values, tuple(i for i, b in zip(cells, bits) if b)))
    return frozenset(found)


@pytest.mark.parametrize("name", sorted(CASES))
def test_decided_steps_match_brute_force(name, backend):
    spec_text, map_text, size = CASES[name]
    spec, symbols, data, grid, judge = _judge(spec_text, map_text)
    shaded = "shaded" in symbols.decisions
    expected = _assignments(judge, grid, shaded)
    assert len(expected) == size
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=size + 3)
    assert report.complete is True
    got = {
        (
            tuple(s.decisions["dir"][i] for i in range(grid.size)),
            tuple(sorted(s.decisions.get("shaded", {}))),
        )
        for s in report.solutions
    }
    assert got == expected


BAD = "tile blank '.'\ndecide dir: {none, up, down, left, right} on all\ndecide digit: 1..3 on all\n"


@pytest.mark.parametrize(
    "rule, column, words",
    [
        (
            "require for each cell p: count(all) == dir[p]",
            40,
            "dir[...] is a direction, neither a number nor a condition",
        ),
        (
            "require for each cell p: dir[p]",
            26,
            "dir[...] is a direction, neither a number nor a condition",
        ),
        (
            "require for each cell p: dir[p] = north",
            35,
            "'north' is not a value of 'dir'",
        ),
        (
            "require for each cell p: digit[dir[p] + p] == 1",
            32,
            "write the cell first: p + d",
        ),
    ],
)
def test_a_direction_where_it_cannot_stand_is_located(rule, column, words):
    errors = spec_errors(BAD + rule + "\n")
    assert [(line, col) for line, col, _ in errors] == [(4, column)]
    assert words in errors[0][2]


@pytest.mark.parametrize(
    "rule, column",
    [
        (
            "require for each cell p, each q in neighbours(p + dir[p]): digit[q] == 1",
            51,
        ),
        ("require for each cell p: sum(digit[q + dir[q]] for q in all) == 3", 40),
    ],
)
def test_a_step_no_condition_holds_is_an_error_at_it(rule, column):
    spec, symbols, data, _, _ = _judge(BAD + rule + "\n", "..\n")
    with pytest.raises(GridlangError) as e:
        load_checked(spec, symbols, data, {})
    assert (e.value.span.line, e.value.span.column) == (4, column)
    assert "is a direction the answer decides" in e.value.message


@pytest.mark.parametrize(
    "look, text, svg",
    [
        ("", "> <", 'class="arrow right dir-right"'),
        ("draw dir as tips\n", "> <", 'class="tip right dir-right"'),
    ],
)
def test_a_decided_direction_is_drawn_as_arrows_or_tips(tmp_path, look, text, svg):
    spec = tmp_path / "d.grid"
    spec.write_text(
        HEAD
        + "require for each cell p: count(q = p + dir[p] for q in neighbours(p)) == 1\n"
        + look
    )
    (tmp_path / "m.txt").write_text("..\n")
    out = gridlang_process(
        "solve",
        str(spec),
        "--map",
        str(tmp_path / "m.txt"),
        "--svg",
        str(tmp_path / "d.svg"),
        "--json",
        "--time-limit",
        "60",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["decisions"]["dir"] == [
        [[0, 0], "right"],
        [[0, 1], "left"],
    ]
    plain = gridlang_process(
        "solve", str(spec), "--map", str(tmp_path / "m.txt"), "--time-limit", "60"
    )
    assert plain.stdout.splitlines()[0] == text
    assert svg in (tmp_path / "d.svg").read_text()


def test_a_corner_stepped_by_a_decided_direction_is_no_corner_where_the_value_is_none(backend):
    # One cell, its four sides as corner edges: with dir none, v + dir[p] is no corner and every one of
    # the 16 sets of sides holds; with a direction, the two sides along it from the corners it leaves
    # the cell by are barred, 4 sets each: 16 + 4 x 4. The verifier reads v + dir[p] where the value
    # is none as no corner too (it raised a TypeError, as the compiler did).
    spec = (
        "tile blank '.'\ndecide dir: {none, up, down, left, right} on all\ndecide line: bool on corner edges\n"
        "require for each p in all, each v in corners(p): not line[v, v + dir[p]]\n"
    )
    spec_ast, symbols, data, _grid, judge = _judge(spec, ".\n")
    model, _ = load_checked(spec_ast, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=40)
    assert report.complete is True and len(report.solutions) == 32
    assert sum(1 for s in report.solutions if s.decisions["dir"][0] == "none") == 16
    assert all(judge.evaluate(s.decisions).ok for s in report.solutions)
