"""MaxSAT backend: weighted partial MaxSAT with PySAT, by linear SAT-UNSAT search or RC2.

Lowering (IR -> WCNF), with ``x_v`` the IR's own Boolean variable ``v``
(DIMACS variable ``v``; auxiliary variables come from an
:class:`pysat.formula.IDPool` that starts after the model's last variable):

* :class:`~gridlang.ir.Clause` -> one hard clause.
* :class:`~gridlang.ir.Linear` -> normalised first (one term per variable,
  positive coefficients, the constant moved to the right-hand side, trivial
  sides decided outright), then hard clauses from :mod:`pysat.card`
  (``CardEnc``) when every coefficient is equal, else from :mod:`pysat.pb`
  (``PBEnc``, Pindakaas). ``==`` is the conjunction of ``<=`` and ``>=``.
  ``enforce`` literals are appended, negated, to every clause of the
  encoding: when they all hold the encoding is intact, otherwise every
  clause is satisfied, which is exactly the half-reification
  ``AND(enforce) -> constraint``.
* The objective ``sense sum c_i l_i + K`` -> soft clauses. Maximising, a term
  with ``c > 0`` is the soft unit clause ``[l]`` of weight ``c`` and one with
  ``c < 0`` is ``[-l]`` of weight ``|c|``; then
  ``score = K + sum_{c>0} c - cost``, so ``offset = K + sum_{c>0} c`` and the
  reported score is ``offset - cost``. Minimising, the roles swap and
  ``objective = K + sum_{c<0} c + cost``. The score is re-computed with
  :meth:`Objective.value` on the decoded assignment and must agree.
  Soft literals already fixed by hard unit clauses go into the offset (a
  tighter objective: RC2 then never spends a core on them).

Connectivity (:class:`~gridlang.ir.Connected`), two exact strategies:

``cuts`` (default): the logic-based Benders loop of
:mod:`gridlang.connectivity`. Solve without connectivity; for every stray
component the vertex-separator cut ``x_s <= sum_{w in N(C)} x_w`` is the
hard clause ``[-x_s] + [x_w for w in N(C)]`` (the pairwise form
``x_s + x_t <= 1 + sum x_w`` is ``[-x_s, -x_t] + rim``), added to the *same*
RC2 object before the next ``compute()``: RC2's cores stay valid when hard
clauses are added, so each round resumes from the previous lower bound.
With roots, every member must be reached from some root (one component
per root is allowed, as in a flood fill from several cells). For rooted
regions each round also adds the root-side cut: with ``R`` the chosen
cells the roots reach, ``N(R)`` separates the roots from every candidate
outside ``R + N(R)``, so ``x_t <= sum_{w in N(R)} x_w`` for every chosen
``t`` outside it. Before the first round the loop is seeded with the cuts
whose separator is one or two cells, found by depth-first searches for cut
vertices (:func:`gridlang.connectivity.seed_cuts`: ``[-x_w, x_a]`` when cut vertex ``a``
separates ``w`` from the roots, ``[-x_w, x_a, x_b]`` for a pair,
``[-x_w]`` when nothing joins them). The loop stops on
a connected answer (optimal), or as soon as the answer with its stray
components removed (when that passes every constraint) scores the
relaxation's bound.

``tree`` (no loop, complete, used for file export): a spanning tree by
parent pointers with a binary level ranking, after T. Janhunen,
"Representing normal programs with clauses", ECAI 2004 (level rankings in
binary), and M. Gebser, T. Janhunen, J. Rintanen, "SAT modulo graphs:
acyclicity", JELIA 2014 (binary-ranking acyclicity). Every non-root member
``v`` picks a parent ``p[v,u]`` among its candidate neighbours; a parent is
a member; and the parent's rank, a ``B``-bit number with
``B = bitlen(n - 1)`` for ``n`` candidate cells (``n`` the region's size
when it is fixed: no BFS depth reaches it), is strictly smaller::

    -x_v | OR_u p[v,u]              (v not the root)
    -p[v,u] | x_u,  -p[v,u] | x_v
    -p[v,u] | d[v,u,B-1] | ... | d[v,u,0]        (u not a fixed root)
    d[v,u,i] -> e[{u,v},i] & -bit(u,i) & bit(v,i)
    e[{u,v},i] -> e[{u,v},i+1] & (bit(u,i+1) <-> bit(v,i+1))

``e`` (bits above ``i`` equal) is shared by the two arcs of an edge.
Parent chains strictly decrease the rank, so they end at a root: every
member is joined to a root (sound). A BFS forest from the roots with ranks
equal to BFS depth (``< n``) satisfies every clause (complete). Roots need
neither parents nor ranks, and arcs into a root need no comparison.
Without roots, ``r_v`` marks the one root: ``r_v -> x_v``, a member
implies some ``r``, and ``r_v`` excludes any member of smaller index (so
the root is the smallest member, unique). Size, for ``n`` candidates and ``m``
edges between them: ``n B + 2m (B + 1) + m (B - 1)`` variables and about
``n + 2m (3 + 3B) + 3m (B - 1)`` clauses (``O(m log n)``), against
``O(n^2)`` for a unary layered reachability encoding; a 30x30 map with
``n = 700`` gives about 50k variables and 150k clauses.

Solving. Models with an objective go, by default, to a linear SAT-UNSAT
search (``algorithm = "lsu"``, :meth:`_Run.lsu`): one incremental CaDiCaL
1.9.5 solver holds the hard clauses, the cuts and an incremental totalizer
counting the cost, and each call asks for a solution cheaper than the best
one so far; an answer with stray components gets its cuts (and its repair
may become the best solution), and UNSAT under the bound proves the best
solution optimal. ``algorithm = "rc2"`` runs RC2 instead (A. Ignatiev,
A. Morgado, J. Marques-Silva, "RC2: an efficient MaxSAT solver", JSAT 2019),
the cut loop adding clauses to the same RC2 object. Models without an
objective go to an incremental :class:`pysat.solvers.Solver`, the cut loop
adding clauses between ``solve`` calls. The time limit (seconds) covers all
rounds: a :class:`threading.Timer` interrupts the oracle; CaDiCaL cannot be
interrupted, so the search runs it in slices of ``conflicts`` conflicts
and reads the clock between slices (under RC2 the limit is then checked
between rounds only). On a timeout the answer is FEASIBLE when an earlier
round left a (repaired) solution, else UNKNOWN; ``Result.bound`` is a valid
bound: for RC2 the last completed round's relaxation optimum, for the
search the cost bound proved so far (the offset until the last call).

Settings (:data:`DEFAULTS`, each overridable through ``SolveOptions.extra``
as ``maxsat.NAME``): the algorithm (``auto`` takes ``lsu`` when every
objective term is on a region member, as on the standard maps, and ``rc2``
when the objective also prices decisions, as with costly walls), the SAT
oracle of each algorithm (CaDiCaL 1.9.5 for ``lsu``, Glucose 4 under RC2,
Glucose 3 without an objective), RC2's ``exhaust`` and ``minz``, the full
totalizer for cardinality, CaDiCaL slices of 100,000 conflicts, the
root-side cuts and the one-cell seeds. ``cuts`` is the default strategy;
``tree`` is exact but slower and serves the file export. The measurements
that chose each of them, and the reference they were compared with, are in
``docs/benchmarks.md``, "Settings and encodings tried".
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from gridlang.backend import Backend, Result, SolveOptions, Status
from gridlang.connectivity import cut_clause, root_side_cuts, seed_cuts, separator_cuts
from gridlang.connectivity.driver import Round, lazy_solve
from gridlang.deadline import Deadline, run_solver
from gridlang.errors import BackendError
from gridlang.ir import (
    Assignment,
    Clause,
    Cmp,
    Connected,
    Linear,
    Model,
    Sense,
)
from gridlang.readers import read_dimacs_solution

DEFAULTS: dict[str, object] = {
    "algorithm": "auto",
    "lsu.solver": "cadical195",
    "conflicts": 100000,
    "lsu.max_units": 100000,
    "rc2.solver": "g4",
    "rc2.stratified": False,
    "rc2.exhaust": True,
    "rc2.minz": True,
    "rc2.adapt": False,
    "sat.solver": "g3",
    "card.encoding": "totalizer",
    "cuts.root_side": True,
    "cuts.seed": True,
    "cuts.seed_pairs": False,
}
"""Solver settings, each overridable through ``SolveOptions.extra``.

