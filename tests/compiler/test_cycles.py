"""Acyclicity (gridlang.constructs.cycles) and slants (gridlang.constructs.slants), counted against brute force.

Every answer of a tiny map is judged by the interpreter (a union-find on
the graph itself: chosen edges, or each slant as an edge between the two
corners it joins), and each backend must enumerate exactly the answers it
accepts; the lowering goes through the faces of the plane instead. The
counts themselves are closed: the 2x3 grid graph has 2^7 edge sets of
which 16 hold a cycle (its two squares, 8 sets each, and its rim, 2,
less the 3 pairs and 1 triple that share all 7 edges), so 112 forests;
of its 2^6 sets of cells, 7 hold a 2x2 block, the only cycles of
cells (4 sets with either block, one with both), so 57; round a 4 on
the centre of a 3x3 map (its four neighbours shaded), the centre shaded
allows no corner (each would close a block) and the centre unshaded any
corners but all four (the ring of eight), so 16;
of its 2^6 slant maps, 8 hold a diamond (one in either 2x2 block, with
any slants in the other column), so 56; of the 3x3 grid's 2^9, 120 hold a
diamond (4 blocks of 32, less the 2 pairs of diagonal blocks that share
their centre's slant, 4 each) and 8 more a longer loop, so 384; the 4-cycle's acyclic sets of k
edges, each chosen edge 1 or 2, give 1 + 4 * 2 + 6 * 4 + 4 * 8 = 65.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from tiny import spec_errors
from tiny import spec_judge as _judge

from gridlang.core.grid import lattice_edges
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

SLANTS = "tile cell '.'\ntile ring 'o'\ntile cut 'x'\ndecide slant: {'/', '\\\\'} on all\n"
LINES = "tile cell '.'\ndecide line: bool on edges\nrequire line has no cycle\n"
CASES = {
    "lines between cells": (LINES, "...\n...\n", "edges", 112),
    "lines on corner edges": ("tile cell '.'\ndecide line: bool on corner edges\nrequire line has no cycle\n",
                              "..\n", "corners", 112),
    "integer edges": ("tile cell '.'\ndecide line: 0..2 on edges\nrequire line has no cycle\n", "..\n..\n",
                      "edges", 65),
    "shaded cells 2x3": ("tile cell '.'\ndecide shaded: bool on all\nrequire shaded has no cycle\n", "...\n...\n",
                         "cells", 57),
    "shaded cells 3x3": (("tile cell '.'\ntile clue number\ndecide shaded: bool on all\nrequire shaded has no cycle\n"
                          "require for each c in clue: count(shaded and neighbours(c)) == value(c)\n"),
                         "...\n.4.\n...\n", "cells", None),
    "slants 2x3": (SLANTS + "require slant has no cycle\n", "...\n...\n", "slants", 56),
    "slants 3x3": (SLANTS + "require slant has no cycle\n", "...\n...\n...\n", "slants", None),
    "slants touching a corner": ("tile plain '.' on corners\ntile clue number on corners\n" + SLANTS +
                                 "require for each v in clue: degree(slant, v) == value(v)\n"
                                 "require slant has no cycle\n",
                                 "...\n...\n...\ncorners:\n....\n.1..\n..3.\n...0\n", "slants", None),
    "on a cycle": (SLANTS + "require for each p in ring: p is on a cycle of slant\n"
                            "require for each p in cut: not (p is on a cycle of slant)\n",
                   "o..\n.x.\n...\n", "slants", None),
    "with blank cells": (("tile cell '.'\ntile ring 'o'\ndecide slant: {'/', '\\\\', blank} on all\n"
                          "require for each p in ring: p is on a cycle of slant\n"),
                         "o.\n..\n", "slants", 1),
}


def _answers(lattice: str, grid, values: tuple) -> list[dict]:
    """Every answer of a decision on ``lattice`` with these values (chosen edges only, for Booleans)."""
    if lattice == "slants":
        return [dict(enumerate(v)) for v in itertools.product(values, repeat=grid.size)]
    if lattice == "cells":
        return [{i: True for i, b in enumerate(bits) if b} for bits in itertools.product((False, True),
                                                                                         repeat=grid.size)]
    edges = lattice_edges(grid.rows, grid.cols, lattice)
    if values == (True,):
        return [{e: True for e, b in zip(edges, bits) if b} for bits in itertools.product((False, True),
                                                                                            repeat=len(edges))]
    return [dict(zip(edges, v)) for v in itertools.product(values, repeat=len(edges))]


@functools.cache
def brute_force(name: str) -> frozenset[frozenset]:
    spec_text, map_text, lattice, _ = CASES[name]
    *_, grid, judge = _judge(spec_text, map_text)
    decision = {"slants": "slant", "cells": "shaded"}.get(lattice, "line")
    values = {"slants": ("/", "\\", "blank") if "blank" in spec_text else ("/", "\\"),
              "integer": (0, 1, 2)}.get("integer" if "0..2" in spec_text else lattice, (True,))
    return frozenset(frozenset(a.items()) for a in _answers(lattice, grid, values)
                     if judge.evaluate({decision: a}).ok)


@pytest.mark.parametrize("name", sorted(CASES))
def test_acyclicity_matches_brute_force(name, backend):
    spec_text, map_text, lattice, size = CASES[name]
    expected = brute_force(name)
    assert expected and (size is None or len(expected) == size)
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    decision = {"slants": "slant", "cells": "shaded"}.get(lattice, "line")
    assert {frozenset(s.decisions[decision].items()) for s in report.solutions} == expected
    assert report.complete is True


def test_brute_force_counts():
    """The counts (see the module's docstring for the closed ones)."""
    counts = {name: len(brute_force(name)) for name in CASES}
    assert counts == {"lines between cells": 112, "lines on corner edges": 112, "integer edges": 65,
                      "shaded cells 2x3": 57, "shaded cells 3x3": 16,
                      "slants 2x3": 56, "slants 3x3": 384, "slants touching a corner": 4, "on a cycle": 4,
                      "with blank cells": 1}


def test_a_cycle_is_named_by_the_verifier():
    *_, judge = _judge(SLANTS + "require slant has no cycle\n", "..\n..\n")
    verdict = judge.evaluate({"slant": {0: "/", 1: "\\", 2: "\\", 3: "/"}})
    assert not verdict.ok
    assert "'slant' closes a cycle through 4 points" in str(verdict.violations[0])


@pytest.mark.parametrize("spec, where, words", [
    ("tile cell '.'\ndecide kind: {a, b} on all\nrequire kind has no cycle\n", (3, 9),
     "'has no cycle' takes a decision on edges (on edges, on corner edges), a Boolean decision on cells, or"),
    ("tile cell '.'\ndecide line: bool on edges\nrequire not (line has no cycle)\n", (3, 14),
     "'has no cycle' is a rule of its own"),
    ("tile cell '.'\ndecide line: bool on edges\nrequire for each cell p: p is on a cycle of line\n", (3, 45),
     "'is on a cycle of' takes a decision whose values are slants"),
    (("tile cell '.'\ntile clue number\ndecide slant: {'/', '\\\\'} on all\n"
      "require for each c in clue: degree(slant, c) == 1\n"), (4, 43),
     "degree(slant, ...) counts the slants touching a corner"),
    ("tile cell '.'\ndecide slant: {'/', '\\'} on all\n", (2, 21), "a quoted backslash is written '\\\\'"),
    ("tile cell '.'\ndecide slant: {'/', '\\\\'} on all\nrequire for each p in cell: slant[p] = '|'\n", (3, 40),
     "'|' is not a value of 'slant' (its value names: /, \\)"),
])
def test_misuse_is_a_located_error(spec, where, words):
    errors = spec_errors(spec)
    assert [(line, col) for line, col, _ in errors] == [where]
    assert words in errors[0][2]


def test_cells_linked_by_portals_are_refused():
    from gridlang.core.errors import GridlangError

    spec, symbols, data, _, _ = _judge("tile cell '.'\ntile portal 'a' linked\ndecide shaded: bool on all\n"
                                       "require shaded has no cycle\n", "a.a\n...\n")
    with pytest.raises(GridlangError, match="'shaded has no cycle' takes the cells' side neighbours, and this map "
                                            "links cells"):
        load_checked(spec, symbols, data, {})
