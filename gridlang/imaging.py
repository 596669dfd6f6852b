"""Reading a puzzle's map off a picture: each cell's tile by its colours.

:func:`read_picture` finds the picture's grid (:mod:`gridlang.lattice`) and
names every cell's tile with a :class:`Calibration`, the colours of each
tile learned from pictures whose maps are known (:func:`calibrate`).

**The tiles.** Only the inner part of a cell is read (a margin of 15% of the
pitch on each side keeps grid lines and neighbours out). A pixel is
*background* when it lies within ``near_background`` (RGB distance) of a
colour of a background tile (open ground, say, or a lake); a cell whose
non-background pixels are fewer than the ``foreground`` share is the
background tile with the most pixels. Otherwise its foreground pixels are
matched, class by class, to that class's palette (its colours and their
shares of a typical cell's foreground, learned from the calibration
pictures): each pixel goes to the nearest palette colour within
``near_object``, and the class scores the histogram intersection
``sum_j min(share_j, weight_j)`` (Swain and Ballard, "Color indexing", IJCV
7(1), 1991). The best class wins; below ``min_score`` the colour is unknown.

**Linked tiles** (pairs joined across the map) are one class per colour.
Each class has its own map character, so a pair read off a picture is
labelled by its colour; a colour seen other than twice is an error.

The calibration is data, a JSON file (:func:`save_calibration`), rebuilt
from picture/map pairs by :func:`calibrate` (``gridlang calibrate-image``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from .errors import ImageError
from .lattice import MARGIN, Lattice, find_lattice, load_image

LINK_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""Characters given to linked classes, in order, when a map leaves one free."""

NEAR_BACKGROUND = 12.0
NEAR_OBJECT = 20.0
MIN_SCORE = 0.5


# ---------------------------------------------------------------- colours

def _hex(rgb: Iterable[int]) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def _unhex(text: str) -> tuple[int, int, int]:
    t = text.lstrip("#")
    return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)


def _pack(rgb: np.ndarray) -> np.ndarray:
    a = rgb.astype(np.int32)
    return (a[..., 0] << 16) | (a[..., 1] << 8) | a[..., 2]


def _unpack(packed: np.ndarray) -> np.ndarray:
    return np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255], axis=-1).astype(float)


