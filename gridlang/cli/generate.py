"""``gridlang generate``: puzzles of a spec's genre with a unique answer and no redundant clue.

The method is in :mod:`gridlang.generation`; this module reads the arguments,
makes ``--count`` puzzles from consecutive seeds and prints each (its map
and puzz.link URL, or one JSON line).
"""

from __future__ import annotations

import json
import re
import sys

from .exits import EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_OK

SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def size(text: str) -> tuple[int, int]:
    """``RxC`` (rows by columns, each 1 or more) as ``(rows, cols)``; argparse's type for ``--size``."""
    import argparse

    m = SIZE.match(text)
    if m is None or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: write ROWSxCOLS, each 1 or more (6x6)")
    return int(m.group(1)), int(m.group(2))


def _cmd_generate(args) -> int:
    from pathlib import Path

    from ..api import bundled, load_spec
    from ..deadline import BuildTimeout, Deadline
    from ..generation import GenerateError, generate
    from ..limits import MAX_CELLS
    from .options import _params

    rows, cols = args.size
    if rows * cols > MAX_CELLS:
        raise GenerateError(f"--size {rows}x{cols}: at most {MAX_CELLS} cells")
    spec = load_spec(args.spec) if Path(args.spec).is_file() else bundled(args.spec)
    params = _params(args)
    deadline = Deadline(args.time_limit, start=args.started)
    made = 0
    try:
        for k in range(args.count):
            g = generate(spec, rows, cols, args.seed + k, params, args.backend, args.check_backend, deadline=deadline)
            made += 1
            if args.json:
                print(json.dumps(g.to_json()), flush=True)
            else:
                if k:
                    print()
                what = f"{g.clues} clues, unique" if g.objective is None else f"unique optimum {g.objective}"
                print(f"# seed {g.seed}: {what} (checked by {g.checked_by}), {g.seconds:.2f} s")
                if g.url:
                    print(f"# {g.url}")
                print(g.map, end="", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {made} of {args.count} puzzles", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BuildTimeout:
        print(f"{deadline.cause()} while a {rows}x{cols} puzzle was made, after {made} of {args.count} puzzles",
              file=sys.stderr)
        return EXIT_NO_SOLUTION
    return EXIT_OK
