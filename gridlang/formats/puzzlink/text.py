"""Text maps written from decoded URLs: the grid, the ``rooms:`` layer, the header lines."""

from __future__ import annotations

_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def grid_text(rows: int, cols: int, cells: list[str]) -> str:
    """Rows of cell tokens: one character each, or separated by spaces (right-aligned) when any is longer."""
    spaced = any(len(c) > 1 for c in cells)
    width = max((len(c) for c in cells), default=1) if spaced else 1
    lines = []
    for r in range(rows):
        row = cells[r * cols:(r + 1) * cols]
        lines.append(" ".join(c.rjust(width) for c in row) if spaced else "".join(row))
    return "\n".join(lines)


def borders_text(rows: int, cols: int, tokens: list[str]) -> str:
    """The ``borders:`` block (:mod:`gridlang.formats.layers`) of tokens in pzprjs's order: the ``cols - 1``
    borders inside a row, indented by a space, then the ``cols`` under it, by turns. Tokens that hold the
    frame's ``2 (rows + cols)`` borders too (after the others: top, bottom, left, right) are drawn with
    the frame where it stands: the top's, then each row's left frame, inner borders and right frame, and
    the ``cols`` under it (the last the bottom's), the rows along a cell's width indented by a space."""
    across = rows * (cols - 1)
    inner = across + (rows - 1) * cols
    lines = ["borders:"]
    if len(tokens) == inner + 2 * (rows + cols):
        top, bottom = tokens[inner:inner + cols], tokens[inner + cols:inner + 2 * cols]
        left, right = tokens[inner + 2 * cols:inner + 2 * cols + rows], tokens[inner + 2 * cols + rows:]
        lines.append(" " + " ".join(top))
        for r in range(rows):
            lines.append(" ".join([left[r], *tokens[r * (cols - 1):(r + 1) * (cols - 1)], right[r]]))
            lines.append(" " + " ".join(tokens[across + r * cols:across + (r + 1) * cols] if r + 1 < rows else bottom))
        return "\n".join(lines)
    for r in range(rows):
        if cols > 1:
            lines.append(" " + " ".join(tokens[r * (cols - 1):(r + 1) * (cols - 1)]))
        if r + 1 < rows:
            lines.append(" ".join(tokens[across + r * cols:across + (r + 1) * cols]))
    return "\n".join(lines)


def rooms_text(rows: int, cols: int, room: list[int], none: frozenset[int] = frozenset()) -> str:
    """The ``rooms:`` block: a letter per room, reused for rooms that do not touch; ``.`` for the cells of
    ``none``, which are in no room."""
    count = max(room) + 1
    touching: list[set[int]] = [set() for _ in range(count)]
    for i, a in enumerate(room):
        r, c = divmod(i, cols)
        for j in ((i + 1) if c + 1 < cols else None, (i + cols) if r + 1 < rows else None):
            if j is not None and room[j] != a:
                touching[a].add(room[j])
                touching[room[j]].add(a)
    label: dict[int, str] = {}
    for a in range(count):
        used = {label[b] for b in touching[a] if b in label}
        label[a] = next((x for x in _LABELS if x not in used), None) or str(a)
    return "rooms:\n" + grid_text(rows, cols, ["." if i in none else label[a] for i, a in enumerate(room)])


def document(title: str, headers: list[tuple[str, str]], grid: str, rooms: str | None = None,
             hash_tile: bool = False, corners: str | None = None, borders: str | None = None) -> str:
    """A whole text map: a ``#`` title line, ``name: value`` headers, the grid, the room, corner and border layers.

    A grid whose first row begins with ``#``, or any grid of a spec with a tile written ``#``
    (``hash_tile``), stands under a ``grid:`` line, so that the map reader cannot take a row for a
    comment nor refuse the title as a possible row (docs/language.md, "Map files").
    """
    marker = ["grid:"] if grid.startswith("#") or hash_tile else []
    lines = [f"# {title}"] + [f"{name}: {value}" for name, value in headers] + marker + [grid]
    if rooms is not None:
        lines.append(rooms)
    if corners is not None:
        lines.append(corners)
    if borders is not None:
        lines.append(borders)
    return "\n".join(lines) + "\n"
