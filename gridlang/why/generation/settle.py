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

When a round adds no clue (Nurikabe: every island has its number, so a clue can only move, and a
move trades one counterexample for the next), the answer itself changes
(:func:`_reshape`, without a symmetry): ``A`` takes ``B``'s value of a Boolean decision on one
cell where they differ, and the clues follow, a new one on that cell or those around it placed
again, as long as the changed ``A`` breaks no rule. The wall growing or giving way by a cell
splits, shrinks, grows or joins islands, and ``B`` stops being an answer where the numbers
changed; the loop keeps the answer it has worked on instead of drawing another.
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

RESHAPES = 4
"""How many cells where the answer and a counterexample differ a round may try changing the answer on,
when no clue tells them apart as they are."""

REACH = 4
"""How far, in cells (rows plus columns), from the cell where the answer changed clues are placed again."""

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
            found = self.maker.try_clues(self.blank, cell, self.answer, self.base).found
            self.known[cell] = None if found is None else found[0][cell // self.maker.cols][cell % self.maker.cols]
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
            after, added = _round(maker, answer, other, grid, candidate, symmetry, k, say)
            if not added and symmetry == "none":  # no clue added: the answer changes, if it can
                changed = _reshape(maker, answer, other, grid)
                if changed is not None:
                    grid, answer, added = changed
                    candidate, stalled = Candidates(maker, answer), 0 if added else stalled + 1
                    if say is not None:
                        say(f"round {k + 1}: the answer changed on a cell, "
                            f"{'a clue added' if added else 'clues written anew'}")
                    continue
            if after is None:
                return None
            grid = after
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
    differ = differing(maker, answer, other)
    maker.rng.shuffle(differ)
    after = _separate(maker, answer, grid, differ, clues, candidate, symmetry)
    added = after is not None and sum(ch != maker.blank for row in after for ch in row) > len(clues)
    return after, added


def differing(maker: Maker, answer, other) -> list[int]:
    """The cells where two answers differ (an edge's two cells, a corner's four), in order."""
    return sorted({cell for name in set(answer) | set(other)
                   for key in set(answer.get(name, {})) | set(other.get(name, {}))
                   if answer.get(name, {}).get(key) != other.get(name, {}).get(key)
                   for cell in cells_of(key, maker.rows, maker.cols)})


def _reshape(maker: Maker, answer, other, grid: list[str]) -> tuple[list[str], dict, bool] | None:
    """The map and a changed answer, when no clue is added that tells ``answer`` from ``other`` as it
    is; and whether a clue was added.

    ``answer`` takes ``other``'s value on one cell where they differ (a Boolean decision on cells:
    Nurikabe's wall grows or gives way by a cell, which splits, shrinks, grows or joins islands),
    and the map follows: first, on every such cell in a random order, with a clue written on that
    cell (a new island of one cell where the wall gave way); else, on :data:`RESHAPES` of them,
    unchanged, or with the :data:`MOVES` nearest clues blanked and clues placed again on the cells
    within :data:`REACH` of it, nearest first, until the changed answer breaks no rule (an island
    shrunk, grown, split in two or joined to another). The spec's interpreter must find the changed answer breaking no rule. ``other`` is
    then no longer an answer where the clues changed, and the loop asks again.
    """
    rows, cols = maker.rows, maker.cols
    decisions = maker.spec.symbols.decisions
    bools = [d for d in answer if d in decisions and not decisions[d].is_enum and decisions[d].lattice is None]
    clues = [i for i in range(rows * cols) if grid[i // cols][i % cols] != maker.blank]
    cells = [p for p in differing(maker, answer, other)
             if any(answer[d].get(p, False) != other.get(d, {}).get(p, False) for d in bools)]
    maker.rng.shuffle(cells)

    def changed_at(p: int):
        changed = {d: dict(values) for d, values in answer.items()}
        for d in bools:
            changed[d][p] = other.get(d, {}).get(p, False)
        return changed

    for p in cells:  # a clue added where the answer changed
        if maker.deadline.expired():
            return None
        if grid[p // cols][p % cols] != maker.blank:
            continue
        changed = changed_at(p)
        base = fits(maker, grid, changed)
        found = None if base is None else maker.try_clues(grid, p, changed, base).found
        if found is not None and not found[1]:
            return found[0], changed, True
    for p in cells[:RESHAPES]:  # the clues around the cell written anew
        if maker.deadline.expired():
            return None
        changed = changed_at(p)
        if fits(maker, grid, changed) == {}:
            return grid, changed, False

        def far(q: int, p: int = p) -> int:
            return abs(q // cols - p // cols) + abs(q % cols - p % cols)

        after = put(grid, cols, {q: maker.blank for q in sorted(clues, key=far)[:MOVES]})
        now = fits(maker, after, changed)
        for q in sorted((q for q in range(rows * cols) if far(q) <= REACH), key=far):
            if now is None or not now:
                break
            if after[q // cols][q % cols] == maker.blank:
                found = maker.try_clues(after, q, changed, now).found
                if found is not None:
                    after, now = found
        if now == {}:
            return after, changed, sum(ch != maker.blank for row in after for ch in row) > len(clues)
    return None


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
