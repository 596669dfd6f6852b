"""Blocks of equal values and runs around a cell: each lowering counted against brute force, on every backend.

For a tiny map and a spec that uses one construct, every answer (every
assignment of the spec's one decision) is judged by the interpreter (sets
and breadth-first search, no IR); the answers so found must be exactly
those each backend enumerates, with its native lowering and, for MaxSAT,
with the clause decomposition too (``--connectivity tree``). Errors are
asserted at their line and column.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import pytest
from tiny import grid_of
from tiny import spec_errors as _errors
from tiny import spec_judge as _judge

from gridlang.formats.maps import parse_map
from gridlang.ir.backend import SolveOptions, backend_names
from gridlang.ir.connectivity.blocks import block_splits
from gridlang.ir.model import EqualBlocks, Table
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.solving.pipeline import load_checked, solve_model
from gridlang.why import explain

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
BACKENDS = tuple(b for b in backend_names() if b != "auto")

FILL = "tile cell '.'\ntile given number\n"
BLOCK = "require for each cell p: count(component of p in (digit = digit[p])) == digit[p]\n"
GIVEN = "require for each g in given: digit[g] == value(g)\n"
TAPA = "tile blank '.'\ntile clue number\ndecide shaded: bool on blank\n"

# name -> (spec, map, decision, its values)
CASES = {
    "blocks of their own size": (FILL + "decide digit: 1..3 on all\n" + BLOCK, "...\n...\n", "digit", (1, 2, 3)),
    "blocks with givens": (FILL + "decide digit: 1..3 on all\n" + BLOCK + GIVEN, "3...\n....\n", "digit",
                           (1, 2, 3)),
    "block size against a constant": (FILL + "decide x: bool on all\n"
                                      "require for each cell p: count(component of p in (x = x[p])) <= 2\n",
                                      "...\n...\n", "x", (False, True)),
    "block size both ways round": (FILL + "decide digit: 1..3 on all\n"
                                   "require for each cell p: digit[p] + 1 > count(component of p in (digit = digit[p]))\n"
                                   "require for each cell p: 2 <= count(component of p in (digit = digit[p]))\n",
                                   "...\n...\n", "digit", (1, 2, 3)),
    "blocks of a named enumeration": (FILL + "decide kind: {a, b} on all\n"
                                      "require for each cell p: count(component of p in (kind = kind[p])) >= 2\n"
                                      "require for each cell p: kind[p] = b implies count(kind = kind[p]) <= 2\n",
                                      "...\n...\n", "kind", ("a", "b")),
    "blocks on some cells": (FILL + "tile wall '#'\ndecide digit: 1..3 on cell\n"
                             "require for each p in cell: count(component of p in (digit = digit[p])) == digit[p]\n",
                             ".#.\n...\n", "digit", (1, 2, 3)),
    # the values above the largest given made as one (constructs/blocks/domains.py), read back as block sizes
    "blocks opened above a given one": (FILL + "decide digit: 1..(count(all)) on all\n" + BLOCK + GIVEN, "1....\n",
                                        "digit", (1, 2, 3, 4, 5)),
    "blocks opened above a compared two": (FILL + "decide digit: 1..(count(all)) on all\n" + BLOCK + GIVEN
                                           + "require for each cell p: digit[p] != 2\n", "1....\n", "digit",
                                           (1, 2, 3, 4, 5)),
    "blocks opened on a square": (FILL + "decide digit: 1..(count(all)) on all\n" + BLOCK + GIVEN, "1.\n..\n",
                                  "digit", (1, 2, 3, 4)),
    "guarded block size": (FILL + "decide digit: 1..2 on all\n"
                           "require for each cell p: digit[p] = 2 implies "
                           "count(component of p in (digit = digit[p])) == 2\n", "...\n...\n", "digit", (1, 2)),
    "runs of one number": (TAPA + "require for each c in clue: runs of shaded around c == value(c)\n",
                           "...\n.3.\n...\n", "shaded", (False, True)),
    "runs of a full ring": (TAPA + "require for each c in clue: runs of shaded around c == value(c)\n",
                            "...\n.8.\n...\n", "shaded", (False, True)),
    "runs at the edge": (TAPA + "require for each c in clue: runs of shaded around c == value(c)\n",
                         "2..\n...\n", "shaded", (False, True)),
    "runs of no cell": (TAPA + "require for each c in clue: runs of shaded around c == value(c)\n",
                        "...\n.0.\n...\n", "shaded", (False, True)),
    "runs of a complement": (TAPA + "require for each c in clue: runs of (not shaded) around c == 2\n",
                             "...\n.1.\n...\n", "shaded", (False, True)),
    "runs under a guard": (TAPA + "require for each c in clue: shaded[c + up] implies runs of shaded around c == 3\n",
                           "...\n.1.\n...\n", "shaded", (False, True)),
    "runs as a condition": (TAPA + "require for each c in clue: runs of shaded around c == 2 or count(shaded) == 1\n",
                            "...\n.1.\n...\n", "shaded", (False, True)),
    "runs differ": (TAPA + "require for each c in clue: not (runs of shaded around c == 1)\nrequire count(shaded) <= 2\n",
                    "...\n.1.\n...\n", "shaded", (False, True)),
}


@functools.cache
def brute_force(name: str) -> frozenset[tuple]:
    spec_text, map_text, decision, values = CASES[name]
    spec, symbols, data, grid, judge = _judge(spec_text, map_text)
    cells = sorted(judge.on[decision])
    found = set()
    for combo in itertools.product(values, repeat=len(cells)):
        answer = dict(zip(cells, combo))
        if isinstance(values[0], bool):
            answer = {i: True for i, v in answer.items() if v}
        if judge.evaluate({decision: answer}).ok:
            found.add(_key(answer, cells, values))
    return frozenset(found)


def _key(answer: dict, cells: list[int], values) -> tuple:
    if isinstance(values[0], bool):
        return tuple(i in answer for i in cells)
    return tuple(answer[i] for i in cells)


def _solve(name: str, backend: str, connectivity: str | None = None) -> set[tuple]:
    spec_text, map_text, decision, values = CASES[name]
    spec, symbols, data, grid, judge = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    expected = brute_force(name)
    report = solve_model(model, backend, SolveOptions(time_limit=120, connectivity=connectivity),
                         count=len(expected) + 3)
    assert report.complete is True or not expected
    cells = sorted(judge.on[decision])
    return {_key(s.decisions[decision], cells, values) for s in report.solutions}


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_brute_force(name, backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    assert _solve(name, backend) == brute_force(name)


@pytest.mark.parametrize("strategy", ["cpsat:flow", "milp:flow", "asp:cuts", "maxsat:tree"])
@pytest.mark.parametrize("name", [n for n in sorted(CASES) if "block" in n])
def test_other_lowerings_match_brute_force(name, strategy):
    """The blocks' other lowerings: the flow inside blocks (CP-SAT, MILP), the cut loop on clingo, and the
    clause decomposition (MaxSAT's tree: roots, clauses, one connectivity per root)."""
    backend, connectivity = strategy.split(":")
    assert _solve(name, backend, connectivity) == brute_force(name)


def test_cases_are_not_trivial():
    sizes = {name: len(brute_force(name)) for name in CASES}
    assert all(0 < n < 3 ** 9 for n in sizes.values()), sizes
    # 2x3 and 2x4 Fillominos of sizes 1..3, counted by a separate search: 16 and 3 (with a 3 in a corner)
    assert sizes["blocks of their own size"] == 16 and sizes["blocks with givens"] == 3, sizes
    # 1 4 4 4 4 and 1 3 3 3 1; with no 2 the same; the 1 in a 2x2's corner and an L of 3
    assert [sizes[f"blocks opened {case}"] for case in ("above a given one", "above a compared two", "on a square")] \
        == [2, 2, 1], sizes


def test_one_node_per_decision_not_one_region_per_cell():
    spec_text, map_text, *_ = CASES["blocks with givens"]
    spec, symbols, data, *_ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    blocks = [c for c in model.constraints if isinstance(c, EqualBlocks)]
    assert len(blocks) == 1 and len(blocks[0].cells) == 8 and len(blocks[0].bounds) == 8 * 3
    assert model.kinds() == {"Clause", "Linear", "EqualBlocks"}  # the givens' unit clauses, the one-hot rows


def test_runs_become_one_table_per_clue():
    spec_text, map_text, *_ = CASES["runs of one number"]
    spec, symbols, data, *_ = _judge(spec_text, map_text)
    model, _ = load_checked(spec, symbols, data, {})
    tables = [c for c in model.constraints if isinstance(c, Table)]
    assert len(tables) == 1 and len(tables[0].lits) == 8
    # a run of 3 in a ring of 8: 8 places
    assert len(tables[0].allowed) == 8


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize("rule,where,words", [
    ("require for each c in clue: runs of shaded around c < 3", (4, 29), "compared with '==' only"),
    ("require for each c in clue: runs of shaded around c == shaded", (4, 56),
     "compared with a clue list known from the map, values(c), or one number; this is a cell set"),
    ("require for each c in clue: count(runs of shaded around c) == 1", (4, 35),
     "'runs of S around c' is compared with a clue list"),
    ("require for each c in clue: runs of 3 around c == 2", (4, 37), "takes a cell set S; this is an integer"),
    ("require runs of shaded around shaded == 2", (4, 31), "'runs of S around c' takes one cell"),
    ("require for each c in clue: runs of shaded around c == runs of shaded around c", (4, 56),
     "not with other runs"),
    ("require for each cell p: count(component of p in (clue = clue[p])) == 1", (4, 51),
     "'clue = clue[p]' needs a decision on cells; 'clue' is a tile"),
    ("require for each cell p: count(component of p in (shaded = shaded[shaded])) == 1", (4, 67), "takes one cell"),
])
def test_errors_are_located(rule, where, words):
    errors = _errors(TAPA + rule + "\n")
    assert any((line, col) == where and words in msg for line, col, msg in errors), errors


def test_two_decisions_in_one_block_set_are_a_syntax_error():
    spec = FILL + "decide digit: 1..3 on all\ndecide other: 1..3 on all\n" \
                  "require for each cell p: count(component of p in (digit = other[p])) == 1\n"
    errors = _errors(spec)
    assert errors[0][:2] == (5, 59) and "compares two decisions" in errors[0][2], errors


def test_edge_decision_in_a_block_set_is_refused():
    errors = _errors(FILL + "decide line: bool on edges\nrequire for each cell p: count(line = line[p]) == 1\n")
    assert any((line, col) == (4, 32) and "decision on edges" in msg for line, col, msg in errors), errors


def test_runs_that_cannot_hold_make_the_puzzle_infeasible_at_the_clue():
    spec = parse_spec(TAPA + "require for each c in clue: runs of shaded around c == 9\n", "t.grid")
    symbols = check(spec)
    model, _ = load_checked(spec, symbols, parse_map("...\n.9.\n...\n", "m.txt"), {})
    explanation = explain(model)
    assert [i.binding for i in explanation.instances] == ["c = row 2, column 2 (clue 9)"]


def test_blocks_are_one_construct_found_by_its_nodes():
    # Every stage reaches D = D[p] and runs of S around c through the registry: the nodes live
    # in gridlang.constructs.blocks, and no stage's module names them.
    from gridlang.constructs.blocks import Runs, RunsConstruct, SameValue, SameValueConstruct
    from gridlang.language import ast
    from gridlang.language.constructs import comparison_of, construct_of, rule, rule_lowerings

    spec = parse_spec(TAPA + "decide digit: 1..3 on all\n"
                             "require for each c in clue: runs of shaded around c == values(c)\n"
                             "require for each cell p: count(component of p in (digit = digit[p])) == digit[p]\n",
                      "t.grid")
    runs_rule, block_rule = (st.body for st in spec.statements[-2:])
    same_value = block_rule.left.operand.within
    assert isinstance(runs_rule.left, Runs) and isinstance(same_value, SameValue)
    assert isinstance(construct_of(same_value), SameValueConstruct)
    construct, own, other = comparison_of(runs_rule)
    assert isinstance(construct, RunsConstruct) and own is runs_rule.left and isinstance(other, ast.ValuesOf)
    assert comparison_of(block_rule) is None  # a comparison of numbers, whose blocks' sizes a rule lowering states
    assert construct_of(same_value) in rule_lowerings()
    assert rule("runs") is not None and rule("same_value") is not None
    assert not hasattr(ast, "SameValue") and not hasattr(ast, "Runs")


# ------------------------------------------------- values above the largest number made as one


def test_values_above_the_largest_compared_number_are_made_as_one():
    """Fillomino's 1..(count(all)) keeps the values up to the largest number a rule compares the digits
    with, and one value for every size above, bounded from below only; Fillomino's spec so."""
    found = {}
    for name in ("blocks opened above a given one", "blocks opened above a compared two"):
        spec_text, map_text, *_ = CASES[name]
        spec, symbols, data, *_ = _judge(spec_text, map_text)
        model, _ = load_checked(spec, symbols, data, {})
        (digit,), (blocks,) = model.decisions, [c for c in model.constraints if isinstance(c, EqualBlocks)]
        found[name] = digit.values, digit.open_value, sorted({(v, lo, hi) for _, v, lo, hi in blocks.bounds})
    assert found == {"blocks opened above a given one": ((1, 2), 2, [(1, 1, 1), (2, 2, None)]),
                     "blocks opened above a compared two": ((1, 2, 3), 3, [(1, 1, 1), (2, 2, 2), (3, 3, None)])}
    spec = parse_spec((PUZZLES / "fillomino.grid").read_text(), "fillomino.grid")
    rows = "\n".join(" ".join("." * 40) for _ in range(40))
    model, _ = load_checked(spec, check(spec), parse_map("7 " + rows[2:] + "\n", "m.txt", "Fillomino"), {})
    assert model.decisions[0].values == tuple(range(1, 9)) and model.num_vars == 1600 * 8  # not 1600 * 1600


def test_a_block_read_as_one_that_splits_stands_for_more_answers(backend):
    """On ``1.....`` the model's answers are 1 O O O O O, 1 O O O O 1 and 1 O O 1 O O (O the open value 2,
    from 2 up); the block of five splits into 3 and 2 or 2 and 3, two answers more: five in all."""
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, _grid, judge = _judge(FILL + "decide digit: 1..(count(all)) on all\n" + BLOCK + GIVEN,
                                               "1.....\n")
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=60), count=10)
    answers = {tuple(s.decisions["digit"][i] for i in range(6)) for s in report.solutions}
    assert report.complete is True and answers == {(1, 5, 5, 5, 5, 5), (1, 4, 4, 4, 4, 1), (1, 3, 3, 3, 2, 2),
                                                   (1, 2, 2, 3, 3, 3), (1, 2, 2, 1, 2, 2)}
    assert all(judge.evaluate({"digit": s.decisions["digit"]}).ok for s in report.solutions)
    assert solve_model(model, backend, SolveOptions(time_limit=60), unique=True).unique is False


