"""puzz.link URLs: decode a puzzle's URL into the text map of its genre.

A puzz.link (pzprjs) URL is ``https://puzz.link/p?GENRE/[v:VARIANT/][FLAGS/]COLS/ROWS/BODY``.
The body holds the puzzle in the genre's encoding; the encodings below are
the pzprjs ones (``src/variety-common/Encode.js`` and each genre's
``src/variety/*.js`` in robx/pzprjs, MIT licence), read from their
description and re-implemented here:

numbers (``decodeNumber16``)
    one cell after the other: ``0``-``f`` a number 0-15; ``-XX`` two hex
    digits (16-255); ``+XXX`` three (256-4095); ``=XXX`` 4096 more;
    ``%XXX``/``@XXX`` 8192 more; ``*XXXX`` 12240 more; ``$XXXXX`` 77776
    more; ``.`` a number not given (``?``); ``g``-``z`` skip 1-20 cells.
room borders (``decodeBorder``)
    base-32 digits of 5 bits each, most significant first: first the
    ``(cols-1)*rows`` borders between side-by-side cells, row by row, then
    the ``cols*(rows-1)`` borders between cells one above the other, row by
    row. The rooms are the areas the borders enclose.
room numbers (``decodeRoomNumber16``)
    the number encoding, one entry per room, rooms in the order of their
    first cell (row-major); the number stands in the room's top cell of its
    leftmost column.
Hitori numbers (``decodeHitori``)
    one character per cell, base 36 (``1``-``z``); ``-XX`` two base-36
    digits; ``.``... (``%``/``@`` an unknown number).
circles (``decodeCircle``)
    base-27 digits, three cells each (9, 3, 1): 0 none, 1 white, 2 black.
piece banks (``decodePieceBank``)
    ``//K`` a preset (``p`` the 12 pentominoes, ``t`` the 5 tetrominoes,
    ``d`` two of each tetromino), or ``/N/P1/.../PN``, N pieces of the
    puzzle's own: width and height (one base-36 digit each), then the
    cells row by row, five to a base-32 digit (or ``W:BITS``).

Genre names are pzprjs's, with its aliases (``mashu``/``masyu``/``pearl``,
``numlin``/``numberlink``, ``arukone``, ``slither``/``slitherlink``,
``heyawacky``); :data:`GENRES` lists what is decoded, :func:`genre_of` names
the canonical genre of any alias. Every malformed URL is a
:class:`UrlError` pointing at the character where the problem starts.
"""

from __future__ import annotations

from pathlib import Path

from .lines import DECODERS as _LINE_DECODERS
from .reader import _Reader
from .shading import DECODERS as _SHADING_DECODERS
from .url import ALIASES, SPEC_PUZZLES, Decoded, UrlError, error, genre_of, parse_url

__all__ = ["ALIASES", "Decoded", "GENRES", "SPEC_PUZZLES", "UrlError", "bundled_spec", "compile_url", "decode",
           "error", "genre_of", "load_url", "parse_url"]

_DECODERS = {**_SHADING_DECODERS, **_LINE_DECODERS}



def decode(url: str) -> Decoded:
    """Decode a puzz.link URL into its genre's text map.

    Args:
        url: the URL.

    Returns:
        The genre and its text map (see ``docs/gallery.md`` for each format).

    Raises:
        UrlError: the URL is malformed, its genre is not decoded, or its body
            disagrees with its size.
    """
    link = parse_url(url)
    decoder = _DECODERS.get(link.genre)
    if decoder is None:
        raise error(link, f"gridlang does not decode {link.genre} URLs yet (it decodes: "
                          f"{', '.join(sorted(_DECODERS))})", link.offset)
    reader = _Reader(link)
    text = decoder(reader)
    return Decoded(link.genre, text, link)


GENRES: tuple[str, ...] = tuple(sorted(_DECODERS))
"""The genres whose URLs are decoded."""


# --------------------------------------------------------------- using them

def bundled_spec(genre: str) -> Path:
    """The bundled spec of a genre: ``GENRE.grid`` of the installed
    ``gridlang.puzzles`` (the repository's ``puzzles/``).

    Raises:
        UrlError: the genre has no bundled spec.
    """
    from importlib import resources

    try:
        path = Path(str(resources.files("gridlang.puzzles").joinpath(f"{genre}.grid")))
    except ModuleNotFoundError:  # an install from before the specs were packaged
        raise UrlError(f"there is no bundled spec for {genre} in this installation (reinstall gridlang, or "
                       "give the spec's path)") from None
    if not path.is_file():
        raise UrlError(f"there is no bundled spec for {genre} ({path} is missing); give the spec's path")
    return path


def load_url(url: str, spec: str | Path | None = None):
    """Decode a URL into a map for a spec, choosing the genre's bundled spec when none is given.

    Args:
        url: the puzz.link URL.
        spec: the ``.grid`` spec, or None for the genre's bundled one.

    Returns:
        ``(spec_path, decoded, map_data)``: the spec to use, the decoded
        puzzle, and its map (:class:`~gridlang.maps.MapData`, named after
        the URL's genre).

    Raises:
        UrlError: the URL is malformed, or its genre is not the spec's.
        GridlangError: the spec cannot be read.
    """
    from ..maps import parse_map
    from ..parser import parse_file

    decoded = decode(url)
    path = Path(spec) if spec is not None else bundled_spec(decoded.genre)
    puzzle = parse_file(path).puzzle
    name = puzzle.name if puzzle is not None else None
    want = SPEC_PUZZLES[decoded.genre]
    if name is None or " ".join(name.split()).casefold() != want.casefold():
        raise error(decoded.link, f"the URL is a {decoded.link.pid} puzzle ({want}), but {path} states "
                                  f"{'the rules of ' + repr(name) if name else 'no puzzle name'}",
                    decoded.link.url.find("?") + 1)
    data = parse_map(decoded.text, f"<{decoded.genre} from --url>", name)
    return path, decoded, data


def compile_url(url: str, spec: str | Path | None = None, params: dict[str, str] | None = None, deadline=None):
    """Parse, check and compile a spec against a URL's puzzle.

    Args:
        url: the puzz.link URL.
        spec: the spec to use, or None for the genre's bundled one.
        params: parameter values from the command line, as text.
        deadline: the command's :class:`~gridlang.deadline.Deadline`, read while compiling.

    Returns:
        ``(model, seconds)``: the model, and seconds ``parse`` (the URL,
        the spec, the grid and parameters) and ``compile``.

    Raises:
        GridlangError: a bad URL, spec, map or parameter, located.
        BuildTimeout: ``deadline`` passed while compiling.
    """
    import time

    from ..checker import check
    from ..parser import parse_file
    from ..pipeline import load_checked

    t0 = time.perf_counter()
    path, decoded, data = load_url(url, spec)
    tree = parse_file(path)
    symbols = check(tree)
    parse = time.perf_counter() - t0
    model, seconds = load_checked(tree, symbols, data, params, deadline)
    seconds["parse"] = parse + seconds.pop("read", 0.0)  # the URL, the spec, the grid and parameters
    model.info["spec"] = str(path)
    model.info["map"] = url
    return model, seconds
