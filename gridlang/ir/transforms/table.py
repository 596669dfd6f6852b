"""Table constraints as clauses: the rows a :class:`~gridlang.ir.model.Table` forbids, merged into few clauses.

A table over ``m`` literals allows some of the ``2^m`` rows of truth values
(the rings of a runs rule: ``m <= 8``). Each forbidden row is a *cube*
(an assignment of all ``m`` literals) that the clause ``not cube`` rules
out. Cubes are merged as in the Quine-McCluskey method (W. V. Quine, "The
problem of simplifying truth functions", 1952; E. J. McCluskey,
"Minimization of Boolean functions", 1956): two cubes that differ in one
fixed literal become one cube without it, until no two merge; these prime
cubes cover exactly the forbidden rows (a prime cube never holds an
allowed row), and a greedy cover keeps the fewest needed, each giving one
clause of its fixed literals negated. Size: at most ``2^m`` clauses of at
most ``m`` literals; a Tapa clue's ring of 8 gives some 10 to 60.
"""

from __future__ import annotations

from gridlang.ir.model import Clause, Model, Table


def forbidden_clauses(lits: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...]) -> list[tuple[int, ...]]:
    """Clauses that hold exactly when ``lits`` take one of the ``allowed`` rows.

    Args:
        lits: the literals (distinct variables), in the rows' order.
        allowed: the allowed rows, each a tuple of ``len(lits)`` truth values.

    Returns:
        The clauses (tuples of literals); ``[()]`` (the empty clause) when
        nothing is allowed, ``[]`` when everything is.
    """
    m = len(lits)
    ok = {sum(1 << i for i, bit in enumerate(row) if bit) for row in allowed}
    bad = [x for x in range(1 << m) if x not in ok]
    if not bad:
        return []
    full = (1 << m) - 1
    # a cube: (mask of its fixed positions, their values)
    level = {(full, x) for x in bad}
    primes: set[tuple[int, int]] = set()
    while level:
        merged: set[tuple[int, int]] = set()
        used: set[tuple[int, int]] = set()
        by_mask: dict[int, set[int]] = {}
        for mask, value in level:
            by_mask.setdefault(mask, set()).add(value)
        for mask, values in by_mask.items():
            for value in values:
                for i in range(m):
                    bit = 1 << i
                    if mask & bit and not value & bit and value | bit in values:
                        merged.add((mask & ~bit, value))
                        used.add((mask, value))
                        used.add((mask, value | bit))
        primes |= level - used
        level = merged
    cover: list[tuple[int, int]] = []
    left = set(bad)
    ranked = sorted(primes, key=lambda cube: (bin(cube[0]).count("1"), cube))
    while left:
        best = max(ranked, key=lambda cube: sum(1 for x in left if x & cube[0] == cube[1]))
        cover.append(best)
        left = {x for x in left if x & best[0] != best[1]}
    out = []
    for mask, value in sorted(cover):
        out.append(tuple(-lits[i] if value >> i & 1 else lits[i] for i in range(m) if mask >> i & 1))
    return out


def table_to_clauses(model: Model) -> Model:
    """``model`` with every :class:`~gridlang.ir.model.Table` replaced by its :func:`forbidden_clauses`.

    Returns:
        A new model (same variables), or ``model`` itself when it has no table.
    """
    if not any(isinstance(con, Table) for con in model.constraints):
        return model
    out = []
    for con in model.constraints:
        if isinstance(con, Table):
            out.extend(Clause(clause, con.span) for clause in forbidden_clauses(con.lits, con.allowed))
        else:
            out.append(con)
    return Model(model.name, model.grid, model.variables, tuple(out), model.objective, model.decisions,
                 model.regions, model.params, model.info, model.source)
