"""Forced cells, explanations and hints as text, JSON and pictures.

Text names cells ``row R, column C`` from 1; JSON gives ``[r, c]`` from 0
and keeps the shape of ``decisions`` (``[[key, value], ...]`` per
decision), except that a Boolean entry decided false is listed too, with
the value 0 (``decisions`` lists only the true ones, but a step that
decides a cell is empty must say so).

The answer a hint sequence reaches in full is drawn as ``solve`` draws it. A
partial answer (the forced cells, the cells known after some steps) is
drawn as a grid of one token per cell: the map's character where nothing is
decided, ``#`` for a Boolean decision that holds, the value of an
enumeration, and ``?`` for a cell still open. Decisions on edges are drawn
by the puzzle's renderer, the open edges listed below.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gridlang.ir.model import Model
from gridlang.ir.solution import Solution
from gridlang.pictures.canvas import Canvas
from gridlang.why.backbone import Forced
from gridlang.why.instances import Entry, entry_text, is_clue, where
from gridlang.why.mus import Explanation

if TYPE_CHECKING:  # the hints' modules (and NumPy) are imported by what draws hints, not by --forced
    from gridlang.why.hints import Hints, Step

OPEN = "?"
"""The token of an open (or unknown) cell."""


# ---------------------------------------------------------------- JSON

def values_json(model: Model, pairs: Iterable[tuple[Entry, object]]) -> dict[str, list]:
    """Entries with values in the shape of ``decisions``: name -> ``[[key, value], ...]``
    (a Boolean's True as 1, its False as 0), sorted."""
    out: dict[str, list] = {}
    for e, v in pairs:
        out.setdefault(e.decision, []).append([where(model, e.key), int(v) if isinstance(v, bool) else v])
    return {name: sorted(items, key=lambda kv: kv[0]) for name, items in out.items()}


def keys_json(model: Model, ents: Iterable[Entry]) -> list:
    """Entries' keys (``[r, c]``, or ``[[r1, c1], [r2, c2]]``), each once: cells first, then edges, each sorted."""
    keys = {repr(where(model, e.key)): where(model, e.key) for e in ents}
    return sorted(keys.values(), key=lambda k: (isinstance(k[0], list), k))


def forced_json(model: Model, forced: Forced) -> dict:
    """``forced`` (the shape of ``decisions``), ``open`` and ``unknown`` (keys), ``forced_complete``."""
    return {"forced": values_json(model, forced.forced) if forced.complete else None,
            "open": keys_json(model, forced.open),
            "unknown": keys_json(model, forced.unknown),
            "forced_complete": forced.complete}


def explanation_json(explanation: Explanation | None) -> list | None:
    """``explanation``: one object per rule instance (``file``, ``line``, ``col``, ``rule``, ``cells``, ...)."""
    return None if explanation is None else [i.to_json() for i in explanation.instances]


def step_json(model: Model, step: Step) -> dict:
    """One step: ``decides``, ``rules``, ``cells`` (the known cells used), ``known`` (the known
    entries used, the shape of ``decisions``), ``cost``, ``difficulty``, ``search``, ``minimal`` and
    ``cheapest`` (no step of fewer rule instances exists; false: not proved; null: not searched)."""
    # imported on use, not at start-up (the grade needs the hints' modules, and NumPy)
    from gridlang.why.grade import step_cost

    return {"decides": values_json(model, step.decides),
            "rules": [i.to_json() for i in step.instances],
            "cells": sorted({tuple(where(model, e.key)) for e, _ in step.known if e.kind == "cells"}),
            "known": values_json(model, step.known),
            "cost": list(step.cost),
            "difficulty": step_cost(step),
            "search": step.search,
            "minimal": step.minimal,
            "cheapest": step.cheapest}


def hints_json(model: Model, hints: Hints) -> dict:
    """``steps``, ``complete``, ``open``, ``unknown``, ``reason`` (why no step was searched, or
    null), ``gave_up`` (the search's calls could not settle the unknown entries), the grade
    (``difficulty``, ``level``, ``hardest_step``, ``difficulty_complete``, ``hardest_cost`` and
    ``depth``: :mod:`gridlang.why.grade`; null without a step) and the run's figures."""
    # imported on use, not at start-up (the grade needs the hints' modules, and NumPy)
    from gridlang.why.grade import grade

    steps = [step_json(model, s) for s in hints.steps]
    for s in steps:
        s["cells"] = [list(c) for c in s["cells"]]
    graded = grade(hints)
    return {"steps": steps, "complete": hints.complete, "open": keys_json(model, hints.open),
            "unknown": keys_json(model, hints.unknown), "reason": hints.reason, "gave_up": hints.gave_up,
            **(graded.to_json() if graded is not None else
               {"difficulty": None, "level": None, "hardest_step": None, "difficulty_complete": False,
                "hardest_cost": None, "depth": None}),
            "hint_stats": {"steps": len(hints.steps), "solver_calls": hints.calls,
                           "seconds": round(hints.seconds, 4)}}


# ---------------------------------------------------------------- text

def state_text(model: Model, known: Iterable[tuple[Entry, object]], unsettled: Iterable[Entry],
               render=None) -> str:
    """A partial answer as text (see the module docstring).

    Args:
        model: the model.
        known: entries with their values.
        unsettled: entries drawn as open.
        render: ``render(model, solution)``, the puzzle's drawing of an
            answer, for decisions on edges.
    """
    known = list(known)
    unsettled = list(unsettled)
    grid = model.grid
    if any(e.kind != "cells" for e, _ in known) or any(e.kind != "cells" for e in unsettled):
        text = render(model, partial_solution(model, known)) if render is not None else ""
        return text
    tokens = [str(ch) for ch in grid.chars]
    for e, v in known:
        if e.boolean:
            if v:
                tokens[e.key] = "#"
        else:
            tokens[e.key] = _label(v)
    for e in unsettled:
        tokens[e.key] = OPEN
    width = max(len(t) for t in tokens)
    sep = " " if width > 1 else ""
    return "\n".join(sep.join(tokens[r * grid.cols + c].rjust(width) for c in range(grid.cols))
                     for r in range(grid.rows))


def _label(v: object) -> str:
    text = str(v)
    return text if len(text) <= 2 else text[0]


def partial_solution(model: Model, known: Iterable[tuple[Entry, object]]) -> Solution:
    """A :class:`~gridlang.ir.solution.Solution` of the known entries only (no regions)."""
    decisions: dict[str, dict] = {d.name: {} for d in model.decisions}
    for e, v in known:
        if e.boolean and not v:
            continue
        decisions[e.decision][e.key] = v
    return Solution(decisions, {})


def forced_text(model: Model, forced: Forced, render=None) -> str:
    """The forced cells drawn, the open ones marked, and a sentence of figures."""
    lines = []
    if forced.reason is not None:
        return f"forced: not computed: {forced.reason}"
    drawn = state_text(model, forced.forced, list(forced.open) + list(forced.unknown), render)
    if drawn:
        lines += [drawn, ""]
    every = [e for e, _ in forced.forced] + list(forced.open) + list(forced.unknown)
    if forced.complete:
        lines.append(f"forced: {len(forced.forced)} of the {len(every)} {_noun(every)} hold the same value in every "
                     f"{'optimal ' if model.objective is not None else ''}answer"
                     f"{'; the answer is unique' if not forced.open else ''}")
    elif forced.unsized:
        lines.append(f"forced: not settled; {len(forced.unsized)} {_noun(forced.unsized)} hold a size from "
                     f"{min(d.open_value for d in model.decisions if d.open_value is not None)} up in every answer, "
                     f"not proved one size (marked {OPEN})")
    else:
        lines.append(f"forced: not settled; the time ran out with {len(forced.unknown)} {_noun(forced.unknown)} "
                     f"neither proved forced nor seen to change (marked {OPEN})")
    if forced.open:
        lines.append(f"open ({len(forced.open)}, marked {OPEN}): " + _names(model, forced.open))
    lines.append(f"forced cells: {forced.solves} more solve{'s' if forced.solves != 1 else ''}, "
                 f"{forced.seconds:.2f} s")
    return "\n".join(lines)


def _noun(ents: list[Entry]) -> str:
    """``cells``, ``edges`` or ``cells and edges``: what the entries are."""
    kinds = {"cells" if e.kind == "cells" else "edges" for e in ents}
    return " and ".join(sorted(kinds)) or "cells"


def _names(model: Model, ents: Iterable[Entry], limit: int = 12) -> str:
    names = []
    for e in ents:
        if isinstance(e.key, tuple):
            (r1, c1), (r2, c2) = e.key
            names.append(f"{e.decision} from row {r1 + 1}, column {c1 + 1} to row {r2 + 1}, column {c2 + 1}")
        else:
            names.append(model.grid.cell_name(e.key))
    names = list(dict.fromkeys(names))
    more = f"; and {len(names) - limit} more" if len(names) > limit else ""
    return "; ".join(names[:limit]) + more


def explanation_text(explanation: Explanation | None) -> str:
    """The instances, one per line, under a sentence saying what they are."""
    if explanation is None:
        return "explain: every rule instance together still has an answer, or the time ran out first"
    n = len(explanation.instances)
    head = (f"explanation: these {n} rule instances cannot hold together" if n != 1 else
            "explanation: this rule instance cannot hold")
    head += ((" (dropping any one of them leaves an answer):" if n != 1 else " (without it there is an answer):")
             if explanation.minimal else
             " (the time ran out before the set was shown minimal: some may be spare):")
    return "\n".join([head] + ["  " + i.text() for i in explanation.instances])


def step_text(model: Model, k: int, step: Step) -> str:
    """``step K (R rules, C known): DECIDES``, then its rules and known entries; a step whose
    shrinking ran out of time or conflicts, or not proved to need the fewest rules, says so in the
    brackets."""
    rules, cells = step.cost
    decides = "; ".join(entry_text(model, e, v) for e, v in step.decides)
    spare = "" if step.minimal else "; not shown minimal: some may be spare"
    spare += "; fewer rules not ruled out" if step.cheapest is False else ""
    lines = [f"step {k} ({rules} rule{'s' if rules != 1 else ''}, {cells} known{spare}): {decides}"]
    for i, inst in enumerate(step.instances):
        lines.append(("  by " if i == 0 else "     ") + inst.text())
    if not step.instances:
        lines.append("  by the decisions' domains alone")
    if step.known:
        lines.append("  with " + "; ".join(entry_text(model, e, v) for e, v in step.known))
    return "\n".join(lines)


def hints_text(model: Model, hints: Hints, render=None, answer: Solution | None = None) -> str:
    """Every step, then the state reached and a sentence of figures; the reason alone when no
    step was searched (an optimum not proved).

    Args:
        model, hints: the model and its steps.
        render: ``render(model, solution)``, the puzzle's drawing of an answer (as ``solve``
            prints it).
        answer: the answer explained: when the steps reach all of it, it is drawn by ``render``,
            as ``solve`` draws it; else the state reached is drawn with its open cells marked.
    """
    # imported on use, not at start-up (the grade needs the hints' modules, and NumPy)
    from gridlang.why.grade import depth_text, grade, levels_text

    if hints.reason is not None:
        return f"hints: not computed: {hints.reason}"
    lines = [step_text(model, k, s) for k, s in enumerate(hints.steps, start=1)]
    known = [pair for s in hints.steps for pair in s.decides]
    if hints.complete and answer is not None and render is not None:
        drawn = render(model, answer)
    else:
        drawn = state_text(model, known, list(hints.open) + list(hints.unknown), render)
    if drawn:
        lines += ["", drawn]
    lines.append("")
    n = len(hints.steps)
    if hints.complete:
        lines.append(f"solved in {n} step{'s' if n != 1 else ''}, each checked: its cells follow from its rules "
                     f"and known cells alone")
    elif hints.unknown:
        why = "; no solver call of the search settled them within its conflicts" if hints.gave_up else ""
        lines.append(f"stopped after {n} steps: {len(hints.unknown)} entries left undecided (marked {OPEN}){why}")
    if hints.open:
        lines.append(f"open ({len(hints.open)}, marked {OPEN}): no step decides them, for they differ between "
                     f"answers: " + _names(model, hints.open))
    graded = grade(hints)
    if graded is not None:
        hardest = hints.steps[graded.hardest - 1]
        rules, known = hardest.cost
        lines.append(f"difficulty {graded.difficulty:g}{'' if graded.complete else ' at least'}: "
                     f"{graded.level} (step {graded.hardest}, {rules} rule{'s' if rules != 1 else ''} and "
                     f"{known} known, is the hardest; {depth_text(graded.depth)}; {levels_text()})"
                     + ("; graded from the best score on, which the steps take as proved: finding it is "
                        "not graded" if model.objective is not None else ""))
    lines.append(f"hints: {hints.calls} solver calls, {hints.seconds:.2f} s")
    return "\n".join(lines)


# ---------------------------------------------------------------- pictures

HIGHLIGHT = {"decides": "#f28e2b", "rule": "#1f77b4", "clue": "#9467bd", "known": "#2ca02c", "open": "#7f7f7f"}
"""The colours of what a picture highlights."""


def forced_picture(model: Model, forced: Forced, cell: int = 32) -> Canvas:
    """The forced cells drawn as an answer, the open (and unknown) ones greyed with a ``?``."""
    # imported on use, not at start-up
    from gridlang.pictures.draw import picture

    canvas = picture(model, partial_solution(model, forced.forced), cell)
    _over_cells(canvas, model, cell, list(forced.open) + list(forced.unknown), "open")
    return canvas


def step_picture(model: Model, hints: Hints, k: int, cell: int = 32) -> Canvas:
    """Step ``k`` (from 1), drawn in the genre's look (:func:`gridlang.pictures.draw.picture`): the
    cells known before it and those it decides drawn as the answer has them; what it uses outlined
    (its rules' cells in blue, class ``uses rule``; the clues its rules name, ringed in purple,
    class ``uses clue``; its known cells in green, class ``known``) and what it decides filled in
    orange (class ``decides``): one mark per cell, each a ``rect`` or ``ellipse`` of that class."""
    # imported on use, not at start-up
    from gridlang.pictures.draw import picture

    step = hints.steps[k - 1]
    before = [pair for s in hints.steps[:k - 1] for pair in s.decides]
    canvas = picture(model, partial_solution(model, before + list(step.decides)), cell)
    pad, cols = _pad(canvas, model, cell), model.grid.cols
    rule_cells = sorted({r * cols + c for inst in step.instances for r, c in inst.cells})
    with canvas.group("why rule-cells"):
        for i in rule_cells:
            x, y = pad + (i % cols) * cell, pad + (i // cols) * cell
            canvas.rect(x + 1.5, y + 1.5, cell - 3, cell - 3, stroke=HIGHLIGHT["rule"],
                        width=max(1.0, 0.08 * cell), cls="uses rule")
    clue_cells = sorted({c for inst in step.instances for _name, kind, c in inst.tag[1]
                         if kind == "cell" and is_clue(model, c)})
    with canvas.group("why clue-cells"):
        for i in clue_cells:
            x, y = pad + (i % cols) * cell, pad + (i // cols) * cell
            canvas.ellipse(x + cell / 2, y + cell / 2, 0.42 * cell, 0.42 * cell, stroke=HIGHLIGHT["clue"],
                           width=max(1.0, 0.08 * cell), cls="uses clue")
    _over_cells(canvas, model, cell, [e for e, _ in step.known], "known", outline=True)
    _over_cells(canvas, model, cell, [e for e, _ in step.decides], "decides")
    return canvas


def _pad(canvas: Canvas, model: Model, cell: int) -> int:
    return (canvas.width - model.grid.cols * cell) // 2


def _over_cells(canvas: Canvas, model: Model, cell: int, ents: list[Entry], what: str, outline: bool = False) -> None:
    """One mark per entry: a cell filled (or outlined) in the colour of ``what``, an open cell with a
    ``?`` on it; an edge as a thick segment."""
    pad, cols = _pad(canvas, model, cell), model.grid.cols
    colour = HIGHLIGHT[what]
    cells = [(pad + (e.key % cols) * cell, pad + (e.key // cols) * cell) for e in ents if e.kind == "cells"]
    with canvas.group(f"why {what}", 1.0 if outline else 0.45):
        for x, y in cells:
            if outline:
                canvas.rect(x + 3, y + 3, cell - 6, cell - 6, stroke=colour, width=max(1.0, 0.08 * cell), cls=what)
            else:
                canvas.rect(x, y, cell, cell, fill=colour, cls=what)
        for e in ents:
            if e.kind != "cells":
                at = 0.5 if e.kind == "edges" else 0.0
                (r1, c1), (r2, c2) = e.key
                ends = [(pad + (c + at) * cell, pad + (r + at) * cell) for r, c in ((r1, c1), (r2, c2))]
                canvas.line(ends, colour, max(2.0, 0.25 * cell), cls=what)
    if what == "open" and cells:
        with canvas.group("why open-marks"):
            for x, y in cells:
                canvas.text(x + cell / 2, y + cell / 2, OPEN, 0.6 * cell, "#000000", cls="open")
