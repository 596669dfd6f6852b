"""Many maps of one spec: a resumable batch on a process pool or a Dask cluster.

:func:`run_batch` solves every map and appends one JSON line per map to a
results file as soon as it is done: the object ``gridlang solve --json``
prints (:func:`gridlang.service.json_report.report_json`), plus ``map`` (the path as
given), ``host`` and ``pid`` (the worker that solved it), and ``attempts``
when a map was given to a second worker because the first one died. A map
that fails gets ``status: "ERROR"``, its located error in ``error``, its
``spec`` and ``backend``, and the batch goes on; one whose answer fails
verification also gets ``verify_failed: true``; one whose worker died
twice gets ``worker_died`` (``signal``, ``exit_code``, ``out_of_memory``)
and ``attempts``. docs/batch.md lists every field.

Resuming: a map that already has a line in the results file is skipped,
except a map whose line says its worker died, which is given again. Each
line is written with one ``write`` call and flushed, so a ``kill -9``
leaves at most a torn last line, dropped before the batch starts
(:mod:`gridlang.batch.results`, which also keeps a second batch off the same
file).

Rules: a map whose ``variant:`` header (or, without one, the ``variant``
of its record in a ``manifest.json`` beside it) names other rules than the
spec's is not run; the summary counts it under ``other_rules``.

Parameters: ``params`` apply to every map. A ``manifest.json`` beside the
maps (a JSON list of records with a ``file`` key, as in
``tests/data/horse``) gives each map the values of its record's keys that
name a parameter of the spec (``budget``); ``params`` override them.

Engines:

* a local pool of spawned worker processes (:mod:`gridlang.core.workers`;
  ``workers`` processes, default one per core, never more than the maps).
  Each worker parses the spec once and keeps its solver library loaded.
  CP-SAT (``cpsat``, ``auto``) and HiGHS get ``cores // workers``
  threads, by default one each: a batch is judged by its throughput, and
  on the 233 standard maps at rest two processes of one CP-SAT worker
  each took 17.7 s where one process of two CP-SAT workers (a solve's
  default) took 36.7 s (docs/benchmarks.md, "Batches: a process per
  core"). clingo keeps its own choice, less what a backend's
  ``batch_settings`` take back (clingo's split search, which spends a
  second core on one map): its two-thread portfolio on a
  priced objective (costly walls) finished the 39 costlywalls maps in
  106 s on two processes, against 148 s on one thread each. A worker
  that dies (the kernel's out-of-memory killer) costs only its own map,
  which a fresh worker tries once more.
* Dask distributed (``client``): the same tasks through
  ``Client.map``; each Dask worker process keeps its parsed spec too.

Ctrl-C (``SIGINT``) stops the workers at once; the answers finished by
then are written, nothing half-done is, and the summary says
``interrupted``.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import statistics
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from gridlang.batch.results import completed, drop, locked, worker_died
from gridlang.core.errors import BackendError, GridlangError, MapError, Span, VerificationError
from gridlang.core.workers import Died, Done, Interrupt, Raised, core_count, run_pool
from gridlang.formats.maps import rules_of, spec_for, stated_variant

__all__ = ["BatchSummary", "Task", "completed", "connect", "expand", "manifest_params", "run_batch", "solve_task",
           "summarize"]

MAP_SUFFIXES = (".txt", ".json")
"""Files taken from a directory given as a map (``manifest.json`` excepted)."""


@dataclass
class Task:
    """One map to solve: everything a worker needs, picklable."""

    spec: str
    map: str
    backend: str
    params: dict[str, str]
    time_limit: float | None
    unique: bool
    settings: dict[str, object]
    threads: int | None


@dataclass
class BatchSummary:
    """The end of a batch.

    Attributes:
        total: maps in the batch.
        skipped: maps that already had a line (a resumed batch).
        statuses: status -> number of maps (this run and earlier ones).
        verify_failed: maps whose answer failed verification.
        seconds: ``median``, ``p90`` and ``max`` of ``seconds.total`` over
            the maps with a verified answer.
        interrupted: Ctrl-C stopped the batch.
        unsolved: maps of the batch left without a line by the Ctrl-C (a
            rerun solves them); ``total`` counts them.
        other_rules: maps not run because they are for other rules than
            the spec's: rules -> maps.
        specs: rules -> the spec for them that was found beside this one
            (or bundled), or None.
    """

    total: int
    skipped: int
    statuses: dict[str, int] = field(default_factory=dict)
    verify_failed: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False
    unsolved: int = 0
    other_rules: dict[str, list[str]] = field(default_factory=dict)
    specs: dict[str, str | None] = field(default_factory=dict)

    def text(self) -> str:
        """The summary as the command line prints it."""
        counts = ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items()))
        if self.unsolved:
            counts = ", ".join(filter(None, [counts, f"{self.unsolved} not solved (stopped)"]))
        lines = [f"{self.total} maps ({self.skipped} done before): {counts}"]
        if self.verify_failed:
            lines.append(f"verification failed on {self.verify_failed} maps")
        if self.seconds:
            s = self.seconds
            lines.append(f"seconds per map: median {s['median']:.3f}, p90 {s['p90']:.3f}, max {s['max']:.3f}")
        return "\n".join(lines)

    def other_rules_text(self) -> str | None:
        """One line on the maps not run for their rules, or None when every map was run."""
        if not self.other_rules:
            return None
        n = sum(len(m) for m in self.other_rules.values())
        parts = []
        for rules, maps in sorted(self.other_rules.items()):
            spec = self.specs.get(rules)
            parts.append(f"{len(maps)} {rules} ({spec})" if spec else f"{len(maps)} {rules} (no spec found)")
        return (f"skipped {n} map{'s' if n > 1 else ''} written for other rules than the spec's: "
                f"{', '.join(parts)}; run each with its spec")


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Map files: each file as given, each directory's map files sorted by name.

    Raises:
        MapError: a path that does not exist, or that is neither a file nor
            a directory (a named pipe, a device): the batch reads a map's
            header before it solves the map, and a pipe's reader waits for
            a writer, so one such name held up every map (a directory's
            are left out, as any file that is not a map is).
    """
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.iterdir())
                       if f.suffix in MAP_SUFFIXES and f.name != "manifest.json" and f.is_file())
        elif path.is_file():
            out.append(str(path))
        elif path.exists():
            raise MapError("not a regular file (a named pipe or a device): a batch reads its maps from files",
                           Span(str(p), 1, 1))
        else:
            raise MapError("no such map file or directory", Span(str(p), 1, 1))
    return list(dict.fromkeys(out))


