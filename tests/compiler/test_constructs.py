"""The constructs for genres as data: lets, structured clue cells, cells as numbers, decisions
whose values are cells, rectangles and squares, the spec's connectivity statement.

As in test_language.py: for a tiny map and a spec that uses one construct,
every answer is judged by the interpreter (sets and BFS, no IR), and the
answers each backend enumerates must be exactly those. Then the located
errors, and three small genres at work on hand-made maps.
"""

from __future__ import annotations

import itertools
import json

import pytest
from tiny import spec_errors as _errors
from tiny import spec_judge as _judge

from gridlang.core.errors import MapError
from gridlang.formats.maps import parse_map
from gridlang.ir.backend import SolveOptions, backend_class, backend_names, get_backend
from gridlang.language import ast
from gridlang.language.checker import check
from gridlang.language.checker.constructs import STRATEGIES
from gridlang.language.parser import parse_spec
from gridlang.solving.pipeline import load_checked, solve_model

BACKENDS = tuple(backend_names())

HEAD = "tile cell '.'\ntile clue number\ndecide x: bool on all\n"

CASES = {
    "let with a parameter": (HEAD + "let around(p) = count(x and neighbours(p))\n"
                                    "require for each c in clue: around(c) == value(c)\nrequire clue avoids x\n",
                             "1..\n..2\n"),
    "let without parameters, as a set at a cell": (
        HEAD + "let free = not x and not clue\nrequire count(free) == 2\n"
               "require for each cell p: free[p] implies not free[p + right]\n", "...\n..1\n"),
    # q is the let's own variable and the rule's: neither captures the other.
    "let hygiene": (HEAD + "let lit(p) = count(x[q] for q in neighbours(p))\nlet twice(p) = 2 * lit(p)\n"
                           "require for each q in clue: lit(q) == value(q) and twice(q) <= 2\n", "1.\n..\n"),
    "unknown number guarded": (HEAD + "require for each c in clue: value(c) is known implies "
                                      "count(x and neighbours(c)) == value(c)\nrequire clue avoids x\n"
                                      "require count(x) == 2\n", "1 . ?\n. . .\n"),
    "named parts": ("tile cell '.'\ntile block '+'\ntile sums numbers down, across\ndecide x: bool on cell\n"
                    "require for each c in sums: count(x and sight from c toward down through cell) == down(c)\n"
                    "require for each c in sums: count(x and sight from c toward right through cell) == across(c)\n",
                    "+ 1,0 1,0\n0,1 . .\n0,1 . .\n"),
    "list clue": ("tile cell '.'\ntile clue numbers\ndecide x: bool on cell\n"
                  "require for each c in clue: count(x and king neighbours(c)) == sum(values(c))\n"
                  "require for each c in clue: count(values(c)) == 2 implies not x[c + down]\n",
                  "1,1 . .\n. . 2\n"),
    "arrow direction": ("tile cell '.'\ntile clue arrow number\ndecide x: bool on cell\n"
                        "require for each c in clue: direction(c) is known implies "
                        "count(x and sight from c toward direction(c) through all) == value(c)\n"
                        "require for each cell p, each q in neighbours(p): x[p] implies not x[q]\n",
                        ">2 . . .\n. 3 . ^1\n"),
    "reversed direction": ("tile cell '.'\ntile clue arrow number\ndecide x: bool on cell\n"
                           "require for each c in clue: count(x and sight from c toward -direction(c) through all)"
                           " == value(c)\nrequire for each c in clue: not x[c + direction(c)]\n",
                           ". <1 . .\n. . . v1\n"),
    "arrows alone": (("tile cell '.'\ntile arrow_cell '^' '>' 'v' '<'\ndecide x: bool on cell\n"
                      "require for each c in arrow_cell: x[c + direction(c)] and not x[c - direction(c)]\n"),
                     "> . <\n. ^ .\n"),
    "an arrow off the grid": (("tile cell '.'\ntile arrow_cell '^' '>' 'v' '<'\ndecide x: bool on cell\n"
                               "require for each c in arrow_cell: x[c + direction(c)] or count(x) == 1\n"),
                              "^ . .\n. . .\n"),
    "distance": (HEAD + "require for each c in clue, each cell p: x[p] implies distance(c, p) == value(c)\n",
                 "...\n.1.\n...\n"),
    "row and column index": (HEAD + "require for each cell p: x[p] implies row index(p) + column index(p) == 4\n"
                                    "require count(x) >= 1\n", "...\n...\n"),
    "rectangles": (HEAD + "require x is a piece of rectangles(4)\n", "....\n....\n"),
    "diagonally connected": (HEAD + "require x is diagonally connected\nrequire clue avoids x\n", "1..\n...\n"),
    "diagonally connected with size": (HEAD + "require x is diagonally connected with size 3\n", "...\n...\n"),
    "squares as a condition": (HEAD + "require x is a piece of squares(4) or count(x) == 1\n", "...\n...\n"),
    "rectangles of any size": (HEAD + "require x is a piece of rectangles\n", "...\n...\n"),
    "rectangles of a clue's size": (HEAD + "require for each c in clue: (component of c in x) is a piece of "
                                           "rectangles(value(c))\nrequire clue in x\n", "2..\n..1\n"),
}


