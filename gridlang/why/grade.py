"""A puzzle's difficulty, read from its hint steps and calibrated on human ratings.

Setters grade a puzzle by its hardest deduction: Sudoku Explainer and
HoDoKu rate a Sudoku by the hardest technique its solution needs (Sukaku
Explainer, the grader of the Sudoku Exchange puzzle bank, is Sudoku
Explainer's successor), and R. Pelanek ("Difficulty rating of Sudoku puzzles
by a computational model", FLAIRS 2011; "Difficulty rating of Sudoku
puzzles: an overview and evaluation", arXiv:1403.7373, 2014) rates a puzzle
from the steps a model of human solving takes and the techniques they need,
against human solving times.
A hint sequence (:mod:`gridlang.why.hints`, the step-wise explanations of B.
Bogaerts, E. Gamba and T. Guns, Artificial Intelligence 300, 2021) takes
at every point the step of fewest rule instances its search can find
(proved cheapest by implicit hitting sets where the rounds allow,
:mod:`gridlang.why.ocus`), so its hardest step is the point where a player
must think hardest. Each step costs

    cost = rule instances + KNOWN_WEIGHT * known cells

(:data:`KNOWN_WEIGHT`: a rule instance weighs four known cells), and the
puzzle's ``difficulty`` is the largest step cost; its level is read off
:data:`LEVELS`. Both were chosen by measurement on 143 Sudokus of the Sudoku
Exchange puzzle bank with their Sukaku Explainer ratings
(``benchmarks/data/sudoku-exchange/``, ``benchmarks/grading.py``; figures
in docs/benchmarks.md), fitted on one half of the sample and checked on the
other: the hardest step's count of rule instances carries the signal, the
known cells break ties between steps of the same count, and sums over the
steps, counts of steps near the hardest, the cells still open at it and
soft maxima did worse or no better. The Spearman correlation with the
rating is 0.878 on the whole sample (0.840 when the steps were the greedy
ones): short of the 0.9 aimed at, as most hardest steps are not proved
the cheapest. The thresholds are those that best sort half A's
cheapest steps into the bank's four files (easy below 1.5, medium below 2.5,
hard below 5, diabolical from 5: the level ``expert``), checked on half B
(the mean share of a file given its own level: 0.81 on half A, 0.88 on
half B; the bounds fitted to the greedy steps, 7, 9.75 and 14, gave 0.70
on these); 126 of the 143 puzzles get their file's level. The grade is calibrated on Sudoku alone;
on other genres it ranks puzzles by the same cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridlang.why.hints import Hints, Step

KNOWN_WEIGHT = 0.25
"""What one known cell adds to a step's cost, in rule instances."""

LEVELS = (("easy", 6.0), ("medium", 8.0), ("hard", 13.0), ("expert", float("inf")))
"""``(level, bound)`` in order: a difficulty below ``bound`` (and at least the bound before) has
that level."""


@dataclass(frozen=True)
class Grade:
    """A puzzle's difficulty.

    Attributes:
        difficulty: the cost of its hardest step (:func:`step_cost`); larger is harder.
        level: ``easy``, ``medium``, ``hard`` or ``expert`` (:data:`LEVELS`).
        hardest: the hardest step's number, from 1.
        complete: the steps reach the whole answer; when False (the time ran out, or cells
            are open) the difficulty is that of the steps found, a lower bound.
    """

    difficulty: float
    level: str
    hardest: int
    complete: bool

    def to_json(self) -> dict:
        """``difficulty``, ``level``, ``hardest_step`` and ``difficulty_complete``."""
        return {
            "difficulty": self.difficulty,
            "level": self.level,
            "hardest_step": self.hardest,
            "difficulty_complete": self.complete,
        }


def step_cost(step: Step) -> float:
    """A step's cost: its rule instances plus :data:`KNOWN_WEIGHT` per known cell (entry) it uses."""
    rules, known = step.cost
    return rules + KNOWN_WEIGHT * known


def level_of(difficulty: float) -> str:
    """The level of a difficulty (:data:`LEVELS`)."""
    return next(name for name, bound in LEVELS if difficulty < bound)


def grade(hints: Hints) -> Grade | None:
    """The difficulty of a puzzle from its hint steps (see the module docstring).

    Args:
        hints: the steps of :func:`gridlang.why.hints.explain_steps`.

    Returns:
        The grade, or None when there is no step (no answer explained, or
        an optimum not proved).
    """
    if not hints.steps:
        return None
    costs = [step_cost(s) for s in hints.steps]
    hardest = max(range(len(costs)), key=costs.__getitem__)
    return Grade(costs[hardest], level_of(costs[hardest]), hardest + 1, hints.complete)


def levels_text() -> str:
    """``easy below 6, medium below 8, hard below 13, expert from 13``."""
    parts = [f"{name} below {bound:g}" for name, bound in LEVELS[:-1]]
    return ", ".join(parts) + f", {LEVELS[-1][0]} from {LEVELS[-2][1]:g}"
