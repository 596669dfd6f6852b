"""Triangles (gridlang.constructs.triangles): ``tri leaves rectangles`` counted against brute force.

Every answer of a tiny map is judged by the interpreter (the white quarters
of the cells joined into pieces, each piece filling its bounding box,
upright or turned by 45 degrees), and each backend must enumerate exactly
the answers it accepts; the lowering forbids runs of white angles round
each cross instead. Some counts are closed: one cell, or two, leave a
rectangle only when white (a triangle leaves a 45-degree angle against the
frame), so 1; a 2x2 map its white square and the diamond round its centre
(``◤◥`` over ``◣◢``), so 2; a 2x3 map those two, the diamond in either
2x2 half (the third column a 2x1 rectangle), so 3; a 2x2 map with one
black cell none (the white L, or a triangle's 45 degrees against the black
cell); a 2x3 map with a black corner one, the diamond beside it.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from tiny import solved_answers, spec_errors
from tiny import spec_judge as _judge

VALUES = (".", "◣", "◢", "◥", "◤")
TRI = "tile cell '.'\ntile black '#'\ndecide tri: {'.', '◣', '◢', '◥', '◤'} on cell\nrequire tri leaves rectangles\n"
CASES = {
    "one cell": (".\n", 1),
    "1x2": ("..\n", 1),
    "2x2": ("..\n..\n", 2),
    "2x3": ("...\n...\n", 3),
    "2x3 with a black cell": ("grid:\n#..\n...\n", None),
    "2x2 with a black cell": ("grid:\n#.\n..\n", 0),
}


COVERS = ("tile cell '.'\ntile black '#'\ndecide tri: {'.', '◣', '◢', '◥', '◤'} on cell\n"
          "require for each p in cell, each direction d: covers(tri, p, d) implies covers(tri, p + d, -d)\n"
          "require count(covers(tri, p, up) for p in cell) >= 1\n")
CASES_COVERS = {
    "covers 2x2": ("..\n..\n", 1),
    "covers 2x2 with a black cell": ("grid:\n.#\n..\n", 0),
}


@functools.cache
def brute_force(name: str) -> frozenset[frozenset]:
    map_text, _ = CASES[name] if name in CASES else CASES_COVERS[name]
    *_, grid, judge = _judge(TRI if name in CASES else COVERS, map_text)
    free = [i for i in range(grid.size) if grid.chars[i] == "."]
    return frozenset(frozenset(zip(free, v)) for v in itertools.product(VALUES, repeat=len(free))
                     if judge.evaluate({"tri": dict(zip(free, v))}).ok)


@pytest.mark.parametrize("name", sorted(CASES))
def test_rectangles_match_brute_force(name, backend):
    map_text, size = CASES[name]
    expected = brute_force(name)
    assert size is None or len(expected) == size
    spec, symbols, data, grid, _ = _judge(TRI, map_text)
    assert solved_answers(spec, symbols, data, grid, backend, "tri", expected) == expected


@pytest.mark.parametrize("name", sorted(CASES_COVERS))
def test_covers_matches_brute_force(name, backend):
    """``covers(tri, p, d)``: each side a triangle covers faces a triangle that covers the side across it
    (none across the frame or a black cell), and some triangle covers its top side: on the 2x2 only
    ``◢◣`` over ``◥◤``, each triangle covering its two inner sides; with a black cell, none."""
    map_text, size = CASES_COVERS[name]
    expected = brute_force(name)
    assert size is None or len(expected) == size
    spec, symbols, data, grid, _ = _judge(COVERS, map_text)
    assert solved_answers(spec, symbols, data, grid, backend, "tri", expected) == expected


def test_brute_force_counts():
    counts = {name: len(brute_force(name)) for name in CASES}
    assert counts == {"one cell": 1, "1x2": 1, "2x2": 2, "2x3": 3, "2x3 with a black cell": 1,
                      "2x2 with a black cell": 0}


def test_a_white_area_that_is_no_rectangle_is_named():
    *_, judge = _judge(TRI, "..\n..\n")
    verdict = judge.evaluate({"tri": {0: "◤", 1: ".", 2: ".", 3: "."}})
    assert not verdict.ok
    assert "the white area at row 1, column 1 (4 cells in part or whole) is no rectangle" in str(
        verdict.violations[0])


@pytest.mark.parametrize("spec, where, words", [
    ("tile cell '.'\ndecide kind: {a, b} on all\nrequire for each p in cell: covers(kind, p, up)\n", (3, 36),
     "covers(...) takes a decision on cells whose values include the triangles '◣', '◢', '◥', '◤'; 'kind' has none"),
    ("tile cell '.'\ndecide tri: {'.', '◣'} on all\nrequire for each p in cell: covers(tri, p, p)\n", (3, 44),
     "the third argument of covers(...) is a direction"),
    ("tile cell '.'\ndecide kind: {a, b} on all\nrequire kind leaves rectangles\n", (3, 9),
     ("'leaves rectangles' takes a decision on cells whose values include the triangles '◣', '◢', '◥', '◤'; "
      "'kind' is a decision whose values are no triangles")),
    ("tile cell '.'\ndecide tri: {'.', '◣'} on all\nrequire not (tri leaves rectangles)\n", (3, 14),
     "'leaves rectangles' is a rule of its own"),
    ("tile cell '.'\ndecide tri: {'.', '◣'} on all\nrequire for each p in cell: tri[p] = '◢'\n", (3, 38),
     "'◢' is not a value of 'tri' (its value names: ., ◣)"),
    ("tile cell '.'\ndecide kind: {a, b} on all\ndraw kind as triangles\n", (3, 14),
     "'triangles' draws the values '◣', '◢', '◥', '◤' as half-cell triangles; 'kind' has none of them"),
])
def test_misuse_is_a_located_error(spec, where, words):
    errors = spec_errors(spec)
    assert [(line, col) for line, col, _ in errors] == [where]
    assert words in errors[0][2]
