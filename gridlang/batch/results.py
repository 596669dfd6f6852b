"""A batch's results file: its good lines read back, lines dropped safely, and one writer at a time.

The file holds one JSON object per line (:mod:`gridlang.batch.run`). A batch
reads it before it starts (:func:`completed`), so that a resumed batch
skips the maps it already has, drops a torn last line left by ``kill -9``
and gives again the maps whose worker died (:func:`worker_died`,
:func:`drop`). Both rewrite the file atomically (a temporary file beside
it, then ``os.replace``), so a batch killed midway leaves either the old
file or the new one.

:func:`locked` lets one batch at a time write a results file: two
batches on the same file would solve and write every map twice. The
lock is ``flock`` on ``OUT.lock`` beside it (not on the results file
itself, which the atomic rewrite replaces by another inode); the kernel
lets it go when its holder dies, even by ``kill -9``, and the holder
removes the file as it ends.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Iterable, Iterator

from gridlang.core.errors import GridlangError, MapError, Span

WORKER_FAILED = "error: the worker solving this map failed:"
"""How an ERROR line of earlier versions began when the worker's process had died."""


class ResultsBusy(GridlangError, RuntimeError):
    """Another batch is writing the same results file."""


def completed(out: Path) -> dict[str, dict]:
    """The lines of a results file by map, after dropping broken ones.

    A line that is not a JSON object with a ``map`` key (the torn last line
    of a killed batch) is removed from the file, which is rewritten
    atomically when that happens. A file with no result at all and a line
    that is not even the start of a JSON object is some other file given
    as ``--out`` by mistake (a map): it is refused, not rewritten. A device
    or a pipe (``/dev/null``) is not read.

    Returns:
        ``{map: line}`` for every good line (the last one of a map given twice).

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
    for i, line, record in _results(raw):
        if record is None:
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
        _rewrite(out, kept)
    return good


def worker_died(record: dict) -> bool:
    """True for the line of a map whose worker process died (a resumed batch gives it again)."""
    if record.get("status") != "ERROR":
        return False
    return bool(record.get("worker_died")) or str(record.get("error", "")).startswith(WORKER_FAILED)


def drop(out: Path, maps: Iterable[str]) -> None:
    """Remove the lines of ``maps`` from the results file (atomically), before they are solved again."""
    gone = set(maps)
    if not gone or not out.is_file():
        return
    _rewrite(out, [line for _, line, record in _results(out.read_bytes())
                   if record is None or record["map"] not in gone])


def _results(raw: bytes) -> Iterator[tuple[int, bytes, dict | None]]:
    """Each line that is not blank: its number, its bytes, and its result (a JSON object with a
    ``map`` string), or None when it is not one."""
    for i, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        yield i, line, record if isinstance(record, dict) and isinstance(record.get("map"), str) else None


def _rewrite(out: Path, lines: list[bytes]) -> None:
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(b"".join(line + b"\n" for line in lines))
    os.replace(tmp, out)


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold the results file ``out`` for this batch alone while the block runs.

    Nothing is locked for a device or a pipe (``/dev/null``), nor where
    ``fcntl`` is missing (Windows).

    Raises:
        ResultsBusy: another batch holds it; the message names its pid.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    if out.exists() and not out.is_file():
        yield
        return
    lock = out.with_name(out.name + ".lock")
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f"another batch (pid {holder})" if holder.isdigit() else "another batch"
            raise ResultsBusy(f"{out} is being written by {who}; wait for it to end, or give --out another "
                              "file") from None
        try:  # the lock file the holder removed as it ended is not the one at the path now
            taken = os.fstat(fd)
            now = os.stat(lock)
            if (taken.st_dev, taken.st_ino) == (now.st_dev, now.st_ino):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)
