"""The rules of the asp backend's encoding: the rule texts of connectivity and of
blocks of equal labels, and the clauses, rows and objective as rules, written as
text or handed to clingo as ground rules (the lowering: :mod:`gridlang.exporters.asp.program`).
"""

from __future__ import annotations

from typing import Iterable

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.core.memory import kept_for_last
from gridlang.ir.model import (
    Clause,
    Cmp,
    Connected,
    Constraint,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
    Objective,
    Sense,
)

REACH_RULES = """\
#defined root/2. #defined free/1. #defined next/3. #defined step/3.
in(K,V) :- member(K,V,L), L > 0, x(L).
in(K,V) :- member(K,V,L), L < 0, not x(-L).
:- root(K,V), not in(K,V).
reach(K,V) :- root(K,V).
reach(K,V) :- reach(K,U), step(K,U,V), in(K,V).
before(K,W) :- next(K,V,W), in(K,V).
before(K,W) :- next(K,V,W), before(K,V).
reach(K,V) :- free(K), in(K,V), not before(K,V).
:- in(K,V), not reach(K,V)."""

FILL_RULES = """\
#defined fopen_if/3. #defined fshut_if/3. #defined fstep/3.
fshut(K,V) :- fopen_if(K,V,G), not x(G).
fshut(K,V) :- fshut_if(K,V,G), x(G).
fill(K,V) :- froot(K,V).
fill(K,V) :- fill(K,U), fstep(K,U,V), not fshut(K,V).
x(L) :- fill(K,V), fmember(K,V,L)."""
"""A flood fill's members, defined as what its roots reach through open candidates.

``fstep(K,U,V)`` are the fill's own arcs (both ends members), and a gate is
split by its sign, so grounding joins no other relation and does no
arithmetic: on the February and March 2026 dailies this took gringo's
grounding from 14 to 7.7 ms (median), with the same ground program."""

GRAPH_RULES = """\
#defined groot/2. #defined gfree/1. #defined gnext/3. #defined gedge/4.
gin(K,V) :- gmember(K,V,L), L > 0, x(L).
gin(K,V) :- gmember(K,V,L), L < 0, not x(-L).
:- groot(K,V), not gin(K,V).
gon(K,U,V) :- gedge(K,U,V,L), L > 0, x(L).
gon(K,U,V) :- gedge(K,U,V,L), L < 0, not x(-L).
gon(K,V,U) :- gon(K,U,V).
greach(K,V) :- groot(K,V).
greach(K,V) :- greach(K,U), gon(K,U,V), gin(K,V).
gbefore(K,W) :- gnext(K,V,W), gin(K,V).
gbefore(K,W) :- gnext(K,V,W), gbefore(K,V).
greach(K,V) :- gfree(K), gin(K,V), not gbefore(K,V).
:- gin(K,V), not greach(K,V)."""
"""Connectivity through chosen edges (:class:`~gridlang.ir.model.GraphConnected`):
the same reachability as :data:`REACH_RULES`, over the node's own graph,
an edge counting when its literal holds."""


BLOCK_RULES = """\
blab(K,Q,V) :- blit(K,Q,V,L), L > 0, x(L).
blab(K,Q,V) :- blit(K,Q,V,L), L < 0, not x(-L).
bsame(K,U,W) :- bedge(K,U,W), blab(K,U,V), blab(K,W,V).
bin(K,Q,Q) :- bcell(K,Q).
bin(K,Q,W) :- bin(K,Q,U), bsame(K,U,W), bnear(K,Q,W).
:- bcell(K,Q), #sum{ 1,c,W : bin(K,Q,W); -N,l,V : blab(K,Q,V), bmin(K,Q,V,N) } < 0.
:- bcell(K,Q), #sum{ 1,c,W : bin(K,Q,W); -N,l,V : blab(K,Q,V), bmax(K,Q,V,N) } > 0."""
"""Blocks of equal labels (:class:`~gridlang.ir.model.EqualBlocks`): ``bin(K,Q,W)``,
W is in Q's block, is what Q reaches through equal neighbours within its
``bnear`` ball (the cells at most its reach away: see :func:`gridlang.exporters.asp.program._block_facts`),
and one count per cell and bound side compares it with the bound of the
label Q takes."""


def _lit(lit: int) -> str:
    return f"x({lit})" if lit > 0 else f"not x({-lit})"


def _rule(body: list[str]) -> str:
    return ":- " + (", ".join(body) if body else "#true") + "."


def clause_rule(lits: Iterable[int]) -> str:
    """The integrity constraint of a clause: ``:- not l1, ..., not ln.``"""
    return _rule([_lit(-l) for l in lits])


