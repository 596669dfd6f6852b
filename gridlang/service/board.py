"""The board a front end shows before any solve, and a player's answer judged by the spec's rules.

:func:`board` compiles a spec against a map and draws the puzzle without an
answer, as ``gridlang solve --svg`` draws its map (:func:`gridlang.pictures.draw.picture`
with no solution), with what a page needs to lay its own controls over the
picture: the number of rows and columns, the side of a cell and the frame
around the grid in the picture's pixels, the decisions a player makes on the
cells (their values and the cells each is made on), and the puzzle as a
puzz.link URL when the spec declares a ``format puzzlink``
(:func:`gridlang.formats.puzzlink.encode`, the same writer as ``gridlang export
--format puzzlink``).

:func:`judge` is ``gridlang verify``'s path for an answer a person entered
cell by cell: the cells of a Boolean decision left unmarked are false (as
``solve --json`` lists only the true ones), and an enumeration's cells left
empty are named in a sentence before the spec-level verifier
(:mod:`gridlang.interpreter`) reads the answer, since a rule cannot be
evaluated on a cell that has no value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gridlang.core.deadline import Deadline
from gridlang.core.errors import GridlangError, MapError, MultipleErrors, ParamError
from gridlang.core.grid import cell_names
from gridlang.formats.maps import MapData, build_grid
from gridlang.formats.params import resolve_params
from gridlang.interpreter import evaluate
from gridlang.ir.model import Clause, GraphConnected, Model
from gridlang.solving.pipeline import load_checked
from gridlang.solving.spec import Spec

__all__ = ["FILES", "Board", "Judgement", "board", "files_of", "fixed_entries", "judge"]


@dataclass
class Board:
    """A puzzle drawn before any solve (:func:`board`).

    Attributes:
        svg: the puzzle as ``gridlang solve --svg`` draws its map, no answer on it.
        rows: rows of cells in the grid (an outside frame of clues included).
        cols: columns of cells.
        cell: the side of a cell in the picture, pixels.
        pad: the frame between the picture's edge and the grid, pixels (the
            cell in row ``r``, column ``c`` spans ``pad + c * cell`` to
            ``pad + (c + 1) * cell`` across, counted from 0).
        width: the picture's width, pixels.
        height: the picture's height, pixels.
        decisions: each decision made on cells, in the spec's order:
            ``{"name", "values", "range", "boolean", "cells": [[row, col], ...],
            "fixed": [[[row, col], value], ...]}`` (``values`` in declaration
            order, ``[true]`` for a Boolean one; ``range`` ``[low, high]``
            when every whole number from ``low`` to ``high`` is a value too,
            else None: a decision with an open value, whose blocks' sizes
            run up to the cells it is made on (Fillomino's ``1..(count(all))``
            is ``values`` ``[1, 2, 3]`` and ``range`` ``[4, 2500]`` on a
            50x50 board, not 2,500 values listed); ``fixed`` the entries the
            puzzle itself settles, such as Sudoku's givens: a unit clause of
            the compiled model).
        lattice: the names of the decisions made on edges or corners.
        lines: each decision made on edges, in the spec's order: ``{"name",
            "values", "boolean", "kind", "edges": [[[r1, c1], [r2, c2]], ...]}``
            (``kind`` ``"edges"`` between the centres of side-neighbouring
            cells, or ``"corners"`` along the cells' sides, the ends then
            corners of the ``(rows + 1) x (cols + 1)`` lattice; the smaller
            end first).
        outside: the cells of the outside frame of clues (pzprjs's excells,
            drawn with no box), as ``[row, col]``.
        frame: the characters of the tiles drawn as the frame's empty cells
            (``draw T as frame``), the first of each tile.
        url: the puzzle as a puzz.link URL, or None.
        url_error: why there is no URL (the spec declares no format, or the
            format cannot write this map), or None.
        problem: why the puzzle cannot be solved or played yet (a tile's count
            not met, a parameter without a value), the located message; the
            board is then its map alone, with no decision. None when it reads.
        no_answer: the map reads, and ``problem`` is a rule of the spec that
            fails whatever the decisions: the puzzle has no answer.
        files: the model files that can be written for another solver
            (:func:`files_of`), empty while the puzzle does not read.
    """

    svg: str
    rows: int
    cols: int
    cell: int
    pad: float
    width: float
    height: float
    decisions: list[dict[str, Any]] = field(default_factory=list)
    lattice: list[str] = field(default_factory=list)
    url: str | None = None
    url_error: str | None = None
    problem: str | None = None
    no_answer: bool = False
    files: list[str] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    outside: list[list[int]] = field(default_factory=list)
    frame: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The board as JSON: every attribute by its name."""
        return {
            "svg": self.svg,
            "rows": self.rows,
            "cols": self.cols,
            "cell": self.cell,
            "pad": self.pad,
            "width": self.width,
            "height": self.height,
            "decisions": self.decisions,
            "lattice": self.lattice,
            "url": self.url,
            "url_error": self.url_error,
            "problem": self.problem,
            "no_answer": self.no_answer,
            "files": self.files,
            "lines": self.lines,
            "outside": self.outside,
            "frame": self.frame,
        }


def board(
    spec: Spec,
    data: MapData,
    params: Mapping[str, str] | None = None,
    cell: int = 32,
    deadline: Deadline | None = None,
) -> Board:
    """Compile a map and draw it without an answer, with the geometry a page needs.

    Args:
        spec: the loaded spec.
        data: the map, read (:func:`gridlang.service.solve.read`, or a URL's map).
        params: parameter values as text (``{"budget": "12"}``).
        cell: the side of a cell in the picture, pixels (4 or more).
        deadline: the caller's deadline, read while compiling.

    Returns:
        The :class:`Board`. A map that does not read yet as a puzzle (a
        tile's count not met, a parameter without a value) is drawn as its
        map alone, with ``problem`` saying why: a setter clicks its board to
        finish it. A map that reads but whose rules fail whatever the
        decisions (a Nurikabe clue larger than the board) is drawn so too,
        with ``no_answer`` set.

    Raises:
        GridlangError: a character that is no tile of the spec, or another
            problem of the spec and map, located.
        BuildTimeout: the deadline passed while compiling.
    """
    # imported on use, not at start-up
    from gridlang.language.looks import of_model
    from gridlang.pictures.draw import picture

    problem, no_answer = None, False
    try:
        model, _ = load_checked(
            spec.ast, spec.symbols, data, dict(params or {}), deadline
        )
    except (MapError, ParamError, MultipleErrors) as e:
        model, problem = _unfinished(spec, data), e.render()
        no_answer = _reads(
            spec, data, params
        )  # then the compiler found a rule that cannot hold
    canvas = picture(model, None, cell)
    grid = model.grid
    looks = of_model(model)
    frame = [
        t.chars[0].first
        for name, t in spec.symbols.tiles.items()
        if looks.tiles.get(name) == "frame" and t.chars
    ]
    url, url_error = (
        _url(spec, data, params)
        if problem is None
        else (None, "the puzzle does not read yet")
    )
    return Board(
        canvas.to_svg(),
        grid.rows,
        grid.cols,
        cell,
        (canvas.width - grid.cols * cell) / 2,
        canvas.width,
        canvas.height,
        _decisions(model),
        [d.name for d in model.decisions if d.kind != "cells"],
        url,
        url_error,
        problem,
        no_answer,
        [] if problem is not None else files_of(model),
        _lines(model),
        [list(grid.cell(i)) for i in sorted(looks.outside(grid))],
        frame,
    )


def _reads(spec: Spec, data: MapData, params: Mapping[str, str] | None) -> bool:
    """Whether a map reads as a puzzle of the spec: its grid with every count, and every parameter."""
    try:
        build_grid(spec.symbols, data)
        resolve_params(spec.symbols, data, dict(params or {}))
    except GridlangError:
        return False
    return True


def _unfinished(spec: Spec, data: MapData) -> Model:
    """A model of a map being set that does not read yet (a tile's count not met, as a horse not placed,
    or a parameter without a value), to draw: its grid with no count checked, no variable, no rule.

    Raises:
        GridlangError: a character that is no tile of the spec, located.
    """
    grid = build_grid(spec.symbols, data, counts=False)
    defaults = {
        name: p.default
        for name, p in spec.symbols.params.items()
        if p.default is not None
    }
    name = spec.ast.puzzle.name if spec.ast.puzzle else ""
    return Model(
        name,
        grid,
        (),
        (),
        None,
        params=defaults,
        info={"map": data.path or ""},
        source=(spec.ast, spec.symbols),
    )


