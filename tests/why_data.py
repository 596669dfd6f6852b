"""Helpers of the tests of gridlang.why: the shipped instances by a folder walk, and an independent
re-solve of a set of rule instances on CP-SAT (not the SAT oracle the tools use)."""

from __future__ import annotations

import functools
from pathlib import Path

from horse_data import REPO

from gridlang.core.nodes import replace
from gridlang.ir.backend import SolveOptions, Status, get_backend
from gridlang.ir.model import Clause, Model

WHY_DATA = REPO / "tests" / "data" / "why"
"""The three infeasible puzzles (tests/data/why/README.md)."""


@functools.lru_cache(maxsize=None)
def shipped_instances(largest: int) -> list[tuple[Path, Path]]:
    """``(spec, instance)`` for every shipped genre instance whose spec is found and whose sides
    are at most ``largest`` cells: a walk of ``puzzles/instances/``, the spec named by the
    instance's first folder, the size read off the map (not compiled)."""
    from gridlang.formats.maps import build_grid, read_map
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file

    out = []
    root = REPO / "puzzles" / "instances"
    for path in sorted(root.rglob("*.txt")):
        spec = REPO / "puzzles" / f"{path.relative_to(root).parts[0]}.grid"
        if not spec.is_file():
            continue
        tree = parse_file(spec)
        grid = build_grid(check(tree), read_map(path, tree.puzzle.name if tree.puzzle else None))
        if max(grid.rows, grid.cols) <= largest:
            out.append((spec, path))
    return out


def restricted(model: Model, tags, keep, extra: tuple = ()) -> Model:
    """``model`` with the constraints of the instances in ``keep`` and every definition (tag None),
    no objective, and ``extra`` constraints."""
    keep = set(keep)
    cons = tuple(c for c, t in zip(model.constraints, tags) if t is None or t in keep) + tuple(extra)
    return replace(model, constraints=cons, objective=None)


STEP_SECONDS = 300
"""The time each solver of :func:`unproved_step` may take: a step whose core's shrinking was cut short
holds up to some 140 instances of a 10 x 10 Snake Eggs, and clingo took 21 s on one of them."""


def cpsat_status(model: Model, seconds: float = 120) -> Status:
    """The status CP-SAT proves for ``model`` (connectivity by its own encodings)."""
    return get_backend("cpsat").solve(model, SolveOptions(time_limit=seconds)).status


def unproved_step(model: Model, tags, groups, known_lits, decided_lits) -> str | None:
    """Why it is not shown that the instances ``groups`` and the literals ``known_lits`` imply
    every literal of ``decided_lits``, re-solved by another solver than the hints' SAT oracle: with "one of them
    fails" added, no answer. clingo first, then CP-SAT when clingo settles nothing in its time:
    either one's INFEASIBLE is a proof. (CP-SAT alone could not prove a step of Araf's 6x6 in
    240 s, a block connectivity over 11 instances, which clingo proves in 0.1 s.)

    Returns:
        None when it is shown that they do; else what each solver found (an answer, or nothing
        in its time).
    """
    extra = tuple(Clause((lit,)) for lit in known_lits) + (Clause(tuple(-lit for lit in decided_lits)),)
    check = restricted(model, tags, groups, extra)
    status = get_backend("asp").solve(check, SolveOptions(time_limit=STEP_SECONDS)).status
    if status is Status.INFEASIBLE:
        return None
    if status is not Status.UNKNOWN:
        return f"clingo found an answer ({status.name})"
    second = cpsat_status(check, STEP_SECONDS)
    if second is Status.INFEASIBLE:
        return None
    return f"clingo settled nothing in {STEP_SECONDS} s, CP-SAT {second.name}"
