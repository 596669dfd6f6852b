"""Many maps of one spec: a resumable batch on a process pool or a Dask cluster.

:func:`run_batch` solves every map and appends one JSON line per map to a
results file as soon as it is done: the object ``gridlang solve --json``
prints (:func:`gridlang.api.report_json`), plus ``map`` (the path as
given), ``host`` and ``pid`` (the worker that solved it). A map that fails
gets ``status: "ERROR"``, its located error in ``error``, and the batch goes
on; one whose answer fails verification also gets ``verify_failed: true``.

Resuming: a map that already has a line in the results file is skipped.
Each line is written with one ``write`` call and flushed, so a ``kill -9``
leaves at most a torn last line; :func:`completed` drops such a line (and
any other line that is not a JSON object with a ``map``) before the batch
starts, so that map is solved again.

Parameters: ``params`` apply to every map. A ``manifest.json`` beside the
maps (a JSON list of records with a ``file`` key, as in
``tests/data/horse``) gives each map the values of its record's keys that
name a parameter of the spec (``budget``); ``params`` override them.

Engines:

* a local process pool (``workers`` processes, default: one per core for
  the MILP and MaxSAT, one for CP-SAT, whose two workers take both cores,
  and one for ``auto``, which runs CP-SAT with an objective, or a race of
  two backends on both cores). Each worker parses the spec once and
  keeps its solver library loaded; MILP workers get ``cores // workers``
  HiGHS threads.
* Dask distributed (``client``): the same tasks through
  ``Client.map``; each Dask worker process keeps its parsed spec too.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .errors import GridlangError, MapError, Span, VerificationError

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
    """

    total: int
    skipped: int
    statuses: dict[str, int] = field(default_factory=dict)
    verify_failed: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def text(self) -> str:
        """The summary as the command line prints it."""
        counts = ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items()))
        lines = [f"{self.total} maps ({self.skipped} done before): {counts}"]
        if self.verify_failed:
            lines.append(f"verification failed on {self.verify_failed} maps")
        if self.seconds:
            s = self.seconds
            lines.append(f"seconds per map: median {s['median']:.3f}, p90 {s['p90']:.3f}, max {s['max']:.3f}")
        return "\n".join(lines)


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Map files: each file as given, each directory's map files sorted by name.

    Raises:
        MapError: a path that does not exist.
    """
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.iterdir())
                       if f.suffix in MAP_SUFFIXES and f.name != "manifest.json" and f.is_file())
        elif path.exists():
            out.append(str(path))
        else:
            raise MapError("no such map file or directory", Span(str(p), 1, 1))
    return list(dict.fromkeys(out))


def manifest_params(map_path: str, names: Iterable[str]) -> dict[str, str]:
    """The parameter values a ``manifest.json`` beside ``map_path`` gives it (see the module docstring)."""
    manifest = Path(map_path).parent / "manifest.json"
    records = _manifest(str(manifest)) if manifest.is_file() else {}
    record = records.get(Path(map_path).name, {})
    wanted = set(names)
    return {k: _text(v) for k, v in record.items() if k in wanted and v is not None}


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


def completed(out: Path) -> dict[str, dict]:
    """The lines of a results file by map, after dropping broken ones.

    A line that is not a JSON object with a ``map`` key (the torn last line
    of a killed batch) is removed from the file, which is rewritten
    atomically when that happens. A file with no result at all and a line
    that is not even the start of a JSON object is some other file given
    as ``--out`` by mistake (a map): it is refused, not rewritten. A device
    or a pipe (``/dev/null``) is not read.

    Returns:
        ``{map: line}`` for every good line.

    Raises:
        MapError: the file holds no result, located at its first foreign line.
    """
    if not out.is_file():
        return {}
    raw = out.read_bytes()
    good: dict[str, dict] = {}
    kept: list[bytes] = []
    broken = False
    foreign = 0
    for i, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("map"), str):
            broken = True
            if not foreign and not line.lstrip().startswith(b"{"):
                foreign = i
            continue
        good[record["map"]] = record
        kept.append(line)
    if foreign and not good:
        raise MapError(f"{out} is not a results file: line {foreign} is not a gridlang result (a JSON object with "
                       "a 'map' key); give --out a new file or one an earlier batch wrote", Span(str(out), foreign, 1))
    if broken or (raw and not raw.endswith(b"\n")):
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_bytes(b"".join(line + b"\n" for line in kept))
        os.replace(tmp, out)
    return good


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
        The summary over every line of ``out``.

    Raises:
        GridlangError: the spec is wrong or a map path does not exist (before
            any solving starts).
    """
    from .api import load_spec
    from .backend import get_backend

    parsed = load_spec(spec)  # a bad spec stops the batch before it starts
    get_backend(backend)
    files = expand(maps)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = completed(out)
    todo = [m for m in files if m not in done]
    cores = os.cpu_count() or 1
    if workers is None:
        workers = 1 if backend in ("cpsat", "auto") else cores  # CP-SAT's two workers, an auto race: both cores
    workers = max(1, min(workers, len(todo) or 1))
    threads = max(1, cores // workers) if backend == "milp" else None
    tasks = [Task(str(spec), m, backend,
                  {**manifest_params(m, parsed.symbols.params), **{k: _text(v) for k, v in (params or {}).items()}},
                  time_limit, unique, dict(settings or {}), threads) for m in todo]
    show = sys.stderr.isatty() if progress is None else progress
    with out.open("a", encoding="utf-8") as sink:
        results = _run_dask(client, tasks) if client is not None else _run_local(tasks, workers)
        bar = _progress(len(tasks), show)
        for record in results:
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            done[record["map"]] = record
            bar.update(1)
        bar.close()
    return summarize([done[m] for m in files if m in done], skipped=len(files) - len(todo))


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
    from .api import report_json, solve

    base = {"map": task.map, "host": socket.gethostname(), "pid": os.getpid()}
    try:
        result = solve(_spec(task.spec), task.map, backend=task.backend, time_limit=task.time_limit,
                       params=task.params, unique=task.unique, settings=task.settings, workers=task.threads)
        return {**report_json(result.report, task.spec, task.map), **base}
    except VerificationError as e:
        return {**base, "status": "ERROR", "verified": False, "verify_failed": True, "error": e.render()}
    except GridlangError as e:
        return {**base, "status": "ERROR", "verified": False, "error": e.render()}


_SPECS: dict[str, Any] = {}


def _spec(path: str):
    """The worker's parsed spec, read once per process."""
    from .api import load_spec

    if path not in _SPECS:
        _SPECS[path] = load_spec(path)
    return _SPECS[path]


def _warm(spec: str, backend: str) -> None:
    """Pool initializer: parse the spec and import the solver once per worker."""
    from .backend import get_backend

    _spec(spec)
    get_backend(backend).load_library()


def _run_local(tasks: list[Task], workers: int) -> Iterator[dict[str, Any]]:
    """Results of ``tasks`` from a pool of warm worker processes, as they finish."""
    if not tasks:
        return iter(())
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    def results() -> Iterator[dict[str, Any]]:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_warm,
                                 initargs=(tasks[0].spec, tasks[0].backend)) as pool:
            futures = {pool.submit(solve_task, t): t for t in tasks}
            for future in as_completed(futures):
                try:
                    yield future.result()
                except Exception as e:  # a worker that died (out of memory, a solver crash)
                    t = futures[future]
                    yield {"map": t.map, "host": socket.gethostname(), "status": "ERROR", "verified": False,
                           "error": f"error: the worker solving this map failed: {e!r}"}

    return results()


def _run_dask(client: Any, tasks: list[Task]) -> Iterator[dict[str, Any]]:
    """Results of ``tasks`` from a Dask cluster, as they finish."""
    if not tasks:
        return iter(())
    from distributed import as_completed

    futures = client.map(solve_task, tasks, pure=False)
    return (f.result() for f in as_completed(futures))


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
