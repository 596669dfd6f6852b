"""Clues taken away while the answer stays unique: on the incremental SAT oracle when a clue is
exactly its rule instances, else by full solves."""

from __future__ import annotations

from gridlang.compiler import compile_tagged
from gridlang.ir.model import Model
from gridlang.why.generation.maker import Maker, names
from gridlang.why.generation.maps import orbit
from gridlang.why.generation.settle import put
from gridlang.why.oracle import Oracle


def dig_by_oracle(maker: Maker, grid: list[str]) -> list[str] | None:
    """Step 4 on the incremental SAT oracle of :mod:`gridlang.why.oracle`, when a clue is exactly
    its rule instances: None when the spec's decisions depend on where the clues are (Nurikabe's
    are made on blank cells only) or a rule naming a clue tile is not about one clue cell.

    Each clue's instances have a selector; the map's answer ``A`` is blocked by one clause
    under a flag; a clue goes when the other clues' instances, the rules and "not ``A``" are
    unsatisfiable (then ``A`` is still the only answer). One call per clue, milliseconds each,
    where a full solve of the map is tenths of a second. Taking a constraint away only adds
    answers, so one pass leaves no clue that could go.
    """
    cols = maker.cols
    clue_cells = {r * cols + c for r in range(maker.rows) for c in range(cols) if grid[r][c] != maker.blank}
    kept = dig_instances(maker, maker.model(grid), maker.model([maker.blank * cols] * maker.rows),
                         lambda kind, value: value if kind == "cell" else None, clue_cells,
                         lambda keys: orbits(maker, sorted(keys)))
    if kept is None:
        return None
    return ["".join(ch if r * cols + c in kept or ch == maker.blank else maker.blank
                    for c, ch in enumerate(row)) for r, row in enumerate(grid)]


def dig_instances(maker: Maker, full: Model, blank: Model, place_of, clues: set, groups_of) -> set | None:
    """The oracle's dig (:func:`dig_by_oracle`) over clues named by the place their rule instances
    bind: the clues kept, or None when the method does not apply (a decision that differs between
    ``full`` and ``blank``, an instance of a rule about clue tiles bound to no clue of ``clues`` or
    to several) or a call ran out of time.

    Args:
        full, blank: the map's model with its clues, and without any.
        place_of: ``(kind, value)`` of one binding of an instance (``("corner", (1, 3))``) -> the
            place it names, or None for a binding that names no place clues stand on.
        clues: the clues' places.
        groups_of: the clues tried together, in order (a symmetry's orbits), from the set of them.
    """
    if [(d.name, [k for k, _ in d.cells]) for d in full.decisions] != \
            [(d.name, [k for k, _ in d.cells]) for d in blank.decisions]:
        return None
    naming = {k for k, st in enumerate(maker.spec.ast.statements) if names(st, maker.clue_names)}
    tagged, tagging = compile_tagged(full)
    of_clue: dict = {}
    oracle = Oracle(tagged, tagging, maker.deadline)
    rules = []
    for g in oracle.groups:
        if g[0] not in naming:
            rules.append(g)
            continue
        places = {place_of(bound, value) for _, bound, value in g[1]} - {None}
        if len(places) != 1 or not places <= clues:
            return None
        of_clue.setdefault(places.pop(), []).append(g)
    first = oracle.check(oracle.groups)
    if first.status != "sat":
        return None
    block = []
    for d in tagged.decisions:
        for _, lits in d.cells:
            if len(lits) == 1:
                lit = lits[0][1]
                block.append(-lit if first.assignment.holds(lit) else lit)
            else:
                block.extend(-lit for _, lit in lits if first.assignment.holds(lit))
    flag = oracle.new_var()
    oracle.add_clause([-flag] + block)
    kept = set(of_clue)
    for group in groups_of(set(of_clue)):
        groups = rules + [g for c in sorted(kept - set(group)) for g in of_clue.get(c, [])]
        r = oracle.check(groups, [flag])
        if r.status == "unsat":
            kept -= set(group)
        elif r.status != "sat":
            return None
    return kept


def dig(maker: Maker, grid: list[str], backend: str) -> list[str]:
    """Clues taken away (by orbits of the symmetry) while the answer stays unique, until none can go
    (proved by ``backend``); each map left unique is kept as the best so far."""
    grid = list(grid)
    cols = maker.cols
    while True:
        clues = [i for i in range(maker.rows * cols) if grid[i // cols][i % cols] != maker.blank]
        gone = 0
        for group in orbits(maker, clues):
            trial = put(grid, cols, {q: maker.blank for q in group})
            if trial != grid and maker.unique(trial, backend):
                grid, gone = trial, gone + 1
                maker.keep(grid, maker.proved)
        if not gone:
            return grid


def orbits(maker: Maker, cells: list[int]) -> list[list[int]]:
    """The orbits of the symmetry among ``cells`` (each once, in a random order)."""
    seen: set[int] = set()
    out = []
    for cell in cells:
        if cell not in seen:
            group = orbit(cell, maker.rows, maker.cols, maker.symmetry)
            seen |= set(group)
            out.append(group)
    maker.rng.shuffle(out)
    return out