def test_a_split_search_out_of_steps_proves_nothing():
    assert block_splits(grid_of(1, 5), [1, 2, 3, 4], 2) == ([], True)  # 2 and 2 would touch
    assert block_splits(grid_of(6, 6), list(range(36)), 18) == ([], True)  # 18 and 18 would touch
    assert block_splits(grid_of(1, 5), list(range(5)), 2) == ([[[0, 1, 2], [3, 4]], [[0, 1], [2, 3, 4]]], True)
    assert block_splits(grid_of(1, 5), list(range(5)), 2, steps=1) == ([], False)


def test_an_answer_entered_with_a_block_above_the_open_value_is_judged_by_the_rules():
    """The page's and ``gridlang verify``'s check takes any size up to the cells for the open value's (4 here:
    Fillomino's tri rule compares the digits with 3)."""
    from gridlang.core.errors import ParamError
    from gridlang.service.board import judge
    from gridlang.solving.spec import load_spec

    spec = load_spec(PUZZLES / "fillomino.grid")
    data = parse_map("1 . . . . .\n", "m.txt", "Fillomino")
    right = {"digit": {(0, 0): 1, **{(0, c): 5 for c in range(1, 6)}}}
    wrong = {"digit": {(0, 0): 1, **{(0, c): 4 for c in range(1, 6)}}}
    assert (judge(spec, data, right).ok, judge(spec, data, wrong).ok) == (True, False)
    with pytest.raises(ParamError, match="'digit' takes 1, 2, 3, or a number from 4 to 6, not 7"):
        judge(spec, data, {"digit": {(0, 1): 7}})