def brute_force(spec_text: str, map_text: str, domains: dict[str, list]) -> set[tuple]:
    """Every answer the interpreter accepts: each decision takes each value of ``domains[name]`` on each
    of its cells (False leaves a Boolean decision's cell out)."""
    spec, symbols, _, grid, judge = _judge(spec_text, map_text)
    on = {name: sorted(judge.on[name]) for name in domains}
    found = set()
    slots = [(name, cell) for name in domains for cell in on[name]]
    for values in itertools.product(*(domains[name] for name, _ in slots)):
        answer = {name: {} for name in domains}
        for (name, cell), v in zip(slots, values):
            if v is not False:
                answer[name][cell] = v
        if judge.evaluate(answer).ok:
            found.add(_key(answer))
    return found


def _key(decisions: dict) -> tuple:
    return tuple(sorted((name, tuple(sorted(cells.items()))) for name, cells in decisions.items()))


def _solve_all(spec_text: str, map_text: str, backend: str, names, limit: int):
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=limit)
    return {_key({n: s.decisions[n] for n in names}) for s in report.solutions}, report


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_brute_force(name, backend):
    spec_text, map_text = CASES[name]
    expected = brute_force(spec_text, map_text, {"x": [False, True]})
    got, report = _solve_all(spec_text, map_text, backend, ["x"], len(expected) + 3)
    assert got == expected
    assert report.complete is True


CELL_CASES = {
    # Shikaku: each clue owns a rectangle of its size holding it.
    "rectangles owned": ("tile cell '.'\ntile clue number\ndecide owner: clue on all\n"
                         "require for each c in clue: owner[c] = c and (owner = c) is a piece of "
                         "rectangles(value(c))\n", "2 . .\n. 2 2\n"),
    "owned and connected": ("tile cell '.'\ntile clue number\ndecide owner: clue on all\n"
                            "require for each c in clue: owner[c] = c and count(owner = c) == value(c)\n"
                            "require for each c in clue: (owner = c) is connected\n", "2 . .\n. . 4\n"),
    "equal owners across a shaded pair": (
        "tile cell '.'\ntile clue number\ndecide x: bool on all\ndecide owner: clue on all\n"
        "require for each cell p, each q in neighbours(p): x[p] and x[q] implies owner[p] = owner[q]\n"
        "require for each cell p, each q in neighbours(p): not x[p] implies owner[p] != owner[q]\n"
        "require for each c in clue: owner[c] = c\n", "1 .\n. 1\n"),
}


@pytest.mark.parametrize("name", sorted(CELL_CASES))
def test_cell_values_match_brute_force(name, backend):
    spec_text, map_text = CELL_CASES[name]
    *_, grid, judge = _judge(spec_text, map_text)
    clues = [divmod(i, grid.cols) for i in sorted(judge.cells(ast.Name("clue")))]
    domains = {"owner": clues}
    if "decide x" in spec_text:
        domains["x"] = [False, True]
    expected = brute_force(spec_text, map_text, domains)
    assert expected
    got, report = _solve_all(spec_text, map_text, backend, list(domains), len(expected) + 3)
    assert got == expected
    assert report.complete is True


