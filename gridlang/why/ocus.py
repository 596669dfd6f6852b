"""The cheapest step: an optimal constrained unsatisfiable subset, by implicit hitting sets.

A hint step explains one open cell's value by a set of rule instances and
known cells that, with the value's negation, cannot hold. The step asked for
here is the one of *fewest rule instances* over every open cell, every
known cell at hand (the instances are what a step's cost counts first,
:mod:`gridlang.why.hints`; its known cells are cut down afterwards). That
is an optimal constrained unsatisfiable subset (OCUS) of E. Gamba, B.
Bogaerts and T. Guns, "Efficiently explaining CSPs with unsatisfiable subset
optimization", IJCAI 2021, each instance of cost 1: the items are the
instances and the negation of each open cell's value, the constraint that
exactly one negation is taken. It is found by implicit hitting sets (the
duality of minimal unsatisfiable and minimal correction subsets, R. Reiter,
Artificial Intelligence 32, 1987; the loop of Gamba et al., Algorithm 1):

1. a least set ``S`` that hits every correction set found so far and
   takes exactly one negation (a weighted MaxSAT problem, solved by PySAT's
   RC2, A. Ignatiev, A. Morgado and J. Marques-Silva, JSAT 11, 2019,
   incrementally: each correction set is one more hard clause);
2. one call of the :class:`~gridlang.why.oracle.Oracle` on ``S`` and the
   known cells: unsatisfiable means ``S`` is the cheapest step (every
   smaller set was shown satisfiable), satisfiable gives an answer;
3. the answer is grown to every item it satisfies (negations read off it,
   instances by evaluating their constraints,
   :func:`gridlang.ir.checks.broken_constraints`; the oracle prefers the
   explained answer's values, so the answer found is close to it and the
   grown set large); the items outside are a correction set: every
   unsatisfiable set takes one of them. Back to 1.

The size of the hitting set only grows: it is a lower bound of the
cheapest step. The search is given the size of a step already found (the
greedy searches of :mod:`gridlang.why.hints`): once the bound reaches it,
that step is proved cheapest without a set of its own. The answers of
earlier steps that keep every known cell stay valid, so their correction
sets are carried from step to step, re-read over the new items.

Cost: one RC2 call and one oracle call per round, a few milliseconds on a
9 x 9 Sudoku; proving that no step of fewer than 3 instances exists takes
a few hundred rounds there, fewer than 4 about a thousand. The caller
limits the rounds (and the seconds); past them the step is not proved
cheapest. The step is also the cheapest by the grade's cost (instances,
then a quarter per known cell) only as far as its known cells go: they are
shrunk to a minimal set, not the smallest.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from gridlang.ir.model import Assignment
from gridlang.why.oracle import Oracle
from gridlang.why.truth import InstanceTruth

KEPT = 400
"""The most answers carried from step to step (the latest kept): their correction sets start the
next step's hitting sets."""


@dataclass
class Cheapest:
    """What one search found.

    Attributes:
        groups: the instances of the cheapest set (empty when ``proved`` holds the given bound).
        lits: its known cells (literals).
        target: the literal it explains (its negation was the item taken).
        proved: the set (or the bound given, when ``groups`` and ``lits`` are empty) is the cheapest.
        bound: the lower bound reached: no set of fewer instances implies an open cell.
        rounds: hitting sets tried.
        timed_out: the seconds given ran out before the rounds.
    """

    groups: list[Hashable] = field(default_factory=list)
    lits: list[int] = field(default_factory=list)
    target: int | None = None
    proved: bool = False
    bound: int = 0
    rounds: int = 0
    timed_out: bool = False


