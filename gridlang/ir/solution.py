"""Decoded answers: from a solver's assignment back to the spec's names.

A :class:`Solution` speaks the spec's language (decisions and regions by
name, cells as ``(row, col)``); the puzzle verifiers read it together with
the raw map, never the IR's constraints.
"""

from __future__ import annotations

import itertools

from gridlang.core.nodes import Record
from gridlang.ir.model import Assignment, Decision, EqualBlocks, Model


class Solution(Record, slots=False):
    """One answer, by name.

    Attributes:
        decisions: decision name -> {cell index: value}; a Boolean decision
            lists only its true cells (value True); an enumeration lists the
            chosen value of every cell it is made on.
        regions: region name -> frozenset of member cell indices.
    """

    decisions: dict[str, dict[int, object]]
    regions: dict[str, frozenset[int]]

    def true_cells(self, decision: str) -> list[int]:
        """Cells where a Boolean decision is true, ascending."""
        return sorted(c for c, v in self.decisions.get(decision, {}).items() if v is True)


def decode(model: Model, assignment: Assignment) -> Solution:
    """Read the spec's decisions and regions off a full assignment.

    A decision's :attr:`~gridlang.ir.model.Decision.open_value` is read back
    as the size of its block at each cell that takes it.

    Returns:
        The solution. An enumeration cell with no value true is left out
        (the verifier reports it).
    """
    decisions: dict[str, dict[int, object]] = {}
    for d in model.decisions:
        chosen: dict[int, object] = {}
        for cell, options in d.cells:
            for value, lit in options:
                if assignment.holds(lit):
                    chosen[cell] = value
                    break
        if d.open_value is not None:
            for block in open_blocks(model, d, chosen):
                chosen.update(dict.fromkeys(block, len(block)))
        decisions[d.name] = chosen
    regions = {name: frozenset(assignment.true_cells(members)) for name, members in model.regions.items()}
    return Solution(decisions, regions)


def open_blocks(model: Model, decision: Decision, chosen: dict[int, object]) -> list[list[int]]:
    """The blocks of the cells where ``decision`` takes its open value: each a list of cells, ascending,
    joined through the grid's edges (4-neighbours and links).

    Args:
        model: the model (its grid).
        decision: a decision on cells with an :attr:`~gridlang.ir.model.Decision.open_value`.
        chosen: cell -> the value it takes, as the model's literals hold.
    """
    return EqualBlocks.blocks(model.grid, {cell: v for cell, v in chosen.items() if v == decision.open_value})


SPLIT_ANSWERS = 1000
"""The most answers :func:`split_answers` writes out for one answer of the model."""


def split_answers(model: Model, solution: Solution) -> tuple[list[Solution], bool]:
    """The other answers of the spec that the model's answer ``solution`` was read from stands for.

    A block of a decision's open value m (:attr:`~gridlang.ir.model.Decision.open_value`) is read
    back as one block of its own size; one of more than 2m cells may also split into blocks of m
    cells or more, of different sizes where they touch, each split another answer of the spec that
    the model does not tell apart (:mod:`gridlang.constructs.blocks.domains`). Each such block's
    splits are searched (:func:`gridlang.ir.connectivity.blocks.block_splits`) and every choice of
    them, a block kept whole or split, but one block split at least, is an answer.

    Returns:
        ``(answers, proved)``: ``solution`` with the splits written in (each part its size), at most
        :data:`SPLIT_ANSWERS`; ``proved`` False when a search ran out of steps or answers were left
        out (``solution`` may then stand for more).
    """
    # imported on use, not at start-up: only a model with an open value searches
    from gridlang.ir.connectivity.blocks import block_splits

    proved = True
    choices: list[tuple[str, list[list[list[int]]]]] = []
    for d in model.decisions:
        if d.open_value is None:
            continue
        chosen = solution.decisions.get(d.name, {})
        big = {cell: v for cell, v in chosen.items() if isinstance(v, int) and v > 2 * d.open_value}
        for block in EqualBlocks.blocks(model.grid, big):
            splits, done = block_splits(model.grid, block, d.open_value)
            proved = proved and done
            if splits:
                choices.append((d.name, [[block]] + splits))
    out: list[Solution] = []
    for combo in itertools.product(*(options for _, options in choices)):
        if all(len(parts) == 1 for parts in combo):
            continue  # every block whole: ``solution`` itself
        if len(out) == SPLIT_ANSWERS:
            return out, False
        decisions = {name: dict(values) for name, values in solution.decisions.items()}
        for (name, _), parts in zip(choices, combo):
            for part in parts:
                decisions[name].update(dict.fromkeys(part, len(part)))
        out.append(Solution(decisions, dict(solution.regions)))
    return out, proved


def projection(model: Model, assignment: Assignment) -> tuple[int, ...]:
    """The literals of every decision variable as they hold: the key used to
    tell two solutions apart when counting and to block one."""
    out = []
    for d in model.decisions:
        for _cell, options in d.cells:
            for _value, lit in options:
                out.append(lit if assignment.holds(lit) else -lit)
    return tuple(out)


def blocking_clause(model: Model, assignment: Assignment) -> tuple[int, ...]:
    """The clause that every other solution satisfies and this one does not.

    Two solutions differ when their :func:`projection` differs. For an
    enumerated decision (one-hot over two or more values, exactly one true
    per cell) a different solution makes some chosen literal false, so the
    chosen literals suffice: ``~a1 | ~a2 | ...``, one literal per cell rather
    than one per cell and value. A Boolean decision contributes the negation
    of its literal as it holds. The shorter clause propagates as soon as
    every cell but one keeps its value; on the 10x10 Snake Eggs it made the
    uniqueness proof about 15% faster (CP-SAT).

    Returns:
        The clause's literals.
    """
    out = []
    for d in model.decisions:
        for _cell, options in d.cells:
            if len(options) >= 2:
                out.extend(-lit for _value, lit in options if assignment.holds(lit))
            else:
                out.extend(-lit if assignment.holds(lit) else lit for _value, lit in options)
    return tuple(out)


def differing(a: Solution, b: Solution) -> list:
    """The keys whose value differs between two answers: cell indices first, then edges, each sorted.

    Args:
        a, b: two decoded answers of one model.

    Returns:
        Cell indices (``int``) and edges (``((r1, c1), (r2, c2))``) where a
        decision has another value (or a value in one answer only).
    """
    keys = set()
    for name in set(a.decisions) | set(b.decisions):
        da, db = a.decisions.get(name, {}), b.decisions.get(name, {})
        keys |= {k for k in set(da) | set(db) if da.get(k) != db.get(k)}
    return sorted(keys, key=lambda k: (not isinstance(k, int), k))
