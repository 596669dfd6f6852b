"""The enclose.horse plug-in: its rules, checked by breadth-first search, and its drawing.

The verifier is written from the game's rules (https://enclose.horse, and
the legend of the game's own map strings documented with the data set),
independently of any ``.grid`` spec and of the IR:

* ``.`` grass (1 point), ``~`` water (impassable), ``H`` horse (1),
  ``C`` cherries (4), ``G`` golden apple (11), ``S`` bees (-4),
  ``U`` unicorn (1), any other character a portal (1); the two portals with
  the same character are joined.
* Walls may stand on grass only, at most ``budget`` of them.
* The horse moves to side-adjacent tiles that are neither water nor wall,
  and from a portal to its twin. If it can reach a tile on the border of the
  map it escapes; otherwise its enclosure is every tile it can reach and the
  score is the sum of their values.

Variants (the game's bonus rounds):

* ``costlywalls``: every wall placed costs 6 points, the game's price, or
  what the spec's parameter ``wall_cost`` says when it declares one: the
  price is the spec's to choose (``--wall_cost 2``), the rest is the game's.
* ``lovebirds``: the unicorn must be in the horse's enclosure; the score is
  that enclosure's value.
* ``loversquarrel``: horse and unicorn must both be enclosed, in two
  enclosures that share no tile; the score is the sum of both.

The status line adds ``walls N/budget``; ``--json`` adds
``"horse": {"walls": [[row, col], ...], "budget": N}`` (0-based, row 0 at
the top; ``walls`` is null when there is no answer).

Pictures are drawn in the game's colours (:mod:`.horse_draw`), and maps
are read off the game's screenshots with the cells of its screenshots in
``gridlang/data/horse_colours.json`` (:mod:`gridlang.formats.screens.imaging`; rebuilt by
``gridlang calibrate-image``).
"""

from __future__ import annotations

import json
from collections import deque
from typing import TYPE_CHECKING

from gridlang.core.grid import Grid, cell_name
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

if TYPE_CHECKING:
    from gridlang.formats.screens.picture import Budget
    from gridlang.ir.model import Model
    from gridlang.pictures.draw import Style

VALUES = {".": 1, "H": 1, "C": 4, "G": 11, "S": -4, "U": 1}
WATER = "~"
GRASS = "."
WALL_COST = {"costlywalls": 6}
VARIANTS = ("standard", "costlywalls", "lovebirds", "loversquarrel")
TILE_NAMES = {"~": "water", ".": "grass", "H": "horse", "C": "cherry", "G": "golden apple", "S": "bees",
              "U": "unicorn"}
CALIBRATION = "horse_colours.json"
"""The screenshot calibration, a resource of :mod:`gridlang.data`."""


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check walls against the enclose.horse rules and score them.

    Args:
        grid: the map; only its characters and size are read.
        solution: the decoded answer; its Boolean decisions' true cells are
            the walls.
        params: ``budget`` (walls) is read, and under ``costlywalls``
            ``wall_cost`` (points per wall; :data:`WALL_COST` when absent).
        variant: one of :data:`VARIANTS` (None means ``standard``).

    Returns:
        The verdict, with ``details`` holding ``walls`` (``[row, col]``
        pairs), ``enclosure`` (cell indices per animal) and ``budget``.
    """
    variant = variant or "standard"
    rows, cols = grid.rows, grid.cols
    chars = list(grid.chars)
    problems: list[str] = []
    if variant not in VARIANTS:
        return Verdict(False, None, [f"unknown enclose.horse variant {variant!r}"], "enclose.horse")
    walls = wall_cells(solution)
    for c in walls:
        if chars[c] != GRASS:
            problems.append(f"a wall stands on {chars[c]!r} at {cell_name(*divmod(c, cols))}, not on grass")
    budget = params.get("budget")
    if isinstance(budget, int) and len(walls) > budget:
        problems.append(f"{len(walls)} walls exceed the budget of {budget}")
    blocked = set(walls)
    twins = _portal_twins(chars)

    def flood(start: int) -> tuple[set[int], int | None]:
        seen, queue, escape = {start}, deque([start]), None
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            if escape is None and (r in (0, rows - 1) or c in (0, cols - 1)):
                escape = u
            steps = []
            if r > 0:
                steps.append(u - cols)
            if r < rows - 1:
                steps.append(u + cols)
            if c > 0:
                steps.append(u - 1)
            if c < cols - 1:
                steps.append(u + 1)
            steps.extend(twins.get(u, ()))
            for v in steps:
                if v not in seen and chars[v] != WATER and v not in blocked:
                    seen.add(v)
                    queue.append(v)
        return seen, escape

    def value(cells: set[int]) -> int:
        return sum(VALUES.get(chars[c], 1) for c in cells)

    animals = ["H"] + (["U"] if variant in ("lovebirds", "loversquarrel") else [])
    enclosures: dict[str, set[int]] = {}
    for animal in animals:
        found = [i for i, ch in enumerate(chars) if ch == animal]
        if len(found) != 1:
            problems.append(f"the map has {len(found)} {animal!r} tiles; the rules need exactly one")
            continue
        reach, escape = flood(found[0])
        if escape is not None:
            problems.append(f"the {'horse' if animal == 'H' else 'unicorn'} at {cell_name(*divmod(found[0], cols))} "
                            f"reaches the border at {cell_name(*divmod(escape, cols))}")
        enclosures[animal] = reach
    score = None
    if "H" in enclosures:
        score = value(enclosures["H"])
        if variant == "lovebirds" and "U" in enclosures and not enclosures["H"] & {
                i for i, ch in enumerate(chars) if ch == "U"}:
            problems.append("the unicorn is not in the horse's enclosure")
        if variant == "loversquarrel" and "U" in enclosures:
            if enclosures["H"] & enclosures["U"]:
                problems.append("the horse and the unicorn share an enclosure")
            else:
                score += value(enclosures["U"])
        score -= wall_cost(params, variant) * len(walls)
    details = {
        "walls": [list(divmod(c, cols)) for c in walls],
        "budget": budget,
        "enclosure": {k: sorted(v) for k, v in enclosures.items()},
        "variant": variant,
    }
    return Verdict(not problems, score, problems, "enclose.horse", details)


def wall_cost(params: dict[str, object], variant: str) -> int:
    """Points each wall costs: the spec's ``wall_cost`` under ``costlywalls`` when it
    declares one (an integer), else the game's price (:data:`WALL_COST`, 0 for the other variants)."""
    given = params.get("wall_cost")
    if variant in WALL_COST and isinstance(given, int) and not isinstance(given, bool):
        return given
    return WALL_COST.get(variant, 0)


