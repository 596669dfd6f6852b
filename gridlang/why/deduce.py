"""What one hint step rests on: the known cells a propagation needs, and the cells a set decides.

:func:`shrink` cuts a set of known cells down to a minimal one for a monotone
test (unit propagation from more cells derives more); :func:`decided_by`
finds, by full solver calls on the :class:`~gridlang.why.oracle.Oracle`,
which open cells a step's instances and known cells force. Both serve
:mod:`gridlang.why.hints`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from gridlang.why.oracle import Oracle


def shrink(items: Sequence, holds) -> list:
    """A subset of ``items`` for which ``holds`` is still true and from which no single item can go.

    Deletion by halving chunks: try to drop the first half, then each
    quarter, and so on down to single items, keeping every drop after
    which ``holds`` is still true. ``holds`` must be monotone (true on a
    set, true on every superset), as unit propagation from more known
    cells is; the last pass, one item at a time, then leaves a minimal set.
    With ``k`` items needed among ``n`` it takes about ``2k log2(n/k) + k``
    calls instead of one per item: a hint step's known cells are most of
    the grid, and an instance needs a few of them.

    Args:
        items: the candidates (a hint's known cells, as literals).
        holds: ``holds(subset) -> bool``; true on ``items`` itself.

    Returns:
        The kept items, in their order in ``items``.
    """
    keep = list(items)
    chunk = len(keep) // 2
    while chunk >= 1:
        i = 0
        while i < len(keep):
            trial = keep[:i] + keep[i + chunk :]
            if holds(trial):
                keep = trial
            else:
                i += chunk
        chunk //= 2
    return keep


def decided_by(
    oracle: Oracle,
    groups: Sequence[Hashable],
    facts: Sequence[int],
    candidates: Sequence[int],
    sure: Sequence[int] = (),
    budget: int | None = None,
) -> list[int]:
    """Which of ``candidates`` follow from the instances ``groups`` and the literals ``facts``.

    The backbone of ``groups`` and ``facts`` restricted to the candidates,
    by full solver calls: ask for an answer in which some candidate is
    false; each answer rules out the candidates it falsifies; none left to
    falsify (unsatisfiable) means the rest follow. One call per round,
    rarely more than a few.

    Args:
        oracle, groups, facts, candidates: as above.
        sure: candidates already known to follow, returned when a call runs
            out of time or of its ``budget`` before the rest is settled.
        budget: the conflicts each call may spend (None: no limit but the deadline).

    Returns:
        The candidates that follow, in their order (``sure`` when the
        search was cut short).
    """
    left = list(candidates)
    while left:
        flag = oracle.new_var()
        oracle.add_clause([-flag] + [-l for l in left])
        r = oracle.check(groups, list(facts) + [flag], budget)
        oracle.add_clause([-flag])
        if r.status == "unsat":
            return left
        if r.status != "sat":
            return [l for l in candidates if l in set(sure)]
        left = [l for l in left if r.assignment.holds(l)]
    return []