* ``algorithm``: ``lsu`` (linear SAT-UNSAT search, :meth:`_Run.lsu`) or
  ``rc2`` (core-guided, :meth:`_Run.maxsat`) for models with an objective;
  ``auto`` takes ``lsu`` when every objective term is on a region member
  (the standard maps: the value of the pen) and ``rc2`` when the objective
  also prices decisions (costly walls), as measured in ``docs/benchmarks.md``.
* ``lsu.solver``: PySAT name of the SAT solver of ``lsu``.
  ``conflicts``: with a time limit and a solver PySAT cannot interrupt
  (CaDiCaL), each call of ``lsu`` or of the plain SAT search runs in slices
  of this many conflicts and the clock is read between slices. ``lsu.max_units``: the search counts a soft
  clause of weight ``w`` as ``w`` totalizer inputs; above this total
  weight RC2 runs instead (``stats["algorithm"]`` says which ran).
* ``rc2.solver``: PySAT name of RC2's SAT oracle (``g3``, ``g4``, ``cd19``,
  ``mgh``...); ``rc2.stratified`` (RC2Stratified, without hardening, which
  later cuts would invalidate), ``rc2.exhaust``, ``rc2.minz``, ``rc2.adapt``:
  RC2's options of those names.
* ``sat.solver``: the oracle for models without an objective.
* ``card.encoding``: :class:`pysat.card.EncType` name (or ``ktotalizer``) for
  ``sum <= k`` with ``2 <= k <= n / 2``; ``k = 1`` uses pairwise (``n <= 6``)
  or a sequential counter, larger ``k`` counts the false literals instead.
