"""The Snake Eggs plug-in: its rules, its JSON instance record and its drawing.

The verifier is written from the puzzle's published rules, independently of any ``.grid``
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

Instances come as text (``sizes: 1..5`` above the grid, read by the generic
map reader) or as the JSON record of ``tests/data/snake_eggs``, read here
(:func:`read_record`): ``{"rows": R, "cols": C, "egg_sizes": [...],
"head": [r, c], "tail": [r, c], "clues": [{"cell": [r, c], "egg": k},
...]}``, told apart by its ``rows``/``cols``/``egg_sizes`` keys and turned
into the text format's rows (:func:`snake_eggs_rows`); the sizes become the
parameter ``sizes``. Errors point at the record's entry.

``--json`` adds ``"snake_eggs": {"snake": [[row, col], ...], "eggs":
[sizes]}``, the snake from one circled end to the other (null without an
answer).

Pictures (``--svg``, ``--png``) draw the snake as a green line through its
cells from one circled end to the other, and each egg tinted by its size,
outlined, with its size in every cell but the clue's.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from gridlang.core.errors import MapError, Span, load_json
from gridlang.core.grid import Grid, cell_name
from gridlang.core.limits import MAX_CELLS, MAX_COLS, MAX_ROWS
from gridlang.families.common import pieces, side_neighbours
from gridlang.formats.maps import MapData
from gridlang.formats.textmaps import json_item_spans, json_key_span
from gridlang.ir.solution import Solution
from gridlang.plugins import Plugin, Verdict

if TYPE_CHECKING:
    from gridlang.ir.model import Model
    from gridlang.pictures.draw import Style

END = "o"
UNKNOWN = "."
SNAKE = "snake"
NAME = "Snake Eggs"


def clue_value(ch: str) -> int | None:
    """The egg size a map character announces, or None when it is no clue."""
    if ch == END or not ch.isalnum() or not ch.isascii():
        return None
    value = int(ch, 36)
    return value if value > 0 else None


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
        problems.append(f"{len(missing)} cells have no value, the first at {cell_name(*divmod(missing[0], cols))}")
    snake = {i for i in range(n) if label.get(i) == SNAKE}
    ends = [i for i in range(n) if chars[i] == END]
    if len(ends) != 2:
        problems.append(f"the grid has {len(ends)} circled ends; the rules need exactly 2")
    degree = {i: sum(1 for v in side_neighbours(rows, cols, i) if v in snake) for i in snake}
    for e in ends:
        if e not in snake:
            problems.append(f"the circled cell at {cell_name(*divmod(e, cols))} is not on the snake")
        elif degree[e] != 1:
            problems.append(f"the circled cell at {cell_name(*divmod(e, cols))} has {degree[e]} snake neighbours, not 1")
    for i in sorted(snake):
        if i not in ends and degree[i] != 2:
            problems.append(f"the snake cell at {cell_name(*divmod(i, cols))} has {degree[i]} snake neighbours, not 2")
    snake_comps = pieces(rows, cols, snake)
    if len(snake_comps) != 1:
        problems.append(f"the snake falls into {len(snake_comps)} pieces")
    if len(snake) < 2:
        problems.append(f"the snake has {len(snake)} cells; it needs at least 2")
    eggs = pieces(rows, cols, set(range(n)) - snake)
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
            problems.append(f"the cell at {cell_name(*divmod(i, cols))} is labelled {label.get(i)!r} but its egg has {size_of[i]} cells")
            break
    for i, ch in enumerate(chars):
        k = clue_value(ch)
        if k is None:
            continue
        if i in snake:
            problems.append(f"clue {ch!r} at {cell_name(*divmod(i, cols))} is on the snake")
        elif size_of[i] != k:
            problems.append(f"clue {ch!r} at {cell_name(*divmod(i, cols))} lies in an egg of {size_of[i]} cells, not {k}")
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
        nxt = [v for v in side_neighbours(rows, cols, cur) if v in snake and v != prev and v not in path]
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


# ---------------------------------------------------------------- the JSON record

def snake_eggs_char(size: int) -> str:
    """The clue character for an egg size: ``1``-``9``, then ``A`` (10) to ``Z`` (35).

    Raises:
        ValueError: the size is below 1 or above 35.
    """
    if 1 <= size <= 9:
        return str(size)
    if 10 <= size <= 35:
        return chr(ord("A") + size - 10)
    raise ValueError(f"no clue character for an egg of size {size} (1 to 35 can be written)")


def snake_eggs_rows(record: dict) -> list[str]:
    """The text-format grid rows of a Snake Eggs JSON record (no checks; see :func:`read_record`).

    Returns:
        ``record["rows"]`` strings of ``record["cols"]`` characters: ``.``
        unknown, ``o`` a circled end, a clue character per :func:`snake_eggs_char`.
    """
    grid = [[UNKNOWN] * record["cols"] for _ in range(record["rows"])]
    for key in ("head", "tail"):
        if record.get(key) is not None:
            r, c = record[key]
            grid[r][c] = END
    for clue in record.get("clues") or []:
        r, c = clue["cell"]
        grid[r][c] = snake_eggs_char(clue["egg"])
    return ["".join(row) for row in grid]


def is_record(text: str) -> bool:
    """Whether ``text`` is a Snake Eggs JSON record: an object with ``rows``,
    ``cols`` and ``egg_sizes`` and no ``map`` (malformed JSON is not one)."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # malformed, an integer of thousands of digits, nested too deep
        return False
    return isinstance(record, dict) and "map" not in record and {"rows", "cols", "egg_sizes"} <= set(record)


