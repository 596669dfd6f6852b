"""Maps of a spec with an objective (enclose.horse): random terrain until the optimum is unique."""

from __future__ import annotations

import time

from gridlang.core.errors import GridlangError
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import solve_model
from gridlang.why.generation.maker import Maker
from gridlang.why.generation.maps import map_text
from gridlang.why.generation.records import Generated, GenerateTimeUp

TERRAIN = 0.25
"""With an objective: the share of cells given the first tile declared after the blank one (water)."""

EXTRAS = 0.03
"""With an objective: the share of cells given each later tile (cherries, apples, bees)."""


def terrain(maker: Maker, seed: int, start: float) -> Generated:
    """A map for a spec with an objective: random terrain and parameters, drawn until the optimum is
    unique, uses at least one decision, and the second backend finds the same optimum, unique."""
    # imported on use, not at start-up (the puzz.link engine)
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

