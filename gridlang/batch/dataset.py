"""The puzzlekit-dataset's puzzles as gridlang maps, with the published answers to compare.

The dataset (github: SmilingWayne/puzzlekit-dataset, most of it from janko.at)
keeps each genre in ``assets/data/GENRE/GENRE_dataset.json``: a record
``{"data": {KEY: {"problem": TEXT, "solution": TEXT, "source": URL}}}``,
``KEY`` ending in ``_COLSxROWS`` or ``_ROWSxCOLS`` (the grid's first line is
what counts). A problem is a header line ``ROWS COLS`` (Star Battle adds
its number of stars), then rows of white-space separated tokens: ``-`` an
empty cell, a number a clue, a letter a pearl or a black cell; Heyawake,
LITS and Star Battle add (or give only) a grid of region numbers. A
solution has the same header and a token per cell: ``x`` a shaded cell or
a star (Slitherlink: a cell inside the loop), ``o`` a light, LITS's
letters, Masyu's directions (``se`` joins the cell to its south and east
neighbours).

Each genre gridlang ships and the dataset holds has here a converter to a
gridlang text map (docs/language.md, "Maps: numbers of any size and
rooms") and a reader of the published answer, as the set of what the
answer turns on (cells, or edges as pairs of cells or corners), the same
set :func:`answer_of_report` takes from ``gridlang solve --json``. A
puzzle a converter cannot read raises :class:`DatasetError`, which the
benchmark counts and names.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridlang.core.errors import MapError, Span

Answer = frozenset
"""What an answer turns on: cells ``(r, c)``, or edges ``((r1, c1), (r2, c2))`` in sorted order."""

BANDS = ("15", "30", "50", "beyond")
"""Size bands by the longer side of the grid: up to 15, up to 30, up to 50 cells, longer."""


class DatasetError(MapError):
    """A dataset file or puzzle that cannot be read: a missing genre file, a grid of the wrong
    shape, a token the genre does not have."""


@dataclass(frozen=True)
class Genre:
    """How one genre of the dataset becomes a gridlang map and an answer.

    Attributes:
        folder: the dataset's folder and file stem (``Akari`` for ``Akari/Akari_dataset.json``).
        spec: the bundled spec's file name (``akari.grid``).
        peer: puzzlekit's name of the genre (``puzzle_type``).
        to_map: problem text -> gridlang text map.
        answer: solution text -> :data:`Answer`.
        decision: the decision of ``solve --json`` whose true values are the answer.
        values: the answer is each cell's value, ``(r, c, value)`` (digits), not the cells turned on.
    """

    folder: str
    spec: str
    peer: str
    to_map: Callable[[str], str]
    answer: Callable[[str], Answer]
    decision: str
    values: bool = False


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of the dataset.

    Attributes:
        genre: the key of :data:`GENRES` (the bundled spec's stem).
        key: the dataset's key (``570_50x50``).
        rows, cols: the grid's size in cells, from the problem's header.
        problem, solution: the dataset's texts (``solution`` empty when it has none).
        source: where the dataset took it from (a URL), or ``""``.
    """

    genre: str
    key: str
    rows: int
    cols: int
    problem: str
    solution: str
    source: str

    @property
    def name(self) -> str:
        """``GENRE/KEY``, as the benchmark names the puzzle."""
        return f"{self.genre}/{self.key}"

    @property
    def cells(self) -> int:
        """The number of cells of the grid."""
        return self.rows * self.cols

    @property
    def band(self) -> str:
        """The size band of :data:`BANDS` its longer side falls in."""
        return band_of(self.rows, self.cols)


def band_of(rows: int, cols: int) -> str:
    """The band of :data:`BANDS` for a grid of ``rows`` x ``cols`` cells (by its longer side)."""
    side = max(rows, cols)
    return next((b for b in BANDS[:-1] if side <= int(b)), BANDS[-1])


def _header(text: str) -> list[int]:
    lines = text.strip().split("\n")
    try:
        head = [int(t) for t in lines[0].split()]
    except ValueError:
        head = []
    if len(head) < 2 or min(head[:2]) < 1:
        raise DatasetError(
            f"the first line {lines[0].strip()!r} is not 'ROWS COLS'", None
        )
    return head


def _grids(text: str, count: int = 1) -> list[list[list[str]]]:
    """The ``count`` grids of tokens under the header, each ``ROWS`` rows of ``COLS`` tokens.

    Raises:
        DatasetError: too few rows, or a row of another length.
    """
    rows, cols = _header(text)[:2]
    lines = [line.split() for line in text.strip().split("\n")[1:] if line.strip()]
    if len(lines) < rows * count:
        raise DatasetError(
            f"{len(lines)} rows under the header, where {rows * count} are needed", None
        )
    for number, line in enumerate(lines[: rows * count], start=2):
        if len(line) != cols:
            raise DatasetError(
                f"row {number - 1} has {len(line)} cells, where the header says {cols}",
                None,
            )
    return [lines[k * rows : (k + 1) * rows] for k in range(count)]


def _tokens(
    grid: list[list[str]],
    table: dict[str, str] | None = None,
    numbers: bool = False,
    sep: str = " ",
) -> str:
    """A grid of tokens as map rows: each token through ``table``, numbers kept when ``numbers``."""
    out = []
    for r, row in enumerate(grid):
        cells = []
        for c, t in enumerate(row):
            if table is not None and t in table:
                cells.append(table[t])
            elif numbers and t.isdigit():
                cells.append(t)
            else:
                raise DatasetError(
                    f"the token {t!r} at row {r + 1}, column {c + 1} is no cell of this genre",
                    None,
                )
        out.append(sep.join(cells))
    return "\n".join(out) + "\n"


HOLES = ("@", "#")
"""The dataset's tokens for a cell outside every room (a hole in janko.at's irregular shapes)."""


def _rooms(grid: list[list[str]], holes: bool = False) -> str:
    """The room layer of a grid of region numbers; with ``holes``, a hole is ``.``, in no room.

    Raises:
        DatasetError: without ``holes``, a cell outside every room (the dataset's ``@`` or ``#``),
            which the bundled spec's map has no tile for.
    """
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t in HOLES and not holes:
                raise DatasetError(
                    f"the cell at row {r + 1}, column {c + 1} is {t!r}, outside every room, which "
                    "the bundled spec's map has no tile for",
                    None,
                )
    return (
        "rooms:\n"
        + "\n".join(" ".join("." if t in HOLES else t for t in row) for row in grid)
        + "\n"
    )


def _cells(text: str, on: Callable[[str], bool]) -> Answer:
    return frozenset(
        (r, c)
        for r, row in enumerate(_grids(text)[0])
        for c, t in enumerate(row)
        if on(t)
    )


def akari_map(problem: str) -> str:
    """Akari: ``-`` a white cell, ``x`` a black one, ``0``-``4`` a numbered black cell."""
    return "grid:\n" + _tokens(
        _grids(problem)[0], {"-": ".", "x": "#", **{d: d for d in "01234"}}, sep=""
    )


def numbers_map(problem: str) -> str:
    """Nurikabe, Hitori, Slitherlink, Kurodoko, Kurochute, Nurimisaki, Cave, Fillomino: ``-`` (or
    ``.``) an empty cell, a number a clue (of any size), ``?`` a clue without its number (Nurimisaki)."""
    return _tokens(_grids(problem)[0], {"-": ".", ".": ".", "?": "?"}, numbers=True)


def heyawake_map(problem: str) -> str:
    """Heyawake, Aqre, Usoone, Suguru: the grid of numbers (Heyawake's and Aqre's number of a room
    in one of its cells), then its rooms."""
    clues, rooms = _grids(problem, 2)
    return _tokens(clues, {"-": "."}, numbers=True) + _rooms(rooms)


def sudoku_map(problem: str) -> str:
    """Sudoku of N x N cells, N a square (9, 16): its boxes of sqrt(N) x sqrt(N) cells as parameters,
    ``-`` an empty cell, a number a given."""
    rows, cols = _header(problem)[:2]
    box = round(rows**0.5)
    if rows != cols or box * box != rows:
        raise DatasetError(f"a Sudoku of {rows}x{cols} cells has no square boxes", None)
    return f"box_rows: {box}\nbox_cols: {box}\n" + numbers_map(problem)


def rooms_map(problem: str, grids: int = 1, holes: bool = False) -> str:
    """LITS and Star Battle: an empty grid and its rooms (Star Battle's stars from the header); with
    ``grids`` 2 (Norinori), the rooms are the second grid, under an empty one. With ``holes``, a cell
    outside every room (``@``) is the spec's hole ``*``, in no room.

    Raises:
        DatasetError: without ``holes``, a cell outside every room.
    """
    head = _header(problem)
    rooms = _grids(problem, grids)[-1]
    layer = _rooms(rooms, holes)
    stars = f"stars: {head[2]}\n" if len(head) > 2 else ""
    grid = "\n".join("".join("*" if t in HOLES else "." for t in row) for row in rooms)
    return stars + grid + "\n" + layer


def holed_rooms_map(problem: str) -> str:
    """LITS and Star Battle, whose specs have a hole tile: :func:`rooms_map` with its cells outside
    every room (janko.at's irregular shapes, the dataset's ``@``) as holes, ``*`` in the grid and
    ``.`` in the room layer, as pzprjs leaves its holes out of its rooms."""
    return rooms_map(problem, holes=True)


