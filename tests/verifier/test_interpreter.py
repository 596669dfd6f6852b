"""The spec-level verifier: a spec's rules evaluated on an answer, apart from the compiler.

Real maps first (solved answers hold, with the known optimum; corrupted ones
name the rule they break), then exhaustive agreement on tiny maps: every
answer judged by the interpreter and by the puzzle's published-rules
verifier, and the best of them compared with CP-SAT's optimum. Hand-made
specs pin each construct's meaning the same way, against the solver's own
enumeration of the answers.
"""

from __future__ import annotations

import ast as pyast
import itertools
import json
import random
import subprocess
import sys

import pytest
from horse_data import HORSE_DATA, REPO, SPECS, known_optimum, manifest
from snake_data import EXPECTED, INSTANCES
from snake_data import SPEC as SNAKE_SPEC

from gridlang.cli import main
from gridlang.core.errors import GridlangError
from gridlang.families import horse as horse_rules
from gridlang.families import snake_eggs as snake_rules
from gridlang.formats.maps import build_grid, read_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import Interpreter, Violation, evaluate
from gridlang.interpreter.graph import components, reached
from gridlang.ir.backend import SolveOptions, Status
from gridlang.ir.solution import Solution
from gridlang.language.checker import check
from gridlang.language.parser import parse_file
from gridlang.solving.answers import AnswerError, check_answer, read_answer
from gridlang.solving.pipeline import load, solve, solve_model

MAPS = REPO / "puzzles" / "maps"
ONE_WORKER = SolveOptions(workers=1)
FORBIDDEN = ("gridlang.compiler", "gridlang.ir.model", "gridlang.ir.connectivity", "gridlang.solving.pipeline", "gridlang.exporters")


def setup(spec_path, map_path, params: dict[str, str] | None = None):
    """Spec, symbols, grid and parameter values, read the way the CLI reads them."""
    spec = parse_file(spec_path)
    symbols = check(spec)
    data = read_map(map_path)
    grid = build_grid(symbols, data)
    return spec, symbols, grid, resolve_params(symbols, data, params)


def entry_of(name: str) -> dict:
    return next(e for e in manifest() if e["file"] == name)


def kind_answer(rows: list[str]) -> dict[str, dict[int, object]]:
    """A Snake Eggs answer from the data set's rows (``0`` snake, ``k`` an egg of size k)."""
    values = [v for row in rows for v in row.split()]
    return {"kind": {i: "snake" if v == "0" else int(v) for i, v in enumerate(values)}}


def lines_of(verdict) -> list[int]:
    return [v.span.line for v in verdict.violations]


# ----------------------------------------------------------------- independence

VERIFIER_FILES = sorted(str(p.relative_to(REPO)) for p in (REPO / "gridlang" / "interpreter").glob("*.py")) + [
    "gridlang/solving/answers.py"]


@pytest.mark.parametrize("path", VERIFIER_FILES)
def test_the_verifier_modules_import_nothing_of_the_compiler(path):
    package = path[:-3].replace("/", ".").split(".")[:-1]  # the module's package, e.g. gridlang.interpreter
    tree = pyast.parse((REPO / path).read_text(encoding="utf-8"))
    imported = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            imported.add(module)
            imported.update(f"{module}.{a.name}" for a in node.names)
        elif isinstance(node, pyast.Import):
            imported.update(a.name for a in node.names)
    assert not {m for m in imported if m.startswith(FORBIDDEN)}
    assert any(m.startswith("gridlang.") for m in imported)


def test_the_interpreter_reads_the_ast_and_no_compiled_model():
    imported = " ".join((REPO / path).read_text(encoding="utf-8") for path in VERIFIER_FILES)
    assert "from gridlang.language import ast" in imported and "from gridlang.core.errors import" in imported


