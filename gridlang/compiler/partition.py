"""Capped components that partition their set: every member of the set lies in one of them.

Part of the compiler, run after the last statement while capping is on
(:attr:`~gridlang.compiler.core._Compiler.cap_components`).

Take the components of seeds ``p_1 .. p_m`` in one set S, each held by a rule
to exactly ``k_i`` cells (``count(component of p_i in S) == k_i``, no guard:
:meth:`~gridlang.compiler.cellsets.CellSetLowering.cap_component`). Two
components of one set are equal or disjoint, so they are disjoint when no
``p_j`` can lie in the component of ``p_i``: ``p_j`` is outside its reach, or a
rule fixes its member literal false (a unit clause, or a row
``sum of positive terms == 0`` or ``<= 0``, as ``count(clue and component of c
in S) == 1`` becomes). When the model also holds an unconditional row
``count(S) == k_1 + ... + k_m``, the disjoint components of ``k_i`` cells each
fill S: every member of S is in one of them. The compiler then adds, for each
cell ``v`` S may hold, the clause

    ``not s(v) or m_1(v) or ... or m_j(v)``

over the components that reach ``v`` (a unit clause ``not s(v)`` for a cell out
of every seed's reach). It holds in every answer, so no answer changes; it
lets a solver see that an unshaded cell no island reaches is shaded, and that
a cell one island alone reaches joins it. Size: one clause per cell of S, its
literals the member variables the components already have (linear in the
cells times the seeds within reach).

First, each such component's reach is narrowed: a member literal is fixed false
when no walk of at most ``k_i - 1`` steps from the seed reaches its cell through
cells that may be members, a cell being barred when its literal is fixed false
or when it touches a cell surely in S that may not be a member (the component
would take that cell in: a cell beside another clue of Nurikabe). The
compiler's ball of ``k_i - 1`` steps counts steps through every cell of S;
this one walks around other seeds, so that large islands reach far less of the
grid (the 50x50 of the puzzlekit-dataset: 9,485 of its 17,000 member literals
fixed false, and 442 cells out of every island's reach, hence shaded, before
any search). Nurikabe's islands are the case in point
(Nikoli's rules: every unshaded cell belongs to exactly one numbered island);
Nurikabe at 31x45 and 50x50 went from no answer in 60 s to one
(docs/benchmarks.md, "Every published size").
"""

from __future__ import annotations

from gridlang.core.errors import Span
from gridlang.core.grid import Grid
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import Clause, Cmp, Linear


def _normal(pairs) -> tuple[dict[int, int], int]:
    """``sum coef * [lit]`` as ``(variable -> coefficient, constant)`` (``[-v]`` is ``1 - x_v``)."""
    coefs: dict[int, int] = {}
    const = 0
    for coef, lit in pairs:
        if lit < 0:
            const += coef
            coef = -coef
        coefs[abs(lit)] = coefs.get(abs(lit), 0) + coef
    return {v: c for v, c in coefs.items() if c}, const


def _counts_set(row: Linear, set_coefs: dict[int, int], total: int) -> bool:
    """Whether ``row`` states ``sum of set_coefs' terms + constant == total``, up to its sign: the
    row's variables and coefficients are the set's, or all negated, with the right side to match."""
    if row.op is not Cmp.EQ or row.enforce or len(row.terms) != len(set_coefs):
        return False
    coefs, const = _normal(row.terms)
    for sign in (1, -1):
        if all(set_coefs.get(v) == sign * c for v, c in coefs.items()) and len(
            coefs
        ) == len(set_coefs):
            return sign * (row.rhs - const) == total
    return False


def _false_literals(constraints) -> set[int]:
    """The literals some rule fixes false: ``l`` of a unit clause ``(-l)``, and every literal of an
    unconditional row of positive coefficients whose sum is at most 0."""
    out: set[int] = set()
    for con in constraints:
        if isinstance(con, Clause) and len(con.lits) == 1:
            out.add(-con.lits[0])
        elif (
            isinstance(con, Linear)
            and not con.enforce
            and con.op in (Cmp.EQ, Cmp.LE)
            and con.rhs == 0
            and all(coef > 0 for coef, _ in con.terms)
        ):
            out.update(lit for _, lit in con.terms)
    return out


