"""``gridlang generate``: puzzles of a spec's genre with a unique answer and no redundant clue.

The method is in :mod:`gridlang.why.generation`; this module reads the arguments,
makes ``--count`` puzzles from consecutive seeds and prints each (its map
and puzz.link URL, or one JSON line). One puzzle is made in this process;
several on the batch's pool of worker processes (:mod:`gridlang.core.workers`;
``--workers``, default one per core), each printed as it is finished, so
that the seeds may come out of order. Ctrl-C stops the workers at once;
the puzzles printed by then are whole.
"""

from __future__ import annotations

import json
import sys

from gridlang.cli.options import _params
from gridlang.core.errors import GridlangError
from gridlang.core.limits import MAX_CELLS
from gridlang.service.exits import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
)


def size(text: str) -> tuple[int, int]:
    """``RxC`` (rows by columns, each 1 or more) as ``(rows, cols)``; argparse's type for ``--size``."""
    import argparse

    # imported on use, not at start-up
    from gridlang.core.grid import parse_size

    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _cmd_generate(args) -> int:
    from pathlib import Path

    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout, Deadline
    from gridlang.solving.spec import bundled, load_spec
    from gridlang.why.generation import GenerateError, GenerateTimeUp, generate, generate_at

    rows, cols = args.size
    if rows * cols > MAX_CELLS:
        raise GenerateError(f"--size {rows}x{cols}: at most {MAX_CELLS} cells")
    spec = load_spec(args.spec) if Path(args.spec).is_file() else bundled(args.spec)
    params = _params(args)
    deadline = Deadline(args.time_limit, start=args.started)
    from gridlang.core.workers import (  # the pool module (threading, select, dataclasses) only when generating
        core_count,
    )

    workers = args.workers if args.workers is not None else min(args.count, core_count())
    if args.count > 1 and workers > 1 and args.difficulty is None:
        return _on_pool(args, str(spec.path), params, deadline, workers)
    made = 0
    progress = None if args.quiet else _progress
    seed = args.seed
    try:
        for k in range(args.count):
            if args.difficulty is None:
                g = generate(spec, rows, cols, args.seed + k, params, args.backend, args.check_backend,
                             deadline=deadline, symmetry=args.symmetry, progress=progress)
            else:  # one seed after another until a puzzle is graded at the level, then on from the next
                g, seed = generate_at(generate, spec, args.difficulty, seed, deadline, args.backend, progress,
                                      rows=rows, cols=cols, params=params, check_backend=args.check_backend,
                                      symmetry=args.symmetry)
            made += 1
            _print(g, args.json, first=k == 0)
    except KeyboardInterrupt:
        return _stopped(args, made, interrupted=True)
    except BuildTimeout:
        return _stopped(args, made, cause=deadline.cause())
    except GenerateTimeUp as e:
        _print_best(e, args, made)
        return _stopped(args, made, cause=deadline.cause())
    return EXIT_OK


def _progress(line: str) -> None:
    """One line of progress on stderr."""
    print(line, file=sys.stderr, flush=True)




def _print_best(e, args, made: int) -> None:
    """The best map made when the time ran out, with a sentence saying what is not proved of it:
    on stdout, after the puzzles made (as ``# `` comment lines and the map, or a JSON line with
    ``"proved": false``)."""
    # imported on use, not at start-up
    from gridlang.why.generation import UNPROVED

    if e.best is None:
        return
    note = e.note or UNPROVED[e.proved]
    # the closest puzzle graded, else the map of the seed under way (seeds tried at a level before it)
    seed = e.closest.seed if e.closest is not None else args.seed + made + e.tried
    if args.json:
        print(json.dumps({"map": e.best, "seed": seed, "complete": False, "missing": e.proved,
                          "note": note}), flush=True)
        return
    if made:
        print()
    print(f"# seed {seed}: the best map when the time ran out: {note}")
    print(e.best, end="", flush=True)


def _stopped(args, made: int, interrupted: bool = False, cause: str = "the time limit ran out") -> int:
    """Say why the puzzles stopped short, in process or on the pool, and return the exit status:
    130 after Ctrl-C, 3 when the time ran out first."""
    if interrupted:
        print(f"interrupted after {made} of {args.count} puzzles", file=sys.stderr)
        return EXIT_INTERRUPTED
    rows, cols = args.size
    print(f"{cause} while a {rows}x{cols} puzzle was made, after {made} of {args.count} puzzles", file=sys.stderr)
    return EXIT_NO_SOLUTION


def _print(g, as_json: bool, first: bool) -> None:
    """One puzzle: a JSON line, or its header lines and map (after a blank line but the first)."""
    if as_json:
        print(json.dumps(g.to_json()), flush=True)
        return
    if not first:
        print()
    what = f"{g.clues} clues, unique" if g.objective is None else f"unique optimum {g.objective}"
    if g.level is not None:
        what += f", graded {g.level} (difficulty {g.difficulty:g})"
    print(f"# seed {g.seed}: {what} (checked by {g.checked_by}), {g.seconds:.2f} s")
    if g.url:
        print(f"# {g.url}")
    print(g.map, end="", flush=True)


def generate_task(task: tuple) -> tuple[str, object]:
    """One puzzle in a pool worker: ``("done", Generated)``, ``("timeout", None)`` when the command's
    time ran out first, or ``("error", sentence)`` (a spec the generator refuses).

    ``task`` is ``(spec path, rows, cols, seed, params, backend, check backend, end, symmetry)``,
    ``end`` the ``time.time()`` by which the command must end, or None.
    """
    import time

    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout
    from gridlang.solving.spec import load_spec
    from gridlang.why.generation import GenerateTimeUp, generate

    path, rows, cols, seed, params, backend, check_backend, end, symmetry = task
    left = None if end is None else end - time.time()
    if left is not None and left <= 0:
        return "timeout", None
    try:
        return "done", generate(load_spec(path), rows, cols, seed, params, backend, check_backend, time_limit=left,
                                symmetry=symmetry)
    except (BuildTimeout, GenerateTimeUp):
        return "timeout", None
    except GridlangError as e:
        if left is not None and end - time.time() <= 0:
            return "timeout", None  # the generator's own sentence for a time limit that ran out
        return "error", e.message


def _on_pool(args, path: str, params, deadline, workers: int) -> int:
    """``--count`` puzzles on ``workers`` pool processes, printed as they finish (see the module docstring)."""
    import contextlib
    import time

    # imported on use, not at start-up
    from gridlang.core.workers import Died, Done, Interrupt, Raised, run_pool
    from gridlang.why.generation import GenerateError

    rows, cols = args.size
    end = None if args.time_limit is None else time.time() + deadline.remaining()
    tasks = [(path, rows, cols, args.seed + k, params, args.backend, args.check_backend, end, args.symmetry)
             for k in range(args.count)]
    stop = Interrupt()
    made = timeouts = 0
    # Leaving the block (the end, an error, Ctrl-C) closes the pool: its workers are ended at once.
    with stop.catching(), contextlib.closing(run_pool(tasks, workers, generate_task, stop=stop)) as outcomes:
        for outcome in outcomes:
            if isinstance(outcome, Done):
                kind, value = outcome.value
                if kind == "done":
                    _print(value, args.json, first=made == 0)
                    made += 1
                elif kind == "timeout":
                    timeouts += 1
                else:
                    raise GenerateError(value)
            elif isinstance(outcome, Raised):
                raise GenerateError(f"a puzzle failed in the worker: {outcome.error}")
            elif isinstance(outcome, Died):
                print(f"error: the worker making seed {outcome.task[3]} {outcome.deaths[-1].text()}", file=sys.stderr)
    if stop.set or timeouts:
        return _stopped(args, made, interrupted=stop.set)
    if made < args.count:  # a worker died twice on a seed (said above)
        print(f"{made} of {args.count} puzzles made", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK
