"""The bundled specs indexed by the genre names their formats declare.

The bundled specs are ``gridlang/puzzles/*.grid`` as installed (the
repository's ``puzzles/``). A spec's format names come from its parsed
``format`` statement; :func:`gridlang.language.parser.parse_file` keeps parsed specs
in its cache, so a lookup reads pickles, not grammars. The files are first
searched for the name in quotes, so that a lookup parses only the specs
that may declare it.
"""

from __future__ import annotations

import re
from pathlib import Path

from gridlang.core.errors import GridlangError
from gridlang.language import ast

_FORMAT = re.compile(r"^\s*format\s+puzzlink\b", re.M)


class NoBundle(Exception):
    """The installation has no bundled specs (installed before they were packaged)."""


def bundled_dir() -> Path:
    """The folder of the bundled specs.

    Raises:
        NoBundle: ``gridlang.puzzles`` is not installed.
    """
    from importlib import resources

    try:
        return Path(str(resources.files("gridlang.puzzles")))
    except ModuleNotFoundError:  # an install from before the specs were packaged
        raise NoBundle() from None


def format_of(spec: ast.Spec) -> ast.Format | None:
    """A spec's ``format puzzlink`` statement, or None."""
    return next((f for f in spec.of(ast.Format) if f.kind == "puzzlink"), None)


def _texts() -> list[tuple[Path, str]]:
    out = []
    for path in sorted(bundled_dir().glob("*.grid")):
        try:
            out.append((path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return out


def names_of(path: Path) -> tuple[str, ...]:
    """The genre names a spec file's format declares (none when it has no format or does not parse)."""
    # imported on use, not at start-up
    from gridlang.language.parser import parse_file

    try:
        fmt = format_of(parse_file(path))
    except GridlangError:
        return ()
    return fmt.names if fmt is not None else ()


def bundled_spec_for(pid: str) -> Path | None:
    """The bundled spec whose format names ``pid``, or None.

    Raises:
        NoBundle: no bundled specs are installed.
    """
    quoted = f'"{pid}"'
    for path, text in _texts():
        if quoted in text and _FORMAT.search(text) and pid in names_of(path):
            return path
    return None


def bundled_formats() -> dict[Path, tuple[str, ...]]:
    """Every bundled spec that declares a format, with its genre names (canonical first).

    Raises:
        NoBundle: no bundled specs are installed.
    """
    out = {}
    for path, text in _texts():
        if _FORMAT.search(text):
            names = names_of(path)
            if names:
                out[path] = names
    return out


def listing() -> str:
    """The bundled genres for a message: ``NAME (ALIAS/ALIAS), NAME, ...``."""
    try:
        formats = bundled_formats()
    except NoBundle:
        return "none (no bundled specs are installed)"
    parts = []
    for names in sorted(formats.values()):
        parts.append(names[0] + (f" ({'/'.join(names[1:])})" if len(names) > 1 else ""))
    return ", ".join(parts)