def manifest_params(map_path: str, names: Iterable[str]) -> dict[str, str]:
    """The parameter values a ``manifest.json`` beside ``map_path`` gives it (see the module docstring)."""
    wanted = set(names)
    return {k: _text(v) for k, v in _record(map_path).items() if k in wanted and v is not None}


def manifest_variant(map_path: str) -> str | None:
    """The ``variant`` a ``manifest.json`` beside ``map_path`` gives it, or None."""
    variant = _record(map_path).get("variant")
    return variant if isinstance(variant, str) else None


def _record(map_path: str) -> dict:
    """The record of ``map_path`` in the ``manifest.json`` beside it (empty without one)."""
    manifest = Path(map_path).parent / "manifest.json"
    return (_manifest(str(manifest)) if manifest.is_file() else {}).get(Path(map_path).name, {})


_MANIFESTS: dict[str, dict[str, dict]] = {}


def _manifest(path: str) -> dict[str, dict]:
    if path not in _MANIFESTS:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise MapError(f"cannot read the manifest: {e}", Span(path, 1, 1)) from e
        if not isinstance(data, list):
            raise MapError("a manifest is a JSON list of records with a 'file' key", Span(path, 1, 1))
        _MANIFESTS[path] = {r["file"]: r for r in data if isinstance(r, dict) and isinstance(r.get("file"), str)}
    return _MANIFESTS[path]


