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
   that model comes from CP-SAT: for a Boolean decision on cells, the one
   that best follows a random smooth field (:meth:`Maker.field`: left to
   itself the solver shades as little as it can, and Nurikabe's islands
   came out too big for any clue); for a Boolean decision on edges, a
   random long loop (:mod:`~gridlang.why.generation.loops`: left to itself
   the solver drew a 2x2 loop, and Masyu's map was four white pearls
   around it), its edges fixed; else with a few random cells fixed
   (fewer when that has no answer).
2. **Every clue the answer allows.** The cells are visited in a random
   order; at each, the clue tiles and their values are tried in a random
   order, and the first one kept under which the spec's interpreter
   (:mod:`gridlang.interpreter`, the verifier) finds no statement of ``A``
   broken more often than before. So ``A`` stays an answer of the full map
   as far as the clues written so far allow (Nurikabe: one clue per
   island, its size). Where the blank map's rules need clues (Nurikabe),
   the visit stops as soon as ``A`` breaks no rule, and gives ``A`` up as
   soon as a cell refuses every value on rules that read the values (an
   island larger than any number). A tile is not tried where it would
   take a cell out of a Boolean decision that ``A`` has true, nor its
   other values once one breaks a rule that reads no value
   (:meth:`Maker.try_clues`). With a symmetry, a clue whose image is no
   clue is blanked. When no clue fits the answer anywhere (Yajilin: a clue
   cell is neither shaded nor on the loop, and the blank map's loop passes
   through every cell it does not shade), the answer is drawn again on a
   map with a sixth of its cells, at random, clues of unknown value
   (:meth:`Maker.holes`: ``?``, ``^?``), every rule kept, and those cells
   get the clues that fit it.
3. **Unique, by counterexample** (:mod:`~gridlang.why.generation.settle`):
   the map is solved with ``A`` blocked; a second answer ``B`` gets a clue
   that ``A`` allows on a cell where the two differ, added or moved from
   the nearest clue, and the solver is asked again, until ``A`` is the only
   answer; when that adds no clue, ``A`` itself takes the second answer's
   value on one cell and the clues around it follow. When no clue separates them, or after a number of rounds,
   another answer is drawn (step 1).
4. **Dig.** The clues are taken away one at a time (or by orbits of the
   symmetry) in a random order; a removal that leaves the answer unique is
   kept. Where a clue is exactly its rule instances, on the incremental
   oracle (:func:`~gridlang.why.generation.dig.dig_by_oracle`, one pass);
   else by full solves, every clue left tried again until none can go,
   since a rule about clues is then not monotone (taking a Nurikabe clue
   away can make a map that had one answer have none, and a later removal
   change that).
5. **Checked by a second backend** (``maxsat`` by default, ``cpsat`` when
   the first is ``maxsat``): the map's answer is unique, and with each clue
   taken away it is not. When it finds the map not unique, the error shows
   the map and two answers.

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

**Clues on corners and borders.** A spec whose clue tiles stand on the corners of the cells
(Gokigen, Creek) or on the borders between two cells (Kropki, Minarism), and maybe in the cells
too (Wagiri, No Three), gets its clues on every place they stand, by the same steps without the
counterexample loop (every clue the answer allows is written, so a map that is not unique gets
another answer) and without a symmetry (:mod:`~gridlang.why.generation.sites`).

