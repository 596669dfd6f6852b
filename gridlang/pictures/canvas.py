"""One drawing, two outputs: SVG text and a Pillow image.

A :class:`Canvas` records shapes (rectangles, ellipses, polygons, lines,
segments, text) in pixel coordinates, nested in classed groups. It writes
them as SVG 1.1 (plain XML through :mod:`xml.etree.ElementTree`, with a
``viewBox``, each shape or group carrying a ``class`` attribute that says
what it shows) and paints the same shapes with Pillow's ``ImageDraw``
(no anti-aliasing, so every fill keeps its exact colour). A group's opacity
is applied to the group as a whole in both: its shapes are painted on a
layer of their own, then laid over what is below.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Sequence, Union

Colour = Union[str, tuple[int, int, int]]
"""``"#rrggbb"`` or ``(r, g, b)``, channels 0-255."""

Point = tuple[float, float]

SVG_NS = "http://www.w3.org/2000/svg"


def rgb(colour: Colour) -> tuple[int, int, int]:
    """A colour as ``(r, g, b)``."""
    if isinstance(colour, str):
        t = colour.lstrip("#")
        if len(t) == 3:
            t = "".join(ch * 2 for ch in t)
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    r, g, b = colour
    return int(r), int(g), int(b)


def hex_colour(colour: Colour) -> str:
    """A colour as ``#rrggbb``."""
    return "#" + "".join(f"{v:02x}" for v in rgb(colour))


@dataclass
class _Shape:
    tag: str
    cls: str | None
    geometry: dict
    fill: Colour | None = None
    stroke: Colour | None = None
    width: float = 1.0


@dataclass
class _Group:
    cls: str | None
    opacity: float = 1.0
    items: list = field(default_factory=list)


class Canvas:
    """A drawing of ``width`` by ``height`` pixels.

    Args:
        width: pixels.
        height: pixels.
        background: colour of the whole picture, or None for transparent.
        title: the SVG ``<title>``.
    """

    def __init__(self, width: int, height: int, background: Colour | None = None, title: str = ""):
        self.width = int(width)
        self.height = int(height)
        self.background = background
        self.title = title
        self._root = _Group(None)
        self._stack = [self._root]

    # ------------------------------------------------------------ recording

    @contextmanager
    def group(self, cls: str | None = None, opacity: float = 1.0) -> Iterator[None]:
        """Shapes added inside the ``with`` block form one group (an SVG ``<g>``)."""
        g = _Group(cls, opacity)
        self._stack[-1].items.append(g)
        self._stack.append(g)
        try:
            yield
        finally:
            self._stack.pop()

    def _add(self, shape: _Shape) -> None:
        self._stack[-1].items.append(shape)

    def rect(self, x: float, y: float, w: float, h: float, fill: Colour | None = None,
             stroke: Colour | None = None, width: float = 1.0, cls: str | None = None) -> None:
        """A rectangle covering pixels ``x`` to ``x + w`` and ``y`` to ``y + h``."""
        self._add(_Shape("rect", cls, {"x": x, "y": y, "w": w, "h": h}, fill, stroke, width))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: Colour | None = None,
                stroke: Colour | None = None, width: float = 1.0, cls: str | None = None) -> None:
        """An ellipse centred at ``(cx, cy)`` with radii ``rx``, ``ry`` (pixels)."""
        self._add(_Shape("ellipse", cls, {"cx": cx, "cy": cy, "rx": rx, "ry": ry}, fill, stroke, width))

    def polygon(self, points: Sequence[Point], fill: Colour | None = None, stroke: Colour | None = None,
                width: float = 1.0, cls: str | None = None) -> None:
        """A closed polygon through ``points``."""
        self._add(_Shape("polygon", cls, {"points": [tuple(p) for p in points]}, fill, stroke, width))

    def line(self, points: Sequence[Point], stroke: Colour, width: float = 1.0, cls: str | None = None) -> None:
        """An open line through ``points``, with round joins and caps."""
        self._add(_Shape("polyline", cls, {"points": [tuple(p) for p in points]}, None, stroke, width))

    def segments(self, pairs: Sequence[tuple[Point, Point]], stroke: Colour, width: float = 1.0,
                 cls: str | None = None) -> None:
        """Many straight segments drawn as one element (an SVG ``<path>``)."""
        self._add(_Shape("path", cls, {"pairs": [(tuple(a), tuple(b)) for a, b in pairs]}, None, stroke, width))

    def text(self, x: float, y: float, text: str, size: float, fill: Colour, cls: str | None = None,
             bold: bool = False) -> None:
        """Text centred on ``(x, y)``, ``size`` pixels high."""
        self._add(_Shape("text", cls, {"x": x, "y": y, "text": text, "size": size, "bold": bold}, fill))

    # ------------------------------------------------------------ SVG

    def to_svg(self) -> str:
        """The drawing as an SVG 1.1 document (UTF-8 text with an XML declaration)."""
        ET.register_namespace("", SVG_NS)
        root = ET.Element(f"{{{SVG_NS}}}svg", {
            "version": "1.1", "width": str(self.width), "height": str(self.height),
            "viewBox": f"0 0 {self.width} {self.height}",
        })
        if self.title:
            ET.SubElement(root, f"{{{SVG_NS}}}title").text = self.title
        if self.background is not None:
            ET.SubElement(root, f"{{{SVG_NS}}}rect", {"class": "background", "x": "0", "y": "0",
                                                     "width": str(self.width), "height": str(self.height),
                                                     "fill": hex_colour(self.background)})
        for item in self._root.items:
            _svg_item(root, item)
        ET.indent(root, space=" ")
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

    # ------------------------------------------------------------ PNG

    def to_image(self):
        """The drawing painted with Pillow.

        Returns:
            A ``PIL.Image.Image`` in mode RGBA, ``width`` by ``height`` pixels.
        """
        from PIL import Image

        back = (0, 0, 0, 0) if self.background is None else (*rgb(self.background), 255)
        image = Image.new("RGBA", (self.width, self.height), back)
        _paint_group(image, self._root)
        return image


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _svg_item(parent: ET.Element, item) -> None:
    if isinstance(item, _Group):
        attrs = {}
        if item.cls:
            attrs["class"] = item.cls
        if item.opacity < 1:
            attrs["opacity"] = _num(item.opacity)
        g = ET.SubElement(parent, f"{{{SVG_NS}}}g", attrs)
        for child in item.items:
            _svg_item(g, child)
        return
    s: _Shape = item
    geo = s.geometry
    attrs: dict[str, str] = {}
    if s.cls:
        attrs["class"] = s.cls
    if s.tag == "rect":
        attrs.update(x=_num(geo["x"]), y=_num(geo["y"]), width=_num(geo["w"]), height=_num(geo["h"]))
    elif s.tag == "ellipse":
        attrs.update(cx=_num(geo["cx"]), cy=_num(geo["cy"]), rx=_num(geo["rx"]), ry=_num(geo["ry"]))
    elif s.tag in ("polygon", "polyline"):
        attrs["points"] = " ".join(f"{_num(x)},{_num(y)}" for x, y in geo["points"])
    elif s.tag == "path":
        attrs["d"] = " ".join(f"M{_num(a[0])},{_num(a[1])} L{_num(b[0])},{_num(b[1])}" for a, b in geo["pairs"])
    elif s.tag == "text":
        attrs.update({"x": _num(geo["x"]), "y": _num(geo["y"]), "font-size": _num(geo["size"]),
                      "font-family": "DejaVu Sans, Verdana, sans-serif", "text-anchor": "middle",
                      "dominant-baseline": "central"})
        if geo["bold"]:
            attrs["font-weight"] = "bold"
    attrs["fill"] = hex_colour(s.fill) if s.fill is not None else "none"
    if s.stroke is not None:
        attrs["stroke"] = hex_colour(s.stroke)
        attrs["stroke-width"] = _num(s.width)
        if s.tag in ("polyline", "path"):
            attrs["stroke-linecap"] = "round"
            attrs["stroke-linejoin"] = "round"
    el = ET.SubElement(parent, f"{{{SVG_NS}}}{s.tag}", attrs)
    if s.tag == "text":
        el.text = geo["text"]


