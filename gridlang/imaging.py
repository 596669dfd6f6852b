"""Reading a puzzle's map off a picture: the grid, then each cell's tile by its colours.

A screenshot of a grid game is a lattice of square cells, ``rows`` by
``cols``, drawn at some pitch (pixels per cell, not necessarily whole) and
offset inside a frame. :func:`find_lattice` finds it; :func:`read_picture`
then names every cell's tile with a :class:`Calibration`, the colours of each
tile learned from pictures whose maps are known (:func:`calibrate`).

**The grid.** The lines between cells are thin (one or two pixels) and
differ from the pixels on both sides, which match each other. Counting such
pixels down every column, in straight runs of 8 pixels or more, gives a
profile along x (rows likewise along y) whose peaks recur at the pitch; its
logarithm is taken, as which cells show a line depends on the map. The
profile's autocorrelation peaks at the pitch or a multiple of it. Around
that lag and its fractions ``1/k`` the profile is folded modulo trial
pitches ``p`` (a step of 0.02 pixel), and ``p`` scores the mean evidence at
its best phase minus the best mean at any phase more than two pixels away:
a half pitch scores at most half, a multiple of the pitch nothing (its other
phases hold lines too). The lines found near ``offset + k * pitch`` are
fitted by least squares. The grid spans the first to the last strong line,
and further while a band one pitch wide beyond them fits in the picture and
is not plain frame (a row of tiles that draw no lines shows none).

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

**Linked tiles** (pairs joined across the map) are one class per colour. Each class
has its own map character, so a pair read off a picture is labelled by its
colour; a colour seen other than twice is an error.

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

LINK_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""Characters given to linked classes, in order, when a map leaves one free."""

MARGIN = 0.15
NEAR_BACKGROUND = 12.0
NEAR_OBJECT = 20.0
MIN_SCORE = 0.5
MIN_PITCH = 8.0


# ---------------------------------------------------------------- the picture

