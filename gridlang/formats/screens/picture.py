"""Opening a picture within the command's limits: one sentence for every file that is not one.

:func:`open_picture` reads a picture file as RGB pixels for
:mod:`gridlang.formats.screens.lattice` and :mod:`gridlang.formats.screens.imaging`:

* **Size, up front.** The header gives the size before anything is
  decoded. A picture of more than :data:`MAX_PIXELS` pixels, or whose
  decoded pixels (Pillow keeps 1 byte per pixel for grey and palette
  pictures, 4 for colour) and the working copy would not fit in what the
  memory limit leaves, is refused before it is decoded. Pillow's own
  decompression-bomb limit becomes the same sentence.
* **Working size.** A picture whose longer side exceeds :data:`WORK_SIDE`
  pixels is shrunk with a box filter (other modes than RGB and RGBA are
  converted strip by strip), so that no second full-size copy is made; a JPEG is decoded at the smallest of its reduced
  sizes (1/2, 1/4, 1/8) that is still larger than the working size.
* **Transparency** is laid over white, as a browser shows it.
* **Time.** Pillow decodes in a worker thread while the deadline is read
  every 0.05 s (past it the worker is left behind); the picture is shrunk
  in strips, and the deadline is read between the strips and the stages.
  Past it :class:`~gridlang.core.deadline.BuildTimeout` is raised.

Every failure is an :class:`~gridlang.core.errors.ImageError` that names the
file: ``FILE: error: sentence``.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridlang.core.deadline import Deadline
from gridlang.core.errors import ImageError
from gridlang.core.memory import human, resident

MAX_PIXELS = 10_000 * 10_000
"""The largest picture read, pixels (a 10,000 x 10,000 screenshot)."""
WORK_SIDE = 3000
"""Longer side, pixels, above which a picture is shrunk before it is read."""
WORK_BYTES = 16
"""Bytes per working pixel the reading may hold at once (the pixels and Pillow's copies of them; the
grid is looked for in a copy of at most 1,100 pixels a side, and larger ones only for cells under 20
pixels there)."""


@dataclass(frozen=True)
class Budget:
    """The limits a picture is read within: the command's deadline and memory limit.

    Attributes:
        deadline: the command's clock, or None for no limit.
        memory: the memory limit in bytes, or None for none.
    """

    deadline: Deadline | None = None
    memory: int | None = None

    def check(self) -> None:
        """Raise :class:`~gridlang.core.deadline.BuildTimeout` once the deadline has passed."""
        if self.deadline is not None:
            self.deadline.check()

    def left(self) -> int | None:
        """Bytes the memory limit leaves beside what the process holds now, or None."""
        if self.memory is None:
            return None
        held = resident()
        return None if held is None else self.memory - held


@dataclass(frozen=True)
class Picture:
    """A picture's pixels at working size.

    Attributes:
        rgb: ``(height, width, 3)`` uint8 pixels.
        scale: working pixels per pixel of the file (1.0, or less when shrunk).
        size: the file's ``(width, height)``, pixels.
    """

    rgb: np.ndarray
    scale: float
    size: tuple[int, int]


def _stored_bytes(mode: str) -> int:
    """Bytes per pixel Pillow keeps for a picture of ``mode``."""
    return 1 if mode in ("1", "L", "P") else 4


def open_picture(path: str | Path, budget: Budget | None = None) -> Picture:
    """Read a picture file as RGB at working size (see the module).

    Args:
        path: a PNG, JPEG, GIF, BMP, WebP, ... file.
        budget: the deadline and memory limit (None: no limits).

    Returns:
        The pixels, with the scale they were shrunk by.

    Raises:
        ImageError: no such file, an empty file, not a picture, a truncated
            or damaged one, or one larger than the limits allow.
        BuildTimeout: the deadline passed.
    """
    from PIL import Image, UnidentifiedImageError

    budget = budget or Budget()
    where = str(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise ImageError("this is a folder, not a picture", path=where)
        if p.stat().st_size == 0:
            raise ImageError("the file is empty, not a picture", path=where)
    except FileNotFoundError as e:
        raise ImageError("no such file", path=where) from e
    except OSError as e:
        raise ImageError(f"cannot read it: {e.strerror or e}", path=where) from e
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(p)
    except Image.DecompressionBombError as e:
        size = re.search(r"\((\d+) pixels\)", str(e))
        raise ImageError(_too_large(int(size.group(1)) if size else None), path=where) from e
    except UnidentifiedImageError as e:
        raise ImageError("this is not a picture gridlang reads (Pillow reads PNG, JPEG, GIF, BMP, WebP)",
                         path=where) from e
    except (OSError, ValueError, SyntaxError) as e:
        raise ImageError(f"the picture is damaged: {e}", path=where) from e
    with im:
        w, h = im.size
        if w < 1 or h < 1 or w * h > MAX_PIXELS:
            raise ImageError(_too_large(w * h, (w, h)), path=where)
        shrink = max(1.0, max(w, h) / WORK_SIDE)
        out_w, out_h = max(1, int(round(w / shrink))), max(1, int(round(h / shrink)))
        if im.format == "JPEG" and shrink >= 2:
            im.draft("RGB", (out_w, out_h))
        dw, dh = im.size  # after draft
        decoded = dw * dh * _stored_bytes(im.mode)
        need = decoded + out_w * out_h * WORK_BYTES
        left = budget.left()
        if left is not None and need > left:
            raise ImageError(f"the picture is {w:,} x {h:,} pixels; reading it needs about {human(need)}, more than "
                             f"the memory limit of {human(budget.memory)} leaves ({human(max(0, left))}); give a "
                             f"smaller picture or raise --memory-limit", path=where)
        budget.check()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                decoded_im = _decode(im, budget)
        except (OSError, ValueError, SyntaxError, EOFError) as e:
            text = str(e)
            if "truncated" in text or "incomplete" in text or isinstance(e, EOFError):
                raise ImageError("the file ends before the picture does (truncated)", path=where) from e
            raise ImageError(f"the picture is damaged: {text}", path=where) from e
        budget.check()
        rgb = _working(decoded_im, (out_w, out_h), budget)
    return Picture(rgb, out_w / w, (w, h))


def _decode(im, budget: Budget):
    """``im.load()`` in a worker thread, the deadline read every 0.05 s while it runs.

    Pillow decodes without holding the GIL, but cannot be stopped: past the
    deadline the worker is left behind (a daemon thread, whose work ends
    with the command) and :class:`~gridlang.core.deadline.BuildTimeout` is raised
    at once. A 9,000 x 9,000 PNG took 2.6 to 4.6 s to decode on a busy machine.
    """
    if budget.deadline is None:
        im.load()
        return im
    box: dict[str, BaseException] = {}

    def work() -> None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                im.load()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    worker = threading.Thread(target=work, name="gridlang-decode", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
        if worker.is_alive():
            budget.check()
    if "error" in box:
        raise box["error"]
    return im


def _too_large(pixels: int | None, size: tuple[int, int] | None = None) -> str:
    what = f"{size[0]:,} x {size[1]:,} pixels" if size else (
        f"{pixels:,} pixels" if pixels is not None else "larger than Pillow decodes")
    return (f"the picture is {what}; gridlang reads pictures of at most {MAX_PIXELS:,} pixels "
            f"(10,000 x 10,000)")


def _working(im, size: tuple[int, int], budget: Budget, strip_bytes: int = 16 * 2**20) -> np.ndarray:
    """The decoded picture as RGB of ``size``, transparency over white, shrunk strip by strip."""
    from PIL import Image

    alpha = im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or (im.mode == "P" and "transparency" in im.info)
    mode = "RGBA" if alpha else "RGB"

    def flat(part):
        part = part.convert(mode)
        if alpha:
            white = Image.new("RGBA", part.size, (255, 255, 255, 255))
            part = Image.alpha_composite(white, part).convert("RGB")
        return part

    w, h = im.size
    if size == (w, h):
        return np.asarray(flat(im))
    direct = im.mode in ("RGB", "RGBA")  # Pillow shrinks a box of these without a copy of the whole
    out = np.empty((size[1], size[0], 3), dtype=np.uint8)
    factor = h / size[1]
    rows = max(1, int(strip_bytes // (4 * w * factor)))  # output rows per strip
    for top in range(0, size[1], rows):
        bottom = min(size[1], top + rows)
        y0, y1 = top * factor, bottom * factor
        if direct:
            part = flat(im.resize((size[0], bottom - top), Image.BOX, box=(0, y0, w, y1)))
        else:
            lo, hi = int(np.floor(y0)), min(h, int(np.ceil(y1)))
            part = flat(im.crop((0, lo, w, hi)))
            part = part.resize((size[0], bottom - top), Image.BOX, box=(0, y0 - lo, w, y1 - lo))
        out[top:bottom] = np.asarray(part)
        budget.check()
    return out
