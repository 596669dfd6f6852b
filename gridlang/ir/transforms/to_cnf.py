"""To CNF: linear constraints as clauses, and the objective as weighted soft clauses.

:func:`linear_to_clauses` is an IR -> IR pass: every
:class:`~gridlang.ir.model.Linear` of a model becomes :class:`~gridlang.ir.model.Clause`
nodes over the model's variables and new auxiliary ones, each keeping the
span of the spec line it came from.

* The row is normalised first: one term per variable, positive
  coefficients (``c * v = |c| * (-v) - |c|`` for ``c < 0``), the constant
  moved to the right-hand side, trivial sides decided outright (``sum <= b``
  with ``b`` at least the sum of the weights holds; with ``b < 0`` it is the
  empty clause), and a literal whose weight alone exceeds ``b`` is false.
* ``sum w_i l_i >= b`` is ``sum w_i (-l_i) <= sum w_i - b``; ``==`` is the
  conjunction of ``<=`` and ``>=``.
* Equal weights make a cardinality constraint ``sum l_i <= k``: ``k = 0``
  gives unit clauses, ``k = n - 1`` the single clause "not all" (this is
  also how ``>= 1`` arrives), ``k = 1`` with ``n <= 6`` the pairwise
  encoding; ``2k > n`` counts the false literals instead
  (``sum -l_i >= n - k``, by a sequential counter, C. Sinz, CP 2005);
  ``k = 1`` otherwise a sequential counter; else the chosen
  :class:`pysat.card.EncType`, or ``ktotalizer``, the totalizer cut at
  ``k + 1`` outputs (PySAT's ``ITotalizer``, R. Martins et al., CP 2014;
  ``O(n k)`` clauses). The default, ``auto``, chooses by size: the
  modulo totalizer (``mtotalizer``, T. Ogawa et al., ICTAI 2013; 2,637
  clauses for a daily's 133 grass cells and ``k = 12``, where the
  totalizer of O. Bailleux and Y. Boufkhad, CP 2003, makes 9,720; the
  fastest on the real maps) for at most :data:`MTOTALIZER_MAX_INPUTS`
  literals, else the modulo totalizer cut at ``k`` (``kmtotalizer``;
  measured: 776,000 clauses for 38,000 literals and ``k = 40``), when
  ``n k`` is at most :data:`UNARY_MAX_SIZE`, else the
  cardinality network (``cardnetwrk``, R. Asin et al., Constraints 2011;
  ``O(n log^2 k)`` clauses). Before this choice ``count(wall) <= 40`` on a
  60x60 map took 6.2 million clauses and 28 s to build, 1.6 GB; it now
  takes 69,000 clauses and 0.3 s.
* Unequal weights go to :mod:`pysat.pb` (``PBEnc``, its default encoding
  by Pindakaas).
* ``enforce`` literals are appended, negated, to every clause of the
  encoding: when they all hold the encoding is intact, otherwise every
  clause is satisfied, which is exactly the half-reification
  ``AND(enforce) -> constraint``.

:func:`soft_objective` turns the objective ``sense sum c_i l_i + K`` into
soft clauses. Maximising, a term with ``c > 0`` is the soft unit clause
``[l]`` of weight ``c`` and one with ``c < 0`` is ``[-l]`` of weight
``|c|``; then ``score = K + sum_{c>0} c - cost``, so
``offset = K + sum_{c>0} c`` and the score is ``offset - cost``.
Minimising, the roles swap and ``objective = K + sum_{c<0} c + cost``.
Soft literals already fixed by the hard clauses (unit propagation over the
unit and binary clauses) go into the offset: a tighter objective, on which
a core-guided solver never spends a core.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from gridlang.core.errors import BackendError
from gridlang.core.nodes import replace
from gridlang.ir.model import Clause, Cmp, Linear, Model, Objective, Sense, Var

CARD_ENCODINGS = ("auto", "seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "ktotalizer", "mtotalizer", "kmtotalizer")
"""Cardinality encodings :func:`linear_to_clauses` takes: ``auto`` (by size), :class:`pysat.card.EncType`
names, and ``ktotalizer``."""

MTOTALIZER_MAX_INPUTS = 1000
"""Under ``auto``, the most literals the modulo totalizer counts in full
(51,000 clauses at 1,000 literals and ``k = 40``; above, it is cut at ``k``).
On the enclose.horse maps it is the fastest budget encoding under MaxSAT
(``docs/benchmarks.md``): the 214 dailies' median 0.115-0.121 s against
0.134-0.146 s for the full totalizer."""

UNARY_MAX_SIZE = 4_000_000
"""Under ``auto``, above this ``n k`` (and for counting the false literals
when ``k > n / 2``) the cardinality network replaces the unary counters."""


def card_encoding(encoding: str, n: int, k: int) -> str:
    """The encoding ``auto`` stands for on ``sum of n literals <= k`` (others are returned as given)."""
    if encoding != "auto":
        return encoding
    if n <= MTOTALIZER_MAX_INPUTS:
        return "mtotalizer"
    return "kmtotalizer" if n * k <= UNARY_MAX_SIZE else "cardnetwrk"


ENCODING_UNITS_PER_SECOND = 1_200_000
"""A cautious rate of PySAT's cardinality encodings, in units of ``n k``
(``n`` literals, bound ``k``): ``count(wall) <= 40`` over 38,812 cells, 1.55
million units, took 0.64 s at rest. An encoding that cannot be stopped once
started is not begun when the time left is below its predicted time."""


def linear_to_clauses(model: Model, encoding: str = "auto", deadline=None) -> Model:
    """The model with every linear constraint as clauses (see the module docstring).

    Auxiliary variables are numbered after the model's, in the order of the
    constraints that need them, and named ``aux.card=LN.I``: the ``I``-th
    auxiliary variable of the constraints from line ``N`` of the spec
    (``aux.card=#K.I`` for the ``K``-th constraint of ``model``, from 1,
    when it has no source line).

    Args:
        model: any model; it is not changed.
        encoding: the cardinality encoding of ``sum <= k`` for
            ``2 <= k <= n / 2``, one of :data:`CARD_ENCODINGS`.

    Returns:
        A new model whose constraints are those of ``model``, each
        :class:`~gridlang.ir.model.Linear` replaced in place by its clauses; the
        variables are ``model``'s followed by the auxiliary ones.

        deadline: a :class:`~gridlang.core.deadline.Deadline`, read before each
            linear constraint and every 65,536 clauses; None for none.

    Raises:
        BackendError: ``encoding`` is not one of :data:`CARD_ENCODINGS`.
        BuildTimeout: the deadline passed, or the time left is clearly too
            short for the next encoding (:data:`ENCODING_UNITS_PER_SECOND`).
    """
    from pysat.formula import IDPool

    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout

    if encoding not in CARD_ENCODINGS:
        raise BackendError(f"unknown cardinality encoding {encoding!r}; choose one of {', '.join(CARD_ENCODINGS)}")
    pool = IDPool(start_from=model.num_vars + 1)
    constraints = []
    aux: list[Var] = []
    counted: dict[str, int] = {}  # auxiliary variables named so far, by source
    for k, con in enumerate(model.constraints, start=1):
        if not isinstance(con, Linear):
            constraints.append(con)
            continue
        first = pool.top + 1
        span = con.span
        if deadline is not None:
            deadline.check()
            left = deadline.remaining()
            n = len(con.terms)
            units = n * min(abs(con.rhs), n)
            if left is not None and units > 100_000 and units / ENCODING_UNITS_PER_SECOND > left:
                raise BuildTimeout()
        for j, cl in enumerate(linear_clauses(con, pool, encoding)):
            if deadline is not None and not j & 0xFFFF:
                deadline.check()
            constraints.append(Clause(cl, span))
        source = f"L{span.line}" if span is not None else f"#{k}"
        done = counted.get(source, 0)
        counted[source] = done + pool.top - first + 1
        aux.extend(Var("aux.card", value=f"{source}.{i}") for i in range(done + 1, counted[source] + 1))
    return replace(model, variables=model.variables + tuple(aux), constraints=tuple(constraints))


def linear_clauses(con: Linear, pool, encoding: str = "auto") -> list[tuple[int, ...]]:
    """The clauses of one linear constraint, auxiliary variables from ``pool``
    (a :class:`pysat.formula.IDPool`); see the module docstring."""
    guard = tuple(-lit for lit in con.enforce)
    lits, weights, rhs = _normalise(con.terms, con.rhs)
    parts = [Cmp.LE, Cmp.GE] if con.op is Cmp.EQ else [con.op]
    clauses: list[list[int]] = []
    for part in parts:
        clauses.extend(_bound_clauses(lits, weights, part, rhs, pool, encoding))
    if guard:
        return [tuple(cl) + guard for cl in clauses]
    return [tuple(cl) for cl in clauses]


def _normalise(terms: Iterable[tuple[int, int]], rhs: int) -> tuple[list[int], list[int], int]:
    """One positive coefficient per literal, the constant moved to ``rhs``:
    ``(literals, weights, rhs)``."""
    coef: dict[int, int] = {}
    for c, lit in terms:
        if lit > 0:
            coef[lit] = coef.get(lit, 0) + c
        else:
            coef[-lit] = coef.get(-lit, 0) - c
            rhs -= c
    lits, weights = [], []
    for v in sorted(coef):
        c = coef[v]
        if c > 0:
            lits.append(v)
            weights.append(c)
        elif c < 0:
            # c * v = |c| * (-v) - |c|
            lits.append(-v)
            weights.append(-c)
            rhs += -c
    return lits, weights, rhs


def _bound_clauses(lits: list[int], weights: list[int], op: Cmp, rhs: int, pool, encoding: str) -> list[list[int]]:
    """Clauses for ``sum w_i l_i <= rhs`` or ``>= rhs`` with ``w_i > 0``."""
    from pysat.card import CardEnc, EncType
    from pysat.pb import PBEnc

    total = sum(weights)
    if op is Cmp.GE:
        # sum w l >= rhs  <=>  sum w (-l) <= total - rhs
        lits = [-lit for lit in lits]
        rhs = total - rhs
    # Now sum w l <= rhs.
    if rhs < 0:
        return [[]]
    if rhs >= total:
        return []
    clauses = [[-lit] for lit, w in zip(lits, weights) if w > rhs]
    keep = [(lit, w) for lit, w in zip(lits, weights) if w <= rhs]
    if not keep:
        return clauses
    lits = [lit for lit, _ in keep]
    weights = [w for _, w in keep]
    if sum(weights) <= rhs:
        return clauses
    if len(set(weights)) == 1:
        k = rhs // weights[0]
        if k == 0:
            return clauses + [[-lit] for lit in lits]
        if k == len(lits) - 1:
            # "not all": one clause (this is also how ``>= 1`` arrives).
            return clauses + [[-lit for lit in lits]]
        if k == 1 and len(lits) <= 6:
            return clauses + [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
        if 2 * k > len(lits):
            # Mostly true: count the false ones instead, ``sum(-l) >= n - k``
            # (a ``>= k`` for small k arrives here), with a sequential counter
            # (``O(n (n - k))``), or a cardinality network when that is large.
            small = encoding != "auto" or len(lits) * (len(lits) - k) <= UNARY_MAX_SIZE
            enc = CardEnc.atleast([-lit for lit in lits], bound=len(lits) - k, vpool=pool,
                                  encoding=EncType.seqcounter if small else EncType.cardnetwrk)
            return clauses + enc.clauses
        if k == 1:
            encoding = "seqcounter"
        encoding = card_encoding(encoding, len(lits), k)
        if encoding == "ktotalizer":
            return clauses + _ktotalizer(lits, k, pool)
        enc = CardEnc.atmost(lits, bound=k, vpool=pool, encoding=getattr(EncType, encoding))
        return clauses + enc.clauses
    enc = PBEnc.leq(lits, weights=weights, bound=rhs, vpool=pool)
    return clauses + enc.clauses


def _ktotalizer(lits: list[int], k: int, pool) -> list[list[int]]:
    """``sum lits <= k`` by the totalizer cut at ``k + 1`` outputs (PySAT's ``ITotalizer``);
    output ``k + 1`` is set false."""
    from pysat.card import ITotalizer

    tot = ITotalizer(lits, ubound=k, top_id=pool.top)
    try:
        clauses = tot.cnf.clauses + [[-tot.rhs[k]]]
        pool.top = max(pool.top, tot.top_id)
    finally:
        tot.delete()
    return clauses


@dataclass
class SoftObjective:
    """An objective as weighted soft clauses (see the module docstring).

    Attributes:
        soft: ``(weight, clause)`` pairs, weights positive integers.
        offset: the objective is ``offset - cost`` when maximising and
            ``offset + cost`` when minimising (``cost``: the total weight of
            the falsified soft clauses).
        sense: the objective's sense.
    """

    soft: list[tuple[int, list[int]]] = field(default_factory=list)
    offset: int = 0
    sense: Sense = Sense.MAXIMIZE


def soft_objective(objective: Objective, hard: Sequence[Sequence[int]]) -> SoftObjective:
    """The objective as soft unit clauses, the literals ``hard`` fixes moved into the offset.

    Args:
        objective: the model's objective.
        hard: the hard clauses (DIMACS literals) it is solved under.

    Returns:
        The soft clauses, ascending by variable, and the offset.
    """
    coef: dict[int, int] = {}
    constant = objective.constant
    for c, lit in objective.terms:
        # c * (-v) = c - c * v: keep one coefficient per variable.
        if lit > 0:
            coef[lit] = coef.get(lit, 0) + c
        else:
            coef[-lit] = coef.get(-lit, 0) - c
            constant += c
    fixed = fixed_literals(hard)
    maximise = objective.sense is Sense.MAXIMIZE
    out = SoftObjective(sense=objective.sense)
    # Rewrite as ``constant + sum w * [l]`` where the soft clause [l] is wanted.
    offset = constant
    for v in sorted(coef):
        c = coef[v]
        if c == 0:
            continue
        # maximise c*x: want x when c > 0; minimise: want x when c < 0.
        want = v if (c > 0) == maximise else -v
        weight = abs(c)
        if maximise:
            offset += c if c > 0 else 0
        else:
            offset += c if c < 0 else 0
        if want in fixed:
            continue  # always satisfied: no cost either way
        if -want in fixed:
            # always falsified: its cost is a constant
            offset += -weight if maximise else weight
            continue
        out.soft.append((weight, [want]))
    out.offset = offset
    return out


def fixed_literals(hard: Sequence[Sequence[int]]) -> set[int]:
    """Literals implied by unit propagation over the unit and binary clauses of ``hard``
    (empty when they contradict each other: the solver then reports it)."""
    fixed: set[int] = set()
    queue = [cl[0] for cl in hard if len(cl) == 1]
    implies: dict[int, list[int]] = {}
    for cl in hard:
        if len(cl) == 2:
            a, b = cl
            implies.setdefault(-a, []).append(b)
            implies.setdefault(-b, []).append(a)
    while queue:
        lit = queue.pop()
        if lit in fixed:
            continue
        if -lit in fixed:
            return set()  # contradictory: let the solver report infeasibility
        fixed.add(lit)
        queue.extend(implies.get(lit, ()))
    return fixed
