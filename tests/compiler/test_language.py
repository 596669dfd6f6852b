"""The grid-genre constructs: each one's lowering counted against brute force, on every backend; errors located.

For a tiny map and a spec that uses one construct, every assignment of the
spec's Boolean decision is judged by the interpreter (sets and BFS, no IR);
the solutions counted that way must be exactly those each backend
enumerates. A construct whose lowering says more or less than its meaning
fails here.
"""

from __future__ import annotations

import itertools

import pytest
from tiny import judged_answers
from tiny import spec_judge as _judge

from gridlang.core.errors import MapError, MultipleErrors, ParamError, SemanticError
from gridlang.core.shapes import polyominoes
from gridlang.formats.maps import parse_map
from gridlang.formats.params import resolve_params
from gridlang.ir.backend import SolveOptions, backend_names
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.language.values import parse_value
from gridlang.solving.pipeline import load_checked, solve_model
from gridlang.why import explain

BACKENDS = tuple(backend_names())

HEAD = "tile cell '.'\ntile clue number\ndecide x: bool on all\n"
ROOMS = "..\n..\n.1\nrooms:\naa\nba\nbb\n"

CASES = {
    "row count": (HEAD + "require for each row r: count(x and r) == 1\n", "...\n...\n"),
    "column count": (HEAD + "require for each column k: count(x and k) <= 1\n", "..\n..\n..\n"),
    "room count": (HEAD + "require for each room m: count(x and m) == 1\n", ROOMS),
    "room of a clue": (HEAD + "require for each c in clue: count(x and room(c)) == value(c)\n", ROOMS),
    "king neighbours": (HEAD + "require for each cell p: x[p] implies not any(x[q] for q in king neighbours(p))\n",
                        "...\n...\n"),
    "diagonal neighbours": (HEAD + "require for each cell p: x[p] implies count(x and diagonal neighbours(p)) == 1\n",
                            "...\n...\n"),
    "side neighbours count": (HEAD + "require for each cell p: x[p] implies count(x and neighbours(p)) == 1\n",
                              "...\n...\n"),
    "windows": (HEAD + "require for each 2x2 window w: count(x and w) == 2\n", "...\n...\n...\n"),
    "blocks": (HEAD + "require for each 1x2 block b: count(x and b) == 1\n", "....\n....\n"),
    "nested for each": (HEAD + "require for each row r, each p in r: x[p] implies count(x and r) == 2\n",
                        "...\n...\n"),
    "count for": (HEAD + "require count(x[q] and value(q) > 1 for q in clue) == 1\nrequire x in clue\n",
                  ". 2 3\n1 . 12\n"),
    "sum for": (HEAD + "require sum(value(q) * count(x and neighbours(q)) for q in clue) == 5\nrequire x avoids clue\n",
                "2 . 3\n. . .\n"),
    "all for": (HEAD + "require for each row r: all(x[q] for q in r) or all(not x[q] for q in r)\n", "..\n..\n.."),
    "or of comparisons": (HEAD + "require for each row r: count(x and r) == 0 or count(x and r) == 2\n",
                          "...\n...\n"),
    "not of equality": (HEAD + "require not (count(x) == 2)\nrequire count(x) <= 3\n", "...\n..."),
    "implies under implies": (HEAD + "require for each cell p: x[p] implies (count(x) >= 2 implies count(x) == 3)\n",
                              "...\n..."),
    "cell equality": (HEAD + "require for each cell p, each q in neighbours(p): p != q and x[p] implies not x[q]\n",
                      "...\n..."),
    "component of": (HEAD + "require for each c in clue: count(component of c in not x) == value(c)\n"
                            "require clue avoids x\n", "2..\n..1\n"),
    "clues in a component": (HEAD + "require for each c in clue: count(clue and component of c in not x) == 1\n"
                                    "require x is connected\n", "1..\n...\n.1.\n"),
    "sight": (HEAD + "require for each c in clue, each q in neighbours(c): count(sight from c toward q through not x) "
                     "<= 1\nrequire clue avoids x\nrequire count(x) == 2\n", "....\n.1..\n....\n"),
    "sight across rooms": (HEAD + "require for each cell p, each q in neighbours(p): not x[p] and q in not room(p) "
                                  "implies (sight from p toward q through not x) in room(q)\nrequire count(x) == 2\n",
                           "....\n....\n"
                                  "rooms:\naabb\nccdd\n"),
    "directions": (HEAD + "require for each cell p, each direction d: x[p] implies not x[p + d]\n", "...\n..."),
    "offset off the grid": (HEAD + "require for each cell p: x[p] implies x[p + right] or x[p - right]\n"
                                   "require count(x) == 2\n", "...\n..."),
    "line of an offset": (HEAD + "require for each cell p: x[p] implies count(x and row(p + down)) <= 1\n", "..\n..\n"),
    "sight toward a direction": (HEAD + "require for each c in clue, each direction d: "
                                        "count(sight from c toward d through not x) <= 1\nrequire clue avoids x\n"
                                        "require count(x) == 2\n", "....\n.1..\n....\n"),
    "same value at two cells": (HEAD + "require for each c in clue: x[c] = x[c + down]\n", "1.2\n...\n"),
    "different value across": (HEAD + "require for each cell p, each q in neighbours(p): x[p] != x[q] or p in clue\n",
                               "1..\n..."),
    "same value under implies": (HEAD + "require for each c in clue, each q in neighbours(c): x[c] implies x[c] = x[q]\n"
                                        "require for each cell p: p in clue implies x[p] = x[p + down]\n", "1..\n..1\n"),
    "different value under implies": (HEAD + "require for each c in clue, each q in neighbours(c): "
                                             "not x[q] implies x[c] != x[q]\n", "1..\n..1\n"),
    "is a piece of": (HEAD + "require x is a piece of polyominoes(3)\n", "...\n...\n"),
    "piece as a condition": (HEAD + "require for each room m: (x and m) is a piece of polyominoes(2) "
                                    "or count(x and m) == 0\n", "...\n...\nrooms:\naab\nabb\n"),
    "for each shape": (HEAD + "require x is a piece of polyominoes(3)\n"
                              "require for each shape s in polyominoes(3): not (x is a piece of s) or x in clue\n",
                       "1..\n11.\n"),
    "consists of": (HEAD + "param sizes: set of int = {1, 2}\nrequire x consists of polyominoes(sizes)\n",
                    "...\n..."),
    # A bank drawn in the map's header: a monomino and an L tromino.
    "shapes parameter": (HEAD + "param bank: shapes = tetrominoes\nrequire x consists of bank\n",
                         "bank: 1, 11/01\n...\n...\n"),
    "for each shape of a parameter": (HEAD + "param bank: shapes = polyominoes(2), polyominoes(3)\n"
                                      "require for each shape s in bank: not (x is a piece of s) or x in clue\n"
                                      "require x is a piece of bank\n", "1..\n11.\n"),
}