def wall_cells(solution: Solution) -> list[int]:
    """The cells where the answer places a wall: every true Boolean decision, ascending."""
    return sorted({c for name in solution.decisions for c in solution.true_cells(name)})


def _portal_twins(chars: list[str]) -> dict[int, tuple[int, ...]]:
    where: dict[str, list[int]] = {}
    for i, ch in enumerate(chars):
        if ch not in VALUES and ch != WATER:
            where.setdefault(ch, []).append(i)
    twins: dict[int, tuple[int, ...]] = {}
    for cells in where.values():
        for c in cells:
            twins[c] = tuple(o for o in cells if o != c)
    return twins


def render(grid: Grid, solution: Solution) -> str:
    """The map with walls as ``#`` and enclosed grass as ``o``.

    Returns:
        ``rows`` lines joined by newlines.
    """
    walls = set(wall_cells(solution))
    inside = set().union(*solution.regions.values()) if solution.regions else set()
    out = []
    for r in range(grid.rows):
        line = []
        for c in range(grid.cols):
            i = r * grid.cols + c
            ch = grid.chars[i]
            if i in walls:
                ch = "#"
            elif i in inside and ch == GRASS:
                ch = "o"
            line.append(ch)
        out.append("".join(line))
    return "\n".join(out)


class HorsePlugin(Plugin):
    """The enclose.horse hooks: rules, drawing, wall count and JSON walls."""

    name = "horse"

    def verify(self, grid: Grid, solution: Solution, params: dict[str, object],
               variant: str | None = None) -> Verdict:
        return verify(grid, solution, params, variant)

    def render(self, grid: Grid, solution: Solution) -> str:
        return render(grid, solution)

    def summary(self, model: Model, solution: Solution) -> list[str]:
        """``walls N/budget`` when the spec has a ``budget`` parameter, else nothing."""
        budget = model.params.get("budget")
        if budget is None:
            return []
        return [f"walls {len(wall_cells(solution))}/{budget}"]

    def extras(self, model: Model, solution: Solution | None) -> dict[str, object]:
        """``walls`` as ``[row, col]`` pairs (None without an answer) and
        ``budget`` (None when the spec declares none)."""
        walls = None if solution is None else [list(divmod(c, model.grid.cols)) for c in wall_cells(solution)]
        return {"walls": walls, "budget": model.params.get("budget")}

    def style(self, grid: Grid, solution: Solution | None = None) -> Style:
        """The game's look: water, grass, fruit, bees, portals in their pair's colour,
        walls as timber, the pen shaded (:mod:`.horse_draw`)."""
        # imported on use, not at start-up
        from gridlang.families.horse_draw import style

        return style(grid, solution)

    def read_image(self, path: str, calibration: str | None = None, budget: Budget | None = None) -> list[str]:
        """The map of a screenshot of the game, portals labelled by colour (:mod:`gridlang.formats.screens.imaging`)."""
        # imported on use, not at start-up
        from gridlang.formats.screens.imaging import calibration_from_json, load_calibration, read_picture

        if calibration is not None:
            cal = load_calibration(calibration)
        else:
            from importlib import resources

            text = resources.files("gridlang.data").joinpath(CALIBRATION).read_text(encoding="utf-8")
            cal = calibration_from_json(json.loads(text), f"gridlang/data/{CALIBRATION}")
        return read_picture(path, cal, budget)

    def calibrate_image(self, pairs: list[tuple[str, list[str]]]) -> dict:
        """Every character but the game's own tiles is a portal, one colour per pair."""
        # imported on use, not at start-up
        from gridlang.formats.screens.imaging import calibrate

        cal = calibrate(pairs, lambda ch: TILE_NAMES.get(ch, "portal"), lambda ch: ch not in TILE_NAMES)
        return cal.to_json()


PLUGIN = HorsePlugin()
