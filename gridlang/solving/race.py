"""The race of the ``auto`` backend: two backends on one model, the first in
this process and the second in a forked child, the first proof winning (see
:mod:`gridlang.solving.auto`).
"""

from __future__ import annotations

import gc
import math
import os
import signal
import sys
import threading
import time
from typing import Sequence

from gridlang.core import memory
from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError, GridlangError
from gridlang.core.nodes import replace
from gridlang.ir.backend import Backend, Result, Session, SolveOptions, Status, get_backend
from gridlang.ir.model import Model, Sense


class Labelled(Session):
    """A concrete backend's session whose results say which backend ``auto`` chose."""

    def __init__(self, inner: Session, name: str):
        self.inner, self.chosen = inner, name
        self.backend, self.model, self.options, self.settings = inner.backend, inner.model, inner.options, \
            inner.settings

    @property
    def extra(self):
        return self.inner.extra

    def add(self, constraints) -> None:
        self.inner.add(constraints)

    def solve(self) -> Result:
        result = self.inner.solve()
        result.stats["chosen"] = self.chosen
        return result


RACES = [0]
"""Races run in this process so far."""


CHILD_NICE = 10
"""Niceness added to a race child: the backend in this process, which
answers most maps, keeps its core when the child runs more threads than
the machine has cores (CP-SAT's portfolio of 8 workers on 2 cores)."""


KILL_AFTER = 2.0
"""Seconds past the deadline (or past a Ctrl-C) after which a race child
that has not answered is killed and counted as UNKNOWN."""


class RaceSession(Session):
    """Two backends on one model, the first in this process, the second in a
    forked child; the first proof wins.

    The first :meth:`solve` races. With ``again`` (a puzzle without an
    objective, where ``--unique`` and ``--count`` solve again after each
    blocking clause), every later solve races too: the winner's backend
    solves here, on one session that keeps what it learnt, and the other
    joins in a child after ``after`` seconds, on the model with the same
    constraints added, so both answer the same question (the search here
    never gives way: the child, niced, takes the spare cores); a child that wins
    makes its backend the one solving here from the next solve on. Without
    ``again``, every later solve (after :meth:`add`, for a blocking clause)
    runs in this process on the winner's backend, whose session is made
    then, with the constraints added so far and the cuts the winner learnt.

    Args:
        auto: the ``auto`` backend.
        model: the compiled model.
        options: the options of every solve.
        names: the backends, the first solving here first.
        again: race every solve, not only the first.
        after: with ``again``, the seconds the backend here solves alone
            before the child is forked (None: the first race's
            ``first_race_after`` or ``race_after`` of :class:`~gridlang.solving.auto.AutoSettings`).
    """

    def __init__(self, auto: Backend, model: Model, options: SolveOptions, names: Sequence[str],
                 again: bool = False, after: float | None = None):
        self.backend, self.model, self.options, self.settings = auto, model, options, auto.configure(options)
        self.names = tuple(names)
        # Settings checked before any solving: a race has none of its own NAME. keys
        # (narrowed() keeps one backend when there are), only bare ones of the first.
        # The child's backend module is not even imported here (the MILP's pulls in
        # highspy and numpy); a child that cannot run answers with its error.
        get_backend(self.names[0]).configure(options)
        self.extra = []
        self.raced = False
        self.winner_name = self.names[0]
        self.winner: Session | None = None
        self.again, self.after = again, after

    def add(self, constraints) -> None:
        constraints = list(constraints)
        if self.again:
            self.extra.extend(constraints)  # kept for a session of another backend, should its child win
        if self.winner is not None:
            self.winner.add(constraints)
        elif not self.again:
            self.extra.extend(constraints)

    def solve(self) -> Result:
        """Race (the first call; with ``again``, every call), else solve on the winner's backend.

        Raises:
            BackendError: both backends failed (the first one's error).
        """
        if self.again:
            return self._race_again()
        if not self.raced and not self.extra:
            self.raced = True
            after = self.settings.first_race_after if RACES[0] == 0 else self.settings.race_after
            RACES[0] += 1
            self.winner_name, result = race(self.model, self.options, self.names, after,
                                            self.settings.yield_after)
            self.extra.extend(result.stats.get("learned_cuts", ()))
            return result
        if self.winner is None:
            engine = get_backend(self.winner_name)
            engine.load_library()
            self.winner = Labelled(engine.session(self.model, self.options), self.winner_name)
            self.winner.add(self.extra)
        return self.winner.solve()

    def _race_again(self) -> Result:
        """One solve of the ``again`` mode: the winner's session here, the others in children."""
        here = self.winner_name
        if self.winner is None:
            engine = get_backend(here)
            if self.raced:
                engine.load_library()  # a child's backend that won: imported here only now
            self.winner = engine.session(self.model, self.options)
            self.winner.add(self.extra)
        if self.after is not None:
            after = self.after
        else:
            after = self.settings.first_race_after if RACES[0] == 0 else self.settings.race_after
        self.raced = True  # not counted in RACES: most of these races fork nothing
        names = (here, *(n for n in self.names if n != here))
        # No giving way: the backend here keeps its priority and the child takes the spare cores, since
        # clingo answers nearly every such puzzle first.
        name, result = race(self.model, self.options, names, after, here=self.winner)
        if name != here:
            self.winner_name, self.winner = name, None
            self.extra.extend(result.stats.get("learned_cuts", ()))
        return result


def race(model: Model, options: SolveOptions, names: Sequence[str], after: float = 0.0,
         yield_after: float = math.inf, here: Session | None = None) -> tuple[str, Result]:
    """Solve ``model`` on ``names[0]`` in this process and on each other backend
    of ``names`` in a forked child; the first proof wins.

    Args:
        model: the compiled model.
        options: the solve options; ``options.deadline`` bounds every solve.
        names: two (or more) backend names whose libraries are imported.
        after: seconds to solve here alone before the children are forked
            (from a timer thread; none is forked when this one finishes first).
        yield_after: seconds after which the solver threads started here
            since the race began (threads not run by Python: clingo's
            search, CP-SAT's workers) drop to the children's priority, when
            a child runs by then (``inf``: never; Linux only, where a thread
            has its own niceness). With a finite ``yield_after``, a search
            here on several threads by the fork (clingo's split search, when
            ``after`` > 0) keeps one at its priority from the fork on and runs
            the others only on a core no other thread wants (``SCHED_IDLE``).
            Every Python thread keeps its priority,
            the calling thread included, so the process runs as before once
            the race's solver threads have ended.
        here: the session of ``names[0]`` that solves in this process, with
            the constraints added to it (blocking clauses), under this
            race's deadline for this one solve; the children solve
            ``model`` with the same constraints added. None: a new session
            of ``names[0]`` on ``model``.

    Returns:
        The winner's name and its result, with ``stats["chosen"]`` and
        ``stats["raced"]`` set; without a proof, the better answer, its
        ``bound`` the tighter of the bounds proved.

    Raises:
        BackendError: every backend failed (the first error, as raised there).
    """
    parent = options.clock()
    if parent.expired():
        return names[0], Result(Status.UNKNOWN, stats={"reason": f"{parent.cause()} before solving",
                                                       "chosen": names[0], "raced": ",".join(names)})
    local = Deadline(parent.seconds, start=parent.start)  # stopped by a child's proof, or by the parent
    answers: dict[str, Result | GridlangError] = {}
    children: list[_Child] = []
    lock = threading.Lock()
    finished = [False]

    def proved(name: str, answer) -> None:
        answers[name] = answer
        if isinstance(answer, Result) and answer.status in (Status.OPTIMAL, Status.INFEASIBLE):
            local.stop()

    def spawn() -> None:
        with lock:
            if finished[0] or local.expired():
                return  # solved here first: no fork at all
            sys.stdout.flush()
            sys.stderr.flush()
            gc.freeze()  # the children's collector leaves the parent's objects (and their pages) alone
            try:
                shared = model.with_constraints(tuple(here.extra)) if here is not None and here.extra else model
                for name in names[1:]:
                    child = _Child(name, shared, options)
                    children.append(child)
                    child.watch(proved)
            finally:
                gc.unfreeze()
            if math.isfinite(yield_after):
                # A search here on more threads than one (clingo's split search) keeps one thread's
                # share from the fork on: the others run only on a core nobody else wants, so that a
                # child has one before the search here gives way. On the eleven slowest dailies (a
                # race CP-SAT wins) the median was 1.34 s with both threads at their priority, 1.28 s
                # with the others niced as the child is, 0.83 s so, and 0.89 s with clingo on one thread.
                for tid in sorted(_solver_threads(before))[1:]:
                    _idle(tid)

    def give_way() -> None:
        with lock:
            if finished[0] or not children:
                return
            for tid in _solver_threads(before):
                _lower(tid)

    def stop_all() -> None:
        local.stop()
        for child in list(children):
            child.terminate()

    # With a delay the fork happens in a timer thread while this one solves:
    # the child runs only the other backend, never the solver running here.
    before = _threads()
    timer = threading.Timer(after, spawn) if after > 0 else None
    if timer is None:
        spawn()
    else:
        timer.daemon = True
        timer.start()
    giver = threading.Timer(yield_after, give_way) if before and math.isfinite(yield_after) else None
    if giver is not None:
        giver.daemon = True
        giver.start()
    try:
        with parent.on_stop(stop_all):
            try:
                own = _solve_here(names[0], model, options, local, here)
            except GridlangError as e:
                own = e
            with lock:
                finished[0] = True
            if names[0] not in answers:
                answers[names[0]] = own
            if not (isinstance(own, Result) and own.status in (Status.OPTIMAL, Status.INFEASIBLE)):
                for child in list(children):  # wait for the others' answers (a proof, or their best at the limit)
                    child.join(parent, local)
    finally:
        with lock:
            finished[0] = True
        for t in (timer, giver):
            if t is not None:
                t.cancel()
        for child in list(children):
            child.kill()
    return _best(model, names, answers, parent.expired())


