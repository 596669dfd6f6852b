"""Counts along a line of sight tested against zero (``gridlang/compiler/sightlines.py``): the answers of
each backend counted against brute force, and the model's size linear in the line's length.

Each spec's every assignment of its Boolean decision is judged by the
interpreter (sets and lines walked on the map, no IR); each backend must
enumerate exactly those answers. The cases take each path of the lowering:
a line through a set known from the map (the chain shared between lines), a
line through a decided set (the chain holds the set's literals too), a
counted set that depends on the binding (the line folded on its own), the
count on either side of the comparison, under ``implies``, inside ``any``
and as a rule of its own.
"""

from __future__ import annotations

import pytest
from tiny import judged_answers, solved_answers, spec_judge

from gridlang.solving.pipeline import load_checked

AKARI = """tile white '.'
tile black '#' wall
tile clue number wall
decide light: bool on white
let seen(p, q) = count(light and sight from p toward q through white)
require for each c in clue: count(light and neighbours(c)) == value(c)
require for each p in white, each q in neighbours(p): light[p] implies seen(p, q) == 0
require for each p in white: light[p] or any(seen(p, q) > 0 for q in neighbours(p))
"""

DOTS = "tile cell '.'\ntile dot 'o'\ndecide x: bool on all\nrequire dot avoids x\n"

CASES = {
    # a line through white cells (known from the map): the shared chain
    "akari": (AKARI, "..#.\n....\n.1..\n", "light", 5),
    # the counted set depends on the binding (not the cells beside p): each line folded on its own
    "bound set": (
        (
            "tile white '.'\ntile black '#' wall\ndecide light: bool on white\n"
            "require for each p in white, each q in neighbours(p): light[p] implies "
            "count(light and sight from p toward q through white and not neighbours(p)) == 0\n"
            "require for each p in white: light[p] or any(count(light and sight from p toward q through "
            "white) >= 1 for q in neighbours(p))\n"
        ),
        "....#\n.#...\n",
        "light",
        45,
    ),
    # a line through a decided set, the count on the right: no dot sees another across unmarked cells
    "through a decision": (
        DOTS + "require for each p in dot, each direction d: "
        "1 > count(dot and sight from p toward d through not x)\n",
        "o..o\n.o..\no...\n",
        "x",
        96,
    ),
    # a rule of its own (not under implies or any), and its negation as a count at least one
    "a rule of its own": (
        DOTS
        + "require for each p in dot: count(dot and sight from p toward right through not x)"
        " == 0\nrequire for each p in dot: 0 < count(sight from p toward down through "
        "not x)\n",
        "o.o.\n.o..\n....\n",
        "x",
        32,
    ),
    # a line held inside a set: stated up to its first cell out of the set (the rest follows)
    "a line in a set": (
        (
            "tile cell '.'\ndecide x: bool on all\nrequire for each cell p, each q in neighbours(p): "
            "not x[p] and q in not room(p) implies (sight from p toward q through not x) in room(q)\n"
            "require count(x) <= 3\n"
        ),
        "......\n......\nrooms:\naabbcc\naabccc\n",
        "x",
        102,
    ),
    # the same as a condition (inside an or)
    "a line in a set as a condition": (
        (
            "tile cell '.'\ndecide x: bool on all\nrequire for each cell p: "
            "(sight from p toward right through not x) in room(p) or x[p]\n"
        ),
        ".....\n.....\nrooms:\naabbc\nabbcc\n",
        "x",
        324,
    ),
}


def _expected(spec_text, map_text, decision):
    *_, grid, judge = spec_judge(spec_text, map_text)
    free = [i for i in range(grid.size) if grid.chars[i] == "."]
    return judged_answers(judge, grid, decision, free)


@pytest.mark.parametrize("name", CASES)
def test_brute_force_count(name):
    spec_text, map_text, decision, count = CASES[name]
    assert len(_expected(spec_text, map_text, decision)) == count


@pytest.mark.parametrize("name", CASES)
def test_lowering_matches_brute_force(name, backend):
    spec_text, map_text, decision, _ = CASES[name]
    expected = _expected(spec_text, map_text, decision)
    spec, symbols, data, grid, _ = spec_judge(spec_text, map_text)
    assert (
        solved_answers(spec, symbols, data, grid, backend, decision, expected)
        == expected
    )


@pytest.mark.parametrize("cells,clauses", [(20, 220), (40, 460), (80, 940)])
def test_one_row_costs_linear_in_its_cells(cells, clauses):
    r"""Akari on one row of n white cells: three clauses for each link of the two directions' chains
    (n - 2 each) and for the ``any`` of a cell's two lines (n - 2 cells have two), a clause per light and
    direction that has a line (2n - 2), one per cell to be lit (n): 12n - 20 in all (as sums and
    their ``or``\ s, 526, 1,866 and 6,946, about n squared)."""
    spec, symbols, data, _, _ = spec_judge(AKARI, "." * cells + "\n")
    model, _ = load_checked(spec, symbols, data, {})
    assert len(model.constraints) == clauses
