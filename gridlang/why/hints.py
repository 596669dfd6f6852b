"""Step-by-step hints: a puzzle explained one deduction at a time, easiest first.

The method is the step-wise explanation of B. Bogaerts, E. Gamba and T.
Guns, "A framework for step-wise explaining how to solve constraint
satisfaction problems", Artificial Intelligence 300, 2021: start from the
clues alone; at each step, among the cells not yet known, find the one
whose value has the *smallest explanation*, a set of rule instances and
known cells that implies it (the negation of the value together with the
set is unsatisfiable: an unsatisfiable subset), make that step, and go on
until every cell is known. A step decides every open cell its explanation
implies, not only the one it was found for.

With an objective, the answer explained is a proved optimal one and the
model given has its optimum as one instance more, "the best score is N"
(:func:`~gridlang.why.instances.with_optimum`, added by
:func:`gridlang.why.solve_hints`): the cells every step decides are those
every optimal answer shares, and a step that needs the optimum names it
and pays for it as for any instance.

The cost of an explanation is its number of rule instances, then its
number of known cells (the paper weighs the two in one sum; here an
instance always costs more than any number of cells). How a step is
searched, cheapest first:

1. **One instance, by unit propagation.** For every instance ``g``: unit
   propagation from ``g`` and the known cells (:meth:`Oracle.propagate`,
   microseconds). An instance that sets an open cell explains it with one
   rule; its known cells are then cut down, one at a time, to those unit
   propagation still needs. The candidate with fewest cells is taken
   (one with none at once).
2. **One instance beside an open cell, by a failed literal**: the cell's
   other value fails by unit propagation under the instance and the known
   cells (one step of look-ahead that step 1 misses), the most
   constrained cells first.
3. **Two instances that share a cell, by unit propagation**, the same way.
4. **Two instances beside an open cell that share a cell, by a failed
   literal**, for the :data:`PROBED` most constrained open cells.
5. **Any number, by minimal unsatisfiable subsets.** For every open cell,
   one full solver call with every instance and known cell and the cell's
   other value gives a core; the :data:`SHRINK` cores with fewest
   instances are shrunk to minimal ones (:func:`~gridlang.why.mus.minimal_core`,
   instances tried for removal before cells), and the smallest is taken.
   Each call may spend :data:`CONFLICTS` conflicts, each call of the
   shrinking :data:`SHRINK_CONFLICTS`, and one core's shrinking
   :data:`SHRINK_SECONDS`; a core whose shrinking ran out of them is kept,
   marked not minimal.

6. **The cheapest, by implicit hitting sets.** A step of the searches
   above is minimal (no instance or cell of it can go) but not always the
   one of fewest instances. When it has :data:`CHEAPEST_FROM` instances or
   more, the step of fewest instances over every open cell is searched
   (:mod:`gridlang.why.ocus`, the OCUS of E. Gamba, B. Bogaerts and T.
   Guns, IJCAI 2021), for at most :data:`CHEAPEST_ROUNDS` hitting sets: a
   smaller one found replaces it (its known cells shrunk as in 5), the
   bound reached proves it the cheapest, and the rounds run out leave it
   marked not proved (:attr:`Step.cheapest`).

Every step is checked with full solver calls, connectivity included: the
cells it decides follow from its instances and known cells alone
(:func:`~gridlang.why.deduce.decided_by`).

Cost, measured in docs/why.md: a step is one propagation per instance (and
per pair) plus, when those find nothing, one solver call per open cell and
a few dozen to shrink the best cores.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from gridlang.core.deadline import Deadline
from gridlang.ir.model import Assignment, Model
from gridlang.why.deduce import decided_by, shrink
from gridlang.why.depth import Depth, reasoning_depth
from gridlang.why.instances import Entry, Instance, describe, entries
from gridlang.why.mus import Core, minimal_core
from gridlang.why.ocus import CheapestSearch
from gridlang.why.oracle import Oracle

SHRINK = 2
"""In the last search, how many of the smallest cores are shrunk to minimal ones."""

PROBED = 16
"""In the last search, the most cells given a new core per step; in the search by failed
literals with two instances, the most cells probed per step (the most constrained first): the
pairs around a cell are many (some 200 on a 10x10 LITS), and a step that ends in the core search
probed every open cell's pairs first, a million propagations over the 10x10 LITS."""