def test_cases_are_not_trivial():
    sizes = {name: len(brute_force(*CASES[name], {"x": [False, True]})) for name in CASES}
    assert all(n > 0 for n in sizes.values()), sizes
    assert sizes["rectangles"] == 5 and sizes["rectangles of any size"] == 18 and sizes["named parts"] == 2
    # corners join cells: more sets than side neighbours alone allow (of the 2x3 map's 5 free cells,
    # 29 sets are connected through sides and corners, 22 through sides)
    side = len(brute_force(HEAD + "require x is connected\nrequire clue avoids x\n", "1..\n...\n",
                           {"x": [False, True]}))
    assert sizes["diagonally connected"] == 29 and side == 22


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize("text,where,words", [
    (HEAD + "let f(p) = g(p)\nlet g(q) = f(q) + 1\nrequire for each c in clue: f(c) == 1\n", (5, 12),
     "let 'f' refers to itself (f -> g -> f)"),
    (HEAD + "let f(p) = count(x and neighbours(p))\nrequire for each c in clue: f(c, c) == 1\n", (5, 29),
     "takes 1 argument; this use gives 2"),
    (HEAD + "let f(p) = count(x and neighbours(p))\nrequire for each c in clue: f == 1\n", (5, 29),
     "'f' takes 1 argument: write f(p)"),
    (HEAD + "let k = 3\nrequire for each c in clue: k(c) == 1\n", (5, 29), "takes no arguments"),
    (HEAD + "let around = count(x and neighbours(c))\nrequire for each c in clue: around == value(c)\n", (4, 37),
     "'c' in let 'around' is not one of its parameters"),
    (HEAD + "let same(p, q) = x[p] = x[q] and kind = q\ndecide kind: {1} on all\n"
            "require for each cell p: same(p, p + right)\n", (6, 34), "stands where a name is needed"),
    # A type error inside a let is reported at the let, once for all its uses.
    (HEAD + "let f(p) = count(p) + x\nrequire for each c in clue: f(c) == 1\nrequire for each c in clue: f(c) == 2\n",
     (4, 23), "'+' takes numbers; this is a cell set"),
    (HEAD + "let f(p) = count(p)\nrequire for each c in clue: f(3) == 1\n", (5, 31), "count(...) takes a cell set"),
    (HEAD + "let f(p, p) = 1\n", (4, 10), "parameter 'p' appears twice"),
    (HEAD + "let x = 1\n", (4, 5), "'x' is already declared"),
    (HEAD + "require for each c in clue: foo(c) == 1\n", (4, 29), "unknown function 'foo'"),
    (HEAD + "require for each c in clue: x(c) == 1\n", (4, 29), "'x' is a decision, not a function"),
    ("tile cell '.'\ntile s numbers down, across\ndecide x: bool on all\nrequire for each c in s: down(c, c) == 1\n",
     (4, 26), "reads a part of one cell"),
    ("tile cell '.'\ntile s numbers a, b\ntile t numbers c, d\ndecide x: bool on all\n", (3, 6),
     "the spec has one 'numbers' tile; 's' is the first"),
    ("tile one '1'\ntile s arrow number\ndecide x: bool on all\n", (2, 6), "a clue tile claims every digit"),
    ("tile cell '.'\ntile s numbers a, cell\ndecide x: bool on all\n", (2, 19), "'cell' is already declared"),
    ("tile s arrow number value 3\n", (1, 21), "is a clue tile"),
    (HEAD + "require for each c in clue: x is known\n", (4, 29), "'is known' asks whether numbers"),
    (HEAD + "require for each c in clue: count(x and values(c)) == 1\n", (4, 41), "'and' combines cell sets"),
    (HEAD + "require for each c in clue: distance(c, x) == 1\n", (4, 41), "distance(...) takes one cell"),
    (HEAD + "require for each cell p: x is a piece of rectangles(x)\n", (4, 53), "rectangles(N) takes a number"),
    (HEAD + "require for each cell p: x[p + -x]\n", (4, 33), "'-' takes a number; this is a cell set"),
    (HEAD + "decide owner: clue on all\nrequire for each c in clue: owner[c] = 3\n", (5, 40),
     "the values of 'owner' are cells of 'clue'"),
    (HEAD + "decide owner: clue on all\nrequire for each c in clue: owner[c] == 1\n", (5, 29),
     "owner[...] is a cell; compare it"),
    (HEAD + "decide owner: clue on edges\n", (4, 15), "cells as values are for decisions on cells"),
    ("tile cell '.'\ntile a arrow number\ndecide x: bool on all\nrequire for each p in a: x[p + direction(x)]\n",
     (4, 42), "direction(...) takes one cell"),
    ("tile cell '.'\ntile a arrow number\ndecide x: bool on all\n"
     "require for each p in a: count(sight from p toward -direction(3) through x) == 1\n", (4, 63),
     "direction(...) takes one cell"),
    (HEAD + "require for each cell p: distance(p) == 0\n", (4, 26), "distance(p, q) takes 2 arguments; this call has 1"),
    (HEAD + "connectivity trees\n", (4, 14), "unknown connectivity strategy 'trees'"),
    (HEAD + "decide line: bool on edges\nrequire line is diagonally connected\n", (5, 9),
     "'is diagonally connected' joins cells by their corners; 'line' is a decision on edges"),
    (HEAD + "connectivity tree\nconnectivity flow\n", (5, 14), "at most one 'connectivity' statement"),
])
def test_errors_are_located(text, where, words):
    errors = _errors(text)
    assert any((line, col) == where and words in msg for line, col, msg in errors), errors