def _solve_here(name: str, model: Model, options: SolveOptions, local: Deadline, here: Session | None) -> Result:
    """One solve in this process under the race's deadline ``local``: on ``here``, else a new session of ``name``."""
    if here is None:
        with get_backend(name).session(model, replace(options, deadline=local)) as session:
            return session.solve()
    kept = here.options
    here.options = replace(kept, deadline=local)
    try:
        return here.solve()
    finally:
        here.options = kept


class _Child:
    """One forked race child: its pid, the pipe it answers through, and a thread reading it."""

    def __init__(self, name: str, model: Model, options: SolveOptions):
        self.name = name
        read_fd, write_fd = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, reported through the pipe
            # imported on use, not at start-up
            from gridlang.core.lifeline import die_with_parent

            die_with_parent(parent, tied=False)  # forked from a timer thread, which ends at once: watch the pid
            os.close(read_fd)
            _child(model, options, name, write_fd)
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd
        self.thread = None
        memory.register_child(pid)  # its pages count towards --memory-limit

    def watch(self, answered) -> None:
        """Read the child's answer in a thread and hand it to ``answered(name, answer)``."""
        def read() -> None:
            data = bytearray()
            while chunk := os.read(self.fd, 1 << 20):
                data += chunk
            os.close(self.fd)
            answered(self.name, _unpickle(bytes(data), self.name))

        self.thread = threading.Thread(target=read, name=f"gridlang-race-{self.name}", daemon=True)
        self.thread.start()

    def join(self, parent: Deadline, local: Deadline) -> None:
        """Wait for the answer until :data:`KILL_AFTER` seconds past the deadline or a stop."""
        while self.thread.is_alive():
            self.thread.join(0.05)
            late = local.interrupted or parent.interrupted or (parent.end is not None
                                                               and time.perf_counter() > parent.end)
            if late:
                self.thread.join(KILL_AFTER)
                return

    def terminate(self) -> None:
        """Ask the child to end its search (``SIGTERM``): it answers with its best."""
        from gridlang.core.forked import send_signal  # a race's helpers, not every solve's start-up

        send_signal(self.pid, signal.SIGTERM)

    def kill(self) -> None:
        """Kill the child at once; a daemon thread reaps it."""
        # imported on use, not at start-up
        from gridlang.core.forked import end_child

        end_child(self.pid)


def _threads() -> set[int]:
    """The ids of this process's threads (Linux's ``/proc/self/task``); empty elsewhere."""
    try:
        return {int(t) for t in os.listdir("/proc/self/task")}
    except OSError:
        return set()