CONFLICTS = 20_000
"""The conflicts one solver call of the search may spend (a few tenths of a second) before it is
given up: on Snake Eggs a relaxed set of instances can take minutes to settle."""

SHRINK_CONFLICTS = 4_000
"""The conflicts each call of a core's shrinking may spend. A call that runs out keeps its item
(the core is then marked not minimal) and costs no more. On Snake Eggs a call of the shrinking
that would be settled after more than this ran up to 12 s, an unsettled one 11 s, and half a
run went to a few of them; of the two cores shrunk per step the minimal one is taken, so a step
is rarely left not minimal: the 10x10 of the Cracking the Cryptic video (ctc_tuzz_10x10)
is explained in 50 steps, one not minimal, in 112 s, where with :data:`CONFLICTS` 25 steps
were made in 208 s (the same order of instances, ``PYTHONHASHSEED=0``)."""

SHRINK_SECONDS = 10.0
"""The time one core's shrinking may take; past it, the items not yet tried stay and the step
is marked not minimal. A Snake Eggs puzzle with few clues (the derived 10 x 10 smiley face has
three) has steps whose smallest explanation is a hundred instances and more, each call of the
shrinking 0.3 to 5 s: shrinking one such core to a minimal one took more than ten minutes. With
this limit the smiley face is explained in 6 steps in 27 s (the last decides 94 cells from 140
instances, not minimal), the derived "three" in 32 steps in 45 s and the squirrel in 41 steps in
272 s (``PYTHONHASHSEED=0``, one after the other, a test run on the other core)."""

TRIED = 8
"""In the searches by propagation, how many candidates have their known cells cut down."""

CHEAPEST_ROUNDS = 300
"""The hitting sets the search for the cheapest step (:mod:`gridlang.why.ocus`) may try per step
(a count, so that a puzzle's steps do not depend on the machine's load; some 0.2 to 1 s on a 9x9
Sudoku); past them, the step the greedy searches found is taken, marked not proved cheapest."""

CHEAPEST_SECONDS = 5.0
"""The time one step's search for the cheapest step may take besides. On a 9x9 Sudoku the rounds
end it first (and the steps are the same at any load); on a genre whose rounds are slow (a 10x10
Akari: 15 steps cut at this time, 85 s for a hint of 2.8 s greedy) it ends the search, and the
run's later steps are the greedy ones, not searched (a step's result then depends on the load)."""

CHEAPEST_FROM = 3
"""The fewest instances of a greedy step for which a cheaper one is searched. A step of one
instance is the cheapest there is; one of two was found after every single instance was tried
by unit propagation and by failed literals, and proving that none does by full calls (a few
dozen rounds a step, and most of a Sudoku's steps have two instances) more than doubled an easy
Sudoku's hint time."""


@dataclass
class Step:
    """One deduction.

    Attributes:
        decides: the entries it decides, with their values.
        groups: the rule instances it uses (tags).
        known: the known entries it uses, with their values.
        instances: the instances described, in the order of ``groups``.
        search: how it was found: ``propagation`` (one or two instances,
            by unit propagation) or ``core`` (a minimal unsatisfiable subset).
        minimal: no instance or known cell of it can go (for a step found by
            propagation: as unit propagation sees it). False for a core whose
            shrinking ran out of :data:`SHRINK_CONFLICTS` or
            :data:`SHRINK_SECONDS`: still enough, perhaps more than needed.
        cheapest: proved the cheapest step by its cost (:mod:`gridlang.why.ocus`); False when
            the search ran out of :data:`CHEAPEST_ROUNDS` first (the greedy step is kept); None
            when it was not searched.
    """

    decides: list[tuple[Entry, object]]
    groups: list[Hashable]
    known: list[tuple[Entry, object]]
    instances: list[Instance] = field(default_factory=list)
    search: str = "propagation"
    minimal: bool = True
    cheapest: bool | None = None

    @property
    def cost(self) -> tuple[int, int]:
        """``(rule instances, known cells)``: what makes a step harder than another."""
        return len(self.groups), len(self.known)


@dataclass
class Hints:
    """A sequence of steps.

    Attributes:
        steps: the steps, in order.
        complete: every entry is decided.
        open: entries no step can decide: each was seen with another value in an answer.
        unknown: entries left undecided: the deadline or ``max_steps`` stopped the run, or
            (``gave_up``) no call of the search settled them within its conflicts
            (:data:`CONFLICTS`), as on a large enclose.horse map.
        seconds: the time it took.
        calls: solver calls (each cut round counts).
        reason: why no step was searched (an optimum not proved), or None.
        gave_up: the search ended, neither stopped nor done, with ``unknown`` entries it could
            not settle.
        depth: the walk of unit propagation and failed literals over the whole puzzle
            (:func:`gridlang.why.depth.reasoning_depth`), which the grade reads; None when the
            time ran out before it.
    """

    steps: list[Step]
    complete: bool
    open: list[Entry] = field(default_factory=list)
    unknown: list[Entry] = field(default_factory=list)
    seconds: float = 0.0
    calls: int = 0
    reason: str | None = None
    gave_up: bool = False
    depth: Depth | None = None


class _Search:
    """The state of one run: the oracle, the answer, what is known."""

    def __init__(self, model: Model, tags, answer: Assignment, deadline: Deadline,
                 cheapest_rounds: int | None = None):
        self.model = model
        self.oracle = Oracle(model, tags, deadline)
        self.cheapest = CheapestSearch(self.oracle, CONFLICTS) if cheapest_rounds else None
        self.cheapest_rounds = cheapest_rounds
        self.cheapest_slow = False
        self.deadline = deadline
        self.entries = entries(model)
        self.target = {e: e.literal(e.value_in(answer)) for e in self.entries}
        if len(answer.values) != model.num_vars:
            # the answer of the model compiled without tags, whose auxiliaries differ (a capped
            # component): its decisions, completed over this model's own variables by an oracle of
            # its own, so that this one's clauses and cuts are those of the steps alone
            helper = Oracle(model, tags, deadline)
            found = helper.check(helper.groups, list(self.target.values()))
            helper.close()
            answer = found.assignment if found.status == "sat" else None
        if answer is not None:
            self.oracle.prefer(answer)
        self.known: dict[Entry, int] = {}
        self.open: set[Entry] = set()
        groups = self.oracle.groups
        self.cells = {g: _cells(g) for g in groups}
        by_cell: dict[int, list] = {}
        for g in groups:
            for c in self.cells[g]:
                by_cell.setdefault(c, []).append(g)
        whole = [g for g in groups if not self.cells[g]]
        self.near = {g: (set(groups) if not self.cells[g] else
                         {h for c in self.cells[g] for h in by_cell[c]} | set(whole)) - {g} for g in groups}
        # The same in the instances' order, to walk: a set of tags (tuples of names) is walked in
        # an order Python's string hashing draws anew in each process, and so were the steps.
        rank = {g: k for k, g in enumerate(groups)}
        self.near_order = {g: sorted(near, key=rank.__getitem__) for g, near in self.near.items()}
        self.selectors = self.oracle.switches
        self.places = {g: [divmod(c, model.grid.cols) for c in self.cells[g]] for g in groups}
        self.orders: dict[Entry, tuple[list, list]] = {}
        self.cores: dict[Entry, tuple[list, list[int]]] = {}  # unsatisfiable sets found, kept while valid
        self.known_cells: set[int] = set()
        self.clue_cells = {c for g in groups for name, kind, c in g[1] if kind == "cell"}

    def unknown(self) -> list[Entry]:
        return [e for e in self.entries if e not in self.known and e not in self.open]

    # ------------------------------------------------------------ one step
    def step(self) -> Step | None:
        """The next step, or None when the deadline passed or nothing more follows."""
        unknown = self.unknown()
        wanted = {self.target[e]: e for e in unknown}
        facts = list(self.known.values())
        base = (self.oracle.propagate([], facts) or set()) | self.selectors
        active: list = []
        searches = (lambda: self._singles(wanted, facts, base, active),
                    lambda: self._probes(unknown, facts, 1),
                    lambda: self._pairs(wanted, facts, active),
                    lambda: self._probes(unknown, facts, 2))
        found = None
        for search in searches:
            hit = search()
            if hit is not None:
                found = (hit[0], hit[1], hit[2], "propagation", True)
                break
            if self.deadline.expired():
                return None
        if found is None:
            found = self._by_cores(unknown, facts)
        cheapest = None
        if self.cheapest is not None and not self.deadline.expired():
            found, cheapest = self._cheapest(found, facts, unknown)
        if found is None:
            return None
        groups, used, lit, search, minimal = found
        step = self._finish(groups, used, self.unknown(), search, lit)
        if step is not None:
            step.minimal = minimal
            step.cheapest = cheapest
        return step

    def _cheapest(self, found, facts: list[int], unknown: list[Entry]):
        """The greedy step ``found`` (or None) against the step of fewest instances the OCUS search
        (:mod:`gridlang.why.ocus`) finds within :data:`CHEAPEST_ROUNDS`, its known cells then cut
        down to minimal ones: ``(the step to take, whether it has the fewest instances)``."""
        bound = None if found is None else len(found[0])
        if bound is not None and bound <= 1:
            return found, True  # one instance: the least a step needs
        if bound is not None and bound < CHEAPEST_FROM or self.cheapest_slow:
            return found, None
        targets = [self.target[e] for e in unknown if e not in self.open]
        result = self.cheapest.search(facts, targets, bound, self.cheapest_rounds, CHEAPEST_SECONDS)
        self.cheapest_slow = result.timed_out  # the rounds too slow here: greedy steps from now on
        if not result.groups:
            return found, result.proved
        core = minimal_core(self.oracle, result.groups, facts, [-result.target], SHRINK_CONFLICTS, SHRINK_SECONDS)
        if core is None:
            return (result.groups, facts, result.target, "cheapest", False), True
        return (core.groups, core.lits, result.target, "cheapest", core.minimal), True

    def _forces(self, groups: list, facts: list[int], lit: int) -> bool:
        """Whether unit propagation from ``groups``, ``facts`` and the negation of ``lit`` fails
        (a failed literal: ``lit`` follows, at one step of look-ahead)."""
        return self.oracle.propagate(groups, facts + [-lit]) is None

    def _singles(self, wanted: dict[int, Entry], facts: list[int], base: set[int], active: list
                 ) -> tuple[list, list[int], int] | None:
        """One instance that sets an open cell by unit propagation, with the fewest known cells
        among the first :data:`TRIED` found (one that needs none is taken at once). ``active``
        gets the instances that derive anything beyond ``base`` (what the known cells give alone)."""
        found = []
        for g in self.oracle.groups:
            implied = self.oracle.propagate([g], facts)
            if not implied or not implied - base:
                continue
            active.append(g)
            lit = next((l for l in implied if l in wanted), None)
            if lit is None or len(found) >= TRIED:
                continue
            alone = self.oracle.propagate([g], [])
            lone = next((l for l in alone or () if l in wanted), None)
            if lone is not None:
                return [g], [], lone
            found.append(([g], lit))
        return self._fewest(found, facts)

    def _probes(self, unknown: list[Entry], facts: list[int], size: int) -> tuple[list, list[int], int] | None:
        """One instance (``size`` 1) or two (2) beside an open cell whose other value fails by unit
        propagation with the known cells; the most constrained cells first, the fewest known cells
        among the first :data:`TRIED` found."""
        found = []
        order = sorted(unknown, key=self._freedom)
        for e in order if size == 1 else order[:PROBED]:
            lit = self.target[e]
            around = self._around(e)
            sets = [[g] for g in around] if size == 1 else \
                [[g, h] for i, g in enumerate(around) for h in around[i + 1:] if h in self.near[g]]
            for groups in sets:
                if self._forces(groups, facts, lit):
                    found.append((groups, lit))
                    break
            if len(found) >= TRIED or self.deadline.expired():
                break
        return self._fewest(found, facts)

    def _pairs(self, wanted: dict[int, Entry], facts: list[int], active: list) -> tuple[list, list[int], int] | None:
        """Two instances that share a cell (or one of them the whole grid), as :meth:`_singles`.

        Unit propagation from two instances derives something only if one of
        them does alone, so the first of the pair is an ``active`` one.
        """
        found = []
        seen: set[frozenset] = set()
        for g in active:
            for h in self.near_order[g]:
                pair = frozenset((g, h))
                if pair in seen:
                    continue
                seen.add(pair)
                implied = self.oracle.propagate([g, h], facts)
                lit = next((l for l in implied if l in wanted), None) if implied else None
                if lit is not None:
                    found.append(([g, h], lit))
                    if len(found) >= TRIED:
                        return self._fewest(found, facts)
            if self.deadline.expired():
                return None
        return self._fewest(found, facts)

    def _fewest(self, found: list[tuple[list, int]], facts: list[int]) -> tuple[list, list[int], int] | None:
        """The candidate whose known cells, cut down (:func:`shrink`, while unit propagation still
        refutes the other value), are fewest."""
        best = None
        for groups, lit in found:
            used = shrink(facts, lambda trial, groups=groups, lit=lit: self._forces(groups, trial, lit))
            if best is None or len(used) < len(best[1]):
                best = (groups, used, lit)
        return best

    def _by_cores(self, unknown: list[Entry], facts: list[int]) -> tuple | None:
        """The last greedy search, as ``(instances, known literals, the literal explained, "core",
        minimal)``: a core per open cell (kept from earlier steps while nothing near it
        changed; at most :data:`PROBED` new ones, the most constrained cells first), the
        :data:`SHRINK` smallest shrunk to minimal ones, the smallest of those taken. A call that
        spends :data:`CONFLICTS` conflicts is given up: its cell waits, or its item is kept."""
        cores = []
        fresh = 0
        for e in sorted(unknown, key=self._freedom):
            lit = self.target[e]
            if e not in self.cores:
                if fresh >= PROBED and cores:
                    continue
                fresh += 1
                order = self._nearest(e)
                r = self.oracle.check(order, facts + [-lit], CONFLICTS)
                if r.status == "sat":
                    self.open.add(e)
                    continue
                if r.status != "unsat":
                    if self.deadline.expired():
                        return None
                    continue
                rank = {g: k for k, g in enumerate(order)}
                self.cores[e] = (sorted(r.groups, key=rank.__getitem__), [l for l in r.lits if l != -lit])
            groups, lits = self.cores[e]
            cores.append((len(groups), len(lits), lit, groups, lits))
        cores.sort(key=lambda c: c[:2])
        best = None
        for _, _, lit, groups, lits in cores[:SHRINK]:
            core = minimal_core(self.oracle, groups[::-1], lits, [-lit], SHRINK_CONFLICTS, SHRINK_SECONDS)
            if core is None:
                if self.deadline.expired():
                    return None
                core = Core(groups, lits, minimal=False)  # the first call ran out: the core as found
            cost = (not core.minimal, len(core.groups), len(core.lits))
            if best is None or cost < best[0]:
                best = (cost, core, lit)
        if best is None:
            return None
        return best[1].groups, best[1].lits, best[2], "core", best[1].minimal

    def _freedom(self, e: Entry) -> int:
        """How little is known around an entry: minus the known entries and clue cells beside its cells."""
        cols = self.model.grid.cols
        near = set()
        for c in _entry_cells(e, self.model.grid.rows, cols):
            near |= {c, *self.model.grid.neighbours[c]}
        return -sum(1 for c in near if c in self.known_cells or c in self.clue_cells)

    def _nearest(self, e: Entry) -> list:
        """Every instance, those nearest the entry first (by the grid distance between cells;
        an instance over the whole grid as if 2 cells away). Computed once per entry."""
        if e not in self.orders:
            cols = self.model.grid.cols
            at = [divmod(c, cols) for c in _entry_cells(e, self.model.grid.rows, cols)]

            def distance(g) -> int:
                places = self.places[g]
                if not places or not at:
                    return 2
                return min(abs(r - a) + abs(c - b) for r, c in places for a, b in at)

            far = {g: distance(g) for g in self.oracle.groups}
            order = sorted(self.oracle.groups, key=far.__getitem__)
            self.orders[e] = (order, [g for g in order if far[g] <= 1 or not self.places[g]])
        return self.orders[e][0]

    def _around(self, e: Entry) -> list:
        """The instances about the entry's cells or their side neighbours, and those over the whole grid."""
        self._nearest(e)
        return self.orders[e][1]

    def _finish(self, groups: list, facts: list[int], unknown: list[Entry], search: str, sure: int) -> Step | None:
        """The step of an explanation: every open cell it implies (at least ``sure``, the one it was found for)."""
        decided = decided_by(self.oracle, groups, facts, [self.target[e] for e in unknown], [sure], CONFLICTS)
        if not decided:
            return None
        of_lit = {self.target[e]: e for e in unknown}
        of_fact = {lit: e for e, lit in self.known.items()}
        step = Step([(of_lit[l], of_lit[l].value_of(l)) for l in decided], list(groups),
                    [(of_fact[l], of_fact[l].value_of(l)) for l in facts], search=search)
        step.instances = [describe(self.model, g) for g in groups]
        changed = set()
        for e, _ in step.decides:
            self.known[e] = self.target[e]
            changed.update(_entry_cells(e, self.model.grid.rows, self.model.grid.cols))
        self.known_cells |= changed
        near = set(changed)
        for _ in range(2):
            near |= {n for c in near for n in self.model.grid.neighbours[c]}
        for e in list(self.cores):  # a smaller core may now exist beside the new cells
            if e in self.known or set(_entry_cells(e, self.model.grid.rows, self.model.grid.cols)) & near:
                del self.cores[e]
        return step