* ``cuts.root_side``: add the root-side cuts each round; ``cuts.seed``, ``cuts.seed_pairs``: seed the loop with
  the one- and two-cell separator cuts of :func:`gridlang.connectivity.seed_cuts`.
"""

# --------------------------------------------------------------------------
# lowering


@dataclass
class Lowered:
    """A model lowered to clauses.

    Attributes:
        hard: hard clauses (lists of DIMACS literals).
        soft: ``(weight, clause)`` pairs, weights positive integers.
        offset: the objective is ``offset - cost`` when maximising and
            ``offset + cost`` when minimising (``cost``: total weight of the
            falsified soft clauses).
        sense: the objective's sense, or None without an objective.
        top: the highest DIMACS variable in use.
        lazy: connectivity nodes left to the cut loop.
        families: ``(first, last, family)`` ranges naming auxiliary variables.
    """

    hard: list[list[int]] = field(default_factory=list)
    soft: list[tuple[int, list[int]]] = field(default_factory=list)
    offset: int = 0
    sense: Sense | None = None
    top: int = 0
    lazy: list[Connected] = field(default_factory=list)
    families: list[tuple[int, int, str]] = field(default_factory=list)


_CARD_ENCODINGS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "ktotalizer", "mtotalizer", "kmtotalizer")


def lower(model: Model, strategy: str, card_encoding: str = "totalizer", seed: bool = True,
          seed_pairs: bool = True) -> Lowered:
    """Lower ``model`` to hard and soft clauses.

    Args:
        model: the IR model.
        strategy: ``"cuts"`` (connectivity left in :attr:`Lowered.lazy` for
            the cut loop) or ``"tree"`` (complete encoding, no loop).
        card_encoding: a :class:`pysat.card.EncType` name for unit-coefficient
            constraints (or ``ktotalizer``).
        seed: with ``cuts``, start from the one-cell separator cuts of
            :func:`gridlang.connectivity.seed_cuts`; ``seed_pairs`` adds its two-cell separators.

    Returns:
        The clauses, soft clauses and objective offset.

    Raises:
        BackendError: unknown strategy or encoding, or a constraint type this
            backend cannot lower.
    """
    from pysat.formula import IDPool

    if card_encoding not in _CARD_ENCODINGS:
        raise BackendError(
            f"unknown cardinality encoding {card_encoding!r}; choose one of {', '.join(_CARD_ENCODINGS)}"
        )
    pool = IDPool(start_from=model.num_vars + 1)
    out = Lowered()
    for con in model.constraints:
        if isinstance(con, Clause):
            out.hard.append(list(con.lits))
        elif isinstance(con, Linear):
            first = pool.top + 1
            out.hard.extend(_linear_clauses(con, pool, card_encoding))
            if pool.top >= first:
                out.families.append((first, pool.top, "aux.card"))
        elif isinstance(con, Connected):
            # Roots are members (the compiler says so too; repeating it is free).
            lit_of = dict(con.members)
            for r in con.roots:
                out.hard.append([lit_of[r]] if r in lit_of else [])
            if strategy == "cuts":
                out.lazy.append(con)
                if seed:
                    out.hard.extend(cut_clause(c) for c in seed_cuts(model.grid, con, seed_pairs))
            elif strategy == "tree":
                first = pool.top + 1
                out.hard.extend(_tree_clauses(model, con, pool))
                if pool.top >= first:
                    out.families.append((first, pool.top, "aux.tree"))
            else:
                raise BackendError(f"backend 'maxsat' has no connectivity strategy {strategy!r}")
        else:
            raise BackendError(f"backend 'maxsat' cannot lower constraint {type(con).__name__}")
    if model.objective is not None:
        _lower_objective(model, out)
    out.top = max(pool.top, model.num_vars)
    return out


def _lower_objective(model: Model, out: Lowered) -> None:
    obj = model.objective
    assert obj is not None
    coef: dict[int, int] = {}
    constant = obj.constant
    for c, lit in obj.terms:
        # c * (-v) = c - c * v: keep one coefficient per variable.
        if lit > 0:
            coef[lit] = coef.get(lit, 0) + c
        else:
            coef[-lit] = coef.get(-lit, 0) - c
            constant += c
    fixed = _fixed_literals(out.hard)
    maximise = obj.sense is Sense.MAXIMIZE
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
    out.sense = obj.sense


def _fixed_literals(hard: list[list[int]]) -> set[int]:
    """Literals implied by unit propagation over the binary and unit clauses."""
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


def _normalise(terms, op: Cmp, rhs: int) -> tuple[list[int], list[int], Cmp, int]:
    """One positive coefficient per literal; the constant moved to ``rhs``."""
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
    return lits, weights, op, rhs


def _linear_clauses(con: Linear, pool, card_encoding: str) -> list[list[int]]:
    guard = [-l for l in con.enforce]
    lits, weights, op, rhs = _normalise(con.terms, con.op, con.rhs)
    parts = [Cmp.LE, Cmp.GE] if op is Cmp.EQ else [op]
    clauses: list[list[int]] = []
    for part in parts:
        clauses.extend(_bound_clauses(lits, weights, part, rhs, pool, card_encoding))
    return [cl + guard for cl in clauses]


def _bound_clauses(lits, weights, op: Cmp, rhs: int, pool, card_encoding: str) -> list[list[int]]:
    """Clauses for ``sum w_i l_i <= rhs`` or ``>= rhs`` with ``w_i > 0``."""
    from pysat.card import CardEnc, EncType
    from pysat.pb import PBEnc

    total = sum(weights)
    if op is Cmp.GE:
        # sum w l >= rhs  <=>  sum w (-l) <= total - rhs
        lits = [-l for l in lits]
        rhs = total - rhs
    # Now sum w l <= rhs.
    if rhs < 0:
        return [[]]
    if rhs >= total:
        return []
    big = [l for l, w in zip(lits, weights) if w > rhs]
    clauses = [[-l] for l in big]
    keep = [(l, w) for l, w in zip(lits, weights) if w <= rhs]
    if not keep:
        return clauses
    lits = [l for l, _ in keep]
    weights = [w for _, w in keep]
    if sum(weights) <= rhs:
        return clauses
    if len(set(weights)) == 1:
        k = rhs // weights[0]
        if k == 0:
            return clauses + [[-l] for l in lits]
        if k == len(lits) - 1:
            # "not all": one clause (this is also how ``>= 1`` arrives).
            return clauses + [[-l for l in lits]]
        if k == 1 and len(lits) <= 6:
            return clauses + [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
        if 2 * k > len(lits):
            # Mostly true: count the false ones instead, ``sum(-l) >= n - k``
            # (a ``>= k`` for small k arrives here), with a sequential counter.
            enc = CardEnc.atleast([-l for l in lits], bound=len(lits) - k, vpool=pool,
                                  encoding=EncType.seqcounter)
            return clauses + [list(cl) for cl in enc.clauses]
        if k == 1:
            card_encoding = "seqcounter"
        if card_encoding == "ktotalizer":
            return clauses + _ktotalizer(lits, k, pool)
        enc = CardEnc.atmost(lits, bound=k, vpool=pool, encoding=getattr(EncType, card_encoding))
        return clauses + [list(cl) for cl in enc.clauses]
    enc = PBEnc.leq(lits, weights=weights, bound=rhs, vpool=pool)
    return clauses + [list(cl) for cl in enc.clauses]


def _ktotalizer(lits: list[int], k: int, pool) -> list[list[int]]:
    """``sum lits <= k`` by the totalizer cut at ``k + 1`` outputs (PySAT ITotalizer).

    Totalizer of O. Bailleux and Y. Boufkhad, CP 2003, with the k-simplification
    of PySAT's ``ITotalizer`` (Martins et al., CP 2014): ``O(n k)`` clauses
    instead of ``O(n^2)`` for the full tree; output ``k + 1`` is set false.
    """
    from pysat.card import ITotalizer

    tot = ITotalizer(lits, ubound=k, top_id=pool.top)
    try:
        clauses = [list(cl) for cl in tot.cnf.clauses] + [[-tot.rhs[k]]]
        pool.top = max(pool.top, tot.top_id)
    finally:
        tot.delete()
    return clauses


def _tree_clauses(model: Model, con: Connected, pool) -> list[list[int]]:
    """The spanning-tree encoding of one Connected node (see the module docstring)."""
    grid = model.grid
    lit_of = dict(con.members)
    cells = sorted(lit_of)
    if not cells:
        return []
    cand = set(cells)
    clauses: list[list[int]] = []
    roots = set(con.roots)
    if not roots <= cand:
        return [[]]
    n = len(cells)
    # BFS depth is below the number of members: below n, and below the size when fixed.
    depth = min(n, con.size) if con.size is not None else n
    nbits = max(1, (max(depth, 1) - 1).bit_length())
    bit = {v: [pool.id() for _ in range(nbits)] for v in cells if v not in roots}
    rvar: dict[int, int] = {}
    if not roots:
        # Root selection: the smallest member is the root.
        rvar = {v: pool.id() for v in cells}
        some = pool.id()  # "some member with a smaller index" chain
        prefix = {}
        for v in cells:
            prefix[v] = pool.id()
        for i, v in enumerate(cells):
            clauses.append([-rvar[v], lit_of[v]])
            clauses.append([-rvar[v], -prefix[v]])
            if i + 1 < n:
                nxt = prefix[cells[i + 1]]
                clauses.append([-lit_of[v], nxt])
                clauses.append([-prefix[v], nxt])
            clauses.append([-lit_of[v], some])
        clauses.append([-some] + [rvar[v] for v in cells])
    eq: dict[tuple[int, int], list[int]] = {}

    def equal_chain(a: int, b: int) -> list[int]:
        key = (min(a, b), max(a, b))
        if key not in eq:
            lo, hi = key
            e = [0] * nbits
            e[nbits - 1] = 0  # bits above the top bit: trivially equal
            for i in range(nbits - 2, -1, -1):
                e[i] = pool.id()
                clauses.append([-e[i], -bit[lo][i + 1], bit[hi][i + 1]])
                clauses.append([-e[i], bit[lo][i + 1], -bit[hi][i + 1]])
                if e[i + 1]:
                    clauses.append([-e[i], e[i + 1]])
            eq[key] = e
        return eq[key]

    for v in cells:
        if v in roots:
            continue
        parents = []
        for u in grid.neighbours[v]:
            if u not in cand or u == v:
                continue
            p = pool.id()
            parents.append(p)
            clauses.append([-p, lit_of[u]])
            clauses.append([-p, lit_of[v]])
            if u in roots:
                continue  # chains stop at a root: no rank needed
            e = equal_chain(u, v)
            ds = []
            for i in range(nbits):
                d = pool.id()
                ds.append(d)
                clauses.append([-d, -bit[u][i]])
                clauses.append([-d, bit[v][i]])
                if e[i]:
                    clauses.append([-d, e[i]])
            clauses.append([-p] + ds)
        head = [-lit_of[v]] + ([rvar[v]] if rvar else [])
        clauses.append(head + parents)
    return clauses


# --------------------------------------------------------------------------
# the backend


class MaxSatBackend(Backend):
    """Weighted partial MaxSAT through PySAT: linear SAT-UNSAT search or RC2 for optimisation, SAT otherwise."""

    name = "maxsat"
    library = "pysat"
    description = ("weighted partial MaxSAT (PySAT: CaDiCaL linear search or RC2), "
                   "lazy separator cuts or a spanning-tree encoding")
    connectivity = ("cuts", "tree")
    formats = ("wcnf", "cnf")
    imports = ("pysat.solvers", "pysat.card", "pysat.pb", "pysat.examples.rc2")

    def _settings(self, options: SolveOptions) -> dict[str, object]:
        """:data:`DEFAULTS` overridden by ``options.extra`` (``maxsat.NAME``, or
        ``NAME`` from Python), checked.

        Raises:
            BackendError: an unknown ``maxsat.`` setting, a value of the wrong
                type, an unknown algorithm or SAT solver name, or a slice or
                weight limit below 1.
        """
        settings = self.settings(options, DEFAULTS, bare=True)
        if settings["algorithm"] not in ("auto", "lsu", "rc2"):
            raise BackendError(f"unknown MaxSAT algorithm {settings['algorithm']!r}; choose auto, lsu or rc2")
        from pysat.solvers import SolverNames

        known = sorted({n for family in vars(SolverNames).values() if isinstance(family, tuple) for n in family})
        for key in ("lsu.solver", "rc2.solver", "sat.solver"):
            if settings[key] not in known:
                raise BackendError(f"setting {key!r}: PySAT has no SAT solver {settings[key]!r}; "
                                   f"it has {', '.join(known)}")
        for key in ("conflicts", "lsu.max_units"):
            if int(settings[key]) < 1:
                raise BackendError(f"setting {key!r} must be at least 1, not {settings[key]!r}")
        return settings

    def solve(self, model: Model, options: SolveOptions) -> Result:
        """Solve ``model``: linear SAT-UNSAT search or RC2 (objective), a SAT solver (none).

        Args:
            model: the IR model.
            options: time limit in seconds over all cut rounds, strategy,
                and ``extra`` keys from :data:`DEFAULTS`.

        Returns:
            The result; ``stats`` holds ``algorithm`` (``lsu``, ``rc2`` or
            ``sat``), ``cut_rounds`` (solver calls), ``cuts``, ``hard``,
            ``soft``, ``variables``, ``strategy`` and the solver settings.

        Raises:
            BackendError: PySAT is missing, or a construct cannot be lowered.
        """
        start = time.perf_counter()
        strategy = self.strategy(options)
        settings = self._settings(options)
        try:
            import pysat  # noqa: F401
        except ModuleNotFoundError as e:
            raise BackendError("backend 'maxsat' needs python-sat: pip install 'python-sat[pb]'") from e
        low = lower(model, strategy, str(settings["card.encoding"]), bool(settings["cuts.seed"]),
                    bool(settings["cuts.seed_pairs"]))
        if model.objective is None:
            oracle, algorithm = _Sat(model, low, settings), "sat"
        elif (settings["algorithm"] == "lsu" or settings["algorithm"] == "auto" and _region_objective(model, low)) \
                and sum(w for w, _ in low.soft) <= int(settings["lsu.max_units"]):
            oracle, algorithm = _Lsu(model, low, settings), "lsu"
        else:
            oracle, algorithm = _Rc2(model, low, settings), "rc2"
        build_seconds = time.perf_counter() - start
        separators = [separator_cuts] + ([root_side_cuts] if settings["cuts.root_side"] else [])
        out = lazy_solve(model, oracle, low.lazy, options.clock(), separators)
        if not out.stats["abandoned"]:
            oracle.close()
        status = {"optimal": Status.OPTIMAL, "feasible": Status.FEASIBLE,
                  "infeasible": Status.INFEASIBLE}.get(out.status, Status.UNKNOWN)
        result = Result(status, out.assignment, out.objective, out.bound, build_seconds=build_seconds)
        result.stats.update(out.stats)
        result.stats.update(
            algorithm=algorithm,
            connectivity=strategy,
            hard=len(low.hard) + oracle.hard_added,
            soft=len(low.soft),
            variables=low.top,
            settings={k: settings[k] for k in sorted(settings)},
        )
        result.seconds = time.perf_counter() - start
        return result

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write the complete model (tree connectivity) as WCNF or CNF.

        WCNF follows the 2022 MaxSAT Evaluation format (``h`` hard lines,
        ``weight lits 0`` soft lines, PySAT's ``mse22`` writer); comment lines
        give the puzzle, provenance, encoding and the objective's offset and
        sense. A sidecar ``<path>.vars.json`` maps every DIMACS variable to
        ``{"var", "family", "cell": [row, col] or null, "value"}``. Output is
        byte-for-byte reproducible.

        Returns:
            ``[path, path + ".vars.json"]``.

        Raises:
            BackendError: unknown format, CNF asked for a model with an
                objective (use wcnf), or a connectivity other than ``tree``.
        """
        if fmt not in self.formats:
            raise BackendError(f"backend 'maxsat' writes {', '.join(self.formats)}, not {fmt!r}")
        if fmt == "cnf" and model.objective is not None:
            raise BackendError("the model has an objective: a CNF file cannot hold it; use --format wcnf")
        if options.connectivity not in (None, "tree"):
            self.strategy(options)  # an unknown name is refused as in solve
            raise BackendError("a file cannot hold lazy cuts; files use --connectivity tree (the default)")
        settings = self._settings(options)
        low = lower(model, "tree", str(settings["card.encoding"]))
        comments = _header(model, low, fmt, str(settings["card.encoding"]))
        from pysat.formula import CNF, WCNF

        with open(path, "w", encoding="utf-8", newline="\n") as fp:
            if fmt == "wcnf":
                wcnf = WCNF()
                for cl in low.hard:
                    wcnf.append(cl)
                for w, cl in low.soft:
                    wcnf.append(cl, weight=w)
                wcnf.to_fp(fp, comments=comments, format="mse22")
            else:
                cnf = CNF(from_clauses=low.hard)
                cnf.nv = max(cnf.nv, low.top)  # the header counts every variable, used or not
                cnf.to_fp(fp, comments=comments)
        side = path + ".vars.json"
        with open(side, "w", encoding="utf-8", newline="\n") as fp:
            json.dump(_variable_map(model, low), fp, indent=1)
            fp.write("\n")
        return [path, side]

    def read_solution(self, model: Model, path: str) -> Assignment:
        """Read an external MaxSAT or SAT solver's answer to a file this backend wrote.

        The ``v`` lines, in either form, go through
        :func:`gridlang.readers.read_dimacs_solution`; the file's
        variables ``1 .. model.num_vars`` are the model's own, and the
        auxiliary ones after them are ignored.

        Returns:
            The assignment of the model's variables.

        Raises:
            MapError: the answer is malformed, lacks a model variable or
                reports no solution, with the file, line and column.
        """
        return Assignment(read_dimacs_solution(str(path), [str(v) for v in model.variables]))


