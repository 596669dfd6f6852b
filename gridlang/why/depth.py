"""How deep a puzzle's reasoning goes: unit propagation, failed literals, and how hard they are to find.

A player's hardest moment is not only the size of one deduction (the rule
instances of the hardest hint step, :mod:`gridlang.why.grade`) but how
deep and how hidden it is. Sudoku raters grade by technique: singles, then
intersections, subsets and fish, then chains, then nested chains (Sudoku
Explainer's scale); R. Pelanek ("Difficulty rating of Sudoku puzzles by a
computational model", FLAIRS 2011) grades by the search a model of human
solving makes: how many places it must look at before one gives a step. In
SAT terms (I. Lynce and J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006)
singles are unit propagation over the puzzle's clauses, and a contradiction
reached from one assumed value is a *failed literal* (one level of
look-ahead; a chain is one, a nested chain a failed literal under another).

:func:`reasoning_depth` walks the puzzle that way, from the clues, over
every rule instance at once (the clauses of :class:`~gridlang.why.oracle.Oracle`,
a fresh one, so that nothing learned by other calls strengthens the
propagation):

1. unit propagation from what is known; every entry decided: done;
2. otherwise every value still possible is *probed*: assumed, and unit
   propagation run from it; those that reach a conflict (failed literals)
   are ruled out, all of them, and the walk goes back to 1; a round that
   rules out none ends the walk (the rest needs deeper look-ahead than one
   level, or connectivity that propagation sees only through its cuts).

Of every round with failed literals it keeps two figures, and of the walk
their largest: **probes**, the values probed per failed literal found (the
probes a player who tries values in any order makes before one fails:
the scarcer the contradictions, the harder the step is to find, as in
Pelanek's model), counting only values whose propagation sets another
decision entry or fails (a value that sets nothing cannot fail, however
long one looks from it, with these clauses: where a rule's clauses are
learned lazily, connectivity's cuts in a fresh oracle, most values set
nothing, and counting them measured the clauses' blind spot, not the
puzzle; on a Sudoku every value sets another, so nothing changes there),
and **refutation**, the median over the round's failed
literals of the decision entries unit propagation set from the assumed
value before its conflict (how far a contradiction runs; the solver
propagates in first-in first-out order, so a short one is found in few).
On the 143 rated Sudokus of ``benchmarks/data/sudoku-exchange`` one level
of look-ahead reaches every answer (16 need none), so the depth itself does
not separate them; the two figures do (docs/benchmarks.md). A walk that
stops short of the answer (``complete`` False) describes a part of the
reasoning only, the rest beyond what its clauses propagate: the grade does
not count its figures (:func:`gridlang.why.grade.grade`).

Cost: one propagation per value still possible per round, a few
microseconds to a millisecond each; 0.03 to 0.1 s on a 9x9 Sudoku.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from gridlang.core.deadline import Deadline
from gridlang.ir.model import Model
from gridlang.why.instances import entries
from gridlang.why.oracle import Oracle


@dataclass(frozen=True)
class Depth:
    """The walk of :func:`reasoning_depth`.

    Attributes:
        depth: 0 when unit propagation from the clues decides every entry, 1 when failed
            literals were needed (and reached the answer), 2 when a round found none (the
            rest needs more than one level of look-ahead).
        rounds: the rounds with failed literals.
        probes: the most values probed per failed literal found in one round, a value probed
            when its propagation fails or sets another decision entry (0 without a round).
        refutation: the largest median, over a round's failed literals, of the decision
            entries set by unit propagation before the conflict (0 without a round).
        complete: the walk ended with every entry decided (False: stuck at depth 2, or the
            deadline passed).
    """

    depth: int
    rounds: int
    probes: float
    refutation: float
    complete: bool

    def to_json(self) -> dict:
        """The attributes by name."""
        return {
            "depth": self.depth,
            "rounds": self.rounds,
            "probes": round(self.probes, 4),
            "refutation": self.refutation,
            "complete": self.complete,
        }


def reasoning_depth(model: Model, tags, deadline: Deadline | None = None) -> Depth:
    """The walk of unit propagation and failed literals over ``model`` (see the module docstring).

    Args:
        model: the model compiled with tags (:func:`gridlang.compiler.compile_tagged`).
        tags: its constraints' instances.
        deadline: the walk stops at it, incomplete, with the rounds so far.

    Returns:
        The walk's figures (:class:`Depth`).
    """
    deadline = deadline or Deadline(None)
    oracle = Oracle(model, tags, deadline)
    try:
        return _walk(oracle, model, deadline)
    finally:
        oracle.close()


def _walk(oracle: Oracle, model: Model, deadline: Deadline) -> Depth:
    every = entries(model)
    values = [lit for e in every for _, lit in e.options]
    values += [-e.options[0][1] for e in every if e.boolean]
    decision = {abs(lit) for lit in values}
    groups = oracle.groups
    known: list[int] = []
    rounds, probes, refutation = 0, 0.0, 0.0
    while not deadline.expired():
        ok, implied = oracle.trail(groups, known)
        if not ok:  # the clues contradict the rules: nothing to grade
            break
        implied = set(implied)
        if all(
            any(lit in implied for _, lit in e.options)
            or e.boolean
            and -e.options[0][1] in implied
            for e in every
        ):
            return Depth(1 if rounds else 0, rounds, probes, refutation, True)
        base = sum(1 for lit in implied if abs(lit) in decision)
        open_ = [lit for lit in values if lit not in implied and -lit not in implied]
        failed, lengths, fruitful = [], [], 0
        for lit in open_:
            ok, trail = oracle.trail(groups, known + [lit])
            # The decision entries the value sets, itself included: a value that sets no other
            # cannot fail however deep one looks from it with these clauses, so it is no probe.
            sets = sum(1 for x in trail if abs(x) in decision) - base
            if not ok:
                failed.append(lit)
                lengths.append(sets)
            if not ok or sets > 1:
                fruitful += 1
            if deadline.expired():
                break
        if not failed and not deadline.expired():
            return Depth(2, rounds, probes, refutation, False)
        if not failed:
            break
        rounds += 1
        probes = max(probes, fruitful / len(failed))
        refutation = max(refutation, float(statistics.median_high(lengths)))
        known += [-lit for lit in failed]
    return Depth(1 if rounds else 0, rounds, probes, refutation, False)
