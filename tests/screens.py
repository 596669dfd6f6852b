"""The game's real screenshots and altered copies of them, made with Pillow.

The screenshots live in ``../shared/data/screens`` beside the repository
(or ``$GRIDLANG_SCREENS``); they carry no licence, so they are read from
there and never copied into the repository. The copies imitate how a
screenshot reaches a user: browser zoom and high-DPI screens (scaled),
a page or a window around the board (framed), JPEG, an alpha channel, a
crop.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from horse_data import REPO
from PIL import Image, ImageDraw, ImageFont


def screens_folder() -> Path | None:
    """The game's screenshots: ``$GRIDLANG_SCREENS``, else ``shared/data/screens`` beside a parent of the repository."""
    if os.environ.get("GRIDLANG_SCREENS"):
        return Path(os.environ["GRIDLANG_SCREENS"])
    for parent in REPO.parents:
        if (parent / "shared" / "data" / "screens").is_dir():
            return parent / "shared" / "data" / "screens"
    return None


SCREENS = screens_folder()
SHOTS = sorted(p.stem for p in SCREENS.glob("*.png")) if SCREENS else []


def true_map(stem: str) -> list[str]:
    """The true map of screenshot ``stem``, one string per row."""
    return (SCREENS / f"{stem}_map.txt").read_text().split()


def shot(stem: str) -> Image.Image:
    """Screenshot ``stem`` as Pillow reads it (RGBA)."""
    with Image.open(SCREENS / f"{stem}.png") as im:
        im.load()
        return im.copy()


def _rgb(im: Image.Image) -> Image.Image:
    return im.convert("RGB")


def scaled(factor: float) -> Callable[[Image.Image], Image.Image]:
    """Resized by ``factor``: Lanczos when shrinking (a browser's zoom out), bicubic when growing."""
    def run(im: Image.Image) -> Image.Image:
        size = (max(1, round(im.width * factor)), max(1, round(im.height * factor)))
        return _rgb(im).resize(size, Image.LANCZOS if factor < 1 else Image.BICUBIC)
    return run


def framed(width: int, colour: tuple[int, int, int]) -> Callable[[Image.Image], Image.Image]:
    """Inside a plain frame ``width`` pixels wide."""
    def run(im: Image.Image) -> Image.Image:
        out = Image.new("RGB", (im.width + 2 * width, im.height + 2 * width), colour)
        out.paste(_rgb(im), (width, width))
        return out
    return run


def _font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType
        return ImageFont.load_default()


def browser(im: Image.Image) -> Image.Image:
    """In a browser window: tabs, an address bar, a page with a heading, text and
    buttons around the board, and a sidebar of links."""
    im = _rgb(im)
    top, left, right, bottom = 150, 260, 60, 120
    out = Image.new("RGB", (im.width + left + right, im.height + top + bottom), (255, 255, 255))
    d = ImageDraw.Draw(out)
    d.rectangle((0, 0, out.width, 40), fill=(222, 225, 230))  # the tab strip
    for k, title in enumerate(("enclose.horse - daily", "puzzles - search", "New Tab")):
        x = 8 + 200 * k
        d.rounded_rectangle((x, 6, x + 190, 40), 8, fill=(255, 255, 255) if k == 0 else (206, 209, 214))
        d.text((x + 12, 14), title, fill=(60, 64, 67), font=_font(13))
    d.rectangle((0, 40, out.width, 84), fill=(255, 255, 255))
    d.rounded_rectangle((90, 47, out.width - 120, 77), 15, fill=(241, 243, 244))
    d.text((110, 53), "https://enclose.horse/daily", fill=(32, 33, 36), font=_font(16))
    for k in range(3):
        d.ellipse((14 + 24 * k, 54, 30 + 24 * k, 70), fill=(95, 99, 104))
    d.line((0, 84, out.width, 84), fill=(218, 220, 224))
    d.text((left, 96), "enclose.horse  Day 22   walls 0 / 9", fill=(20, 20, 20), font=_font(28))
    for k in range(14):  # the sidebar: links and text
        d.text((16, 110 + 30 * k), f"Puzzle {k + 1}   best score {40 + 3 * k}", fill=(26, 13, 171), font=_font(15))
    d.rectangle((10, 560, 230, 700), outline=(200, 200, 200))
    for k in range(5):
        d.line((10, 588 + 28 * k, 230, 588 + 28 * k), fill=(200, 200, 200))
    out.paste(im, (left, top))
    y = top + im.height + 20
    for k, (label, fill) in enumerate((("Reset", (66, 133, 244)), ("Share", (52, 168, 83)), ("Undo", (234, 67, 53)))):
        x = left + 130 * k
        d.rounded_rectangle((x, y, x + 110, y + 44), 10, fill=fill)
        d.text((x + 26, y + 10), label, fill=(255, 255, 255), font=_font(20))
    d.text((left + 420, y + 10), "Enclose the horse with as few walls as you can.", fill=(90, 90, 90),
           font=_font(16))
    return out


