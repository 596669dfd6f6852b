"""Counters for the MaxSAT linear search: "at least m" grown one column at a time, and the cost bound.

For literals ``x_1 .. x_n`` the register variable ``r[i][j]`` (``1 <= j <=
i <= n``) is defined in one direction only: ``r[i][j]`` implies that at
least ``j`` of ``x_1 .. x_i`` are true. With ``r[0][j]`` false for
``j >= 1`` and ``r[i-1][0]`` true, "at least ``j`` among the first ``i``"
holds exactly when it held among the first ``i - 1``, or ``x_i`` holds and
``j - 1`` did, so for every ``i`` and ``j``:

    -r[i][j] | r[i-1][j] | x_i
    -r[i][j] | r[i-1][j] | r[i-1][j-1]        (j >= 2)

Assuming ``r[n][m]`` then forces at least ``m`` true literals, and every
assignment with at least ``m`` extends to the registers (``r[i][j]`` =
"at least ``j`` of the first ``i``"). Column ``j`` needs only column
``j - 1``, so the counter grows on demand: :meth:`AtLeast.output` adds the
columns up to ``m`` when first asked. Size: ``n - j + 1`` variables and at
most ``2 (n - j + 1)`` clauses per column ``j``, so ``O(n m)`` for the
largest ``m`` asked. This is C. Sinz's sequential counter (CP 2005) read
from the other side, and it is what the MaxSAT linear search uses when the
score it must beat is small beside the cost: PySAT's counters
(:mod:`pysat.card`) encode ``sum <= k`` and count ``sum >= m`` as
``sum of negations <= n - m``, which costs ``O(n (n - m))``, 6 million
clauses and 1.5 GB for the near-empty 60x60 map of
``docs/reliability.md``.
"""

from __future__ import annotations

from typing import Callable, Sequence

COUNTER_MAX_SIZE = 2_000_000
"""The largest ``units x cost`` for which :class:`CostBound` counts the cost
with PySAT's totalizer."""


class CostBound:
    """"Fewer than ``best`` of ``counted`` are true", for a ``best`` that only falls.

    The linear SAT-UNSAT search asks each call for an answer cheaper than
    the incumbent. Its cost counts the true literals of ``counted`` (the
    falsified soft units). The counter is made at the first bound ``c``
    over ``W`` literals: PySAT's incremental totalizer cut at ``c`` outputs
    (O. Bailleux, Y. Boufkhad, CP 2003; ``ITotalizer``, R. Martins et al.,
    CP 2014; about ``W c`` clauses), or, when ``W c`` passes
    :data:`COUNTER_MAX_SIZE` and ``W - c`` is the smaller side (a
    near-empty map: thousands of cells, a pen of a few dozen), the
    satisfied units counted by :class:`AtLeast`, "at least ``W - c + 1``
    false", grown as the bound falls. Before that choice the totalizer of a
    60x60 map took 1.5 GB and 16 s.

    Args:
        counted: DIMACS literals, repeated by their weight.
    """

    def __init__(self, counted: Sequence[int]):
        self.counted = list(counted)
        self.tot = None
        self.gain: AtLeast | None = None
        self.seen = 0

    def below(self, best: int, top: int) -> tuple[int | None, list[list[int]]]:
        """The literal to assume for "fewer than ``best``", and the clauses to add first.

        Args:
            best: the incumbent's cost, at least 1.
            top: the highest variable in use (the counter's start after it, when first made).

        Returns:
            ``(literal, clauses)``: the literal is 0 when no assumption is
            needed and None when the bound cannot be met.
        """
        from pysat.card import ITotalizer

        units = len(self.counted)
        if self.tot is None and self.gain is None:
            if units * best <= COUNTER_MAX_SIZE or best <= units - best + 1:
                self.tot = ITotalizer(self.counted, ubound=best, top_id=top)
                return (-self.tot.rhs[best - 1] if best - 1 < units else 0), self.tot.cnf.clauses
            box = [top]

            def new_var() -> int:
                box[0] += 1
                return box[0]

            self.gain = AtLeast([-lit for lit in self.counted], new_var)
        if self.tot is not None:
            return (-self.tot.rhs[best - 1] if best - 1 < units else 0), []
        out = self.gain.output(units - best + 1)
        clauses = self.gain.clauses[self.seen:]
        self.seen = len(self.gain.clauses)
        return out, clauses

    def delete(self) -> None:
        """Free PySAT's totalizer."""
        if self.tot is not None:
            self.tot.delete()


class AtLeast:
    """The counter over ``lits``; new variables come from ``new_var``.

    Args:
        lits: the counted literals (DIMACS, nonzero; repeats count repeatedly).
        new_var: returns a fresh variable number each call.

    Attributes:
        clauses: every clause made so far, in order (callers hand on the
            tail they have not seen).
    """

    def __init__(self, lits: Sequence[int], new_var: Callable[[], int]):
        self.lits = list(lits)
        self.new_var = new_var
        self.clauses: list[list[int]] = []
        # columns[j - 1][i - j]: r[i][j] for i = j .. n
        self.columns: list[list[int]] = []

    def output(self, m: int) -> int | None:
        """The literal that, assumed true, makes at least ``m`` of the literals true.

        Returns:
            ``r[n][m]``; None when ``m > n`` (impossible: assume nothing, add the
            empty clause yourself), 0 when ``m <= 0`` (always true).
        """
        n = len(self.lits)
        if m <= 0:
            return 0
        if m > n:
            return None
        while len(self.columns) < m:
            self._grow()
        return self.columns[m - 1][-1]

    def _grow(self) -> None:
        j = len(self.columns) + 1
        prev = self.columns[-1] if self.columns else None
        column: list[int] = []
        for i in range(j, len(self.lits) + 1):
            r = self.new_var()
            x = self.lits[i - 1]
            below = column[-1] if column else None  # r[i-1][j], absent (false) when i - 1 < j
            self.clauses.append([-r, x] if below is None else [-r, below, x])
            if prev is not None:
                diag = prev[i - j]  # r[i-1][j-1]: prev holds r[j-1 ..][j-1], index (i-1)-(j-1)
                self.clauses.append([-r, diag] if below is None else [-r, below, diag])
            column.append(r)
        self.columns.append(column)