def _header(model: Model, low: Lowered, fmt: str, card_encoding: str) -> list[str]:
    def clean(s: object) -> str:
        return " ".join(str(s).split())

    lines = [f"c gridlang {fmt} export: {clean(model.name)}"]
    for key in sorted(model.info):
        lines.append(f"c {clean(key)}: {clean(model.info[key])}")
    for key in sorted(model.params):
        lines.append(f"c param {clean(key)} = {clean(model.params[key])}")
    lines.append(f"c grid: {model.grid.rows} rows x {model.grid.cols} columns")
    lines.append(f"c encoding: connectivity tree (binary level ranking), cardinality {card_encoding}, "
                 "pseudo-Boolean pindakaas")
    lines.append(f"c variables: {low.top} ({model.num_vars} model, {low.top - model.num_vars} auxiliary), "
                 f"hard clauses: {len(low.hard)}, soft clauses: {len(low.soft)}")
    if low.sense is Sense.MAXIMIZE:
        lines.append(f"c objective: maximize, offset {low.offset}: score = {low.offset} - cost")
    elif low.sense is Sense.MINIMIZE:
        lines.append(f"c objective: minimize, offset {low.offset}: score = {low.offset} + cost")
    else:
        lines.append("c objective: none")
    lines.append("c variable map: <file>.vars.json")
    return lines