**Rooms and clue tiles.** A spec whose rules read both (Heyawake: a
room's number counts its shaded cells) gets its rooms first, a random
partition of the grid into rectangles
(:func:`~gridlang.why.generation.maps.rectangle_rooms`), drawn anew with
each answer; the answer is drawn on them (the rules that read rooms and no
clue kept), and the clues follow as above.

Cost: step 2 is one interpreter run per candidate (milliseconds); step 3
one solve and a few interpreter runs per round; step 4 one call of the
oracle, or one uniqueness proof (two solves), per clue, and step 5 one
uniqueness proof per clue left. The figures are in docs/benchmarks.md.

Number tiles take values from 0 up to :data:`MAX_VALUE` (one character in
the map), and at most the number of cells. A clue of several characters (an
arrow and a number, ``^2``; a list of numbers, ``1,1,3``) stands for its cell
as one character while the map is made
(:func:`~gridlang.why.generation.maps.token_char`), and the map is written
with its cells separated by spaces, as the shipped Yajilin and Tapa
instances are.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping

from gridlang.core.deadline import BuildTimeout, Deadline
from gridlang.core.errors import GridlangError
from gridlang.language import ast
from gridlang.why.generation.aim import LEVEL_NAMES, generate_at
from gridlang.why.generation.dig import dig, dig_by_oracle
from gridlang.why.generation.maker import Maker, reads_rooms
from gridlang.why.generation.maps import (
    MAX_VALUE,
    SYMMETRIES,
    answer_text,
    cell_texts,
    clue_tiles,
    map_text,
    orbit,
    room_count,
    room_layer,
)
from gridlang.why.generation.records import (
    UNPROVED,
    Generated,
    GenerateError,
    GenerateTimeUp,
)
from gridlang.why.generation.settle import Candidates, settle
from gridlang.why.generation.sites import site_puzzle
from gridlang.why.generation.terrain import terrain

__all__ = [
    "LEVEL_NAMES",
    "MAX_VALUE",
    "UNPROVED",
    "GenerateError",
    "GenerateTimeUp",
    "Generated",
    "clue_tiles",
    "generate",
    "generate_at",
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
             deadline: Deadline | None = None, symmetry: str = "none",
             progress: Callable[[str], None] | None = None) -> Generated:
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
        symmetry: where the clues stand: ``none`` (anywhere), ``rotational``
            (a clue's image by a half turn about the centre is a clue too) or
            ``mirror`` (its image across the vertical axis);
            :data:`~gridlang.why.generation.maps.SYMMETRIES`.
        progress: told one line per stage (an answer drawn, clues placed, each
            round of the counterexample loop, the dig, the check).

    Returns:
        The :class:`Generated` puzzle.

    Raises:
        GenerateTimeUp: the time ran out first; its ``best`` is the map made
            so far, if any, and ``proved`` what was proved of it.
        GenerateError: the spec has no clue tile, the blank map has no
            answer, or the check backend disagrees (the message shows the
            map and both answers).
        GridlangError: a bad parameter, or a size the limits refuse.
    """
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import engine_of
    from gridlang.solving.spec import spec_of

    start = time.perf_counter()
    if symmetry not in SYMMETRIES:
        raise GenerateError(f"unknown symmetry {symmetry!r}: one of {', '.join(SYMMETRIES)}")
    spec = spec_of(spec)
    deadline = deadline or Deadline(time_limit)
    text_params = {k: str(v) for k, v in (params or {}).items()}
    maker = Maker(spec, rows, cols, text_params, backend, check_backend or other_backend(backend),
                  random.Random(seed), deadline, symmetry)

    def say(text: str) -> None:
        if progress is not None:
            progress(f"seed {seed}: {text} ({time.perf_counter() - start:.1f} s)")

    blank = [maker.blank * cols] * rows
    if any(isinstance(st, ast.Objective) for st in spec.ast.statements):
        return terrain(maker, seed, start)
    if maker.sites is not None and symmetry != "none":
        raise GenerateError(f"{spec.path}: its clues stand {maker.sites.where}, and --symmetry places clue tiles "
                            "in cells alone")
    if not maker.clues and symmetry != "none":
        raise GenerateError(f"{spec.path}: its clue is the rooms, and --symmetry places clue tiles; "
                            "rooms are drawn without a symmetry")
    tries = 0
    try:
        if maker.sites is not None:
            return site_puzzle(maker, seed, start, say)
        while True:
            tries += 1
            if maker.clues:
                # rules that read both clue tiles and rooms (Heyawake): rectangles first, then the clues
                answer = maker.answer_on_new_rooms(blank)
                if answer is None:
                    say("no answer on these rooms: drawn again")
                    continue
                say(f"answer {tries} drawn")
                candidate = Candidates(maker, answer)
                # every clue the answer allows; when the blank map's rules need clues (Nurikabe),
                # only until the answer breaks none
                full = maker.clue_all(answer, until_valid=bool(candidate.base))
                if full is not None and all(ch == maker.blank for row in full for ch in row):
                    # no clue fits the answer anywhere: one drawn with cells left to clues, if the spec has
                    # clues of unknown value and such a map has an answer
                    holes = maker.holes()
                    drawn = None
                    if holes is not None:
                        try:
                            drawn = maker.answer(holes, every_rule=True)
                        except GenerateTimeUp:
                            raise
                        except GridlangError:  # no answer, or a rule that reads an unknown clue unguarded
                            if deadline.expired():
                                raise
                            say("no answer leaves those cells to clues: the answer is kept as it was")
                    if drawn is not None:
                        answer, candidate = drawn, Candidates(maker, drawn)
                        full = maker.clue_all(answer, start=holes)
                        say(f"answer {tries} drawn again, {sum(ch != maker.blank for r in holes for ch in r)} "
                            "cells left to clues")
                if full is None:
                    say("no map of clues has that answer")
                    continue
                full = symmetric(full, maker)
                maker.keep(full, "unique")
                say(f"{sum(ch != maker.blank for row in full for ch in row)} clues placed")
                settled = settle(maker, answer, full, backend, symmetry, say, candidate)
                if settled is not None:
                    full = settled[0]
                    if all(ch == maker.blank for row in full for ch in row):
                        raise GenerateError(f"{spec.path}: a blank {rows}x{cols} map has one answer only, so the "
                                            "rules alone decide it and there is no clue to give; try another size")
                    maker.keep(full, "minimal")
                    say(f"unique with {sum(ch != maker.blank for row in full for ch in row)} clues")
                    break
            else:  # the rooms are the clue: one room, rules about rooms left out, for the answer
                maker.rooms = ["a" * cols] * rows
                answer = maker.answer(blank)
                full = blank
                maker.draw_rooms(blank, answer)
                say("rooms drawn")
                if maker.unique(full, backend):
                    break
            if deadline.expired():
                raise GenerateTimeUp(f"the time ran out before a full map was unique ({deadline.cause()})")
        checker = maker.check_backend
        if maker.clues:
            grid = dig_by_oracle(maker, full)
            if grid is not None and not maker.unique(grid, backend):
                # the oracle's dig is checked by the backend: on Fillmat it blanked a clue that was needed
                say("the oracle's dig is not unique on the backend: dug again by full solves")
                grid = None
            grid = grid or dig(maker, full, backend)
            say(f"dug to {sum(ch != maker.blank for row in grid for ch in row)} clues")
            maker.keep(grid, "check")
            disagree(maker, grid, checker, seed)
            grid = dig(maker, grid, checker)  # nothing goes unless the two backends disagree
            say(f"checked by {checker}")
            clues = sum(ch != maker.blank for row in grid for ch in row)
            if not clues:
                raise GenerateError(f"{spec.path}: the blank {rows}x{cols} map's answer is unique, so the rules "
                                    "alone decide it and there is no clue to give; try another size")
        else:
            grid = full
            disagree(maker, grid, checker, seed)
            clues = room_count(maker.rooms)
    except (GenerateTimeUp, BuildTimeout) as e:
        up = e if isinstance(e, GenerateTimeUp) else GenerateTimeUp(f"the time ran out while compiling a map "
                                                                     f"({deadline.cause()})")
        up.best, up.proved = (None, None) if maker.best is None else (maker.best_text(), maker.proved)
        if up is e:
            raise
        raise up from e
    url = None
    if engine_of(spec.ast) is not None:
        # imported on use, not at start-up
        from gridlang.formats.puzzlink import encode

        try:
            url = encode(spec.ast, maker.data(grid), text_params)
        except GridlangError:  # a format with clues outside the grid: the map made has none there
            url = None
    return Generated(map_text(grid, text_params, maker.rooms), url, seed, clues, time.perf_counter() - start,
                     checker, tries, grid)


def symmetric(grid: list[str], maker: Maker) -> list[str]:
    """The map with every clue whose orbit (:func:`~gridlang.why.generation.maps.orbit`) is not all clues blanked."""
    rows, cols = maker.rows, maker.cols
    flat = "".join(grid)
    keep = [ch if all(flat[q] != maker.blank for q in orbit(i, rows, cols, maker.symmetry)) else maker.blank
            for i, ch in enumerate(flat)]
    return ["".join(keep[r * cols:(r + 1) * cols]) for r in range(rows)]


def disagree(maker: Maker, grid: list[str], checker: str, seed: int) -> None:
    """Raise :class:`GenerateError` showing the map and two of its answers when ``checker`` does not
    find it unique (the backend that made it did); nothing when it does."""
    first = maker.another(grid, None, checker)
    second = None if first is None else maker.another(grid, first, checker)
    if first is not None and second is None:
        return
    shown = "".join(row + "\n" for row in cell_texts(grid))
    if first is None:
        raise GenerateError(f"{checker} finds no answer to the map made from seed {seed}, which {maker.backend} "
                            f"proved unique:\n{shown}")
    raise GenerateError(f"{checker} finds two answers to the map made from seed {seed}, which {maker.backend} "
                        f"proved unique:\n{shown}first answer:\n{answer_text(maker, first)}"
                        f"second answer:\n{answer_text(maker, second)}")
