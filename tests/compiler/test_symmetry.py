"""Point symmetry (gridlang.constructs.symmetry), counted against brute force on every backend.

``shaded is symmetric about x`` on a 2x3 map: the half-turn about the
centre of cell (0, 1) pairs (0, 0) with (0, 2), keeps (0, 1) and sends
the lower row off the grid, so 2 x 2 = 4 sets; about the middle of the
border under (0, 1) it pairs the six cells three by three, 2^3 = 8; about
the corner between the four left cells it pairs (0, 0) with (1, 1) and
(0, 1) with (1, 0) and sends the right column off the grid, 4.
"""

from __future__ import annotations

import pytest
from tiny import judged_answers, solved_answers, spec_errors
from tiny import spec_judge as _judge

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
])
def test_misuse_is_a_located_error(spec, where, words):
    errors = spec_errors(spec)
    assert [(line, col) for line, col, _ in errors] == [where]
    assert words in errors[0][2]