def _variable_map(model: Model, low: Lowered) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for v, var in enumerate(model.variables, 1):
        cell = None
        if var.rowcol is not None:
            cell = [var.rowcol[0], var.rowcol[1]]
        elif var.cell is not None:
            cell = list(model.grid.cell(var.cell))
        out[str(v)] = {"var": str(var), "family": var.family, "cell": cell, "value": var.value}
    for first, last, family in low.families:
        for v in range(first, last + 1):
            out[str(v)] = {"var": f"{family}#{v}", "family": family, "cell": None, "value": None}
    for v in range(model.num_vars + 1, low.top + 1):
        out.setdefault(str(v), {"var": f"aux#{v}", "family": "aux", "cell": None, "value": None})
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def _region_objective(model: Model, low: Lowered) -> bool:
    """Whether every soft clause is on a member literal of a Connected region (``auto`` then picks ``lsu``)."""
    members = {abs(l) for con in model.constraints if isinstance(con, Connected) for _, l in con.members}
    return bool(members) and all(abs(cl[0]) in members for _, cl in low.soft)


def _interruptible(name: str) -> bool:
    """Whether PySAT can interrupt this SAT solver (CaDiCaL and Lingeling cannot)."""
    from pysat.solvers import SolverNames

    for family in ("cadical103", "cadical153", "cadical195", "cadical300", "lingeling"):
        if name in getattr(SolverNames, family, ()):
            return False
    return True