def _entry_cells(e: Entry, rows: int, cols: int) -> list[int]:
    """The cells of an entry: its cell; an edge's two cells; the one or two cells beside an edge
    of the lattice of corners."""
    if e.kind == "cells":
        return [e.key]
    (r1, c1), (r2, c2) = e.key
    if e.kind == "edges":
        return [r1 * cols + c1, r2 * cols + c2]
    if r1 == r2:  # a horizontal corner edge: the cells above and below it
        cells = [(r1 - 1, min(c1, c2)), (r1, min(c1, c2))]
    else:
        cells = [(min(r1, r2), c1 - 1), (min(r1, r2), c1)]
    return [r * cols + c for r, c in cells if 0 <= r < rows and 0 <= c < cols]


def _cells(tag: Hashable) -> frozenset[int]:
    """The cells an instance's binding names (empty for a rule over the whole grid)."""
    cells: set[int] = set()
    for _name, kind, value in tag[1]:
        if kind == "cell":
            cells.add(value)
        elif kind == "set":
            cells |= set(value[0])
    return frozenset(cells)


def explain_steps(model: Model, tags, answer: Assignment, deadline: Deadline | None = None,
                  max_steps: int | None = None) -> Hints:
    """Explain a puzzle's answer step by step (see the module docstring).

    Args:
        model: the model compiled with tags (:func:`gridlang.compiler.compile_tagged`).
        tags: its constraints' instances.
        answer: an answer of the model (its values are the ones explained).
        deadline: the command's deadline; the run stops at it with the
            steps found so far.
        max_steps: stop after this many steps (None: until no entry is left).

    Returns:
        The steps, the entries left open or unknown, and the walk of unit propagation and failed
        literals the grade reads (:func:`gridlang.why.depth.reasoning_depth`, 0.03 to 0.1 s on a
        9x9 Sudoku).
    """
    deadline = deadline or Deadline(None)
    t0 = time.perf_counter()
    run = _Search(model, tags, answer, deadline, CHEAPEST_ROUNDS)
    steps: list[Step] = []
    while run.unknown() and (max_steps is None or len(steps) < max_steps):
        step = run.step()
        if step is None:
            break
        steps.append(step)
    depth = None if deadline.expired() else reasoning_depth(model, tags, deadline)
    left = run.unknown()
    stopped = bool(left) and (deadline.expired() or max_steps is not None and len(steps) >= max_steps)
    # An entry is open only on the evidence of an answer (run.open); one left without a step when
    # nothing stopped the run is one whose every call ran out of its conflicts: unknown, not open.
    out = Hints(steps, not left and not run.open, sorted(run.open, key=run.entries.index), left,
                time.perf_counter() - t0, run.oracle.calls, gave_up=bool(left) and not stopped,
                depth=None if depth is None or deadline.expired() else depth)
    run.oracle.close()
    return out