def cover_clauses(
    grid: Grid,
    sets: dict[int, dict[int, CellValue]],
    components: dict[tuple[int, int], dict[int, CellValue]],
    exact: dict[tuple[int, int], int],
    constraints: list,
    span: Span | None = None,
) -> list[Clause]:
    """The clauses that say capped components fill their set (the module docstring).

    Args:
        grid: the map's grid graph.
        sets: each set's key -> its members (cell -> True or the literal of the cell being in it).
        components: ``(seed cell, set key)`` -> the component's members (cell -> True or literal);
            an empty dict for a seed outside the set.
        exact: ``(seed cell, set key)`` -> the cells a rule holds that component to, for the
            components a rule states exactly.
        constraints: the model's constraints so far (its rows and unit clauses are read).
        span: where the clauses point (the count rule's line, when None the row's own).

    Returns:
        A unit clause for each member literal out of its seed's reach (:func:`_out_of_reach`), then
        one clause per cell of each set whose components are shown to fill it (and a row of at most
        one where two or more components reach it); none for the others.
    """
    groups: dict[int, list[int]] = {}
    for seed, key in exact:
        if (seed, key) in components:
            groups.setdefault(key, []).append(seed)
    if not groups:
        return []
    false = _false_literals(constraints)
    rows = [
        con
        for con in constraints
        if isinstance(con, Linear) and con.op is Cmp.EQ and not con.enforce
    ]
    out: list[Clause] = []
    for key, seeds in sorted(groups.items()):
        inside = sets[key]
        comps = [components[seed, key] for seed in seeds]
        sizes = [exact[seed, key] for seed in seeds]
        out += _narrow(grid, seeds, comps, sizes, inside, false, span)
        if not _disjoint(seeds, comps, false):
            continue
        known = sum(1 for v in inside.values() if v is True)
        set_coefs, const = _normal((1, v) for v in inside.values() if v is not True)
        total = sum(sizes) - known - const
        row = next((r for r in rows if _counts_set(r, set_coefs, total)), None)
        if row is None:
            continue
        where = span if span is not None else row.span
        for _ in range(
            MAX_ROUNDS
        ):  # a cell no component reaches is out of S, which bars it from them all
            lone = [
                cell
                for cell, s in sorted(inside.items())
                if s is not True and s not in false and not _reached(cell, comps, false)
            ]
            for cell in lone:
                false.add(inside[cell])
                out.append(Clause((neg(inside[cell]),), where))
            narrowed = (
                _narrow(grid, seeds, comps, sizes, inside, false, span) if lone else []
            )
            out += narrowed
            if not narrowed:
                break
        for cell in sorted(inside):
            s = inside[cell]
            if s is not True and s in false:
                continue
            lits = []
            for comp in comps:
                m = comp.get(cell, False)
                if m is True:
                    break
                if m is not False and m not in false:
                    lits.append(m)
            else:
                if s is not True or lits:
                    out.append(
                        Clause(
                            tuple([neg(s)] if s is not True else []) + tuple(lits),
                            where,
                        )
                    )
                if len(lits) > 1:
                    out.append(
                        Linear(tuple((1, m) for m in lits), Cmp.LE, 1, (), where)
                    )
    return out


MAX_ROUNDS = 20
"""At most this many rounds of cells found out of every reach and reaches narrowed again."""


def _fixed_false(value: CellValue, false: set[int]) -> bool:
    """Whether a cell value is a literal some rule fixes false (a constant True is not: ``True in
    false`` would read it as the literal 1)."""
    return value is not True and value is not False and value in false


def _reached(cell: int, comps: list[dict[int, CellValue]], false: set[int]) -> bool:
    """Whether some component may hold ``cell``."""
    for comp in comps:
        m = comp.get(cell, False)
        if m is True or (m is not False and m not in false):
            return True
    return False


def _narrow(
    grid: Grid,
    seeds: list[int],
    comps: list[dict[int, CellValue]],
    sizes: list[int],
    inside: dict[int, CellValue],
    false: set[int],
    span: Span | None,
) -> list[Clause]:
    """Unit clauses fixing false every member literal out of its seed's reach (:func:`_out_of_reach`),
    each added to ``false`` as it is found."""
    out = []
    for seed, comp, k in zip(seeds, comps, sizes):
        for m in _out_of_reach(grid, seed, comp, inside, k, false):
            false.add(m)
            out.append(Clause((-m,), span))
    return out


def _disjoint(
    seeds: list[int], comps: list[dict[int, CellValue]], false: set[int]
) -> bool:
    """Whether no seed can lie in another's component (so that the components are disjoint)."""
    for i, comp in enumerate(comps):
        for j, seed in enumerate(seeds):
            if i != j:
                m = comp.get(seed, False)
                if m is True or (m is not False and m not in false):
                    return False
    return True


def _out_of_reach(
    grid: Grid,
    seed: int,
    comp: dict[int, CellValue],
    inside: dict[int, CellValue],
    k: int,
    false: set[int],
) -> list[int]:
    """The member literals of a component of at most ``k`` cells that cannot be true: a cell that
    no walk of at most k - 1 steps from the seed reaches through cells that may be members. A cell
    may not be when its literal, or its literal of being in the set, is fixed false, or when it touches a cell surely in the set that may
    not be (the component would take that cell in too: a cell beside another clue of Nurikabe).
    Sound for any component, capped or not, of at most k cells; time linear in its candidates."""
    blocked = {
        v
        for v, m in comp.items()
        if _fixed_false(m, false) or _fixed_false(inside.get(v, False), false)
    }
    for v, m in comp.items():
        if v != seed and m is not True and v not in blocked:
            for w in grid.neighbours[v]:
                if inside.get(w) is True and (
                    comp.get(w, False) is False or _fixed_false(comp[w], false)
                ):
                    blocked.add(v)
                    break
    if not blocked:
        return []
    reach = grid.distances(set(comp) - blocked, seed, limit=max(k - 1, 0))
    return [
        m
        for v, m in sorted(comp.items())
        if v not in reach and m is not True and m not in false
    ]