SLICE_SECONDS = 1.0
"""With a deadline, a CaDiCaL slice is sized to last about this long (or the
time left), from the conflict rate of the slice before."""


def _sat_call(solver, name: str, assumptions: list[int], deadline: Deadline, conflicts: int) -> bool | None:
    """One SAT call under ``deadline``: True, False, or None when the time ran out or Ctrl-C stopped it.

    An interruptible solver runs through :func:`gridlang.deadline.run_solver`
    (stopped by ``interrupt``). CaDiCaL cannot be interrupted: it runs in
    slices of a conflict budget (learnt clauses carry over between them),
    the clock and the Ctrl-C flag read between slices; with a deadline a
    slice lasts about :data:`SLICE_SECONDS` or the time left, without one
    ``conflicts`` conflicts.
    """
    if deadline.expired():
        return None
    if _interruptible(name):
        def call():
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)

        ok = run_solver(deadline, call, solver.interrupt)
        if ok is None:
            solver.clear_interrupt()
        return ok
    budget = conflicts
    while not deadline.expired():
        remaining = deadline.remaining()
        before = solver.accum_stats().get("conflicts", 0)
        t = time.perf_counter()
        solver.conf_budget(max(int(budget), 100))
        try:
            ok = solver.solve_limited(assumptions=assumptions)
        except Exception as e:  # PySAT's own SIGINT handling (pysolvers.error)
            if "interrupt" not in str(e).lower():
                raise
            deadline.stop()
            return None
        if ok is not None:
            return ok
        if remaining is not None:
            spent = max(time.perf_counter() - t, 1e-3)
            rate = max(solver.accum_stats().get("conflicts", 0) - before, 1) / spent
            left = deadline.remaining() or 0.0
            budget = min(conflicts, rate * min(SLICE_SECONDS, left))
    return None


