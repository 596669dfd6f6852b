"""The server's worker processes: a bounded queue of requests, each solved under its own deadline.

:class:`Pool` keeps ``workers`` spawned processes (a fresh interpreter
each, warmed once: the pipeline and the solver libraries imported) and a
queue of at most ``queue`` waiting jobs; a job submitted to a full queue is
refused with :class:`QueueFull`, which the server answers with 503 and a
``Retry-After`` of the seconds the jobs ahead should take. Each worker
takes one job at a time, through its own pipe, and runs it in its main
thread; a thread of the worker reads the pipe meanwhile, so that a stop
reaches the job's :class:`~gridlang.core.deadline.Deadline` at once:

* :meth:`Pool.stop` (the page's Stop) stops the deadline as Ctrl-C does:
  the search ends and the best answer so far comes back;
* :meth:`Pool.cancel` (a browser that went away) drops a waiting job, or
  stops a running one and discards its answer; a worker that has not
  ended the job :data:`STOP_GRACE` seconds later is killed and replaced;
* a job still running :data:`KILL_GRACE` seconds past its own time limit
  (a solver that did not stop) has its worker killed and replaced, and
  fails with :class:`WorkerDied`; so does a job whose worker died (the
  out-of-memory killer).

Workers tie their life to the server (:func:`gridlang.core.lifeline.die_with_parent`),
ignore ``SIGINT`` (the server owns Ctrl-C and ends them), and report each
better answer their search finds (:attr:`Deadline.listener`) as progress.
The batch's pool (:mod:`gridlang.core.workers`) runs a fixed list of tasks to
the end; this one serves an open stream of requests from an event loop,
which is why it is its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import queue as queues
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from gridlang.core.lifeline import die_with_parent
from gridlang.core.workers import Death, signal_name, start_without_sigint

KILL_GRACE = 10.0
"""Seconds past its time limit a job may run before its worker is killed (the deadline stops it well before)."""

STOP_GRACE = 5.0
"""Seconds a cancelled job's worker may take to end it before it is killed."""

KEEP_FINISHED = 120.0
"""Seconds a finished job's answer is kept for the page to fetch."""


class QueueFull(Exception):
    """Every worker is busy and the queue holds its most jobs.

    Attributes:
        retry_after: whole seconds after which the jobs ahead should be done.
    """

    def __init__(self, retry_after: int):
        super().__init__(f"the server is busy; try again in {retry_after} s")
        self.retry_after = retry_after


class WorkerDied(Exception):
    """A job's worker ended without an answer, or was killed because the job did not stop in time."""


class TaskFailed(Exception):
    """A job's task raised: ``record`` is the gridlang error as JSON
    (:func:`~gridlang.web.inputs.error_record`), or None for a bug (``str(self)`` says which)."""

    def __init__(self, message: str, record: dict | None = None, status: int = 400):
        super().__init__(message)
        self.record = record
        self.status = status


@dataclass(eq=False)
class Job:
    """One request's work.

    Attributes:
        id: an unguessable name (the page stops and follows a job by it).
        task: the module-level function a worker runs, ``task(ctx, *args)``.
        args: its arguments (picklable).
        seconds: the job's own time limit (the worker is killed
            :data:`KILL_GRACE` seconds past it).
        future: its answer: the task's return value, or :class:`TaskFailed`,
            :class:`WorkerDied`, :class:`asyncio.CancelledError`.
        submitted: ``time.monotonic()`` when queued.
        started: when a worker took it, or None.
        progress: the last progress the worker reported (``phase``, ``best``).
        stopped: :meth:`Pool.stop` was called.
        cancelled: :meth:`Pool.cancel` was called: the answer is not wanted.
        watchers: streams following its progress now (the page's).
        watched: a stream has followed it.
    """

    id: str
    task: Callable[..., Any]
    args: tuple
    seconds: float
    future: asyncio.Future
    submitted: float = field(default_factory=time.monotonic)
    started: float | None = None
    progress: dict = field(default_factory=dict)
    stopped: bool = False
    cancelled: bool = False
    watchers: int = 0
    watched: bool = False

    def snapshot(self, position: int | None = None) -> dict[str, Any]:
        """Progress as the page shows it: ``state``, ``elapsed`` seconds since a worker took the job
        (or ``position`` in the queue), the ``best`` objective so far, the ``phase``."""
        if self.future.done():
            state = "done"
        elif self.started is None:
            state = "queued"
        else:
            state = "running"
        out = {"state": state, "elapsed": round(time.monotonic() - self.started, 2) if self.started else 0.0,
               "stopped": self.stopped, **self.progress}
        if position is not None:
            out["position"] = position
        return out


class Context:
    """What a task sees of its job, in the worker: the deadline it makes, and a progress channel.

    Args:
        job: the job's id.
        send: sends a message to the server (thread-safe).
    """

    def __init__(self, job: str, send: Callable[[tuple], None]):
        self.job = job
        self._send = send
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._deadline = None
        self.stopped = False

    def deadline(self, seconds: float | None):
        """The job's :class:`~gridlang.core.deadline.Deadline`, from now; a stop reaches it, and each better answer
        its search finds is reported as ``best``."""
        # imported on use, not at start-up
        from gridlang.core.deadline import Deadline

        deadline = Deadline(seconds)
        deadline.listener = lambda objective: self.progress(best=objective)
        with self._lock:
            self._deadline = deadline
            stopped = self.stopped
        if stopped:
            deadline.stop()
        return deadline

    def stop(self) -> None:
        """Stop the job's search as Ctrl-C would (now, or as soon as its deadline is made)."""
        with self._lock:
            self.stopped = True
            deadline = self._deadline
        if deadline is not None:
            deadline.stop()

    def progress(self, **fields: Any) -> None:
        """Send progress (``phase="solving"``, ``best=66``) to the server; nothing from a forked solver child."""
        if os.getpid() == self._pid:
            with contextlib.suppress(OSError, ValueError):
                self._send(("progress", self.job, fields))


class _Worker:
    """One worker process, its pipe, the thread reading the pipe, and its job (None when idle)."""

    def __init__(self, process: Any, conn: Any):
        self.process = process
        self.conn = conn
        self.job: Job | None = None
        self.kill_timer: asyncio.TimerHandle | None = None
        self.ended = False

    def send(self, message: Any) -> bool:
        """Send a message; False when the worker has gone."""
        try:
            self.conn.send(message)
            return True
        except (OSError, ValueError):
            return False

    def kill(self) -> None:
        """Kill the process (its pipe's end then reads as ended)."""
        with contextlib.suppress(Exception):
            self.process.kill()

    def death(self) -> Death:
        """How the ended process died."""
        self.process.join(1.0)
        code = self.process.exitcode
        if code is not None and code < 0:
            return Death(self.process.pid, signal_name(-code), None)
        return Death(self.process.pid, None, code)


class Pool:
    """Spawned worker processes serving jobs from a bounded queue, on an asyncio event loop.

    Args:
        workers: processes (1 or more).
        queue: the most jobs waiting for a worker (0 or more); beyond it,
            :meth:`submit` raises :class:`QueueFull`.
        warm: a module-level function each worker runs once before its first job.

    Use ``await pool.start()`` in the loop that will serve, and ``await pool.close()`` at the end.
    """

    def __init__(self, workers: int, queue: int, warm: Callable[[], None] | None = None):
        if workers < 1 or queue < 0:
            raise ValueError(f"a pool needs 1 worker or more and a queue of 0 or more, not {workers} and {queue}")
        self.size = workers
        self.limit = queue
        self.warm = warm
        self.waiting: list[Job] = []
        self.jobs: dict[str, Job] = {}
        self.workers: list[_Worker] = []
        self.durations: list[float] = []
        self.refused = 0
        self.served = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Start the workers (they warm up while the server starts answering)."""
        self._loop = asyncio.get_running_loop()
        for _ in range(self.size):
            self.workers.append(self._spawn())

    async def close(self) -> None:
        """End every worker (killed if busy) and fail the jobs left."""
        self._closing = True
        for worker in list(self.workers):
            if worker.job is None:
                worker.send(None)
        deadline = time.monotonic() + 2.0
        for worker in list(self.workers):
            while worker.process.is_alive() and worker.job is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            worker.kill()
        for worker in self.workers:
            await asyncio.get_running_loop().run_in_executor(None, worker.process.join, 2.0)
            with contextlib.suppress(OSError):
                worker.conn.close()
        for job in [*self.waiting, *(w.job for w in self.workers if w.job is not None)]:
            if not job.future.done():
                job.future.set_exception(WorkerDied("the server is shutting down"))
        self.waiting.clear()

    def _spawn(self) -> _Worker:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        tied = threading.current_thread() is threading.main_thread()
        process = context.Process(target=_serve, args=(theirs, os.getpid(), tied, self.warm),
                                  name="gridlang-serve-worker", daemon=True)
        start_without_sigint(process)
        theirs.close()
        worker = _Worker(process, ours)
        threading.Thread(target=self._read, args=(worker,), name="gridlang-serve-pipe", daemon=True).start()
        return worker

    def _read(self, worker: _Worker) -> None:
        """A worker's pipe, read in a thread; each message handed to the event loop."""
        loop = self._loop
        while True:
            try:
                message = worker.conn.recv()
            except (EOFError, OSError, ValueError):
                break
            except Exception as e:  # noqa: BLE001 - an answer that does not unpickle fails its job
                message = ("raised", worker.job.id if worker.job else "", f"{type(e).__name__}: {e}")
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._message, worker, message)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._ended, worker)

    # ------------------------------------------------------------ jobs

    def submit(self, task: Callable[..., Any], args: tuple, seconds: float) -> Job:
        """Queue a job.

        Args:
            task: a module-level function, run in a worker as ``task(ctx, *args)``.
            args: its arguments (picklable).
            seconds: its time limit (its worker is killed :data:`KILL_GRACE` seconds past it).

        Raises:
            QueueFull: every worker is busy and the queue is full.
        """
        busy = sum(1 for w in self.workers if w.job is not None)
        if busy >= len(self.workers) and len(self.waiting) >= self.limit:
            self.refused += 1
            raise QueueFull(self.retry_after())
        job = Job(secrets.token_urlsafe(12), task, args, seconds, self._loop.create_future())
        self.jobs[job.id] = job
        self.waiting.append(job)
        self._dispatch()
        return job

    def retry_after(self) -> int:
        """Whole seconds until a place should be free: the jobs ahead, times their mean duration, over the workers."""
        recent = self.durations[-20:]
        mean = sum(recent) / len(recent) if recent else 1.0
        ahead = len(self.waiting) + sum(1 for w in self.workers if w.job is not None)
        return max(1, min(60, math.ceil(mean * ahead / max(1, len(self.workers)))))

    def position(self, job: Job) -> int | None:
        """A waiting job's place in the queue (1: next), else None."""
        try:
            return self.waiting.index(job) + 1
        except ValueError:
            return None

    def stop(self, job: Job) -> None:
        """Stop a job's search as Ctrl-C would: its best answer so far comes back."""
        job.stopped = True
        if job in self.waiting:  # not begun: it begins stopped, and answers at once
            return
        worker = self._holder(job)
        if worker is not None:
            worker.send(("stop", job.id))

    def cancel(self, job: Job) -> None:
        """Drop a job whose answer is no longer wanted: unqueued, or stopped (its worker killed if it does not end)."""
        if job.future.done() or job.cancelled:
            return
        job.cancelled = True
        if job in self.waiting:
            self.waiting.remove(job)
            job.future.cancel()
            self._forget(job)
            return
        job.future.cancel()
        worker = self._holder(job)
        if worker is not None:
            worker.send(("stop", job.id))
            self._loop.call_later(STOP_GRACE, self._overdue, worker, job)

    def _holder(self, job: Job) -> _Worker | None:
        return next((w for w in self.workers if w.job is job), None)

    def _dispatch(self) -> None:
        """Hand waiting jobs to idle workers."""
        if self._closing:
            return
        for worker in self.workers:
            if not self.waiting:
                return
            if worker.job is not None or worker.ended:
                continue
            job = self.waiting.pop(0)
            worker.job = job
            job.started = time.monotonic()
            if not worker.send(("task", job.id, job.task, job.args, job.stopped)):
                continue  # the worker has ended: _ended fails or requeues the job
            worker.kill_timer = self._loop.call_later(job.seconds + KILL_GRACE, self._overdue, worker, job)

    def _overdue(self, worker: _Worker, job: Job) -> None:
        """A job that outlived its time (or its cancel): kill its worker."""
        if worker.job is job and not worker.ended:
            job.progress["killed"] = True
            worker.kill()

    def _message(self, worker: _Worker, message: tuple) -> None:
        kind, job_id = message[0], message[1]
        job = worker.job
        if job is None or job.id != job_id:
            return  # an answer to a job already given up
        if kind == "progress":
            job.progress.update(message[2])
            return
        self._finish(worker, job)
        if job.future.done() or job.cancelled:
            return
        if kind == "done":
            job.future.set_result(message[2])
        elif kind == "failed":
            record, status = message[2]
            job.future.set_exception(TaskFailed(record["error"], record, status))
        else:
            job.future.set_exception(TaskFailed(str(message[2])))

    def _finish(self, worker: _Worker, job: Job) -> None:
        worker.job = None
        if worker.kill_timer is not None:
            worker.kill_timer.cancel()
            worker.kill_timer = None
        if job.started is not None and not job.cancelled:
            self.durations.append(time.monotonic() - job.started)
            self.durations = self.durations[-100:]
            self.served += 1
        self._forget(job)
        self._dispatch()

    def _forget(self, job: Job) -> None:
        """Drop a finished job from :attr:`jobs` after :data:`KEEP_FINISHED` seconds."""
        self._loop.call_later(KEEP_FINISHED, self.jobs.pop, job.id, None)

    def _ended(self, worker: _Worker) -> None:
        """A worker's pipe closed: it died, or was killed; its job fails, a fresh worker takes its place."""
        worker.ended = True
        if self._closing:
            return
        job = worker.job
        death = worker.death()
        if worker in self.workers:
            self.workers[self.workers.index(worker)] = self._spawn()
        if job is not None:
            worker.job = None
            if worker.kill_timer is not None:
                worker.kill_timer.cancel()
            self._forget(job)
            if not job.future.done() and not job.cancelled:
                if job.progress.get("killed"):
                    why = (f"the solve did not stop {KILL_GRACE:g} s past its time limit of {job.seconds:g} s; "
                           "its worker process was killed")
                else:
                    why = f"the worker process solving this request {death.text()}"
                job.future.set_exception(WorkerDied(why))
        self._dispatch()

    def status(self) -> dict[str, int]:
        """``workers``, ``running``, ``queued``, ``queue`` (its most), ``served``, ``refused``."""
        return {"workers": len(self.workers), "running": sum(1 for w in self.workers if w.job is not None),
                "queued": len(self.waiting), "queue": self.limit, "served": self.served, "refused": self.refused}


def _serve(conn: Any, parent: int, tied: bool, warm: Callable[[], None] | None) -> None:  # pragma: no cover
    """A worker's life: tied to the server, warmed, then one job at a time; stops read by a thread meanwhile."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server owns Ctrl-C: it ends the workers
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    die_with_parent(parent, tied)
    lock = threading.Lock()
    tasks: queues.Queue = queues.Queue()
    state: dict[str, Any] = {"ctx": None, "stops": set()}

    def send(message: tuple) -> None:
        with lock:
            conn.send(message)

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            if message is None:
                break
            if message[0] == "stop":
                ctx = state["ctx"]
                if ctx is not None and ctx.job == message[1]:
                    ctx.stop()
                else:
                    state["stops"].add(message[1])
                continue
            tasks.put(message)
        tasks.put(None)

    threading.Thread(target=read, name="gridlang-serve-reader", daemon=True).start()
    if warm is not None:
        with contextlib.suppress(Exception):  # the first job meets the same failure and reports it
            warm()
    while True:
        message = tasks.get()
        if message is None:
            break
        _, job, task, args, stopped = message
        ctx = Context(job, send)
        state["ctx"] = ctx
        if stopped or job in state["stops"]:
            ctx.stop()
        state["stops"].discard(job)
        try:
            reply = ("done", job, task(ctx, *args))
        except Exception as e:  # noqa: BLE001 - every failure goes back to the request
            reply = _failure(job, e)
        state["ctx"] = None
        try:
            send(reply)
        except (OSError, ValueError):
            break
        except Exception as e:  # noqa: BLE001 - an answer that does not pickle
            send(("raised", job, f"{type(e).__name__}: {e}"))
    os._exit(0)  # no interpreter teardown: a solver thread left behind at a deadline may still run


def _failure(job: str, e: Exception) -> tuple:
    """A task's exception as the message that fails its job: a gridlang error with its record and HTTP status."""
    # imported on use, not at start-up
    from gridlang.core.errors import GridlangError, VerificationError
    from gridlang.web.inputs import error_record

    if isinstance(e, GridlangError):
        return ("failed", job, (error_record(e), 500 if isinstance(e, VerificationError) else 400))
    if isinstance(e, MemoryError):
        message = "the worker ran out of memory; try a smaller map"
        return ("failed", job, ({"error": f"error: {message}", "errors": [{"message": message, "kind": "error"}]},
                                503))
    return ("raised", job, f"gridlang failed on a problem it does not know ({type(e).__name__}: {e}); this is a bug")
