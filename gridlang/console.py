"""The ``gridlang`` console script and ``python -m gridlang``.

Python raises ``KeyboardInterrupt`` wherever a Ctrl-C lands, and while the
command line's modules are imported (its first tenth of a second) that was
a traceback and an exit by the signal. From this module's import on, a
Ctrl-C ends the command with ``interrupted`` and exit code 130
(:data:`~gridlang.service.exits.EXIT_INTERRUPTED`) until :func:`entry` hands
over to :func:`gridlang.cli.main`, which meets a Ctrl-C with the command's
deadline (the best answer so far, then 130).

The cyclic garbage collector runs rarely until a one-off command builds a
model (:func:`gridlang.core.collector.collect_rarely`): what such a command
makes while it loads lives as long as the process. The commands that serve
or run many puzzles in one process (:data:`LONG_RUNNING`) keep Python's
collector as it is, so that nothing a first request holds is frozen for the
process's life.
"""

from __future__ import annotations

import signal
import sys


def _interrupted_while_loading(signum, frame) -> None:
    sys.stderr.write("interrupted\n")
    raise SystemExit(130)


signal.signal(signal.SIGINT, _interrupted_while_loading)

from gridlang.core.collector import collect_rarely

LONG_RUNNING = frozenset({"serve", "batch", "bench"})
"""Subcommands that live past one model: the collector is left as Python sets it."""

if LONG_RUNNING.isdisjoint(sys.argv[1:]):
    collect_rarely()

from gridlang.cli import entry as _entry  # noqa: E402 - after the handler: this import is what it covers


def entry() -> None:
    """Run the command line (:func:`gridlang.cli.entry`), Ctrl-C being Python's ``KeyboardInterrupt`` again."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _entry()