def load_image(path: str | Path) -> np.ndarray:
    """Read a picture file as RGB.

    Args:
        path: a PNG, JPEG, ... file (anything Pillow reads); transparency is
            laid over black.

    Returns:
        An array of shape ``(height, width, 3)``, dtype uint8 (pixels).

    Raises:
        ImageError: the file cannot be read or is not an image.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            im.load()
            rgb = im.convert("RGB")
    except FileNotFoundError as e:
        raise ImageError(f"cannot read {path}: no such file") from e
    except UnidentifiedImageError as e:
        raise ImageError(f"{path} is not an image (Pillow reads PNG, JPEG, GIF, BMP, WebP)") from e
    except OSError as e:
        raise ImageError(f"cannot read {path}: {e.strerror or e}") from e
    return np.asarray(rgb)


@dataclass(frozen=True)
class Axis:
    """The grid along one axis of a picture.

    Attributes:
        start: pixel coordinate of the first grid line (the cells' near edge).
        pitch: pixels per cell (a fraction in general).
        count: number of cells.
    """

    start: float
    pitch: float
    count: int

    def edge(self, k: int) -> float:
        """Pixel coordinate of grid line ``k`` (0 to ``count``)."""
        return self.start + k * self.pitch


@dataclass(frozen=True)
class Lattice:
    """Where a picture's grid lies: columns along x, rows along y."""

    x: Axis
    y: Axis

    @property
    def rows(self) -> int:
        return self.y.count

    @property
    def cols(self) -> int:
        return self.x.count

    def box(self, r: int, c: int, margin: float = MARGIN) -> tuple[int, int, int, int]:
        """The inner pixel box of cell ``(r, c)``: ``(x0, y0, x1, y1)``, end exclusive,
        ``margin`` (a share of the pitch) cut from each side."""
        x0 = self.x.edge(c) + margin * self.x.pitch
        x1 = self.x.edge(c + 1) - margin * self.x.pitch
        y0 = self.y.edge(r) + margin * self.y.pitch
        y1 = self.y.edge(r + 1) - margin * self.y.pitch
        return int(np.ceil(x0)), int(np.ceil(y0)), int(np.floor(x1)) + 1, int(np.floor(y1)) + 1


def line_profile(rgb: np.ndarray, axis: int, contrast: int = 24, flat: int = 6,
                 min_run: int = int(MIN_PITCH)) -> np.ndarray:
    """Evidence of thin grid lines at each coordinate.

    Args:
        rgb: the picture, ``(height, width, 3)``.
        axis: 0 for vertical lines (a profile along x), 1 for horizontal ones.
        contrast: least sum of channel differences between a line pixel and its side.
        flat: most sum of channel differences between the two sides.
        min_run: least length of a straight run of line pixels, pixels.

    Returns:
        Per coordinate along the axis, the number of pixels that sit on a line
        one or two pixels wide (they differ from the pixel before by more than
        ``contrast``, and the pixels on both sides of the line match) in runs
        of ``min_run`` or more along the line; the edges of glyphs rarely make
        such runs.
    """
    a = rgb.astype(np.int16)
    if axis == 1:
        a = a.transpose(1, 0, 2)

    def diff(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.abs(u - v).sum(axis=-1)

    n = a.shape[1]
    hit = np.zeros(a.shape[:2], dtype=bool)
    if n >= 3:
        before, at, after = a[:, :-2], a[:, 1:-1], a[:, 2:]
        hit[:, 1:-1] |= (diff(at, before) > contrast) & (diff(before, after) <= flat)
    if n >= 4:
        before, at, at2, after = a[:, :-3], a[:, 1:-2], a[:, 2:-1], a[:, 3:]
        hit[:, 1:-2] |= (diff(at, before) > contrast) & (diff(at, at2) <= flat) & (diff(before, after) <= flat)
    # runs down each column of `hit` (a line's length)
    length = hit.shape[0]
    padded = np.zeros((n, length + 2), dtype=np.int8)
    padded[:, 1:-1] = hit.T
    step = np.diff(padded.ravel())
    starts = np.nonzero(step == 1)[0]
    ends = np.nonzero(step == -1)[0]
    runs = ends - starts
    keep = runs >= min_run
    return np.bincount(starts[keep] // (length + 2), weights=runs[keep], minlength=n).astype(float)


def _dilate(profile: np.ndarray, radius: int) -> np.ndarray:
    out = profile.copy()
    for s in range(1, radius + 1):
        out[s:] = np.maximum(out[s:], profile[:-s])
        out[:-s] = np.maximum(out[:-s], profile[s:])
    return out


def _fold_scores(profile: np.ndarray, pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each trial pitch, the folded profile's best phase (pixels) and its score (see the module).

    The phase is cut into ``round(p)`` bins of equal width, so that every bin
    holds as many samples as the others.
    """
    xs = np.arange(len(profile), dtype=float)
    scores = np.full(len(pitches), -np.inf)
    phases = np.zeros(len(pitches))
    for i, p in enumerate(pitches):
        bins = max(1, int(round(p)))
        phase = np.minimum(np.floor(np.mod(xs, p) * bins / p).astype(int), bins - 1)
        total = np.bincount(phase, weights=profile, minlength=bins)
        count = np.bincount(phase, minlength=bins)
        mean = total / np.maximum(count, 1)
        best = int(np.argmax(mean))
        gap = np.abs(np.arange(bins) - best)
        gap = np.minimum(gap, bins - gap)
        others = mean[gap > 2]
        scores[i] = mean[best] - (others.max() if len(others) else 0.0)
        phases[i] = (best + 0.5) * p / bins
    return scores, phases


def find_axis(profile: np.ndarray, min_pitch: float = MIN_PITCH) -> Axis | None:
    """The grid along one axis from its line profile (see the module).

    Args:
        profile: :func:`line_profile` of the picture along this axis.
        min_pitch: the smallest cell, pixels.

    Returns:
        The axis, or None when no two grid lines recur at one pitch.
    """
    n = len(profile)
    if n < 2 * min_pitch or profile.max() <= 0:
        return None
    # A line's strength is how much of it crosses cells it is drawn on; which
    # cells those are follows the map, so only presence should recur.
    profile = np.log1p(profile)
    centred = profile - profile.mean()
    lags = np.arange(int(np.ceil(min_pitch)), n // 2 + 1)
    if len(lags) == 0:
        return None
    spread = _dilate(centred, 1)
    corr = np.array([float(np.dot(centred[:-lag], spread[lag:])) for lag in lags])
    if corr.max() <= 0:
        return None
    p0 = float(lags[int(np.argmax(corr))])
    # The strongest lag may be a multiple of the pitch (a map whose rows
    # repeat); the fold score tells them apart, as a multiple scores nothing.
    spread = _dilate(profile, 1)
    best = (-np.inf, p0, 0.0)
    for k in range(1, 7):
        if p0 / k < min_pitch:
            break
        fine = np.arange(max(min_pitch, p0 / k - 1.0), p0 / k + 1.0, 0.02)
        scores, phases = _fold_scores(spread, fine)
        i = int(np.argmax(scores))
        if scores[i] > best[0]:
            best = (float(scores[i]), float(fine[i]), float(phases[i]))
    _, pitch, phase = best
    window = max(2, int(round(0.08 * pitch)))
    ks, at, strength = [], [], []
    k = -int(np.floor(phase / pitch))
    while phase + k * pitch < n:
        guess = phase + k * pitch
        lo, hi = max(0, int(round(guess)) - window), min(n, int(round(guess)) + window + 1)
        if lo < hi:
            j = lo + int(np.argmax(profile[lo:hi]))
            ks.append(k)
            at.append(j)
            strength.append(profile[j])
        k += 1
    strength_a = np.array(strength)
    top = strength_a[strength_a >= 0.5 * strength_a.max()]
    strong = strength_a >= 0.3 * float(np.median(top))
    idx = np.nonzero(strong)[0]
    if len(idx) < 2:
        return None
    first, last = idx[0], idx[-1]
    kk = np.array(ks, dtype=float)[idx]
    xx = np.array(at, dtype=float)[idx]
    slope, intercept = np.polyfit(kk - kk[0], xx, 1) if len(idx) > 1 else (pitch, xx[0])
    count = ks[last] - ks[first]
    if count < 1 or slope < min_pitch:
        return None
    return Axis(float(intercept), float(slope), int(count))


def find_lattice(rgb: np.ndarray, where: str = "the picture") -> Lattice:
    """Find the grid of cells in a picture.

    Args:
        rgb: ``(height, width, 3)`` pixels.
        where: the picture's name, for messages.

    Returns:
        The lattice (cells and pitch along each axis).

    Raises:
        ImageError: no grid lines recur along one of the axes.
    """
    x = find_axis(line_profile(rgb, 0))
    y = find_axis(line_profile(rgb, 1))
    if x is None or y is None:
        along = "columns" if x is None else "rows"
        raise ImageError(f"no grid found in {where}: no thin lines recur at one pitch between its {along}")
    frame = _frame_colour(rgb)
    return Lattice(_extend(x, rgb, 0, frame), _extend(y, rgb, 1, frame))


def _frame_colour(rgb: np.ndarray) -> np.ndarray:
    """The most common colour of the picture's outermost two pixels."""
    edge = np.concatenate([rgb[:2].reshape(-1, 3), rgb[-2:].reshape(-1, 3),
                           rgb[:, :2].reshape(-1, 3), rgb[:, -2:].reshape(-1, 3)])
    colours, counts = np.unique(_pack(edge), return_counts=True)
    return _unpack(colours[np.argmax(counts)])


def _extend(axis: Axis, rgb: np.ndarray, along: int, frame: np.ndarray, tolerance: float = 2.0,
            content: float = 0.05) -> Axis:
    """Add the cells beyond the outermost visible lines.

    Grid lines show only between cells that draw them, so a row of cells
    that draw none at the map's edge shows none. A band one pitch wide beyond
    the outermost line is a row (or column) of the map when it lies inside
    the picture and more than ``content`` of its pixels differ from the frame.
    """
    n = rgb.shape[1 - along]

    def band(a: float, b: float) -> np.ndarray:
        lo, hi = int(np.ceil(a)), int(np.floor(b))
        return rgb[:, lo:hi] if along == 0 else rgb[lo:hi]

    def filled(a: float, b: float) -> bool:
        part = band(a, b).reshape(-1, 3).astype(float)
        return len(part) > 0 and float((np.abs(part - frame).sum(axis=1) > 12).mean()) > content

    start, count = axis.start, axis.count
    while start - axis.pitch >= -tolerance and filled(max(0.0, start - axis.pitch), start):
        start -= axis.pitch
        count += 1
    while start + (count + 1) * axis.pitch <= n + tolerance and filled(
            start + count * axis.pitch, min(float(n), start + (count + 1) * axis.pitch)):
        count += 1
    return Axis(start, axis.pitch, count)


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