def _text(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def run_batch(spec: str | Path, maps: Sequence[str | Path], out: str | Path, backend: str = "auto",
              workers: int | None = None, time_limit: float | None = None, unique: bool = False,
              params: Mapping[str, object] | None = None, settings: Mapping[str, object] | None = None,
              client: Any = None, progress: bool | None = None) -> BatchSummary:
    """Solve every map of ``maps`` with ``spec`` and append the results to ``out``.

    Args:
        spec: the ``.grid`` spec.
        maps: map files and directories (see :func:`expand`).
        out: the JSON-lines results file (created, or resumed).
        backend: ``auto`` (the default), ``cpsat``, ``milp``, ``maxsat`` or ``asp``.
        workers: local worker processes (default: see the module docstring).
        time_limit: seconds per map.
        unique: prove each answer unique.
        params: parameter values for every map.
        settings: backend settings (``{"maxsat.algorithm": "rc2"}``).
        client: a ``distributed.Client``: run on that Dask cluster instead.
        progress: show a progress bar (default: when stderr is a terminal).

    Returns:
        The summary over the lines of ``out`` for the maps run (not those
        for other rules); ``interrupted`` after a Ctrl-C.

    Raises:
        GridlangError: the spec is wrong, a map path does not exist, ``out``
            is an input of the batch or not a results file, or another
            batch is writing it (all before any solving starts).
    """
    # imported on use, not at start-up
    from gridlang.ir.backend import get_backend
    from gridlang.solving.spec import load_spec

    parsed = load_spec(spec)  # a bad spec stops the batch before it starts
    engine = get_backend(backend)
    shares_cores = engine.shares_cores
    settings = {**{f"{backend}.{k}": v for k, v in engine.batch_settings.items()}, **(settings or {})}
    files = expand(maps)
    out = Path(out)
    _refuse_inputs(out, spec, files)
    files, other = _by_rules(parsed.ast, files)
    out.parent.mkdir(parents=True, exist_ok=True)
    stop = Interrupt()
    with locked(out), stop.catching():
        done = completed(out)
        again = [m for m in files if m in done and worker_died(done[m])]
        drop(out, again)
        for m in again:
            del done[m]
        todo = [m for m in files if m not in done]
        cores = core_count()
        workers = max(1, min(cores if workers is None else workers, len(todo) or 1))
        threads = max(1, cores // workers) if shares_cores else None
        tasks = [Task(str(spec), m, backend,
                      {**manifest_params(m, parsed.symbols.params), **{k: _text(v) for k, v in (params or {}).items()}},
                      time_limit, unique, dict(settings or {}), threads) for m in todo]
        show = sys.stderr.isatty() if progress is None else progress
        with out.open("a", encoding="utf-8") as sink:
            results = _run_dask(client, tasks, stop) if client is not None else _run_local(tasks, workers, stop)
            bar = _progress(len(tasks), show)
            with contextlib.closing(results):  # a line that cannot be written (a full disk) stops the workers
                for record in results:
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                    done[record["map"]] = record
                    bar.update(1)
            bar.close()
    summary = summarize([done[m] for m in files if m in done], skipped=len(files) - len(todo))
    summary.interrupted = stop.set
    summary.unsolved = len(files) - summary.total
    summary.total = len(files)
    summary.other_rules = other
    summary.specs = {rules: spec_for(parsed.ast, rules) for rules in other}
    return summary


def _refuse_inputs(out: Path, spec: str | Path, files: Sequence[str]) -> None:
    """Refuse a results file that is an input of the batch: the spec, a map, a manifest beside a map.

    Raises:
        MapError: ``out`` is one of them.
    """
    if not out.exists():
        return
    inputs = [("the spec", Path(spec))] + [("a map", Path(m)) for m in files]
    inputs += [("the manifest of the maps", d / "manifest.json") for d in {Path(m).parent for m in files}]
    for what, path in inputs:
        try:
            same = path.exists() and os.path.samefile(out, path)
        except OSError:
            same = False
        if same:
            raise MapError(f"--out {out} is {what} of this batch: writing it would destroy an input of "
                           "'gridlang batch'; give another file (a new one, or one an earlier batch wrote)")


def _by_rules(spec: Any, files: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The maps for the spec's rules, and the others by the rules they are for.

    A map's rules are its ``variant:`` header, else its manifest record's
    ``variant``; a map that says neither is run.
    """
    rules = rules_of(spec)
    puzzle = spec.puzzle.name if spec.puzzle is not None else None
    run: list[str] = []
    other: dict[str, list[str]] = {}
    for m in files:
        stated = stated_variant(m, puzzle) or manifest_variant(m)
        if stated is None or stated == rules:
            run.append(m)
        else:
            other.setdefault(stated, []).append(m)
    return run, other


def summarize(records: Sequence[Mapping[str, Any]], skipped: int = 0) -> BatchSummary:
    """Counts by status, verification failures, and seconds of the verified maps."""
    summary = BatchSummary(total=len(records), skipped=skipped)
    times = []
    for r in records:
        status = str(r.get("status"))
        summary.statuses[status] = summary.statuses.get(status, 0) + 1
        summary.verify_failed += bool(r.get("verify_failed"))
        if r.get("verified") and isinstance(r.get("seconds"), dict):
            times.append(float(r["seconds"].get("total", 0.0)))
    if times:
        times.sort()
        summary.seconds = {"median": statistics.median(times),
                           "p90": times[min(len(times) - 1, int(0.9 * len(times)))], "max": times[-1]}
    return summary


def solve_task(task: Task) -> dict[str, Any]:
    """Solve one map in a worker; never raises for a bad map (the error goes in the line)."""
    # imported on use, not at start-up
    from gridlang.service.calls import report_json, solve

    base = {"map": task.map, "host": socket.gethostname(), "pid": os.getpid()}
    try:
        result = solve(_spec(task.spec), task.map, backend=task.backend, time_limit=task.time_limit,
                       params=task.params, unique=task.unique, settings=task.settings, workers=task.threads)
        return {**report_json(result.report, task.spec, task.map), **base}
    except VerificationError as e:
        return _error(task, e.render(), os.getpid(), verify_failed=True)
    except GridlangError as e:
        return _error(task, e.render(), os.getpid())


def _error(task: Task, message: str, pid: int | None, **extra: Any) -> dict[str, Any]:
    """An ERROR line: the map, the spec and backend it was given to, the worker, the message."""
    record = {"map": task.map, "spec": task.spec, "backend": task.backend, "host": socket.gethostname(), "pid": pid,
              "status": "ERROR", "verified": False}
    if extra.get("verify_failed"):
        record["verify_failed"] = True
    record["error"] = message
    record.update({k: v for k, v in extra.items() if k != "verify_failed"})
    return record


_SPECS: dict[str, Any] = {}


def _spec(path: str):
    """The worker's parsed spec, read once per process."""
    # imported on use, not at start-up
    from gridlang.solving.spec import load_spec

    if path not in _SPECS:
        _SPECS[path] = load_spec(path)
    return _SPECS[path]


def _warm(spec: str, backend: str) -> None:
    """Pool initializer: parse the spec and import the solver once per worker."""
    # imported on use, not at start-up
    from gridlang.ir.backend import get_backend

    _spec(spec)
    get_backend(backend).load_library()


def _run_local(tasks: list[Task], workers: int, stop: Interrupt) -> Iterator[dict[str, Any]]:
    """The lines of ``tasks`` from a pool of warm worker processes, as they finish (see :mod:`gridlang.core.workers`)."""
    if not tasks:
        return
    for outcome in run_pool(tasks, workers, solve_task, _warm, (tasks[0].spec, tasks[0].backend), stop):
        if isinstance(outcome, Done):
            record = outcome.value
            if outcome.attempts > 1:
                record["attempts"] = outcome.attempts
            yield record
        elif isinstance(outcome, Raised):
            yield _error(outcome.task, f"error: the solve failed in the worker: {outcome.error}", outcome.pid,
                         **({"attempts": outcome.attempts} if outcome.attempts > 1 else {}))
        elif isinstance(outcome, Died):
            last = outcome.deaths[-1]
            what = f"the worker solving this map {outcome.deaths[0].text()}"
            if len(outcome.deaths) > 1:
                again = last.text()
                what += (", and so was the fresh worker that tried it again" if again == outcome.deaths[0].text()
                         and again.startswith("was ") else f", and the fresh worker that tried it again {again}")
            yield _error(outcome.task, f"error: {what}", last.pid, attempts=len(outcome.deaths),
                         worker_died={"signal": last.signal, "exit_code": last.exit_code,
                                      "out_of_memory": last.out_of_memory})


def _run_dask(client: Any, tasks: list[Task], stop: Interrupt) -> Iterator[dict[str, Any]]:
    """The lines of ``tasks`` from a Dask cluster, as they finish; at a Ctrl-C the rest is cancelled."""
    if not tasks:
        return
    from distributed import as_completed

    futures = client.map(solve_task, tasks, pure=False)
    task_of = {f.key: t for f, t in zip(futures, tasks)}
    pending = as_completed(futures)
    try:
        while not pending.is_empty() and not stop.set:
            ready = pending.next_batch(block=False)
            if not ready:
                stop.sleep(0.1)
            for future in ready:
                yield _dask_line(future, task_of[future.key])
        if stop.set:  # the answers finished by the Ctrl-C
            for future in pending.next_batch(block=False):
                if future.status == "finished":
                    yield future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])


def _dask_line(future: Any, task: Task) -> dict[str, Any]:
    """A finished Dask future's line; a task whose workers died (``KilledWorker``) gets an ERROR line."""
    if future.status == "finished":
        return future.result()
    error = future.exception() if future.status == "error" else None
    if type(error).__name__ == "KilledWorker":
        return _error(task, f"error: the Dask workers given this map died ({error})", None,
                      worker_died={"signal": None, "exit_code": None, "out_of_memory": False})
    return _error(task, f"error: the solve failed on the Dask cluster: {type(error).__name__}: {error}"
                  if error is not None else f"error: the Dask task ended as {future.status}", None)


def connect(address: str, timeout: float = 5.0) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at ``address`` (``tcp://HOST:PORT``, or ``HOST:PORT``).

    The address is checked before any connection, and the scheduler's
    port is tried with a plain TCP connection first, so that a wrong
    address or a closed port is reported at once rather than after
    Dask's own retries.

    Args:
        address: the scheduler's address, as ``dask scheduler`` prints it.
        timeout: seconds for the TCP connection; Dask's handshake gets twice as long.

    Raises:
        BackendError: the address does not parse, names another protocol,
            has no port or one out of range, or no scheduler answers there;
            one line that names the address.
    """
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if not rest:
        raise BackendError(f"--scheduler {address}: the address names no host and no port (tcp://HOST:PORT)")
    if scheme != "tcp":
        raise BackendError(f"--scheduler {address}: the command line reaches a Dask scheduler over tcp:// only "
                           f"(tcp://HOST:8786), not {scheme}://; for another protocol give run_batch a "
                           "distributed.Client")
    host, colon, port_text = rest.rpartition(":")
    if not colon or not port_text:
        raise BackendError(f"--scheduler {address}: the address names no port (tcp://HOST:PORT; a scheduler "
                           "listens on 8786 unless told otherwise)")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]  # an IPv6 address, [::1]
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise BackendError(f"--scheduler {address}: the port {port_text!r} is not a number from 1 to 65535")
    if not host or any(ch in host for ch in "/[]@?#") or (":" in host and not rest.startswith("[")):
        raise BackendError(f"--scheduler {address}: not an address of the form tcp://HOST:PORT")
    port = int(port_text)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        why = "it took too long" if isinstance(e, TimeoutError) else (e.strerror or str(e)).lower()
        raise BackendError(f"--scheduler {address}: cannot reach a Dask scheduler there: {why}") from None
    from distributed import Client

    # Dask's own timeout does not cover a peer that accepts and then says nothing (it waited for minutes):
    # the client is made in a thread that is left behind if it has not answered in time.
    made: dict[str, Any] = {}

    def make() -> None:
        try:
            made["client"] = Client(f"tcp://{rest}", timeout=timeout)
        except Exception as e:  # noqa: BLE001 - reported below, in one line
            made["error"] = e

    thread = threading.Thread(target=make, name="gridlang-dask-connect", daemon=True)
    thread.start()
    thread.join(2 * timeout)
    if thread.is_alive():
        raise BackendError(f"--scheduler {address}: something listens there, but no Dask scheduler answered within "
                           f"{2 * timeout:g} s")
    if "error" in made:
        raise BackendError(f"--scheduler {address}: no Dask scheduler answered there ({made['error']})")
    return made["client"]


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, show: bool):
    """A tqdm bar on stderr, or nothing when output is not a terminal."""
    if not show or total == 0:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="map", file=sys.stderr)