def test_values_and_distance_are_calls_not_keywords():
    spec = ("tile cell '.'\ntile c numbers\ndecide distance: bool on all\ndecide values: bool on all\n"
            "require for each p in c, each q in cell: distance[p] implies distance(p, q) >= count(values(p))\n"
            "require count(values) == count(distance)\n")
    model, _ = _compile(spec, ". 1\n1,2 .\n")
    assert {d.name for d in model.decisions} == {"distance", "values"}


def test_a_let_error_at_several_uses_is_reported_once():
    errors = _errors(HEAD + "let f(p) = count(p) + x\nrequire for each c in clue: f(c) == 1\n"
                            "require for each c in clue: f(c) == 2\n")
    assert len(errors) == 1


def _compile(spec_text: str, map_text: str):
    spec = parse_spec(spec_text, "s.grid")
    symbols = check(spec)
    return load_checked(spec, symbols, parse_map(map_text, "m.txt"), {})


@pytest.mark.parametrize("spec_text,map_text,where,words", [
    (HEAD + "require for each c in clue: count(x and neighbours(c)) == value(c)\n", ". 1\n? .\n", (2, 1),
     "'?' is an unknown number"),
    ("tile cell '.'\ntile s arrow number\ndecide x: bool on cell\n"
     "require for each c in s: count(x and sight from c toward direction(c) through all) == value(c)\n",
     ". >1 .\n2 . .\n", (2, 1), "'2' has none"),
    (("tile cell '.'\ntile arrow_cell '^' 'v'\ntile circle 'o'\ndecide x: bool on cell\n"
      "require for each c in not cell: x[c + direction(c)]\n"), ". ^\no .\n", (2, 1),
     "direction(c) reads an arrow (an arrow number, ^2, or an arrow alone, ^ v < >); 'o' has none"),
    ("tile cell '.'\ntile block '+'\ntile s numbers down, across\ndecide x: bool on cell\n"
     "require for each p in not cell: down(p) == 0 or x[p + down]\n", "+ 1,0\n. .\n", (1, 1),
     "down(c) reads a part of a 's' cell; this is a 'block' cell"),
    ("tile cell '.'\ntile s numbers down, across\ndecide x: bool on cell\nrequire count(x) == 1\n", ". 1,2\n3 .\n",
     (2, 1), "'3' holds 1 number; this tile's cells hold 2 (down, across)"),
    ("tile cell '.'\ntile clue numbers\ndecide x: bool on cell\nrequire for each c in clue: count(x) == value(c)\n",
     "1,2 .\n. .\n", (1, 1), "'1,2' holds 2 numbers, not one"),
    (HEAD + "decide owner: clue on all\nrequire for each cell p: count(owner = p) >= 0\n", "1 .\n. .\n", (1, 3),
     "this cell is not a 'clue' cell, so no cell takes it as its 'owner'"),
])
def test_map_cells_that_cannot_serve_are_located(spec_text, map_text, where, words):
    with pytest.raises(MapError) as e:
        _compile(spec_text, map_text)
    assert (e.value.span.line, e.value.span.column) == where and words in e.value.message, e.value.message


# --------------------------------------------------------- small genres at work
# The maps are pzprjs's test puzzles (test/script/shikaku.js, kakuro.js and
# yajilin.js, github.com/robx/pzprjs, MIT licence), written by hand in the
# layered map format; the expected answers are the accepted ones there.

SHIKAKU = """puzzle "shikaku (test)"
tile cell '.'
tile clue number
decide owner: clue on all
require for each c in clue: owner[c] = c and (owner = c) is a piece of rectangles(value(c))
"""
SHIKAKU_MAP = ". . . . 3 .\n5 6 . . 6 .\n. . . . . .\n. . . . . .\n. 6 . . 2 3\n. 5 . . . .\n"
# pzprjs's accepted answer as its borders: 1 where two side neighbours are in different rectangles.
SHIKAKU_BORDERS = ("1 -1 1 0 0/1 0 1 0 0/1 -1 1 0 0/1 -1 0 1 1/1 -1 0 1 1/0 -1 -1 -1 1",
                   "0 -1 -1 1 1 1/-1 -1 -1 0 0 0/-1 1 1 1 1 1/-1 -1 -1 0 0 0/1 1 1 1 1 0")

KAKURO = """puzzle "kakuro (test)"
tile white '.'
tile block '+'
tile sums numbers down, across
decide digit: 0..9 on all
let run(c, d) = sight from c toward d through white
require for each p in white: digit[p] >= 1
require for each p in not white: digit[p] == 0
require for each c in sums: down(c) > 0 implies sum(digit[q] for q in run(c, down)) == down(c)
require for each c in sums: across(c) > 0 implies sum(digit[q] for q in run(c, right)) == across(c)
require for each c in sums: all different digit in run(c, down)
require for each c in sums: all different digit in run(c, right)
"""
KAKURO_MAP = """+    +    12,0 4,0  +    +
+    4,8  .    .    10,0 +
0,10 .    .    .    .    10,0
0,3  .    .    17,3 .    .
+    0,21 .    .    .    .
+    +    0,12 .    .    +
"""
KAKURO_DIGITS = ". 5 3 . ./3 4 1 2 ./1 2 . 1 2/. 1 9 3 8/. . 8 4 ."

YAJILIN = """puzzle "yajilin (test)"
tile cell '.'
tile clue arrow number
decide shaded: bool on cell
decide line: bool on edges
require for each c in clue: count(shaded and sight from c toward direction(c) through all) == value(c)
require for each cell p, each q in neighbours(p): shaded[p] implies not shaded[q]
require for each p in cell: shaded[p] implies degree(line, p) == 0
require for each p in cell: not shaded[p] implies degree(line, p) == 2
require for each c in clue: degree(line, c) == 0
require line is a loop
"""
YAJILIN_MAP = ". . . . .\n. . . . .\n. . . <2 .\n. . . . .\n. . . . ^0\n"


def _unique(spec_text: str, map_text: str, backend: str):
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=2)
    assert report.complete is True and len(report.solutions) == 1
    return model, report.solutions[0]


