"""Decisions on edges are one construct (gridlang.constructs.edges), reached through the registry.

The meaning of each edge construct is counted against brute force in
tests/puzzles/test_lines.py and tests/puzzles/test_edge_values.py; here,
that every stage finds the nodes, the decisions on edges and their rules
through :mod:`gridlang.language.constructs`, (a cached spec whose only use of the
construct is a decision on edges: tests/language/test_startup.py).
"""

from __future__ import annotations

import pytest
from tiny import spec_judge as _judge

from gridlang.ir.backend import SolveOptions
from gridlang.ir.model import GraphConnected
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.solving.pipeline import load_checked, solve_model

SPEC = ("tile cell '.'\ntile clue number\ndecide line: bool on edges\ndecide wall: bool on corner edges\n"
        "require line is a loop\n"
        "require for each c in clue: degree(line, c) == 2\n"
        "require for each c in clue: straight(line, c) != turn(line, c)\n"
        "require for each c in clue: line[c, c + up] implies line[c, c + down]\n"
        "require for each c in clue: count(component of c along line) >= 4\n"
        "require for each c in clue: sum(degree(wall, v) for v in corners(c)) == 4\n"
        "require wall is connected\n")


def test_edges_are_one_construct_found_by_its_nodes():
    from gridlang.constructs import edges
    from gridlang.language import ast
    from gridlang.language.constructs import construct_of, decision_of, rule

    spec = parse_spec(SPEC, "e.grid")
    check(spec)

    def formula_of(st):
        st = st.body if isinstance(st, ast.ForEach) else st
        return st.formula if isinstance(st, ast.Holds) else st

    loop, degree, bends, edge, along, corners = (formula_of(st) for st in spec.statements[4:10])
    nodes = [loop, degree.left, bends.operand.left, edge.left, along.left.operand, corners.left.domain]
    kinds = [edges.IsLoop, edges.Degree, edges.Bend, edges.EdgeAt, edges.ComponentAlong, edges.CornersOf]
    for node, kind in zip(nodes, kinds):
        assert type(node) is kind and construct_of(node) is not None and construct_of(node).node is kind
    assert construct_of(loop).statement and construct_of(corners.left.domain).corners
    assert decision_of("edges") is decision_of("corners") is edges.DECISIONS
    for name in ("at_edge", "degree", "straight", "turn", "is_loop", "component_along", "corners_of"):
        assert rule(name) is not None, name
    for name in ("EdgeAt", "Degree", "Bend", "IsLoop", "ComponentAlong", "CornersOf"):
        assert not hasattr(ast, name), name


def test_a_spec_with_every_edge_construct_solves_and_verifies():
    spec, symbols, data, grid, judge = _judge(SPEC, "...\n.1.\n...\n")
    model, _ = load_checked(spec, symbols, data, {})
    assert sum(isinstance(c, GraphConnected) for c in model.constraints) == 3  # loop, along, wall
    report = solve_model(model, "cpsat", SolveOptions(time_limit=60), count=2)
    assert report.solutions
    for solution in report.solutions:
        assert judge.evaluate(solution.decisions).ok


def test_is_a_loop_under_implies_is_an_error():
    from gridlang.core.errors import GridlangError

    with pytest.raises(GridlangError, match="is a loop"):
        _judge("tile cell '.'\ndecide line: bool on edges\nrequire line[(1,1), (1,2)] implies line is a loop\n",
               "..\n..\n")