def read_record(path: str, text: str) -> MapData:
    """Read a Snake Eggs JSON record as a map (see the module docstring).

    Args:
        path: the file as the user named it.
        text: its text, a record (:func:`is_record`).

    Returns:
        The grid rows, each cell located at the record entry that set it
        (head, tail, a clue; ``"rows"`` for unknown cells), and the parameter
        ``sizes`` located at ``"egg_sizes"``.

    Raises:
        MapError: ``rows``/``cols`` not positive integers, ``egg_sizes`` not a
            list of integers, a cell outside the grid or not ``[r, c]``, a clue
            on a circled end, two clues on one cell, an egg size with no clue
            character; located at the entry.
    """
    record = load_json(text, path, MapError, "map")

    def fail(message: str, span: Span) -> MapError:
        return MapError(message, span, source=text)

    def key_span(key: str) -> Span:
        return json_key_span(path, text, key)

    for key in ("rows", "cols"):
        v = record[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise fail(f'"{key}" must be a positive integer, not {v!r}', key_span(key))
    rows, cols = record["rows"], record["cols"]
    if rows > MAX_ROWS or cols > MAX_COLS or rows * cols > MAX_CELLS:
        raise fail(f"the grid has {rows:,} rows of {cols:,} cells; a map has at most {MAX_ROWS:,} rows, "
                   f"{MAX_COLS:,} columns and {MAX_CELLS:,} cells",
                   key_span("rows" if rows > MAX_ROWS else "cols"))
    sizes = record["egg_sizes"]
    if not isinstance(sizes, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in sizes):
        raise fail('"egg_sizes" must be a list of integers', key_span("egg_sizes"))
    rows_span = key_span("rows")
    spans = [[rows_span] * cols for _ in range(rows)]

    def cell_of(value, span: Span, what: str) -> tuple[int, int]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            raise fail(f"{what} must be a cell [row, col], not {value!r}", span)
        r, c = value
        if not (0 <= r < rows and 0 <= c < cols):
            raise fail(f"{what} {value} lies outside the {rows}x{cols} grid (rows and columns count from 0)", span)
        return r, c

    given: dict[tuple[int, int], str] = {}
    for key in ("head", "tail"):
        if record.get(key) is None:
            continue
        span = key_span(key)
        rc = cell_of(record[key], span, f'"{key}"')
        if rc in given:
            raise fail(f'"{key}" {list(rc)} is the same cell as "{given[rc]}"', span)
        given[rc] = key
        spans[rc[0]][rc[1]] = span
    clues = record.get("clues") or []
    if not isinstance(clues, list):
        raise fail('"clues" must be a list of {"cell": [r, c], "egg": k}', key_span("clues"))
    clue_spans = json_item_spans(path, text, "clues", len(clues))
    seen: dict[tuple[int, int], int] = {}
    for j, clue in enumerate(clues):
        span = clue_spans[j]
        if not isinstance(clue, dict) or "cell" not in clue or "egg" not in clue:
            raise fail('a clue is {"cell": [r, c], "egg": k}', span)
        rc = cell_of(clue["cell"], span, "clue cell")
        k = clue["egg"]
        if not isinstance(k, int) or isinstance(k, bool):
            raise fail(f"the clue's egg size must be an integer, not {k!r}", span)
        if rc in given:
            raise fail(f"clue {k} at {list(rc)} stands on the circled end (\"{given[rc]}\"); "
                       f"a clue cell is never on the snake", span)
        if rc in seen and seen[rc] != k:
            raise fail(f"two clues at {list(rc)}: {seen[rc]} and {k}", span)
        try:
            snake_eggs_char(k)
        except ValueError as e:
            raise fail(str(e), span) from e
        seen[rc] = k
        spans[rc[0]][rc[1]] = span
    grid_rows = snake_eggs_rows(record)
    params = {"sizes": (",".join(str(k) for k in sizes), key_span("egg_sizes"))}
    positions = [(rows_span.line, rows_span.column)] * rows
    return MapData(path, text, grid_rows, positions, params, spans)


# ---------------------------------------------------------------- pictures

SNAKE_GREEN = (46, 125, 50)
EGG_TINTS = ("#fde2b8", "#d9ecf9", "#e6dcf5", "#fbd5d5", "#dff2d8", "#fff3b0", "#d5f0ec", "#f6dced",
             "#e8e0d0", "#cfe3f2", "#f2e6c9", "#dde8c6")
INK = (33, 33, 33)


def style(grid: Grid, solution: Solution | None = None) -> Style:
    """White paper, the clues in bold, circled ends ringed in the snake's green;
    the snake a line, the eggs tinted by size (twelve tints in turn) and outlined."""
    # imported on use, not at start-up
    from gridlang.pictures.draw import MarkStyle, Style, TileStyle

    marks: dict[str, MarkStyle] = {}
    sizes: set[int] = set()
    for name, values in (solution.decisions.items() if solution else ()):
        if any(v == SNAKE for v in values.values()):
            marks[name] = MarkStyle("label", (120, 120, 120), outline=INK)
            marks[f"{name}={SNAKE}"] = MarkStyle("path", SNAKE_GREEN, width=0.3)
            sizes |= {v for v in values.values() if isinstance(v, int)}
    chars = {END: TileStyle("#ffffff", "ring", SNAKE_GREEN), UNKNOWN: TileStyle("#ffffff")}
    for ch in set(grid.chars) - set(chars):
        chars[ch] = TileStyle("#ffffff", "char", INK)
    return Style(background="#ffffff", frame=0.25, grid="#c8c8c8", grid_width=0, chars=chars, marks=marks,
                 value_fill={k: EGG_TINTS[n % len(EGG_TINTS)] for n, k in enumerate(sorted(sizes))})


# ---------------------------------------------------------------- the plug-in

class SnakeEggsPlugin(Plugin):
    """The Snake Eggs hooks: rules, drawing, the JSON record, the snake in ``--json``."""

    name = "snake_eggs"

    def verify(self, grid: Grid, solution: Solution, params: dict[str, object],
               variant: str | None = None) -> Verdict:
        return verify(grid, solution, params, variant)

    def render(self, grid: Grid, solution: Solution) -> str:
        return render(grid, solution)

    def read_map(self, path: str, text: str) -> MapData | None:
        return read_record(path, text) if is_record(text) else None

    def style(self, grid: Grid, solution: Solution | None = None) -> Style:
        return style(grid, solution)

    def extras(self, model: Model, solution: Solution | None) -> dict[str, object]:
        """``snake`` (``[row, col]`` from one end to the other) and ``eggs``
        (sorted sizes); both None without an answer."""
        if solution is None:
            return {"snake": None, "eggs": None}
        details = verify(model.grid, solution, dict(model.params)).details
        return {"snake": details["snake"], "eggs": details["eggs"]}


PLUGIN = SnakeEggsPlugin()
