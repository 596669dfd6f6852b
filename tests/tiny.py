"""Tiny hand-built IR models and brute-force counts, shared by the backend tests; tiny specs judged by the
interpreter and their located errors, shared by the language tests.

The brute force reads the rules of :class:`gridlang.ir.model.Connected` directly
(every root in, every member reached from some root; without roots one
piece; the empty set is connected), independently of the encodings under test.
"""

from __future__ import annotations

import itertools

from gridlang.core.errors import GridlangError, MultipleErrors
from gridlang.core.grid import Grid
from gridlang.formats.maps import build_grid, parse_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import Interpreter
from gridlang.ir.backend import SolveOptions
from gridlang.ir.model import Model, Var
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.solving.pipeline import load_checked, solve_model


def grid_of(rows: int, cols: int, links: tuple[tuple[int, int], ...] = ()) -> Grid:
    """An all-grass grid with optional link edges."""
    n = rows * cols
    return Grid(rows, cols, tuple("." * n), tuple(["grass"] * n), links)


def cell_model(grid: Grid, constraints, objective=None, extra: int = 0, name: str = "tiny") -> Model:
    """Variable ``i + 1`` is cell ``i``'s member literal; ``extra`` global variables follow."""
    variables = tuple(Var("x", i, None, grid.cell(i)) for i in range(grid.size))
    variables += tuple(Var("y", None, k) for k in range(extra))
    return Model(name, grid, variables, tuple(constraints), objective,
                 info={"spec": "tiny.grid", "map": "tiny.txt"})


def reached(grid: Grid, cells: set[int], starts) -> set[int]:
    """The cells of ``cells`` reachable from ``starts`` inside ``cells``.

    Written apart from :meth:`gridlang.core.grid.Grid.reach` on purpose: the
    brute-force counts are the reference the product is checked against.
    """
    seen = {s for s in starts if s in cells}
    stack = list(seen)
    while stack:
        u = stack.pop()
        for v in grid.neighbours[u]:
            if v in cells and v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def is_connected(grid: Grid, cells: set[int]) -> bool:
    """One piece (the empty set counts as connected)."""
    return not cells or reached(grid, cells, (min(cells),)) == cells


def rooted_ok(grid: Grid, cells: set[int], roots=()) -> bool:
    """``Connected`` semantics: with roots, every root is in and every member is
    reached from some root; without roots, one piece."""
    if not roots:
        return is_connected(grid, cells)
    return all(r in cells for r in roots) and reached(grid, cells, roots) == cells


def connected_subsets(grid: Grid, roots=(), size=None, allowed=None) -> int:
    """Brute force: subsets of ``allowed`` (default: every cell) that meet
    :func:`rooted_ok` and, when given, have ``size`` cells."""
    cells_list = sorted(range(grid.size) if allowed is None else allowed)
    count = 0
    for mask in range(1 << len(cells_list)):
        cells = {c for k, c in enumerate(cells_list) if mask >> k & 1}
        if size is not None and len(cells) != size:
            continue
        count += rooted_ok(grid, cells, roots)
    return count


def spec_judge(spec_text: str, map_text: str):
    """A tiny spec and map read, checked and built: ``(spec, symbols, map data, grid, interpreter)``; the
    interpreter judges answers by the spec's rules alone (the reference the lowerings are counted against)."""
    spec = parse_spec(spec_text, "t.grid")
    symbols = check(spec)
    data = parse_map(map_text, "m.txt")
    grid = build_grid(symbols, data)
    return spec, symbols, data, grid, Interpreter(spec, symbols, grid, resolve_params(symbols, data, {}))


def judged_answers(judge: Interpreter, grid: Grid, decision: str, free=None) -> frozenset[tuple[bool, ...]]:
    """Brute force: every Boolean ``decision`` over the cells ``free`` (default: every cell; the others false)
    that the interpreter accepts, each a tuple of ``grid.size`` Booleans, row-major."""
    free = range(grid.size) if free is None else free
    found = set()
    for combo in itertools.product((False, True), repeat=len(free)):
        chosen = {i for i, v in zip(free, combo) if v}
        if judge.evaluate({decision: dict.fromkeys(chosen, True)}).ok:
            found.add(tuple(i in chosen for i in range(grid.size)))
    return frozenset(found)


def solved_answers(spec, symbols, data, grid: Grid, backend: str, decision: str, expected) -> set:
    """Every answer the backend enumerates for ``decision`` (asked for a few more than ``expected`` holds):
    for a Boolean decision in :func:`judged_answers`' shape, a tuple of ``grid.size`` Booleans; for an
    enumeration the frozenset of its ``(cell, value)`` entries. Asserts the enumeration was complete, or
    the puzzle proved INFEASIBLE when ``expected`` is empty."""
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=len(expected) + 3)
    if expected:
        assert report.complete is True
    else:
        assert report.status == "INFEASIBLE"
    (made,) = [d for d in model.decisions if d.name == decision]
    if tuple(made.values) != (True,):
        return {frozenset(s.decisions[decision].items()) for s in report.solutions}
    return {tuple(i in s.decisions[decision] for i in range(grid.size)) for s in report.solutions}


def spec_errors(spec_text: str) -> list[tuple[int, int, str]]:
    """The checker's errors on a spec that must fail, as ``(line, column, message)``."""
    import pytest

    with pytest.raises(GridlangError) as e:
        check(parse_spec(spec_text, "s.grid"))
    errors = e.value.errors if isinstance(e.value, MultipleErrors) else [e.value]
    return [(x.span.line, x.span.column, x.message) for x in errors]
