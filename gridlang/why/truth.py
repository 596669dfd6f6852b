"""Which rule instances an answer satisfies, read off in one pass of array operations.

The search for the cheapest step (:mod:`gridlang.why.ocus`) grows every
answer the oracle gives into the set of instances it satisfies, once per
hitting set: on a 9 x 9 Sudoku some 3,000 clauses and rows, which
:func:`gridlang.ir.checks.broken_constraints` evaluates one term at a time
in 2 ms, a third of a round. Here the clauses and the linear rows of every
instance are laid out once as flat NumPy arrays (literal, owner), and an
answer is evaluated by gathering its values and reducing per clause, per row
and per instance (``np.logical_or.reduceat``, ``np.add.reduceat``), some
50 microseconds there. Constraints of other kinds (connectivity, blocks,
tables) are few; they are checked by :func:`broken_constraints` as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from gridlang.core.nodes import replace
from gridlang.ir.checks import broken_constraints
from gridlang.ir.model import Assignment, Clause, Cmp, Linear, Model


class InstanceTruth:
    """The instances of ``members`` an answer satisfies (every one of its constraints holds).

    Args:
        model: the model the constraints belong to (its grid, for connectivity).
        groups: the instances, in order.
        members: each instance's constraints.
    """

    def __init__(self, model: Model, groups: Sequence[Hashable], members: dict):
        self.groups = list(groups)
        index = {g: k for k, g in enumerate(self.groups)}
        lits, starts, owners = [], [], []
        terms, coefs, rows, row_owner, row_ops, rhs = [], [], [], [], [], []
        guarded: list[tuple[int, tuple[int, ...]]] = []  # row -> its enforce literals
        rest, rest_owner = [], []
        for g in self.groups:
            for con in members[g]:
                if isinstance(con, Clause) and con.lits:
                    starts.append(len(lits))
                    lits.extend(con.lits)
                    owners.append(index[g])
                elif isinstance(con, Linear) and con.terms:
                    row = len(row_owner)
                    for c, l in con.terms:
                        coefs.append(c)
                        terms.append(l)
                        rows.append(row)
                    row_owner.append(index[g])
                    row_ops.append(con.op)
                    rhs.append(con.rhs)
                    if con.enforce:
                        guarded.append((row, con.enforce))
                else:
                    rest.append(con)
                    rest_owner.append(g)
        self.lits = _split(lits)
        self.starts = np.array(starts, dtype=np.int64)
        self.owners = np.array(owners, dtype=np.int64)
        self.terms = _split(terms)
        self.coefs = np.array(coefs, dtype=np.int64)
        self.term_starts = np.array(
            [k for k in range(len(rows)) if k == 0 or rows[k] != rows[k - 1]],
            dtype=np.int64,
        )
        self.row_owner = np.array(row_owner, dtype=np.int64)
        self.rhs = np.array(rhs, dtype=np.int64)
        self.ops = {op: np.array([o is op for o in row_ops], dtype=bool) for op in Cmp}
        self.guarded = guarded
        self.rest = replace(model, constraints=tuple(rest)) if rest else None
        self.rest_index = {id(con): g for con, g in zip(rest, rest_owner)}

    def holding(self, answer: Assignment) -> frozenset:
        """The instances whose constraints ``answer`` satisfies (an empty one is satisfied)."""
        values = (
            np.frombuffer(bytes(answer.values), dtype=bool)
            if answer.values
            else np.zeros(0, bool)
        )
        broken = np.zeros(len(self.groups), dtype=bool)
        if len(self.starts):
            truth = _truth(values, self.lits)
            satisfied = np.logical_or.reduceat(truth, self.starts)
            broken[self.owners[~satisfied]] = True
        if len(self.term_starts):
            lhs = np.add.reduceat(
                self.coefs * _truth(values, self.terms), self.term_starts
            )
            ok = np.where(
                self.ops[Cmp.LE],
                lhs <= self.rhs,
                np.where(self.ops[Cmp.GE], lhs >= self.rhs, lhs == self.rhs),
            )
            for row, enforce in self.guarded:
                if not ok[row] and not all(answer.holds(l) for l in enforce):
                    ok[row] = True
            broken[self.row_owner[~ok]] = True
        out = {g for g, b in zip(self.groups, broken) if not b}
        if self.rest is not None:
            out -= {
                self.rest_index[id(con)]
                for con, _ in broken_constraints(self.rest, answer)
            }
        return frozenset(out)


def _split(lits: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Literals as (0-based variable indices, whether each is positive)."""
    array = np.array(lits, dtype=np.int64)
    return np.abs(array) - 1, array > 0


def _truth(values: np.ndarray, lits: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Whether each literal holds under ``values``."""
    index, positive = lits
    return values[index] == positive
