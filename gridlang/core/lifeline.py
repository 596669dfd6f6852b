"""A child process that dies with its parent, so that a killed command leaves no process behind.

``kill -9`` of a command gives it no chance to end its children: a batch's
worker processes, a forked RC2 solver, an ``auto`` race's child would go on
solving, as orphans, until they ended by themselves (or never, without a
time limit). Each such child calls :func:`die_with_parent` as it starts.

Two mechanisms, because Linux ties the first to a thread:

* ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the child when
  the thread that started it ends, at once and whatever the child is
  doing (a solver call that holds Python's GIL included, which a thread
  of the child could not interrupt). It is the one used whenever the
  starting thread lives as long as the child is used (``tied=True``): a
  batch's pool is run by one thread from start to end, and a
  :class:`~gridlang.core.forked.ForkedSolver` is called by the thread that
  made it.
* a daemon thread that looks at ``os.getppid()`` every
  :data:`WATCH_SECONDS` and ends the process when the parent is gone: for
  a child forked from a short-lived thread (the first ``auto`` race forks
  from a timer thread), where the death signal would come as soon as that
  thread ends. It needs the GIL, so it acts between two solver calls that
  hold it; the race's solvers release it while they search.

Elsewhere than on Linux :func:`die_with_parent` uses the thread only.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent thread ends (``<linux/prctl.h>``)."""

WATCH_SECONDS = 0.2
"""How often the watching thread looks at the parent's pid."""


def die_with_parent(parent: int, tied: bool = True) -> None:
    """End this process when process ``parent`` ends; call it first thing in a child.

    Args:
        parent: the parent's pid, read by the parent before it started the
            child (``os.getpid()``); a child whose parent has already ended
            ends here.
        tied: the thread that started this child lives as long as the
            child is used, so the kernel's death signal may be used
            (see the module docstring); else only a watching thread.
    """
    if tied and not _death_signal(signal.SIGKILL):
        tied = False
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(1)
    if not tied:
        threading.Thread(target=_watch, args=(parent,), name="gridlang-lifeline", daemon=True).start()


def _death_signal(sig: int) -> bool:
    """Ask Linux for ``sig`` at the parent thread's end; False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    # Imported here, not with the module: ``ctypes`` costs every command that imports the race
    # about 4 ms. ``CDLL(None)`` is the process's own symbols, libc's ``prctl`` among them;
    # ``ctypes.util.find_library`` would import subprocess and tempfile and run ``ldconfig -p``
    # in the child, before its solver starts.
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)