class CheapestSearch:
    """The OCUS loop over one oracle, its answers kept across steps (see the module docstring).

    Args:
        oracle: the oracle of the hint run.
        conflicts: the conflicts one oracle call may spend.
    """

    def __init__(self, oracle: Oracle, conflicts: int):
        self.oracle = oracle
        self.conflicts = conflicts
        self.truth = InstanceTruth(oracle.model, oracle.groups, oracle.members)
        # no definition can be switched off: an instance's truth is read off an answer exactly
        self.exact = not oracle.switch
        self.answers: list[tuple[frozenset, Assignment]] = []

    def holding(self, assignment: Assignment) -> frozenset:
        """The instances whose constraints ``assignment`` satisfies."""
        return self.truth.holding(assignment)

    def search(
        self,
        known: Sequence[int],
        targets: Sequence[int],
        bound: int | None,
        rounds: int,
        seconds: float | None = None,
    ) -> Cheapest:
        """The fewest instances that, with the ``known`` literals, imply one of ``targets``.

        Args:
            known: the known cells, as literals of the answer explained (all assumed).
            targets: the open cells' literals in that answer.
            bound: the instances of a step already found, or None; a set of
                as many is not looked for.
            rounds: the most hitting sets tried (a count, not seconds, so that the
                same puzzle gives the same steps on a busy machine); the oracle's
                deadline stops it too.
            seconds: the most time it may take (None: no limit but the deadline).

        Returns:
            The cheapest set (``proved``; its known cells are all of ``known``,
            for the caller to cut down), or, the bound reached, an empty one
            with ``proved`` (the step found has the fewest instances), or, the
            rounds or the time out first, an empty one with the bound reached.
        """
        # imported on use, not at start-up
        from pysat.card import CardEnc, EncType
        from pysat.examples.rc2 import RC2
        from pysat.formula import WCNF, IDPool

        groups = list(self.oracle.groups)
        pool = IDPool()
        var_g = {g: pool.id(("g", k)) for k, g in enumerate(groups)}
        var_t = {t: pool.id(("t", t)) for t in targets}
        wcnf = WCNF()
        wcnf.append(list(var_t.values()))
        for cl in CardEnc.atmost(
            list(var_t.values()), 1, vpool=pool, encoding=EncType.seqcounter
        ).clauses:
            wcnf.append(cl)
        for v in var_g.values():
            wcnf.append([-v], weight=1)

        def correction(held: frozenset, answer: Assignment) -> list[int]:
            return [var_g[g] for g in groups if g not in held] + [
                v for t, v in var_t.items() if answer.holds(t)
            ]

        # the answers of earlier steps that still have every known cell: their correction sets hold
        self.answers = [
            (held, a) for held, a in self.answers if all(a.holds(l) for l in known)
        ]
        for held, answer in self.answers:
            wcnf.append(correction(held, answer))
        out = Cheapest()
        of_g = {v: g for g, v in var_g.items()}
        of_t = {v: t for t, v in var_t.items()}
        with RC2(wcnf) as rc2:
            until = None if seconds is None else time.perf_counter() + seconds
            while out.rounds < rounds and not self.oracle.deadline.expired():
                if until is not None and time.perf_counter() >= until:
                    out.timed_out = True
                    break
                model = rc2.compute()
                if model is None:  # no set implies an open cell
                    return out
                out.rounds += 1
                out.bound = rc2.cost
                if bound is not None and rc2.cost >= bound:
                    out.proved = True
                    return out
                chosen = [v for v in model if v > 0]
                s_groups = [of_g[v] for v in chosen if v in of_g]
                target = next(of_t[v] for v in chosen if v in of_t)
                r = self.oracle.check(s_groups, list(known) + [-target], self.conflicts)
                if r.status == "unsat":
                    out.groups, out.lits, out.target, out.proved = (
                        s_groups,
                        list(known),
                        target,
                        True,
                    )
                    return out
                if r.status != "sat":
                    return out
                held = self._grow(r.assignment, s_groups, list(known) + list(targets))
                self.answers.append((held, r.assignment))
                del self.answers[:-KEPT]
                rc2.add_clause(correction(held, r.assignment))
        return out

    def _grow(
        self, answer: Assignment, taken: list[Hashable], entries: list[int]
    ) -> frozenset:
        """The instances an answer of ``taken`` satisfies (``taken`` at least): read off the
        answer, and, when a definition may have been switched off in its call, checked by one
        more call with the ``entries`` (literals) as the answer has them."""
        held = self.holding(answer) | set(taken)
        if self.exact:
            return frozenset(held)
        lits = [l if answer.holds(l) else -l for l in entries]
        r = self.oracle.check(
            sorted(held, key=self.oracle.groups_order), lits, self.conflicts
        )
        return frozenset(held) if r.status == "sat" else frozenset(taken)