class _Oracle:
    """What the three MaxSAT oracles share: the lowered model and the answer's decoding."""

    improving = False

    def __init__(self, model: Model, low: Lowered, settings: dict):
        self.model = model
        self.low = low
        self.settings = settings
        self.hard_added = 0

    def assignment(self, lits) -> Assignment:
        n = self.model.num_vars
        values = [False] * n
        for l in lits:
            if 0 < abs(l) <= n:
                values[abs(l) - 1] = l > 0
        return Assignment(tuple(values))

    def score(self, cost: int) -> int:
        return self.low.offset - cost if self.low.sense is Sense.MAXIMIZE else self.low.offset + cost

    def cost(self, value: int) -> int:
        return self.low.offset - value if self.low.sense is Sense.MAXIMIZE else value - self.low.offset

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        """SAT solvers keep their phases between calls; nothing to hint."""

    def close(self) -> None:
        """Free the solver."""


class _Rc2(_Oracle):
    """RC2 (A. Ignatiev, A. Morgado, J. Marques-Silva, JSAT 2019): each call
    returns the relaxation's optimum; cuts are added to the same RC2 object,
    whose cores stay valid when hard clauses are added."""

    def __init__(self, model: Model, low: Lowered, settings: dict):
        from pysat.examples.rc2 import RC2, RC2Stratified
        from pysat.formula import WCNF

        super().__init__(model, low, settings)
        s = settings
        wcnf = WCNF()
        for cl in low.hard:
            wcnf.append(cl)
        for w, cl in low.soft:
            wcnf.append(cl, weight=w)
        wcnf.nv = max(wcnf.nv, low.top)
        kwargs = dict(solver=s["rc2.solver"], exhaust=bool(s["rc2.exhaust"]), minz=bool(s["rc2.minz"]),
                      adapt=bool(s["rc2.adapt"]))
        # Hardening is sound only for a fixed formula; cuts come later.
        self.rc2 = RC2Stratified(wcnf, blo="div", nohard=True, **kwargs) if s["rc2.stratified"] else RC2(wcnf, **kwargs)
        self.interruptible = _interruptible(str(s["rc2.solver"]))

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        rc2 = self.rc2
        if self.interruptible:
            lits = run_solver(deadline, lambda: rc2.compute(expect_interrupt=True), rc2.interrupt)
        else:
            lits = rc2.compute()  # the deadline is read between calls only
        if lits is None:
            return Round("unknown" if rc2.interrupted or deadline.expired() else "infeasible")
        answer = self.assignment(lits)
        if self.score(rc2.cost) != self.model.objective.value(answer):
            raise BackendError(f"RC2 reports the objective {self.score(rc2.cost)}, but its answer scores "
                               f"{self.model.objective.value(answer)} in the model")
        return Round("optimal", answer, bound=self.score(rc2.cost))

    def add(self, cuts: list[Linear]) -> None:
        for cut in cuts:
            self.rc2.add_clause(cut_clause(cut))
        self.hard_added += len(cuts)

    def close(self) -> None:
        self.rc2.delete()


