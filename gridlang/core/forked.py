"""A solver object kept in a forked child process, called across a pipe under the command's deadline.

Some solver calls hold Python's GIL for as long as they search: PySAT's
``solve``, and ``solve_limited`` without ``expect_interrupt`` (a Glucose 4
call of 101 s let no other thread of the process run in between). RC2
makes such calls while it minimises and exhausts a core, and by design its
``interrupt`` does not reach them. In one process, the thread of
:func:`gridlang.core.deadline.run_solver` that should stop or leave behind such
a call cannot run until it returns, so the time limit slips: on the
900-cell near-empty map, budget 40, a 60 s limit ran 75.5 s.

A :class:`ForkedSolver` builds the object in a child process instead
(``os.fork``: the child shares the parent's pages copy-on-write, so the
model is not copied) and calls its methods through a pipe. While a timed
call runs, the parent waits on the pipe in steps of 0.05 s, which needs
nothing of the child's: at a Ctrl-C (or a memory-limit stop), or
:data:`~gridlang.core.deadline.OVERRUN_GRACE` seconds past the deadline, it
sends the child ``SIGTERM``, which stops the child's copy of the deadline
(the solver's own stop function runs there); a child that has not answered
:data:`~gridlang.core.deadline.ABANDON_AFTER` seconds later is killed and the
call raises :class:`~gridlang.core.deadline.SolverAbandoned`, as
:func:`~gridlang.core.deadline.run_solver` leaves a thread behind. Memory: the
child's pages count towards ``--memory-limit``
(:func:`gridlang.core.memory.resident` adds up the proportional sizes of this
process and its registered children).

Arguments and results cross the pipe pickled (a round's answer, a batch of
cuts); a :class:`~gridlang.core.errors.GridlangError` raised in the child is
raised again in the parent, and any other exception (a fault of the solver
library) as a :class:`~gridlang.core.errors.BackendError` naming the solver and
the exception, with the original as its cause.

Needs ``os.fork`` (Linux, macOS): :func:`available`.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import weakref
from typing import Any, Callable

from gridlang.core import memory
from gridlang.core.deadline import ABANDON_AFTER, OVERRUN_GRACE, BuildTimeout, Deadline, SolverAbandoned
from gridlang.core.errors import BackendError, GridlangError
from gridlang.core.lifeline import die_with_parent

WAIT_STEP = 0.05
"""Seconds between two looks at the deadline while the child works."""

_HEADER = struct.Struct("!Q")


def available() -> bool:
    """True where a :class:`ForkedSolver` can run (the system has ``os.fork``)."""
    return hasattr(os, "fork")


class ForkedSolver:
    """An object built by ``factory`` in a forked child, its methods called from here.

    Args:
        factory: builds the object in the child (its errors come back at
            the first call).
        name: the solver's name, for messages (``"RC2"``).

    Raises:
        BackendError: the system cannot fork (check :func:`available` first),
            or refuses a process or a pipe now.
    """

    def __init__(self, factory: Callable[[], Any], name: str):
        if not available():
            raise BackendError(f"{name} needs os.fork to run in a child process, which this system lacks")
        self.name = name
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()  # the child's collector leaves the parent's objects (and their pages) alone
        fds: list[int] = []
        try:
            fds.extend(os.pipe())
            fds.extend(os.pipe())
            requests_r, requests_w, replies_r, replies_w = fds
            parent = os.getpid()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the child, which reports through the pipe
                die_with_parent(parent)  # killed with this thread, which makes and calls it (kill -9 included)
                os.close(requests_w)
                os.close(replies_r)
                _serve(factory, requests_r, replies_w)
        except OSError as e:  # no process or pipe to be had (a process or file limit)
            for fd in fds:
                os.close(fd)
            raise BackendError(f"could not start a child process for {name}: {e.strerror}") from e
        finally:
            gc.unfreeze()  # here only: the child never returns from _serve
        os.close(requests_r)
        os.close(replies_w)
        self.pid = pid
        self._to, self._from = requests_w, replies_r
        self.alive = True
        memory.register_child(pid)
        self._finalizer = weakref.finalize(self, _end, pid, (requests_w, replies_r), os.getpid())

    def call(self, method: str, *args: Any) -> Any:
        """``object.method(*args)`` in the child, waited for without a limit.

        For quick calls (adding clauses). Raises what the method raised;
        :class:`~gridlang.core.errors.BackendError` when the child has ended.
        """
        self._send((method, None, args))
        return self._reply(None)

    def timed_call(self, deadline: Deadline, method: str, *args: Any) -> Any:
        """``object.method(child_deadline, *args)`` in the child, under ``deadline``.

        ``child_deadline`` is the child's copy of ``deadline``: it ends at the
        same time, and stops when this one stops.

        Raises:
            SolverAbandoned: the child did not answer within
                :data:`~gridlang.core.deadline.ABANDON_AFTER` seconds of being
                stopped, and has been killed; or it ended without an
                answer (killed from outside, or crashed). Either way the
                caller keeps what it had found before the call.
        """
        self._send((method, (deadline.end, deadline.interrupted), args))
        return self._reply(deadline)

    def close(self) -> None:
        """End the child at once (the system frees what it held); idempotent."""
        self.alive = False
        self._finalizer()

    def _send(self, message: tuple) -> None:
        if not self.alive:
            raise BackendError(f"{self.name} was stopped earlier and cannot be called again")
        try:
            _write(self._to, pickle.dumps(message))
        except OSError as e:
            self.close()
            raise BackendError(f"{self.name}'s child process has ended ({e.strerror})") from e

    def _reply(self, deadline: Deadline | None) -> Any:
        stopped_at: float | None = None
        while True:
            ready, _, _ = select.select([self._from], [], [], WAIT_STEP)
            if ready:
                break
            if deadline is None:
                continue
            now = time.perf_counter()
            if stopped_at is None and (deadline.interrupted or (deadline.end is not None
                                                                and now > deadline.end + OVERRUN_GRACE)):
                stopped_at = now
                send_signal(self.pid, signal.SIGTERM)
            if stopped_at is not None and now > stopped_at + ABANDON_AFTER:
                self.close()
                raise SolverAbandoned("the solver, which did not stop when asked, was killed")
        data = _read(self._from)
        if data is None:
            self.close()
            if deadline is not None:
                raise SolverAbandoned("the solver's process ended without an answer")
            raise BackendError(f"{self.name}'s child process ended without an answer")
        kind, value = pickle.loads(data)
        if kind == "error":
            if isinstance(value, SolverAbandoned):
                self.close()
            if isinstance(value, (GridlangError, SolverAbandoned, BuildTimeout)) or not isinstance(value, Exception):
                raise value
            # A fault of the solver library (its traceback stayed in the child): one sentence, the cause kept.
            raise BackendError(f"{self.name} failed in its child process: {type(value).__name__}: {value}") from value
        return value


def _serve(factory: Callable[[], Any], requests: int, replies: int) -> None:  # pragma: no cover - child
    """The child's loop: build the object, then answer calls until the parent closes the pipe; never returns."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent owns Ctrl-C and sends SIGTERM
        current: list[Deadline | None] = [None]
        signal.signal(signal.SIGTERM, lambda signum, frame: current[0].stop() if current[0] else None)
        try:
            obj, failure = factory(), None
        except BaseException as e:  # noqa: BLE001 - reported at the first call
            obj, failure = None, e
        while (data := _read(requests)) is not None:
            method, timing, args = pickle.loads(data)
            try:
                if failure is not None:
                    raise failure
                if timing is not None:
                    end, stopped = timing
                    now = time.perf_counter()
                    current[0] = Deadline(None if end is None else end - now, start=now)
                    if stopped:
                        current[0].stop()
                    args = (current[0],) + tuple(args)
                reply = ("value", getattr(obj, method)(*args))
            except BaseException as e:  # noqa: BLE001 - raised again in the parent
                reply = ("error", e)
            finally:
                current[0] = None
            try:
                payload = pickle.dumps(reply)
                if reply[0] == "error":
                    pickle.loads(payload)  # an exception whose class cannot be rebuilt from its arguments
            except Exception:  # noqa: BLE001 - sent as a message instead
                payload = pickle.dumps(("error", BackendError(f"{type(reply[1]).__name__}: {reply[1]}")))
            _write(replies, payload)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


def _write(fd: int, payload: bytes) -> None:
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view):]


def _read(fd: int) -> bytes | None:
    """One message, or None at the end of the pipe."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    return _read_exactly(fd, _HEADER.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _end(pid: int, fds: tuple[int, ...], parent: int) -> None:
    """Close the pipes and :func:`end_child`; nothing in another process (a later fork's child)."""
    if os.getpid() != parent:
        return
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
    end_child(pid)


def end_child(pid: int) -> None:
    """Kill child process ``pid`` at once, stop counting its memory, and reap it in a daemon thread."""
    send_signal(pid, signal.SIGKILL)
    memory.unregister_child(pid)
    threading.Thread(target=_reap, args=(pid,), name="gridlang-reap", daemon=True).start()


def send_signal(pid: int, sig: int) -> None:
    """``os.kill(pid, sig)``, quiet when the process has already ended."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
