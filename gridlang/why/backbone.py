"""Forced cells: the value of every decision entry that is the same in every answer (the backbone).

Given a first answer A, every entry keeps its value of A in every answer,
or it is *open*. The search (the iterative backbone algorithm of J.
Marques-Silva, M. Janota and I. Lynce, "On computing backbones of
propositional theories", ECAI 2010, its "one test for all remaining
candidates" form) runs on the backend that found A, through its
:class:`~gridlang.ir.backend.Session`:

1. candidates: every entry with its value in A (a Boolean decision's
   variable or its negation, an enumeration's chosen value);
2. add the clause "some candidate takes another value" and solve again;
3. an answer: every candidate it changes is open, the others stay
   candidates; back to 2 (the new clause, over fewer candidates, implies
   the one before, so the clauses can pile up in the session);
4. infeasible: the candidates left are forced.

With an objective, the answers counted are the optimal ones: the
objective is fixed at A's proved optimum first (as ``--count`` does), so
the forced walls of enclose.horse are those of every best pen. Every
answer found on the way is verified as any answer is (the IR, the spec's
rules, the plug-in's rules), so an entry is called open only on the
evidence of a verified answer.

Cost: one solve per round; each answer usually opens many entries at
once, and the last round is a proof of infeasibility, as hard as the
uniqueness proof of ``--unique``. When the deadline passes first, the
candidates left are *unknown*: neither proved forced nor seen open.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from gridlang.ir.backend import Session, Status
from gridlang.ir.model import Clause, Cmp, Linear
from gridlang.ir.solution import Solution, split_answers
from gridlang.solving.pipeline import Report, verify
from gridlang.why.instances import Entry, entries


@dataclass
class Forced:
    """The backbone of a puzzle, as far as it was settled.

    Attributes:
        forced: the entries proved to hold the same value in every
            (optimal) answer, with that value.
        open: the entries seen with another value in a verified answer.
        unknown: the entries the deadline left unsettled (empty when
            ``complete``).
        complete: every entry is forced or open.
        solves: solver calls made after the first answer.
        seconds: the time they took.
        reason: why nothing could be settled (no answer, an optimum not
            proved), or None.
        second: the first verified answer found that differs from the
            first answer, or None.
        unsized: the entries of ``unknown`` held at their decision's open
            value in every answer (a size from it up, not proved one size).
    """

    forced: list[tuple[Entry, object]] = field(default_factory=list)
    open: list[Entry] = field(default_factory=list)
    unknown: list[Entry] = field(default_factory=list)
    complete: bool = False
    solves: int = 0
    seconds: float = 0.0
    reason: str | None = None
    second: Solution | None = None
    unsized: list[Entry] = field(default_factory=list)


def forced_entries(report: Report, session: Session | None) -> Forced:
    """The forced and open entries of a solved puzzle (see the module docstring).

    Args:
        report: the report of the first answer (:func:`gridlang.solving.pipeline.first_answer`).
        session: its solver session; constraints are added to it.

    Returns:
        What was settled before the deadline of ``session.options``.

    Raises:
        VerificationError: an answer found on the way fails verification.
    """
    t0 = time.perf_counter()
    model = report.model
    ents = entries(model)
    first = report.result
    if report.solution is None or session is None:
        return Forced(unknown=ents, reason="there is no answer")
    if model.objective is not None and first.status is not Status.OPTIMAL:
        return Forced(unknown=ents, reason="the first answer is not proved optimal, so the optimal answers "
                                          "are not known")
    value = {e: e.value_in(first.assignment) for e in ents}
    literal = {e: e.literal(value[e]) for e in ents if value[e] is not None}
    if model.objective is not None:
        session.add([Linear(model.objective.terms, Cmp.EQ, first.objective - model.objective.constant)])
    left = [e for e in ents if e in literal]
    opened: set[Entry] = set()
    out = Forced()
    deadline = session.options.clock()
    while left and not deadline.expired():
        session.add([Clause(tuple(-literal[e] for e in left))])
        res = session.solve()
        out.solves += 1
        if res.status is Status.INFEASIBLE:
            out.complete = True
            break
        if not res.status.has_solution:
            break
        solution, _ = verify(model, res.assignment, res.objective, answer="an answer found for the forced cells")
        if out.second is None:
            out.second = solution
        opened.update(e for e in left if not res.assignment.holds(literal[e]))
        left = [e for e in left if res.assignment.holds(literal[e])]
    else:
        out.complete = not left
    out.open = [e for e in ents if e in opened]
    # An entry held at its decision's open value holds some size from it up, not one size
    # (gridlang.constructs.blocks.domains): it is not called forced.
    sized = {d.name: d.open_value for d in model.decisions if d.open_value is not None}
    unsized = {e for e in left if e.decision in sized and value[e] == sized[e.decision]}
    if out.complete and unsized and len(left) == len(ents) and split_answers(model, report.solution) == ([], True):
        # every entry forced and no block splits: the only answer, each such cell its block's size
        value.update({e: report.solution.decisions[e.decision][e.key] for e in unsized})
        unsized = set()
    if out.complete:
        out.forced = [(e, value[e]) for e in left if e not in unsized]
        out.unknown = out.unsized = [e for e in left if e in unsized]
        out.complete = not unsized
    else:
        out.unknown = left
    out.seconds = time.perf_counter() - t0
    return out
