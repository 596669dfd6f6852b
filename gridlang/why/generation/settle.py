"""Uniqueness by counterexample: clues added or moved until the answer is the map's only one.

Given a map and an answer ``A`` of it, the loop asks the solver for an answer other than ``A``
(the map's model with ``A`` blocked by one clause, :func:`gridlang.ir.solution.blocking_clause`'s
form). None: ``A`` is unique, done. Else the counterexample ``B`` differs from ``A`` on some cells;
a clue there that ``A`` satisfies and that tells the two apart is added, or, when the spec's rules
allow no more clues beside the ones there (Nurikabe: one number per island), moved there from the
nearest clue. Either way the spec's interpreter confirms that ``A`` still breaks no rule, and the
solver is asked again. This is the counterexample-guided loop of the uniqueness-driven generators
(CEGAR: E. Clarke, O. Grumberg, S. Jha, Y. Lu and H. Veith, "Counterexample-guided abstraction
refinement", CAV 2000; for puzzles, the loop "solve, find a second solution, add a clue that
separates them" of Sudoku and Nurikabe makers such as Simon Tatham's Portable Puzzle Collection's
and cspuz's generator): each round one solve and a few interpreter runs, where drawing a new answer
and placing every clue again costs a hundred interpreter runs or more.

A clue for a cell is the first clue tile and value, in a random order, under which ``A`` breaks no
statement more often than on the blank map (:meth:`~gridlang.why.generation.maker.Maker.broken`):
Nurikabe's island size on an island's cells, Sudoku's digit, nothing on a Nurikabe shaded cell.
With a symmetry (:mod:`gridlang.why.generation.maps`, :func:`~gridlang.why.generation.maps.orbit`)
clues are added and moved by whole orbits.
"""

from __future__ import annotations

from collections.abc import Callable

from gridlang.core.errors import GridlangError
from gridlang.why.generation.maker import Maker, Undecided
from gridlang.why.generation.maps import orbit

ROUNDS = 0.25
"""The most rounds of the loop, per cell of the map, before the answer is given up."""

MOVES = 3
"""How many clues, nearest first, a move may take its clue from."""

STALL = 8
"""How many rounds in a row may only move clues (none added) before the answer is given up: moves that
kill one counterexample and make another seldom end."""

ROUND_SECONDS = 10.0
"""The most one round's solve may take before the answer is given up (a Nurikabe map with few clues can
take CP-SAT minutes to prove it has no answer)."""



class Candidates:
    """The clue each cell may hold under one answer (computed on first use, then kept).

    Args:
        maker: the puzzle being made.
        answer: decision -> {cell: value}, as :func:`gridlang.ir.solution.decode` gives.
    """

    def __init__(self, maker: Maker, answer):
        self.maker, self.answer = maker, answer
        self.blank = [maker.blank * maker.cols] * maker.rows
        self.base = maker.broken(self.blank, answer)
        self.known: dict[int, str | None] = {}

    def __call__(self, cell: int) -> str | None:
        """The cell's clue character, or None when no clue tile fits ``answer`` there."""
        if cell not in self.known:
            maker = self.maker
            self.known[cell] = None
            options = [ch for _, chars in maker.clues for ch in chars]
            maker.rng.shuffle(options)
            for ch in options:
                after = fits(maker, put(self.blank, maker.cols, {cell: ch}), self.answer)
                if after is not None and all(after.get(k, 0) <= self.base.get(k, 0) for k in after):
                    self.known[cell] = ch
                    break
        return self.known[cell]


