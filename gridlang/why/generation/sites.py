"""Puzzles whose clues stand on the corners of the cells or on the borders between them, and maybe in the
cells too: Gokigen's and Creek's numbers on the crosses, Kropki's and Minarism's dots and signs
between two cells, Wagiri's rings and numbers, No Three's dots.

The method is the cells' own (:mod:`gridlang.why.generation`), on every place the clues stand
(docs/language.md, "Clues on corners", "Clues on borders"; pzprjs's crosses and borders):

1. **An answer** of the blank map, its rules about the clue tiles left out (:meth:`Maker.answer`).
2. **Every place given the clue the answer allows**: the places in a random order, at each the clue
   tiles and their values in a random order, the first under which the spec's interpreter finds no
   statement of the answer broken more often than before kept (a cell as for clues in cells alone,
   :meth:`Maker.try_clues`); a place where none is stays blank. Where the spec has a puzz.link
   format, only the places it writes (:func:`_writable`).
3. **Unique, or another answer**: every clue the answer allows is written, so a map that is not
   unique gets no clue that would separate its answers; another answer is drawn.
4. **Dig**: the clues taken away one at a time in a random order, on the incremental oracle where
   each clue is exactly its rule instances, else each kept away when the map stays unique and the
   answer breaks no statement more often (a blank place that says something itself, Kropki's
   border without a dot, is no clue taken away: such a place keeps its clue).
5. **Checked by a second backend**: the map is unique there too, and no clue goes that it would let go.

Where the rules read rooms too (Sumiwake), a random partition into rectangles is drawn first with
each answer, as for clues in cells. A symmetry of the clues is not offered here (``--symmetry``
places clue tiles in cells alone).
"""

from __future__ import annotations

import time

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.why.generation.dig import dig_instances
from gridlang.why.generation.maker import Maker
from gridlang.why.generation.maps import (
    KINDS,
)
from gridlang.why.generation.records import (
    Generated,
    GenerateError,
    GenerateTimeUp,
)

DRAWS = 20
"""How many answers may each be not unique under every clue it allows before the genre is refused at
that size (a full map of clues has no clue left to separate its answers)."""


def site_puzzle(maker: Maker, seed: int, start: float, say) -> Generated:
    """A puzzle of a spec whose clues stand on corners or borders, and maybe in the cells too (the
    module docstring's steps).

    Args:
        maker: the generation's state, :attr:`Maker.sites` set.
        seed: the seed, as :class:`Generated` reports it.
        start: when the call began (``time.perf_counter``).
        say: told one line per stage.

    Raises:
        GenerateTimeUp: the deadline passed first (``maker.best`` is the map made so far).
        GenerateError: the blank map has no answer even with the rules about clues left out, its
            answer is unique without a clue, or none of :data:`DRAWS` answers is unique under every
            clue it allows.
    """
    # imported on use, not at start-up (the puzz.link engine)
    from gridlang.formats.puzzlink import encode, engine_of

    sites, deadline = maker.sites, maker.deadline
    blank = [maker.blank * maker.cols] * maker.rows
    writable = _writable(maker)
    tries = 0
    while True:
        tries += 1
        tokens = sites.blank()
        _show(maker, tokens)
        answer = maker.answer_on_new_rooms(blank)  # rules that read rooms too (Sumiwake): rectangles first
        if answer is None:
            say("no answer on these rooms: drawn again")
            tries -= 1
            continue
        say(f"answer {tries} drawn")
        now = maker.broken(blank, answer)
        places = [(li, k) for li, layer in enumerate(sites.layers) for k in range(layer[3])
                  if writable is None or k in writable[li]]
        maker.rng.shuffle(places)
        for li, k in places:
            if deadline.expired():
                raise GenerateTimeUp(f"the time ran out while placing clues ({deadline.cause()})")
            now = _fit(maker, tokens, li, k, answer, now)
        grid = _show(maker, tokens)
        maker.keep(grid, "unique")
        say(f"{sites.clue_count(tokens)} clues placed")
        if _unique(maker, grid, maker.backend):
            break
        if deadline.expired():
            raise GenerateTimeUp(f"the time ran out before a full map was unique ({deadline.cause()})")
        if tries >= DRAWS:
            raise GenerateError(f"{maker.spec.path}: none of {DRAWS} answers drawn is unique even with every clue "
                                f"it allows {sites.where}, so generate gives up at {maker.rows}x{maker.cols}; try "
                                "another size or seed")
        say("not unique with every clue the answer allows: another answer")
    if not sites.clue_count(tokens):
        raise GenerateError(f"{maker.spec.path}: a blank {maker.rows}x{maker.cols} map has one answer only, so the "
                            "rules alone decide it and there is no clue to give; try another size")
    maker.keep(grid, "minimal")
    if not _dig_by_oracle(maker, tokens):
        _dig(maker, tokens, answer, now, maker.backend)
    say(f"dug to {sites.clue_count(tokens)} clues")
    grid = _show(maker, tokens)
    maker.keep(grid, "check")
    if not maker.unique(grid, maker.check_backend):
        raise GenerateError(f"{maker.check_backend} does not find the map made from seed {seed} unique, which "
                            f"{maker.backend} proved unique:\n{maker.text(grid)}")
    _dig(maker, tokens, answer, now, maker.check_backend)  # nothing goes unless the two backends disagree
    say(f"checked by {maker.check_backend}")
    grid = _show(maker, tokens)
    url = encode(maker.spec.ast, maker.data(grid), maker.params) if engine_of(maker.spec.ast) is not None else None
    return Generated(maker.text(grid), url, seed, sites.clue_count(tokens), time.perf_counter() - start,
                     maker.check_backend, tries, grid)


