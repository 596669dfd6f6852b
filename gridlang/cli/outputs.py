"""Files a command writes, checked against the files it reads before any work starts.

An output that is one of the command's inputs (the same file by another
name too: a symlink, a hard link, ``./`` in front) would destroy it, so the
command is refused with a sentence naming both. Two outputs that are one
file are refused too. Sameness is :func:`os.path.samefile`: the device and
inode of existing files, so an output that does not exist yet is never an
input.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

from gridlang.core.errors import ParamError

# command -> (inputs, outputs); each an (attribute of the parsed arguments, what it is) pair.
_FILES: dict[str, tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]] = {
    "solve": ((("spec", "the spec"), ("map", "the map"), ("image", "the screenshot"),
               ("calibration", "the calibration")), (("svg", "--svg"), ("png", "--png"))),
    "hint": ((("spec", "the spec"), ("map", "the map")), (("svg", "--svg"), ("png", "--png"))),
    "decode": ((("spec", "the spec"), ("map", "the map"), ("solution", "the solution file")),
               (("svg", "--svg"), ("png", "--png"))),
    "export": ((("spec", "the spec"), ("map", "the map")), (("output", "--output"), ("sidecar", "the sidecar"))),
    "calibrate-image": ((("pairs", "a screenshot or map"), ("spec", "the spec")), (("output", "--output"),)),
    "batch": ((("spec", "the spec"), ("maps", "a map")), (("out", "--out"),)),
    "plot": ((("results", "a results file"),), (("output", "--output"),)),
}


def refuse_overwrites(args) -> None:
    """Refuse a command whose output file is one of its inputs, or two outputs that are one file.

    Args:
        args: the parsed command line (``args.command`` names the subcommand).

    Raises:
        ParamError: an output is an input (naming both), or two outputs are one file.
    """
    inputs, outputs = _FILES.get(args.command, ((), ()))
    written = list(_paths(args, outputs))
    read = list(_paths(args, inputs))
    for k, (flag, out) in enumerate(written):
        for what, path in read:
            if _same(out, path):
                also = "" if os.path.abspath(out) == os.path.abspath(path) else f" ({path}, the same file)"
                raise ParamError(f"{flag} {out} is {what}{also}: writing it would destroy an input of "
                                 f"'gridlang {args.command}'; give another file")
        for flag2, out2 in written[k + 1:]:
            if os.path.abspath(out) == os.path.abspath(out2) or _same(out, out2):
                raise ParamError(f"{flag} and {flag2} name one file, {out}: give each its own")


def _paths(args, table) -> Iterator[tuple[str, str]]:
    for attr, what in table:
        if attr == "sidecar":
            output = getattr(args, "output", None)
            if output:
                yield what, str(output) + ".vars.json"
            continue
        value = getattr(args, attr, None)
        for path in value if isinstance(value, list) else [value]:
            if path:
                yield what, str(path)


def _same(a: str, b: str) -> bool:
    """Whether two names are one existing file (through symlinks and hard links)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one does not exist (yet), or a name the system refuses
        return False


@contextlib.contextmanager
def solver_output_to_stderr(active: bool = True) -> Iterator[None]:
    """Point file descriptor 1 at standard error while the solvers run (when ``active``).

    ``--json`` promises one JSON document on standard output. A solver's log
    asked for with ``--set`` (CP-SAT's ``log_to_stdout``, HiGHS's
    ``log_to_console``, clingo's messages) is written by C++ straight to file
    descriptor 1, past Python, and would come before the document; here it
    goes to standard error, as every other message does. A process forked
    meanwhile (the race's child) inherits the redirection.
    """
    if not active:
        yield
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output to keep
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.dup2(saved, 1)
        os.close(saved)


def write_canvas(args, canvas) -> None:
    """Write a drawing to ``--svg`` and ``--png`` (those given), naming each file on stderr."""
    # imported on use, not at start-up
    from gridlang.pictures.draw import write_picture

    for path, fmt in ((args.svg, "svg"), (args.png, "png")):
        if path:
            write_picture(canvas, path, fmt)
            print(f"wrote {path}", file=sys.stderr)