def norinori_map(problem: str) -> str:
    """Norinori: a grid of ``-`` (no clues), then its rooms."""
    return rooms_map(problem, 2)


def masyu_map(problem: str) -> str:
    """Masyu: ``-`` an empty cell, ``w`` or ``1`` a white pearl, ``b`` or ``2`` a black one."""
    return _tokens(
        _grids(problem)[0], {"-": ".", "w": "o", "1": "o", "b": "*", "2": "*"}, sep=""
    )


def shaded(solution: str) -> Answer:
    """The cells marked ``x`` (shaded cells, stars)."""
    return _cells(solution, lambda t: t == "x")


def walls(solution: str) -> Answer:
    """Cave: the shaded cells, those the solution leaves out of the cave (``-``; the cave is ``x``)."""
    return _cells(solution, lambda t: t == "-")


def digits(solution: str) -> Answer:
    """Sudoku, Suguru, Fillomino: each cell and its number, ``(r, c, n)``.

    Raises:
        DatasetError: a cell without a number.
    """
    out = set()
    for r, row in enumerate(_grids(solution)[0]):
        for c, t in enumerate(row):
            if t in ("@", "#"):
                raise DatasetError(
                    f"the token {t!r} at row {r + 1}, column {c + 1} is no number", None
                )
            out.add((r, c, int(t)))
    return frozenset(out)


def lights(solution: str) -> Answer:
    """Akari's lights, the cells marked ``o``."""
    return _cells(solution, lambda t: t == "o")


def tetrominoes(solution: str) -> Answer:
    """LITS: the cells holding a tetromino's letter."""
    return _cells(solution, lambda t: t in {"L", "I", "T", "S"})


_STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def masyu_lines(solution: str) -> Answer:
    """Masyu: the loop's edges between cells, from each cell's directions (``se``, ``ns``)."""
    grid = _grids(solution)[0]
    out = set()
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t == "-":
                continue
            if not set(t) <= set(_STEP):
                raise DatasetError(
                    f"the token {t!r} at row {r + 1}, column {c + 1} is no direction",
                    None,
                )
            for d in t:
                dr, dc = _STEP[d]
                out.add(tuple(sorted(((r, c), (r + dr, c + dc)))))
    return frozenset(out)


def slitherlink_lines(solution: str) -> Answer:
    """Slitherlink: the loop's edges between corners, the borders of the cells marked inside (``x``)."""
    inside = _cells(solution, lambda t: t == "x")
    rows, cols = _header(solution)[:2]
    out = set()
    for r in range(rows + 1):
        for c in range(cols + 1):
            if c < cols and ((r - 1, c) in inside) != ((r, c) in inside):
                out.add(((r, c), (r, c + 1)))  # the border above cell (r, c)
            if r < rows and ((r, c - 1) in inside) != ((r, c) in inside):
                out.add(((r, c), (r + 1, c)))  # the border left of cell (r, c)
    return frozenset(out)


GENRES: dict[str, Genre] = {
    "akari": Genre("Akari", "akari.grid", "akari", akari_map, lights, "light"),
    "aqre": Genre("Aqre", "aqre.grid", "aqre", heyawake_map, shaded, "shaded"),
    "cave": Genre("Cave", "cave.grid", "cave", numbers_map, walls, "shaded"),
    "fillomino": Genre(
        "Fillomino", "fillomino.grid", "fillomino", numbers_map, digits, "digit", True
    ),
    "heyawake": Genre(
        "Heyawake", "heyawake.grid", "heyawake", heyawake_map, shaded, "shaded"
    ),
    "hitori": Genre("Hitori", "hitori.grid", "hitori", numbers_map, shaded, "shaded"),
    "kurochute": Genre(
        "Kuroshuto", "kurochute.grid", "kuroshuto", numbers_map, shaded, "shaded"
    ),
    "kurodoko": Genre(
        "Kuromasu", "kurodoko.grid", "kuromasu", numbers_map, shaded, "shaded"
    ),
    "lits": Genre("LITS", "lits.grid", "lits", holed_rooms_map, tetrominoes, "shaded"),
    "masyu": Genre("Masyu", "masyu.grid", "masyu", masyu_map, masyu_lines, "line"),
    "norinori": Genre(
        "Norinori", "norinori.grid", "norinori", norinori_map, shaded, "shaded"
    ),
    "nurikabe": Genre(
        "Nurikabe", "nurikabe.grid", "nurikabe", numbers_map, shaded, "shaded"
    ),
    "nurimisaki": Genre(
        "Nurimisaki", "nurimisaki.grid", "nurimisaki", numbers_map, shaded, "shaded"
    ),
    "slitherlink": Genre(
        "Slitherlink",
        "slitherlink.grid",
        "slitherlink",
        numbers_map,
        slitherlink_lines,
        "line",
    ),
    "starbattle": Genre(
        "Starbattle", "starbattle.grid", "starbattle", holed_rooms_map, shaded, "star"
    ),
    "sudoku": Genre(
        "Sudoku", "sudoku.grid", "sudoku", sudoku_map, digits, "digit", True
    ),
    "suguru": Genre(
        "Suguru", "suguru.grid", "suguru", heyawake_map, digits, "digit", True
    ),
    "usoone": Genre("Usoone", "usoone.grid", "usoone", heyawake_map, shaded, "shaded"),
}
"""The genres gridlang ships that the dataset holds, by the bundled spec's stem."""