def normalise(terms: Iterable[tuple[int, int]], rhs: int) -> tuple[list[tuple[int, int]], int]:
    """``sum c * lit`` against ``rhs`` as ``sum w * lit`` with ``w > 0``, one literal per variable.

    Args:
        terms: ``(coef, lit)`` pairs; ``a * -v`` stands for ``a * (1 - x_v)``.
        rhs: the right-hand side.

    Returns:
        ``(weight, lit)`` pairs, ascending by variable, and the right-hand
        side with every constant moved to it.
    """
    coef: dict[int, int] = {}
    for c, lit in terms:
        v = abs(lit)
        if lit > 0:
            coef[v] = coef.get(v, 0) + c
        else:
            coef[v] = coef.get(v, 0) - c
            rhs -= c
    out = []
    for v in sorted(coef):
        c = coef[v]
        if c > 0:
            out.append((c, v))
        elif c < 0:
            out.append((-c, -v))  # c * x = c + |c| * (1 - x)
            rhs -= c
    return out, rhs


Aggregate = tuple[list[tuple[int, int]], str, int]
"""``(terms, op, bound)``: ``sum of w * lit over terms OP bound``, OP ``>`` or ``<``, weights positive."""


def linear_parts(con: Linear) -> list[tuple[list[int], Aggregate | None]]:
    """The integrity constraints of a :class:`Linear` row (see the docstring of
    :mod:`gridlang.exporters.asp.program`), each as the IR literals of its body (the
    enforcement literals first) and an aggregate or None.

    One form for both ways a program is made: :func:`linear_rules` writes
    it as text, :func:`add_direct` hands it to clingo's backend.
    """
    guard = list(con.enforce)
    terms, rhs = normalise(con.terms, con.rhs)
    total = sum(w for w, _ in terms)
    unit = all(w == 1 for w, _ in terms)
    parts = [Cmp.LE, Cmp.GE] if con.op is Cmp.EQ else [con.op]
    out: list[tuple[list[int], Aggregate | None]] = []
    for op in parts:
        if op is Cmp.LE:
            if rhs >= total:
                continue
            if rhs < 0:
                out.append((guard, None))
            elif unit and rhs == len(terms) - 1:
                out.append((guard + [l for _, l in terms], None))
            else:
                out.append((guard, (terms, ">", rhs)))
        else:
            if rhs <= 0:
                continue
            if rhs > total:
                out.append((guard, None))
            elif unit and rhs == 1:
                out.append((guard + [-l for _, l in terms], None))
            else:
                out.append((guard, (terms, "<", rhs)))
    return out


def linear_rules(con: Linear) -> list[str]:
    """The integrity constraints of a :class:`Linear` row as text (see the docstring of
    :mod:`gridlang.exporters.asp.program`)."""
    return [_rule([_lit(l) for l in body] + ([_aggregate(agg[0]) + f" {agg[1]} {agg[2]}"] if agg else []))
            for body, agg in linear_parts(con)]


def _aggregate(terms: list[tuple[int, int]]) -> str:
    if all(w == 1 for w, _ in terms):
        return "#count{ " + "; ".join(f"{abs(l)} : {_lit(l)}" for _, l in terms) + " }"
    return "#sum{ " + "; ".join(f"{w},{abs(l)} : {_lit(l)}" for w, l in terms) + " }"


def constraint_rules(con: Constraint) -> list[str]:
    """A clause or a linear row (the constraints a session adds) as rules.

    Raises:
        BackendError: any other constraint.
    """
    if isinstance(con, Clause):
        return [clause_rule(con.lits)]
    if isinstance(con, Linear):
        return linear_rules(con)
    raise BackendError(f"backend 'asp' cannot add a {type(con).__name__} to a running session")


