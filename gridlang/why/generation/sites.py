"""Puzzles whose clues stand on the corners of the cells or on the borders between them: Gokigen's and
Creek's numbers on the crosses, Kropki's and Minarism's dots and signs between two cells.

The method is the cells' own (:mod:`gridlang.why.generation`), on the layer of those places
(docs/language.md, "Clues on corners", "Clues on borders"; pzprjs's crosses and borders):

1. **An answer** of the blank map, its rules about the clue tiles left out (:meth:`Maker.answer`).
2. **Every place given the clue the answer allows**: the places in a random order, at each the clue
   tiles and their values in a random order, the first under which the spec's interpreter finds no
   statement of the answer broken more often than before kept; a place where none is stays blank.
3. **Unique, or another answer**: every clue the answer allows is written, so a map that is not
   unique gets no clue that would separate its answers; another answer is drawn.
4. **Dig**: the clues taken away one at a time in a random order, each kept away when the map stays
   unique and the answer breaks no statement more often (a blank place that says something itself,
   Kropki's border without a dot, is no clue taken away: such a place keeps its clue).
5. **Checked by a second backend**: the map is unique there too, and no clue goes that it would let go.

Where the rules read rooms too (Sumiwake), a random partition into rectangles is drawn first with
each answer, as for clues in cells. A symmetry of the clues is not offered here (``--symmetry``
places clue tiles in cells).
"""

from __future__ import annotations

import time

from gridlang.why.generation.dig import dig_instances
from gridlang.why.generation.maker import Maker
from gridlang.why.generation.maps import (
    PLACES,
    ROOM_DRAWS,
    rectangle_rooms,
    room_layer,
    rooms_refused,
)
from gridlang.why.generation.records import (
    Generated,
    GenerateError,
    GenerateTimeUp,
    NoAnswer,
)

DRAWS = 20
"""How many answers may each be not unique under every clue it allows before the genre is refused at
that size (a full map of clues has no clue left to separate its answers)."""


