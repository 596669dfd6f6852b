"""Finding the grid of cells in a picture: its size, pitch and place.

A screenshot of a grid game is a lattice of square cells, ``rows`` by
``cols``, drawn at some pitch (pixels per cell, not necessarily whole) and
offset inside whatever surrounds it: the game's own margin, a browser
window, a page. :func:`find_lattice` finds it; :mod:`gridlang.formats.screens.imaging`
then reads each cell's tile.

**Lines.** The game draws the lines between cells thin and lighter than
the cells on both sides. A pixel is on a vertical line when its brightness
(luma) exceeds that of the pixels one or two columns away on both sides by
``contrast`` (a line one or two pixels wide; blurred or JPEG-compressed
lines stay lighter than both sides). Counting such pixels down every
column, in straight runs of ``min_run`` pixels or more, gives a profile
along x (rows likewise along y) whose peaks recur at the pitch; text and
glyph edges rarely make such runs, and edges between two areas (a frame)
are steps, not ridges.

**Pitch.** Cells are square, so one pitch serves both axes: the profiles'
autocorrelations give candidate lags and their fractions ``1/k``; around
each, both profiles (their logarithms, as which cells show a line follows
the map) are folded modulo trial pitches ``p`` (a step of 0.02 pixel), and
``p`` scores the mean evidence at its best phase minus the best mean at any
phase more than two pixels away: a half pitch scores at most half, a
multiple of the pitch nothing (its other phases hold lines too).

**Extent and regularity.** The lines near ``phase + k * pitch`` whose
evidence is a tenth or more of the strongest quarter's are there; the
board is the span of lines with the most evidence, a missing line inside it
costing as much as a typical line brings (so a frame's stray line beyond a
gap stays out, and a line missing between two rows of cells that draw none
is bridged). Its lines are fitted by least squares; a line more than
:data:`MAX_OFF` pitch off the fit, or pitches along x and y more than
:data:`MAX_ASPECT` apart, make the grid irregular, and the picture is
refused rather than read. Beyond the outermost line, a band one pitch wide
that the other axis's lines run through is a row (or column) whose own
line was lost, to JPEG or to a crop; where the picture's edge cuts such a
band it is read when :data:`PARTIAL` of it shows, and refused otherwise.
Last, a band inside the picture whose pixels mostly differ from the
picture's edge is a row of cells that draw no lines (gridlang's drawings
leave them out around some tiles).

**Scale.** The search runs on the picture shrunk (box filter) so that its
longer side is at most :data:`COARSE_SIDE` pixels, where lines of a picture
scaled up (by a browser's zoom, a high-DPI screen) are thin again; when that
finds no grid, or cells under :data:`FINE_PITCH` pixels, on the picture
shrunk half as much, down to the picture itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from gridlang.core.errors import ImageError

MIN_PITCH = 10.0
"""The smallest cell looked for, pixels (JPEG's 8-pixel blocks stay below it)."""
COARSE_SIDE = 1100
"""Longer side, pixels, of the shrunk picture the grid is first looked for in."""
FINE_PITCH = 20.0
"""Below this pitch (pixels) in the shrunk picture the search is repeated on a larger one."""
MAX_OFF = 0.12
"""Largest distance of a line from the fitted lattice, as a share of the pitch."""
MAX_ASPECT = 0.03
"""Largest relative difference of the pitches along x and y (cells are square)."""


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

    def scaled(self, factor: float) -> Axis:
        """The same axis in a picture ``factor`` times as large."""
        return Axis(self.start * factor, self.pitch * factor, self.count)


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

    @property
    def pitch(self) -> float:
        """The mean of the two axes' pitches, pixels."""
        return 0.5 * (self.x.pitch + self.y.pitch)

    def scaled(self, factor: float) -> Lattice:
        """The same lattice in a picture ``factor`` times as large."""
        return Lattice(self.x.scaled(factor), self.y.scaled(factor))


def luma(rgb: np.ndarray) -> np.ndarray:
    """Brightness of an ``(h, w, 3)`` picture, ITU-R BT.601 weights, float32 ``(h, w)``."""
    out = rgb[..., 0] * np.float32(0.299)
    out += rgb[..., 1] * np.float32(0.587)
    out += rgb[..., 2] * np.float32(0.114)
    return out


def line_hits(light: np.ndarray, axis: int, contrast: float = 4.0, min_run: int = 8, smooth: int = 5,
              chunk: int = 512, check: Callable[[], None] | None = None) -> np.ndarray:
    """The pixels on thin light grid lines.

    Args:
        light: brightness, ``(height, width)`` (:func:`luma`).
        axis: 0 for vertical lines, 1 for horizontal ones.
        contrast: least excess of a line pixel's brightness over both sides,
            after a mean over ``smooth`` pixels along the line (which keeps a
            line and averages JPEG's noise away).
        min_run: least length of a straight run of line pixels, pixels.
        chunk: lines handled at a time (bounds the memory: about
            ``16 * chunk * length`` bytes besides the result).
        check: called after each chunk (a deadline's check), may raise.

    Returns:
        A bool array shaped like ``light``: the pixels on a line one or two
        pixels wide, in runs of ``min_run`` or more along the line.
    """
    a = light if axis == 0 else light.T  # lines are columns of `a`
    length, n = a.shape
    out = np.zeros((length, n), dtype=bool)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        a0, a1 = max(0, lo - 2), min(n, hi + 2)
        part = _mean_along(np.ascontiguousarray(a[:, a0:a1]), smooth)
        hit = np.zeros(part.shape, dtype=bool)
        m = part.shape[1]
        if m >= 3:  # one pixel wide: brighter than both neighbours
            hit[:, 1:-1] = part[:, 1:-1] - np.maximum(part[:, :-2], part[:, 2:]) > contrast
        if m >= 4:  # two pixels wide: both brighter than the pixels beyond them
            two = np.minimum(part[:, 1:-2], part[:, 2:-1]) - np.maximum(part[:, :-3], part[:, 3:]) > contrast
            hit[:, 1:-2] |= two
            hit[:, 2:-1] |= two
        out[:, lo:hi] = _long_runs(hit[:, lo - a0: lo - a0 + (hi - lo)], min_run)
        if check:
            check()
    return out if axis == 0 else out.T


def _mean_along(a: np.ndarray, width: int) -> np.ndarray:
    """Running mean of ``width`` rows down each column of ``a`` (float32, same shape; unchanged at the ends)."""
    if width <= 1 or a.shape[0] < width:
        return a
    c = np.cumsum(a, axis=0, dtype=np.float32)
    out = np.array(a, dtype=np.float32)
    half = width // 2
    inner = c[width - 1:].copy()
    inner[1:] -= c[:-width]
    out[half: half + len(inner)] = inner / width
    return out


def _long_runs(hit: np.ndarray, min_run: int) -> np.ndarray:
    """``hit`` (``(length, n)`` bool) keeping only vertical runs of ``min_run`` or more."""
    length, n = hit.shape
    padded = np.zeros((n, length + 2), dtype=np.int8)
    padded[:, 1:-1] = hit.T
    step = np.diff(padded.ravel())
    starts = np.nonzero(step == 1)[0]
    ends = np.nonzero(step == -1)[0]
    keep = ends - starts >= min_run
    mark = np.zeros(padded.size + 1, dtype=np.int8)
    np.add.at(mark, starts[keep] + 1, 1)
    np.add.at(mark, ends[keep] + 1, -1)
    kept = np.cumsum(mark[:-1], dtype=np.int8).astype(bool).reshape(n, length + 2)[:, 1:-1]
    return kept.T


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


def _autocorrelation_peak(profile: np.ndarray, min_pitch: float) -> float | None:
    """The lag (pixels) at which the centred profile best matches itself shifted, or None."""
    n = len(profile)
    centred = profile - profile.mean()
    lags = np.arange(int(np.ceil(min_pitch)), n // 2 + 1)
    if len(lags) == 0:
        return None
    spread = _dilate(centred, 1)
    corr = np.array([float(np.dot(centred[:-lag], spread[lag:])) for lag in lags])
    if corr.max() <= 0:
        return None
    return float(lags[int(np.argmax(corr))])


def find_pitch(px: np.ndarray, py: np.ndarray, min_pitch: float = MIN_PITCH) -> tuple[float, float, float] | None:
    """The one pitch of square cells from both profiles (see the module).

    Args:
        px: per x, the pixels on vertical lines there (:func:`line_hits`).
        py: per y, the pixels on horizontal lines.
        min_pitch: the smallest cell, pixels.

    Returns:
        ``(pitch, phase_x, phase_y)`` in pixels, or None when no lines recur.
    """
    lx, ly = np.log1p(px), np.log1p(py)
    candidates: list[float] = []
    for prof in (lx, ly):
        if len(prof) < 2 * min_pitch or prof.max() <= 0:
            continue
        lag = _autocorrelation_peak(prof, min_pitch)
        if lag is not None:
            candidates += [lag / k for k in range(1, 7) if lag / k >= min_pitch]
    if not candidates:
        return None
    sx, sy = _dilate(lx, 1), _dilate(ly, 1)
    best = (-np.inf, 0.0, 0.0, 0.0)
    for guess in sorted(set(round(c, 2) for c in candidates)):
        fine = np.arange(max(min_pitch, guess - 1.0), guess + 1.0, 0.02)
        score_x, phase_x = _fold_scores(sx, fine) if len(sx) >= 2 * min_pitch else (np.zeros(len(fine)),) * 2
        score_y, phase_y = _fold_scores(sy, fine) if len(sy) >= 2 * min_pitch else (np.zeros(len(fine)),) * 2
        total = score_x + score_y
        i = int(np.argmax(total))
        if total[i] > best[0]:
            best = (float(total[i]), float(fine[i]), float(phase_x[i]), float(phase_y[i]))
    score, pitch, phase_x, phase_y = best
    if not score > 0:
        return None
    return pitch, phase_x, phase_y


@dataclass(frozen=True)
class _Lines:
    """Lines found along one axis: their indices ``k`` and positions, pixels."""

    ks: np.ndarray
    at: np.ndarray


def _lines(profile: np.ndarray, pitch: float, phase: float, share: float = 0.1) -> _Lines | None:
    """The span of lines near ``phase + k * pitch`` with the most evidence (see the module).

    A line is there when its evidence is ``share`` or more of the median of
    the strongest quarter (``typical``); a line not there inside the span
    costs ``typical``, so a span bridges a missing line only when lines
    worth more lie beyond it.
    """
    n = len(profile)
    window = max(2, int(round(0.08 * pitch)))
    ks, at, strength = [], [], []
    k = -int(np.floor(phase / pitch))
    while phase + k * pitch < n + 0.5 * window:
        guess = phase + k * pitch
        lo, hi = max(0, int(round(guess)) - window), min(n, int(round(guess)) + window + 1)
        if lo < hi:
            j = lo + int(np.argmax(profile[lo:hi]))
            ks.append(k)
            at.append(j)
            strength.append(float(profile[j]))
        k += 1
    s = np.array(strength)
    if len(s) < 2 or s.max() <= 0:
        return None
    top = np.sort(s)[::-1][: max(2, len(s) // 4)]
    typical = float(np.median(top))
    present = s >= max(1.0, share * typical)
    # the span of most evidence, a missing line costing what a typical one brings (Kadane)
    gain = np.where(present, s, -typical)
    best, best_span, total, first = -np.inf, (0, 0), 0.0, 0
    for i, g in enumerate(gain):
        if total <= 0:
            total, first = 0.0, i
        total += g
        if total > best and present[i]:
            best, best_span = total, (first, i)
    lo, hi = best_span
    while not present[lo]:
        lo += 1
    if hi - lo < 1:
        return None
    best = [i for i in range(lo, hi + 1) if present[i]]
    return _Lines(np.array([ks[i] for i in best]), np.array([at[i] for i in best], dtype=float))


def _fit(lines: _Lines, along: str, where: str) -> Axis:
    """Least-squares lattice through the lines; refuse lines far off it.

    Raises:
        ImageError: a line lies more than :data:`MAX_OFF` pitches off the fit.
    """
    k = lines.ks - lines.ks[0]
    slope, intercept = np.polyfit(k, lines.at, 1)
    off = np.abs(lines.at - (intercept + slope * k))
    worst = int(np.argmax(off))
    if off[worst] > max(1.5, MAX_OFF * slope):
        raise ImageError(f"the grid in {where} is not regular: the line between its {along} "
                         f"{int(k[worst])} and {int(k[worst]) + 1} lies {off[worst]:.1f} pixels off the "
                         f"others' spacing of {slope:.1f}")
    return Axis(float(intercept), float(slope), int(k[-1]))


def find_lattice(rgb: np.ndarray, where: str = "the picture",
                 check: Callable[[], None] | None = None) -> Lattice:
    """Find the grid of cells in a picture (see the module).

    Args:
        rgb: ``(height, width, 3)`` pixels, uint8.
        where: the picture's name, for messages.
        check: called between stages (a deadline's check), may raise.

    Returns:
        The lattice (cells and pitch along each axis), in the picture's pixels.

    Raises:
        ImageError: no grid lines recur, the grid found is not regular, or the
            picture's edge cuts a row or column of cells in two.
    """
    h, w = rgb.shape[:2]
    shrink = max(1.0, max(h, w) / COARSE_SIDE)
    failure: ImageError | None = None
    while True:
        found, lines = None, False
        try:
            found, lines = _find(_shrunk(rgb, shrink), where, check)
        except ImageError as e:
            failure, lines = failure or e, True
        if found is not None and (found.pitch >= FINE_PITCH or shrink == 1.0):
            lattice = found.scaled(shrink)
            break
        if shrink == 1.0 or not lines:  # a picture without a single line shows none larger
            raise failure or ImageError(f"no grid found in {where}: no thin light lines recur at one pitch")
        shrink = max(1.0, shrink / 2)
    frame = edge_colours(rgb)
    x = _extend(lattice.x, lattice.y, rgb, 0, frame)
    return Lattice(x, _extend(lattice.y, x, rgb, 1, frame))


def _shrunk(rgb: np.ndarray, factor: float) -> np.ndarray:
    """The picture shrunk ``factor`` times with a box filter (Pillow), or itself for 1."""
    if factor == 1.0:
        return rgb
    from PIL import Image

    h, w = rgb.shape[:2]
    size = (max(1, int(round(w / factor))), max(1, int(round(h / factor))))
    return np.asarray(Image.fromarray(rgb).resize(size, Image.BOX))


def _find(rgb: np.ndarray, where: str, check: Callable[[], None] | None) -> tuple[Lattice | None, bool]:
    """The regular lattice of one picture, or None when no lines recur; and whether any line showed."""
    light = luma(rgb)
    vertical = line_hits(light, 0, check=check)
    horizontal = line_hits(light, 1, check=check)
    del light
    px, py = vertical.sum(axis=0).astype(float), horizontal.sum(axis=1).astype(float)
    lines = bool(px.max(initial=0) > 0 or py.max(initial=0) > 0)
    if check:
        check()
    found = find_pitch(px, py)
    if check:
        check()
    if found is None:
        return None, lines
    pitch, phase_x, phase_y = found
    lx, ly = _lines(px, pitch, phase_x), _lines(py, pitch, phase_y)
    if lx is None or ly is None:
        return None, lines
    x, y = _fit(lx, "columns", where), _fit(ly, "rows", where)
    if abs(x.pitch - y.pitch) > MAX_ASPECT * max(x.pitch, y.pitch):
        raise ImageError(f"the grid in {where} is not regular: its cells are {x.pitch:.1f} pixels wide "
                         f"but {y.pitch:.1f} high, and the game's cells are square")
    for _ in range(2):
        x = _grow(x, y, horizontal, 0, where)
        y = _grow(y, x, vertical, 1, where)
    return Lattice(x, y), lines


PARTIAL = 0.7
"""Least share of a cell the picture must show for a row or column its edge cuts to be read."""


def _grow(axis: Axis, other: Axis, across: np.ndarray, along: int, where: str) -> Axis:
    """Add the rows (``along`` 1) or columns (0) whose bounding line is missing.

    A band one pitch wide beyond the outermost line is cells of the board
    when the other axis's lines (``across``, their pixels: vertical lines
    for rows) run through it. A band the picture's edge cuts is read when
    the picture shows :data:`PARTIAL` of it, and refused otherwise.

    Raises:
        ImageError: the picture's edge cuts a row or column of the board so
            that less than :data:`PARTIAL` of it shows.
    """
    n = across.shape[1 - along]
    lines = [int(round(other.edge(j))) for j in range(other.count + 1)]

    def continues(a: float, b: float) -> bool:
        # the first pixels past a line are left out: a line's run may overshoot its crossing
        lo, hi = max(0, int(np.ceil(a)) + 3), min(n, int(np.floor(b)) - 3)
        if hi - lo < max(3.0, 0.15 * axis.pitch):
            return False
        shares = []
        for x in lines:
            if not 1 <= x < across.shape[along] - 1:
                continue
            strip = across[lo:hi, x - 1: x + 2] if along == 1 else across[x - 1: x + 2, lo:hi].T
            shares.append(float(strip.any(axis=1).mean()))
        return bool(shares) and float(np.mean(np.array(shares) >= 0.5)) >= 0.5

    start, count, p = axis.start, axis.count, axis.pitch
    names = ("column", "left") if along == 0 else ("row", "top")
    while start - p > -2.0 and continues(start - p, start):
        start, count = start - p, count + 1
    if start - p <= -2.0 and continues(-3.0, start):
        if start < PARTIAL * p:
            raise ImageError(f"{where} cuts off the board at its {names[1]}: it shows only "
                             f"{start / p:.0%} of the {names[0]} beyond the last line")
        start, count = start - p, count + 1
    while start + (count + 1) * p < n + 2.0 and continues(start + count * p, start + (count + 1) * p):
        count += 1
    end = start + count * p
    if end + p >= n + 2.0 and continues(end, n + 3.0):
        if n - end < PARTIAL * p:
            raise ImageError(f"{where} cuts off the board at its "
                             f"{'right' if along == 0 else 'bottom'}: it shows only {(n - end) / p:.0%} of the "
                             f"{names[0]} beyond the last line")
        count += 1
    return Axis(start, p, count)


def edge_colours(rgb: np.ndarray, share: float = 0.05) -> np.ndarray:
    """The colours of the picture's outermost two pixels that cover ``share`` or more of them, ``(k, 3)`` floats."""
    edge = np.concatenate([rgb[:2].reshape(-1, 3), rgb[-2:].reshape(-1, 3),
                           rgb[:, :2].reshape(-1, 3), rgb[:, -2:].reshape(-1, 3)])
    quantised = (edge // 8).astype(np.int32)
    packed = (quantised[:, 0] << 10) | (quantised[:, 1] << 5) | quantised[:, 2]
    values, inverse, counts = np.unique(packed, return_inverse=True, return_counts=True)
    keep = np.nonzero(counts >= share * len(edge))[0]
    if len(keep) == 0:
        keep = np.array([int(np.argmax(counts))])
    return np.array([edge[inverse.ravel() == i].astype(float).mean(axis=0) for i in keep])


def _extend(axis: Axis, other: Axis, rgb: np.ndarray, along: int, frame: np.ndarray, near: float = 30.0,
            board: float = 0.8, tolerance: float = 2.0) -> Axis:
    """Add the cells beyond the outermost visible lines.

    A band one pitch wide beyond the outermost line is a row (or column) of
    the map when it lies inside the picture and more than ``board`` of its
    pixels lie further than ``near`` (RGB distance) from every colour of the
    picture's edge (``frame``, :func:`edge_colours`): a drawing shows no
    lines around some tiles at the map's edge. The band spans the
    cells of the ``other`` axis.
    """
    n = rgb.shape[1 - along]
    o0, o1 = max(0, int(np.ceil(other.start))), max(0, int(np.floor(other.edge(other.count))))

    def filled(a: float, b: float) -> bool:
        lo, hi = int(np.ceil(a)), int(np.floor(b))
        part = (rgb[o0:o1, lo:hi] if along == 0 else rgb[lo:hi, o0:o1]).reshape(-1, 3)
        if len(part) == 0:
            return False
        step = max(1, len(part) // 20000)
        part = part[::step].astype(np.float32)
        d = np.sqrt(((part[:, None, :] - frame[None, :, :].astype(np.float32)) ** 2).sum(axis=2)).min(axis=1)
        return float((d > near).mean()) > board

    start, count = axis.start, axis.count
    while start - axis.pitch >= -tolerance and filled(max(0.0, start - axis.pitch), start):
        start -= axis.pitch
        count += 1
    while start + (count + 1) * axis.pitch <= n + tolerance and filled(
            start + count * axis.pitch, min(float(n), start + (count + 1) * axis.pitch)):
        count += 1
    return Axis(start, axis.pitch, count)
