"""The enclose.horse optimum of a small map by brute force, the reference of the status tests.

Written from the game's rules (https://enclose.horse) on the map's text
alone, apart from gridlang's compiler, grid, plug-in and solvers on purpose:
it is what they are checked against. Every set of at most ``budget`` walls
on grass is tried; the horse walks to side-adjacent tiles that are neither
water nor wall, and from a portal to its twin; it must not reach the border;
its pen scores the values of its tiles. The variants: ``costlywalls``
(``wall_cost`` points off per wall), ``lovebirds`` (the unicorn in the
horse's pen), ``loversquarrel`` (horse and unicorn each enclosed, in pens
that share no tile, the scores added).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

VALUE = {".": 1, "H": 1, "U": 1, "C": 4, "G": 11, "S": -4}
"""Points per tile when enclosed; any other character but water is a portal, 1 point."""
WATER = "~"


@dataclass(frozen=True)
class Optimum:
    """What the brute force found.

    Attributes:
        score: the best score, or None when no wall set encloses what the rules ask.
        answers: how many wall sets reach it (0 when ``score`` is None).
    """

    score: int | None
    answers: int


def optimum(rows: list[str], budget: int, variant: str = "standard", wall_cost: int = 6) -> Optimum:
    """The best score over every wall set of at most ``budget`` walls on grass, and how many reach it.

    Args:
        rows: the map's rows, equal lengths.
        budget: walls allowed.
        variant: ``standard``, ``costlywalls``, ``lovebirds`` or ``loversquarrel``.
        wall_cost: points per wall under ``costlywalls``.
    """
    height, width = len(rows), len(rows[0])
    cells = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
    twins: dict[str, list[tuple[int, int]]] = {}
    for rc, ch in cells.items():
        if ch not in VALUE and ch != WATER:
            twins.setdefault(ch, []).append(rc)
    grass = sorted(rc for rc, ch in cells.items() if ch == ".")

    def pen(start: tuple[int, int], walls: frozenset) -> set | None:
        seen, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            if r in (0, height - 1) or c in (0, width - 1):
                return None  # it escapes
            steps = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            steps += [t for t in twins.get(cells[r, c], ()) if t != (r, c)]
            for nxt in steps:
                if nxt not in seen and cells[nxt] != WATER and nxt not in walls:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def score(area: set) -> int:
        return sum(VALUE.get(cells[rc], 1) for rc in area)

    animals = {ch: [rc for rc, x in cells.items() if x == ch] for ch in "HU"}
    best, count = None, 0
    for k in range(min(budget, len(grass)) + 1):
        for chosen in combinations(grass, k):
            walls = frozenset(chosen)
            horse = pen(animals["H"][0], walls)
            if horse is None:
                continue
            total = score(horse)
            if variant == "costlywalls":
                total -= wall_cost * k
            elif variant == "lovebirds":
                if animals["U"][0] not in horse:
                    continue
            elif variant == "loversquarrel":
                unicorn = pen(animals["U"][0], walls)
                if unicorn is None or unicorn & horse:
                    continue
                total += score(unicorn)
            if best is None or total > best:
                best, count = total, 1
            elif total == best:
                count += 1
    return Optimum(best, count)