def test_importing_the_verifier_loads_no_compiler_module():
    code = ("import sys, gridlang.solving.answers, gridlang.interpreter; "
            "print(sorted(m for m in sys.modules if m.startswith('gridlang')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)
    assert "gridlang.interpreter" in loaded
    assert not [m for m in loaded if m.startswith(FORBIDDEN)]


# ------------------------------------------------------------------ real maps

REAL = [
    ("standard", MAPS / "daily-2025-12-30.txt"),
    ("standard", MAPS / "daily-2026-01-07.txt"),
    ("standard", MAPS / "daily-2026-01-12.txt"),  # portals
    ("standard", MAPS / "daily-2026-06-11.txt"),
    ("costlywalls", MAPS / "bonus-2026-03-26-costlywalls.txt"),
    ("loversquarrel", MAPS / "bonus-2026-07-14-loversquarrel.txt"),
    ("lovebirds", HORSE_DATA / "bonus-2026-04-03-lovebirds.txt"),
]


@pytest.mark.parametrize("variant, path", REAL, ids=[p.name for _, p in REAL])
def test_an_optimal_answer_on_a_real_map_holds_and_scores_the_known_optimum(variant, path):
    entry = entry_of(path.name)
    params = {"budget": str(entry["budget"])}
    report = solve(SPECS[variant], path, params, "cpsat")
    assert report.result.status is Status.OPTIMAL
    assert report.result.objective == known_optimum(entry)
    verdict = evaluate(*setup(SPECS[variant], path, params), report.solution.decisions)
    assert verdict.violations == [] and verdict.ok
    assert verdict.objective == known_optimum(entry)
    enclosure = report.verdict.details["enclosure"]
    assert verdict.regions["pen"] == frozenset(enclosure["H"])
    if variant == "loversquarrel":
        assert verdict.regions["pen2"] == frozenset(enclosure["U"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_known_snake_eggs_solution_holds(name):
    verdict = evaluate(*setup(SNAKE_SPEC, INSTANCES / f"{name}.txt"), kind_answer(EXPECTED[name]["solution"]))
    assert verdict.violations == [] and verdict.ok
    assert verdict.objective is None


@pytest.mark.parametrize("name", ["igornadj_test_2x8", "igornadj_test_5x5", "jandhyala_ch32_6x6",
                                  "math3205_stub_6x6", "pzprjs_test_5x5"])
def test_a_solved_snake_eggs_answer_holds(name):
    report = solve(SNAKE_SPEC, INSTANCES / f"{name}.txt", None, "cpsat")
    verdict = evaluate(*setup(SNAKE_SPEC, INSTANCES / f"{name}.txt"), report.solution.decisions)
    assert verdict.ok and verdict.objective is None
    assert report.solution.decisions == kind_answer(EXPECTED[name]["solution"])


# ------------------------------------------------------------------ corruptions

HORSE = SPECS["standard"]
DAILY = MAPS / "daily-2026-01-07.txt"


@pytest.fixture(scope="module")
def daily():
    """daily-2026-01-07 (budget 12, optimum 66) with a CP-SAT optimal answer."""
    world = setup(HORSE, DAILY)
    report = solve(HORSE, DAILY, None, "cpsat")
    assert report.result.objective == 66
    return world, Interpreter(*world), set(report.solution.true_cells("wall"))


def with_walls(walls) -> dict:
    return {"wall": {c: True for c in walls}}


def test_a_wall_taken_from_a_pen_lets_the_horse_reach_the_border(daily):
    (spec, _, grid, _), interp, walls = daily
    pen = interp.evaluate(with_walls(walls)).regions["pen"]
    holding = sorted(w for w in walls if any(v in pen for v in interp.adj[w]))
    assert holding  # some wall closes the pen
    for w in holding:
        verdict = interp.evaluate(with_walls(walls - {w}))
        assert not verdict.ok
        [v] = verdict.violations
        assert (v.span.line, v.span.column, v.rule_text) == (24, 9, "pen avoids border")
        assert v.cells and all(r in (0, grid.rows - 1) or c in (0, grid.cols - 1) for r, c in v.cells)
        assert v.render().startswith(f"{spec.path}:24:9: rule violated: pen avoids border\n    ")


def test_walls_past_the_budget_break_the_count_rule_and_keep_the_score(daily):
    (spec, _, grid, values), interp, walls = daily
    pen = interp.evaluate(with_walls(walls)).regions["pen"]
    spare = [i for i, t in enumerate(grid.tiles) if t == "grass" and i not in walls and i not in pen]
    extra = spare[: values["budget"] + 1 - len(walls)]
    verdict = interp.evaluate(with_walls(walls | set(extra)))
    [v] = verdict.violations
    assert (v.span.line, v.rule_text) == (25, "count(wall) <= budget")
    assert v.reason == "13 <= 12 is false (the cells counted)"
    assert len(v.cells) == 13
    assert verdict.objective == 66


def test_every_single_flip_of_an_optimal_answer_breaks_a_rule_or_scores_no_better(daily):
    (_, _, grid, values), interp, walls = daily
    best = interp.evaluate(with_walls(walls))
    grass = [i for i, t in enumerate(grid.tiles) if t == "grass"]
    assert len(grass) == 104
    broken = same = worse = 0
    for g in grass:
        verdict = interp.evaluate(with_walls(walls ^ {g}))
        if not verdict.ok:
            broken += 1
            if g not in walls and len(walls) == values["budget"]:
                assert 25 in lines_of(verdict)
        elif verdict.objective == 66:
            assert verdict.regions["pen"] == best.regions["pen"]  # a wall that changes nothing
            same += 1
        else:
            assert verdict.objective < 66
            worse += 1
    assert broken + same + worse == 104 and broken >= 12


JANDHYALA = INSTANCES / "jandhyala_ch32_6x6.txt"


def test_an_egg_cell_given_another_size_breaks_the_egg_rules():
    spec, symbols, grid, values = setup(SNAKE_SPEC, JANDHYALA)
    answer = kind_answer(EXPECTED["jandhyala_ch32_6x6"]["solution"])
    assert answer["kind"][grid.index(3, 5)] == 3
    answer["kind"][grid.index(3, 5)] = 4
    verdict = evaluate(spec, symbols, grid, values, answer)
    assert [(v.span.line, v.reason, v.cells) for v in verdict.violations] == [
        (43, "with k = 3: the set has 2 cells, not 3", ((4, 5), (5, 5))),
        (43, "with k = 4: the set has 5 cells, not 4", ((0, 1), (0, 2), (1, 1), (2, 1), (3, 5))),
        (43, "with k = 4: the set falls into 2 pieces (4, 1 cells); the cells off the largest piece", ((3, 5),)),
        (46, "false for a = row 4, column 6 and b = row 5, column 6", ((3, 5), (4, 5))),
        (46, "false for a = row 5, column 6 and b = row 4, column 6", ((4, 5), (3, 5))),
    ]
    assert verdict.violations[0].rule_text == "for each k in sizes: (kind = k) is connected with size k"
    assert verdict.violations[3].rule_text == ("for each neighbours a, b: kind[a] != snake and kind[b] != snake "
                                               "implies kind[a] = kind[b]")


def test_an_egg_cell_put_on_the_snake_breaks_the_path_and_the_counts():
    spec, symbols, grid, values = setup(SNAKE_SPEC, JANDHYALA)
    answer = kind_answer(EXPECTED["jandhyala_ch32_6x6"]["solution"])
    answer["kind"][grid.index(5, 5)] = "snake"
    verdict = evaluate(spec, symbols, grid, values, answer)
    assert [(v.span.line, v.reason) for v in verdict.violations] == [
        (36, "a cell other than the ends needs exactly two neighbours in the set; row 6, column 5 has 3; "
         "row 6, column 6 has 1"),
        (40, "22 == 21 is false (the cells counted)"),
        (43, "with k = 3: the set has 2 cells, not 3"),
    ]
    assert verdict.violations[0].cells == ((5, 4), (5, 5))


def test_malformed_decisions_are_violations_of_their_decide_statement(daily):
    (spec, symbols, grid, values), interp, walls = daily
    water = grid.index(0, 0)
    assert grid.tiles[water] == "water"
    verdict = interp.evaluate({"wall": {**with_walls(walls)["wall"], water: True}, "walls": {}})
    assert [(v.span, v.rule_text, v.cells) for v in verdict.violations] == [
        (None, "decision 'walls'", ()),
        (spec.statements[9].span, "decide wall: bool on grass", ((0, 0),)),
    ]
    assert verdict.violations[0].reason == "the answer gives a decision 'walls', which the spec does not declare " \
                                           "(it has: wall)"
    assert verdict.violations[1].render() == (f"{spec.path}:20:8: rule violated: decide wall: bool on grass\n"
                                              f"    'wall' is true on cells it is not made on: row 1, column 1")
    assert verdict.objective == 66  # the wall on water is reported, then ignored


def test_cells_that_are_no_cell_index_and_values_that_are_no_boolean_are_reported(daily):
    (_, _, grid, _), interp, walls = daily
    assert grid.tiles[0] == "water"
    verdict = interp.evaluate({"wall": {**with_walls(walls)["wall"], (1, 2): True, 168: True, 0: "yes"}})
    assert [(v.span.line, v.reason, v.cells) for v in verdict.violations] == [
        (20, "'wall' is given on keys that are no cell index of this 14x12 map (0 to 167, row-major): (1, 2), 168",
         ()),
        (20, "a Boolean decision takes the value True (or 1) on its true cells; these cells have another value",
         ((0, 0),)),
    ]
    assert verdict.objective == 66


def test_an_enumeration_missing_a_cell_or_outside_its_domain_is_reported():
    spec, symbols, grid, values = setup(SNAKE_SPEC, JANDHYALA)
    answer = kind_answer(EXPECTED["jandhyala_ch32_6x6"]["solution"])
    del answer["kind"][grid.index(0, 0)]
    answer["kind"][grid.index(1, 4)] = 7
    verdict = evaluate(spec, symbols, grid, values, answer)
    decide = [(v.span.line, v.reason, v.cells) for v in verdict.violations if v.span.line == 27]
    assert decide == [
        (27, "'kind' has no value on cells it is made on", ((0, 0),)),
        (27, "'kind' takes values outside its domain (snake, 1, 2, 3, 4, 5): 7", ((1, 4),)),
    ]
    # The end (0, 0) has no value: it is off the snake, and beside the egg cell (0, 1) it has
    # no egg of its own. The clue (1, 4) no longer holds a 1.
    assert sorted(set(lines_of(verdict)) - {27}) == [33, 36, 40, 43, 46]


# ---------------------------------------------- brute force: every answer of tiny maps

def random_horse_map(rng: random.Random, unicorn: bool) -> str:
    """A tiny enclose.horse map with a budget header.

    Mostly water on the border and grass inside, the animals inside (nine
    times in ten), sometimes a portal pair, at most 9 grass cells, a budget
    of 1 to 5 walls (with a unicorn to enclose too, a larger map and up to 7).
    """
    rows, cols = rng.choice([(5, 5), (5, 6), (6, 5)] if unicorn else [(4, 4), (4, 5), (5, 4), (5, 5)])
    n = rows * cols

    def edge(i: int) -> bool:
        return i // cols in (0, rows - 1) or i % cols in (0, cols - 1)

    cells = [rng.choice("~~~~~~.C" if edge(i) else "~.....CGS") for i in range(n)]
    inner = [i for i in range(n) if not edge(i)]
    spots = rng.sample(inner, 2) if rng.random() < 0.9 else rng.sample(range(n), 2)
    cells[spots[0]] = "H"
    if unicorn:
        cells[spots[1]] = "U"
    if rng.random() < 0.4:
        a, b = rng.sample([i for i in range(n) if i not in spots], 2)
        cells[a] = cells[b] = "0"
    grass = [i for i, ch in enumerate(cells) if ch == "."]
    rng.shuffle(grass)
    for i in grass[9:]:
        cells[i] = "~"
    body = "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))
    return f"budget: {rng.randint(1, 7 if unicorn else 5)}\n{body}\n"


# variant, maps, and how many of them have an answer, have none, have a portal pair
TINY_HORSE = [("standard", 40, 15, 25, 16), ("costlywalls", 30, 13, 17, 11), ("lovebirds", 40, 11, 29, 12),
              ("loversquarrel", 40, 7, 33, 17)]


@pytest.mark.parametrize("variant, maps, feasible_maps, infeasible_maps, portal_maps", TINY_HORSE,
                         ids=[t[0] for t in TINY_HORSE])
def test_every_wall_set_of_tiny_maps_is_judged_as_the_rules_verifier_does(variant, maps, feasible_maps,
                                                                          infeasible_maps, portal_maps, tmp_path):
    rng = random.Random(f"horse-{variant}")
    rules_variant = None if variant == "standard" else variant
    feasible = infeasible = portals = 0
    for k in range(maps):
        text = random_horse_map(rng, unicorn=variant in ("lovebirds", "loversquarrel"))
        path = tmp_path / f"map{k}.txt"
        path.write_text(text)
        spec, symbols, grid, values = setup(SPECS[variant], path)
        interp = Interpreter(spec, symbols, grid, values)
        grass = [i for i, t in enumerate(grid.tiles) if t == "grass"]
        best = None
        for mask in range(1 << len(grass)):
            answer = with_walls(g for b, g in enumerate(grass) if mask >> b & 1)
            mine = interp.evaluate(answer)
            theirs = horse_rules.verify(grid, Solution(answer, {}), values, rules_variant)
            assert mine.ok == theirs.ok, (text, answer, mine.render(), theirs.problems)
            if mine.ok or variant != "loversquarrel":
                assert mine.objective == theirs.score, (text, answer)
            if mine.ok and (best is None or mine.objective > best):
                best = mine.objective
        model, _ = load(SPECS[variant], path)
        result = solve_model(model, "cpsat", ONE_WORKER).result
        if best is None:
            assert result.status is Status.INFEASIBLE, text
            infeasible += 1
        else:
            assert result.status is Status.OPTIMAL and result.objective == best, text
            feasible += 1
        portals += "0" in text
    assert (feasible, infeasible, portals) == (feasible_maps, infeasible_maps, portal_maps)


# Tiny Snake Eggs instances and how many answers each has (found by the enumeration below).
TINY_EGGS = [
    ("sizes: 1,2\no..\n.o.\n", 1),
    ("sizes: 2,1\n.o2\no..\n", 1),
    ("sizes: 1,2\no.1\n.o.\n", 0),
    ("sizes: 1,3\no.\n.3\n.o\n", 0),
    ("sizes: 2\no.o\n...\n...\n", 1),
    ("sizes: 1\no.o\n...\n...\n", 0),
    ("sizes: 3\no..\n..o\n.3.\n", 0),
    ("sizes: 4\no..\n.4.\n..o\n", 2),
    ("sizes: 3\no...\n...o\n", 2),
    ("sizes: 3\no..3\n...o\n", 1),
]


@pytest.mark.parametrize("text, answers", TINY_EGGS, ids=[t.replace("\n", "/") for t, _ in TINY_EGGS])
def test_every_answer_of_a_tiny_snake_eggs_is_judged_as_the_rules_verifier_does(text, answers, tmp_path):
    path = tmp_path / "eggs.txt"
    path.write_text(text)
    spec, symbols, grid, values = setup(SNAKE_SPEC, path)
    interp = Interpreter(spec, symbols, grid, values)
    good = set()
    for labels in itertools.product(("snake",) + values["sizes"], repeat=grid.size):
        answer = {"kind": dict(enumerate(labels))}
        mine = interp.evaluate(answer)
        theirs = snake_rules.verify(grid, Solution(answer, {}), values)
        assert mine.ok == theirs.ok, (labels, mine.render(), theirs.problems)
        if mine.ok:
            good.add(labels)
    assert len(good) == answers
    model, _ = load(SNAKE_SPEC, path)
    report = solve_model(model, "cpsat", ONE_WORKER, count=answers + 1)
    assert {tuple(s.decisions["kind"][i] for i in range(grid.size)) for s in report.solutions} == good
    assert report.complete or report.result.status is Status.INFEASIBLE


# ------------------------------------------- each construct, against the solver's enumeration

def write_world(tmp_path, spec_text: str, map_text: str):
    spec_path, map_path = tmp_path / "t.grid", tmp_path / "t.txt"
    spec_path.write_text(spec_text)
    map_path.write_text(map_text)
    return spec_path, map_path


def every_answer(interp: Interpreter):
    """Every answer of a spec on a map: each decision takes each value on each of its cells."""
    slots = [(name, i, interp.domains.get(name, (True, False))) for name in interp.on for i in sorted(interp.on[name])]
    for choice in itertools.product(*(values for _, _, values in slots)):
        answer: dict[str, dict[int, object]] = {name: {} for name in interp.on}
        for (name, i, _), v in zip(slots, choice):
            if v is not False:
                answer[name][i] = v
        yield answer


def key(answer) -> tuple:
    return tuple(sorted((name, i, str(v)) for name, cells in answer.items() for i, v in cells.items()))


def agree_with_solver(tmp_path, spec_text: str, map_text: str) -> tuple[int, int | None]:
    """Judge every answer, and compare the best ones with CP-SAT's enumeration of its optimal answers.

    Returns:
        How many answers hold, and the best score among them.
    """
    spec_path, map_path = write_world(tmp_path, spec_text, map_text)
    interp = Interpreter(*setup(spec_path, map_path))
    good = []
    for answer in every_answer(interp):
        verdict = interp.evaluate(answer)
        if verdict.ok:
            good.append((key(answer), verdict.objective))
    pick = min if any(getattr(st, "sense", None) == "minimize" for st in interp.spec.statements) else max
    best = pick((s for _, s in good), default=None)
    top = {k for k, s in good if s == best}
    model, _ = load(spec_path, map_path)
    report = solve_model(model, "cpsat", ONE_WORKER, count=len(top) + 1)
    if not good:
        assert report.result.status is Status.INFEASIBLE
        return 0, None
    assert report.result.objective == best
    assert {key(s.decisions) for s in report.solutions} == top
    assert report.complete
    return len(good), best


FLOOD = """
tile rock '#'
tile root 'R'
tile floor '.'
tile gate 'A'-'B' linked
tile lost 'L'
decide open: bool on floor
region r = reach from root through open or gate
region nowhere = reach from lost through all
require nowhere is connected
require count(nowhere) == 0
maximize count(r) - count(open)
"""


def test_a_flood_fill_holds_its_roots_crosses_links_and_skips_sealed_pockets(tmp_path):
    # R is in no passable cell but is a member; the gate pair joins (0, 1) to (2, 0);
    # (0, 3) is a pocket no member touches, so opening it only costs.
    assert agree_with_solver(tmp_path, FLOOD, "RA#.\n##.#\nA..#\n") == (16, 3)
    spec_path, map_path = tmp_path / "t.grid", tmp_path / "t.txt"
    world = setup(spec_path, map_path)
    grid = world[2]
    verdict = evaluate(*world, {"open": {grid.index(r, c): True for r, c in [(0, 3), (2, 1), (1, 2)]}})
    assert sorted(divmod(i, 4) for i in verdict.regions["r"]) == [(0, 0), (0, 1), (2, 0), (2, 1)]
    assert verdict.regions["nowhere"] == frozenset() and verdict.objective == 1


def test_a_piece_is_walked_once_for_reach_component_of_and_components():
    # a path 0-1-2-3: from 0 inside {1, 3} the walk holds its start (outside the set, as a flood fill's
    # root) and 1, not 3 beyond the missing 2; the pieces of {0, 1, 3} are [0, 1] and [3], largest first
    adj = ((1,), (0, 2), (1, 3), (2,))
    assert reached(adj, (0,), {1, 3}) == {0, 1}
    assert components(adj, {3, 0, 1}) == [[0, 1], [3]]


ENUMS = """
tile blank '.'
tile num '1'-'3' value digit
tile hole '#'
param ks: set of int = {1, 2}
param cap: int = 2
decide d: {x} | ks | {3} on not hole
require num in (d = value)
require count(d != x) > 2
require count(d = cap) < 2
require for each k in ks: count(d = k) >= 1
maximize 2 * count(d = 3) - value(d = value) + -count(d = x) + sum(ks)
"""


def test_enumerated_values_names_integers_parameters_loop_variables_and_tile_values(tmp_path):
    assert agree_with_solver(tmp_path, ENUMS, ".1#\n2..\n") == (27, 6)
    world = setup(tmp_path / "t.grid", tmp_path / "t.txt")
    grid = world[2]
    answer = {"d": {grid.index(0, 0): "x", grid.index(0, 1): 1, grid.index(1, 0): 2, grid.index(1, 1): "x",
                    grid.index(1, 2): 3}}
    verdict = evaluate(*world, answer)
    # d != x holds the hole, where d is not made: 4 cells; d = value: (0, 1) and (1, 0), values 1 + 2.
    assert verdict.ok and verdict.objective == 2 * 1 - 3 - 2 + 3
    answer["d"][grid.index(0, 1)] = 2
    assert [(v.rule_text, v.reason, v.cells) for v in evaluate(*world, answer).violations] == [
        ("num in (d = value)", "1 cell of the first set not in the second", ((0, 1),)),
        ("count(d = cap) < 2", "2 < 2 is false (the cells counted)", ((0, 1), (1, 0))),
        ("for each k in ks: count(d = k) >= 1", "with k = 1: 0 >= 1 is false", ()),
    ]


PAIRS = """
tile a '.'
tile h '#'
decide c: {red, blue} on a
decide w: bool on a
require for each neighbours p, q: c[p] = red implies c[q] != red
require for each neighbours p, q: w[p] implies not w[q]
require for each neighbours p, q: c[p] = c[q] or a[p] or a[q]
require for each neighbours p, q: w[p] = w[q] or a[q]
maximize count(c = red) + count(w)
"""


def test_pair_formulas_where_a_decision_is_not_made(tmp_path):
    # Two holes side by side have no value of c, and equal ones; w is false on a hole, so a cell
    # beside a hole cannot be a wall: walls only in column 0, at most one of them.
    assert agree_with_solver(tmp_path, PAIRS, "..#\n..#\n") == (21, 3)


PATHS = """
tile cell '.'
tile end 'o'
tile gate 'A'-'B' linked
decide s: bool on all
require s is a path between end
minimize 10 * count(s) - count(s and gate)
"""


def test_a_path_may_cross_a_link_and_never_touches_itself(tmp_path):
    # Six induced paths join the ends; the shortest is the 4 cells (0, 0), A (0, 1), A (2, 1),
    # (2, 2), through the linked pair (10 * 4 - 2 = 38).
    assert agree_with_solver(tmp_path, PATHS, "oA.\n...\n.Ao\n") == (6, 38)


SIZES = """
tile cell '.'
param n: set of int
decide s: bool on all
decide t: bool on all
require for each k in n: s is connected with size k
require t is connected
require s avoids t
maximize count(t) - count(s)
"""


def test_connected_with_a_size_repeated_entries_and_the_empty_set(tmp_path):
    # n = 2, 2 states the rule twice: s is one of 7 dominoes; t is empty (connected) or any
    # connected set of the other 4 cells: 79 answers in all.
    assert agree_with_solver(tmp_path, SIZES, "n: 2,2\n...\n...\n") == (79, 2)


def test_a_path_without_two_ends_is_a_violation_with_the_end_cells(tmp_path):
    text = "tile cell '.'\ntile end 'o'\ndecide s: bool on all\nrequire s is a path between end\n"
    spec_path, map_path = write_world(tmp_path, text, "o.o\n.o.\n")
    [v] = evaluate(*setup(spec_path, map_path), {"s": {0: True, 1: True, 2: True}}).violations
    assert v.render() == (f"{spec_path}:4:9: rule violated: s is a path between end\n"
                          "    a path needs exactly two end cells; the map has 3: row 1, column 1; row 1, column 3; "
                          "row 2, column 2")


def test_a_long_list_of_cells_is_cut_short():
    v = Violation(None, "pen avoids border", tuple((0, c) for c in range(15)), "15 cells in both sets")
    assert str(v) == ("rule violated: pen avoids border\n    15 cells in both sets: "
                      + "; ".join(f"row 1, column {c}" for c in range(1, 13)) + "; and 3 more")


# ------------------------------------------------------------------ answer files

def test_what_solve_json_prints_reads_back_and_holds(tmp_path, capsys):
    assert main(["solve", str(HORSE), "--map", str(DAILY), "--json"]) == 0
    printed = capsys.readouterr().out
    answer = tmp_path / "answer.json"
    answer.write_text(printed)
    spec, symbols, grid, values = setup(HORSE, DAILY)
    decisions = read_answer(answer, grid, symbols, values)
    walls = {grid.index(r, c) for r, c in json.loads(printed)["horse"]["walls"]}
    assert decisions == {"wall": {c: True for c in walls}}
    verdict = check_answer(HORSE, DAILY, answer)
    assert verdict.ok and verdict.objective == 66
    # The decisions object alone reads the same.
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(json.loads(printed)["decisions"]))
    assert read_answer(bare, grid, symbols) == decisions
    over = check_answer(HORSE, DAILY, answer, {"budget": "11"})
    assert [v.rule_text for v in over.violations] == ["count(wall) <= budget"]


BAD_ANSWERS = [
    (b"\x89PNG\r\n\x1a\n\x00", "1:1", "the answer is not UTF-8 text (byte 0x89)"),
    (b'{"decisions": {"kind": [[[0, 0], "snake"]]', "1:43", "the answer is not valid JSON: Expecting ',' delimiter"),
    (b"  \n", "1:1", "the answer file is empty"),
    (b"[1, 2]", "1:1", 'an answer is a JSON object: {"decisions": {"NAME": [[[row, col], value], ...]}}'),
    (b'{"decisions": [1]}', "1:15", '"decisions" is an object: {"NAME": [[[row, col], value], ...]}'),
    (b'{"status": "INFEASIBLE", "objective": null}', "1:1",
     'the answer has no "decisions": the solve it records found no solution (status INFEASIBLE)'),
    (b'{"kinds": []}', "1:2", "the spec declares no decision 'kinds'; did you mean 'kind'?"),
    (b'{"kind": [], "kind": []}', "1:14", "decision 'kind' is listed twice"),
    (b'{"kind": {"0,0": 1}}', "1:10", "decision 'kind' lists its cells as [[row, col], value] pairs"),
    (b'{"kind": [[0, 0, "snake"]]}', "1:11",
     "decision 'kind' lists its cells as [[row, col], value] pairs; this entry is not one"),
    (b'{"kind": [[[0, 0.5], 1]]}', "1:12", "a cell is [row, col], two integers"),
    (b'{"kind": [\n  [[6, 0], "snake"]]}', "2:4",
     "cell [6, 0] is outside the map (6 rows, 6 columns; rows and columns count from 0)"),
    (b'{"kind": [[[0, 0], 3], [[0, 0], 3]]}', "1:25", "cell [0, 0] of 'kind' is listed twice"),
    (b'{"kind": [[[0, 0], "snek"]]}', "1:20", "'snek' is not a value of 'kind' (snake, 1, 2, 3, 4, 5)"),
    (b'{"kind": [[[0, 0], 7]]}', "1:20", "7 is not a value of 'kind' (snake, 1, 2, 3, 4, 5)"),
    (b'{"kind": [[[0, 0], "3"]]}', "1:20",
     "'3' is not a value of 'kind' (snake, 1, 2, 3, 4, 5) (an integer is written without quotes: 3)"),
    (b'{"kind": [' + b"[" * 5000 + b"]" * 5000 + b"]}", "1:1", "the answer nests too deeply to be an answer"),
    (b'{"kind": [[[0, 0], true]]}', "1:20",
     "a value of 'kind' is a value name in quotes or an integer (snake, 1, 2, 3, 4, 5)"),
]


@pytest.mark.parametrize("raw, where, message", BAD_ANSWERS, ids=[m[:40] for _, _, m in BAD_ANSWERS])
def test_a_bad_answer_file_is_a_located_error(tmp_path, raw, where, message):
    path = tmp_path / "answer.json"
    path.write_bytes(raw)
    _, symbols, grid, values = setup(SNAKE_SPEC, JANDHYALA)
    with pytest.raises(AnswerError) as e:
        read_answer(path, grid, symbols, values)
    assert isinstance(e.value, GridlangError)
    assert e.value.message == message
    assert e.value.render().startswith(f"{path}:{where}: error: {message}")


def test_a_boolean_answer_takes_1_or_true_and_0_marks_a_false_cell(tmp_path, daily):
    (_, symbols, grid, _), _, _ = daily
    path = tmp_path / "answer.json"
    path.write_text('{"wall": [[[1, 1], 1], [[1, 2], true], [[1, 4], 0]]}')
    assert read_answer(path, grid, symbols) == {"wall": {grid.index(1, 1): True, grid.index(1, 2): True}}
    path.write_text('{"wall": [[[1, 1], 2]]}')
    with pytest.raises(AnswerError) as e:
        read_answer(path, grid, symbols)
    assert str(e.value.span) == f"{path}:1:20"
    assert e.value.message == "'wall' is a Boolean decision: its value is 1 (true) or 0 (false)"


def test_without_parameters_an_integer_of_a_parameter_domain_is_left_to_the_verifier(tmp_path):
    spec, symbols, grid, values = setup(SNAKE_SPEC, JANDHYALA)
    path = tmp_path / "answer.json"
    path.write_text('{"kind": [[[0, 0], 7]]}')
    assert read_answer(path, grid, symbols) == {"kind": {0: 7}}