def _decisions(model: Model) -> list[dict[str, Any]]:
    """The decisions made on cells, with their values, cells and the entries the puzzle fixes, as JSON."""
    fixed = fixed_entries(model)
    out = []
    for d in model.decisions:
        if d.kind != "cells":
            continue
        boolean = tuple(d.values) == (True,)
        cells = [list(model.grid.cell(index)) for index, _ in d.cells]
        settled = [
            [list(model.grid.cell(index)), value]
            for index, value in sorted(fixed.get(d.name, {}).items())
        ]
        out.append(
            {
                "name": d.name,
                "values": [v for v in d.values if v != d.open_value],
                "range": None if d.open_value is None else [d.open_value, len(d.cells)],
                "boolean": boolean,
                "cells": cells,
                "fixed": settled,
            }
        )
    return out


def _lines(model: Model) -> list[dict[str, Any]]:
    """The decisions made on edges, with their values and edges, as JSON."""
    return [
        {
            "name": d.name,
            "values": list(d.values),
            "boolean": tuple(d.values) == (True,),
            "kind": d.kind,
            "edges": [[list(a), list(b)] for (a, b), _ in d.cells],
        }
        for d in model.decisions
        if d.kind != "cells"
    ]


FILES = ("lp", "mps", "wcnf", "asp")
"""The model files ``gridlang export`` writes for another solver, as the page names them."""


def files_of(model: Model) -> list[str]:
    """The model files of :data:`FILES` that can be written for ``model``: all of them, but LP, MPS
    and WCNF only when no rule is a connectivity through chosen edges (a loop or line is connected:
    the MILP and MaxSAT backends lower it by lazy cuts alone, which a file cannot hold; ``gridlang
    export`` refuses it in a sentence); clingo's program holds it."""
    lazy_only = any(isinstance(c, GraphConnected) for c in model.constraints)
    return [f for f in FILES if not (lazy_only and f != "asp")]


def fixed_entries(model: Model) -> dict[str, dict[int, object]]:
    """The entries of the decisions on cells that a unit clause of the model settles on a cell that
    holds a clue (a tile other than the blank ``'.'``), as Sudoku's givens are: decision name ->
    {cell index: value}; a Boolean entry settled false is listed with False. A unit clause on a blank
    cell is a deduction, not a given (the neighbours of a Nurikabe 1 are shaded), and stays
    playable."""
    chars = model.grid.chars
    units = {
        c.lits[0]
        for c in model.constraints
        if isinstance(c, Clause) and len(c.lits) == 1
    }
    out: dict[str, dict[int, object]] = {}
    for d in model.decisions:
        if d.kind != "cells":
            continue
        boolean = tuple(d.values) == (True,)
        for index, options in d.cells:
            if chars[index] == ".":
                continue
            for value, lit in options:
                if lit in units:
                    out.setdefault(d.name, {})[index] = value
                elif boolean and -lit in units:
                    out.setdefault(d.name, {})[index] = False
    return out


def _url(
    spec: Spec, data: MapData, params: Mapping[str, str] | None
) -> tuple[str | None, str | None]:
    """The map as a puzz.link URL, or the sentence saying why it has none."""
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import encode, engine_of

    if engine_of(spec.ast) is None:
        return None, "this spec declares no puzz.link format"
    try:
        return encode(spec.ast, data, dict(params or {})), None
    except GridlangError as e:
        return None, getattr(e, "message", str(e))


def _is_cell(where: object) -> bool:
    """Whether an answer's place is a cell, ``(r, c)`` of two whole numbers."""
    return (isinstance(where, (tuple, list)) and len(where) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in where))


def _listed(where: object) -> str:
    """An answer's place as the request wrote it (``[[0, 1], [0, 2]]``)."""
    return str(where).replace("(", "[").replace(")", "]")


def _truth(name: str, value: object) -> bool:
    """A Boolean decision's entry as the player gave it: true or 1 (marked), false or 0 (not), on a
    cell and on an edge alike.

    Raises:
        ParamError: any other value, naming the decision.
    """
    if value is True or value is False or (type(value) is int and value in (0, 1)):
        return bool(value)
    raise ParamError(f"{name!r} is true or false, not {value!r}")


def _edges(d: Any, given: Mapping[Any, object]) -> dict[tuple, object]:
    """A player's edges of a decision on edges, as the interpreter reads them: ``{(end, end): value}``,
    the smaller end first, a Boolean's undrawn edges left out and a number's as 0.

    Raises:
        ParamError: an entry that is not an edge, an edge the decision is not made on, or a value
            outside its domain.
    """
    boolean = tuple(d.values) == (True,)
    edges = {edge for edge, _ in d.cells}
    chosen: dict[tuple, object] = {}
    for where, value in given.items():
        if len(where) != 2 or not all(_is_cell(end) for end in where):
            raise ParamError(f"{d.name!r} is made on edges: give an entry as [[r1, c1], [r2, c2]], "
                             f"not {_listed(where)}")
        a, b = (tuple(end) for end in where)
        edge = (min(a, b), max(a, b))
        if edge not in edges:
            raise ParamError(f"{d.name!r} is not made between {list(a)} and {list(b)}")
        if boolean and _truth(d.name, value):
            chosen[edge] = True
        elif not boolean and (isinstance(value, bool) or not d.takes(value)):
            raise ParamError(f"{d.name!r} takes {_domain(d)}, not {value!r}")
        elif not boolean:
            chosen[edge] = value
    if not boolean and 0 in d.values:
        for edge in edges:
            chosen.setdefault(edge, 0)
    return chosen


