"""puzz.link URLs of the line genres: Masyu, Numberlink, Slitherlink, Hashiwokakero.

The encodings, read from pzprjs (robx/pzprjs, MIT licence: each genre's
``decodePzpr`` in ``src/variety/*.js`` and ``src/variety-common/Encode.js``)
and re-implemented here; the shared readers are :mod:`gridlang.puzzlink.reader`'s:

Masyu (``mashu``, ``masyu``, ``pearl``)
    the circles (``decodeCircle``): ``o`` white, ``*`` black.
Numberlink (``numlin``, ``numberlink``), Arukone (``arukone``: every cell on a line;
with the ``e`` flag, Numberlink)
    the numbers (``decodeNumber16``), written with spaces between cells
    when a number has two figures or more.
Slitherlink (``slither``, ``slitherlink``)
    ``decode4Cell``, one character per entry: ``0``-``4`` a number;
    ``5``-``9`` the number 0-4 then one empty cell; ``a``-``e`` the number
    0-4 then two empty cells; ``g``-``z`` 1-20 empty cells; ``.`` a number
    not given (``?``, refused: a Slitherlink map has none). As in pzprjs,
    the empty cells after the last number may run past the grid's end.
Hashiwokakero (``hashi``, ``hashikake``, ``bridges``)
    the islands' numbers (``decodeNumber16``); ``.`` an island whose
    number is not given, written ``?``.

The ``f`` flag (``loop_full``, ``slither_full``: the loop visits every cell
or corner) is a variant the bundled specs do not state, so it is refused.
"""

from __future__ import annotations

from .reader import _document, _numbers, _Reader, grid_text
from .url import error


def _no_flags(rd: _Reader, genre: str) -> None:
    if rd.link.flags:
        raise error(rd.link, f"the flags {rd.link.flags!r} ask for a {genre} variant the bundled spec does not state "
                       "(f: the loop visits every cell)", rd.link.url.find("/" + rd.link.flags + "/") + 1)


def masyu(rd: _Reader) -> str:
    """A Masyu URL's text map: ``.``, ``o`` white, ``*`` black."""
    _no_flags(rd, "Masyu")
    circles = rd.circles()
    rd.done()
    cells = ["." if v == 0 else "o" if v == 1 else "*" for v in circles]
    return _document(rd.link, [], grid_text(rd.link.rows, rd.link.cols, cells))


def numberlink(rd: _Reader) -> str:
    """A Numberlink or Arukone URL's text map: ``.`` and the numbers.

    Arukone (pzprjs ``arukone``) asks for every cell to be on a line; its
    ``e`` flag (``dontpassallcell``) lets cells stay empty, which is
    Numberlink (:func:`~gridlang.puzzlink.url.parse_url` names it so).
    Any other flag is refused.
    """
    allowed = "e" if rd.link.pid == "arukone" else ""
    if set(rd.link.flags) - set(allowed):
        raise error(rd.link, f"the flags {rd.link.flags!r} ask for a variant the bundled spec does not state"
                    + (" (arukone takes e: cells may stay empty)" if allowed else ""),
                    rd.link.url.find("/" + rd.link.flags + "/") + 1)
    cells = _numbers(rd)
    rd.done()
    if "?" in cells:
        raise rd.error("a Numberlink number is missing (?): every end of a line is numbered", 0)
    return _document(rd.link, [], grid_text(rd.link.rows, rd.link.cols, cells))


def slitherlink(rd: _Reader) -> str:
    """A Slitherlink URL's text map: ``.`` and ``0``-``4``."""
    _no_flags(rd, "Slitherlink")
    cells = ["."] * rd.n
    c = 0
    body = rd.body
    while c < rd.n and rd.i < len(body):
        ch = body[rd.i]
        if "0" <= ch <= "4":
            cells[c] = ch
        elif "5" <= ch <= "9":
            cells[c] = str(int(ch) - 5)
            c += 1
        elif "a" <= ch <= "e":
            cells[c] = str(int(ch, 16) - 10)
            c += 2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        elif ch == ".":
            raise rd.error("a Slitherlink number given as ? is not read: the map has no unknown numbers")
        else:
            raise rd.error(f"unexpected {ch!r} in the numbers (0-9, a-e, g-z)")
        c += 1
        rd.i += 1
    if c < rd.n:
        raise rd.error(f"the data ends after {c} cells; a {rd.link.cols}x{rd.link.rows} grid has {rd.n}")
    rd.done()
    return _document(rd.link, [], grid_text(rd.link.rows, rd.link.cols, cells))


def hashiwokakero(rd: _Reader) -> str:
    """A Hashiwokakero URL's text map: ``.`` the sea, the islands' numbers, ``?`` an island without one."""
    cells = _numbers(rd)
    rd.done()
    return _document(rd.link, [], grid_text(rd.link.rows, rd.link.cols, cells))


DECODERS = {"masyu": masyu, "numberlink": numberlink, "arukone": numberlink, "slitherlink": slitherlink, "hashiwokakero": hashiwokakero}
"""Genre -> decoder, merged into :data:`gridlang.puzzlink.GENRES`."""