def add_direct(backend, atoms, constraints: Iterable[Constraint], deadline: Deadline | None = None) -> int:
    """Hand clauses and linear rows to clingo as ground rules, with no text to parse or ground.

    The rules are those :func:`clause_rule` and :func:`linear_rules` write
    (an aggregate becomes a weight rule defining a fresh atom, which the
    integrity constraint then holds or denies), so the ground program is
    the one gringo would make of the text; time and memory are linear in
    the literals. On a 200x200 map's 190,000 clauses: 4 s and 40 MB, where
    parsing and grounding their text took 19 s and 1.2 GB.

    Args:
        backend: an open ``clingo.Backend``.
        atoms: IR variable ``v`` -> its program atom (``atoms[v]``), from
            :func:`program_atoms`.
        constraints: clauses and linear rows.
        deadline: read every 4,096 constraints (None: no limit).

    Returns:
        The number of rules added.

    Raises:
        BackendError: a constraint other than a clause or a row.
        BuildTimeout: ``deadline`` passed.
    """
    # The program literal of IR literal l is table[l], and that of its negation neg[l], for l in -n..n, by
    # Python's negative indexing: table = [0, atoms[1], ..., atoms[n], -atoms[n], ..., -atoms[1]] and neg
    # its negation. A clause's body is its literals negated: one C-level map over neg, no Python frame a literal.
    table = list(atoms) + [-a for a in reversed(atoms[1:])]
    negated = [-a for a in table].__getitem__
    rule, weight_rule, new_atom = backend.add_rule, backend.add_weight_rule, backend.add_atom
    head: tuple[int, ...] = ()
    constraints = constraints if isinstance(constraints, (list, tuple)) else list(constraints)
    rules = 0
    for start in range(0, len(constraints), 0x1000):
        if deadline is not None:
            deadline.check()
        for con in constraints[start:start + 0x1000]:
            if type(con) is Clause:  # the commonest: one integrity constraint, its body the clause negated
                rule(head, list(map(negated, con.lits)))
                rules += 1
                continue
            if isinstance(con, Clause):
                parts: list[tuple[list[int], Aggregate | None]] = [([-l for l in con.lits], None)]
            elif isinstance(con, Linear):
                parts = linear_parts(con)
            else:
                raise BackendError(f"backend 'asp' cannot add a {type(con).__name__} to a running session")
            for body, agg in parts:
                ground = [table[l] for l in body]
                if agg is not None:
                    terms, op, bound = agg
                    holds = new_atom()
                    weight_rule([holds], bound + 1 if op == ">" else bound, [(table[l], w) for w, l in terms])
                    ground.append(holds if op == ">" else -holds)
                rule(head, ground)
                rules += 1
    return rules


def add_fills(backend, atoms, fills: Iterable[Connected], neighbours) -> int:
    """Hand flood fills to clingo as the ground rules gringo makes of :data:`FILL_RULES` and their
    facts, with no text to parse or ground (some 3 ms of a daily's 4 at rest).

    A member's atom ``x(L)`` is its cell's ``fill`` atom (gringo's program defines ``x(L)`` by
    ``fill`` alone, which clasp's preprocessing merges): a root's is a fact, and an arc ``u -> v``
    between two members is ``x(v) :- x(u), not shut(v)``, ``shut(v)`` a fresh atom where ``v``
    has gates (``shut(v) :- not x(g)`` for a gate ``g``, ``shut(v) :- x(g)`` for ``-g``).
    Arcs are :func:`region_arcs`, as the text's ``fstep`` facts.

    Args:
        backend: an open ``clingo.Backend``.
        atoms: IR variable ``v`` -> its program atom (:func:`program_atoms`).
        fills: the defined flood fills (:class:`Connected` with ``through``; every member a
            positive literal).
        neighbours: the grid's arcs, cell -> cells (``Grid.neighbours``).

    Returns:
        The number of rules added.
    """
    rule, new_atom = backend.add_rule, backend.add_atom
    rules = 0
    for con in fills:
        member = {cell: atoms[lit] for cell, lit in con.members}
        shut: dict[int, int] = {}
        for cell, gate in con.through:
            if cell in member:
                if cell not in shut:
                    shut[cell] = new_atom()
                rule([shut[cell]], [-atoms[gate]] if gate > 0 else [atoms[-gate]])
                rules += 1
        for root in con.roots:
            if root in member:  # a root outside the members has no arc: it reaches nothing
                rule([member[root]], [])
                rules += 1
        for u, v in region_arcs(con, neighbours):
            rule([member[v]], [member[u], -shut[v]] if v in shut else [member[u]])
            rules += 1
    return rules


def region_arcs(con: Connected, neighbours) -> list[tuple[int, int]]:
    """A region's own arcs ``(u, v)``: both cells members, ``v`` a neighbour of ``u`` (``Grid.neighbours``:
    sides and links), in the members' order; the text's ``step`` and ``fstep`` facts and :func:`add_fills`'s
    rules alike."""
    own = {cell for cell, _ in con.members}
    return [(u, v) for u, _ in con.members for v in neighbours[u] if v in own and v != u]


def program_atoms(backend, count: int) -> list[int]:
    """The program atom of ``x(V)`` for each IR variable V in 1..count (index 0 unused); the
    atoms the grounded text made are looked up, not made again."""
    import clingo

    if count < 1:
        return [0]
    # One term parsed in C makes every symbol (about 1 us each, where clingo.Function and Number took 4.5).
    symbols = clingo.parse_term("f(" + ",".join([f"x({v})" for v in range(1, count + 1)]) + ")").arguments
    return [0, *map(backend.add_atom, symbols)]