def site_puzzle(maker: Maker, seed: int, start: float, say) -> Generated:
    """A puzzle of a spec whose clues stand on corners or borders (the module docstring's steps).

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
    tries = unanswered = 0
    while True:
        tries += 1
        tokens = [sites.blank] * sites.count
        maker.layer = sites.text(tokens)
        # rules that read rooms too (Kazunori): a random partition into rectangles first, as for clues in cells
        maker.rooms = room_layer(rectangle_rooms(maker.rows, maker.cols, maker.rng), maker.rows, maker.cols) \
            if maker.room_reading else None
        try:
            answer = maker.answer(blank)
        except NoAnswer as e:
            if maker.rooms is None:
                raise
            unanswered += 1
            if unanswered >= ROOM_DRAWS:
                raise rooms_refused(maker.spec, maker.rows, maker.cols) from e
            say("no answer on these rooms: drawn again")
            tries -= 1
            continue
        say(f"answer {tries} drawn")
        now = maker.broken(blank, answer)
        order = list(range(sites.count))
        maker.rng.shuffle(order)
        for k in order:
            if deadline.expired():
                raise GenerateTimeUp(f"the time ran out while placing clues ({deadline.cause()})")
            now = _fit(maker, tokens, k, answer, now)
        maker.layer = sites.text(tokens)
        maker.keep(blank, "unique")
        say(f"{sum(t != sites.blank for t in tokens)} clues placed")
        if maker.unique(blank, maker.backend):
            break
        if deadline.expired():
            raise GenerateTimeUp(f"the time ran out before a full map was unique ({deadline.cause()})")
        if tries >= DRAWS:
            raise GenerateError(f"{maker.spec.path}: none of {DRAWS} answers drawn is unique under every clue it "
                                f"allows on {PLACES[sites.place]}, so no map of such clues has one answer at "
                                f"{maker.rows}x{maker.cols}; try another size")
        say("not unique with every clue the answer allows: another answer")
    if not any(t != sites.blank for t in tokens):
        raise GenerateError(f"{maker.spec.path}: a blank {maker.rows}x{maker.cols} map has one answer only, so the "
                            "rules alone decide it and there is no clue to give; try another size")
    maker.keep(blank, "minimal")
    if not _dig_by_oracle(maker, tokens):
        _dig(maker, tokens, answer, now, maker.backend)
    say(f"dug to {sum(t != sites.blank for t in tokens)} clues")
    maker.keep(blank, "check")
    if not maker.unique(blank, maker.check_backend):
        raise GenerateError(f"{maker.check_backend} does not find the map made from seed {seed} unique, which "
                            f"{maker.backend} proved unique:\n{maker.text(blank)}")
    _dig(maker, tokens, answer, now, maker.check_backend)  # nothing goes unless the two backends disagree
    say(f"checked by {maker.check_backend}")
    url = encode(maker.spec.ast, maker.data(blank), maker.params) if engine_of(maker.spec.ast) is not None else None
    return Generated(maker.text(blank), url, seed, sum(t != sites.blank for t in tokens), time.perf_counter() - start,
                     maker.check_backend, tries, blank)


def _fit(maker: Maker, tokens: list[str], k: int, answer, now: dict[int, int]) -> dict[int, int]:
    """Give place ``k`` the first clue (tiles and values in a random order) under which ``answer`` breaks
    no statement more often than ``now``; the new counts, or ``now`` with the place left blank."""
    sites = maker.sites
    options = [(name, ch) for name, chars in sites.clues for ch in chars]
    maker.rng.shuffle(options)
    blank = [maker.blank * maker.cols] * maker.rows
    for _, ch in options:
        tokens[k] = ch
        maker.layer = sites.text(tokens)
        counts = maker.broken(blank, answer)
        if all(n <= now.get(s, 0) for s, n in counts.items()):
            return counts
    tokens[k] = sites.blank
    maker.layer = sites.text(tokens)
    return now


def _dig_by_oracle(maker: Maker, tokens: list[str]) -> bool:
    """Step 4 on the incremental SAT oracle (:func:`~gridlang.why.generation.dig.dig_instances`) where each
    clue is exactly its rule instances, checked by a solve on the backend: whether it applied (then
    ``tokens`` hold the clues kept). It does not where a blank place says something itself (Kropki's
    border without a dot is a rule instance too): the full solves of :func:`_dig` then."""
    sites = maker.sites
    blank = [maker.blank * maker.cols] * maker.rows
    width = maker.cols + 1

    def key(k: int):  # a place as the rule instances bind it: a corner's (row, column), a border's index
        return divmod(k, width) if sites.place == "corners" else k

    clues = {key(k) for k, t in enumerate(tokens) if t != sites.blank}
    full = maker.model(blank)
    maker.layer = sites.text([sites.blank] * sites.count)
    bare = maker.model(blank)

    def one_by_one(keys: set) -> list[list]:
        order = sorted(keys)
        maker.rng.shuffle(order)
        return [[k] for k in order]

    kept = dig_instances(maker, full, bare, sites.place[:-1], clues, one_by_one)
    trial = [t if t == sites.blank or key(k) in (kept or ()) else sites.blank for k, t in enumerate(tokens)]
    maker.layer = sites.text(trial)
    if kept is None or not maker.unique(blank, maker.backend):  # the oracle's dig checked by the backend
        maker.layer = sites.text(tokens)
        return False
    tokens[:] = trial
    return True


def _dig(maker: Maker, tokens: list[str], answer, now: dict[int, int], backend: str) -> None:
    """Take the clues away one at a time in a random order, each kept away when the map stays unique on
    ``backend`` and ``answer`` breaks no statement more often than ``now`` (the full map's counts)."""
    sites = maker.sites
    blank = [maker.blank * maker.cols] * maker.rows
    order = [k for k, t in enumerate(tokens) if t != sites.blank]
    maker.rng.shuffle(order)
    for k in order:
        if maker.deadline.expired():
            raise GenerateTimeUp(f"the time ran out while clues were taken away ({maker.deadline.cause()})")
        kept = tokens[k]
        tokens[k] = sites.blank
        maker.layer = sites.text(tokens)
        if all(n <= now.get(s, 0) for s, n in maker.broken(blank, answer).items()) and maker.unique(blank, backend):
            maker.keep(blank, "minimal")
            continue
        tokens[k] = kept
        maker.layer = sites.text(tokens)