def put(grid: list[str], cols: int, chars: dict[int, str]) -> list[str]:
    """A copy of ``grid`` with the cells of ``chars`` (index -> character) written."""
    rows = [list(r) for r in grid]
    for cell, ch in chars.items():
        rows[cell // cols][cell % cols] = ch
    return ["".join(r) for r in rows]


def fits(maker: Maker, grid: list[str], answer) -> dict[int, int] | None:
    """The statements ``answer`` breaks on ``grid`` and how often, or None for a map the spec refuses."""
    try:
        return maker.broken(grid, answer)
    except GridlangError:
        return None


def cells_of(key, rows: int, cols: int) -> list[int]:
    """The cells a decision's key touches: a cell itself; an edge's two cells; a lattice corner's four."""
    if isinstance(key, int):
        return [key]
    out = []
    for r, c in key:
        for a, b in ((r, c), (r - 1, c - 1), (r - 1, c), (r, c - 1)):
            if 0 <= a < rows and 0 <= b < cols:
                out.append(a * cols + b)
    return out


def settle(maker: Maker, answer, grid: list[str], backend: str, symmetry: str = "none",
           say: Callable[[str], None] | None = None,
           candidate: Candidates | None = None) -> tuple[list[str], dict] | None:
    """Clues added or moved until ``answer`` is the map's only answer (see the module docstring).

    Args:
        maker: the puzzle being made.
        answer: decision -> {cell: value}; when it breaks a rule of ``grid``, the map's own first
            answer (by ``backend``) takes its place.
        grid: the map's rows (the blank character where there is no clue).
        backend: the solver asked for a second answer.
        symmetry: ``none``, ``rotational`` or ``mirror`` (clues come and go by orbits).
        say: told of each round, for progress.
        candidate: the clues ``answer`` allows, if already begun.

    Returns:
        ``(grid, answer)`` with ``answer`` the map's only answer, or None when the map has no answer
        or no clue tells ``answer`` from a counterexample (then another answer is drawn).

    Raises:
        GenerateTimeUp: the deadline passed during a solve.
    """
    rows, cols = maker.rows, maker.cols
    try:
        if fits(maker, grid, answer) != {}:
            answer = maker.another(grid, None, backend, ROUND_SECONDS)
            if answer is None:
                return None
            candidate = None
        if candidate is None:
            candidate = Candidates(maker, answer)
        stalled = 0
        for k in range(max(4, int(ROUNDS * rows * cols))):
            other = maker.another(grid, answer, backend, ROUND_SECONDS)
            if other is None:
                return grid, answer
            if stalled >= STALL:
                return None
            grid, added = _round(maker, answer, other, grid, candidate, symmetry, k, say)
            if grid is None:
                return None
            stalled = 0 if added else stalled + 1
    except Undecided:
        return None
    return None


def _round(maker: Maker, answer, other, grid: list[str], candidate: Candidates, symmetry: str, k: int,
           say: Callable[[str], None] | None) -> tuple[list[str] | None, bool]:
    """One round against the counterexample ``other``: the map after, and whether a clue was added."""
    rows, cols = maker.rows, maker.cols
    clues = [i for i in range(rows * cols) if grid[i // cols][i % cols] != maker.blank]
    if say is not None:
        say(f"round {k + 1}: {len(clues)} clues, a second answer found")
    differ = sorted({cell for name in set(answer) | set(other)
                     for key in set(answer.get(name, {})) | set(other.get(name, {}))
                     if answer.get(name, {}).get(key) != other.get(name, {}).get(key)
                     for cell in cells_of(key, rows, cols)})
    maker.rng.shuffle(differ)
    after = _separate(maker, answer, grid, differ, clues, candidate, symmetry)
    added = after is not None and sum(ch != maker.blank for row in after for ch in row) > len(clues)
    return after, added


def _separate(maker: Maker, answer, grid: list[str], differ: list[int], clues: list[int], candidate: Candidates,
              symmetry: str) -> list[str] | None:
    """The map with a clue added (or moved) at one of the cells ``differ`` under which ``answer`` still
    breaks no statement, or None when there is none."""
    rows, cols = maker.rows, maker.cols
    for p in differ:
        group = orbit(p, rows, cols, symmetry)
        if any(grid[q // cols][q % cols] != maker.blank for q in group):
            continue
        chars = {q: candidate(q) for q in group}
        if any(ch is None for ch in chars.values()):
            continue
        trial = put(grid, cols, chars)
        if fits(maker, trial, answer) == {}:
            return trial
        near = sorted(clues, key=lambda q: abs(q // cols - p // cols) + abs(q % cols - p % cols))
        for q in near[:MOVES]:
            moved = put(trial, cols, {x: maker.blank for x in orbit(q, rows, cols, symmetry)})
            if fits(maker, moved, answer) == {}:
                return moved
        if maker.deadline.expired():
            return None
    return None
