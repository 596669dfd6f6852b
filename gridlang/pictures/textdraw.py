"""An answer drawn as text, from the same looks as the pictures (:mod:`gridlang.language.looks`).

Each cell shows one token, all tokens right-aligned to the widest:

* a tile by its look: its text for ``number`` and ``char`` (``.`` for an
  empty cell) and for ``arrow``, ``hollow_arrow``, ``tip``, ``dot`` and the
  kanji looks (``arrow`` writes a number 1 to 4 as ``^ v < >``), ``#``, its
  number or its arrow's character for ``block``, ``○`` and ``●`` (or the
  number inside) for ``circle`` and ``disc``, ``x`` for ``cross``, a blank
  for ``frame``, ``DOWN\\ACROSS`` for ``split`` (``12\\7``, a 0 left out), the number for
  ``corner`` (an answer's value on the cell replaces it),
  the map's character for ``default``;
* over it, a decision on cells by its look: ``#`` for ``shade`` (``#2``
  when the cell shows a number), ``*`` star, ``o`` bulb, ``^`` tent, ``·``
  dot, ``x`` cross, ``○`` circle, ``●`` disc and a black stone, the value
  for ``number``, ``A``, ``B``, ... for ``letters``, ``^ v < >`` for
  ``arrows`` (1 to 4), the value (or its
  first letters) for ``tint`` and ``default``; ``#`` for a Boolean decision
  by default.

Then one of five layouts:

* a decision on the edges between cells drawn as ``line`` or ``bridges``:
  box-drawing characters through the cells and in the gaps between them
  (``─ │ ┌ ┐ └ ┘``, a dead end ``╴ ╶ ╵ ╷``, ``·`` for a cell no line
  visits; ``═ ║`` for an edge of value 2), and the edges of a decision
  drawn as ``walls`` as ``|`` and ``-`` where no line crosses, ``2R - 1``
  lines;
* a decision on corner edges drawn as ``line``: the lattice of corners
  (``·`` where no line meets) with the line along it and each cell's token
  between, ``2R + 1`` lines;
* a map with clues on the corners of the cells (a ``corners:`` layer): a
  line of corners (each clue, ``+`` for a corner without one) above,
  between and below the lines of cells, each cell's token under the gap
  between its two top corners, ``2R + 1`` lines;
* a map with clues on the borders between cells (a ``borders:`` layer):
  each line of cells with the tokens of the borders between them in the
  gaps (blank where the map's is ``.``), and under it a line of the tokens
  of the borders below its cells, ``2R - 1`` lines;
* otherwise the cells in a frame of ``+ - |``, rooms (the room layer,
  blocks drawn as rooms, areas of equal values, walls) outlined: ``|``
  between side-by-side cells of different rooms, a line of ``-`` under
  cells whose lower neighbour is in another room; without rooms, the tokens
  separated by spaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridlang.core.grid import Grid
from gridlang.language.looks import (
    ARROW_CHARS,
    DIRECTION_NAMES,
    TRIANGLE_VALUES,
    Looks,
    arrow_char,
    figures,
    letter,
    of_model,
    symbol,
)
from gridlang.pictures.glyphs import KANJI, has_figures
from gridlang.plugins import find_plugin

if TYPE_CHECKING:
    from gridlang.ir.solution import Solution

Edge = tuple[tuple[int, int], tuple[int, int]]

_GLYPH = {  # (up, right, down, left) -> character
    (0, 0, 0, 0): "·", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴",
    (1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└",
    (1, 0, 0, 1): "┘", (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼",
}

_MARKS = {"shade": "#", "star": "*", "bulb": "o", "tent": "^", "dot": "·", "cross": "x", "circle": "○",
          "disc": "●", "stones": "●", "tint": "+", "default": "#"}


def tile_text(look: str, text: str) -> str:
    """A cell's token from its tile's look and its map text."""
    if look in ("number", "char", "default", "corner", "tree", "hollow_arrow", "tip", "dot", "star") or look in KANJI:
        return text
    if look == "symbols":
        return symbol(text) or "."
    if look == "arrow":
        return arrow_char(text) or text
    if look == "letters":
        return (letter(int(text)) or text) if text.isdigit() else text
    if look == "block":
        return text if has_figures(text) or text in ARROW_CHARS else "#"
    if look in ("circle", "disc"):
        return text if has_figures(text) else "○" if look == "circle" else "●"
    if look == "cross":
        return "x"
    if look == "moon":
        return "☾"
    if look == "frame":
        return text if has_figures(text) else " "
    if look == "split":
        parts = [p if p not in ("0", "") else "" for p in text.split(",")] if has_figures(text) else []
        return "\\".join(parts) if len(parts) == 2 else "\\"
    return "."


def tokens(grid: Grid, solution: Solution, looks: Looks) -> list[str]:
    """Every cell's token: its tile's, with the decisions on cells over it (see the module docstring)."""
    out = [tile_text(looks.tile_look(grid, i), str(grid.chars[i])) for i in range(grid.size)]
    shown = [looks.tile_look(grid, i) not in ("plain", "frame", "cross", "corner")
             and has_figures(str(grid.chars[i]) if looks.tile_look(grid, i) == "letters" else out[i])
             for i in range(grid.size)]
    for name, values in solution.decisions.items():
        if name in looks.lattices:
            continue
        look = looks.decisions.get(name, "default")
        if look in ("hidden", "areas"):
            continue
        if name not in looks.valued:
            if look == "stones":
                for i in range(grid.size):
                    if not shown[i] and looks.tile_look(grid, i) not in ("block", "split"):
                        out[i] = "●" if values.get(i) is True else "○"
                continue
            mark = _MARKS.get(look, "#")
            for i, v in values.items():
                if v is True:
                    out[i] = mark + out[i] if mark == "#" and shown[i] else mark
            continue
        for i, v in values.items():
            if shown[i] or looks.tile_look(grid, i) in ("block", "split", "frame"):
                continue
            text = _value_text(look, v)
            if text:
                out[i] = text
    return out


def _value_text(look: str, v: object) -> str:
    """A value's token: its letter for ``letters``; nothing for a cell; else its text (two
    characters at most for a name)."""
    if look == "letters":
        return letter(v)
    if look == "symbols":
        return symbol(v)
    if look in ("arrows", "tips"):
        return arrow_char(v) if isinstance(v, int) or v in DIRECTION_NAMES else ""
    if isinstance(v, tuple):
        return ""
    if look == "slants":
        return v if v in ("/", "\\") else ""
    if look == "triangles":
        return v if v in TRIANGLE_VALUES else ""
    if look == "number":
        return figures(v)
    return str(v) if isinstance(v, int) else str(v)[:2]


def render(grid: Grid, solution: Solution, looks: Looks) -> str:
    """The answer as text (see the module docstring).

    Args:
        grid: the map.
        solution: the answer.
        looks: the spec's looks.

    Returns:
        Lines joined by newlines, without trailing spaces.
    """
    text = tokens(grid, solution, looks)
    for name, lattice in looks.lattices.items():
        look = looks.decisions.get(name, "line")
        values = {key: (1 if v is True else v) for key, v in solution.decisions.get(name, {}).items()
                  if v is True or type(v) is int and v > 0}
        if look in ("line", "bridges") and lattice == "edges":
            walls = {tuple(sorted(e)) for n, lat in looks.lattices.items() if lat == "edges"
                     and looks.decisions.get(n) == "walls" for e, v in solution.decisions.get(n, {}).items() if v}
            return between_cells(grid.rows, grid.cols, text, values, walls)
        if look == "line" and lattice == "corners":
            return on_corners(grid.rows, grid.cols, text, values)
    tiles = grid.corner_tiles or ("",) * len(grid.corner_chars)
    corners = tuple("." if looks.corners.get(t) == "plain" else ch for ch, t in zip(grid.corner_chars, tiles))
    if any(ch != "." for ch in corners):
        return with_corners(grid.rows, grid.cols, text, corners)
    if any(ch != "." for ch in grid.border_chars):
        return with_borders(grid.rows, grid.cols, text, grid.border_chars, _rooms(grid, solution, looks))
    return outlined(grid.rows, grid.cols, text, _rooms(grid, solution, looks))


def with_corners(rows: int, cols: int, text: list[str], corners: tuple[str, ...]) -> str:
    """The cells' tokens with what stands on the corners between them: a line of corners (``+`` where
    a corner holds nothing, ``.`` in the map) above, between and below the lines of cells, each cell
    under the gap between its two top corners."""
    width = max([len(t) for t in text] + [len(t) for t in corners])
    lines = []
    for r in range(rows + 1):
        marks = [("+" if tok == "." else tok).rjust(width) for tok in corners[r * (cols + 1):(r + 1) * (cols + 1)]]
        lines.append((" " * width).join(marks))
        if r < rows:
            lines.append(" " * width + (" " * width).join(t.rjust(width) for t in text[r * cols:(r + 1) * cols]))
    return "\n".join(line.rstrip() for line in lines)


def with_borders(rows: int, cols: int, text: list[str], borders: tuple[str, ...], rooms: list | None = None) -> str:
    """The cells' tokens with what stands on the borders between them (pzprjs's order of the borders: those
    inside each row, then those under each row): a border's token in the gap between its two cells, or
    under its upper cell on the line between two rows; for a border the map marks ``.``, ``|`` or ``-``
    where it divides two rooms (``rooms``: each cell's label, :func:`_rooms`), else a blank."""
    width = max([len(t) for t in text] + [len(t) for t in borders])
    across = rows * (cols - 1)

    def mark(tok: str, p: int, q: int, divider: str) -> str:
        if tok == ".":
            tok = divider if rooms is not None and rooms[p] != rooms[q] else " "
        return tok.rjust(width)

    lines = []
    for r in range(rows):
        row = [text[r * cols].rjust(width)]
        for c in range(1, cols):
            p = r * cols + c
            row += [mark(borders[r * (cols - 1) + c - 1], p - 1, p, "|"), text[p].rjust(width)]
        lines.append(" ".join(row))
        if r + 1 < rows:
            lines.append((" " * (width + 2)).join(mark(borders[across + r * cols + c], r * cols + c,
                                                       (r + 1) * cols + c, "-") for c in range(cols)))
    return "\n".join(line.rstrip() for line in lines)


def _rooms(grid: Grid, solution: Solution, looks: Looks) -> list | None:
    """Each cell's room as a label (a tuple: room layer, blocks, areas, walls), or None without rooms."""
    parts: list[list] = []
    if grid.rooms:
        parts.append(list(grid.rooms))
    outside = looks.outside(grid)
    inner = [i for i in range(grid.size) if i not in outside]
    if inner:
        r0, c0 = divmod(inner[0], grid.cols)
        for h, w in looks.blocks:
            parts.append([((i // grid.cols - r0) // h, (i % grid.cols - c0) // w) for i in range(grid.size)])
    for name, values in solution.decisions.items():
        look = looks.decisions.get(name)
        if look in ("areas", "blocks"):
            parts.append([values.get(i) for i in range(grid.size)])
        elif look == "walls" and looks.lattices.get(name) == "edges":
            parts.append(_divided(grid, values))
    if not parts:
        return None
    return [tuple(p[i] for p in parts) for i in range(grid.size)]


def _divided(grid: Grid, values: dict) -> list[int]:
    """Each cell's piece when the chosen edges are walls: cells joined across the edges not chosen."""
    walls = {tuple(sorted(key)) for key, v in values.items() if v is True or type(v) is int and v > 0}
    piece = [-1] * grid.size
    for start in range(grid.size):
        if piece[start] >= 0:
            continue
        piece[start] = start
        stack = [start]
        while stack:
            i = stack.pop()
            r, c = divmod(i, grid.cols)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                rr, cc = r + dr, c + dc
                j = rr * grid.cols + cc
                if 0 <= rr < grid.rows and 0 <= cc < grid.cols and piece[j] < 0 \
                        and tuple(sorted(((r, c), (rr, cc)))) not in walls:
                    piece[j] = start
                    stack.append(j)
    return piece


def outlined(rows: int, cols: int, text: list[str], room_of: list | None = None) -> str:
    """The tokens in rows, rooms outlined.

    Without rooms the tokens are separated by single spaces. With rooms a
    ``|`` stands between side-by-side cells of different rooms and a line of
    ``-`` under cells whose lower neighbour is in another room; the outer
    frame is drawn with ``+``, ``-`` and ``|``.

    Args:
        rows, cols: the grid's size.
        text: each cell's token, row-major.
        room_of: each cell's room label (any values compared with ``!=``), or None.
    """
    width = max((len(t) for t in text), default=1)
    if room_of is None:
        return "\n".join(" ".join(text[r * cols + c].rjust(width) for c in range(cols)).rstrip()
                         for r in range(rows))

    def apart_right(r: int, c: int) -> bool:
        return c == cols - 1 or room_of[r * cols + c] != room_of[r * cols + c + 1]

    def apart_below(r: int, c: int) -> bool:
        return r == rows - 1 or room_of[r * cols + c] != room_of[(r + 1) * cols + c]

    def rule(walls: list[bool], corners: list[str]) -> str:
        out = corners[0]
        for c in range(cols):
            out += ("-" if walls[c] else " ") * (width + 2) + corners[c + 1]
        return out

    def corner(across: bool, down: bool) -> str:
        return "+" if across and down else "-" if across else "|" if down else " "

    frame = rule([True] * cols, ["+"] * (cols + 1))
    lines = [frame]
    for r in range(rows):
        line = "|"
        for c in range(cols):
            line += " " + text[r * cols + c].rjust(width) + " " + ("|" if apart_right(r, c) else " ")
        lines.append(line)
        if r < rows - 1:
            walls = [apart_below(r, c) for c in range(cols)]
            corners = [corner(walls[0], True)]
            corners += [corner(walls[c] or walls[c + 1], apart_right(r, c) or apart_right(r + 1, c))
                        for c in range(cols - 1)]
            corners.append(corner(walls[-1], True))
            lines.append(rule(walls, corners))
    lines.append(frame)
    return "\n".join(lines)


def _sides(values: dict[Edge, int], r: int, c: int) -> tuple[int, int, int, int]:
    """The values of the edges leaving point or cell ``(r, c)``: up, right, down, left (0 for none)."""
    p = (r, c)
    return (values.get(((r - 1, c), p), 0), values.get((p, (r, c + 1)), 0), values.get((p, (r + 1, c)), 0),
            values.get(((r, c - 1), p), 0))


def between_cells(rows: int, cols: int, text: list[str], values: dict[Edge, int],
                  walls: set[Edge] | frozenset[Edge] = frozenset()) -> str:
    """Lines between cells in box-drawing characters (see the module docstring).

    A cell is ``W`` characters wide (the widest token): a token right-aligned,
    the line's shape in the middle column of a cell without one, and the arms
    of the line filling the rest; ``W = 1`` gives ``2C - 1`` characters a
    line. An edge of a decision drawn as ``walls`` (the outline of the
    pieces an answer makes) where no line crosses is ``|`` between two cells
    side by side and ``-`` under a cell above another.

    Args:
        rows, cols: the grid's size.
        text: each cell's token; ``.`` (and a blank) is a cell without a clue.
        values: each chosen edge (smaller end first) -> its value, 1 or 2.
        walls: the edges (smaller end first, cells as ``(row, col)``) drawn as walls.
    """
    values = {tuple(sorted(e)): v for e, v in values.items()}
    width = max((len(t) for t in text if t not in (".", " ")), default=1)
    mid = (width - 1) // 2

    def arm(v: int, single: str, double: str) -> str:
        return " " if not v else double if v == 2 else single

    lines = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            up, right, down, left = _sides(values, r, c)
            token = text[r * cols + c]
            if token in (".", " "):
                shape = (int(bool(up)), int(bool(right)), int(bool(down)), int(bool(left)))
                glyph = _GLYPH[shape]
                if shape == (0, 1, 0, 1) and left == right == 2:
                    glyph = "═"
                elif shape == (1, 0, 1, 0) and up == down == 2:
                    glyph = "║"
                cell = arm(left, "─", "═") * mid + glyph + arm(right, "─", "═") * (width - mid - 1)
            else:
                cell = token.rjust(width, "─" if left == 1 else "═" if left == 2 else " ")
            row += cell
            if c + 1 < cols:
                row += "|" if not right and ((r, c), (r, c + 1)) in walls else arm(right, "─", "═")
        lines.append(row)
        if r + 1 < rows:
            gaps = []
            for c in range(cols):
                down = _sides(values, r, c)[2]
                if not down and ((r, c), (r + 1, c)) in walls:
                    gaps.append("-" * width)
                else:
                    gaps.append(" " * mid + arm(down, "│", "║") + " " * (width - mid - 1))
            lines.append(" ".join(gaps))
    return "\n".join(line.rstrip() for line in lines)


def on_corners(rows: int, cols: int, text: list[str], values: dict[Edge, int]) -> str:
    """A line along the grid: corners and edges, each cell's token between (see the module docstring)."""
    values = {tuple(sorted(e)): v for e, v in values.items()}
    width = max((len(t) for t in text), default=1)
    lines = []
    for r in range(rows + 1):
        row = ""
        for c in range(cols + 1):
            shape = tuple(int(bool(v)) for v in _sides(values, r, c))
            row += _GLYPH[shape]
            if c < cols:
                row += ("─" if values.get(((r, c), (r, c + 1))) else " ") * width
        lines.append(row)
        if r < rows:
            row = ""
            for c in range(cols + 1):
                row += "│" if values.get(((r, c), (r + 1, c))) else " "
                if c < cols:
                    token = text[r * cols + c]
                    row += (token if token != "." else " ").rjust(width)
            lines.append(row)
    return "\n".join(line.rstrip() for line in lines)


def answer_text(model, solution: Solution) -> str:
    """An answer as the terminal shows it: drawn by the puzzle's plug-in, or else from
    the spec's looks (:func:`render`).

    Args:
        model: the compiled :class:`~gridlang.ir.model.Model` (its grid, name and looks).
        solution: the decoded answer.
    """
    text = find_plugin(model.name).render(model.grid, solution)
    if text is not None:
        return text
    return render(model.grid, solution, of_model(model))
