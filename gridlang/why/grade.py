"""A puzzle's difficulty, read from its hint steps and its reasoning depth, calibrated on human ratings.

Setters grade a puzzle by its hardest deduction: Sudoku Explainer and
HoDoKu rate a Sudoku by the hardest technique its solution needs (Sukaku
Explainer, the grader of the Sudoku Exchange puzzle bank, is Sudoku
Explainer's successor: singles, then intersections, subsets and fish, then
chains, then nested chains), and R. Pelanek ("Difficulty rating of Sudoku
puzzles by a computational model", FLAIRS 2011; "Difficulty rating of Sudoku
puzzles: an overview and evaluation", arXiv:1403.7373, 2014) rates a puzzle
from the steps a model of human solving takes and how hard each is to find,
against human solving times. Two measures go into the grade:

* the size of the hardest step: a hint sequence (:mod:`gridlang.why.hints`,
  the step-wise explanations of B. Bogaerts, E. Gamba and T. Guns, Artificial
  Intelligence 300, 2021) takes at every point the step of fewest rule
  instances its search can find, and a step costs
  ``rule instances + KNOWN_WEIGHT * known cells`` (:func:`step_cost`);
* how deep and how hidden the reasoning is (:mod:`gridlang.why.depth`: unit
  propagation and failed literals over every rule instance, after I. Lynce
  and J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006): the most values a
  player probes per contradiction found (``probes``) and how far a
  contradiction runs (``refutation``, the decision entries set before it).

The puzzle's ``difficulty`` is

    cost + min(PROBE_WEIGHT * log2(probes) + REFUTATION_WEIGHT * refutation, DEPTH_CAP * cost)

where ``cost`` is the hardest step's (the depth's terms 0 when unit
propagation alone reaches the answer), and its level is read off
:data:`LEVELS`. The two terms count only when the
walk reaches the whole answer (:attr:`Depth.complete`): a walk that stops
short has met reasoning its clauses do not propagate (a deeper look-ahead,
or a rule whose clauses are learned lazily, as connectivity's cuts are,
absent from the fresh oracle it reads), and its figures then measure that
blind spot more than the puzzle (a 10x10 LITS's walk stops at 13.5 probes
per failed literal, a 10x10 Yajilin's at 153, and added 32 and 48 to every
grade of theirs); the hint steps, whose solver calls see every rule, carry
the grade there alone. The cap (:data:`DEPTH_CAP`) keeps a walk from making
a puzzle of small steps hard: where every step is one rule instance, failed
literals stand for what an instance decides that its clauses do not
propagate (a 4x4 Chocona whose hardest step costs 2.5 graded 19.74). The weights and bounds were chosen by
measurement on 143 Sudokus of the Sudoku Exchange puzzle bank with their
Sukaku Explainer ratings (``benchmarks/data/sudoku-exchange/``,
``benchmarks/grading.py``; figures in docs/benchmarks.md), fitted on one
half of the sample (half A) and checked on the other (half B). The hardest
step's cost alone gives a Spearman correlation of 0.878 with the rating
(0.912 on half A, 0.839 on half B); with the depth's two terms 0.905 (0.935
and 0.872), and capped 0.905 (0.938 and 0.868). One level of failed literals reaches the answer of every one of
those Sudokus, so the depth itself (0 or 1) separates only the easiest from
the rest; the probes and the refutations separate the diabolical ones. The
grade is calibrated on Sudoku alone; on other genres it ranks puzzles by the
same measures, its levels not calibrated there (docs/benchmarks.md gives the
levels of the shipped instances up to 10x10).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gridlang.why.depth import Depth
from gridlang.why.hints import Hints, Step

KNOWN_WEIGHT = 0.25
"""What one known cell adds to a step's cost, in rule instances."""

PROBE_WEIGHT = 6.0
"""What each doubling of the probes per failed literal (:attr:`Depth.probes`) adds to the difficulty."""

REFUTATION_WEIGHT = 0.1
"""What each decision entry of a refutation (:attr:`Depth.refutation`) adds to the difficulty."""

DEPTH_CAP = 1.0
"""The most the depth's two terms add, as a multiple of the hardest step's cost: how hidden a step
is scales how hard it is, and cannot make a puzzle of small steps hard by itself."""

LEVELS = (("easy", 6.0), ("medium", 15.75), ("hard", 22.5), ("expert", float("inf")))
"""``(level, bound)`` in order: a difficulty below ``bound`` (and at least the bound before) has
that level."""


