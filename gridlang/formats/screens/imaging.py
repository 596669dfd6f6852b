"""Reading a puzzle's map off a picture: each cell's tile by its nearest known cell.

:func:`read_picture` opens the picture within the command's limits
(:mod:`gridlang.formats.screens.picture`), finds its grid (:mod:`gridlang.formats.screens.lattice`) and
names every cell's tile with a :class:`Calibration`: cells of pictures
whose maps are known (:func:`calibrate`).

**Cells at one size.** The board is resampled with a box filter so that
every cell is :data:`CELL` pixels square, whatever the picture's scale;
the outer :data:`EDGE` pixels of each side are cut (grid lines and
neighbours stay out), and the rest is averaged in blocks to a thumbnail of
:data:`THUMB` x :data:`THUMB` colours. At this size a cell looks the same
whether the screenshot was zoomed, shrunk or compressed as JPEG.

**Nearest cell.** The distance of two thumbnails is the root mean square,
over their pixels, of the RGB distance. A cell takes the tile of the
nearest calibration thumbnail, provided that

* it lies within the calibration's ``near`` (:data:`SPREAD` times the
  largest distance from a calibration cell to the nearest cell of the same
  tile in another of its pictures, and at least :data:`NEAR_FLOOR`), and
* every thumbnail of another tile lies at least ``margin`` further.

Otherwise the cell is unsure, and the picture is refused with the cell's
row and column: a map is never printed with a tile it did not read.

**Linked tiles** (pairs joined across the map) are one tile per colour.
Each has its own map character, so a pair read off a picture is labelled
by its colour; a colour seen other than twice is an error.

The calibration is data, a JSON file (:func:`save_calibration`), rebuilt
from picture/map pairs by :func:`calibrate` (``gridlang calibrate-image``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from gridlang.core.errors import ImageError
from gridlang.formats.screens.lattice import Lattice, find_lattice
from gridlang.formats.screens.picture import Budget, open_picture

CELL = 16
"""Pixels per cell side the board is resampled to (the game draws a tile in 16 x 16 art pixels)."""
EDGE = 2
"""Pixels cut from each side of a resampled cell."""
THUMB = 6
"""Side of a cell's thumbnail, in blocks of ``(CELL - 2 * EDGE) / THUMB`` pixels."""
SPREAD = 1.25
"""``near`` is this many times the largest distance between calibration cells of one tile."""
MARGIN = 8.0
"""Least lead of the nearest tile over the next, RMS RGB distance."""
NEAR_FLOOR = 50.0
"""The least ``near``. Measured with calibrations from three of a game's four screenshots, on the
fourth and its 21 altered copies (docs/reliability.md): a tile the three show lay at most 45 from its
nearest calibration cell (one sprite drawn differently in one screenshot; every other tile at most 27),
and the tiles they lack lay 60 or more from every cell."""
DISTINCT = 4.0
"""Calibration cells closer than this to a kept one of the same tile are not kept."""
SAME_LINK = 20.0
"""Linked pairs of two pictures whose mean thumbnails lie this close are one colour."""
LINK_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""Characters given to linked tiles, in order, when a map leaves one free."""
MAX_CELLS = 40_000
"""The most cells a picture may show (a map's limit, :mod:`gridlang.formats.maps`)."""


# ---------------------------------------------------------------- thumbnails

def thumbnails(rgb: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Every cell's thumbnail (see the module).

    Args:
        rgb: ``(height, width, 3)`` uint8 pixels.
        lattice: the grid, in the pixels of ``rgb``; cells the picture's edge
            cuts are filled out with the edge's pixels.

    Returns:
        ``(rows, cols, THUMB * THUMB * 3)`` float32 colours.
    """
    from PIL import Image

    h, w = rgb.shape[:2]
    x0, y0 = lattice.x.start, lattice.y.start
    x1, y1 = lattice.x.edge(lattice.cols), lattice.y.edge(lattice.rows)
    pad = int(np.ceil(max(0.0, -x0, -y0, x1 - w, y1 - h)))
    if pad:
        rgb = np.pad(rgb, ((pad, pad), (pad, pad), (0, 0)), mode="edge")
    board = Image.fromarray(rgb).resize((lattice.cols * CELL, lattice.rows * CELL), Image.BOX,
                                        box=(x0 + pad, y0 + pad, x1 + pad, y1 + pad))
    a = np.asarray(board, dtype=np.float32).reshape(lattice.rows, CELL, lattice.cols, CELL, 3)
    inner = a[:, EDGE:CELL - EDGE, :, EDGE:CELL - EDGE]
    b = (CELL - 2 * EDGE) // THUMB
    t = inner.reshape(lattice.rows, THUMB, b, lattice.cols, THUMB, b, 3).mean(axis=(2, 5))
    return t.transpose(0, 2, 1, 3, 4).reshape(lattice.rows, lattice.cols, THUMB * THUMB * 3)


def distances(queries: np.ndarray, prototypes: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """RMS RGB distance of every query thumbnail to every prototype: ``(n, d)`` and ``(m, d)`` to ``(n, m)``."""
    p = prototypes.astype(np.float64)
    pp = (p * p).sum(axis=1)
    out = np.empty((len(queries), len(p)))
    for lo in range(0, len(queries), chunk):
        q = queries[lo: lo + chunk].astype(np.float64)
        d2 = (q * q).sum(axis=1)[:, None] + pp[None, :] - 2.0 * q @ p.T
        out[lo: lo + chunk] = np.sqrt(np.maximum(d2, 0.0) / (THUMB * THUMB))
    return out


def _hex(thumb: np.ndarray) -> str:
    return "".join(f"{int(v):02x}" for v in np.clip(np.rint(thumb), 0, 255))


def _unhex(text: str) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(text), dtype=np.uint8).astype(np.float32)


# ---------------------------------------------------------------- the calibration

@dataclass
class TileClass:
    """One tile as pictures show it.

    Attributes:
        char: its map character.
        name: a word for messages (the tile's name).
        cells: ``(k, THUMB * THUMB * 3)`` thumbnails of calibration cells of this tile.
        linked: one colour of a linked tile (one linked pair).
    """

    char: str
    name: str
    cells: np.ndarray
    linked: bool = False


@dataclass
class Calibration:
    """Cells learned from pictures with known maps (see the module).

    Attributes:
        classes: the tiles, one per linked colour.
        near: largest distance to the nearest calibration cell for a tile to be read.
        margin: least lead of the nearest tile over the next.
        sources: the pictures it was learned from (names only).
    """

    classes: list[TileClass]
    near: float = NEAR_FLOOR
    margin: float = MARGIN
    sources: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """A JSON object; :func:`calibration_from_json` reads it back."""
        return {
            "about": "cells of known tiles for reading pictures; rebuild with gridlang calibrate-image",
            "sources": self.sources,
            "cell": CELL, "edge": EDGE, "thumb": THUMB,
            "near": round(self.near, 2),
            "margin": self.margin,
            "classes": [{"char": k.char, "name": k.name, "linked": k.linked, "cells": [_hex(t) for t in k.cells]}
                        for k in self.classes],
        }

    def classify(self, thumbs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nearest tile of each thumbnail (``(n, d)``).

        Returns:
            ``(best, distance, lead)``: the index of the nearest class, the
            distance to it, and how much nearer it is than any other class.
        """
        prototypes = np.concatenate([k.cells for k in self.classes])
        owner = np.concatenate([np.full(len(k.cells), i) for i, k in enumerate(self.classes)])
        d = distances(thumbs, prototypes)
        per_class = np.full((len(thumbs), len(self.classes)), np.inf)
        for i in range(len(self.classes)):
            per_class[:, i] = d[:, owner == i].min(axis=1)
        order = np.argsort(per_class, axis=1)
        best = order[:, 0]
        first = per_class[np.arange(len(thumbs)), best]
        second = per_class[np.arange(len(thumbs)), order[:, 1]] if len(self.classes) > 1 else np.full(
            len(thumbs), np.inf)
        return best, first, second - first


def calibration_from_json(data: dict, where: str = "the calibration") -> Calibration:
    """Read a calibration from its JSON object.

    Raises:
        ImageError: a key is missing, a cell is not hexadecimal of the
            right length, or it was made for another thumbnail size.
    """
    try:
        if (data["cell"], data["edge"], data["thumb"]) != (CELL, EDGE, THUMB):
            raise ValueError(f"it was made for cells of {data['cell']}, {data['edge']}, {data['thumb']} pixels")
        size = THUMB * THUMB * 3
        classes = []
        for k in data["classes"]:
            cells = np.array([_unhex(t) for t in k["cells"]], dtype=np.float32).reshape(-1, size)
            if len(cells) == 0:
                raise ValueError(f"tile {k['char']!r} has no cells")
            classes.append(TileClass(str(k["char"]), str(k["name"]), cells, bool(k.get("linked", False))))
        if not classes:
            raise ValueError("it has no tiles")
        return Calibration(classes, float(data["near"]), float(data.get("margin", MARGIN)),
                           list(data.get("sources", [])))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ImageError(f"{where} is not a calibration ({type(e).__name__}: {e})") from e


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file written by :func:`save_calibration`.

    Raises:
        ImageError: the file is missing, not JSON, or not a calibration.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ImageError(f"cannot read calibration {path}: {e.strerror or e}") from e
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ImageError(f"calibration {path} is not JSON") from e
    return calibration_from_json(data, f"calibration {path}")


def calibration_text(data: dict) -> str:
    """A calibration's JSON object as text: one line per setting and per
    calibration cell, so that a rebuilt calibration diffs line by line."""
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        end = "," if n < len(items) - 1 else ""
        if key == "classes":
            lines.append(f' "{key}": [')
            for m, k in enumerate(value):
                head = json.dumps({kk: vv for kk, vv in k.items() if kk != "cells"})[:-1]
                lines.append(f"  {head}, \"cells\": [")
                for j, cell in enumerate(k["cells"]):
                    lines.append(f"   {json.dumps(cell)}" + ("," if j < len(k["cells"]) - 1 else ""))
                lines.append("  ]}" + ("," if m < len(value) - 1 else ""))
            lines.append(" ]" + end)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write a calibration as JSON (:func:`calibration_text`)."""
    Path(path).write_text(calibration_text(calibration.to_json()), encoding="utf-8")


# ---------------------------------------------------------------- reading

def _board(path: str | Path, budget: Budget | None) -> tuple[np.ndarray, Lattice]:
    """A picture's pixels (working size) and its grid."""
    budget = budget or Budget()
    picture = open_picture(path, budget)
    where = str(path)
    try:
        lattice = find_lattice(picture.rgb, "the picture", budget.check)
    except ImageError as e:
        raise ImageError(e.message, path=where) from e
    if lattice.rows * lattice.cols > MAX_CELLS:
        raise ImageError(f"the picture shows a grid of {lattice.rows:,} rows and {lattice.cols:,} columns, "
                         f"{lattice.rows * lattice.cols:,} cells; a map has at most {MAX_CELLS:,}", path=where)
    budget.check()
    return picture.rgb, lattice


@dataclass(frozen=True)
class Reading:
    """Every cell of a picture as the calibration names it.

    Attributes:
        chars: the nearest tile's character per cell, ``rows`` strings.
        sure: per cell, ``(rows, cols)`` bool: the nearest tile lies within
            ``near`` and leads the next by ``margin`` or more.
        names: the nearest tile's name per cell, ``(rows, cols)``.
        distance: the distance to it, ``(rows, cols)``.
        lead: how much nearer it is than the next tile, ``(rows, cols)``.
    """

    chars: list[str]
    sure: np.ndarray
    names: np.ndarray
    distance: np.ndarray
    lead: np.ndarray


def read_cells(path: str | Path, calibration: Calibration, budget: Budget | None = None) -> Reading:
    """Name every cell of a picture, sure or not (:func:`read_picture` refuses the unsure ones).

    Raises:
        ImageError: not a picture, or no regular grid in it.
        BuildTimeout: the deadline passed.
    """
    rgb, lattice = _board(path, budget)
    rows, cols = lattice.rows, lattice.cols
    best, dist, lead = calibration.classify(thumbnails(rgb, lattice).reshape(rows * cols, -1))
    chars = [calibration.classes[int(b)].char for b in best]
    names = np.array([calibration.classes[int(b)].name for b in best], dtype=object)
    sure = (dist <= calibration.near) & (lead >= calibration.margin)
    return Reading(["".join(chars[r * cols:(r + 1) * cols]) for r in range(rows)], sure.reshape(rows, cols),
                   names.reshape(rows, cols), dist.reshape(rows, cols), lead.reshape(rows, cols))


def read_picture(path: str | Path, calibration: Calibration, budget: Budget | None = None) -> list[str]:
    """Read a map off a picture.

    Args:
        path: the picture file.
        calibration: the tiles' cells.
        budget: the command's deadline and memory limit.

    Returns:
        The map's rows, top to bottom, one character per cell; linked tiles
        carry their colour's character.

    Raises:
        ImageError: not a picture, no regular grid in it, a cell no tile of
            the calibration matches surely, or a linked colour seen other
            than twice; the message names the file, and the cell by row and
            column counted from 1.
        BuildTimeout: the deadline passed.
    """
    return checked(read_cells(path, calibration, budget), calibration, path)


def checked(reading: Reading, calibration: Calibration, path: str | Path) -> list[str]:
    """The map of a :class:`Reading`, or the sentence that refuses it (see :func:`read_picture`).

    Raises:
        ImageError: a cell is unsure, or a linked colour is seen other than twice.
    """
    unsure = np.argwhere(~reading.sure)
    if len(unsure):
        r, c = (int(v) for v in unsure[0])
        dist, lead, name = float(reading.distance[r, c]), float(reading.lead[r, c]), reading.names[r, c]
        why = (f"its nearest tile, {name}, lies at {dist:.0f}, beyond the {calibration.near:.0f} "
               f"within which a tile is read" if dist > calibration.near else
               f"it is nearly as close to another tile as to {name} ({dist:.0f}, the next {dist + lead:.0f})")
        more = f" ({len(unsure)} cells are unsure)" if len(unsure) > 1 else ""
        raise ImageError(f"the tile at row {r + 1}, column {c + 1} is unsure: {why}{more}; if the picture "
                         f"shows a tile the calibration lacks, add a picture of it with gridlang calibrate-image",
                         path=str(path))
    linked = {k.char: k.name for k in calibration.classes if k.linked}
    seen: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(reading.chars):
        for c, ch in enumerate(row):
            if ch in linked:
                seen.setdefault(ch, []).append((r, c))
    for ch, where in seen.items():
        if len(where) != 2:
            text = ", ".join(f"row {r + 1}, column {c + 1}" for r, c in where)
            if len(where) == 1:
                raise ImageError(f"the {linked[ch]} tile at {text} has no twin of its colour; linked tiles come "
                                 f"in pairs", path=str(path))
            raise ImageError(f"{len(where)} {linked[ch]} tiles of one colour, at {text}; linked tiles come in pairs",
                             path=str(path))
    return reading.chars


# ---------------------------------------------------------------- calibrating

def calibrate(pairs: list[tuple[str | Path, list[str]]], name_of: Callable[[str], str],
              linked: Callable[[str], bool]) -> Calibration:
    """Learn the tiles' cells from pictures whose maps are known.

    Args:
        pairs: ``(picture file, map rows)``; each picture's grid must have the
            map's size.
        name_of: a word for the tile of a map character (for messages).
        linked: whether a map character is a linked tile; each linked pair of
            a picture becomes one tile, merged with a tile of the same colour
            from another picture (mean thumbnails within :data:`SAME_LINK`).

    Returns:
        The calibration: each tile's distinct cells (none within
        :data:`DISTINCT` of another kept one), ``near`` (see the module) and
        :data:`MARGIN`.

    Raises:
        ImageError: a picture cannot be read, or its grid differs from its map.
    """
    groups: dict[tuple[int, str], list[np.ndarray]] = {}
    for n, (path, rows) in enumerate(pairs):
        rgb, lattice = _board(path, None)
        width = len(rows[0]) if rows else 0
        if (lattice.rows, lattice.cols) != (len(rows), width):
            raise ImageError(f"the picture shows a grid of {lattice.rows} rows and {lattice.cols} columns, "
                             f"but its map has {len(rows)} rows and {width} columns", path=str(path))
        thumbs = thumbnails(rgb, lattice)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                groups.setdefault((n, ch), []).append(thumbs[r, c])
    # one class per plain character; linked pairs joined by colour across pictures
    classes: list[TileClass] = []
    members: list[list[tuple[int, np.ndarray]]] = []
    for (n, ch), cells in groups.items():
        found = None
        for k, cls in enumerate(classes):
            if cls.linked != linked(ch):
                continue
            if not cls.linked and cls.char == ch:
                found = k
            elif cls.linked:
                mean = np.mean([t for _, t in members[k]], axis=0)
                if distances(np.mean(cells, axis=0)[None], mean[None])[0, 0] <= SAME_LINK:
                    found = k
            if found is not None:
                break
        if found is None:
            taken = {k.char for k in classes}
            char = ch if ch not in taken else next(p for p in LINK_CHARS if p not in taken)
            classes.append(TileClass(char, name_of(ch), np.zeros((0, THUMB * THUMB * 3), np.float32), linked(ch)))
            members.append([])
            found = len(classes) - 1
        members[found] += [(n, t) for t in cells]
    spread = 0.0
    for cls, cells in zip(classes, members):
        pictures = np.array([n for n, _ in cells])
        thumbs = np.array([t for _, t in cells], dtype=np.float32)
        if len(set(pictures.tolist())) > 1:
            d = distances(thumbs, thumbs)
            d[pictures[:, None] == pictures[None, :]] = np.inf
            reach = d.min(axis=1)
            spread = max(spread, float(reach[np.isfinite(reach)].max()))
        kept: list[np.ndarray] = []
        for t in thumbs:
            if not kept or distances(t[None], np.array(kept))[0].min() > DISTINCT:
                kept.append(np.rint(t))
        cls.cells = np.array(kept, dtype=np.float32)
    near = max(NEAR_FLOOR, SPREAD * spread)
    return Calibration(classes, near, MARGIN, sources=[Path(str(p)).name for p, _ in pairs])