def _solver_threads(before: set[int]) -> set[int]:
    """The threads started since ``before`` that Python does not run: a solver's own (clingo's search,
    CP-SAT's workers). A Python thread started meanwhile (a pool's, in a process that runs other work)
    outlives the race, and is left out."""
    return _threads() - before - {t.native_id for t in threading.enumerate()}


def _lower(tid: int) -> None:
    """Add :data:`CHILD_NICE` to thread ``tid``'s niceness, as the race child did to its own."""
    try:
        nice = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, nice + CHILD_NICE))
    except OSError:  # the thread has ended, or the system refuses: it keeps its priority
        pass


def _idle(tid: int) -> None:
    """Run thread ``tid`` only on a core nothing else wants (Linux's ``SCHED_IDLE`` policy)."""
    try:
        os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):  # the thread has ended, or no such policy here: it keeps its priority
        pass


def _child(model: Model, options: SolveOptions, name: str, write_fd: int) -> None:  # pragma: no cover
    """Solve in a race child and write the pickled result (or error) to ``write_fd``; never returns."""
    import pickle  # imported on use: a map solved before the race's fork never pickles

    code = 0
    try:
        parent = options.clock()
        deadline = Deadline(parent.seconds, start=parent.start)
        if parent.interrupted:
            deadline.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda signum, frame: deadline.stop())
        try:
            os.nice(CHILD_NICE)
        except OSError:  # not allowed here: the race still runs, at equal priority
            pass
        pyomo_deps = sys.modules.get("pyomo.common.dependencies")
        if pyomo_deps is not None:  # held by another thread of the parent at the fork, it would never be let go
            pyomo_deps.capture_output_lock = threading.Lock()
        get_backend(name).load_library()
        try:
            result = get_backend(name).session(model, replace(options, deadline=deadline)).solve()
            result.stats["chosen"] = name
            payload = _pickle(result)
        except GridlangError as e:
            payload = pickle.dumps(("error", e.message))
        except Exception as e:  # noqa: BLE001 - reported in the parent, which decides
            payload = pickle.dumps(("error", f"backend {name!r} failed in the race: {type(e).__name__}: {e}"))
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view):]
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


def _pickle(result: Result) -> bytes:
    """``result`` pickled, without the stats that do not pickle."""
    import pickle  # imported on use: a map solved before the race's fork never pickles

    try:
        return pickle.dumps(result)
    except Exception:  # noqa: BLE001 - a solver object left in the stats
        stats = {k: v for k, v in result.stats.items() if isinstance(v, (int, float, str, bool, tuple, list))}
        return pickle.dumps(replace(result, stats=stats))


def _unpickle(data: bytes, name: str) -> Result | GridlangError:
    if not data:
        return BackendError(f"backend {name!r} stopped without an answer in the race")
    import pickle  # imported on use: a map solved before the race's fork never pickles

    answer = pickle.loads(data)
    return BackendError(answer[1]) if isinstance(answer, tuple) else answer


def _best(model: Model, names: Sequence[str], answers: dict, expired: bool) -> tuple[str, Result]:
    """The winner of a race: a proof, else the better answer, else the first result; stats filled in.
    With no result at all: UNKNOWN when the time ran out (``expired``), else the first error."""
    results = {n: r for n, r in answers.items() if isinstance(r, Result)}
    if not results and expired:
        results = {names[0]: Result(Status.UNKNOWN, stats={"reason": "no answer before the time limit"})}
    if not results:
        errors = [answers[n] for n in names if n in answers]
        raise errors[0] if errors else BackendError("backend 'auto': no backend answered in the race")
    maximise = model.objective is not None and model.objective.sense is Sense.MAXIMIZE

    def rank(item):
        name, r = item
        proof = r.status in (Status.OPTIMAL, Status.INFEASIBLE)
        value = r.objective if r.objective is not None else 0
        return (not proof, not r.status.has_solution, -value if maximise else value, names.index(name))

    name, result = min(results.items(), key=rank)
    bounds = [r.bound for r in results.values() if r.bound is not None]
    if result.status is Status.FEASIBLE and bounds:
        result.bound = min(bounds) if maximise else max(bounds)
    result.stats["chosen"] = name
    result.stats["raced"] = ",".join(names)
    return name, result