def cropped(left: int, top: int, right: int, bottom: int) -> Callable[[Image.Image], Image.Image]:
    """Cut ``left``, ``top``, ``right`` and ``bottom`` pixels off the sides."""
    def run(im: Image.Image) -> Image.Image:
        return im.crop((left, top, im.width - right, im.height - bottom))
    return run


def rgba_on_transparent(im: Image.Image) -> Image.Image:
    """RGBA, the board inside a fully transparent margin of 24 pixels."""
    out = Image.new("RGBA", (im.width + 48, im.height + 48), (0, 0, 0, 0))
    out.paste(im.convert("RGBA"), (24, 24))
    return out


def then(*steps: Callable[[Image.Image], Image.Image]) -> Callable[[Image.Image], Image.Image]:
    """The steps one after another."""
    def run(im: Image.Image) -> Image.Image:
        for step in steps:
            im = step(im)
        return im
    return run


def same(im: Image.Image) -> Image.Image:
    return im


# name -> (alteration, file format, JPEG quality)
ALTERATIONS: dict[str, tuple[Callable[[Image.Image], Image.Image], str, int | None]] = {
    **{f"scale-{f:g}": (scaled(f), "PNG", None) for f in (0.5, 0.75, 0.9, 1.1, 1.25, 1.5, 2, 3)},
    "frame-white": (framed(20, (255, 255, 255)), "PNG", None),
    "frame-white-wide": (framed(120, (255, 255, 255)), "PNG", None),
    "frame-dark": (framed(40, (32, 33, 36)), "PNG", None),
    "browser": (browser, "PNG", None),
    "jpeg-95": (same, "JPEG", 95),
    "jpeg-70": (same, "JPEG", 70),
    "jpeg-60": (same, "JPEG", 60),
    "rgba": (rgba_on_transparent, "PNG", None),
    "crop-10": (cropped(10, 10, 10, 10), "PNG", None),
    "crop-uneven": (cropped(3, 17, 0, 9), "PNG", None),
    "scale-0.75-browser-jpeg-70": (then(browser, scaled(0.75)), "JPEG", 70),
    "scale-1.5-dark-jpeg-60": (then(framed(40, (32, 33, 36)), scaled(1.5)), "JPEG", 60),
    "scale-0.5-jpeg-60": (scaled(0.5), "JPEG", 60),
}


def altered(stem: str, name: str, folder: Path) -> Path:
    """Write screenshot ``stem`` altered by ``ALTERATIONS[name]`` into ``folder``; return the file."""
    step, fmt, quality = ALTERATIONS[name]
    im = step(shot(stem))
    path = folder / f"{stem}-{name}.{'jpg' if fmt == 'JPEG' else 'png'}"
    if fmt == "JPEG":
        im.convert("RGB").save(path, "JPEG", quality=quality)
    else:
        im.save(path, fmt)
    return path
