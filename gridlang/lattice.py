"""Finding the grid of cells in a picture: its size, pitch and place.

A screenshot of a grid game is a lattice of square cells, ``rows`` by
``cols``, drawn at some pitch (pixels per cell, not necessarily whole) and
offset inside a frame. :func:`find_lattice` finds it; :mod:`gridlang.imaging`
then reads each cell's tile.

The lines between cells are thin (one or two pixels) and differ from the
pixels on both sides, which match each other. Counting such
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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import ImageError

MARGIN = 0.15
"""Share of the pitch cut from each side of a cell before reading it."""
MIN_PITCH = 8.0
"""The smallest cell looked for, pixels."""


def load_image(path: str | Path) -> np.ndarray:
    """Read a picture file as RGB.

    Args:
        path: a PNG, JPEG, ... file (anything Pillow reads); an alpha
            channel is dropped.

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
    """The most common colour of the picture's outermost two pixels, as floats."""
    edge = np.concatenate([rgb[:2].reshape(-1, 3), rgb[-2:].reshape(-1, 3),
                           rgb[:, :2].reshape(-1, 3), rgb[:, -2:].reshape(-1, 3)])
    colours, counts = np.unique(edge, axis=0, return_counts=True)
    return colours[np.argmax(counts)].astype(float)


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