_FONTS: dict[tuple[int, bool], object] = {}


def _font(size: float, bold: bool):
    from PIL import ImageFont

    key = (max(1, int(round(size))), bold)
    if key not in _FONTS:
        font = None
        for name in (("DejaVuSans-Bold.ttf", "Verdana Bold.ttf") if bold else ("DejaVuSans.ttf", "Verdana.ttf")):
            try:
                font = ImageFont.truetype(name, key[0])
                break
            except OSError:
                continue
        _FONTS[key] = font if font is not None else ImageFont.load_default(key[0])
    return _FONTS[key]


def _paint_group(image, group: _Group) -> None:
    from PIL import Image, ImageDraw

    target = image
    if group.opacity < 1:
        target = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(target)
    for item in group.items:
        if isinstance(item, _Group):
            _paint_group(target, item)
            draw = ImageDraw.Draw(target)
        else:
            _paint_shape(draw, item)
    if target is not image:
        alpha = target.getchannel("A").point(lambda a: int(round(a * group.opacity)))
        target.putalpha(alpha)
        image.alpha_composite(target)


def _paint_shape(draw, s: _Shape) -> None:
    geo = s.geometry
    fill = (*rgb(s.fill), 255) if s.fill is not None else None
    stroke = (*rgb(s.stroke), 255) if s.stroke is not None else None
    width = max(1, int(round(s.width)))
    if s.tag == "rect":
        x0, y0 = round(geo["x"]), round(geo["y"])
        x1, y1 = round(geo["x"] + geo["w"]) - 1, round(geo["y"] + geo["h"]) - 1
        if x1 >= x0 and y1 >= y0:
            draw.rectangle((x0, y0, x1, y1), fill=fill, outline=stroke, width=width if stroke else 0)
    elif s.tag == "ellipse":
        box = (round(geo["cx"] - geo["rx"]), round(geo["cy"] - geo["ry"]),
               round(geo["cx"] + geo["rx"]) - 1, round(geo["cy"] + geo["ry"]) - 1)
        if box[2] >= box[0] and box[3] >= box[1]:
            draw.ellipse(box, fill=fill, outline=stroke, width=width if stroke else 0)
    elif s.tag == "polygon":
        pts = [(round(x), round(y)) for x, y in geo["points"]]
        draw.polygon(pts, fill=fill, outline=stroke, width=width if stroke else 0)
    elif s.tag == "polyline":
        pts = [(math.floor(x), math.floor(y)) for x, y in geo["points"]]
        draw.line(pts, fill=stroke, width=width, joint="curve")
        _round_caps(draw, [pts[0], pts[-1]], stroke, width)
    elif s.tag == "path":
        for a, b in geo["pairs"]:
            pts = [(math.floor(a[0]), math.floor(a[1])), (math.floor(b[0]), math.floor(b[1]))]
            draw.line(pts, fill=stroke, width=width)
            _round_caps(draw, pts, stroke, width)
    elif s.tag == "text":
        font = _font(geo["size"], geo["bold"])
        draw.text((geo["x"], geo["y"]), geo["text"], fill=fill, font=font, anchor="mm")


def _round_caps(draw, points: list[tuple[int, int]], colour, width: int) -> None:
    if width < 3:
        return
    r = width / 2
    for x, y in points:
        draw.ellipse((round(x - r), round(y - r), round(x + r) - 1, round(y + r) - 1), fill=colour)
