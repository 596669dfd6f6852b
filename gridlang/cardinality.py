"""An incremental "at least m" counter: a sequential counter grown one column at a time.

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