def add_objective(backend, atoms, terms: list[tuple[int, int]], sense: Sense) -> None:
    """The objective's ``#maximize``/``#minimize``
    (:meth:`~gridlang.exporters.asp.program.Program.objective_terms`) as clingo's minimize
    statement at priority 0: the weights as written when minimising, negated when maximising,
    which is what gringo makes of the text."""
    sign = -1 if sense is Sense.MAXIMIZE else 1
    backend.add_minimize(0, [(atoms[v], sign * c) for c, v in terms])


CLINGO_MAX = 2**31 - 1
"""The largest weight, bound or sum of weights clingo computes: its weights
are 32-bit (``weight_t``); a wider one is refused in conversion, and a sum past
it wraps (a cost of 3,000,000,000 read back as -1,294,967,296)."""


class Survey:
    """The constraints of one model that the asp backend and ``auto`` read before solving, sorted
    out in one pass over the model (:func:`survey`), the clauses passed over.

    Attributes:
        wide: what of the model is beyond :data:`CLINGO_MAX`, in words (:func:`beyond_clingo`); None if nothing.
        linear: the :class:`Linear` rows, in the model's order.
        regions: the :class:`Connected` nodes, in the model's order.
        graphs: the :class:`GraphConnected` nodes, in the model's order.
        blocks: the :class:`EqualBlocks` nodes, in the model's order.
        kinds: the types of the constraints, :class:`Clause` left out.
    """

    __slots__ = ("wide", "linear", "regions", "graphs", "blocks", "kinds")

    def __init__(self, model: Model) -> None:
        linear: list[Linear] = []
        regions: list[Connected] = []
        graphs: list[GraphConnected] = []
        blocks: list[EqualBlocks] = []
        kinds: set[type] = set()
        for con in model.constraints:
            kind = type(con)
            if kind is Clause:  # the commonest, which none of them reads
                continue
            kinds.add(kind)
            if isinstance(con, Linear):
                linear.append(con)
            elif isinstance(con, Connected):
                regions.append(con)
            elif isinstance(con, GraphConnected):
                graphs.append(con)
            elif isinstance(con, EqualBlocks):
                blocks.append(con)
        self.linear, self.regions, self.graphs, self.blocks, self.kinds = linear, regions, graphs, blocks, kinds
        self.wide = _wide(model.objective, linear)


@kept_for_last
def survey(model: Model) -> Survey:
    """The :class:`Survey` of ``model``, made once for the model surveyed last: one solve reads it from
    ``auto``'s plan, the backend's settings and the program."""
    return Survey(model)


def beyond_clingo(model: Model) -> str | None:
    """What of ``model`` is beyond :data:`CLINGO_MAX`, in words; None if nothing.

    A row's or the objective's coefficients and constant are added up in
    magnitude (the measure of :data:`gridlang.core.limits.MAX_ROW_MAGNITUDE`),
    which bounds every weight, bound and sum clingo makes of them. Read from
    the model's :func:`survey`.
    """
    return survey(model).wide


def _wide(objective: Objective | None, rows: list[Linear]) -> str | None:
    """:func:`beyond_clingo` of an objective and the rows, in order."""
    if objective is not None:
        total = sum(abs(c) for c, _ in objective.terms) + abs(objective.constant)
        if total > CLINGO_MAX:
            return f"the objective's coefficients and constant add up to {total:,}"
    for con in rows:
        total = sum(abs(c) for c, _ in con.terms) + abs(con.rhs)
        if total > CLINGO_MAX:
            where = f" ({con.span.file}:{con.span.line})" if con.span else ""
            return f"a row's coefficients and constant add up to {total:,}{where}"
    return None


CARD_MAX_ATOMS = 500_000
"""The most auxiliary atoms clasp's translation of cardinality rules (``--trans-ext=card``)
may make before the asp backend leaves them native (``dynamic``): a wall budget of 40
over the 38,814 grass cells of a 200x200 map made 1.6 million, which took clasp past
1.3 GB (about 800 bytes each) and 50 s before the first search."""


def card_translation(model: Model) -> int:
    """The auxiliary atoms clasp's ``--trans-ext=card`` makes of the model's cardinality rows,
    about ``n * k`` for a ``#count`` of n literals against a bound k (a sequential counter)."""
    total = 0
    for con in survey(model).linear:
        if len(con.terms) > 2:
            for _, agg in linear_parts(con):
                if agg is not None and all(w == 1 for w, _ in agg[0]):
                    n, bound = len(agg[0]), agg[2] + (1 if agg[1] == ">" else 0)
                    total += n * min(bound, n - bound + 1)
    return total


