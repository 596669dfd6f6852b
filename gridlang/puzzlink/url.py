"""A puzz.link URL parsed into its genre, size and body; its errors located in the URL."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..errors import GridlangError, Span

SOURCE = "--url"

ALIASES: dict[str, str] = {
    "starbattle": "starbattle",
    "sudoku": "sudoku",
    "norinori": "norinori",
    "hitori": "hitori",
    "nurikabe": "nurikabe",
    "lits": "lits",
    "heyawake": "heyawake",
    "heyawacky": "heyawake",
    "statuepark": "statuepark",
    "mashu": "masyu",
    "masyu": "masyu",
    "pearl": "masyu",
    "numlin": "numberlink",
    "numberlink": "numberlink",
    "arukone": "arukone",
    "slither": "slitherlink",
    "slitherlink": "slitherlink",
    "hashi": "hashiwokakero",
    "hashiwokakero": "hashiwokakero",
    "hashikake": "hashiwokakero",
    "bridges": "hashiwokakero",
}
"""pzprjs genre names and aliases -> the genre's name here (its spec's file name)."""

SPEC_PUZZLES: dict[str, str] = {
    "starbattle": "Star Battle",
    "sudoku": "Sudoku",
    "norinori": "Norinori",
    "hitori": "Hitori",
    "nurikabe": "Nurikabe",
    "lits": "LITS",
    "heyawake": "Heyawake",
    "statuepark": "Statue Park",
    "masyu": "Masyu",
    "numberlink": "Numberlink",
    "arukone": "Arukone",
    "slitherlink": "Slitherlink",
    "hashiwokakero": "Hashiwokakero",
}
"""Genre -> the ``puzzle "NAME"`` of its bundled spec."""




class UrlError(GridlangError, ValueError):
    """A puzz.link URL that cannot be decoded (unknown genre, malformed body, wrong size)."""


@dataclass
class PuzzLink:
    """A parsed puzz.link URL.

    Attributes:
        url: the URL as given.
        pid: the genre as the URL writes it.
        genre: the canonical genre (:data:`ALIASES`).
        cols, rows: the grid's size.
        body: the encoded puzzle after the size.
        offset: where the body starts in ``url`` (0-based), for error carets.
        flags: the optional flags field (``pflag``), or ``""``.
        variant: the ``v:`` field, or None.
        size_at: where the size starts in ``url`` (0-based).
    """

    url: str
    pid: str
    genre: str
    cols: int
    rows: int
    body: str
    offset: int
    flags: str = ""
    variant: str | None = None
    size_at: int = 0


@dataclass
class Decoded:
    """A decoded puzzle: its genre and its text map.

    Attributes:
        genre: the canonical genre.
        text: the map in the genre's text format (headers, grid, ``rooms:``).
        link: the parsed URL.
    """

    genre: str
    text: str
    link: PuzzLink = field(repr=False)


def genre_of(name: str) -> str | None:
    """The canonical genre of a pzprjs genre name or alias, or None."""
    return ALIASES.get(name.strip().lower())


def error(link_or_url, message: str, at: int | None = None) -> UrlError:
    """A :class:`UrlError` whose caret stands under character ``at`` (0-based) of the URL."""
    url = link_or_url.url if isinstance(link_or_url, PuzzLink) else link_or_url
    if at is None:
        return UrlError(message, Span(SOURCE, 1, 1, len(url) + 1), source=url)
    at = max(0, min(at, len(url)))
    return UrlError(message, Span(SOURCE, 1, at + 1), source=url)


def parse_url(url: str) -> PuzzLink:
    """Split a puzz.link URL into genre, size and body.

    Raises:
        UrlError: no ``?`` query, an unknown genre, a size that is not two
            positive whole numbers.
    """
    url = url.strip()
    start = url.find("?")
    if start < 0:
        raise error(url, "a puzz.link URL has the puzzle after '?', as in https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    parts = unquote(url[start + 1:]).split("/")
    positions, pos = [], start + 1
    for part in parts:
        positions.append(pos)
        pos += len(part) + 1
    pid = re.sub(r"_(edit|play)$", "", parts[0])
    genre = genre_of(pid)
    if genre is None:
        raise error(url, f"unknown genre {pid!r}; gridlang decodes {', '.join(_decoded_names())}", positions[0])
    i, variant, flags = 1, None, ""
    if i < len(parts) and parts[i].startswith("v:"):
        variant, i = parts[i][2:], i + 1
    if i < len(parts) and parts[i] and not parts[i].isdigit():
        flags, i = parts[i], i + 1
    if i + 1 >= len(parts):
        raise error(url, "the URL gives no grid size: write GENRE/COLS/ROWS/BODY", len(url))
    size = []
    for j in (i, i + 1):
        if not parts[j].isdigit() or int(parts[j]) < 1:
            raise error(url, f"the grid size is two whole numbers of at least 1 (columns, then rows); "
                             f"{parts[j]!r} is not", positions[j])
        size.append(int(parts[j]))
    if size[0] > 200 or size[1] > 200:
        raise error(url, f"a {size[0]}x{size[1]} grid is larger than gridlang reads (200x200)", positions[i])
    if genre == "arukone" and "e" in flags:
        genre = "numberlink"  # pzprjs's dontpassallcell: cells may stay empty, as in Numberlink
    body_start = positions[i + 2] if i + 2 < len(parts) else len(url)
    body = "/".join(parts[i + 2:])
    return PuzzLink(url, pid, genre, size[0], size[1], body, body_start, flags, variant, positions[i])


def _decoded_names() -> list[str]:
    """The genres read here, each with the other names pzprjs gives it."""
    out = []
    for genre in sorted(set(ALIASES.values())):
        others = sorted(name for name, g in ALIASES.items() if g == genre and name != genre)
        out.append(genre + (f" ({'/'.join(others)})" if others else ""))
    return out