class _Lsu(_Oracle):
    """Linear SAT-UNSAT search on the cost (QMaxSAT, M. Koshimura et al., JSAT
    2012; LSU in A. Morgado et al., Constraints 2013): one incremental SAT
    solver holds the hard clauses and the cuts; an incremental totalizer
    (O. Bailleux, Y. Boufkhad, CP 2003; PySAT ``ITotalizer``, R. Martins et
    al., CP 2014) counts the falsified soft literals, each repeated by its
    weight, built once over the first incumbent's cost. Each call asks for
    an answer cheaper than the incumbent; UNSAT then proves the incumbent
    optimal, since the cuts remove no solution."""

    improving = True

    def __init__(self, model: Model, low: Lowered, settings: dict):
        from pysat.solvers import Solver

        super().__init__(model, low, settings)
        self.name = str(settings["lsu.solver"])
        self.solver = Solver(name=self.name, bootstrap_with=low.hard)
        self.counted = [-cl[0] for w, cl in low.soft for _ in range(w)]
        self.tot = None

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        from pysat.card import ITotalizer

        assumptions: list[int] = []
        if incumbent is not None:
            best = self.cost(incumbent)
            if best <= 0:
                return Round("infeasible")  # nothing is cheaper than cost 0
            if self.tot is None:
                self.tot = ITotalizer(self.counted, ubound=best,
                                      top_id=max(self.low.top, self.solver.nof_vars()))
                self.solver.append_formula(self.tot.cnf.clauses)
            if best - 1 < len(self.counted):
                assumptions = [-self.tot.rhs[best - 1]]
        ok = _sat_call(self.solver, self.name, assumptions, deadline, int(self.settings["conflicts"]))
        trivial = self.score(0)  # no answer beats cost 0
        if ok is None:
            return Round("unknown", bound=trivial)
        if not ok:
            return Round("infeasible")
        return Round("feasible", self.assignment(self.solver.get_model()), bound=trivial)

    def add(self, cuts: list[Linear]) -> None:
        for cut in cuts:
            self.solver.add_clause(cut_clause(cut))
        self.hard_added += len(cuts)

    def close(self) -> None:
        if self.tot is not None:
            self.tot.delete()
        self.solver.delete()


class _Sat(_Lsu):
    """A plain incremental SAT solver, for models without an objective."""

    improving = False

    def __init__(self, model: Model, low: Lowered, settings: dict):
        from pysat.solvers import Solver

        _Oracle.__init__(self, model, low, settings)
        self.name = str(settings["sat.solver"])
        self.solver = Solver(name=self.name, bootstrap_with=low.hard)
        self.tot = None

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        ok = _sat_call(self.solver, self.name, [], deadline, int(self.settings["conflicts"]))
        if ok is None:
            return Round("unknown")
        if not ok:
            return Round("infeasible")
        return Round("optimal", self.assignment(self.solver.get_model() or []))