def translates_cards(model: Model | None) -> bool:
    """Whether ``auto`` takes ``--trans-ext=card`` for ``model``: when it has an objective
    (see :mod:`gridlang.exporters.asp.backend`) and the translation stays within :data:`CARD_MAX_ATOMS`."""
    return model is None or model.objective is not None and card_translation(model) <= CARD_MAX_ATOMS


def auto_flags(model: Model | None) -> dict[str, str]:
    """The clingo options the asp backend's ``auto`` settings take for ``model``: ``{"trans-ext":
    "card" or "dynamic", "lookahead": "atom" or "no", "opt-heuristic": "sign" or "no"}``
    (:func:`translates_cards`, :func:`probes_regions`, :func:`steers_by_sign`); the backend
    passes them, an exported program's run line names those that are not clingo's defaults."""
    return {"trans-ext": "card" if translates_cards(model) else "dynamic",
            "lookahead": "atom" if probes_regions(model) else "no",
            "opt-heuristic": "sign" if steers_by_sign(model) else "no"}


def prices_decisions(model: Model | None) -> bool:
    """Whether some objective term of ``model`` is on a variable that is neither a region's member
    nor fixed by a unit clause.

    Such objectives (costly walls: ``value(pen) - cost * count(wall)``) went faster with a
    core-guided thread beside branch and bound (``compete``); the value of a region alone (the
    standard maps) went faster with the search space split between the threads (``split``).
    """
    if model is None or model.objective is None:
        return False
    known = {abs(l) for con in survey(model).regions for _, l in con.members}
    known |= {abs(con.lits[0]) for con in model.constraints if isinstance(con, Clause) and len(con.lits) == 1}
    return any(abs(l) not in known for _, l in model.objective.terms)


def steers_by_sign(model: Model | None) -> bool:
    """Whether ``auto`` takes ``--opt-heuristic=sign`` for ``model``: its objective prices no
    decision (:func:`prices_decisions`) and values the members of one region, as a standard map's
    pen.

    Each decision then first takes the sign that does not raise the cost, so the search meets
    large pens first. Warm, from the exported program to the proved optimum, least of two runs
    (docs/benchmarks.md): the 214 dailies on the split search, median 0.0432 to 0.0400 s, faster
    on 157 of them; on one thread, median 0.0673 to 0.0619 s, total 57.5 to 54.4 s; lovebirds
    median 0.057 to 0.050 s. Left out where the objective values two regions that must avoid
    each other (lovers' quarrel: each grows at the other's cost; a new process per map, least of
    three, 7 of the 8 maps slower with it, total 1.49 to 1.62 s) and where it prices walls, whose
    portfolio search (``compete``) moved more from run to run than with the option: the 39 costly
    walls on clingo alone, least of two runs, median 0.298 against 0.285 s, total 66.7 against
    62.3 s, while one run to the next moved the median from 0.29 to 0.69 s; ``auto`` races
    CP-SAT there, not measured with it.
    """
    if model is None or model.objective is None or prices_decisions(model):
        return False
    valued = {abs(l) for _, l in model.objective.terms}
    return sum(1 for con in survey(model).regions if any(abs(l) in valued for _, l in con.members)) == 1


def probes_regions(model: Model | None) -> bool:
    """Whether ``auto`` turns on clingo's failed-literal detection (``--lookahead=atom``) for
    ``model``: it has no objective, every :class:`~gridlang.ir.model.Connected` of it has a root,
    and one has a known size (an island of a Nurikabe, capped by its number).

    On such models the search stalled where a probe settles most cells: the puzzlekit-dataset's
    Nurikabe 40x57 (1055, eight islands of 50), no answer in 120 s, is proved unique with no
    decision and 1,638 conflicts, a 31x45 (680) with 1,383 conflicts where it took 207,330 (docs/benchmarks.md,
    "Nurikabe 40x57 and 50x50 by failed literals"). Left out with an objective (the enclose.horse
    maps were not measured with them) and beside a region without a root: Snake Eggs' eggs of 3 to
    8 cells, none of whose cells is known, took a 10x10 from 0.6 s to 2.2 to 3.0 s with the probes.
    """
    if model is None or model.objective is not None:
        return False
    regions = survey(model).regions
    return all(con.roots for con in regions) and any(con.size is not None for con in regions)