def test_shikaku_by_owner_and_rectangles(backend):
    model, solution = _unique(SHIKAKU, SHIKAKU_MAP, backend)
    # Only the rectangles through each clue are placed (owner[c] = c holds it): 46, not 360.
    assert sum(v.family == "piece" for v in model.variables) == 46
    owner = solution.decisions["owner"]
    cols = model.grid.cols
    vertical, horizontal = ([[int(x) for x in row.split()] for row in part.split("/")] for part in SHIKAKU_BORDERS)
    for r, row in enumerate(vertical):
        for c, border in enumerate(row):
            assert (owner[r * cols + c] != owner[r * cols + c + 1]) == (border == 1), (r, c)
    for r, row in enumerate(horizontal):
        for c, border in enumerate(row):
            assert (owner[r * cols + c] != owner[(r + 1) * cols + c]) == (border == 1), (r, c)


def test_kakuro_by_named_parts(backend):
    model, solution = _unique(KAKURO, KAKURO_MAP, backend)
    digits = solution.decisions["digit"]
    cols = model.grid.cols
    for r, row in enumerate(KAKURO_DIGITS.split("/")):
        for c, want in enumerate(row.split()):
            assert digits[(r + 1) * cols + c + 1] == (0 if want == "." else int(want)), (r, c)


def test_yajilin_by_arrows(backend):
    model, solution = _unique(YAJILIN, YAJILIN_MAP, backend)
    assert sorted(model.grid.cell(i) for i in solution.decisions["shaded"]) == [(2, 0), (2, 2), (4, 3)]


def test_a_let_of_cells_indexed_off_the_grid_is_false(backend):
    """``y[p + up]`` with ``let y = not x``: on the top row there is no cell above, so y[p + up] is
    false, as for a declared set (it was true: the empty set is a subset of ``not x``). On a 2x2
    grid the top row is then free (4 ways) and each column of the bottom row has 3: 9 answers."""
    spec_text = ("tile cell '.'\ndecide x: bool on all\nlet y = not x\n"
                 "require for each cell p: y[p + up] implies x[p]\n")
    spec, symbols, data, _, _ = _judge(spec_text, "..\n..\n")
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=20)
    assert report.complete is True and len(report.solutions) == 9


def test_a_let_compiles_to_the_model_of_its_expression_written_in_place():
    written = KAKURO.replace("let run(c, d) = sight from c toward d through white\n", "")
    for d in ("down", "right"):
        written = written.replace(f"run(c, {d})", f"(sight from c toward {d} through white)")
    assert "run" not in written
    (a, _), (b, _) = _compile(KAKURO, KAKURO_MAP), _compile(written, KAKURO_MAP)
    assert a.variables == b.variables and a.constraints == b.constraints


def test_verify_reports_a_rule_with_a_let_at_the_rules_line(tmp_path):
    spec = tmp_path / "k.grid"
    spec.write_text(KAKURO.replace("let run", "# the cells a clue sums\nlet run"))
    (tmp_path / "k.txt").write_text(KAKURO_MAP)
    model, solution = _unique(spec.read_text(), KAKURO_MAP, "cpsat")
    decisions = {"digit": [[list(model.grid.cell(i)), v] for i, v in solution.decisions["digit"].items()]}
    # 1 and 2 swapped in the grid's row 2 (columns 0 and 1): the sums across hold, the sums down break,
    # and column 1's run holds 1 twice.
    for entry in decisions["digit"]:
        if entry[0] in ([3, 1], [3, 2]):
            entry[1] = 3 - entry[1]
    (tmp_path / "a.json").write_text(json.dumps({"decisions": decisions}))
    from gridlang.solving.answers import check_answer

    verdict = check_answer(spec, tmp_path / "k.txt", tmp_path / "a.json")
    lines = spec.read_text().splitlines()
    down_sum = lines.index("require for each c in sums: down(c) > 0 implies sum(digit[q] for q in run(c, down)) "
                           "== down(c)") + 1
    down_different = lines.index("require for each c in sums: all different digit in run(c, down)") + 1
    assert {v.span.line for v in verdict.violations} == {down_sum, down_different}
    assert sum(v.span.line == down_sum for v in verdict.violations) == 2  # columns 1 and 2
    assert all(v.span.column == 9 for v in verdict.violations)
    # The rule's own text, not the let's it uses.
    assert {v.rule_text for v in verdict.violations} == {lines[down_sum - 1][len("require "):],
                                                         lines[down_different - 1][len("require "):]}


