"""Puzzle plug-ins: everything particular to one puzzle family, found by name.

The generic layers (maps, compiler, pipeline, CLI) know no puzzle. What one
family needs beyond its ``.grid`` spec lives in one module here, a
:class:`Plugin` whose hooks the core calls:

* :meth:`Plugin.verify` re-checks an answer from the family's published
  rules (a breadth-first search over the map, never the IR), and its score
  is the one gridlang reports;
* :meth:`Plugin.render` draws an answer for the terminal in a family's
  own way (else the spec's looks draw it, :mod:`gridlang.pictures.textdraw`);
* :meth:`Plugin.read_map` reads the family's own instance formats;
* :meth:`Plugin.summary` adds figures to the status line;
* :meth:`Plugin.extras` adds a JSON object under the plug-in's own key in
  ``--json`` output;
* :meth:`Plugin.style` says how pictures of its answers look in a family's
  own way (``--svg``, ``--png``: :mod:`gridlang.pictures.draw`; else the spec's
  ``draw`` statements say it, :mod:`gridlang.language.looks`);
* :meth:`Plugin.read_image` reads a map off a screenshot of the game, and
  :meth:`Plugin.calibrate_image` learns the colours it needs for that from
  screenshots with known maps (:mod:`gridlang.formats.screens.imaging`).

Every hook has a default that does nothing, so a puzzle with no plug-in
(:data:`DEFAULT`) is checked against the compiled model alone and drawn
from its spec's looks.

A plug-in is found by the spec's ``puzzle "NAME"`` statement, compared
case-insensitively, through :func:`find_plugin`. The registry maps names to
module paths; a module is imported on first use and must define ``PLUGIN``,
an instance of :class:`Plugin`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from gridlang.core.nodes import Record, field

if TYPE_CHECKING:
    from gridlang.core.grid import Grid
    from gridlang.formats.maps import MapData
    from gridlang.formats.screens.picture import Budget
    from gridlang.ir.model import Model
    from gridlang.ir.solution import Solution
    from gridlang.pictures.draw import Style


class Verdict(Record, frozen=False, slots=False):
    """The outcome of a verification.

    Attributes:
        ok: every rule holds.
        score: the score computed from the rules (None for puzzles without one).
        problems: one sentence per broken rule.
        verifier: which verifier ran (``enclose.horse``).
        details: figures for the report (cells enclosed, path cells...).
    """

    ok: bool
    score: int | None
    problems: list[str] = field(default_factory=list)
    verifier: str = ""
    details: dict[str, object] = field(default_factory=dict)


class Plugin:
    """A puzzle family's hooks; each default does nothing.

    Attributes:
        name: the key under which :meth:`extras` appear in ``--json`` output
            (a short identifier, ``horse``); empty for :data:`DEFAULT`.
    """

    name: str = ""

    def verify(self, grid: Grid, solution: Solution, params: dict[str, object],
               variant: str | None = None) -> Verdict | None:
        """Check an answer against the family's published rules and score it.

        Args:
            grid: the map; a verifier reads only its characters, size and links.
            solution: the decoded answer, by the spec's names.
            params: the resolved parameter values, by name.
            variant: the spec's ``variant "..."``, or None.

        Returns:
            The verdict, or None when the family has no verifier (the answer
            is then checked against the compiled model only).
        """
        return None

    def render(self, grid: Grid, solution: Solution) -> str | None:
        """Draw an answer for the terminal.

        Returns:
            Text lines joined by newlines, or None to draw it from the spec's
            looks (:mod:`gridlang.pictures.textdraw`).
        """
        return None

    def read_map(self, path: str, text: str) -> MapData | None:
        """Read a file in one of the family's own instance formats.

        Args:
            path: the file as the user named it (for error locations).
            text: the file's whole text.

        The default reads none. Whatever the family, a text no plug-in
        reads is then tried as a map of :mod:`gridlang.formats.layers`
        (cells separated by white space, a ``rooms:`` layer), and last as a
        plain text or JSON map (:func:`gridlang.formats.maps.read_map`).

        Returns:
            The grid rows and parameters, or None when the text is not in a
            format of this family (the generic readers then take it).

        Raises:
            MapError: the text is in the family's format but malformed,
                located at its line and column.
        """
        return None

    def summary(self, model: Model, solution: Solution) -> list[str]:
        """Figures for the status line after the score, such as ``walls 12/12``.

        Args:
            model: the compiled model; only its grid and parameters are read.
            solution: the decoded, verified answer.

        Returns:
            Short text parts, in order; empty for none.
        """
        return []

    def extras(self, model: Model, solution: Solution | None) -> dict[str, object]:
        """The family's figures for ``--json``, printed under the key :attr:`name`.

        Args:
            model: the compiled model; only its grid and parameters are read.
            solution: the decoded, verified answer, or None when there is none.

        Returns:
            A JSON-serialisable object; empty for none (no key is printed).
        """
        return {}

    def style(self, grid: Grid, solution: Solution | None = None) -> Style | None:
        """How pictures of the family's maps and answers look.

        Args:
            grid: the map to be drawn.
            solution: the answer to be drawn with it (its decisions' names
                key the style's marks), or None for the bare map.

        Returns:
            A style whose parts override :func:`gridlang.pictures.draw.default_style`
            (tile colours and glyphs, decision marks, region shades), or None
            to draw from the spec's looks (:mod:`gridlang.language.looks`).
        """
        return None

    def read_image(self, path: str, calibration: str | None = None, budget: Budget | None = None) -> list[str] | None:
        """Read a map off a picture of the game (a screenshot).

        Args:
            path: the picture file.
            calibration: a calibration file to use instead of the family's own.
            budget: the command's deadline and memory limit
                (:class:`gridlang.formats.screens.picture.Budget`), read between the stages.

        Returns:
            The map's rows, or None when the family reads no pictures.

        Raises:
            ImageError: not an image, no regular grid in it, or a cell whose
                tile is unsure.
            BuildTimeout: the deadline passed.
        """
        return None

    def calibrate_image(self, pairs: list[tuple[str, list[str]]]) -> dict | None:
        """Learn the colours :meth:`read_image` needs from pictures with known maps.

        Args:
            pairs: ``(picture file, map rows)``.

        Returns:
            The calibration as a JSON object, or None when the family reads
            no pictures.

        Raises:
            ImageError: a picture cannot be read or its grid differs from its map.
        """
        return None


DEFAULT = Plugin()
"""The plug-in of a puzzle with none registered: every hook does nothing."""

_FAMILIES = "gridlang.families"
"""The package of the shipped plug-ins; it sits above the layers that call the
hooks, so they are imported by name, on first use, never by an import statement here."""

# puzzle name (case-folded) -> module that defines PLUGIN
_REGISTRY: dict[str, str] = {
    "enclose.horse": f"{_FAMILIES}.horse",
    "snake eggs": f"{_FAMILIES}.snake_eggs",
    "star battle": f"{_FAMILIES}.starbattle",
    "sudoku": f"{_FAMILIES}.sudoku",
    "norinori": f"{_FAMILIES}.norinori",
    "hitori": f"{_FAMILIES}.hitori",
    "nurikabe": f"{_FAMILIES}.nurikabe",
    "lits": f"{_FAMILIES}.lits",
    "heyawake": f"{_FAMILIES}.heyawake",
    "statue park": f"{_FAMILIES}.statuepark",
    "masyu": f"{_FAMILIES}.masyu",
    "slitherlink": f"{_FAMILIES}.slitherlink",
    "numberlink": f"{_FAMILIES}.numberlink",
    "hashiwokakero": f"{_FAMILIES}.hashiwokakero",
    "arukone": f"{_FAMILIES}.arukone",
}
_LOADED: dict[str, Plugin] = {}


def _key(puzzle: str) -> str:
    return " ".join(puzzle.split()).casefold()


def register(puzzle: str, module: str) -> None:
    """Make ``module`` the plug-in of the puzzle named ``puzzle``.

    Args:
        puzzle: the name a spec gives in ``puzzle "NAME"`` (case-insensitive).
        module: a dotted module path; it is imported on first use and must
            define ``PLUGIN``, a :class:`Plugin`.
    """
    key = _key(puzzle)
    _REGISTRY[key] = module
    _LOADED.pop(key, None)


def registered() -> list[str]:
    """The registered puzzle names, case-folded, in registration order."""
    return list(_REGISTRY)


def find_plugin(puzzle: str | None) -> Plugin:
    """The plug-in of a puzzle, by the name its spec gives.

    Args:
        puzzle: the spec's ``puzzle`` name, compared case-insensitively and
            with runs of spaces as one; None for none.

    Returns:
        The registered plug-in, or :data:`DEFAULT` for a puzzle without one.

    Raises:
        TypeError: the registered module's ``PLUGIN`` is not a :class:`Plugin`.
    """
    if puzzle is None:
        return DEFAULT
    key = _key(puzzle)
    if key not in _REGISTRY:
        return DEFAULT
    if key not in _LOADED:
        module = importlib.import_module(_REGISTRY[key])
        plugin = getattr(module, "PLUGIN", None)
        if not isinstance(plugin, Plugin):
            raise TypeError(f"module {module.__name__} registered for puzzle {puzzle!r} defines no PLUGIN")
        _LOADED[key] = plugin
    return _LOADED[key]


def all_plugins() -> list[Plugin]:
    """Every registered plug-in, imported, in registration order (each once)."""
    out: list[Plugin] = []
    for name in _REGISTRY:
        plugin = find_plugin(name)
        if plugin not in out:
            out.append(plugin)
    return out