@dataclass
class Judgement:
    """What the spec's rules say of an answer a person entered (:func:`judge`).

    Attributes:
        ok: every rule holds and no cell is left empty.
        empty: the cells ``(row, col)`` of an enumeration left without a value
            (the rules were not evaluated when there are any).
        violations: each broken rule: ``{"line", "rule", "reason", "cells",
            "region", "borders", "corners", "lines"}`` (``line`` of the spec,
            from 1; ``rule`` the statement's text; ``reason`` one sentence;
            ``cells`` as ``[row, col]``; ``region`` the cells of the row,
            column or room it failed in; ``borders`` and ``corners`` those
            it failed at, as the interpreter's
            :class:`~gridlang.interpreter.verdict.Violation` gives them;
            for a loop rule, the dead ends and branches of its line as
            ``cells`` (a line between cell centres) or ``corners`` (a line
            along the cells' sides); ``lines`` the decisions on edges a rule
            located nowhere else speaks of).
        objective: the objective's value on the answer, or None.
    """

    ok: bool
    empty: list[tuple[int, int]] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)
    objective: int | None = None

    def text(self) -> str:
        """The judgement in words: right, the empty cells, or each broken rule with its line."""
        if self.empty:
            n = len(self.empty)
            return f"{n} cell{'s are' if n != 1 else ' is'} still empty: {cell_names(self.empty, 8)}"
        if (
            self.ok and self.objective is not None
        ):  # the rules hold; the best score is Solve's to prove
            return f"every rule of the puzzle holds: it scores {self.objective} (Solve finds the best score)"
        if self.ok:
            return "right: every rule of the puzzle holds"
        lines = [
            f"not right: {len(self.violations)} rule{'s are' if len(self.violations) != 1 else ' is'} broken"
        ]
        for v in self.violations:
            where = f"line {v['line']}: " if v["line"] else ""
            lines.append(
                f"{where}{v['rule']} ({v['reason']})"
                if v["reason"]
                else f"{where}{v['rule']}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "empty", "violations", "objective", "text"}``."""
        return {
            "ok": self.ok,
            "empty": [list(c) for c in self.empty],
            "violations": self.violations,
            "objective": self.objective,
            "text": self.text(),
        }


def judge(
    spec: Spec,
    data: MapData,
    answer: Mapping[str, Mapping[tuple[int, int], object]],
    params: Mapping[str, str] | None = None,
    deadline: Deadline | None = None,
) -> Judgement:
    """Judge an answer entered cell by cell by the spec's own rules (``gridlang verify``'s path).

    Args:
        spec: the loaded spec.
        data: the map.
        answer: decision name -> ``{(row, col): value}``; a Boolean decision
            needs only its true cells (a False is dropped), an enumeration a
            value on every cell it is made on but those the puzzle fixes
            (:func:`fixed_entries`: a given is taken as it stands). A decision
            on edges gives ``{((r1, c1), (r2, c2)): value}``, its two ends in
            either order: its drawn edges (an edge not given is not drawn, or
            0 for a number of bridges).
        params: parameter values as text.
        deadline: the caller's deadline, read while compiling.

    Returns:
        The :class:`Judgement`.

    Raises:
        GridlangError: a bad map or parameter, located.
        ParamError: a decision the spec does not make, a cell or edge it is
            not made on, or a value outside its domain, in a sentence naming it.
    """
    model, _ = load_checked(spec.ast, spec.symbols, data, dict(params or {}), deadline)
    grid = model.grid
    decisions: dict[str, dict[int, object]] = {}
    empty: list[tuple[int, int]] = []
    made = {d.name: d for d in model.decisions if d.kind == "cells"}
    lined = {d.name: d for d in model.decisions if d.kind != "cells"}
    fixed = fixed_entries(model)
    for name in answer:
        if name not in made and name not in lined:
            raise ParamError(
                f"the spec makes no decision {name!r} "
                f"(it makes: {', '.join([*made, *lined]) or 'none'})"
            )
    for name, d in lined.items():
        decisions[name] = _edges(d, answer.get(name, {}))
    for name, d in made.items():
        boolean = tuple(d.values) == (True,)
        on = {index for index, _ in d.cells}
        given = answer.get(name, {})
        chosen: dict[int, object] = {}
        for where, value in given.items():
            if not _is_cell(where):
                raise ParamError(f"{name!r} is made on cells: give an entry as [r, c], not {_listed(where)}")
            r, c = where
            if (
                not (0 <= r < grid.rows and 0 <= c < grid.cols)
                or grid.index(r, c) not in on
            ):
                raise ParamError(f"{name!r} is not made on row {r + 1}, column {c + 1}")
            if boolean:
                if _truth(name, value):
                    chosen[grid.index(r, c)] = True
            elif not d.takes(value):
                raise ParamError(f"{name!r} takes {_domain(d)}, not {value!r}")
            else:
                chosen[grid.index(r, c)] = value
        if not boolean:
            for index, value in fixed.get(name, {}).items():
                chosen.setdefault(
                    index, value
                )  # a given the player need not enter again
            empty += [grid.cell(index) for index in sorted(on - set(chosen))]
        decisions[name] = chosen
    if empty:
        return Judgement(False, sorted(empty))
    verdict = evaluate(spec.ast, spec.symbols, grid, model.params, decisions)
    broken = [_violation(v, lined) for v in verdict.violations]
    return Judgement(verdict.ok, [], broken, verdict.objective)


def _domain(d: Any) -> str:
    """A decision's values in words: ``1, 2, 3``, or ``1, 2, or a number from 3 to 36`` (an open value)."""
    if d.open_value is None:
        return ", ".join(map(str, d.values))
    rest = f"a number from {d.open_value} to {len(d.cells)}"
    return ", ".join([*(str(v) for v in d.values if v != d.open_value), f"or {rest}"]) if len(d.values) > 1 else rest


def _violation(v: Any, lined: Mapping[str, Any]) -> dict[str, Any]:
    """A broken rule as JSON, with the places a board outlines: its cells, the row, column or room it
    failed in, the borders and corners it binds or names (a loop's dead ends and branches, as the
    interpreter's ``line is a loop`` gives them); for a rule located by none of these, the decisions
    on edges its text speaks of (the line as a whole breaks it: two loops, or a line that is not
    connected)."""
    out = {
        "line": v.span.line if v.span is not None else None,
        "rule": v.rule_text,
        "name": v.name or None,
        "reason": v.reason,
        "cells": [list(c) for c in v.cells],
        "region": [list(c) for c in v.region],
        "borders": [[list(a), list(b)] for a, b in v.borders],
        "corners": [list(c) for c in v.corners],
        "lines": [],
    }
    if not (v.cells or v.region or v.borders or v.corners):
        out["lines"] = [name for name in lined if re.search(rf"\b{re.escape(name)}\b", v.rule_text)]
    return out
