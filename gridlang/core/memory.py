"""The memory limit of a solve: a refusal up front, and a watchdog on the process's size.

``gridlang solve --memory-limit SIZE`` (default :func:`default_limit`, three
quarters of the machine's physical memory) bounds the resident memory of
the process, solver threads included. It is kept two ways:

1. **Up front.** Once the model is compiled, :func:`estimate` gives the
   memory its backend will clearly need, from the model's size (variables,
   constraints and literals) with per-backend figures measured on the
   near-empty maps of ``docs/reliability.md`` and rounded down; a model
   whose estimate exceeds the limit is refused with
   :class:`~gridlang.core.errors.BackendError` before the solver starts.
2. **While solving.** :func:`watch` runs a thread that reads the
   process's resident size (``/proc/self/statm``; with a solver child
   of :mod:`gridlang.core.forked`, the proportional sizes of both) every
   :data:`WATCH_SECONDS`; past the limit it stops the command's deadline
   with the reason ``"memory limit"``, which ends the search on every
   backend as the time limit does (the best verified answer so far comes
   back, FEASIBLE, or UNKNOWN). Allocation between two readings can pass
   the limit by what a solver allocates in that time.

``RLIMIT_AS`` and ``RLIMIT_DATA`` are not set: past them a solver's
``malloc`` fails inside C++ (``std::bad_alloc``), which aborts the process
without an answer, and OR-Tools and HiGHS reserve address space for their
threads far beyond what they use.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
import threading
from typing import Callable, Iterator, TypeVar

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.core.lazy_regex import LazyRegex

T = TypeVar("T")
R = TypeVar("R")

WATCH_SECONDS = 0.1
"""How often :func:`watch` reads the process's resident size."""

BASE_BYTES = 60 * 2**20
"""What the Python process holds before any model (interpreter, gridlang, the spec)."""

BYTES_PER_ITEM = {"cpsat": 1200, "milp": 800, "maxsat": 800, "asp": 800}
"""Bytes per IR variable, constraint and literal each backend clearly needs,
rounded down from the peaks measured on the near-empty maps
(``docs/reliability.md``): 100x100 (207,000 items) CP-SAT 0.62 GB, MILP
0.32 GB, MaxSAT 0.28 GB; 200x200 (827,000 items) CP-SAT 1.13 GB, MILP 0.8 GB. Other
backends: 800."""

