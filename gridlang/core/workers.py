"""A batch's local pool: spawned worker processes, one task at a time each, that Ctrl-C and death cannot derail.

:func:`run_pool` starts ``workers`` processes (``spawn``: a fresh
interpreter, never a fork of a parent with threads), warms each once
(the spec parsed, the solver library imported), hands each one task at a
time through its own pipe and yields every outcome as it comes:

* :class:`Done`: the task's answer (whatever the task function returned);
* :class:`Raised`: the task function raised (a bug): its exception as text;
* :class:`Died`: the worker ended without an answer, twice: killed by a
  signal (the kernel's out-of-memory killer sends ``SIGKILL``), or it
  exited. A task whose worker dies is given once more, to a fresh worker
  started in its place (``retries``); the other workers go on untouched.

Ctrl-C belongs to the parent: the workers ignore ``SIGINT`` (a terminal
sends it to the whole process group) and the parent, once its
:class:`Interrupt` is set, kills every worker at once (``SIGKILL``: a
search stopped midway has no answer worth a line), then yields the
answers that had reached its pipes by then, and ends. Every worker calls
:func:`gridlang.core.lifeline.die_with_parent`, so that ``kill -9`` of the
parent ends the workers too (and so, once no process holds its pipe,
multiprocessing's resource tracker).

:class:`concurrent.futures.ProcessPoolExecutor` cannot do this: when one
worker dies, every pending future fails with ``BrokenProcessPool`` and
nothing says which task the dead worker held; and leaving its ``with``
block waits for every task already queued (116 s after a Ctrl-C, with both
workers still solving).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from gridlang.core.lifeline import die_with_parent

STOP_WAIT = 2.0
"""Seconds a worker told to end (its tasks done) may take before it is killed."""


def core_count() -> int:
    """The CPU cores this process may run on (its affinity where the system has one), at least 1:
    the default number of worker processes of a batch, of ``generate --count`` and of the page."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Death:
    """How a worker process ended without an answer.

    Attributes:
        pid: the worker's pid.
        signal: the signal that killed it (``"SIGKILL"``), or None.
        exit_code: its exit status when it exited (no signal), else None.
        out_of_memory: the kernel's out-of-memory killer killed a process
            (this one, or another) while the worker ran: ``oom_kill`` of
            ``/proc/vmstat`` grew; only with ``SIGKILL``.
    """

    pid: int
    signal: str | None
    exit_code: int | None
    out_of_memory: bool = False

    def text(self) -> str:
        """``was killed by SIGKILL`` (and the out-of-memory killer's part), or ``exited with status 1``."""
        what = f"was killed by {self.signal}" if self.signal else f"exited with status {self.exit_code}"
        if self.out_of_memory:
            what += ", with the kernel's out-of-memory killer acting while it ran"
        return what


@dataclass
class Done:
    """A task's answer. ``attempts``: the workers that took it (2 after a retry)."""

    task: Any
    value: Any
    attempts: int = 1


@dataclass
class Raised:
    """The task function raised in worker ``pid``: the exception as ``Type: message``."""

    task: Any
    error: str
    attempts: int = 1
    pid: int | None = None


@dataclass
class Died:
    """Every worker given the task ended without an answer; ``deaths`` in order."""

    task: Any
    deaths: list[Death] = field(default_factory=list)


class Interrupt:
    """The first Ctrl-C (``SIGINT``) of a run, as a flag and a descriptor a wait wakes on.

    Use :meth:`catching` around the run; :func:`run_pool` and the caller's
    own loops read :attr:`set` and wait on :meth:`fileno`.
    """

    def __init__(self) -> None:
        self.set = False
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)

    def fileno(self) -> int:
        """The descriptor that becomes readable at the Ctrl-C."""
        return self._read

    def trip(self, signum: int | None = None, frame: Any = None) -> None:
        """Set the flag and wake the waits (the ``SIGINT`` handler)."""
        self.set = True
        with contextlib.suppress(OSError):
            os.write(self._write, b"!")

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or until the Ctrl-C."""
        if not self.set:
            select.select([self._read], [], [], seconds)

    @contextlib.contextmanager
    def catching(self) -> Iterator["Interrupt"]:
        """Turn ``SIGINT`` into :meth:`trip` while the block runs (in the main
        thread only: elsewhere Python cannot catch signals)."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self.trip) if main else None
        try:
            yield self
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
            os.close(self._read)
            os.close(self._write)