# ------------------------------------------------------ the connectivity statement

def test_a_spec_sets_the_connectivity_of_the_backends_that_offer_it():
    text = "tile cell '.'\ndecide x: bool on all\nconnectivity tree\nrequire x is connected\nrequire count(x) == 3\n"
    model, _ = _compile(text, "...\n...\n")
    assert model.info["spec_connectivity"] == "tree"
    for name in ("cpsat", "milp", "maxsat", "asp"):
        engine = get_backend(name)
        default = engine.connectivity[0]
        assert engine.strategy(SolveOptions(), model) == ("tree" if "tree" in engine.connectivity else default)
        assert engine.strategy(SolveOptions(connectivity="cuts"), model) == "cuts"  # the flag overrides it
    report = solve_model(model, "cpsat", SolveOptions(time_limit=60), count=100)
    assert report.solutions and report.solutions[0] and report.complete
    assert report.result.stats["connectivity"] == "tree"


def test_the_checker_knows_the_strategies_of_every_backend():
    offered = set().union(*(backend_class(name).connectivity for name in backend_names()))
    assert set(STRATEGIES) == offered


def test_an_unknown_number_in_the_objective_is_blamed_on_the_objective():
    with pytest.raises(MapError) as e:
        _compile(HEAD + "require count(x) >= 1\nmaximize value(clue) - count(x)\n", ". 1\n? .\n")
    assert (e.value.span.line, e.value.span.column) == (2, 1)
    assert e.value.message.startswith("'maximize value(clue) - count(x)' (s.grid:5:1) at row 2, column 1")


def test_lets_nested_too_deep_are_refused_at_the_rule():
    head = "tile cell '.'\ndecide x: bool on all\n"
    chain = "".join(f"let f{k}(p) = {'not ' * 80}f{k + 1}(p)\n" for k in range(40)) + "let f40(p) = x[p]\n"
    errors = _errors(head + chain + "require for each cell p: f0(p)\n")
    assert [(line, col) for line, col, _ in errors] == [(44, 9)]
    assert "through its lets this statement nests deeper than gridlang follows" in errors[0][2]
    two = "let a(p) = " + "not " * 60 + "x[p]\nlet b(p) = " + "not " * 60 + "a(p)\nrequire for each cell p: b(p)\n"
    assert "nested more than 100 levels deep" in _errors(head + two)[0][2]


def test_copies_of_lets_are_counted_over_the_whole_spec():
    """Each statement within bounds alone, many together: refused at the one
    that crosses MAX_EXPANSION, before the time goes (12 uses of a chain of
    15 doubling lets took a minute past a 3 s limit)."""
    from gridlang.language.parser.lets import MAX_EXPANSION

    head = "tile cell '.'\ndecide x: bool on all\nlet a0 = x\n"
    chain = "".join(f"let a{k} = a{k - 1} and a{k - 1}\n" for k in range(1, 15))
    uses = "".join(f"require count(a14) >= {k}\n" for k in range(12))
    errors = _errors(head + chain + uses)
    assert len(errors) == 1 and errors[0][:2] == (21, 9)  # the fourth use: three made 3 x 16,386 nodes
    assert (f"through their lets this statement and those before it grow past {MAX_EXPANSION:,} nodes "
            "(49,157 before it)") in errors[0][2]
    assert parse_spec(head + chain + uses.splitlines(keepends=True)[0], "s.grid").statements  # one use is taken
    one = _errors(head + chain + "let a15 = a14 and a14\nlet a16 = a15 and a15\nrequire count(a16) >= 1\n")
    assert [e[:2] for e in one] == [(20, 9)]
    assert f"this statement and those before it grow past {MAX_EXPANSION:,} nodes (2 before it)" in one[0][2]
