"""The Hashiwokakero plug-in: its rules, checked on an answer.

Published rules (Nikoli's Hashiwokakero, as on puzz.link ``hashi``, pzprjs
``hashikake``): join the islands (the cells with a number, or ``?`` for a
number not given) by bridges. A bridge runs horizontally or vertically in
a straight line between two islands, over the sea, crossing no other
bridge and no island. Two islands are joined by at most two bridges. The
number on an island is how many bridges end at it (an island without a
number has at least one), and the bridges join all the islands into one
group.

The answer is the decision ``bridge``, 0 to 2 on each edge between side
neighbours. The check follows each bridge from its island across the sea
to the island at its other end, and joins the islands it finds, with its
own walk, never the spec or the IR.
"""

from __future__ import annotations

from collections import deque

from gridlang.core.grid import Grid, cell_name
from gridlang.families.common import number, verdict
from gridlang.families.lines import edge_values
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

NAME = "Hashiwokakero"

_DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _island(text: str) -> bool:
    return text == "?" or number(text) is not None


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Hashiwokakero answer: straight bridges between islands, at most two between a pair,
    none crossing, each number met, all islands joined."""
    values = edge_values(solution, "bridge")
    rows, cols = grid.rows, grid.cols
    problems = []
    bad = sorted(e for e, v in values.items() if v not in (1, 2))
    if bad:
        problems.append(f"an edge carries 1 or 2 bridges; {'; '.join(f'{cell_name(*e[0])} to {cell_name(*e[1])}: {values[e]}' for e in bad[:4])}")

    def at(r: int, c: int, dr: int, dc: int) -> int:
        a, b = (r, c), (r + dr, c + dc)
        return values.get((min(a, b), max(a, b)), 0)

    islands = [divmod(i, cols) for i, ch in enumerate(grid.chars) if _island(ch)]
    for i, ch in enumerate(grid.chars):
        if _island(ch):
            continue
        r, c = divmod(i, cols)
        up, right, down, left = (at(r, c, dr, dc) for dr, dc in _DIRECTIONS)
        if (up or down) and (left or right):
            problems.append(f"two bridges cross at {cell_name(r, c)}")
        elif up != down or left != right:
            problems.append(f"a bridge ends or changes in the sea at {cell_name(r, c)}")
    joined: dict[tuple[int, int], set[tuple[int, int]]] = {p: set() for p in islands}
    ends = 0
    for r, c in islands:
        n = number(grid.chars[r * cols + c])
        got = sum(at(r, c, dr, dc) for dr, dc in _DIRECTIONS)
        ends += got
        if n is not None and got != n:
            problems.append(f"the island {n} at {cell_name(r, c)} has {got} bridges")
        elif n is None and got == 0:
            problems.append(f"the island at {cell_name(r, c)} has no bridge")
        for dr, dc in _DIRECTIONS:
            k = at(r, c, dr, dc)
            rr, cc = r + dr, c + dc
            while k and 0 <= rr < rows and 0 <= cc < cols and not _island(grid.chars[rr * cols + cc]):
                rr, cc = rr + dr, cc + dc
            if k and 0 <= rr < rows and 0 <= cc < cols:
                joined[(r, c)].add((rr, cc))
    if islands:
        seen, queue = {islands[0]}, deque([islands[0]])
        while queue:
            for q in joined[queue.popleft()]:
                if q not in seen:
                    seen.add(q)
                    queue.append(q)
        apart = [p for p in islands if p not in seen]
        if apart:
            problems.append(f"the bridges leave {len(apart)} island(s) apart from the one at {cell_name(*islands[0])}, "
                            f"e.g. {cell_name(*apart[0])}")
    return verdict(NAME, problems, bridges=ends // 2)


class HashiwokakeroPlugin(Plugin):
    """Hashiwokakero: the verifier of the published rules (drawn from the spec's looks)."""

    name = "hashiwokakero"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = HashiwokakeroPlugin()
