"""gridlang run as a person runs it: a fresh ``python -m gridlang`` process, its output kept."""

from __future__ import annotations

import subprocess
import sys


def gridlang_process(*args: str, timeout: float = 300, cwd=None) -> subprocess.CompletedProcess:
    """``python -m gridlang ARGS`` in a process of its own (this interpreter's), in the folder ``cwd``
    (None: this one), its exit status, standard output and standard error as text; a run past
    ``timeout`` seconds fails the test."""
    return subprocess.run([sys.executable, "-m", "gridlang", *args], check=False, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)
