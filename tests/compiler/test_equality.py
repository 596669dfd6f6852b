"""``=``, ``==`` and ``!=`` between numbers, between conditions, and a cell plus a direction.

As in test_constructs.py: on a tiny map every answer is judged by the
interpreter (no IR), and the answers each backend enumerates must be
exactly those; then the located error of a mixture.
"""

from __future__ import annotations

import pytest
from test_constructs import _solve_all, brute_force

from gridlang.core.errors import GridlangError
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

HEAD = "tile cell '.'\ntile clue number\ndecide x: bool on all\ndecide y: bool on all\n"

CASES = {
    # two different Boolean decisions: equivalence, exclusive or
    "equivalence": (HEAD + "require for each cell p: x[p] = y[p + right]\nrequire count(x) == 2\n",
                    "..\n.1\n", {"x": [False, True], "y": [False, True]}),
    "exclusive or": (HEAD + "require for each cell p: x[p] != y[p]\n"
                            "require (count(x) >= 3) == (count(y) >= 1)\nrequire clue avoids y\n",
                     "..\n.1\n", {"x": [False, True], "y": [False, True]}),
    "equivalence of conditions under implies": (
        HEAD + "require for each c in clue: count(x and neighbours(c)) == value(c) implies "
               "(y[c] = any(x[q] for q in king neighbours(c)))\nrequire count(y) == 1\n",
        "1.\n..\n", {"x": [False, True], "y": [False, True]}),
    # numbers: an integer decision, a cell's number, a count
    "numbers differ": ("tile cell '.'\ntile clue number\ndecide d: 1..3 on all\n"
                       "require for each c in clue: d[c] != value(c) and value(c) != d[c + down]\n"
                       "require for each cell p: d[p] != d[p + right] + 1\n",
                       "2.\n.1\n", {"d": [1, 2, 3]}),
    "count differs": (HEAD + "require count(x) != 2 and count(y) != count(x)\nrequire count(x) + count(y) <= 2\n",
                      "..\n..\n", {"x": [False, True], "y": [False, True]}),
    "integer names": (HEAD + "param n: int = 2\nparam sizes: set of int = {1, 2, 3}\n"
                             "require n != count(x) and count(y) = n\n"
                             "require for each k in sizes: k = 1 or count(x) != k\n", "..\n..\n",
                      {"x": [False, True], "y": [False, True]}),
    # the neighbour in a direction: q = p + right
    "cell plus direction": (HEAD + "require for each cell p, each q in neighbours(p): q = p + right implies "
                                   "x[p] != x[q]\nrequire for each cell p, each q in neighbours(p): "
                                   "q != p + down and q != p + up implies y[p] = y[q]\n",
                            "..\n..\n", {"x": [False, True], "y": [False, True]}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_equality_matches_brute_force(name, backend):
    spec_text, map_text, domains = CASES[name]
    expected = brute_force(spec_text, map_text, domains)
    assert expected  # each case has answers, and forbids some
    got, report = _solve_all(spec_text, map_text, backend, list(domains), len(expected) + 3)
    assert got == expected
    assert report.complete is True


def test_the_counts_the_rules_give():
    # x[p] = y[p + right] with two x: the left column (x in the right column has no y to equal), y to
    # its right, y free in the left column
    assert len(brute_force(*CASES["equivalence"][:2], CASES["equivalence"][2])) == 4
    # y one cell of the three that are no clue, x the other three
    assert len(brute_force(*CASES["exclusive or"][:2], CASES["exclusive or"][2])) == 3
    assert len(brute_force(*CASES["cell plus direction"][:2], CASES["cell plus direction"][2])) == 4 * 4


@pytest.mark.parametrize("rule, column, message", [
    ("require for each cell p: count(kind = p + right) >= 0\n", 39,
     "'kind = V' takes for V a value name, an integer, the name of one or 'value'; compare a sum at a cell: "
     "kind[p] == ..."),
    ("require for each cell p: x[p] = count(y)\n", 33,
     "'=' between a condition and a linear sum: both sides are conditions (their "
     "equivalence) or both numbers"),
    ("require for each cell p: count(y) != x[p]\n", 38, "a comparison takes numbers; this is a condition"),
    ("require for each cell p, each q in neighbours(p): q = p + 1\n", 55,
     "'+' takes numbers; this is a fixed cell set"),
])
def test_a_mixture_is_an_error_at_its_operand(rule, column, message):
    with pytest.raises(GridlangError) as e:
        check(parse_spec(HEAD.replace("decide y", "decide kind: {1, 2} on all\ndecide y") + rule, "t.grid"))
    assert (e.value.span.line, e.value.span.column) == (6, column)
    assert e.value.message == message
