"""Errors a person can act on.

Every error gridlang raises derives from :class:`GridlangError`. Errors that
come from a file (a ``.grid`` spec, a map, an instance) carry a
:class:`Span` and render as::

    puzzles/horse.grid:7:12: error: unknown name 'gras'
        decide wall: bool on gras
                             ^

Phase classes mix in the builtin they refine (``GridSyntaxError`` is a
``ValueError``), so callers that catch builtins keep working; none of them
shadows Python's own ``SyntaxError``.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from gridlang.core.nodes import Record

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib


class Span(Record):
    """A location in a source file: 1-based line and column.

    Attributes:
        file: the path as the user gave it (used verbatim in messages).
        line: 1-based line number.
        column: 1-based column number.
        end_column: 1-based column one past the last character, or None for a
            single-character caret.
    """

    file: str
    line: int
    column: int
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class GridlangError(Exception):
    """Root of every error gridlang raises on purpose.

    Args:
        message: one sentence, lower case, no trailing period.
        span: where the problem is, if it comes from a file.
        source: the text of that file, used to show the offending line; read
            from ``span.file`` when omitted and the file exists.
    """

    kind = "error"

    def __init__(self, message: str, span: Span | None = None, source: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.source = source

    def render(self) -> str:
        """Return ``file:line:col: error: message``, the line and a caret."""
        if self.span is None:
            return f"error: {self.message}"
        head = f"{self.span}: {self.kind}: {self.message}"
        line = _source_line(self.span, self.source)
        if line is None:
            return head
        column = self.span.column
        width = 1
        if self.span.end_column is not None and self.span.end_column > column:
            width = self.span.end_column - column
        start = 0
        if len(line) > _SHOWN:
            # A long line is shown in a window around the caret.
            start = max(0, min(column - 1 - _SHOWN // 3, len(line) - _SHOWN))
        # Control characters become U+FFFD, one for one, in the window only (a map's one line of 4 MiB
        # took 10 s character by character).
        shown = "".join("\ufffd" if _is_control(ch) else ch for ch in line[start: start + _SHOWN])
        at = column - 1 - start
        width = max(1, min(width, len(shown) - at))
        before = "..." if start > 0 else ""
        after = "..." if start + len(shown) < len(line) else ""
        # Tabs are kept on the caret line so the caret stays under its column.
        pad = " " * len(before) + "".join("\t" if ch == "\t" else " " for ch in shown[:at])
        pad += " " * max(0, at - len(shown))
        caret = pad + "^" * width
        return f"{head}\n    {before}{shown}{after}\n    {caret}"

    def __str__(self) -> str:
        return self.render()


class GridSyntaxError(GridlangError, ValueError):
    """A ``.grid`` spec does not follow the grammar."""


class SemanticError(GridlangError, ValueError):
    """A ``.grid`` spec parses but means nothing (unknown name, type mismatch)."""


class MapError(GridlangError, ValueError):
    """A map or instance file is malformed or disagrees with its spec."""


class ParamError(GridlangError, ValueError):
    """A parameter is missing, malformed or out of its declared bounds."""


class BackendError(GridlangError, RuntimeError):
    """A backend is missing, or cannot lower a construct the model uses."""


class ImageError(GridlangError, ValueError):
    """A picture cannot be read as a puzzle: not an image, no grid in it, or a
    tile whose colours the calibration does not know.

    Args:
        message: one sentence, lower case, no trailing period.
        path: the picture or calibration file it is about; it is named
            first: ``FILE: error: message``.
    """

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path

    def render(self) -> str:
        return f"error: {self.message}" if self.path is None else f"{self.path}: error: {self.message}"


class VerificationError(GridlangError, AssertionError):
    """A solver's answer broke the puzzle's rules or disagreed with its score."""


class MultipleErrors(GridlangError):
    """Several errors found in one pass, reported together.

    Args:
        errors: the individual errors, in source order.
    """

    def __init__(self, errors: list[GridlangError]):
        self.errors = sorted(errors, key=_error_key)
        super().__init__(f"{len(self.errors)} errors")

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)


_SHOWN = 160
"""Characters of a source line shown under a message; a longer line is cut
to a window around the caret."""


def _is_control(ch: str) -> bool:
    """A control character other than a tab (shown as U+FFFD, so that a file
    cannot send escape sequences to the terminal)."""
    return ch != "\t" and (ord(ch) < 32 or 127 <= ord(ch) < 160)


def closest(word: str, candidates, cutoff: float = 0.6) -> str | None:
    """The candidate closest to a misspelt ``word`` (:func:`difflib.get_close_matches`), or None."""
    import difflib

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(word: str, candidates, cutoff: float = 0.6) -> str:
    """``"; did you mean 'X'?"`` for the closest candidate to ``word``, or ``""`` when none is close."""
    close = closest(word, candidates, cutoff)
    return f"; did you mean {close!r}?" if close is not None else ""


def raise_all(errors: list[GridlangError]) -> None:
    """Raise nothing, the one error, or a :class:`MultipleErrors` of them all."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise MultipleErrors(errors)


def _error_key(e: GridlangError) -> tuple:
    if e.span is None:
        return ("", 0, 0)
    return (e.span.file, e.span.line, e.span.column)