def _writable(maker: Maker) -> list[set[int]] | None:
    """For each layer, the places whose clue the spec's puzz.link format writes, found by writing a map
    with a clue on every place and reading its URL back (pzprjs's dots stand inside the grid: No
    Three's corner on the frame is none of them); None when the spec has no format, or such a map
    cannot be written (then every place is tried, and a clue the format cannot hold leaves no URL)."""
    # imported on use, not at start-up (the puzz.link engine)
    from gridlang.formats.puzzlink import decode, encode, engine_of

    spec, sites = maker.spec, maker.sites
    if engine_of(spec.ast) is None:
        return None
    tokens = [[clues[0][1][0] if clues else empty] * count for _, empty, clues, count in sites.layers]
    try:
        back = parse_map(decode(encode(spec.ast, maker.data(_show(maker, tokens)), maker.params), spec.ast).text,
                         "<url>", spec.puzzle, spec=spec.ast)
    except GridlangError:
        return None
    finally:
        _show(maker, sites.blank())
    out = []
    for place, empty, _, count in sites.layers:
        if place == "cells":
            got = [ch for row in back.rows for ch in row]
        elif place == "corners":
            got = [t for row in back.corners or [] for t in row]
        else:
            got = list(back.borders or [])
        out.append({k for k in range(count) if k < len(got) and got[k] != empty})
    return out


def _unique(maker: Maker, grid: list[str], backend: str) -> bool:
    """Whether the map has one answer on ``backend``; False too for a map the spec refuses when it is
    compiled (Tentaisho's dot whose half-turn leaves the cells: the clues are drawn otherwise)."""
    try:
        return maker.unique(grid, backend)
    except GenerateTimeUp:
        raise
    except GridlangError:
        if maker.deadline.expired():
            raise
        return False


def _show(maker: Maker, tokens: list[list[str]]) -> list[str]:
    """Write ``tokens`` into the map being made: its layers' blocks, and the cells' rows it returns."""
    maker.layer = maker.sites.text(tokens)
    return maker.sites.grid(tokens, maker.blank)


def _fit(maker: Maker, tokens: list[list[str]], li: int, k: int, answer, now: dict[int, int]) -> dict[int, int]:
    """Give place ``k`` of layer ``li`` the first clue (tiles and values in a random order) under which
    ``answer`` breaks no statement more often than ``now``; the new counts, or ``now`` with the place
    left blank. A cell is tried as for clues in cells alone (:meth:`Maker.try_clues`)."""
    place, empty, clues, _ = maker.sites.layers[li]
    if place == "cells":
        fit = maker.try_clues(_show(maker, tokens), k, answer, now)
        if fit.found is None:
            return now
        grid, counts = fit.found
        tokens[li][k] = grid[k // maker.cols][k % maker.cols]
        _show(maker, tokens)
        return counts

    def write(ch: str) -> list[str]:
        tokens[li][k] = ch
        return _show(maker, tokens)

    found = maker.fit(clues, write, answer, now).found
    if found is not None:
        return found[1]
    tokens[li][k] = empty
    _show(maker, tokens)
    return now


def _dig_by_oracle(maker: Maker, tokens: list[list[str]]) -> bool:
    """Step 4 on the incremental SAT oracle (:func:`~gridlang.why.generation.dig.dig_instances`) where each
    clue is exactly its rule instances, checked by a solve on the backend: whether it applied (then
    ``tokens`` hold the clues kept). It does not where a blank place says something itself (Kropki's
    border without a dot is a rule instance too), or an instance binds places of two layers: the
    full solves of :func:`_dig` then."""
    sites = maker.sites
    clues = {sites.key(li, k) for li, row in enumerate(tokens) for k, t in enumerate(row) if t != sites.layers[li][1]}
    full = maker.model(_show(maker, tokens))
    bare = maker.model(_show(maker, sites.blank()))

    def one_by_one(keys: set) -> list[list]:
        order = sorted(keys)
        maker.rng.shuffle(order)
        return [[k] for k in order]

    kinds = {KINDS[layer[0]] for layer in sites.layers}
    kept = dig_instances(maker, full, bare, lambda kind, value: (kind, value) if kind in kinds else None, clues,
                         one_by_one)
    trial = [[t if t == sites.layers[li][1] or sites.key(li, k) in (kept or ()) else sites.layers[li][1]
              for k, t in enumerate(row)] for li, row in enumerate(tokens)]
    if kept is None or not _unique(maker, _show(maker, trial), maker.backend):  # the oracle's dig checked by the backend
        _show(maker, tokens)
        return False
    for li, row in enumerate(trial):
        tokens[li][:] = row
    return True


def _dig(maker: Maker, tokens: list[list[str]], answer, now: dict[int, int], backend: str) -> None:
    """Take the clues away one at a time in a random order, each kept away when the map stays unique on
    ``backend`` and ``answer`` breaks no statement more often than ``now`` (the full map's counts)."""
    sites = maker.sites
    order = [(li, k) for li, row in enumerate(tokens) for k, t in enumerate(row) if t != sites.layers[li][1]]
    maker.rng.shuffle(order)
    for li, k in order:
        if maker.deadline.expired():
            raise GenerateTimeUp(f"the time ran out while clues were taken away ({maker.deadline.cause()})")
        kept = tokens[li][k]
        tokens[li][k] = sites.layers[li][1]
        grid = _show(maker, tokens)
        if all(n <= now.get(s, 0) for s, n in maker.broken(grid, answer).items()) and _unique(maker, grid, backend):
            maker.keep(grid, "minimal")
            continue
        tokens[li][k] = kept
        _show(maker, tokens)
