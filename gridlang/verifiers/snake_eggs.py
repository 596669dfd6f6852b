"""The Snake Eggs rules, checked by breadth-first search over the grid.

Written from the puzzle's published rules, independently of any ``.grid``
spec and of the IR (sources: Serkan Yurekli's "Snake Egg" on Grandmaster
Puzzles; puzz.link / pzprjs ``snakeegg``; V. Jandhyala, *Solving Puzzles
through Mathematical Programming*, ch. 32; Harris & Forbes, INFORMS
Transactions on Education 23(3), 2023; collected with their fine print in
``tests/data/snake_eggs/README.md``):

* The snake S is one simple orthogonal path between the two circled cells:
  each circled cell is in S with exactly one orthogonal neighbour in S,
  every other cell of S has exactly two, and S is connected. (So S never
  touches itself side by side; diagonal contact is allowed.)
* The cells off the snake split into orthogonally connected components, the
  eggs; the multiset of their sizes equals the size list (``sizes``).
* A number clue k stands on a cell off the snake whose egg has k cells.

Map characters: ``o`` a circled end, ``1``-``9`` and ``A``-``Z`` (or
``a``-``z`` other than ``o``) a clue of that base-36 value, anything else an
unknown cell. The answer is read from the solution's enumerated decision:
each cell's value is ``snake`` or an egg size; the size labels must agree
with the component each cell lies in.
"""

from __future__ import annotations

from collections import Counter, deque

from ..grid import Grid
from ..solution import Solution
from . import Verdict

END = "o"
SNAKE = "snake"
NAME = "Snake Eggs"


def clue_value(ch: str) -> int | None:
    """The egg size a map character announces, or None when it is no clue."""
    if ch == END or not ch.isalnum() or not ch.isascii():
        return None
    value = int(ch, 36)
    return value if value > 0 else None


def _neighbours(rows: int, cols: int, i: int) -> list[int]:
    r, c = divmod(i, cols)
    out = []
    if r > 0:
        out.append(i - cols)
    if r < rows - 1:
        out.append(i + cols)
    if c > 0:
        out.append(i - 1)
    if c < cols - 1:
        out.append(i + 1)
    return out


def _components(rows: int, cols: int, cells: set[int]) -> list[list[int]]:
    seen: set[int] = set()
    comps = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        comp, queue = [start], deque([start])
        while queue:
            u = queue.popleft()
            for v in _neighbours(rows, cols, u):
                if v in cells and v not in seen:
                    seen.add(v)
                    comp.append(v)
                    queue.append(v)
        comps.append(sorted(comp))
    return comps


def labels(grid: Grid, solution: Solution) -> dict[int, object]:
    """Each cell's value (``"snake"`` or a size) from the solution's enumerated decision."""
    for values in solution.decisions.values():
        if any(v == SNAKE for v in values.values()):
            return dict(values)
    for values in solution.decisions.values():
        if values and not all(v is True for v in values.values()):
            return dict(values)
    return {}


