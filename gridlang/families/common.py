"""What the grid-genre plug-ins share: the map read plainly, rooms, pieces and their shapes.

The verifiers of the classic genres (Star Battle, Sudoku, Norinori,
Hitori, Nurikabe, LITS, Heyawake, Statue Park) read the map's cell texts
and room labels here, with their own neighbour and flood-fill code, never
the spec, the IR or the interpreter's. Cells are numbered row-major.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

from gridlang.core.grid import Grid, cell_names
from gridlang.plugins import Verdict


def side_neighbours(rows: int, cols: int, i: int) -> list[int]:
    """The up to four cells that share a side with cell ``i``."""
    r, c = divmod(i, cols)
    out = []
    if r > 0:
        out.append(i - cols)
    if r + 1 < rows:
        out.append(i + cols)
    if c > 0:
        out.append(i - 1)
    if c + 1 < cols:
        out.append(i + 1)
    return out


def touching(rows: int, cols: int, i: int) -> list[int]:
    """The up to eight cells that share a side or a corner with cell ``i``."""
    r, c = divmod(i, cols)
    return [(r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def pieces(rows: int, cols: int, cells: Iterable[int]) -> list[list[int]]:
    """The orthogonally connected pieces of a set of cells, each ascending, by first cell."""
    cells = set(cells)
    seen: set[int] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        piece, queue = [start], deque([start])
        while queue:
            u = queue.popleft()
            for v in side_neighbours(rows, cols, u):
                if v in cells and v not in seen:
                    seen.add(v)
                    piece.append(v)
                    queue.append(v)
        out.append(sorted(piece))
    return out


def rooms(grid: Grid) -> list[list[int]]:
    """The map's rooms, each its cells ascending, by first cell; [] without a room layer. A cell of
    a tile declared ``no room`` (a hole) is in none (the grid's own rooms: :func:`gridlang.core.grid.rooms_of`)."""
    return grid.room_cells() if grid.rooms else []


def number(text: str) -> int | None:
    """The whole number a cell's text holds, or None."""
    return int(text) if text.isascii() and text.isdigit() else None


def rc(grid: Grid, i: int) -> str:
    """A cell index as a person reads it: ``row R, column C``, counted from 1."""
    return grid.cell_name(i)


def cells_text(grid: Grid, cells: Iterable[int], limit: int = 8) -> str:
    """A few cells as ``row 1, column 3; row 2, column 3; ...`` (counted from 1)."""
    return cell_names((divmod(i, grid.cols) for i in sorted(cells)), limit)


def verdict(name: str, problems: list[str], **details) -> Verdict:
    """The verdict of a genre verifier: ok when there is no problem."""
    return Verdict(not problems, None, problems, name, details)


def room_index(grid: Grid) -> list[int] | None:
    """Each cell's room number (rooms by first cell, as :func:`rooms` lists them), -1 for a cell in no
    room, or None without a room layer."""
    return list(grid.rooms) if grid.rooms else None


TETROMINOES = {"I": "####", "L": "###/#..", "O": "##/##", "S": ".##/##.", "T": "###/.#."}
"""The five tetrominoes by letter, drawn row by row (``#`` a cell)."""

PENTOMINOES = {"F": ".##/##./.#.", "I": "#####", "L": "####/#...", "N": "##../.###", "P": "##/##/#.",
               "T": "###/.#./.#.", "U": "#.#/###", "V": "#../#../###", "W": "#../##./.##",
               "X": ".#./###/.#.", "Y": "####/.#..", "Z": "##./.#./.##"}
"""The twelve pentominoes by letter."""


def _cells_of(picture: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(picture.split("/")) for c, ch in enumerate(row) if ch == "#"]


def free_form(cells: Iterable[tuple[int, int]]) -> tuple:
    """A set of (row, col) cells up to moves, rotations and reflections (the least of its eight images)."""
    cells = list(cells)
    images = []
    for sr in (1, -1):
        for sc in (1, -1):
            for swap in (False, True):
                moved = [((c * sc, r * sr) if swap else (r * sr, c * sc)) for r, c in cells]
                r0, c0 = min(r for r, _ in moved), min(c for _, c in moved)
                images.append(tuple(sorted((r - r0, c - c0) for r, c in moved)))
    return min(images)


def form_letter(form: tuple) -> str | None:
    """The letter of the tetromino or pentomino with this :func:`free_form`, or None."""
    for table in (TETROMINOES, PENTOMINOES):
        for letter, picture in table.items():
            if free_form(_cells_of(picture)) == form:
                return letter
    return None


def piece_letter(grid: Grid, cells: Iterable[int]) -> str | None:
    """The letter of the tetromino or pentomino a set of cells forms, or None."""
    return form_letter(free_form(divmod(i, grid.cols) for i in cells))
