"""One clock per command: the time limit, and Ctrl-C, as one object.

A :class:`Deadline` is made when a command starts and handed down to every
phase: model building, every cut round, the second solve of ``--unique``,
every solve of ``--count``. Each phase asks it how much time is left; none
starts a clock of its own. The user's Ctrl-C goes through the same object:
:func:`catch_interrupt` turns the first SIGINT into :meth:`Deadline.stop`,
which ends the search on every backend the way the time limit does (the
best answer so far comes back), and lets the second one through as
:class:`KeyboardInterrupt`.

Solver libraries block in C++ while they search, and Python runs a signal
handler only between bytecodes of the main thread. :func:`run_solver` runs
such a call in a worker thread, so that the main thread stays free to see
the signal at once and to call the solver's own stop function (CP-SAT's
``StopSearch``, HiGHS's ``cancelSolve``, PySAT's ``interrupt``). It also
calls that stop function when a solver overruns the deadline, so the limit
holds even for a solver that reads its clock seldom. A PySAT solver that
cannot be interrupted (CaDiCaL) runs instead in slices of a conflict
budget, the clock read between them (:func:`run_sat`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

OVERRUN_GRACE = 0.25
"""Seconds a solver may run past the deadline before :func:`run_solver` stops it."""

ABANDON_AFTER = 0.5
"""Seconds :func:`run_solver` waits for a stopped solver before it leaves it behind."""


class SolverAbandoned(Exception):
    """A stopped solver did not return within :data:`ABANDON_AFTER` seconds.

    Its message says what became of the solver, as a clause of the
    result's reason (``"the solver, which did not stop when asked, was
    left behind"``).

    It goes on in a daemon thread until it returns (or the process ends);
    its model must not be used again. Backends turn this into an UNKNOWN
    round, so that the command still ends on time.
    """


class BuildTimeout(Exception):
    """The deadline passed while a solver's model was being built.

    Raised by :meth:`Deadline.check` between steps of a build that cannot
    otherwise be stopped (clauses, rows, a CP-SAT model proto); a backend turns it
    into an UNKNOWN result whose ``stats["reason"]`` says so.
    """


class Deadline:
    """The time left for one command, and whether the user stopped it.

    Args:
        seconds: the wall-clock limit in seconds from ``start``, or None for
            no limit.
        start: the ``time.perf_counter()`` reading the limit counts from
            (default: now).

    Attributes:
        seconds: the limit as given.
        end: the ``time.perf_counter()`` reading at which time is up, or None.
        interrupted: True once :meth:`stop` was called (Ctrl-C, or a watchdog).
        reason: None for Ctrl-C, else why :meth:`stop` was called
            (``"memory limit"``).
        listener: called with the objective of each better answer the
            search finds (:meth:`improved`), or None; ``gridlang serve``
            shows it as the best so far while the solve runs.
    """

    def __init__(self, seconds: float | None = None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.seconds = seconds
        self.end = None if seconds is None else self.start + seconds
        self.interrupted = False
        self.reason: str | None = None
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.listener: Callable[[int | None], None] | None = None

    def remaining(self) -> float | None:
        """Seconds left (never below 0), or None without a limit; 0 once stopped."""
        if self.interrupted:
            return 0.0
        if self.end is None:
            return None
        return max(self.end - time.perf_counter(), 0.0)

    def expired(self) -> bool:
        """True when the time is up or the user stopped the command."""
        return self.interrupted or (self.end is not None and time.perf_counter() >= self.end)

    def cause(self) -> str:
        """Why the time is up, as the start of a result's reason: ``"the
        memory limit was reached"``, ``"the search was stopped"`` (Ctrl-C,
        or another :meth:`stop`) or ``"the time limit ran out"``."""
        if self.reason == "memory limit":
            return "the memory limit was reached"
        return "the search was stopped" if self.interrupted else "the time limit ran out"

    def check(self) -> None:
        """Raise :class:`BuildTimeout` when :meth:`expired`; for loops that build a model."""
        if self.expired():
            raise BuildTimeout

    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.perf_counter() - self.start

    def stop(self, reason: str | None = None) -> None:
        """End the command's search now: every later :meth:`expired` is True
        and the solver stop functions registered by :meth:`on_stop` run.

        Args:
            reason: why, when not the user's Ctrl-C (``"memory limit"``);
                the first stop's reason is kept in :attr:`reason`.
        """
        with self._lock:
            if not self.interrupted:
                self.reason = reason
            self.interrupted = True
            hooks = list(self._hooks)
        for hook in hooks:
            hook()

    def improved(self, objective: int | None) -> None:
        """Tell :attr:`listener` (if any) that the search found a better answer.

        Args:
            objective: the answer's objective value (None without an objective).
        """
        listener = self.listener
        if listener is not None:
            listener(objective)

    @contextlib.contextmanager
    def on_stop(self, hook: Callable[[], None]) -> Iterator[None]:
        """Call ``hook`` (a solver's stop function) if :meth:`stop` is called
        while the block runs; at once if it already was."""
        with self._lock:
            self._hooks.append(hook)
            stopped = self.interrupted
        if stopped:
            hook()
        try:
            yield
        finally:
            with self._lock:
                self._hooks.remove(hook)

    @contextlib.contextmanager
    def slice(self, seconds: float) -> Iterator["Deadline"]:
        """A deadline for part of the work: it ends ``seconds`` from now, or
        with this one if that comes first, and a :meth:`stop` of this one
        (Ctrl-C, a watchdog) stops it too while the block runs.

        Args:
            seconds: the slice's own limit, in seconds from now.
        """
        left = self.remaining()
        child = Deadline(seconds if left is None else min(seconds, left))
        child.listener = self.listener
        with self.on_stop(lambda: child.stop(self.reason)):
            yield child


    def ahead(self, seconds: float) -> "Deadline":
        """A deadline that ends ``seconds`` before this one (at most half its limit
        earlier), for a search whose answer must still be checked before this one
        ends. It counts from the same start, so its reasons and times read as this
        one's, and a :meth:`stop` of this one (Ctrl-C, the memory watchdog) stops
        it too, for as long as this one lives.

        Args:
            seconds: the time kept back for the work after it, in seconds.
        """
        limit = None if self.seconds is None else self.seconds - min(seconds, self.seconds / 2)
        child = Deadline(limit, start=self.start)
        child.listener = self.listener  # the search's better answers are this command's progress
        with self._lock:
            self._hooks.append(lambda: child.stop(self.reason))
            stopped = self.interrupted
        if stopped:
            child.stop(self.reason)
        return child


NO_LIMIT = Deadline()
"""A deadline that never expires (for callers that give none). Never :meth:`stop` it."""


@contextlib.contextmanager
def catch_interrupt(deadline: Deadline) -> Iterator[None]:
    """Turn the first Ctrl-C (SIGINT) into ``deadline.stop()``.

    The second SIGINT raises :class:`KeyboardInterrupt` as usual. Outside
    the main thread (where Python cannot install signal handlers) the block
    runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        if deadline.interrupted:
            raise KeyboardInterrupt
        deadline.stop()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_solver(deadline: Deadline, call: Callable[[], T], stop: Callable[[], None] | None) -> T:
    """Run one blocking solver call under ``deadline``.

    With a ``stop`` function, the call runs in a worker thread while the
    calling thread waits for it in short steps: a Ctrl-C reaches
    :meth:`Deadline.stop`, which calls ``stop``, and so does an overrun of
    the deadline by more than :data:`OVERRUN_GRACE` seconds. The solver must
    release the GIL while it searches (CP-SAT and HiGHS do) and should
    return soon after ``stop``. One that has not returned
    :data:`ABANDON_AFTER` seconds after the deadline's stop is left behind
    (HiGHS reads its interrupt flag seldom during presolve and the root
    node: it ran 2.5 s past a 5 s limit on derived Snake Eggs 03).

    Args:
        deadline: the command's deadline.
        call: the solver call; its result is returned, its exception raised.
        stop: the solver's thread-safe stop function, or None to run
            ``call`` directly in this thread.

    Returns:
        What ``call`` returned.

    Raises:
        SolverAbandoned: the solver did not return after being stopped.
    """
    if stop is None:
        return call()
    _wait_for_left_behind(deadline)
    box: dict[str, object] = {}

    def work() -> None:
        try:
            box["value"] = call()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    worker = threading.Thread(target=work, name="gridlang-solver", daemon=True)
    streams = _Streams()
    stopped_at: float | None = None
    with deadline.on_stop(stop):
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            now = time.perf_counter()
            if deadline.interrupted and stopped_at is None:
                stopped_at = now
            if stopped_at is None and deadline.end is not None and now > deadline.end + OVERRUN_GRACE:
                stopped_at = now
                stop()
            if stopped_at is not None and now > stopped_at + ABANDON_AFTER and worker.is_alive():
                streams.restore()
                _LEFT_BEHIND.append(worker)
                raise SolverAbandoned("the solver, which did not stop when asked, was left behind")
    streams.restore()  # an interrupted HiGHS run left them on stderr's pipe (Pyomo's capture)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


LEFT_BEHIND_WAIT = 60.0
"""The most seconds a solver call waits for one left behind by an earlier call (:func:`run_solver`)."""

_LEFT_BEHIND: list[threading.Thread] = []
"""Solver threads :func:`run_solver` left behind, until they end."""


def _wait_for_left_behind(deadline: Deadline) -> None:
    """Let a solver left behind by an earlier call end before another starts, within ``deadline``.

    A HiGHS run left behind still holds Pyomo's capture of the standard
    streams; when it ends, it puts back the streams it found, under the
    capture of any run started meanwhile, whose own end then fails ("Captured
    output ... does not match sys.stdout"). A process that solves again
    after one was left behind (the page's workers, the Python API) waits
    for it here: it was asked to stop, and HiGHS returns soon after. When
    the deadline passes first (or :data:`LEFT_BEHIND_WAIT` seconds, without
    a limit), the new call starts anyway.
    """
    remaining = deadline.remaining()
    wait_for_left_behind(LEFT_BEHIND_WAIT if remaining is None else min(remaining, LEFT_BEHIND_WAIT))


def wait_for_left_behind(seconds: float) -> bool:
    """Wait up to ``seconds`` in all for the solver threads :func:`run_solver` left behind to end.

    Returns:
        True when none is left running.
    """
    end = time.perf_counter() + seconds
    while _LEFT_BEHIND:
        _LEFT_BEHIND[0].join(max(0.0, end - time.perf_counter()))
        if _LEFT_BEHIND[0].is_alive():
            return False
        _LEFT_BEHIND.pop(0)
    return True


class _Streams:
    """Standard output and error as they were before a solver call.

    Pyomo points file descriptors 1 and 2 (and ``sys.stdout``,
    ``sys.stderr``) at a pipe of its own while HiGHS runs and puts them
    back when the run ends; a run left behind keeps them, and one stopped by
    Ctrl-C came back with ``sys.stdout`` writing to standard error. Either
    way later lines would be lost or misplaced, so :func:`run_solver`
    puts them back after every call.
    """

    def __init__(self) -> None:
        self.objects = (sys.stdout, sys.stderr)
        try:
            self.fds: tuple[int, int] | None = (os.dup(1), os.dup(2))
        except OSError:
            self.fds = None

    def restore(self) -> None:
        sys.stdout, sys.stderr = self.objects
        if self.fds is not None:
            for saved, fd in zip(self.fds, (1, 2)):
                with contextlib.suppress(OSError):
                    os.dup2(saved, fd)
        self.close()

    def close(self) -> None:
        if self.fds is not None:
            for saved in self.fds:
                with contextlib.suppress(OSError):
                    os.close(saved)
            self.fds = None


def sat_interruptible(name: str) -> bool:
    """Whether PySAT can interrupt this SAT solver (CaDiCaL and Lingeling cannot)."""
    from pysat.solvers import SolverNames

    for family in ("cadical103", "cadical153", "cadical195", "cadical300", "lingeling"):
        if name in getattr(SolverNames, family, ()):
            return False
    return True


FIRST_SLICE = 200
"""With a deadline, the conflicts of the first CaDiCaL slice a solver runs."""

SLICE_SECONDS = 1.0
"""With a deadline, a CaDiCaL slice is sized to last about this long (or the
time left), from the conflict rate of the slice before."""


def quiet_pysat_sigint() -> None:
    """Keep PySAT from installing its own SIGINT handler.

    From the main thread, PySAT's solver calls and cardinality encodings
    meet a Ctrl-C with a ``longjmp`` out of their C++ code, which skips its
    destructors: freeing the solver afterwards aborted the process
    (``free(): invalid pointer``), and a run was seen to hang. gridlang
    handles Ctrl-C itself (:func:`catch_interrupt`), and CaDiCaL runs in
    short slices (:func:`run_sat`), so PySAT is told it never runs in the
    main thread (its ``MainThread.check``, which decides whether it installs
    the handler). Called before any PySAT work of the maxsat backend.
    """
    from pysat import _utils

    _utils.MainThread.check = staticmethod(lambda: False)


def run_sat(solver, name: str, assumptions: list[int], deadline: Deadline, conflicts: int) -> bool | None:
    """One call of a PySAT solver under ``deadline``: True, False, or None when
    the time ran out or Ctrl-C stopped it.

    Args:
        solver: a :class:`pysat.solvers.Solver`.
        name: its PySAT name (``g3``, ``cadical195``...).
        assumptions: literals assumed for this call.
        deadline: the command's deadline.
        conflicts: the largest conflict budget of a slice (below).

    An interruptible solver runs through :func:`run_solver` (stopped by
    ``interrupt``). CaDiCaL cannot be interrupted: it runs in
    slices of a conflict budget (learnt clauses carry over between them),
    the clock and the Ctrl-C flag read between slices; with a deadline a
    slice lasts about :data:`SLICE_SECONDS` or the time left (at the rate
    of the solver's last slice; the first, of :data:`FIRST_SLICE`
    conflicts, measures it), without one
    ``conflicts`` conflicts.
    """
    if deadline.expired():
        return None
    if sat_interruptible(name):
        def call():
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)

        ok = run_solver(deadline, call, solver.interrupt)
        if ok is None:
            solver.clear_interrupt()
        return ok
    # A slice is sized by the conflict rate the solver last showed (kept on
    # it between calls), the first one short: a first slice of the full
    # budget ran 7 s past a 10 s limit on a 100x100 map, where CaDiCaL made
    # 900 conflicts a second. Without a deadline too, so that a Ctrl-C (read
    # between slices) is answered within about SLICE_SECONDS.
    rate = getattr(solver, "_gridlang_rate", None)
    budget = FIRST_SLICE if rate is None else rate * min(SLICE_SECONDS, deadline.remaining() or SLICE_SECONDS)
    budget = min(conflicts, budget)
    while not deadline.expired():
        remaining = deadline.remaining()
        before = solver.accum_stats().get("conflicts", 0)
        t = time.perf_counter()
        solver.conf_budget(max(int(budget), 100))
        ok = solver.solve_limited(assumptions=assumptions)  # a Ctrl-C is read after it (quiet_pysat_sigint)
        if ok is not None:
            return ok
        spent = max(time.perf_counter() - t, 1e-3)
        rate = max(solver.accum_stats().get("conflicts", 0) - before, 1) / spent
        with contextlib.suppress(AttributeError):
            solver._gridlang_rate = rate
        left = SLICE_SECONDS if remaining is None else deadline.remaining() or 0.0
        budget = min(conflicts, rate * min(SLICE_SECONDS, left))
    return None