@dataclass(frozen=True)
class Grade:
    """A puzzle's difficulty.

    Attributes:
        difficulty: the hardest step's cost plus the depth's terms (:func:`difficulty_of`),
            rounded to hundredths; larger is harder.
        level: ``easy``, ``medium``, ``hard`` or ``expert`` (:data:`LEVELS`).
        hardest: the hardest step's number, from 1.
        complete: the steps reach the whole answer and the depth's walk was made; when False
            (the time ran out, or cells are open) the difficulty is that of what was found, a
            lower bound. (A walk stuck at depth 2 is made; it adds nothing to the difficulty.)
        cost: the hardest step's cost (:func:`step_cost`).
        depth: the walk of :func:`gridlang.why.depth.reasoning_depth`, or None when it was not
            made (the time ran out first); its terms are in ``difficulty`` only when it is
            complete.
    """

    difficulty: float
    level: str
    hardest: int
    complete: bool
    cost: float = 0.0
    depth: Depth | None = None

    def to_json(self) -> dict:
        """``difficulty``, ``level``, ``hardest_step``, ``difficulty_complete``, ``hardest_cost`` and
        ``depth`` (:meth:`Depth.to_json`, or null)."""
        return {
            "difficulty": self.difficulty,
            "level": self.level,
            "hardest_step": self.hardest,
            "difficulty_complete": self.complete,
            "hardest_cost": self.cost,
            "depth": None if self.depth is None else self.depth.to_json(),
        }


def step_cost(step: Step) -> float:
    """A step's cost: its rule instances plus :data:`KNOWN_WEIGHT` per known cell (entry) it uses."""
    rules, known = step.cost
    return rules + KNOWN_WEIGHT * known


def depth_term(probes: float, refutation: float, probe_weight: float = PROBE_WEIGHT,
               refutation_weight: float = REFUTATION_WEIGHT) -> float:
    """What the reasoning depth adds before its cap: ``probe_weight * log2(probes) +
    refutation_weight * refutation`` (``probes`` below 1, as without a failed literal, counts as 1;
    the weights :data:`PROBE_WEIGHT` and :data:`REFUTATION_WEIGHT` unless given, as a fit of them does)."""
    return probe_weight * math.log2(max(probes, 1.0)) + refutation_weight * refutation


def difficulty_of(cost: float, probes: float, refutation: float, *, probe_weight: float = PROBE_WEIGHT,
                  refutation_weight: float = REFUTATION_WEIGHT, cap: float | None = DEPTH_CAP) -> float:
    """The difficulty of a puzzle whose hardest step costs ``cost`` and whose depth's walk gave
    ``probes`` and ``refutation`` (:class:`~gridlang.why.depth.Depth`): ``cost`` plus
    :func:`depth_term`, that at most ``cap`` (:data:`DEPTH_CAP`; None: no cap) times ``cost``,
    rounded to hundredths. The keyword weights are the grade's own unless given (the calibration's
    fit, ``benchmarks/grading.py``, tries others)."""
    term = depth_term(probes, refutation, probe_weight, refutation_weight)
    return round(cost + (term if cap is None else min(term, cap * cost)), 2)


def level_of(difficulty: float) -> str:
    """The level of a difficulty (:data:`LEVELS`)."""
    return next(name for name, bound in LEVELS if difficulty < bound)


def grade(hints: Hints) -> Grade | None:
    """The difficulty of a puzzle from its hint steps and its depth (see the module docstring): the
    depth's terms are counted when its walk reached the whole answer, not otherwise.

    Args:
        hints: the steps of :func:`gridlang.why.hints.explain_steps` (and their ``depth``).

    Returns:
        The grade, or None when there is no step (no answer explained, or
        an optimum not proved).
    """
    if not hints.steps:
        return None
    costs = [step_cost(s) for s in hints.steps]
    hardest = max(range(len(costs)), key=costs.__getitem__)
    depth = hints.depth
    counted = depth is not None and depth.complete
    value = difficulty_of(
        costs[hardest],
        depth.probes if counted else 0.0,
        depth.refutation if counted else 0.0,
    )
    complete = hints.complete and depth is not None
    return Grade(value, level_of(value), hardest + 1, complete, costs[hardest], depth)


def depth_text(depth: Depth | None) -> str:
    """The depth's figures in words: ``unit propagation alone reaches the answer``, ``failed literals:
    1.6 probes each, a refutation sets 90 values``, the same followed by ``, then none: the walk
    stops short of the answer and adds nothing`` when a round found none (and ``unit propagation and
    one level of failed literals do not reach the answer: the walk adds nothing`` when the first
    did), or ``depth not measured``."""
    if depth is None:
        return "depth not measured"
    short = "the walk stops short of the answer and adds nothing"
    if not depth.rounds:
        return (
            "unit propagation alone reaches the answer"
            if depth.depth == 0
            else "unit propagation and one level of failed literals do not reach the answer: "
            "the walk adds nothing"
        )
    return (
        f"failed literals: {depth.probes:.1f} probes each, a refutation sets {depth.refutation:g} "
        f"value{'' if depth.refutation == 1 else 's'}"
        + (f", then none: {short}" if depth.depth == 2 else "")
    )


def levels_text() -> str:
    """``easy below 6, medium below 15.75, hard below 22.5, expert from 22.5``."""
    parts = [f"{name} below {bound:g}" for name, bound in LEVELS[:-1]]
    return ", ".join(parts) + f", {LEVELS[-1][0]} from {LEVELS[-2][1]:g}"