def signal_name(number: int) -> str:
    """The name of a signal that ended a process (``SIGKILL``), or ``signal N`` for one Python does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def start_without_sigint(process) -> None:
    """Start a spawned ``process`` with SIGINT blocked (the child inherits the mask through exec),
    so that a Ctrl-C while it imports is no KeyboardInterrupt there: it waits, pending, until the
    child unblocks it (as :func:`_serve` does once it is ready)."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def run_pool(tasks: Sequence[Any], workers: int, solve: Callable[[Any], Any],
             warm: Callable[..., None] | None = None, warm_args: tuple = (),
             stop: Interrupt | None = None, retries: int = 1) -> Iterator[Done | Raised | Died]:
    """Solve ``tasks`` on ``workers`` spawned processes; yield each outcome as it comes.

    Args:
        tasks: picklable tasks, handed out in order.
        workers: processes (at most one per task).
        solve: a module-level function, run in a worker on one task; its
            return value must pickle.
        warm: a module-level function each worker runs once before its
            first task (its failure is left for the tasks to meet).
        warm_args: the arguments of ``warm``.
        stop: the run's Ctrl-C: once set, the workers are killed and only
            the answers already sent are yielded.
        retries: how many more fresh workers a task gets after its worker dies.

    Yields:
        :class:`Done`, :class:`Raised` or :class:`Died`, one per task (none
        for a task that was running or waiting at a Ctrl-C).
    """
    import multiprocessing
    import multiprocessing.connection

    context = multiprocessing.get_context("spawn")
    queue = deque((t, []) for t in tasks)
    slots: list[_Slot] = []

    def start(slot: _Slot | None = None) -> _Slot:
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, os.getpid(), solve, warm, warm_args),
                                  name="gridlang-batch-worker", daemon=True)
        oom = _oom_kills()
        start_without_sigint(process)
        theirs.close()
        fresh = _Slot(process, ours, oom)
        if slot is not None:  # in place of a worker that has ended
            slot.close()
            slots[slots.index(slot)] = fresh
        else:
            slots.append(fresh)
        return fresh

    def give(slot: _Slot) -> None:
        if not queue:
            slot.task = None
            slot.retire()
            return
        slot.task, slot.deaths = queue.popleft()
        try:
            slot.conn.send(slot.task)
        except OSError:  # the worker died just after its last answer: the task goes to a fresh one
            queue.appendleft((slot.task, slot.deaths))
            slot.task = None
            give(start(slot))

    try:
        for _ in range(max(1, min(workers, len(queue)))):
            if queue:
                give(start())
        while any(s.task is not None for s in slots):
            busy = [s for s in slots if s.task is not None]
            waited: list[Any] = [s.conn for s in busy] + [s.process.sentinel for s in busy]
            if stop is not None:
                waited.append(stop)
            multiprocessing.connection.wait(waited)
            if stop is not None and stop.set:
                break
            for slot in busy:
                outcome = slot.receive()
                if outcome is not None:
                    yield outcome
                    give(slot)
                elif not slot.process.is_alive():
                    slot.deaths.append(slot.death())
                    task, deaths = slot.task, slot.deaths
                    fresh = start(slot)
                    if len(deaths) <= retries:
                        fresh.task, fresh.deaths = task, deaths
                        fresh.conn.send(task)
                    else:
                        yield Died(task, deaths)
                        give(fresh)
        if stop is not None and stop.set:
            for slot in slots:
                slot.process.kill()
            for slot in slots:
                slot.process.join()
                if slot.task is not None and (outcome := slot.receive()) is not None:
                    yield outcome  # finished between the Ctrl-C and the kill
    finally:
        for slot in slots:
            slot.close()


class _Slot:
    """One worker process, its pipe, and the task it holds (None when idle)."""

    def __init__(self, process: Any, conn: Any, oom: int | None):
        self.process, self.conn, self.oom = process, conn, oom
        self.task: Any = None
        self.deaths: list[Death] = []

    def receive(self) -> Done | Raised | None:
        """The task's outcome if the worker has sent it whole, else None."""
        try:
            if not self.conn.poll():
                return None
            kind, value = self.conn.recv()
        except (EOFError, OSError):  # the worker died while it sent
            return None
        attempts = len(self.deaths) + 1
        if kind == "done":
            return Done(self.task, value, attempts)
        return Raised(self.task, value, attempts, self.process.pid)

    def death(self) -> Death:
        """How the (ended) worker died."""
        self.process.join()
        code = self.process.exitcode
        if code is not None and code < 0:
            name = signal_name(-code)
            oom = -code == signal.SIGKILL and self.oom is not None and (_oom_kills() or 0) > self.oom
            return Death(self.process.pid, name, None, oom)
        return Death(self.process.pid, None, code)

    def retire(self) -> None:
        """Tell the worker there is no more work (it exits at once)."""
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)

    def close(self) -> None:
        """End the worker (killed if it has not ended within :data:`STOP_WAIT`) and close the pipe."""
        if self.process.is_alive():
            self.retire()
            self.process.join(STOP_WAIT if self.task is None else 0)
            if self.process.is_alive():
                self.process.kill()
            self.process.join()
        with contextlib.suppress(OSError):
            self.conn.close()
        with contextlib.suppress(ValueError):
            self.process.close()


def _serve(conn: Any, parent: int, solve: Callable[[Any], Any], warm: Callable[..., None] | None,
           warm_args: tuple) -> None:  # pragma: no cover - runs in a worker
    """A worker's life: tied to the parent, warmed, then one task at a time until told to end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent owns Ctrl-C: it kills the workers
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent while it started us
    die_with_parent(parent)
    if warm is not None:
        with contextlib.suppress(Exception):  # the first task meets the same failure and reports it
            warm(*warm_args)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent has gone
            break
        if task is None:
            break
        try:
            reply = ("done", solve(task))
        except Exception as e:  # noqa: BLE001 - reported in the task's line, the worker goes on
            reply = ("raised", f"{type(e).__name__}: {e}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            break
    import sys

    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)  # no interpreter teardown: a solver thread left behind at a deadline may still run


def _oom_kills() -> int | None:
    """The kernel's count of processes its out-of-memory killer has killed (``/proc/vmstat``), or None."""
    try:
        with open("/proc/vmstat", encoding="ascii") as f:
            for line in f:
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None