def _nearest(colours: np.ndarray, palette: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each colour (``(n, 3)``), the index of the nearest palette colour and its RGB distance."""
    if len(palette) == 0:
        return np.zeros(len(colours), dtype=int), np.full(len(colours), np.inf)
    d = np.sqrt(((colours[:, None, :] - palette[None, :, :]) ** 2).sum(axis=2))
    j = np.argmin(d, axis=1)
    return j, d[np.arange(len(colours)), j]


@dataclass
class TileClass:
    """The colours of one tile as a picture shows it.

    Attributes:
        char: its map character.
        name: a word for messages (the tile's name).
        colours: ``(k, 3)`` RGB of the palette.
        weights: each colour's share of a typical cell's foreground pixels.
        linked: one colour of a linked tile (one linked pair).
    """

    char: str
    name: str
    colours: np.ndarray
    weights: np.ndarray
    linked: bool = False

    def score(self, colours: np.ndarray, counts: np.ndarray, near: float) -> float:
        """Histogram intersection of foreground pixels (colours ``(n, 3)``, counts ``(n,)``)
        with this class's palette."""
        total = counts.sum()
        if total == 0 or len(self.colours) == 0:
            return 0.0
        j, d = _nearest(colours, self.colours)
        ok = d <= near
        share = np.bincount(j[ok], weights=counts[ok], minlength=len(self.colours)) / total
        return float(np.minimum(share, self.weights).sum())


@dataclass
class Calibration:
    """Colours learned from pictures with known maps (see the module).

    Attributes:
        background: background char -> ``(k, 3)`` colours.
        classes: the foreground tiles, linked colours included.
        foreground: least share of non-background pixels in a cell with a tile on it.
        margin: share of the pitch cut from each side of a cell.
        near_background: RGB distance within which a pixel is background.
        near_object: RGB distance within which a pixel matches a palette colour.
        min_score: least histogram intersection for a tile to be named.
        sources: the pictures it was learned from (names only).
    """

    background: dict[str, np.ndarray]
    classes: list[TileClass]
    foreground: float
    margin: float = MARGIN
    near_background: float = NEAR_BACKGROUND
    near_object: float = NEAR_OBJECT
    min_score: float = MIN_SCORE
    sources: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """A JSON object; :func:`calibration_from_json` reads it back."""
        return {
            "about": "tile colours for reading pictures; rebuild with gridlang calibrate-image",
            "sources": self.sources,
            "margin": self.margin,
            "near_background": self.near_background,
            "near_object": self.near_object,
            "foreground": round(self.foreground, 4),
            "min_score": self.min_score,
            "background": {ch: [_hex(c) for c in cols] for ch, cols in self.background.items()},
            "classes": [
                {"char": k.char, "name": k.name, "linked": k.linked,
                 "palette": [[_hex(c), round(float(w), 4)] for c, w in zip(k.colours, k.weights)]}
                for k in self.classes
            ],
        }


def calibration_from_json(data: dict, where: str = "the calibration") -> Calibration:
    """Read a calibration from its JSON object.

    Raises:
        ImageError: a key is missing or a colour is not ``#rrggbb``.
    """
    try:
        background = {ch: np.array([_unhex(c) for c in cols], dtype=float).reshape(-1, 3)
                      for ch, cols in data["background"].items()}
        classes = [TileClass(k["char"], k["name"],
                             np.array([_unhex(c) for c, _ in k["palette"]], dtype=float).reshape(-1, 3),
                             np.array([w for _, w in k["palette"]], dtype=float),
                             bool(k.get("linked", False)))
                   for k in data["classes"]]
        return Calibration(background, classes, float(data["foreground"]),
                           float(data.get("margin", MARGIN)), float(data.get("near_background", NEAR_BACKGROUND)),
                           float(data.get("near_object", NEAR_OBJECT)), float(data.get("min_score", MIN_SCORE)),
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
    """A calibration's JSON object as text: one line per setting, background
    tile and class, so that a rebuilt calibration diffs line by line."""
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        end = "," if n < len(items) - 1 else ""
        if key == "background":
            lines.append(f' "{key}": {{')
            inner = list(value.items())
            for m, (ch, colours) in enumerate(inner):
                lines.append(f"  {json.dumps(ch)}: {json.dumps(colours)}" + ("," if m < len(inner) - 1 else ""))
            lines.append(" }" + end)
        elif key == "classes":
            lines.append(f' "{key}": [')
            for m, k in enumerate(value):
                lines.append(f"  {json.dumps(k)}" + ("," if m < len(value) - 1 else ""))
            lines.append(" ]" + end)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write a calibration as JSON (:func:`calibration_text`)."""
    Path(path).write_text(calibration_text(calibration.to_json()), encoding="utf-8")


# ---------------------------------------------------------------- cells

@dataclass
class _Cell:
    colours: np.ndarray  # (n, 3) distinct colours of its inner box
    counts: np.ndarray   # (n,) pixels of each
    background: dict[str, int]  # background char -> pixels
    foreground: np.ndarray  # mask over colours: not background

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    @property
    def fg_share(self) -> float:
        return float(self.counts[self.foreground].sum()) / max(1, self.total)


def _cells(rgb: np.ndarray, lattice: Lattice, background: dict[str, np.ndarray], margin: float,
           near_background: float) -> list[list[_Cell]]:
    packed = _pack(rgb)
    distinct, inverse = np.unique(packed, return_inverse=True)
    inverse = inverse.reshape(packed.shape)
    colours = _unpack(distinct)
    nearest_bg: dict[str, np.ndarray] = {}
    for ch, pal in background.items():
        _, d = _nearest(colours, pal)
        nearest_bg[ch] = d
    is_bg = np.zeros(len(distinct), dtype=bool)
    for d in nearest_bg.values():
        is_bg |= d <= near_background
    h, w = packed.shape
    out = []
    for r in range(lattice.rows):
        row = []
        for c in range(lattice.cols):
            x0, y0, x1, y1 = lattice.box(r, c, margin)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            ids, counts = np.unique(inverse[y0:y1, x0:x1], return_counts=True)
            bg = {}
            for ch, d in nearest_bg.items():
                closest = np.ones(len(ids), dtype=bool)
                for other, d2 in nearest_bg.items():
                    if other != ch:
                        closest &= d[ids] <= d2[ids]
                bg[ch] = int(counts[(d[ids] <= near_background) & closest].sum())
            row.append(_Cell(colours[ids], counts, bg, ~is_bg[ids]))
        out.append(row)
    return out


def read_picture(path: str | Path, calibration: Calibration) -> list[str]:
    """Read a map off a picture.

    Args:
        path: the picture file.
        calibration: the tiles' colours.

    Returns:
        The map's rows, top to bottom, one character per cell; linked tiles
        carry their colour's character.

    Raises:
        ImageError: not an image, no grid found, a cell whose colours match
            no tile, or a linked colour seen other than twice.
    """
    rgb = load_image(path)
    lattice = find_lattice(rgb, str(path))
    cells = _cells(rgb, lattice, calibration.background, calibration.margin, calibration.near_background)
    rows: list[list[str]] = []
    seen: dict[str, list[tuple[int, int]]] = {}
    for r, line in enumerate(cells):
        out = []
        for c, cell in enumerate(line):
            if cell.fg_share < calibration.foreground:
                ch = max(cell.background, key=lambda k: cell.background[k])
            else:
                fg_colours, fg_counts = cell.colours[cell.foreground], cell.counts[cell.foreground]
                scores = [k.score(fg_colours, fg_counts, calibration.near_object) for k in calibration.classes]
                best = int(np.argmax(scores)) if scores else -1
                if best < 0 or scores[best] < calibration.min_score:
                    main = fg_colours[int(np.argmax(fg_counts))]
                    raise ImageError(
                        f"{path}: the tile at row {r + 1}, column {c + 1} has colours no tile of the calibration "
                        f"has (mostly {_hex(main)}; best match "
                        f"{calibration.classes[best].name if best >= 0 else 'none'} at {max(scores, default=0):.2f}); "
                        f"add a picture that shows it with gridlang calibrate-image")
                ch = calibration.classes[best].char
                if calibration.classes[best].linked:
                    seen.setdefault(ch, []).append((r, c))
            out.append(ch)
        rows.append(out)
    for ch, where in seen.items():
        if len(where) != 2:
            name = next(k.name for k in calibration.classes if k.char == ch)
            cells_text = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in where)
            if len(where) == 1:
                raise ImageError(f"{path}: the {name} tile at {cells_text} has no twin of its colour; "
                                 f"linked tiles come in pairs")
            raise ImageError(f"{path}: {len(where)} {name} tiles of one colour at {cells_text}; "
                             f"linked tiles come in pairs")
    return ["".join(row) for row in rows]


# ---------------------------------------------------------------- calibrating

def calibrate(pairs: list[tuple[str | Path, list[str]]], backgrounds: Iterable[str],
              name_of: Callable[[str], str], linked: Callable[[str], bool]) -> Calibration:
    """Learn the tiles' colours from pictures whose maps are known.

    Args:
        pairs: ``(picture file, map rows)``; each picture's grid must have the
            map's size.
        backgrounds: the characters of background tiles: cells
            that carry nothing.
        name_of: a word for the tile of a map character (for messages).
        linked: whether a map character is a linked tile; each linked pair of
            a picture becomes one class, merged with a class of the same
            colours from another picture.

    Returns:
        The calibration: background colours (each 0.3% or more of their
        cells' pixels), each class's palette (colours of 1% or more of its
        foreground pixels, 12 at most), and the foreground threshold midway
        between the largest share seen on a background cell and the smallest
        on a tile.

    Raises:
        ImageError: a picture cannot be read, or its grid differs from its map.
    """
    backgrounds = list(backgrounds)
    pictures = []
    bg_counts: dict[str, dict[int, int]] = {ch: {} for ch in backgrounds}
    for path, rows in pairs:
        rgb = load_image(path)
        lattice = find_lattice(rgb, str(path))
        if (lattice.rows, lattice.cols) != (len(rows), len(rows[0]) if rows else 0):
            raise ImageError(f"{path} shows a grid of {lattice.rows} rows and {lattice.cols} columns, "
                             f"but its map has {len(rows)} rows and {len(rows[0]) if rows else 0} columns")
        packed = _pack(rgb)
        pictures.append((path, rows, rgb, lattice))
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in bg_counts:
                    x0, y0, x1, y1 = lattice.box(r, c)
                    ids, counts = np.unique(packed[y0:y1, x0:x1], return_counts=True)
                    tally = bg_counts[ch]
                    for i, n in zip(ids.tolist(), counts.tolist()):
                        tally[i] = tally.get(i, 0) + n
    background = {}
    for ch, tally in bg_counts.items():
        total = sum(tally.values())
        keep = sorted((i for i, n in tally.items() if total and n >= 0.003 * total), key=lambda i: -tally[i])
        background[ch] = _unpack(np.array(keep, dtype=np.int64)).reshape(-1, 3)

    # foreground colour counts per class key; linked keys are per picture and character
    fg: dict[tuple, dict[int, int]] = {}
    shares_bg: list[float] = []
    shares_fg: list[float] = []
    order: list[tuple] = []
    for path, rows, rgb, lattice in pictures:
        cells = _cells(rgb, lattice, background, MARGIN, NEAR_BACKGROUND)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                cell = cells[r][c]
                if ch in background:
                    shares_bg.append(cell.fg_share)
                    continue
                shares_fg.append(cell.fg_share)
                key = (str(path), ch) if linked(ch) else ("", ch)
                if key not in fg:
                    fg[key] = {}
                    order.append(key)
                tally = fg[key]
                for colour, n in zip(_pack(cell.colours[cell.foreground].astype(np.int32)).tolist(),
                                     cell.counts[cell.foreground].tolist()):
                    tally[colour] = tally.get(colour, 0) + n
    threshold = 0.5 * (max(shares_bg, default=0.0) + min(shares_fg, default=1.0))

    def palette(tally: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
        total = sum(tally.values())
        keep = sorted((i for i, n in tally.items() if n >= 0.01 * total), key=lambda i: -tally[i])[:12]
        return (_unpack(np.array(keep, dtype=np.int64)).reshape(-1, 3),
                np.array([tally[i] / total for i in keep], dtype=float))

    classes: list[TileClass] = []
    tallies: list[dict[int, int]] = []
    for key in order:
        ch = key[1]
        colours, weights = palette(fg[key])
        is_linked = bool(key[0])
        merged = False
        for k, existing in enumerate(classes):
            if existing.linked != is_linked:
                continue
            same = (existing.char == ch) if not is_linked else (
                existing.score(colours, weights, NEAR_OBJECT) >= 0.6
                and TileClass(ch, "", colours, weights).score(existing.colours, existing.weights, NEAR_OBJECT) >= 0.6)
            if same:
                for colour, n in fg[key].items():
                    tallies[k][colour] = tallies[k].get(colour, 0) + n
                classes[k].colours, classes[k].weights = palette(tallies[k])
                merged = True
                break
        if not merged:
            taken = {k.char for k in classes}
            if ch in taken:
                ch = next(p for p in LINK_CHARS if p not in taken)
            classes.append(TileClass(ch, name_of(key[1]), colours, weights, is_linked))
            tallies.append(dict(fg[key]))
    return Calibration(background, classes, threshold, sources=[Path(str(p)).name for p, _ in pairs])
