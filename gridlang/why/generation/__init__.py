"""Puzzles made from a spec: a unique answer, and no clue that could go.

``gridlang generate SPEC --size RxC`` makes a map of the spec's genre whose
answer is unique and none of whose clues is redundant (with any one clue
taken away, the map has several answers or none). It works for any spec
whose clues are tiles: a tile other than the blank one, with or without a
number (Nurikabe's numbers, Sudoku's givens, Masyu's pearls, Slitherlink's
numbers). The method is the classic one for Sudoku, *answer first, then
dig* (as in cspuz's generator and most Sudoku makers), made generic by the
spec's own interpreter:

1. **An answer.** The blank map (every cell the blank tile) is compiled;
   where it has no answer because the rules read the clues (Nurikabe: the
   unshaded cells must total the clues' values), the rule statements that
   name a clue tile are left out (:func:`gridlang.compiler.compile_tagged`
   tags every constraint with its statement). A random answer ``A`` of
   that model comes from CP-SAT with a few random cells fixed (fewer when
   that has no answer).
2. **Every clue the answer allows.** The cells are visited in a random
   order; at each, the clue tiles and their values are tried in a random
   order, and the first one kept under which the spec's interpreter
   (:mod:`gridlang.interpreter`, the verifier) finds no statement of ``A``
   broken more often than before. So ``A`` stays an answer of the full map
   as far as the clues written so far allow (Nurikabe: one clue per
   island, its size), and of the map once every cell is visited.
3. **Unique?** The full map is solved for two answers. Several: another
   answer ``A`` is drawn (step 1) and the map made again.
4. **Dig.** The clues are taken away one at a time in a random order; a
   removal that leaves the answer unique is kept. Where a clue is exactly
   its rule instances, on the incremental oracle (:meth:`_Maker.dig_by_oracle`,
   one pass); else by full solves, every clue left tried again until none
   can go, since a rule about clues is then not monotone (taking a Nurikabe
   clue away can make a map that had one answer have none, and a later
   removal change that).
5. **Checked by a second backend** (``maxsat`` by default, ``cpsat`` when
   the first is ``maxsat``): the map's answer is unique, and with each clue
   taken away it is not.

**Rooms as the clue.** A spec with no clue tile whose rules read the map's
rooms (Star Battle) gets rooms instead: the answer ``A`` comes from the
rules that read no room, on a map of one room; then, from one room per
cell, side-neighbouring rooms are joined (in a random order, pass after
pass) whenever the interpreter finds no statement of ``A`` broken more
often after (Star Battle: two rooms that both hold a star are never
joined, so each room ends with its star). A layout that is not unique is
drawn again. A room layout has no clue to take away: such a puzzle is
unique, checked by the second backend, and its rooms are as the joining
left them.

Cost: step 2 is one interpreter run per candidate (milliseconds); step 4
one uniqueness proof (two solves) per clue of the full map, and step 5 one
per clue left. The figures are in docs/why.md.

Number tiles take values from 0 up to :data:`MAX_VALUE` (one character in
the map), and at most the number of cells.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

from gridlang.core.deadline import Deadline
from gridlang.language import ast
from gridlang.why.generation.dig import dig, dig_by_oracle
from gridlang.why.generation.maker import Maker, reads_rooms
from gridlang.why.generation.maps import MAX_VALUE, clue_tiles, map_text, room_count, room_layer
from gridlang.why.generation.records import Generated, GenerateError, GenerateTimeUp
from gridlang.why.generation.terrain import terrain

__all__ = [
    "MAX_VALUE",
    "GenerateError",
    "GenerateTimeUp",
    "Generated",
    "clue_tiles",
    "generate",
    "map_text",
    "other_backend",
    "reads_rooms",
    "room_layer",
]


def other_backend(backend: str) -> str:
    """The backend that checks what ``backend`` made: ``maxsat``, or ``cpsat`` when that is the first."""
    return "cpsat" if backend == "maxsat" else "maxsat"


def generate(spec, rows: int, cols: int, seed: int = 0, params: Mapping[str, object] | None = None,
             backend: str = "cpsat", check_backend: str | None = None, time_limit: float | None = None,
             deadline: Deadline | None = None) -> Generated:
    """Make one puzzle of ``spec``'s genre: a unique answer, no redundant clue.

    Args:
        spec: a :class:`gridlang.solving.spec.Spec`, a spec's path, or a bundled
            spec's name.
        rows, cols: the map's size in cells.
        seed: the random seed (the same arguments make the same map).
        params: the spec's parameters (``box_rows``), written in the map's
            header.
        backend: the backend that digs (proves uniqueness while clues go).
        check_backend: the backend that checks the result (default
            :func:`other_backend`).
        time_limit: seconds for the whole call (None: no limit).
        deadline: a deadline to share instead of ``time_limit``.

    Returns:
        The :class:`Generated` puzzle.

    Raises:
        GenerateError: the spec has no clue tile, the blank map has no
            answer, or the time ran out first.
        GridlangError: a bad parameter, or a size the limits refuse.
    """
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import engine_of
    from gridlang.solving.spec import Spec, bundled, load_spec

    start = time.perf_counter()
    if not isinstance(spec, Spec):
        spec = load_spec(spec) if "/" in str(spec) or str(spec).endswith(".grid") else bundled(str(spec))
    deadline = deadline or Deadline(time_limit)
    text_params = {k: str(v) for k, v in (params or {}).items()}
    maker = Maker(spec, rows, cols, text_params, backend, check_backend or other_backend(backend),
                   random.Random(seed), deadline)
    blank = [maker.blank * cols] * rows
    if any(isinstance(st, ast.Objective) for st in spec.ast.statements):
        return terrain(maker, seed, start)
    tries = 0
    while True:
        tries += 1
        if maker.clues:
            maker.rooms = None
            answer = maker.answer(blank)
            full = maker.clue_all(answer)
        else:  # the rooms are the clue: one room, rules about rooms left out, for the answer
            maker.rooms = ["a" * cols] * rows
            answer = maker.answer(blank)
            full = blank
            maker.draw_rooms(blank, answer)
        if maker.unique(full, backend):
            break
        if deadline.expired():
            raise GenerateTimeUp(f"the time ran out before a full map was unique ({deadline.cause()})")
    checker = maker.check_backend
    if maker.clues:
        grid = dig_by_oracle(maker, full) or dig(maker, full, backend)
        if not maker.unique(grid, checker):
            raise GenerateError(f"{checker} does not find the generated map unique (seed {seed})")
        grid = dig(maker, grid, checker)  # nothing goes unless the two backends disagree
        clues = sum(ch != maker.blank for row in grid for ch in row)
    else:
        grid = full
        if not maker.unique(grid, checker):
            raise GenerateError(f"{checker} does not find the generated map unique (seed {seed})")
        clues = room_count(maker.rooms)
    url = None
    if engine_of(spec.ast) is not None:
        # imported on use, not at start-up
        from gridlang.formats.puzzlink import encode

        url = encode(spec.ast, maker.data(grid), text_params)
    return Generated(map_text(grid, text_params, maker.rooms), url, seed, clues, time.perf_counter() - start,
                     checker, tries, grid)


