"""Minimal unsatisfiable subsets: the rule instances (and known cells) that cannot hold together.

:func:`explain` names, for a puzzle that has no answer, a minimal set of
its rule instances that cannot hold together; :func:`minimal_core` is the
search it (and the hints) run.

:func:`minimal_core` shrinks an unsatisfiable set of items (rule instances,
and literals such as known cells) to a *minimal* one: dropping any single
item leaves an answer. The method is deletion with clause-set refinement
(J. Marques-Silva, "Minimal unsatisfiability: models, algorithms and
applications", ISMVL 2010; A. Belov and J. Marques-Silva, "MUSer2", JSAT 8,
2012, the algorithm of PySAT's ``pysat.examples.musx``), run on the
:class:`~gridlang.why.oracle.Oracle`, so that a connectivity rule is
checked by its cut loop inside every call:

1. solve with every item assumed: unsatisfiable, with a core C;
2. take an item x of C out and solve with the rest of C and the items
   kept: unsatisfiable means x is not needed, and the new core replaces C
   (every item outside it goes at once); satisfiable means x is needed,
   and it is kept;
3. until C is empty: the kept items are minimal, since each was needed
   when the set around it was larger.

The instances are shrunk first, every known cell of the core assumed, and
the known cells after, beside the instances kept: so the set found never
needs an instance more to spare a known cell (a hint's cost counts
instances first).

Cost: at most one solver call per item of the first core (far fewer when
the refinement drops several at a time), each a few milliseconds on most
10 x 10 puzzles and up to seconds on a Snake Eggs with few clues: there
the caller limits the time (``seconds``). Taking items out in chunks that
double while they go was tried: the hint sequence of the derived Snake
Eggs "two" took 189 s instead of 257 s, but the calls it saves are the
ones that teach the oracle its connectivity cuts, and the steps found
afterwards by unit propagation were coarser (the Nurikabe 5x5 of
docs/why.md: 7 steps, the last of 2 instances and 8 known cells deciding
4 cells, instead of 9 steps of one instance each).
The order in which items are tried decides which minimal set is found: the
caller puts first what it would rather leave out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Hashable, Sequence

from gridlang.compiler import compile_tagged
from gridlang.core.deadline import Deadline
from gridlang.ir.model import Model
from gridlang.why.instances import Instance, describe
from gridlang.why.oracle import Check, Oracle


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
    until = None if seconds is None else time.perf_counter() + seconds
    rank = {g: k for k, g in enumerate(groups)}
    lit_rank = {l: k for k, l in enumerate(lits)}

    def known_in(check: Check) -> list[int]:  # a core's known cells (not ``hard``), in the caller's order
        return sorted((l for l in check.lits if l in lit_rank), key=lit_rank.__getitem__)

    held = known_in(first)
    # the instances first, with the known cells of the core held, so that the set needs as few
    # instances as it can; then the known cells of the last core, beside the instances kept
    kept_groups, minimal, last = _deletion(oracle, sorted(first.groups, key=rank.__getitem__), held, "g",
                                           hard, budget, until)
    if last is not None:
        held = known_in(last)
    kept_lits, settled, _ = _deletion(oracle, held, kept_groups, "l", hard, budget, until)
    return Core(kept_groups, kept_lits, minimal and settled, oracle.calls - before)


def _deletion(oracle: Oracle, todo: list, held: list, kind: str, hard: Sequence[int], budget: int | None,
              until: float | None) -> tuple[list, bool, Check | None]:
    """The deletion of :func:`minimal_core` over one kind of item, the other held.

    Args:
        todo: the items to shrink, those to leave out first first: instances
            (``kind`` ``"g"``) or literals (``"l"``).
        held: the items of the other kind, assumed in every call.

    Returns:
        The kept items in their order in ``todo``; whether each was shown
        needed; the last unsatisfiable call (None if none was), whose core
        holds the kept items and some of ``held``.
    """
    order = {x: k for k, x in enumerate(todo)}
    kept: list = []
    minimal = True
    last = None
    while todo:
        if until is not None and time.perf_counter() >= until:  # out of time: the rest stays, untried
            kept.extend(todo)
            minimal = False
            break
        rest = kept + todo[1:]
        groups, lits = (rest, held) if kind == "g" else (held, rest)
        r = oracle.check(groups, list(lits) + list(hard), budget)
        if r.status == "unsat":  # the item goes, and every item outside the new core with it
            last = r
            inside = set(r.groups if kind == "g" else r.lits)
            todo = [x for x in todo[1:] if x in inside]
        elif r.status != "sat" and oracle.deadline.expired():
            kept.extend(todo)
            minimal = False
            break
        else:  # the item is needed (or, the budget run out, kept unproved)
            kept.append(todo.pop(0))
            minimal = minimal and r.status == "sat"
    kept.sort(key=order.__getitem__)
    return kept, minimal, last


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