def answer_of_report(
    report: dict[str, Any], decision: str, with_values: bool = False
) -> Answer | None:
    """The answer in a ``solve --json`` report: the cells or edges whose ``decision`` is true, or with
    ``with_values`` each cell and its value, ``(r, c, value)``.

    Returns:
        The set, or None when the report has no decisions (no answer).
    """
    values = (report.get("decisions") or {}).get(decision)
    if values is None:
        return None
    out = set()
    for place, value in values:
        if with_values:
            out.add((place[0], place[1], value))
            continue
        if not value:
            continue
        if isinstance(place[0], list):  # an edge: two cells or two corners
            out.add(tuple(sorted((tuple(place[0]), tuple(place[1])))))
        else:
            out.add(tuple(place))
    return frozenset(out)


def load(root: str | Path, genre: str) -> list[Puzzle]:
    """Every puzzle of ``genre`` in the dataset at ``root``, in the order of their keys.

    Args:
        root: a clone of puzzlekit-dataset, or a folder holding ``FOLDER/FOLDER_dataset.json``
            (as its ``assets/data`` does).
        genre: a key of :data:`GENRES`.

    Raises:
        DatasetError: an unknown genre, no such file, or a file that is not the dataset's JSON.
    """
    if genre not in GENRES:
        raise DatasetError(
            f"no converter for the genre {genre!r}; there are {', '.join(GENRES)}", None
        )
    folder = GENRES[genre].folder
    root = Path(root)
    paths = [
        root / "assets" / "data" / folder / f"{folder}_dataset.json",
        root / folder / f"{folder}_dataset.json",
    ]
    path = next((p for p in paths if p.is_file()), None)
    if path is None:
        raise DatasetError(
            f"{root} holds no {folder}/{folder}_dataset.json (give a clone of puzzlekit-dataset "
            "or its assets/data)",
            None,
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
        items = sorted(data.items())
        out = []
        for key, record in items:
            head = _header(record["problem"]) if record.get("problem") else [0, 0]
            out.append(
                Puzzle(
                    genre,
                    key,
                    head[0],
                    head[1],
                    record.get("problem") or "",
                    record.get("solution") or "",
                    record.get("source") or "",
                )
            )
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise DatasetError(
            f"{path} is not a puzzlekit-dataset file ({e})", Span(str(path), 1, 1)
        ) from e
    return out


def available(root: str | Path) -> list[str]:
    """The genres of :data:`GENRES` whose file the dataset at ``root`` holds."""
    root = Path(root)
    return [
        g
        for g, spec in GENRES.items()
        if (
            root / "assets" / "data" / spec.folder / f"{spec.folder}_dataset.json"
        ).is_file()
        or (root / spec.folder / f"{spec.folder}_dataset.json").is_file()
    ]


def sample(
    puzzles: Iterable[Puzzle],
    bands: Iterable[str] = BANDS,
    per_band: int | None = 5,
    largest: int = 1,
    seed: int = 0,
) -> list[Puzzle]:
    """A sample of one genre's puzzles: ``per_band`` drawn from each band with a fixed seed, and the
    ``largest`` largest of the genre (by cells, then key) whichever band they fall in.

    Args:
        puzzles: the puzzles of one genre.
        bands: the bands of :data:`BANDS` to draw from.
        per_band: how many a band (all of a band that holds fewer); None for every puzzle.
        largest: the genre's N largest, added whatever their band (when in ``bands``).
        seed: the seed of the draw (``random.Random(seed)``, one draw a band in the order of keys).

    Returns:
        The puzzles drawn, smallest first (by cells, then key), each once.
    """
    bands = list(bands)
    pool = [p for p in puzzles if p.band in bands]
    chosen: dict[str, Puzzle] = {}
    for band in bands:
        members = [p for p in pool if p.band == band]
        if per_band is not None and len(members) > per_band:
            members = random.Random(f"{seed}/{band}").sample(members, per_band)
        chosen.update((p.key, p) for p in members)
    for p in sorted(pool, key=lambda p: (-p.cells, p.key))[:largest]:
        chosen[p.key] = p
    return sorted(chosen.values(), key=lambda p: (p.cells, p.key))