def verify(grid: Grid, solution: Solution, params: dict[str, object], variant: str | None = None) -> Verdict:
    """Check a Snake Eggs answer against the rules.

    Args:
        grid: the instance; only its characters and size are read (4-neighbours,
            whatever links the grid may carry).
        solution: the decoded answer; its enumerated decision gives each cell
            ``"snake"`` or an egg size.
        params: ``sizes`` (a tuple of ints, a multiset) is read.
        variant: unused (no variants).

    Returns:
        The verdict (score None); ``details`` holds ``snake`` (the path as
        ``[row, col]`` from one end to the other), ``snake_length`` (cells)
        and ``eggs`` (sorted sizes).
    """
    rows, cols = grid.rows, grid.cols
    n = rows * cols
    chars = grid.chars
    problems: list[str] = []
    label = labels(grid, solution)
    missing = [i for i in range(n) if i not in label]
    if missing:
        problems.append(f"{len(missing)} cells have no value, first {divmod(missing[0], cols)}")
    snake = {i for i in range(n) if label.get(i) == SNAKE}
    ends = [i for i in range(n) if chars[i] == END]
    if len(ends) != 2:
        problems.append(f"the grid has {len(ends)} circled ends; the rules need exactly 2")
    degree = {i: sum(1 for v in _neighbours(rows, cols, i) if v in snake) for i in snake}
    for e in ends:
        if e not in snake:
            problems.append(f"the circled cell {divmod(e, cols)} is not on the snake")
        elif degree[e] != 1:
            problems.append(f"the circled cell {divmod(e, cols)} has {degree[e]} snake neighbours, not 1")
    for i in sorted(snake):
        if i not in ends and degree[i] != 2:
            problems.append(f"snake cell {divmod(i, cols)} has {degree[i]} snake neighbours, not 2")
    snake_comps = _components(rows, cols, snake)
    if len(snake_comps) != 1:
        problems.append(f"the snake falls into {len(snake_comps)} pieces")
    if len(snake) < 2:
        problems.append(f"the snake has {len(snake)} cells; it needs at least 2")
    eggs = _components(rows, cols, set(range(n)) - snake)
    size_of = {i: len(comp) for comp in eggs for i in comp}
    sizes = params.get("sizes")
    expected = sorted(sizes) if isinstance(sizes, (tuple, list)) else None
    found = sorted(len(comp) for comp in eggs)
    if expected is not None and found != expected:
        extra = Counter(found) - Counter(expected)
        lacking = Counter(expected) - Counter(found)
        problems.append(f"egg sizes are {found}, not {expected}"
                        + (f" (extra {sorted(extra.elements())})" if extra else "")
                        + (f" (missing {sorted(lacking.elements())})" if lacking else ""))
    for i in range(n):
        if i in snake:
            continue
        if label.get(i) != size_of[i] and i in label:
            problems.append(f"cell {divmod(i, cols)} is labelled {label.get(i)!r} but its egg has {size_of[i]} cells")
            break
    for i, ch in enumerate(chars):
        k = clue_value(ch)
        if k is None:
            continue
        if i in snake:
            problems.append(f"clue {ch!r} at {divmod(i, cols)} is on the snake")
        elif size_of[i] != k:
            problems.append(f"clue {ch!r} at {divmod(i, cols)} lies in an egg of {size_of[i]} cells, not {k}")
    details = {
        "snake": [list(divmod(i, cols)) for i in _walk(rows, cols, snake, ends)],
        "snake_length": len(snake),
        "eggs": found,
    }
    return Verdict(not problems, None, problems, NAME, details)


def _walk(rows: int, cols: int, snake: set[int], ends: list[int]) -> list[int]:
    """The snake's cells in order from the first end (as far as the path goes)."""
    if not ends or ends[0] not in snake:
        return sorted(snake)
    path, prev, cur = [ends[0]], None, ends[0]
    while True:
        nxt = [v for v in _neighbours(rows, cols, cur) if v in snake and v != prev and v not in path]
        if len(nxt) != 1:
            return path
        prev, cur = cur, nxt[0]
        path.append(cur)


_GLYPH = {  # (up, down, left, right) -> box-drawing character
    (True, True, False, False): "│", (False, False, True, True): "─",
    (False, True, False, True): "┌", (False, True, True, False): "┐",
    (True, False, False, True): "└", (True, False, True, False): "┘",
}


def render(grid: Grid, solution: Solution) -> str:
    """The grid with the snake drawn as a line and each egg cell showing its size.

    Circled ends are ``o``; snake cells are box-drawing strokes joined through
    the gaps between cells; egg cells show their egg's size (``A`` = 10...),
    clue cells in brackets-free upper case as on the map. Cells without a
    value show ``?``.

    Returns:
        ``rows`` lines joined by newlines, two characters per cell.
    """
    rows, cols = grid.rows, grid.cols
    label = labels(grid, solution)
    snake = {i for i, v in label.items() if v == SNAKE}
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            i = r * cols + c
            if i in snake:
                up, down = r > 0 and i - cols in snake, r < rows - 1 and i + cols in snake
                left, right = c > 0 and i - 1 in snake, c < cols - 1 and i + 1 in snake
                ch = "o" if grid.chars[i] == END else _GLYPH.get((up, down, left, right), "#")
            elif i in label:
                v = label[i]
                ch = _digit(v) if isinstance(v, int) else "?"
            else:
                ch = "?"
            line.append(ch)
            if c < cols - 1:
                joined = i in snake and i + 1 in snake
                line.append("─" if joined else " ")
        out.append("".join(line))
    return "\n".join(out)


def _digit(v: int) -> str:
    if 0 <= v < 10:
        return str(v)
    if v < 36:
        return chr(ord("A") + v - 10)
    return "*"
