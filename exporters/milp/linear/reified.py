"""Half-reified linear rows as MILP rows: big-M, and paired halves as one row.

A :class:`~gridlang.ir.model.Linear` with enforcement literals ``e_1..e_m``
holds only when all of them do. Write ``L = sum a_i l_i`` (literals in
[0, 1]), ``off = sum (1 - e_j)`` (0 exactly when the row is switched on),
and ``min(L)``, ``max(L)`` for the bounds of ``L`` over the box.

Big-M
    ``L <= b + M * off`` with ``M = max(L) - b``, and ``L >= b - M' * off``
    with ``M' = b - min(L)``. A side whose M is 0 or less can never be
    violated and is dropped. One row per side.
Paired halves
    Two rows on the same terms switched by complementary literals,
    ``e -> L <= a`` and ``~e -> L <= c`` (likewise ``>=``), are together
    the one row ``L <= a e + c (1 - e)``, i.e. ``L + (c - a) e <= c``: in
    the space of ``(L, e)`` it is the convex hull of the two cases (E.
    Balas, "Disjunctive programming: properties of the convex hull of
    feasible points", *Discrete Applied Mathematics* 89, 1998), where
    their two big-M rows only bound it. A reified count such as
    ``number[p] = 0 -> degree == 0`` with ``number[p] != 0 -> degree ==
    2`` becomes the one row ``degree + 2 x[p,0] == 2``, where big-M gave
    three. A side that only one half has, paired with ``L``'s own bound
    (``a = max(L)`` for ``<=``), is exactly that half's big-M row, and is
    written as one under its own name, unless both sides shift by the same
    amount: then they share one ranged (or equality) row.

Both forms are exact on 0/1 points: they cut off no integer point the IR
allows and admit none it forbids. The measurements behind the choice
(per-term implication rows, ``l_i + e <= 1``, were tried and dropped)
are in ``docs/benchmarks.md``.
"""

from __future__ import annotations

from gridlang.exporters.milp.linear.form import LinearForm, add_row
from gridlang.ir.model import Cmp, Constraint, Linear, affine


def pair_halves(constraints: tuple[Constraint, ...]) -> dict[int, int]:
    """The paired halves of a model: ``k -> k'`` for the rows switched by ``e`` and ``~e``.

    Args:
        constraints: the model's constraints; indices are positions in it.

    Returns:
        For each pair, both directions (``k -> k'`` and ``k' -> k``), the
        :class:`~gridlang.ir.model.Linear` rows with one enforcement literal,
        the same terms, and complementary literals. A row is in one pair at
        most (the first partner found, in the model's order).
    """
    first: dict[tuple, int] = {}
    pairs: dict[int, int] = {}
    for k, con in enumerate(constraints):
        if not (isinstance(con, Linear) and len(con.enforce) == 1):
            continue
        partner = first.get((con.terms, -con.enforce[0]))
        if partner is not None and partner not in pairs:
            pairs[partner] = k
            pairs[k] = partner
        else:
            first.setdefault((con.terms, con.enforce[0]), k)
    return pairs


def lower_guarded(low: LinearForm, halves: list[tuple[str, Linear]]) -> None:
    """Lower a half-reified row, or a pair of complementary halves, to rows (see the module docstring).

    Args:
        low: the linear form the rows go to.
        halves: ``[(name, row)]``, or two of them: rows on the same terms
            switched by complementary literals (from :func:`pair_halves`).
            ``name`` is the row label's stem (``linear_12_L22``); sides and
            the pair add suffixes.
    """
    coefs, const = affine(halves[0][1].terms)
    lmax = const + sum(a for a in coefs.values() if a > 0)
    lmin = const + sum(a for a in coefs.values() if a < 0)
    sides = [_sides(con, lmin, lmax) for _, con in halves]
    # Big-M rows keep the names they have unpaired: linear_12_L22, with _le/_ge on an equality or two sides.
    suffixed = [len(own) > 1 or con.op is Cmp.EQ for (_, con), own in zip(halves, sides)]
    if len(halves) == 2:
        # L <= a [e] + c (1 - [e]), i.e. L + (c - a) [e] <= c, [e] being x_e or 1 - x_e. A half
        # without the side stands at L's own bound there, which makes the row the other half's big-M row.
        e = halves[0][1].enforce[0]
        shifts: dict[str, tuple[int, int]] = {}
        for side, bound in (("le", lmax), ("ge", lmin)):
            if side in sides[0] or side in sides[1]:
                a, c = sides[0].get(side, bound), sides[1].get(side, bound)
                shifts[side] = (c - a, c)
        name = f"{halves[0][0]}_with_{halves[1][0]}"
        if len(shifts) == 2 and shifts["le"][0] == shifts["ge"][0]:  # one body: a ranged or equality row
            _shifted(low, name, coefs, const, e, shifts["le"][0], shifts["ge"][1], shifts["le"][1])
            return
        for side, (shift, c) in shifts.items():
            if side in sides[0] and side in sides[1]:
                _shifted(low, f"{name}_{side}", coefs, const, e, shift, c if side == "ge" else None,
                         c if side == "le" else None)
        sides = [{side: rhs for side, rhs in own.items() if side not in other}
                 for own, other in ((sides[0], sides[1]), (sides[1], sides[0]))]
    for (name, con), own, suffix in zip(halves, sides, suffixed):
        for side, rhs in own.items():
            _big_m(low, name + (f"_{side}" if suffix else ""), con.enforce, coefs, const, side, rhs, lmin, lmax)


def _shifted(low: LinearForm, name: str, coefs: dict[int, int], const: int, e: int, shift: int,
             lo: int | None, hi: int | None) -> None:
    """The row ``lo <= L + shift * [e] <= hi``."""
    extra, extra_const = affine([(shift, e)])
    row = dict(coefs)
    for j, w in extra.items():
        row[j] = row.get(j, 0) + w
    add_row(low, name, row, const + extra_const, lo, hi)


def _sides(con: Linear, lmin: int, lmax: int) -> dict[str, int]:
    """The sides of ``con`` that some 0/1 point violates: ``{"le": rhs, "ge": rhs}`` or fewer."""
    out = {}
    if con.op in (Cmp.LE, Cmp.EQ) and lmax > con.rhs:
        out["le"] = con.rhs
    if con.op in (Cmp.GE, Cmp.EQ) and lmin < con.rhs:
        out["ge"] = con.rhs
    return out


def _big_m(low: LinearForm, label: str, enforce: tuple[int, ...], coefs: dict[int, int], const: int,
           side: str, rhs: int, lmin: int, lmax: int) -> None:
    """``L <= rhs + M * off`` (le) or ``L >= rhs - M * off`` (ge), ``off = sum (1 - e_j)``."""
    off, off_const = affine((-1, l) for l in sorted(enforce, key=abs))
    off_const += len(enforce)
    big_m = lmax - rhs if side == "le" else rhs - lmin
    sign = -1 if side == "le" else 1
    row = dict(coefs)
    for j, a in off.items():
        row[j] = row.get(j, 0) + sign * big_m * a
    row_const = const + sign * big_m * off_const
    if side == "le":
        add_row(low, label, row, row_const, None, rhs)
    else:
        add_row(low, label, row, row_const, rhs, None)
