"""What the search for the cheapest step (:mod:`gridlang.why.ocus`) reads off each answer
(:mod:`gridlang.why.truth`): the rule instances an answer satisfies, read off arrays, the same as
the constraints it breaks say, on Nurikabe, Sudoku and Snake Eggs. (The steps the search finds are
held by tests/why/test_why_grade.py and test_why_hints.py.)"""

from __future__ import annotations

import random

import pytest
from horse_data import REPO

from gridlang.compiler import compile_tagged
from gridlang.core.nodes import replace
from gridlang.ir.checks import broken_constraints
from gridlang.ir.model import Assignment
from gridlang.solving.pipeline import load
from gridlang.why.oracle import Oracle
from gridlang.why.truth import InstanceTruth


def _oracle(genre: str, instance: str) -> Oracle:
    model, _ = load(
        REPO / "puzzles" / f"{genre}.grid",
        REPO / "puzzles" / "instances" / genre / f"{instance}.txt",
    )
    tagged, tagging = compile_tagged(model)
    return Oracle(tagged, tagging)


def _holding_one_by_one(oracle: Oracle, answer: Assignment) -> frozenset:
    """The instances ``answer`` satisfies, by :func:`broken_constraints` over every instance's constraints."""
    owner, constraints = {}, []
    for g in oracle.groups:
        for con in oracle.members[g]:
            owner[id(con)] = g
            constraints.append(con)
    every = replace(oracle.model, constraints=tuple(constraints))
    broken = {owner[id(con)] for con, _ in broken_constraints(every, answer)}
    return frozenset(g for g in oracle.groups if g not in broken)


@pytest.mark.parametrize(
    "genre, instance, counts",
    [
        # instances; those the answer, all false and all true satisfy
        ("nurikabe", "pzprjs_5x5", (26, 26, 22, 11)),  # rows, and one connectivity rule
        (
            "sudoku",
            "pzprjs_4x4",
            (16, 16, 0, 4),
        ),  # rows of all-different and givens' clauses
        (
            "snake_eggs",
            "igornadj_test_5x5",
            (49, 49, 40, 43),
        ),  # clauses, rows and four regions
    ],
)
def test_the_instances_an_answer_satisfies_are_those_no_constraint_of_breaks(
    genre, instance, counts
):
    oracle = _oracle(genre, instance)
    truth = InstanceTruth(oracle.model, oracle.groups, oracle.members)
    answer = oracle.check(oracle.groups).assignment
    n = oracle.model.num_vars
    found = (
        len(oracle.groups),
        len(truth.holding(answer)),
        len(truth.holding(Assignment((False,) * n))),
        len(truth.holding(Assignment((True,) * n))),
    )
    assert found == counts
    draw = random.Random(50)
    for _ in range(40):
        values = list(answer.values)
        for v in draw.sample(range(n), draw.randint(1, 6)):
            values[v] = not values[v]
        shaken = Assignment(tuple(values))
        assert truth.holding(shaken) == _holding_one_by_one(oracle, shaken)
    oracle.close()
