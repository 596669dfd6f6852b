"""Blocks of equal values and runs around a cell, evaluated on one answer (a mixin of the interpreter).

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

from gridlang.core.errors import SemanticError
from gridlang.language import ast


class BlockRules:
    """``D = D[p]`` and ``runs of S around c == L`` on an answer."""

    def same_value_cells(self, e: ast.SameValue) -> frozenset[int]:
        """The cells of ``D = D[p]``."""
        p = self.cell(e.cell)
        name = e.decision.id
        if name in self.enums:
            values = self.enums[name]
            if p is None or p not in values:
                return frozenset()
            mine = values[p]
            return frozenset(q for q, v in values.items() if v == mine and isinstance(v, bool) == isinstance(mine, bool))
        on = self.on[name]
        if p is None or p not in on:
            return frozenset()
        shaded = self.bools[name]
        return frozenset(q for q in on if (q in shaded) == (p in shaded))

    def runs_hold(self, f: ast.Compare) -> bool:
        """Whether ``runs of S around c == L`` holds on this answer."""
        runs, other = (f.left, f.right) if isinstance(f.left, ast.Runs) else (f.right, f.left)
        c = self.cell(runs.cell)
        members = self.cells(runs.within)
        ring = []
        if c is not None:
            r0, c0 = divmod(c, self.grid.cols)
            for dr, dc in ast.RING:
                r, col = r0 + dr, c0 + dc
                inside = 0 <= r < self.grid.rows and 0 <= col < self.grid.cols
                ring.append(inside and r * self.grid.cols + col in members)
        else:
            ring = [False] * 8
        lengths = _lengths(ring)
        clue = self.clue_entries(other)
        if len(lengths or [0]) != len(clue):
            return False
        left = sorted(lengths or [0])
        for entry in clue:
            if entry is not None:
                if entry not in left:
                    return False
                left.remove(entry)
        return True

    def clue_entries(self, e) -> list[int | None]:
        """The clue list ``e`` stands for: ``values(c)``'s cell's text split at its commas (``?``:
        None), or one number."""
        if isinstance(e, ast.ValuesOf):
            c = self.cell(e.cell)
            text = "" if c is None else str(self.grid.chars[c])
            parts = text.split(",")
            if not all(x == "?" or x.isascii() and x.isdigit() for x in parts):
                raise SemanticError(f"values(c) reads a clue list; {text!r} holds none", e.span,
                                    source=self.spec.source)
            return [None if x == "?" else int(x) for x in parts]
        return [self.number(e)]


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