def brute_force(spec_text: str, map_text: str) -> set[frozenset[int]]:
    *_, grid, judge = _judge(spec_text, map_text)
    return {frozenset(i for i, b in enumerate(bits) if b) for bits in judged_answers(judge, grid, "x")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_brute_force(name, backend):
    spec_text, map_text = CASES[name]
    expected = brute_force(spec_text, map_text)
    spec, symbols, data, _, _ = _judge(spec_text, map_text)
    model, seconds = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    got = {frozenset(s.decisions["x"]) for s in report.solutions}
    assert got == expected
    assert report.complete is True or not expected


def test_cases_are_not_trivial():
    sizes = {name: len(brute_force(*CASES[name])) for name in CASES}
    assert all(n > 0 for n in sizes.values()), sizes
    assert sizes["row count"] == 9 and sizes["consists of"] > 0


def test_enumerated_decision_equal_at_two_cells():
    spec = ("tile cell '.'\ndecide kind: {a, b} | {3} on all\n"
            "require for each cell p, each q in neighbours(p): kind[p] = kind[q] or kind[p] = 3\n")
    *_, judge = _judge(spec, "...\n")
    expected = {values for values in itertools.product(("a", "b", 3), repeat=3)
                if judge.evaluate({"kind": dict(enumerate(values))}).ok}
    assert 0 < len(expected) < 27
    spec_ast = parse_spec(spec, "t.grid")
    symbols = check(spec_ast)
    for backend in BACKENDS:
        model, _ = load_checked(spec_ast, symbols, parse_map("...\n", "m.txt"), {})
        report = solve_model(model, backend, count=40)
        assert {tuple(s.decisions["kind"][i] for i in range(3)) for s in report.solutions} == expected


@pytest.mark.parametrize("rule,count", [("kind[p] = kind[q]", 30), ("kind[p] != kind[q]", 33)])
def test_enumerated_equality_under_implies_is_direct(rule, count):
    """A guarded ``D[p] = D[q]`` or ``!=`` is stated value by value: the same answers, no auxiliary variable.

    Two cells, one pair: 36 assignments, of which the guard leaves 27 free and the 9 with both
    linked are judged by the rule (3 equal, 6 different). Every answer is enumerated on every
    backend (the MILP re-solves once per answer), so the map is kept that small."""
    spec = ("tile cell '.'\ndecide link: bool on all\ndecide kind: {a, b} | {3} on all\n"
            f"require for each cell p, each q in neighbours(p): link[p] and link[q] implies {rule}\n")
    *_, judge = _judge(spec, "..\n")
    expected = {(links, kinds) for links in itertools.product((False, True), repeat=2)
                for kinds in itertools.product(("a", "b", 3), repeat=2)
                if judge.evaluate({"link": {i: True for i in range(2) if links[i]},
                                   "kind": dict(enumerate(kinds))}).ok}
    assert len(expected) == count
    spec_ast = parse_spec(spec, "t.grid")
    symbols = check(spec_ast)
    model, _ = load_checked(spec_ast, symbols, parse_map("..\n", "m.txt"), {})
    # One auxiliary: the guard "link[p] and link[q]" of the pair, shared by both directions.
    assert sum(v.family == "aux" for v in model.variables) == 1
    for backend in BACKENDS:
        report = solve_model(model, backend, count=count + 3)
        assert report.complete is True
        assert {(tuple(i in s.decisions["link"] for i in range(2)), tuple(s.decisions["kind"][i] for i in range(2)))
                for s in report.solutions} == expected


def test_integer_decision_all_different_and_given_values():
    spec = ("tile blank '.'\ntile given number\ndecide digit: 1..3 on all\n"
            "require for each g in given: digit[g] == value(g)\n"
            "require for each row r: all different digit in r\nrequire for each column k: all different digit in k\n")
    *_, judge = _judge(spec, "1..\n...\n..3\n")
    expected = set()
    for values in itertools.product((1, 2, 3), repeat=9):
        if judge.evaluate({"digit": dict(enumerate(values))}).ok:
            expected.add(values)
    assert len(expected) == 1
    spec_ast = parse_spec(spec, "t.grid")
    symbols = check(spec_ast)
    for backend in BACKENDS:
        model, seconds = load_checked(spec_ast, symbols, parse_map("1..\n...\n..3\n", "m.txt"), {})
        report = solve_model(model, backend, count=20)
        assert report.complete is True
        assert {tuple(s.decisions["digit"][i] for i in range(9)) for s in report.solutions} == expected


# ------------------------------------------------------------------- errors

def _check_error(spec_text: str):
    with pytest.raises((SemanticError, MultipleErrors)) as e:
        check(parse_spec(spec_text, "s.grid"))
    errors = e.value.errors if isinstance(e.value, MultipleErrors) else [e.value]
    return [(x.span.line, x.span.column, x.message) for x in errors]


@pytest.mark.parametrize("text,where,words", [
    (HEAD + "require not x is connected\n", (4, 13), "'is connected' is a rule of its own"),
    (HEAD + "require count(x[p] for p in x) == 1\n", (4, 29), "runs over a cell set known from the map"),
    (HEAD + "require for each c in x: x[c]\n", (4, 23), "'for each' runs over a set of integers"),
    (HEAD + "require for each cell p: count(x[p]) == 1\n", (4, 32), "count(... for q in S)"),
    (HEAD + "require for each cell p: x[p] and count(x)\n", (4, 35), "'and' combines"),
    (HEAD + "require count(x)\n", (4, 9), "a rule is a condition; this is a linear sum"),
    (HEAD + "require for each row r: x[r]\n", (4, 27), "takes one cell"),
    (HEAD + "require for each cell p: p in room(x)\n", (4, 36), "takes one cell"),
    (HEAD + "decide d: {a, b} on all\nrequire all different x in all\n", (5, 23), "takes an enumerated decision"),
    (HEAD + "require x is a piece of x\n", (4, 25), "a family of shapes"),
    (HEAD + "require for each cell p, each cell p: x[p]\n", (4, 36), "already bound"),
    (HEAD + "require for each direction d: count(x and d) == 1\n", (4, 43), "'and' combines cell sets; this is a direction"),
    (HEAD + "require for each cell p: x[right + p]\n", (4, 28), "write the cell first"),
    (HEAD + "param bank: shapes = 5\n", (4, 22), "the default of 'bank' is not of type shapes"),
    (HEAD + "param n: int = pentominoes\n", (4, 16), "the default of 'n' is not of type int"),
    (HEAD + "param bank: shapes = tetrominoes\nrequire count(x) == bank\n", (5, 21), "is a 'shapes' parameter"),
    (HEAD + "param bank: shapes >= 2 = tetrominoes\n", (4, 7), "bounds apply to 'int' parameters"),
])
def test_construct_errors_are_located(text, where, words):
    errors = _check_error(text)
    assert any((line, col) == where and words in msg for line, col, msg in errors), errors


def test_follow_up_errors_stay_meaningful():
    errors = _check_error(HEAD + "require for each cell p: x[p] implies count(y and neighbours(p)) == 1\n"
                                 "require for each rw r: x[r]\n".replace("rw r", "row r"))
    messages = [m for _, _, m in errors]
    assert messages[0].startswith("unknown name 'y'")
    assert any("takes one cell" in m for m in messages)
    assert len(messages) == 2  # no cascade from the unknown name


def _compile(spec_text: str, map_text: str):
    spec = parse_spec(spec_text, "s.grid")
    symbols = check(spec)
    return load_checked(spec, symbols, parse_map(map_text, "m.txt"), {})


def test_value_outside_the_domain_is_located_at_the_map_cell():
    spec = "tile blank '.'\ntile given number\ndecide digit: 1..4 on all\nrequire for each g in given: digit[g] == value(g)\n"
    with pytest.raises(MapError) as e:
        _compile(spec, ". . 12 .\n. . . .\n")
    assert (e.value.span.line, e.value.span.column) == (1, 5)
    assert "12 is not a value of 'digit' (1..4)" in e.value.message


def test_named_value_outside_the_domain_is_located_in_the_spec():
    spec = "tile blank '.'\ndecide digit: 1..4 on all\nrequire count(digit = 7) == 1\n"
    with pytest.raises(SemanticError) as e:
        _compile(spec, "..\n")
    assert (e.value.span.line, e.value.span.column) == (3, 23)
    assert "7 is not a value of 'digit' (1..4)" in e.value.message


def test_rooms_without_a_room_layer():
    with pytest.raises(SemanticError) as e:
        _compile(HEAD + "require for each room m: count(x and m) == 1\n", "..\n..\n")
    assert "the map m.txt has none" in e.value.message and e.value.span.line == 4


def test_blocks_that_do_not_tile_the_map():
    with pytest.raises(SemanticError) as e:
        _compile(HEAD + "require for each 2x2 block b: count(x and b) == 1\n", "...\n...\n")
    assert "2x2 blocks do not tile this 2x3 map" in e.value.message


def test_rule_that_cannot_hold_makes_the_puzzle_infeasible_and_is_explained():
    # A clue of 7 with two neighbours: no answer, as a conflict the solver finds; the explanation
    # is that one instance, the clue's.
    model, _ = _compile(HEAD + "require for each c in clue: count(x and neighbours(c)) == value(c)\n", "..\n.7\n")
    assert solve_model(model, "cpsat", SolveOptions()).result.status.name == "INFEASIBLE"
    explanation = explain(model)
    assert [i.binding for i in explanation.instances] == ["c = row 2, column 2 (clue 7)"]
    assert explanation.minimal


def test_constant_rule_of_parameters_alone_stays_an_error():
    with pytest.raises(SemanticError) as e:
        _compile("param n: int = 2\n" + HEAD + "require n == 3\n", "..\n..\n")
    assert "fails whatever the decisions: 2 == 3 is false with n = 2" in e.value.message
    assert (e.value.span.line, e.value.span.column) == (5, 9)


def test_sight_needs_a_side_neighbour():
    with pytest.raises(SemanticError) as e:
        _compile(HEAD + "require for each cell p, each q in king neighbours(p): count(sight from p toward q through x) >= 0\n",
                 "..\n..\n")
    assert "needs q beside p" in e.value.message


# ----------------------------------------------------------------- the maps

def test_spaced_cells_and_numbers_of_any_size():
    spec = "tile blank '.'\ntile clue number\ndecide x: bool on blank\nrequire count(x) == value(clue) - 134\n"
    model, _ = _compile(spec, "  . 100\n 36   .\n")
    assert model.grid.chars == (".", "100", "36", ".")
    report = solve_model(model, "cpsat", count=5)
    assert len(report.solutions) == 1 and report.solutions[0].decisions["x"] == {0: True, 3: True}


@pytest.mark.parametrize("text,where,words", [
    ("..\n..\nrooms:\naa\n", (4, 2), "the room layer has 1 rows; the grid has 2"),
    ("..\n..\nrooms:\naaa\nbbb\n", (4, 1), "the room layer has 3 cells a row; the grid has 2"),
    ("..\n..\nrooms:\naa\nb\n", (5, 2), "row 2 of the room layer has 1 cells; the first row has 2"),
    ("..\n..\nrooms:\naa\nbb\n\nzz\n", (7, 1), "unexpected text after the room layer"),
    ("..\n..\nrooms:\n", (3, 1), "'rooms:' is followed by no room layer"),
    (". 1\n. 2 3\n", (2, 5), "row 2 of the grid has 3 cells; the first row has 2"),
])
def test_map_layer_errors_are_located(text, where, words):
    with pytest.raises(MapError) as e:
        parse_map(text, "m.txt")
    assert (e.value.span.line, e.value.span.column) == where and words in e.value.message


def test_a_room_label_may_be_used_again_for_rooms_apart():
    model, _ = _compile(HEAD + "require for each room m: count(x and m) == 1\n", "...\n...\nrooms:\naba\naba\n")
    assert model.grid.room_cells() == [[0, 3], [1, 4], [2, 5]]


def test_plain_map_unchanged():
    data = parse_map("budget: 3\n~.~\n", "m.txt")
    assert data.rows == ["~.~"] and data.params["budget"][0] == "3"


def test_number_tile_conflicts_with_a_digit_character():
    errors = _check_error("tile one '1'\ntile clue number\n")
    assert any("a number tile claims every digit" in m for _, _, m in errors)


@pytest.mark.parametrize("raw,words", [
    ("10/1", "the rows of 10/1 differ in length"),
    ("101", "do not share sides as one piece"),
    ("000", "has 0 cells"),
    ("pentomino", "pentomino is neither"),
    ("polyominoes(9)", "polyominoes(9) is not a family gridlang builds"),
])
def test_a_bad_shapes_value_says_why(raw, words):
    with pytest.raises(ValueError) as e:
        parse_value(raw, "shapes")
    assert words in str(e.value)


def test_shapes_values_keep_order_and_repeats():
    l_tromino = parse_value("11/01", "shapes")
    assert parse_value("tetrominoes, 11/01, 10/11", "shapes") == polyominoes(4) + l_tromino * 2
    assert len(parse_value("polyominoes(5)", "shapes")) == 12


def test_a_shapes_value_in_the_map_header_is_located():
    spec = parse_spec(HEAD + "param bank: shapes = tetrominoes\nrequire x consists of bank\n", "t.grid")
    data = parse_map("bank: 11, 1x1\n..\n", "m.txt")
    with pytest.raises(ParamError) as e:
        resolve_params(check(spec), data, {})
    assert e.value.span.line == 1 and "1x1 is neither" in e.value.message


def test_a_shapes_default_out_of_range_is_located():
    spec = parse_spec(HEAD + "param bank: shapes = polyominoes(9)\nrequire x consists of bank\n", "t.grid")
    with pytest.raises(ParamError) as e:
        resolve_params(check(spec), parse_map("..\n", "m.txt"), {})
    assert (e.value.span.line, e.value.span.column) == (4, 22)
    assert "polyominoes(9) is not a family gridlang builds" in e.value.message
