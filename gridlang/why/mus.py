"""Minimal unsatisfiable subsets: the rule instances (and known cells) that cannot hold together.

:func:`explain` names, for a puzzle that has no answer, a minimal set of
its rule instances that cannot hold together; :func:`minimal_core` is the
search it (and the hints) run.

:func:`minimal_core` shrinks an unsatisfiable set of items (rule instances,
and literals such as known cells) to a *minimal* one: dropping any single
item leaves an answer. The method is deletion with clause-set refinement
(J. Marques-Silva, "Minimal unsatisfiability: models, algorithms and
applications", ISMVL 2010; A. Belov and J. Marques-Silva, "MUSer2", JSAT 8,
2012, the algorithm of PySAT's ``pysat.examples.musx``), items taken out a
chunk at a time, run on the :class:`~gridlang.why.oracle.Oracle`, so that
a connectivity rule is checked by its cut loop inside every call:

1. solve with every item assumed: unsatisfiable, with a core C;
2. take the first ``k`` items of C out (``k`` half of C at first) and
   solve with the rest of C and the items kept: unsatisfiable means they
   are not needed, and the new core replaces C (every item outside it
   goes at once) and ``k`` doubles; otherwise ``k`` halves, and at
   ``k = 1`` a satisfiable call means the item is needed: it is kept;
3. until C is empty: the kept items are minimal, since each was needed
   when the set around it was larger.

Cost: about two solver calls per item kept and fewer than one per item
that goes, when items go in runs; each call a few milliseconds on most
10 x 10 puzzles, up to seconds on Snake Eggs. Against taking items out one
at a time, the hint sequence of the derived Snake Eggs "two" took 189 s
instead of 257 s, that of the Cracking the Cryptic 10 x 10 96 s instead of
98 s (docs/why.md).
The order in which items are tried decides which minimal set is found: the
caller puts first what it would rather leave out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Hashable, Sequence

from ..compiler import compile_tagged
from ..deadline import Deadline
from ..ir import Model
from .instances import Instance, describe
from .oracle import Oracle


@dataclass
class Core:
    """A minimal (or, cut short, merely unsatisfiable) set of items.

    Attributes:
        groups: the rule instances.
        lits: the literals (known cells).
        minimal: True when every item was shown needed; False when the
            deadline passed first (the set is unsatisfiable, perhaps not
            minimal).
        calls: solver calls spent.
    """

    groups: list[Hashable] = field(default_factory=list)
    lits: list[int] = field(default_factory=list)
    minimal: bool = True
    calls: int = 0


def minimal_core(oracle: Oracle, groups: Sequence[Hashable], lits: Sequence[int] = (),
                 hard: Sequence[int] = (), budget: int | None = None, seconds: float | None = None
                 ) -> Core | None:
    """Shrink an unsatisfiable set of instances and literals to a minimal one.

    Args:
        oracle: the oracle.
        groups: the instances, those to leave out first first.
        lits: literals that may be left out (known cells), tried after the
            instances, first first.
        hard: literals always assumed, never part of the answer (the
            negation of a conclusion to explain).
        budget: the conflicts each call may spend (None: no limit but the
            deadline); an item whose call runs out is kept, and the core
            is then not known to be minimal.
        seconds: the time the shrinking may take after its first call (None:
            the deadline's); past it, the items not yet tried are kept, and
            the core is then not known to be minimal.

    Returns:
        The core, or None when the items have an answer (or the deadline,
        or the budget, passed before that was settled).
    """
    before = oracle.calls
    first = oracle.check(groups, list(lits) + list(hard), budget)
    if first.status != "unsat":
        return None
    order = {("g", g): k for k, g in enumerate(groups)}
    order.update({("l", l): len(groups) + k for k, l in enumerate(lits)})
    todo = sorted([("g", g) for g in first.groups] + [("l", l) for l in first.lits if ("l", l) in order],
                  key=order.__getitem__)
    kept: list[tuple[str, Hashable]] = []
    minimal = True
    chunk = max(1, len(todo) // 2)
    until = None if seconds is None else time.perf_counter() + seconds
    while todo:
        if until is not None and time.perf_counter() >= until:  # out of time: the rest stays, untried
            kept.extend(todo)
            minimal = False
            break
        chunk = min(chunk, len(todo))
        rest = kept + todo[chunk:]
        r = oracle.check([x for k, x in rest if k == "g"], [x for k, x in rest if k == "l"] + list(hard), budget)
        if r.status == "unsat":  # the chunk goes, and every item outside the new core with it
            inside = {("g", g) for g in r.groups} | {("l", l) for l in r.lits}
            todo = [x for x in todo[chunk:] if x in inside]
            chunk *= 2
        elif r.status != "sat" and oracle.deadline.expired():
            kept.extend(todo)
            minimal = False
            break
        elif chunk > 1:
            chunk //= 2
        else:  # the item is needed (or, the budget run out, kept unproved)
            kept.append(todo.pop(0))
            minimal = minimal and r.status == "sat"
    kept.sort(key=order.__getitem__)
    return Core([x for k, x in kept if k == "g"], [x for k, x in kept if k == "l"], minimal, oracle.calls - before)


@dataclass
class Explanation:
    """Why a puzzle has no answer: rule instances that cannot hold together.

    Attributes:
        instances: the instances, described, in the spec's order.
        minimal: dropping any one of them leaves an answer (False when the
            deadline cut the search short: they cannot hold together, but
            some may be spare).
        calls: solver calls spent.
        seconds: the time it took.
    """

    instances: list[Instance]
    minimal: bool
    calls: int = 0
    seconds: float = 0.0


def explain(model: Model, deadline: Deadline | None = None) -> Explanation | None:
    """A minimal set of rule instances of ``model`` that cannot hold together.

    The model is compiled again with its rule instances
    (:func:`gridlang.compiler.compile_tagged`) and :func:`minimal_core`
    shrinks the set of all of them. The instances that make the most
    constraints (a rule over the whole grid) are tried for removal first,
    so the set found leans on small, local instances: a clue, a cell.

    Args:
        model: the compiled model.
        deadline: the command's deadline.

    Returns:
        The explanation, or None when the instances have an answer after
        all (or the deadline passed before the first call settled it).
    """
    t0 = time.perf_counter()
    tagged, tagging = compile_tagged(model)
    oracle = Oracle(tagged, tagging, deadline)
    try:
        order = sorted(oracle.groups, key=lambda g: -len(oracle.members[g]))
        core = minimal_core(oracle, order)
        if core is None:
            return None
        described = sorted((describe(tagged, g) for g in core.groups), key=lambda i: (i.line, i.col))
        return Explanation(described, core.minimal, core.calls, time.perf_counter() - t0)
    finally:
        oracle.close()
