"""The specs, maps and instances shipped with gridlang, found by name.

They are the repository's ``puzzles/`` folder, installed as the package
``gridlang.puzzles`` (pyproject.toml's ``package-dir``; from a checkout,
the checkout's own folder, see :data:`gridlang.CHECKOUT_PACKAGES`), so the
names below work from any directory:

- a spec is named by its file name without ``.grid``: ``horse``,
  ``horse_lovebirds``, ``nurikabe``, ``snake_eggs``; a puzz.link genre
  alias (``mashu``, ``slither``, ``hashikake``) names its genre's spec;
- a map is named by its path under ``puzzles/maps/`` or
  ``puzzles/instances/``, without ``.txt``: ``daily-2026-01-07``,
  ``nurikabe/pzprjs_5x5``, ``snake_eggs/jandhyala_ch32_6x6``.
"""

from __future__ import annotations

from pathlib import Path

from gridlang.core.errors import GridlangError

MAP_FOLDERS = ("maps", "instances")
"""The folders of ``gridlang.puzzles`` that hold maps, searched in this order."""


class NotBundledError(GridlangError, LookupError):
    """A name that no shipped spec or map has."""


def puzzles_folder() -> Path:
    """The folder of the installed ``gridlang.puzzles`` (the repository's ``puzzles/``).

    Raises:
        NotBundledError: the installation has no ``gridlang.puzzles``.
    """
    from importlib import resources

    try:
        return Path(str(resources.files("gridlang.puzzles")))
    except ModuleNotFoundError:  # an install from before the specs were packaged
        raise NotBundledError("this installation of gridlang has no bundled puzzles (reinstall it)") from None


def spec_names() -> tuple[str, ...]:
    """The names of the shipped specs, sorted (``horse``, ``nurikabe``, ...)."""
    return tuple(sorted(p.stem for p in puzzles_folder().glob("*.grid")))


def spec_path(name: str) -> Path:
    """The file of a shipped spec.

    Args:
        name: the spec's name (:func:`spec_names`), or a puzz.link genre
            name or alias its format declares (``mashu``, ``slither``).

    Raises:
        NotBundledError: no shipped spec has that name (the message names
            the closest, or lists them all).
    """
    name = str(name)
    path = puzzles_folder() / f"{name}.grid"
    if "/" not in name and not path.is_file():
        # imported on use, not at start-up
        from gridlang.formats.puzzlink.index import bundled_spec_for

        path = bundled_spec_for(name.casefold()) or path  # a name its format declares
    if "/" in name or not path.is_file():
        raise NotBundledError(f"no bundled spec is called {name!r}" + _hint(name, spec_names(), "gridlang.bundled_specs()"))
    return path


def map_names(under: str | None = None) -> tuple[str, ...]:
    """The names of the shipped maps and instances, sorted.

    Args:
        under: only those whose name starts with ``under/`` (a genre:
            ``nurikabe``, ``snake_eggs``), or None for all.
    """
    base = puzzles_folder()
    names = []
    for folder in MAP_FOLDERS:
        root = base / folder
        names += [p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.txt")]
    if under is not None:
        names = [n for n in names if n.startswith(under.rstrip("/") + "/")]
    return tuple(sorted(names))


def map_path(name: str) -> Path:
    """The file of a shipped map or instance.

    Args:
        name: its name (:func:`map_names`): ``daily-2026-01-07``,
            ``nurikabe/pzprjs_5x5``.

    Raises:
        NotBundledError: no shipped map has that name (the message names the closest).
    """
    name = str(name)
    stem = name[:-4] if name.endswith(".txt") else name
    if ".." not in Path(stem).parts:
        for folder in MAP_FOLDERS:
            path = puzzles_folder() / folder / f"{stem}.txt"
            if path.is_file():
                return path
    raise NotBundledError(f"no bundled map is called {name!r}" + _hint(stem, map_names(), "gridlang.bundled_maps()"))


def _hint(name: str, names: tuple[str, ...], listing: str) -> str:
    """``; did you mean 'X'?``, or the list of names when none is close (``listing`` names the
    function that lists them when they are too many to show)."""
    import difflib  # only for a name that is not there: not on every solve's --json path

    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f" (there are: {', '.join(names)})" if len(names) <= 30 else f" ({len(names)} of them: {listing} lists them)"