def _source_line(span: Span, source: str | None) -> str | None:
    if source is None:
        if not os.path.isfile(span.file):  # a pipe's reader would wait for a writer; a device need not end
            return None
        try:
            with open(span.file, encoding="utf-8") as f:
                source = f.read()
        except (OSError, UnicodeDecodeError):
            return None
    lines = one_line_end(source).split("\n")
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1].translate(_NOT_LINE_ENDS)
    return None


def one_line_end(text: str) -> str:
    """``text`` with its lines ending in ``\\n`` alone, as the parser and the
    map readers count lines (``\\r\\n`` and a lone ``\\r`` become ``\\n``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


_NOT_LINE_ENDS = str.maketrans({c: " " for c in "\v\f\x1c\x1d\x1e\x85\u2028\u2029"})
"""Characters that ``str.splitlines`` takes for line ends but the parser does
not: shown as spaces, so that the echoed line is the one the location counts
and the caret stays under its column."""


def read_source(path: str | Path, error: type[GridlangError], what: str, limit: int | None = None) -> str:
    """Read a UTF-8 text file, or raise ``error`` located at the first bad byte.

    The file is read in one bounded call, so that a device or a pipe with
    no end (``/dev/zero``) is refused as too long, not read for ever.

    Args:
        path: the file.
        error: the error class to raise (``MapError``, ``GridSyntaxError``).
        what: ``"map"`` or ``"spec"``, for the message.
        limit: the largest size accepted, in bytes (None: no limit).

    Returns:
        The text, without a leading byte-order mark.

    Raises:
        error: the file cannot be read (missing, a directory), is longer
            than ``limit`` (located where the limit falls), or is not UTF-8
            (located at the byte).
    """
    p = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read() if limit is None else f.read(limit + 1)
            size = _size(f) if limit is not None and len(raw) > limit else 0
    except OSError as e:
        raise error(f"cannot read {what} {p}: {e.strerror or e}") from e
    if limit is not None and len(raw) > limit:
        raise too_long(raw, p, error, what, limit, size)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise error(f"the {what} is not UTF-8 text (byte 0x{raw[e.start]:02x})", Span(p, line, col),
                    source="") from e
    return text[1:] if text.startswith("\ufeff") else text


def load_json(text: str, path: str, error: type[GridlangError], what: str) -> object:
    """Decode JSON text, every failure an ``error`` located in the file.

    An integer of more than 18 digits is kept as its digits (a string), for
    the reader to refuse in a sentence of its own: Python refuses to convert
    one of more than 4,300 digits, and no solver takes one beyond 64 bits.

    Args:
        text: the file's text.
        path: its name, for the spans.
        error: the error class to raise.
        what: ``"map"``, ``"answer"``, ...: the word used in messages.

    Raises:
        error: the text is not JSON (located where the decoder stopped), or
            nests arrays and objects deeper than the decoder's recursion
            allows (located at line 1, column 1).
    """
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as e:
        raise error(f"the {what} is not valid JSON: {e.msg}", Span(path, e.lineno, e.colno), source=text) from e
    except RecursionError as e:
        article = "an" if what[:1] in "aeiou" else "a"
        raise error(f"the {what} nests too deeply to be {article} {what}", Span(path, 1, 1), source=text) from e


def json_int(digits: str) -> int | str:
    """An integer of at most 18 digits, else its digits (see :func:`load_json`)."""
    return int(digits) if len(digits) <= 18 else digits


def _size(f) -> int:
    """The size of an open file in bytes, 0 when it has none (a device, a pipe)."""
    try:
        return os.fstat(f.fileno()).st_size
    except OSError:
        return 0


def too_long(raw: bytes, path: str, error: type[GridlangError], what: str, limit: int, size: int) -> GridlangError:
    """The error for a text longer than ``limit`` bytes, located where the limit falls.

    Args:
        raw: the text's bytes, at least ``limit + 1`` of them.
        path: the file's name.
        error: the error class.
        what: ``"spec"``, ``"map"``, ...
        limit: the limit in bytes.
        size: the whole file's size, or 0 when unknown.
    """
    total = f"{size:,} bytes" if size > limit else f"more than {limit:,} bytes"
    start = raw.rfind(b"\n", 0, limit) + 1
    line, col = raw.count(b"\n", 0, limit) + 1, limit - start + 1
    end = raw.find(b"\n", start)
    shown = raw[start: end if end >= 0 else len(raw)].decode("utf-8", "replace")
    article = "an" if what[:1] in ("a", "e", "i", "o", "u") else "a"
    return error(f"the {what} is {total} long; gridlang reads {article} {what} of at most {limit:,} bytes",
                 Span(path, line, col), source="\n" * (line - 1) + shown)


def show_set(values) -> str:
    """A set of values as a message shows it: ``1..5`` for a run of integers, else ``path, 1, 2`` or
    ``2, 2, 3``."""
    values = list(values)
    ints = [v for v in values if isinstance(v, int)]
    names = [str(v) for v in values if not isinstance(v, int)]
    if len(ints) > 2 and ints == list(range(ints[0], ints[0] + len(ints))):
        return ", ".join(names + [f"{ints[0]}..{ints[-1]}"])
    return ", ".join(names + [str(v) for v in ints])
