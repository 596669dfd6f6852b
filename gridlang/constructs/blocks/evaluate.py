"""Blocks of equal values and runs around a cell, evaluated on one answer for the spec-level verifier.

Each function is given the interpreter (:mod:`gridlang.interpreter`, what
it offers as :mod:`gridlang.language.constructs` lists it) and imports
nothing of it, nor of the lowering (:mod:`.lower`): the rules are computed
again from their meaning.

``D = D[p]`` is the set of the cells on which D is made whose value equals
D's value at p (empty when D is not made at p); ``component of p in (D =
D[p])`` is then found by the interpreter's breadth-first search, as any
component. ``runs of S around c == L``: the eight cells around c are read
in cyclic order, a cell off the grid as not in S, and the lengths of the
maximal runs of S-cells (one run of 8 for a full ring) are compared with
the clue list L as multisets, an unknown entry ``?`` matching any length;
no run at all is the one length 0, so the lists ``0`` and ``?`` match it
(pzprjs's Tapa).
"""

from __future__ import annotations

from gridlang.constructs.blocks.nodes import RING, Runs, SameValue
from gridlang.core.errors import SemanticError
from gridlang.language import ast


def same_value_cells(interpreter, e: SameValue) -> frozenset[int]:
    """The cells of ``D = D[p]`` on the answer."""
    p = interpreter.cell(e.cell)
    name = e.decision.id
    if name in interpreter.enums:
        values = interpreter.enums[name]
        if p is None or p not in values:
            return frozenset()
        mine = values[p]
        return frozenset(q for q, v in values.items() if v == mine and isinstance(v, bool) == isinstance(mine, bool))
    on = interpreter.on[name]
    if p is None or p not in on:
        return frozenset()
    shaded = interpreter.bools[name]
    return frozenset(q for q in on if (q in shaded) == (p in shaded))


def runs_violation(interpreter, runs: Runs, other) -> tuple[str, frozenset[int]] | None:
    """None when ``runs of S around c == L`` holds on the answer; else the sentence and the cell c.

    Raises:
        SemanticError: the cell of ``values(c)`` holds no clue list.
    """
    if runs_hold(interpreter, runs, other):
        return None
    c = interpreter.cell(runs.cell)
    return "the runs around the cell differ from the clue", frozenset(() if c is None else (c,))


def runs_hold(interpreter, runs: Runs, other) -> bool:
    """Whether ``runs of S around c == L`` holds on the answer (``other`` is L).

    Raises:
        SemanticError: the cell of ``values(c)`` holds no clue list.
    """
    grid = interpreter.grid
    c = interpreter.cell(runs.cell)
    members = interpreter.cells(runs.within)
    ring = []
    if c is not None:
        r0, c0 = divmod(c, grid.cols)
        for dr, dc in RING:
            r, col = r0 + dr, c0 + dc
            inside = 0 <= r < grid.rows and 0 <= col < grid.cols
            ring.append(inside and r * grid.cols + col in members)
    else:
        ring = [False] * 8
    lengths = _lengths(ring)
    clue = clue_entries(interpreter, other)
    if len(lengths or [0]) != len(clue):
        return False
    left = sorted(lengths or [0])
    for entry in clue:
        if entry is not None:
            if entry not in left:
                return False
            left.remove(entry)
    return True


def clue_entries(interpreter, e) -> list[int | None]:
    """The clue list ``e`` stands for: ``values(c)``'s cell's text split at its commas (``?``:
    None), or one number.

    Raises:
        SemanticError: the cell of ``values(c)`` holds no clue list.
    """
    if isinstance(e, ast.ValuesOf):
        c = interpreter.cell(e.cell)
        text = "" if c is None else str(interpreter.grid.chars[c])
        parts = text.split(",")
        if not all(x == "?" or x.isascii() and x.isdigit() for x in parts):
            raise SemanticError(f"values(c) reads a clue list; {text!r} holds none", e.span,
                                source=interpreter.spec.source)
        return [None if x == "?" else int(x) for x in parts]
    return [interpreter.number(e)]


def _lengths(ring: list[bool]) -> list[int]:
    """The lengths of the maximal runs of True around a cyclic ring."""
    n = len(ring)
    if all(ring):
        return [n]
    start = next(i for i in range(n) if not ring[i])  # a run never wraps past a False
    out, run = [], 0
    for k in range(1, n + 1):
        if ring[(start + k) % n]:
            run += 1
        else:
            if run:
                out.append(run)
            run = 0
    return out
