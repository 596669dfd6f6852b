"""The cyclic garbage collector while a one-off command loads, and as usual once it builds a model.

Python runs the youngest generation of its cyclic collector every 700 new
container objects (``gc.get_threshold()``: 700, 10, 10), every tenth run
the next generation too, and now and then every object. While a command
loads its modules and reads its spec and map, nearly every object it makes
lives as long as the process (modules, classes, functions, the spec's
records), so those runs traverse them again and again and find next to no
garbage: in a
``gridlang solve --json`` of a daily, 15.9 million of the 357 million
instructions of its main thread, 6.5 million with these thresholds
(callgrind, docs/benchmarks.md). The console script calls
:func:`collect_rarely` first thing, which lets the youngest generation
grow to :data:`LOADING_OBJECTS` first; the model's build calls
:func:`collect_as_usual` (:func:`gridlang.solving.pipeline.load_checked`),
which freezes what was loaded (``gc.freeze``: later runs pass over it,
nearly all of it alive) and puts Python's own thresholds back, so
that the compiler and the solvers run under them, as the memory limit's
figures were measured (the collector paused outright while a model was
built let garbage in cycles pile up past ``--memory-limit``:
docs/benchmarks.md). Raising the threshold alone saves little: the first
run after it traverses all that was loaded once more.
"""

from __future__ import annotations

import gc

LOADING_OBJECTS = 50_000
"""New container objects between two runs of the youngest generation while a command loads (Python's
default is 700). A daily's solve makes fewer before its model is built, so the collector does not run in
that time; garbage in cycles made meanwhile waits at most this many objects (a few MB)."""

_usual: list[tuple[int, int, int]] = []
"""The thresholds :func:`collect_rarely` replaced, until :func:`collect_as_usual` puts them back."""


def collect_rarely() -> None:
    """Run the collector's youngest generation every :data:`LOADING_OBJECTS` new objects, until
    :func:`collect_as_usual`; the older generations keep their thresholds (runs of the one below)."""
    threshold = gc.get_threshold()
    if not _usual:
        _usual.append(threshold)
    gc.set_threshold(LOADING_OBJECTS, *threshold[1:])


def collect_as_usual() -> None:
    """Freeze every object made so far (``gc.freeze``) and put back the thresholds :func:`collect_rarely`
    replaced; nothing when it was not called. Garbage in cycles made while loading stays for the
    process's life: 620 objects (0.2 MB) in a daily's solve whose spec is cached, 10,480 (1.9 MB) when
    Lark parses it."""
    if _usual:
        gc.freeze()
        gc.set_threshold(*_usual.pop())
