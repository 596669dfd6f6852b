"""The ``gridlang`` command line.

Subcommands: ``solve``, ``export``, ``decode``, ``compile``, ``check``,
``backends``, ``import-image``, ``calibrate-image``, ``serve`` (the page
and its JSON API, :mod:`gridlang.web`). Bad input prints
``file:line:col: error: ...`` with the line and a caret, never a traceback
(``--debug`` shows it).

What is particular to a puzzle family (its drawing, the figures on the status
line, its part of ``--json``) comes from the family's plug-in, found by the
spec's ``puzzle`` name (:mod:`gridlang.plugins`). ``--json`` always carries
``decisions``, the answer by decision name (null when there is none), and a
plug-in's figures under the plug-in's own name.
"""

from __future__ import annotations

import os
import sys
import time

from gridlang import IMPORTED
from gridlang.cli.arguments import MAX_COUNT, MAX_WORKERS, _build_parser
from gridlang.cli.options import _shorthand_params
from gridlang.cli.outputs import refuse_overwrites
from gridlang.core.errors import GridlangError, VerificationError
from gridlang.service.exits import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INFEASIBLE,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_VERIFY_FAILED,
)

__all__ = ["EXIT_BAD_INPUT", "EXIT_CODES", "EXIT_INFEASIBLE", "EXIT_INTERRUPTED", "EXIT_NO_SOLUTION", "EXIT_OK",
           "EXIT_VERIFY_FAILED", "MAX_COUNT", "MAX_WORKERS", "entry", "main"]



def main(argv: list[str] | None = None, started: float | None = None) -> int:
    """Run the command line; return the exit code (see ``gridlang --help``).

    Args:
        argv: the arguments, else ``sys.argv[1:]``.
        started: when the command began (``time.perf_counter``): its
            deadline and ``seconds.total`` count from there; None for now.
    """
    started = time.perf_counter() if started is None else started
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _build_parser(argv[0] if argv else None)
    args, rest = parser.parse_known_args(argv)
    debug = getattr(args, "debug", False)
    args.started = started
    try:
        if rest:
            if not getattr(args, "accepts_params", False):
                getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(rest)}")
            args.param = list(args.param or []) + _shorthand_params(rest, args)
        refuse_overwrites(args)  # before any work: an output must not destroy an input
        return args.run(args)
    except GridlangError as e:
        if debug:
            raise
        print(e.render(), file=sys.stderr)
        code = EXIT_VERIFY_FAILED if isinstance(e, VerificationError) else EXIT_BAD_INPUT
        _error_report(args, e, code)
        return code
    except BrokenPipeError:  # the reader went away (| head): what it wanted, it has
        _silence_stdout()
        return EXIT_OK
    except OSError as e:  # a file that cannot be written (export -o, a full disk)
        if debug:
            raise
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        _error_report(args, GridlangError(f"{where}{e.strerror or e}"), EXIT_BAD_INPUT)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        if debug:
            raise
        message = "the machine ran out of memory; try a smaller map, or --memory-limit SIZE to stop in time"
        print(f"error: {message}", file=sys.stderr)
        _error_report(args, GridlangError(message), EXIT_BAD_INPUT)
        return EXIT_BAD_INPUT
    except Exception as e:  # a bug: still one sentence, never a traceback unless asked for
        if debug:
            raise
        message = (f"gridlang failed on a problem it does not know ({type(e).__name__}: {e}); this is a bug: "
                   f"--debug shows where")
        print(f"error: {message}", file=sys.stderr)
        _error_report(args, GridlangError(message), EXIT_BAD_INPUT)
        return EXIT_BAD_INPUT



def _error_report(args, error: GridlangError, code: int) -> None:
    """With ``--json``, an error is a report too: one JSON object on standard output
    (:func:`gridlang.service.json_report.error_json`), so that a script reads why as
    well as the exit status; the text on standard error stays."""
    if not getattr(args, "json", False):
        return
    import json

    # imported on use, not at start-up
    from gridlang.service.json_report import error_json

    try:
        print(json.dumps(error_json(error, code)), flush=True)
    except BrokenPipeError:
        _silence_stdout()

def entry() -> None:
    """The ``gridlang`` console script and ``python -m gridlang``: :func:`main`, then a quick exit.

    Once the answer is printed and flushed, the process ends with
    ``os._exit``: tearing down the interpreter (freeing a large model,
    Pyomo's and OR-Tools' modules) took 0.3 to 0.9 s of elapsed time after
    the answer, past a ``--time-limit``, and a solver thread left behind
    at the deadline could still be running in C++ while it happened.
    """

    # The command counts from gridlang's first import: its own start-up is in it.
    code = main(started=IMPORTED)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away (| head)
        code = EXIT_OK
    except (OSError, ValueError):
        pass
    os._exit(code)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last
    flush of a closed pipe cannot raise again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass
