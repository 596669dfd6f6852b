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
from dataclasses import dataclass, field
from typing import Any, Mapping

from gridlang.compiler import compile_tagged
from gridlang.core.deadline import Deadline
from gridlang.core.errors import GridlangError
from gridlang.core.grid import flood_rooms
from gridlang.core.nodes import field_names, replace
from gridlang.formats.maps import build_grid, parse_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter.core import Interpreter
from gridlang.ir.backend import SolveOptions, Status, get_backend
from gridlang.ir.model import Clause
from gridlang.ir.solution import decode
from gridlang.language import ast
from gridlang.solving.pipeline import load_checked, solve_model
from gridlang.why.oracle import Oracle

MAX_VALUE = 9
"""The largest number a generated number clue holds (one character in the map)."""

TERRAIN = 0.25
"""With an objective: the share of cells given the first tile declared after the blank one (water)."""

EXTRAS = 0.03
"""With an objective: the share of cells given each later tile (cherries, apples, bees)."""

FIXED = 6
"""How many random cells step 1 fixes first (halved while that has no answer)."""


class GenerateError(GridlangError, ValueError):
    """The spec cannot be generated from (no clue tile), or the time ran out before a puzzle was made."""


class GenerateTimeUp(GenerateError):
    """The time ran out before a puzzle was made (the message names the step): exit 3, not 1."""


@dataclass
class Generated:
    """One puzzle made by :func:`generate`.

    Attributes:
        map: the map's text (parameter header lines, then the grid), as a
            map file holds it.
        url: its puzz.link URL when the spec declares a format, else None.
        seed: the seed it was made from (the same seed, spec, size and
            parameters make the same map).
        clues: the number of clue cells.
        seconds: the time it took.
        checked_by: the backend that proved it unique and each clue needed.
        tries: the answers (maps, for a spec with an objective) drawn before
            one gave a unique full map.
        objective: for a spec with an objective, the unique optimum's score
            (``clues`` is then 0); None otherwise.
    """

    map: str
    url: str | None
    seed: int
    clues: int
    seconds: float
    checked_by: str
    tries: int = 1
    grid: list[str] = field(default_factory=list, repr=False)
    objective: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"map", "url", "seed", "clues", "seconds", "checked_by"}`` (and ``objective`` for a spec
        with one), as ``generate --json`` prints."""
        out = {"map": self.map, "url": self.url, "seed": self.seed, "clues": self.clues,
               "seconds": round(self.seconds, 3), "checked_by": self.checked_by}
        if self.objective is not None:
            out["objective"] = self.objective
        return out


def clue_tiles(spec) -> tuple[str, list[tuple[str, list[str]]]]:
    """The blank tile's character and, per clue tile, the characters it may be written with.

    The blank tile is the first tile whose characters include ``.`` (else
    the first tile with a character); every other tile with a character, or
    with numbers, is a clue tile.

    Raises:
        GenerateError: the spec has no blank tile.
    """
    tiles = spec.symbols.tiles
    chars = {name: [ch for cs in t.chars for ch in _span_chars(cs)] for name, t in tiles.items()}
    blank = next((n for n, cs in chars.items() if "." in cs), None) or \
        next((n for n, cs in chars.items() if cs and not tiles[n].number), None)
    if blank is None:
        raise GenerateError(f"{spec.path}: no blank tile (a tile written '.') to leave the cells without a clue in")
    clues = []
    for name, t in tiles.items():
        if name == blank:
            continue
        if t.number:
            clues.append((name, [str(v) for v in range(MAX_VALUE + 1)]))
        elif chars[name] and not t.linked:
            clues.append((name, chars[name][:MAX_VALUE + 1]))
    return ("." if "." in chars[blank] else chars[blank][0]), clues


def _span_chars(cs) -> list[str]:
    if len(cs.first) != 1 or len(cs.last) != 1:
        return [cs.first]
    return [chr(k) for k in range(ord(cs.first), ord(cs.last) + 1)]


def map_text(rows: list[str], params: Mapping[str, str], rooms: list[str] | None = None) -> str:
    """A map's text: ``name: value`` header lines, the grid's rows, and the ``rooms:`` layer if any."""
    text = "".join(f"{k}: {v}\n" for k, v in params.items()) + "".join(r + "\n" for r in rows)
    return text + ("rooms:\n" + "".join(r + "\n" for r in rooms) if rooms is not None else "")


ROOM_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The letters of the ``rooms:`` layer (rooms are the connected groups of one letter)."""


def room_layer(room: list[int], rows: int, cols: int) -> list[str]:
    """A ``rooms:`` layer for the room number of each cell: side-neighbouring rooms get different
    letters (greedy colouring, at most 5 letters for rooms of one cell)."""
    letter: dict[int, str] = {}
    for i, r in enumerate(room):
        if r in letter:
            continue
        near = {letter.get(room[j]) for k in range(rows * cols) if room[k] == r
                for j in _sides(k, rows, cols) if room[j] != r}
        letter[r] = next(ch for ch in ROOM_LABELS if ch not in near)
    return ["".join(letter[room[r * cols + c]] for c in range(cols)) for r in range(rows)]


def _sides(i: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(i, cols)
    return [a * cols + b for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < rows and 0 <= b < cols]


class _Maker:
    """The state of one :func:`generate` call: the spec, the size, the random source, the deadline."""

    def __init__(self, spec, rows: int, cols: int, params: Mapping[str, str], backend: str, check_backend: str,
                 rng: random.Random, deadline: Deadline):
        self.spec, self.rows, self.cols = spec, rows, cols
        self.params = dict(params)
        self.backend, self.check_backend = backend, check_backend
        self.rng, self.deadline = rng, deadline
        self.blank, self.clues = clue_tiles(spec)
        self.clue_names = {name for name, _ in self.clues}
        self.rooms: list[str] | None = None  # the rooms: layer, when the spec reads rooms
        self.room_reading = {k for k, st in enumerate(spec.ast.statements) if reads_rooms(st)}
        if self.clues and self.room_reading and not any(isinstance(st, ast.Objective) for st in spec.ast.statements):
            raise GenerateError(f"{spec.path}: its rules read both clue tiles and rooms; generate places clue "
                                "tiles or draws rooms, not both yet")
        for place, where, tiles in (("corners", "the corners of the cells", spec.symbols.corner_tiles),
                                    ("borders", "the borders between cells", spec.symbols.border_tiles)):
            if tiles:
                raise GenerateError(f"{spec.path}: its clues stand on {where} ({', '.join(tiles)}), and generate "
                                    f"places clue tiles in cells or draws rooms, not clues on {place} yet")
        if not self.clues and not self.room_reading:
            raise GenerateError(f"{spec.path}: no clue tile (a tile other than the blank {self.blank!r}) and no "
                                "rule about rooms: generate places clue tiles, or draws rooms")
        if any(spec.symbols.tiles[n].number for n in self.clue_names):
            limit = rows * cols
            self.clues = [(n, [c for c in cs if not spec.symbols.tiles[n].number or int(c) <= limit])
                          for n, cs in self.clues]

    # maps -------------------------------------------------------------------
    def data(self, grid: list[str]):
        return parse_map(map_text(grid, self.params, self.rooms), "<generated>", self.spec.puzzle, spec=self.spec.ast)

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

    # step 1 ------------------------------------------------------------------
    def answer(self, blank: list[str]):
        """A random answer (decision -> {cell: value}) of the blank map's rules that name no clue tile
        (and, when the rooms are the clue, read no room)."""

        model = self.model(blank)
        tagged, tagging = compile_tagged(model)
        naming = {k for k, st in enumerate(self.spec.ast.statements) if _names(st, self.clue_names)}
        if not self.clues:
            naming |= self.room_reading
        keep = tuple(c for c, t in zip(tagged.constraints, tagging.tags) if t is None or t[0] not in naming)
        relaxed = replace(tagged, constraints=keep, objective=None)
        entries = [(d, lits) for d in relaxed.decisions for _, lits in d.cells]
        empty = next((d.name for d, lits in entries if not lits), None)
        if empty is not None:
            raise GenerateError(f"{self.spec.path}: the decision {empty!r} takes its values from the clues, so a "
                                "blank map gives it none to draw an answer from; generate cannot make this genre")
        engine = get_backend("cpsat")
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
                raise GenerateError(f"a blank {self.rows}x{self.cols} map of {self.spec.path} has no answer, "
                                    "even with the rules about clues left out")
            fixed //= 2
        raise GenerateTimeUp(f"the time ran out while drawing an answer ({self.deadline.cause()})")

    # step 2 ------------------------------------------------------------------
    def clue_all(self, answer) -> list[str]:
        """Every cell given the first clue (random order) under which ``answer`` breaks no statement more often."""
        grid = [[self.blank] * self.cols for _ in range(self.rows)]

        def broken(rows: list[list[str]]) -> dict[int, int]:
            return self.broken(["".join(r) for r in rows], answer)

        now = broken(grid)
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        self.rng.shuffle(cells)
        for r, c in cells:
            if self.deadline.expired():
                raise GenerateTimeUp(f"the time ran out while placing clues ({self.deadline.cause()})")
            options = [ch for _, chars in self.clues for ch in chars]
            self.rng.shuffle(options)
            for ch in options:
                grid[r][c] = ch
                try:
                    after = broken(grid)
                except GridlangError:
                    after = None
                if after is not None and all(after.get(k, 0) <= now.get(k, 0) for k in after):
                    now = after
                    break
                grid[r][c] = self.blank
        return ["".join(r) for r in grid]

    def broken(self, grid: list[str], answer) -> dict[int, int]:
        """How often ``answer`` breaks each statement on this map (the spec's interpreter, counting)."""

        data = self.data(grid)
        interp = _counting()(self.spec.ast, self.spec.symbols, build_grid(self.spec.symbols, data),
                             resolve_params(self.spec.symbols, data, None))
        given = {name: ({k: v for k, v in values.items() if k in interp.on[name]} if name in interp.on else values)
                 for name, values in answer.items()}
        interp.evaluate(given)
        return interp.broken

    def draw_rooms(self, grid: list[str], answer) -> list[str]:
        """Rooms grown by merging: from one room per cell, side-neighbouring rooms (in a random order,
        pass after pass) are joined whenever ``answer`` breaks no statement more often after."""
        n = self.rows * self.cols
        room = list(range(n))
        self.rooms = room_layer(room, self.rows, self.cols)
        now = self.broken(grid, answer)
        pairs = [(i, j) for i in range(n) for j in _sides(i, self.rows, self.cols) if i < j]
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

    def dig_by_oracle(self, grid: list[str]) -> list[str] | None:
        """Step 4 on the incremental SAT oracle of :mod:`gridlang.why.oracle`, when a clue is exactly
        its rule instances: None when the spec's decisions depend on where the clues are (Nurikabe's
        are made on blank cells only) or a rule naming a clue tile is not about one clue cell.

        Each clue's instances have a selector; the map's answer ``A`` is blocked by one clause
        under a flag; a clue goes when the other clues' instances, the rules and "not ``A``" are
        unsatisfiable (then ``A`` is still the only answer). One call per clue, milliseconds each,
        where a full solve of the map is tenths of a second. Taking a constraint away only adds
        answers, so one pass leaves no clue that could go.
        """

        full = self.model(grid)
        blank = self.model([self.blank * self.cols] * self.rows)
        if [(d.name, [k for k, _ in d.cells]) for d in full.decisions] != \
                [(d.name, [k for k, _ in d.cells]) for d in blank.decisions]:
            return None
        clue_cells = {r * self.cols + c for r in range(self.rows) for c in range(self.cols) if grid[r][c] != self.blank}
        naming = {k for k, st in enumerate(self.spec.ast.statements) if _names(st, self.clue_names)}
        tagged, tagging = compile_tagged(full)
        of_cell: dict[int, list] = {}
        oracle = Oracle(tagged, tagging, self.deadline)
        rules = []
        for g in oracle.groups:
            if g[0] not in naming:
                rules.append(g)
                continue
            cells = {value for _, kind, value in g[1] if kind == "cell"}
            if len(cells) != 1 or not cells <= clue_cells:
                return None
            of_cell.setdefault(cells.pop(), []).append(g)
        first = oracle.check(oracle.groups)
        if first.status != "sat":
            return None
        block = []
        for d in tagged.decisions:
            for _, lits in d.cells:
                if len(lits) == 1:
                    lit = lits[0][1]
                    block.append(-lit if first.assignment.holds(lit) else lit)
                else:
                    block.extend(-lit for _, lit in lits if first.assignment.holds(lit))
        flag = oracle.new_var()
        oracle.add_clause([-flag] + block)
        kept = set(of_cell)
        order = sorted(of_cell)
        self.rng.shuffle(order)
        for cell in order:
            groups = rules + [g for c in sorted(kept - {cell}) for g in of_cell[c]]
            r = oracle.check(groups, [flag])
            if r.status == "unsat":
                kept.discard(cell)
            elif r.status != "sat":
                return None
        return ["".join(ch if r * self.cols + c in kept or ch == self.blank else self.blank
                        for c, ch in enumerate(row)) for r, row in enumerate(grid)]

    # steps 4 and 5 ------------------------------------------------------------
    def dig(self, grid: list[str], backend: str) -> list[str]:
        """Clues taken away while the answer stays unique, until none can go (proved by ``backend``)."""
        grid = list(grid)
        while True:
            clues = [(r, c) for r in range(self.rows) for c in range(self.cols) if grid[r][c] != self.blank]
            self.rng.shuffle(clues)
            gone = 0
            for r, c in clues:
                trial = list(grid)
                trial[r] = trial[r][:c] + self.blank + trial[r][c + 1:]
                if self.unique(trial, backend):
                    grid, gone = trial, gone + 1
            if not gone:
                return grid


def _counting():

    class Counting(Interpreter):
        """The spec's interpreter, counting the violations of each statement (by its place) instead of
        writing them out: step 2 asks only whether a count grew."""

        def evaluate(self, decisions):
            self.broken: dict[int, int] = {}
            return super().evaluate(decisions)

        def fail(self, reason: str, cells=()) -> None:
            key = id(self.stmt)
            self.broken[key] = self.broken.get(key, 0) + 1

    return Counting


def _names(node, names: set[str]) -> bool:
    """Whether an AST node names one of ``names`` anywhere inside it."""
    return _any(node, lambda n: isinstance(n, ast.Name) and n.id in names)


def reads_rooms(node) -> bool:
    """Whether an AST node reads the map's rooms (``for each room``, ``room(p)``)."""
    return _any(node, lambda n: isinstance(n, ast.Family) and n.kind == "rooms"
                or isinstance(n, ast.LineOf) and n.kind == "room")


def _any(node, test) -> bool:
    """Whether ``test`` holds of an AST node or of any node inside it."""
    if test(node):
        return True
    if isinstance(node, (list, tuple)):
        return any(_any(x, test) for x in node)
    if isinstance(node, type):
        return False
    return any(_any(getattr(node, name), test) for name in field_names(node) if not name.endswith("span"))


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
    maker = _Maker(spec, rows, cols, text_params, backend, check_backend or other_backend(backend),
                   random.Random(seed), deadline)
    blank = [maker.blank * cols] * rows
    if any(isinstance(st, ast.Objective) for st in spec.ast.statements):
        return _terrain(maker, seed, start)
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
        grid = maker.dig_by_oracle(full) or maker.dig(full, backend)
        if not maker.unique(grid, checker):
            raise GenerateError(f"{checker} does not find the generated map unique (seed {seed})")
        grid = maker.dig(grid, checker)  # nothing goes unless the two backends disagree
        clues = sum(ch != maker.blank for row in grid for ch in row)
    else:
        grid = full
        if not maker.unique(grid, checker):
            raise GenerateError(f"{checker} does not find the generated map unique (seed {seed})")
        clues = _room_count(maker.rooms)
    url = None
    if engine_of(spec.ast) is not None:
        # imported on use, not at start-up
        from gridlang.formats.puzzlink import encode

        url = encode(spec.ast, maker.data(grid), text_params)
    return Generated(map_text(grid, text_params, maker.rooms), url, seed, clues, time.perf_counter() - start,
                     checker, tries, grid)


def _terrain(maker: _Maker, seed: int, start: float) -> Generated:
    """A map for a spec with an objective: random terrain and parameters, drawn until the optimum is
    unique, uses at least one decision, and the second backend finds the same optimum, unique."""
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import encode, engine_of

    spec, rng = maker.spec, maker.rng
    tiles = spec.symbols.tiles
    order = [(name, ch) for name, chars in maker.clues for ch in chars[:1]]
    counted = [(name, ch) for name, ch in order if tiles[name].count and tiles[name].count[0] == "=="]
    rest = [(name, ch) for name, ch in order if (name, ch) not in counted]
    free = {name: p for name, p in spec.symbols.params.items() if p.default is None and p.type == "int"}
    tries = 0
    while not maker.deadline.expired():
        tries += 1
        cells = [maker.blank] * (maker.rows * maker.cols)
        for i in range(len(cells)):
            x = rng.random()
            for k, (_, ch) in enumerate(rest):
                share = TERRAIN if k == 0 else EXTRAS
                if x < share:
                    cells[i] = ch
                    break
                x -= share
        open_cells = [i for i, ch in enumerate(cells) if ch == maker.blank]
        for name, ch in counted:
            for i in rng.sample(open_cells, min(tiles[name].count[1], len(open_cells))):
                cells[i] = ch
                open_cells.remove(i)
        for name in free:
            maker.params[name] = str(rng.randint(1, maker.rows + maker.cols))
        grid = ["".join(cells[r * maker.cols:(r + 1) * maker.cols]) for r in range(maker.rows)]
        try:
            model = maker.model(grid)
        except GridlangError:
            continue
        first = solve_model(model, maker.backend, SolveOptions(deadline=maker.deadline), unique=True)
        if first.unique is not True or not any(v for d in first.solution.decisions.values() for v in d.values()):
            continue
        check = solve_model(model, maker.check_backend, SolveOptions(deadline=maker.deadline), unique=True)
        if check.unique is not True or check.result.objective != first.result.objective:
            continue
        url = encode(spec.ast, maker.data(grid), maker.params) if engine_of(spec.ast) is not None else None
        return Generated(map_text(grid, maker.params), url, seed, 0, time.perf_counter() - start,
                         maker.check_backend, tries, grid, first.result.objective)
    raise GenerateTimeUp(f"the time ran out before a map with a unique optimum was drawn ({maker.deadline.cause()})")


def _room_count(layer: list[str]) -> int:
    """The rooms of a ``rooms:`` layer (connected groups of one letter)."""

    cols = len(layer[0])
    flat = "".join(layer)
    return max(flood_rooms(len(layer), cols, lambda u, v: flat[u] == flat[v])) + 1