_SIZE = LazyRegex(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", re.IGNORECASE)
_UNITS = {"": 2**20, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """``512M``, ``2G``, ``1.5GB``, ``800`` (MiB) as bytes.

    Raises:
        ValueError: not a size, or not more than 0, in a sentence.
    """
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"give a size such as 512M or 2G, not {text!r}")
    value = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not value >= 1 or value > 2**60:
        raise ValueError(f"give a size of at least 1 byte and at most 1 EiB, not {text}")
    return int(value)


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None when the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def default_limit() -> int | None:
    """Three quarters of :func:`physical_memory` (None: no limit), leaving the rest to the system."""
    total = physical_memory()
    return None if total is None else total * 3 // 4


_children: set[int] = set()
_children_lock = threading.Lock()


def register_child(pid: int) -> None:
    """Count child process ``pid`` (a solver run apart, :mod:`gridlang.core.forked`) in :func:`resident`."""
    with _children_lock:
        _children.add(pid)


def unregister_child(pid: int) -> None:
    """Stop counting child process ``pid``."""
    with _children_lock:
        _children.discard(pid)


def resident() -> int | None:
    """The resident size in bytes of this process and its registered children
    (Linux ``/proc``), or None elsewhere.

    Alone, the process's resident set (``statm``). With children, whose
    pages are shared copy-on-write after a fork, the sum of each one's
    proportional set size (``Pss`` of ``smaps_rollup``: a page shared by
    two counts half in each), so that no page counts twice.
    """
    with _children_lock:
        children = tuple(_children)
    own = _proportional("self") if children else None
    if own is not None:
        return own + sum(_proportional(pid) or 0 for pid in children)  # an ended child counts 0
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _proportional(pid: int | str) -> int | None:
    """``Pss`` of ``/proc/PID/smaps_rollup`` in bytes; None when it cannot be read (an ended child)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def human(size: float) -> str:
    """``1.5 GB``, ``640 MB``, ``12 kB`` (powers of 1,024)."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("kB", 2**10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{int(size)} bytes"


def estimate(model, backend: str) -> int:
    """The bytes a solve of ``model`` on ``backend`` clearly needs (a low estimate).

    Args:
        model: a compiled :class:`~gridlang.ir.model.Model`.
        backend: the backend's name.
    """
    return BASE_BYTES + BYTES_PER_ITEM.get(backend, 800) * items(model)


def kept_for_last(fn: Callable[[T], R]) -> Callable[[T], R]:
    """``fn(x)`` made once for the ``x`` it was called with last (by identity) and kept until it is called
    with another: what one solve asks of its model several times (its size, its survey), without
    keeping every model seen alive. For a value that ``x`` alone decides (a model is never changed once
    built)."""
    last: list[tuple[T, R]] = []

    @functools.wraps(fn)
    def kept(x: T) -> R:
        seen = last[:1]  # one read: another thread may call meanwhile
        if seen and seen[0][0] is x:
            return seen[0][1]
        value = fn(x)
        last[:] = [(x, value)]
        return value

    return kept


@kept_for_last
def items(model) -> int:
    """A model's size: its variables, constraints and their literals (kept for the model counted last: a
    solve asks twice, for the memory estimate and the seconds kept back to check the answer, and Akari
    100x100's 100,000 constraints take some 20 ms to count)."""
    literals = 0
    for con in model.constraints:
        literals += len(getattr(con, "lits", None) or getattr(con, "terms", None) or getattr(con, "members", ()))
    return model.num_vars + len(model.constraints) + literals


def check(model, backend: str, limit: int | None) -> None:
    """Refuse ``model`` when :func:`estimate` exceeds ``limit`` bytes (None: no limit).

    Raises:
        BackendError: in a sentence naming both sizes and the option.
    """
    if limit is None:
        return
    need = estimate(model, backend)
    if need > limit:
        raise BackendError(f"this {model.grid.rows}x{model.grid.cols} model ({model.num_vars:,} variables, "
                           f"{len(model.constraints):,} constraints) needs about {human(need)} on {backend}, "
                           f"more than the memory limit of {human(limit)}; raise it with --memory-limit SIZE "
                           "or use a smaller map")


@contextlib.contextmanager
def watch(deadline: Deadline, limit: int | None) -> Iterator[None]:
    """While the block runs, stop ``deadline`` (reason ``"memory limit"``) once the
    resident size passes ``limit`` bytes (None, or no ``/proc``: nothing is watched).

    Raises:
        BackendError: the process already holds more than ``limit`` on entry.
    """
    size = resident() if limit is not None else None
    if size is None:
        yield
        return
    if size > limit:
        raise BackendError(f"gridlang holds {human(size)} before it reads the model, more than the memory limit "
                           f"of {human(limit)}; raise it with --memory-limit SIZE")
    done = threading.Event()

    def run() -> None:
        while not done.wait(WATCH_SECONDS):
            size = resident()
            if size is not None and size > limit:
                deadline.stop("memory limit")
                return

    thread = threading.Thread(target=run, name="gridlang-memory", daemon=True)
    thread.start()
    _WATCHED.append((deadline, limit))
    try:
        yield
    finally:
        _WATCHED.remove((deadline, limit))
        done.set()
        thread.join()


_WATCHED: list = []
"""The ``(deadline, limit)`` of each :func:`watch` in force, for :func:`look`."""


def look() -> None:
    """Read the resident size now, as the watch's thread does every :data:`WATCH_SECONDS`, and stop
    each watched deadline whose limit it passes. The compiler calls it every 4,096 variables and
    constraints (:meth:`gridlang.compiler.core._Compiler.tick`): a compile allocates faster than
    anything else in Python, and on a loaded machine the thread, which needs the interpreter's lock
    between its readings, looked too late (a compile stopped by ``--memory-limit 120M`` peaked at
    142 MB beside a test run)."""
    if not _WATCHED:
        return
    size = resident()
    if size is None:
        return
    for deadline, limit in tuple(_WATCHED):
        if size > limit:
            deadline.stop("memory limit")


YOUNG_OBJECTS = 10_000
"""The allocations between two collections of the youngest generation while a grid and a model are
built, solved and checked (:func:`fewer_collections`), where Python's default is 700."""


@contextlib.contextmanager
def fewer_collections(young: int = YOUNG_OBJECTS) -> Iterator[None]:
    """Run the cyclic garbage collector every ``young`` allocations (net, of container objects)
    rather than every 700, and restore its thresholds after.

    A compiled model is hundreds of thousands of small records that make no cycle; at 700 the
    collector runs often, and over all of them now and then, finding next to nothing (about a sixth
    of Akari 100x100's compile step). Paused outright, garbage the compiler leaves in cycles piled up
    between the memory watchdog's looks (a compile stopped by ``--memory-limit 120M`` peaked at 138
    to 161 MB, against 125 MB); every ``young`` allocations it is still collected, at most ``young``
    objects late. mypy raises the threshold the same way (``gc.set_threshold(200 * 1000, 30, 30)``
    in its build). A collector turned off stays off; a higher threshold already set is kept.
    """
    before = gc.get_threshold()
    if before[0] and before[0] < young:
        gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
