"""The state of one puzzle being made: its spec, size, random source and deadline; the answer
drawn first, the clues and rooms it allows (the spec's interpreter, counting broken statements)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import NamedTuple

from gridlang.compiler import compile_tagged
from gridlang.core.deadline import Deadline
from gridlang.core.errors import GridlangError
from gridlang.core.nodes import field_names, replace
from gridlang.formats.maps import build_grid, parse_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter.core import Interpreter
from gridlang.ir.backend import SolveOptions, Status, get_backend
from gridlang.ir.model import Clause, Objective, Sense
from gridlang.ir.solution import Solution, decode, split_answers
from gridlang.language import ast
from gridlang.solving.pipeline import load_checked, solve_model
from gridlang.why.generation.loops import random_loop
from gridlang.why.generation.maps import (
    ROOM_DRAWS,
    Sites,
    clue_tiles,
    map_text,
    rectangle_rooms,
    room_layer,
    rooms_refused,
    sides,
    token_char,
)
from gridlang.why.generation.records import GenerateError, GenerateTimeUp, NoAnswer

RULES = (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath, ast.ForEach, ast.Holds, ast.ForPairs)
"""The statements that are rules (the rest declare tiles, parameters, decisions, regions)."""

FIXED = 6
"""How many random cells step 1 fixes first (halved while that has no answer)."""

FIELD_SIGMA = 0.7
"""The width, in cells, of each bump of the random field that step 1 follows on a Boolean decision."""

FIELD_BUMPS = 0.35
"""Bumps of the random field per cell."""

FIELD_REACH = 7.0
"""How far a bump reaches, in widths (:data:`FIELD_SIGMA`): beyond it a bump adds less than
``exp(-24.5)``, some 2e-11, which no rounding of the field to hundredths sees."""

FIELD_BIAS = 0.5
"""What the field adds everywhere: > 0 leans the Boolean decision towards true (Nurikabe's shading)."""

FIELD_WORK = 1.0
"""CP-SAT's deterministic time (about seconds at rest) that step 1 spends following the field; the best
answer found by then is taken, the same whatever the machine's load."""

FIELD_SECONDS = 20.0
"""The wall-clock seconds after which step 1 stops following the field even so (a loaded machine)."""


HOLES = 1 / 6
"""The share of a map's cells :meth:`Maker.holes` leaves to clues of unknown value."""

LOOP_TRIES = 3
"""How many random loops step 1 tries on a Boolean decision on edges before it draws the answer otherwise."""

LOOP_DRAWS = 20
"""How many random loops are drawn for one try, the longest kept (growth stops where no face lengthens it)."""

LOOP_SECONDS = 10.0
"""The most one of those tries may take."""


class Fit(NamedTuple):
    """What :meth:`Maker.try_clues` found at a cell.

    Attributes:
        found: the map with the first clue that fits written at the cell, and the counts of
            :meth:`Maker.broken` on it; None when no clue fits there.
        unfit: no clue fits, some value was tried, and every value tried failed on rules that read the
            values (none was refused by a rule blind to them): the cell refuses every clue, so no map
            of clues has the answer (Nurikabe: an island of more cells than any number says).
    """

    found: tuple[list[str], dict[int, int]] | None
    unfit: bool


class Undecided(Exception):
    """A solve given its own few seconds (:meth:`Maker.another`) ended without an answer or a proof."""


class Maker:
    """The state of one :func:`generate` call: the spec, the size, the random source, the deadline."""

    def __init__(self, spec, rows: int, cols: int, params: Mapping[str, str], backend: str, check_backend: str,
                 rng: random.Random, deadline: Deadline, symmetry: str = "none"):
        self.spec, self.rows, self.cols = spec, rows, cols
        self.symmetry = symmetry
        self.where: set[int] = set()  # the cells named by the violations of the last broken()
        self.best: list[str] | None = None  # the best map so far, and what is not yet proved of it
        self.best_layer: str | None = None
        self.proved: str | None = None
        self.unanswered = 0  # rooms drawn on which the rules had no answer (answer_on_new_rooms)
        self.params = dict(params)
        self.backend, self.check_backend = backend, check_backend
        self.rng, self.deadline = rng, deadline
        self.blank, self.clues = clue_tiles(spec)
        self.clue_names = {name for name, _ in self.clues}
        self.rooms: list[str] | None = None  # the rooms: layer, when the spec reads rooms
        # rules that read both clue tiles and rooms (Heyawake): rooms drawn first (rectangles), clues after
        self.room_reading = {k for k, st in enumerate(spec.ast.statements) if reads_rooms(st)}
        self.value_blind = value_blind(spec.ast.statements)  # ids of the statements that read no tile value
        self._takes: dict[str, dict[str, frozenset[int]]] | None = None  # cells a clue tile takes from decisions
        self.sites: Sites | None = None  # the places, when some clues stand on corners or borders
        self.layer: str | None = None  # their layers' blocks as the map being made holds them (Sites.text)
        placed = [(place, tiles) for place, tiles in (("corners", spec.symbols.corner_tiles),
                                                       ("borders", spec.symbols.border_tiles)) if tiles]
        if not self.clues and not self.room_reading and not placed:
            raise GenerateError(f"{spec.path}: no clue tile (a tile other than the blank {self.blank!r}) and no "
                                "rule about rooms: generate places clue tiles, or draws rooms")
        if any(spec.symbols.tiles[n].number for n, _ in self.clues):
            limit = rows * cols
            self.clues = [(n, [c for c in cs if not spec.symbols.tiles[n].number or int(c) <= limit])
                          for n, cs in self.clues]
        if placed:  # after the numbers' limit: the clues in the cells are tried with it too
            self.sites = Sites(spec, placed, rows, cols, self.blank, self.clues)
            # the rules about them are left out while an answer is drawn
            self.clue_names |= {name for _, tiles in placed for name in tiles}
            if not any(isinstance(st, RULES) and names(st, self.clue_names) for st in spec.ast.statements):
                raise GenerateError(f"{spec.path}: no rule reads its clues {self.sites.where}, so no clue there can "
                                    "make an answer unique")

    # maps -------------------------------------------------------------------
    def keep(self, grid: list[str], missing: str) -> None:
        """Keep ``grid`` as the best map so far, with what remains to prove of it (``unique``,
        ``minimal``, ``check``: see :class:`~gridlang.why.generation.records.GenerateTimeUp`)."""
        self.best, self.proved = list(grid), missing
        self.best_layer = self.layer  # the clue layers with it: the one being tried may be a clue short

    def text(self, grid: list[str], layer: str | None = None) -> str:
        """The map's text: its header, ``grid``'s rows, the rooms, and the clue layers ``layer`` (default
        those being made), if any."""
        layer = self.layer if layer is None else layer
        return map_text(grid, self.params, self.rooms) + (layer + "\n" if layer is not None else "")

    def best_text(self) -> str | None:
        """The best map so far (:meth:`keep`) as a map holds it, or None."""
        return None if self.best is None else self.text(self.best, self.best_layer)

    def data(self, grid: list[str]):
        return parse_map(self.text(grid), "<generated>", self.spec.puzzle, spec=self.spec.ast)

    def model(self, grid: list[str]):
        model, _ = load_checked(self.spec.ast, self.spec.symbols, self.data(grid), self.params, self.deadline)
        return model

    def unique(self, grid: list[str], backend: str) -> bool:
        """Whether the map has exactly one answer (proved by ``backend``); False when it has none."""

        options = SolveOptions(deadline=self.deadline)
        report = solve_model(self.model(grid), backend, options, unique=True)
        if report.result.status is Status.UNKNOWN or (report.solution is not None and report.unique is None):
            raise GenerateTimeUp(f"the time ran out while proving a map unique ({self.deadline.cause()})")
        return report.unique is True

    def another(self, grid: list[str], answer, backend: str, seconds: float | None = None):
        """An answer of the map other than ``answer`` (decision -> {cell: value}), or None when it has
        no other; with ``answer`` None, the map's first answer, or None when it has none.

        ``answer`` is blocked by one clause over the model's decisions (an enumeration's chosen
        values, a Boolean's literal as it holds), so one solve answers; the counterexample, when
        there is one, is verified as every answer is.

        Args:
            seconds: the most this solve may take, or None (the deadline's time).

        Raises:
            Undecided: ``seconds`` passed first (the deadline not).
            GenerateTimeUp: the deadline passed first.
        """
        try:
            model = self.model(grid)
        except GridlangError as e:
            if self.deadline.expired():
                raise
            if answer is None:
                return None  # a rule that no answer can meet on this map, found while compiling
            raise Undecided(f"the map does not compile ({e.message.splitlines()[0]})") from e
        if answer is not None:
            block = []
            for d in model.decisions:
                values = answer.get(d.name, {})
                if d.open_value is not None:  # a block's size above the open value is that value's literal
                    values = {c: d.open_value if isinstance(v, int) and v >= d.open_value else v
                              for c, v in values.items()}
                for cell, options in d.cells:
                    if len(options) >= 2:
                        block.extend(-lit for value, lit in options if values.get(cell) == value)
                    else:
                        block.extend(-lit if values.get(cell) == value else lit for value, lit in options)
            model = model.with_constraints((Clause(tuple(block)),))
        # one worker and a fixed seed on CP-SAT: which second answer is found, and so the map, depends on
        # the seed alone, not on how threads race
        extra = {"cpsat.random_seed": 0} if backend == "cpsat" else {}
        if seconds is None:
            report = solve_model(model, backend, SolveOptions(deadline=self.deadline, workers=1, extra=extra))
        else:
            with self.deadline.slice(seconds) as part:
                report = solve_model(model, backend, SolveOptions(deadline=part, workers=1, extra=extra))
        if report.result.status is Status.UNKNOWN:
            if seconds is not None and not self.deadline.expired():
                raise Undecided(f"no answer within {seconds:g} s")
            raise GenerateTimeUp(f"the time ran out while looking for a second answer ({self.deadline.cause()})")
        if report.solution is None and answer is not None and report.result.status is Status.INFEASIBLE:
            # the model's other answers are gone; a block of an open value may still split (blocks/domains.py)
            others, proved = split_answers(model, Solution(answer, {}))
            if others:
                return others[0].decisions
            if not proved:
                raise Undecided("a block read as one could not be searched for its splits in time")
        return None if report.solution is None else report.solution.decisions

    # step 1 ------------------------------------------------------------------
    def answer(self, blank: list[str], every_rule: bool = False):
        """A random answer (decision -> {cell: value}) of the blank map's rules that name no clue tile
        (and, when the rooms are the clue, read no room); with ``every_rule``, of every rule of the
        map given (one whose clues are unknown: :meth:`holes`), and a map that does not compile raises
        its error (a rule that reads an unknown clue's value unguarded: Shakashaka's)."""

        statements = self.spec.ast.statements
        try:
            model = self.model(blank)
        except GridlangError as e:
            if self.deadline.expired() or every_rule:
                raise
            # a rule about clues that no blank map can meet, found while compiling: left out of the AST
            statements = tuple(st for k, st in enumerate(statements)
                               if not (isinstance(st, RULES) and (names(st, self.clue_names)
                                                                  or not self.clues and k in self.room_reading)))
            try:
                model, _ = load_checked(replace(self.spec.ast, statements=statements), self.spec.symbols,
                                        self.data(blank), self.params, self.deadline)
            except GridlangError as again:
                if self.deadline.expired():
                    raise
                raise GenerateError(f"{self.spec.path}: a blank {self.rows}x{self.cols} map breaks a rule that names "
                                    f"no clue tile, so no answer can be drawn to place clues on "
                                    f"({again.message.splitlines()[0]})") from e
        tagged, tagging = compile_tagged(model)
        naming = set() if every_rule else {k for k, st in enumerate(statements) if names(st, self.clue_names)}
        if not self.clues:
            naming |= {k for k, st in enumerate(statements) if reads_rooms(st)}
        keep = tuple(c for c, t in zip(tagged.constraints, tagging.tags) if t is None or t[0] not in naming)
        relaxed = replace(tagged, constraints=keep, objective=None)
        entries = [(d, lits) for d in relaxed.decisions for _, lits in d.cells]
        empty = next((d.name for d, lits in entries if not lits), None)
        if empty is not None:
            raise GenerateError(f"{self.spec.path}: the decision {empty!r} takes its values from the clues, so a "
                                "blank map gives it none to draw an answer from; generate cannot make this genre")
        engine = get_backend("cpsat")
        looped = self.on_loop(relaxed, engine)
        if looped is not None:
            return looped
        field = self.field(relaxed)
        if field is not None:
            with self.deadline.slice(FIELD_SECONDS) as part:
                result = engine.solve(field, SolveOptions(deadline=part, workers=1, extra={
                    "cpsat.random_seed": self.rng.randrange(1 << 20),
                    "cpsat.max_deterministic_time": FIELD_WORK}))
            if result.status.has_solution:
                return decode(relaxed, result.assignment).decisions
        fixed = FIXED
        while not self.deadline.expired():
            extra = []
            for d, lits in self.rng.sample(entries, min(fixed, len(entries))):
                if len(lits) == 1:
                    extra.append(Clause((lits[0][1] if self.rng.random() < 0.5 else -lits[0][1],)))
                else:
                    extra.append(Clause((self.rng.choice(lits)[1],)))
            trial = replace(relaxed, constraints=relaxed.constraints + tuple(extra))
            result = engine.solve(trial, SolveOptions(deadline=self.deadline, workers=1,
                                                      extra={"cpsat.random_seed": self.rng.randrange(1 << 20)}))
            if result.status.has_solution:
                return decode(relaxed, result.assignment).decisions
            if result.status is Status.UNKNOWN:
                break
            if fixed == 0:
                raise NoAnswer(f"a blank {self.rows}x{self.cols} map of {self.spec.path} has no answer, "
                               "even with the rules about clues left out")
            fixed //= 2
        raise GenerateTimeUp(f"the time ran out while drawing an answer ({self.deadline.cause()})")

    def on_loop(self, relaxed, engine):
        """An answer of the relaxed model whose Boolean decision on edges is a random long loop
        (:func:`~gridlang.why.generation.loops.random_loop`, the edges fixed), or None when the model
        has no such decision or none of :data:`LOOP_TRIES` loops is an answer's (a rule that asks for
        a path, or cells the loop must visit)."""
        lines = [d for d in relaxed.decisions if d.kind in ("edges", "corners") and len(d.values) == 1
                 and all(len(opts) == 1 for _, opts in d.cells)]
        if not lines:
            return None
        extra = 1 if lines[0].kind == "corners" else 0
        if min(self.rows, self.cols) + extra < 2:  # no loop fits: the answer is drawn as for any other spec
            return None
        for _ in range(LOOP_TRIES):
            # a line through the cells runs two to four edges between turns, so each turn may hold a clue
            # that reads the runs beside it (Masyu's black pearl) and each cell beside a turn one that reads
            # the turn (its white pearl): a staircase of turns admits neither, and a long straight run lets
            # a second answer bulge out of it where no clue can stand; the longest of LOOP_DRAWS loops
            loop = max((random_loop(self.rows + extra, self.cols + extra, self.rng, *((1, 0) if extra else (2, 4)))
                        for _ in range(LOOP_DRAWS)), key=len)
            fixed = tuple(Clause((lit if tuple(sorted(edge)) in loop else -lit,))
                          for edge, ((_, lit),) in lines[0].cells)
            trial = replace(relaxed, constraints=relaxed.constraints + fixed)
            with self.deadline.slice(LOOP_SECONDS) as part:
                result = engine.solve(trial, SolveOptions(deadline=part, workers=1, extra={
                    "cpsat.random_seed": self.rng.randrange(1 << 20)}))
            if result.status.has_solution:
                return decode(relaxed, result.assignment).decisions
            if self.deadline.expired():
                raise GenerateTimeUp(f"the time ran out while drawing an answer ({self.deadline.cause()})")
        return None

    def field(self, relaxed):
        """The relaxed model with an objective that follows a random smooth field, when its decisions
        include a Boolean one on cells (else None).

        Left to itself the solver shades as little as the rules allow, and Nurikabe's unshaded cells
        become one island of half the grid, too big for a clue. The field is a sum of Gaussian
        bumps (:data:`FIELD_BUMPS` per cell, each of width :data:`FIELD_SIGMA` and sign drawn at
        random) plus :data:`FIELD_BIAS`; the objective is the field's value, in hundredths, over
        the cells where the decision is true, so the answer's true and false cells follow its
        blobs where the rules let them (random fields as a source of terrain: K. Perlin, "An image
        synthesizer", SIGGRAPH 1985; here plain sums of bumps).
        """
        bools = [(cell, opts[0][1]) for d in relaxed.decisions if d.kind == "cells" and len(d.values) == 1
                 for cell, opts in d.cells if len(opts) == 1 and isinstance(cell, int)]
        if not bools:
            return None
        n = self.rows * self.cols
        bumps = [(self.rng.uniform(0, self.rows), self.rng.uniform(0, self.cols), self.rng.choice((-1.0, 1.0)))
                 for _ in range(max(1, int(n * FIELD_BUMPS)))]
        # each bump added to the cells within FIELD_REACH of it, in the bumps' order: linear in the
        # cells (every bump over every cell took minutes at 200x200, past the time limit); what lies
        # farther weighs less than 1e-10 a bump
        near = [0.0] * n
        reach = FIELD_REACH * FIELD_SIGMA
        for k, (a, b, w) in enumerate(bumps):
            if k % 256 == 0 and self.deadline.expired():
                raise GenerateTimeUp(f"the time ran out while an answer was drawn ({self.deadline.cause()})")
            for r in range(max(0, math.ceil(a - reach)), min(self.rows, math.floor(a + reach) + 1)):
                for c in range(max(0, math.ceil(b - reach)), min(self.cols, math.floor(b + reach) + 1)):
                    near[r * self.cols + c] += w * math.exp(-((r - a) ** 2 + (c - b) ** 2) / (2 * FIELD_SIGMA ** 2))
        terms = []
        for cell, lit in bools:
            value = FIELD_BIAS + near[cell]
            if round(100 * value):
                terms.append((round(100 * value), lit))
        return replace(relaxed, objective=Objective(Sense.MAXIMIZE, tuple(terms)))

    # step 2 ------------------------------------------------------------------
    def holes(self) -> list[str] | None:
        """A map with :data:`HOLES` of its cells, drawn at random, clues of unknown value (``?``, ``^?``),
        for an answer that leaves them to the clues (Yajilin: a clue cell is neither shaded nor on the
        loop, which a blank map's answer passes through wherever it does not shade); None when no
        clue tile takes an unknown value."""
        unknown = self.unknown_clue()
        if unknown is None:
            return None
        n = self.rows * self.cols
        cells = set(self.rng.sample(range(n), max(1, round(n * HOLES))))
        flat = [unknown if i in cells else self.blank for i in range(n)]
        return ["".join(flat[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def unknown_clue(self) -> str | None:
        """The character of a clue of unknown value of the first clue tile that takes one, or None."""
        tiles = self.spec.symbols.tiles
        for name, _ in self.clues:
            t = tiles[name]
            if t.clue == "arrow":
                return token_char("^?")
            if t.clue is not None or t.number:
                return "?"
        return None

    def clue_all(self, answer, until_valid: bool = False, start: list[str] | None = None) -> list[str] | None:
        """Every cell given the first clue (random order) under which ``answer`` breaks no statement more
        often (:meth:`try_clues`); with ``until_valid``, only until ``answer`` breaks no statement (the
        cells left are blank: the counterexample loop adds what else is needed), and None as soon as
        a cell refuses every value of every clue tile tried by rules that read the values (Nurikabe:
        an island of more cells than any number says), since no map of clues then has ``answer``."""
        grid = list(start) if start is not None else [self.blank * self.cols] * self.rows
        now = self.broken(grid, answer)
        cells = list(range(self.rows * self.cols))
        self.rng.shuffle(cells)
        for cell in cells:
            if self.deadline.expired():
                if self.best is None:
                    self.keep(grid, "clues")
                raise GenerateTimeUp(f"the time ran out while placing clues ({self.deadline.cause()})")
            fit = self.try_clues(grid, cell, answer, now)
            if fit.found is not None:
                grid, now = fit.found
            elif until_valid and fit.unfit:
                return None
            if until_valid and not now:
                break
        return grid

    def try_clues(self, grid: list[str], cell: int, answer, now: dict[int, int]) -> Fit:
        """The clues tried at ``cell`` in a random order of tiles and values, up to the first under which
        ``answer`` breaks no statement more often than ``now`` (the counts of :meth:`broken` on
        ``grid``): that map and its counts, or none, and whether the cell refuses every clue (:class:`Fit`).

        Two tests spare interpreter runs without changing what fits: a clue tile that takes ``cell``
        out of a Boolean decision where ``answer`` has it true is not tried (the answer would lose
        that value: Nurikabe's number on a shaded cell); and once one value of a tile breaks a
        statement that reads no tile value more often (Nurikabe's one number per island), the tile's
        other values are not tried, since that statement judges them all alike. One run per value
        tried, where every value of every tile was tried on every cell.
        """
        r, c = divmod(cell, self.cols)
        return self.fit(self.clues, lambda ch: grid[:r] + [grid[r][:c] + ch + grid[r][c + 1:]] + grid[r + 1:],
                        answer, now, lambda name: self.erases(name, cell, answer))

    def fit(self, clues, write, answer, now: dict[int, int], erases=None) -> Fit:
        """The clues ``[(tile, characters)]`` tried in a random order of tiles and values, each written by
        ``write(character)`` (the map's rows to judge), up to the first under which ``answer`` breaks no
        statement more often than ``now``; a tile that ``erases(tile)`` is skipped, and a tile's other
        values once one breaks a statement blind to values (:meth:`try_clues`). A map the interpreter
        refuses is no fit."""
        options = [(name, ch) for name, chars in clues for ch in chars]
        self.rng.shuffle(options)
        refused: set[str] = set()
        tried = False
        for name, ch in options:
            if name in refused or (erases is not None and erases(name)):
                continue
            trial = write(ch)
            try:
                after = self.broken(trial, answer)
            except GridlangError:
                continue
            grew = [k for k in after if after[k] > now.get(k, 0)]
            if not grew:
                return Fit((trial, after), False)
            if any(k in self.value_blind for k in grew):
                refused.add(name)
            tried = True
        return Fit(None, tried and not refused)

    def answer_on_new_rooms(self, blank: list[str]):
        """:meth:`answer`, on rooms drawn anew when the rules read rooms besides clues (Heyawake: a random
        partition into rectangles); None when those rooms have no answer (draw again). Raises
        :class:`GenerateError` once :data:`~gridlang.why.generation.maps.ROOM_DRAWS` partitions had none."""
        self.rooms = room_layer(rectangle_rooms(self.rows, self.cols, self.rng), self.rows, self.cols) \
            if self.room_reading else None
        try:
            return self.answer(blank)
        except NoAnswer as e:
            if self.rooms is None:
                raise
            self.unanswered += 1
            if self.unanswered >= ROOM_DRAWS:
                raise rooms_refused(self.spec, self.rows, self.cols) from e
            return None

    def erases(self, tile: str, cell: int, answer) -> bool:
        """Whether a clue of ``tile`` at ``cell`` takes the cell out of a Boolean decision that
        ``answer`` has true there (the decision's cells are those of the blank map, less the cells
        a map of that tile alone leaves it on)."""
        if self._takes is None:
            self._takes = {}
            blank = self._on(self.blank)
            for name, chars in self.clues:
                alone = self._on(chars[0]) if chars else None
                self._takes[name] = {} if blank is None or alone is None else \
                    {d: cells - alone.get(d, cells) for d, cells in blank.items()}
        decisions = self.spec.symbols.decisions
        return any(cell in cells and answer.get(d, {}).get(cell) is True
                   for d, cells in self._takes[tile].items() if d in decisions and not decisions[d].is_enum)

    def _on(self, ch: str) -> dict[str, frozenset[int]] | None:
        """The cells each decision is made on, on a map of ``ch`` alone (None when the spec refuses it)."""
        try:
            data = self.data([ch * self.cols] * self.rows)
            return Interpreter(self.spec.ast, self.spec.symbols, build_grid(self.spec.symbols, data),
                               resolve_params(self.spec.symbols, data, None)).on
        except GridlangError:
            return None

    def broken(self, grid: list[str], answer) -> dict[int, int]:
        """How often ``answer`` breaks each statement on this map (the spec's interpreter, counting)."""

        data = self.data(grid)
        interp = counting()(self.spec.ast, self.spec.symbols, build_grid(self.spec.symbols, data),
                             resolve_params(self.spec.symbols, data, None))
        given = {name: ({k: v for k, v in values.items() if k in interp.on[name]} if name in interp.on else values)
                 for name, values in answer.items()}
        interp.evaluate(given)
        self.where = interp.where
        return interp.broken

    def draw_rooms(self, grid: list[str], answer) -> list[str]:
        """Rooms grown by merging: from one room per cell, side-neighbouring rooms (in a random order,
        pass after pass) are joined whenever ``answer`` breaks no statement more often after."""
        n = self.rows * self.cols
        room = list(range(n))
        self.rooms = room_layer(room, self.rows, self.cols)
        now = self.broken(grid, answer)
        pairs = [(i, j) for i in range(n) for j in sides(i, self.rows, self.cols) if i < j]
        joined = True
        while joined:
            joined = False
            self.rng.shuffle(pairs)
            for i, j in pairs:
                a, b = room[i], room[j]
                if a == b:
                    continue
                if self.deadline.expired():
                    raise GenerateTimeUp(f"the time ran out while drawing rooms ({self.deadline.cause()})")
                trial = [a if r == b else r for r in room]
                self.rooms = room_layer(trial, self.rows, self.cols)
                after = self.broken(grid, answer)
                if all(after.get(k, 0) <= now.get(k, 0) for k in after):
                    room, now, joined = trial, after, True
        self.rooms = room_layer(room, self.rows, self.cols)
        return self.rooms

def counting():

    class Counting(Interpreter):
        """The spec's interpreter, counting the violations of each statement (by its place) instead of
        writing them out: step 2 asks only whether a count grew."""

        def evaluate(self, decisions):
            self.broken: dict[int, int] = {}
            self.where: set[int] = set()  # the cells the violations name, and the cells bound by 'for each'
            return super().evaluate(decisions)

        def fail(self, reason: str, cells=()) -> None:
            key = id(self.stmt)
            self.broken[key] = self.broken.get(key, 0) + 1
            self.where.update(c for c in cells if isinstance(c, int))
            self.where.update(c for c in self.cellvars.values() if isinstance(c, int))

    return Counting


def names(node, names: set[str]) -> bool:
    """Whether an AST node names one of ``names`` anywhere inside it."""
    return any_node(node, lambda n: isinstance(n, ast.Name) and n.id in names)


def value_blind(statements) -> set[int]:
    """The ids of the statements that read no tile value: neither ``value(...)`` nor a decision's
    ``= value``, nor a region defined by one that does, nor a construct's node (which may read a
    clue's value its own way). Such a statement judges every value of one clue tile alike."""
    core = {ast.Value.__module__, ast.Decide.__module__}
    reading: set[str] = set()

    def reads(node) -> bool:
        return any_node(node, lambda n: isinstance(n, (ast.Value, ast.TileValue))
                        or isinstance(n, ast.Name) and n.id in reading
                        or bool(field_names(n)) and not isinstance(n, type) and type(n).__module__ not in core)

    out = set()
    for st in statements:
        if reads(st):
            if isinstance(st, ast.Region):
                reading.add(st.name)
        else:
            out.add(id(st))
    return out


def reads_rooms(node) -> bool:
    """Whether an AST node reads the map's rooms (``for each room``, ``room(p)``)."""
    return any_node(node, lambda n: isinstance(n, ast.Family) and n.kind == "rooms"
                or isinstance(n, ast.LineOf) and n.kind == "room")


def any_node(node, test) -> bool:
    """Whether ``test`` holds of an AST node or of any node inside it."""
    if test(node):
        return True
    if isinstance(node, (list, tuple)):
        return any(any_node(x, test) for x in node)
    if isinstance(node, type):
        return False
    return any(any_node(getattr(node, name), test) for name in field_names(node) if not name.endswith("span"))

