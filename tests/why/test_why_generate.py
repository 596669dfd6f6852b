"""``gridlang generate``: puzzles made from fixed seeds, each proved unique by clingo (a backend the
generator does not use: it digs on CP-SAT and checks on MaxSAT), each clue shown necessary by
clingo too (the map with that clue blanked has several answers or none), and each puzz.link URL
decoded back to the same puzzle. One small puzzle per genre by default; 20 per genre under
``-m slow``."""

from __future__ import annotations

import json

import pytest
from horse_data import REPO

import gridlang
from gridlang.cli import main
from gridlang.core.grid import flood_rooms
from gridlang.service.schemas import validator
from gridlang.why.generation import GenerateError

SUDOKU = {"box_rows": 2, "box_cols": 2}

CASES = {  # genre: (rows, cols, seed, params)
    "nurikabe": (5, 5, 1, {}),
    "sudoku": (4, 4, 0, SUDOKU),
    "masyu": (6, 6, 2, {}),
    "slitherlink": (4, 4, 0, {}),
    "starbattle": (5, 5, 1, {}),
}

THIRD = "asp"
"""The backend of the tests' own checks."""


def _unique(spec, text: str) -> bool | None:
    """True: one answer; False: several; None: none (clingo)."""
    r = gridlang.solve(spec, map=text, backend=THIRD, unique=True, time_limit=120)
    if r.status == "INFEASIBLE":
        return None
    assert r.status == "SOLVED", r.status
    return r.unique


def _cells(row: str) -> list[str]:
    """A map row's cells: its characters, or its tokens where cells are separated by spaces (``^2``, ``1,3``)."""
    return row.split() if " " in row else list(row)


def _blanked(text: str, r: int, c: int, header: int) -> str:
    lines = text.splitlines(keepends=True)
    row = lines[header + r]
    if " " in row:
        cells = row.split()
        cells[c] = "."
        lines[header + r] = " ".join(cells) + "\n"
    else:
        lines[header + r] = row[:c] + "." + row[c + 1:]
    return "".join(lines)


def _check(genre, rows, cols, seed, params):
    spec = gridlang.bundled(genre)
    made = gridlang.generate(spec, (rows, cols), seed=seed, params=params, time_limit=600)
    assert made.seed == seed and made.checked_by == "maxsat"
    assert _unique(spec, made.map) is True, made.map
    header = len(params)
    grid = [_cells(row) for row in made.map.splitlines()[header:header + rows]]
    assert len(grid) == rows and all(len(row) == cols for row in grid)
    clues = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "."]
    if genre == "starbattle":  # the rooms are the clue: each holds one star of the answer
        stars = gridlang.solve(spec, map=made.map, backend=THIRD).decisions["star"]
        flat = "".join(made.map.split("rooms:\n")[1].split())
        room = flood_rooms(rows, cols, lambda u, v: flat[u] == flat[v])
        assert made.clues == rows == max(room) + 1 and not clues
        assert sorted(room[r * cols + c] for r, c in stars) == list(range(rows))
    else:
        assert made.clues == len(clues) > 0
        for r, c in clues:
            assert _unique(spec, _blanked(made.map, r, c, header)) is not True, f"the clue at row {r + 1}, " \
                f"column {c + 1} is redundant:\n{made.map}"
    by_url = gridlang.solve(url=made.url, backend=THIRD, unique=True)
    assert by_url.unique is True
    assert by_url.decisions == gridlang.solve(spec, map=made.map, backend=THIRD).decisions
    return made


@pytest.mark.parametrize("genre", sorted(CASES))
def test_a_generated_puzzle_is_unique_and_every_clue_is_needed(genre):
    _check(genre, *CASES[genre])


@pytest.mark.slow
@pytest.mark.parametrize("genre, size, params", [("nurikabe", 6, {}), ("sudoku", 4, SUDOKU), ("masyu", 6, {}),
                                                 ("slitherlink", 5, {}), ("starbattle", 6, {})])
def test_twenty_puzzles_per_genre(genre, size, params):
    maps = {_check(genre, size, size, seed, params).map for seed in range(100, 120)}
    assert len(maps) == 20


def test_the_same_seed_makes_the_same_puzzle():
    a = gridlang.generate("sudoku", "4x4", seed=7, params=SUDOKU)
    b = gridlang.generate("sudoku", "4x4", seed=7, params=SUDOKU)
    assert a.map == b.map and a.url == b.url
    assert a.map.startswith("box_rows: 2\nbox_cols: 2\n")


def test_generate_json_gives_one_line_per_puzzle(capsys):
    code = main(["generate", "sudoku", "--size", "4x4", "--param", "box_rows=2", "--param", "box_cols=2",
                 "--seed", "3", "--count", "2", "--json"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert sorted(r["seed"] for r in records) == [3, 4]  # two worker processes: as they finish
    for r in records:
        validator("generate").validate(r)
        assert set(r) == {"map", "url", "seed", "clues", "seconds", "checked_by"}
        assert r["url"].startswith("https://puzz.link/p?sudoku/4/4/")
        assert gridlang.solve(gridlang.bundled("sudoku"), map=r["map"], unique=True).unique is True


def test_generate_text_prints_the_map_and_the_url(capsys):
    code = main(["generate", str(REPO / "puzzles" / "starbattle.grid"), "--size", "5x5", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("# seed 1: 5 clues, unique (checked by maxsat)")
    assert "\n# https://puzz.link/p?starbattle/5/5/1/" in out and "\nrooms:\n" in out


def test_a_spec_without_clue_tiles_or_rooms_is_refused(tmp_path, capsys):
    spec = tmp_path / "plain.grid"
    spec.write_text("tile blank '.'\ndecide s: bool on blank\nrequire count(s) == 1\n", encoding="utf-8")
    code = main(["generate", str(spec), "--size", "3x3"])
    err = capsys.readouterr().err
    assert code == 1 and "no clue tile" in err and "Traceback" not in err
    with pytest.raises(GenerateError):
        gridlang.generate(str(spec), (3, 3))


def test_a_bad_size_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["generate", "nurikabe", "--size", "4y4"])
    assert stop.value.code == 1 and "write ROWSxCOLS" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [0, 2])
def test_an_enclose_horse_map_has_a_budget_and_a_unique_optimum(seed):
    made = gridlang.generate("horse", (8, 8), seed=seed, time_limit=300)
    validator("generate").validate(made.to_json())
    assert made.map.startswith("budget: ") and made.url is None and made.checked_by == "maxsat"
    result = gridlang.solve(gridlang.bundled("horse"), map=made.map, backend="milp", unique=True, time_limit=120)
    assert result.status == "OPTIMAL" and result.unique is True
    assert result.objective == made.objective and result.decisions["wall"]
    assert sum(row.count("H") for row in made.map.splitlines()[1:]) == 1


def test_clues_that_are_their_own_rule_instances_are_dug_on_the_sat_oracle():
    import random

    from gridlang.core.deadline import Deadline
    from gridlang.why.generation.dig import dig_by_oracle
    from gridlang.why.generation.maker import Maker

    sudoku = Maker(gridlang.bundled("sudoku"), 4, 4, {"box_rows": "2", "box_cols": "2"}, "cpsat", "maxsat",
                    random.Random(0), Deadline(120))
    full = ["1234", "3412", "2143", "4321"]
    dug = dig_by_oracle(sudoku, full)
    assert dug is not None and all(a == b or b == "." for ra, rb in zip(full, dug) for a, b in zip(ra, rb))
    text = "box_rows: 2\nbox_cols: 2\n" + "".join(row + "\n" for row in dug)
    assert _unique(gridlang.bundled("sudoku"), text) is True
    clues = [(r, c) for r in range(4) for c in range(4) if dug[r][c] != "."]
    assert all(_unique(gridlang.bundled("sudoku"), _blanked(text, r, c, 2)) is False for r, c in clues)
    nurikabe = Maker(gridlang.bundled("nurikabe"), 2, 2, {}, "cpsat", "maxsat", random.Random(0), Deadline(60))
    assert dig_by_oracle(nurikabe, ["2.", ".."]) is None  # its decision is made on the blank cells only


@pytest.mark.parametrize("genre, words", [("shikaku", "takes its values from the clues")])
def test_genres_the_method_cannot_make_are_refused_in_a_sentence(genre, words, capsys):
    code = main(["generate", genre, "--size", "4x4", "--time-limit", "120"])
    err = capsys.readouterr().err
    assert code == 1 and words in err and "Traceback" not in err and "bug" not in err


def test_rooms_drawn_as_rectangles_with_no_answer_are_drawn_again_then_refused_in_a_sentence(capsys):
    # Detour at 5x5: no partition into rectangles drawn has an answer; Ayeheya at 5x5 has one on the
    # first rooms drawn
    code = main(["generate", "detour", "--size", "5x5", "--seed", "1", "--time-limit", "120"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.endswith("detour.grid: none of 20 random partitions of a blank 5x5 map into rectangular rooms has "
                        "an answer, even with the rules about clues left out; generate draws rooms as rectangles, "
                        "and this genre's rooms may need other shapes\n")
    made = _check("ayeheya", 5, 5, 1, {})
    assert made.url == "https://puzz.link/p?ayeheya/5/5/0pi4v07o1i2g" and made.clues == 2


def test_the_time_limit_running_out_is_a_sentence_and_exit_3(capsys):
    # 200 x 200 cannot be made in 2 s: the compilation stops at the deadline
    assert main(["generate", "nurikabe", "--size", "200x200", "-t", "2", "--quiet"]) == 3
    err = capsys.readouterr().err
    assert err == "the time limit ran out while a 200x200 puzzle was made, after 0 of 1 puzzles\n"


def test_an_unknown_bundled_spec_names_the_function_that_lists_them(capsys):
    # a name like none of the bundled specs ('nosuch' now reads as a misspelt 'pentatouch')
    assert main(["generate", "qqqqqq", "--size", "5x5"]) == 1
    assert capsys.readouterr().err == ("error: no bundled spec is called 'qqqqqq' "
                                       f"({len(gridlang.bundled_specs())} of them: gridlang.bundled_specs() lists them)\n")


def test_count_on_the_worker_pool_makes_the_puzzles_of_one_process(capsys):
    args = ["generate", "sudoku", "--size", "4x4", "--param", "box_rows=2", "--param", "box_cols=2",
            "--seed", "5", "--count", "3", "--json"]
    made = {}
    for workers in ("1", "2"):
        assert main(args + ["--workers", workers]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        made[workers] = {r["seed"]: r["map"] for r in records}
    assert sorted(made["1"]) == [5, 6, 7] and made["2"] == made["1"]  # a seed makes its puzzle anywhere


def test_the_pool_keeps_the_time_limit_and_says_how_many_were_made(capsys):
    assert main(["generate", "nurikabe", "--size", "200x200", "--count", "2", "--workers", "2", "-t", "2"]) == 3
    assert capsys.readouterr().err == "the time limit ran out while a 200x200 puzzle was made, after 0 of 2 puzzles\n"


def test_a_genre_refused_on_the_pool_is_one_sentence(capsys):
    code = main(["generate", "shikaku", "--size", "4x4", "--count", "2", "--workers", "2", "--time-limit", "120"])
    err = capsys.readouterr().err
    assert code == 1 and "takes its values from the clues" in err and "Traceback" not in err and "bug" not in err


def _clue_cells(text: str, rows: int, cols: int, header: int = 0) -> set[tuple[int, int]]:
    grid = text.splitlines()[header:header + rows]
    return {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "."}


@pytest.mark.parametrize("symmetry, image", [("rotational", lambda r, c: (5 - r, 5 - c)),
                                             ("mirror", lambda r, c: (r, 5 - c))])
def test_clue_positions_keep_the_symmetry_asked_for(symmetry, image):
    spec = gridlang.bundled("sudoku")
    made = gridlang.generate(spec, (6, 6), seed=4, params={"box_rows": 2, "box_cols": 3}, symmetry=symmetry,
                             time_limit=300)
    clues = _clue_cells(made.map, 6, 6, header=2)
    assert clues and {image(r, c) for r, c in clues} == clues
    assert _unique(spec, made.map) is True
    for r, c in sorted(clues):  # no orbit of clues can go: blanking one (and its image) loses uniqueness
        blanked = _blanked(_blanked(made.map, r, c, 2), *image(r, c), 2)
        assert _unique(spec, blanked) is not True


def test_a_symmetric_nurikabe_is_unique_and_symmetric():
    spec = gridlang.bundled("nurikabe")
    made = gridlang.generate(spec, (5, 5), seed=1, symmetry="rotational", time_limit=300)
    clues = _clue_cells(made.map, 5, 5)
    assert clues and {(4 - r, 4 - c) for r, c in clues} == clues
    assert _unique(spec, made.map) is True


def test_an_unknown_symmetry_is_refused_in_a_sentence(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["generate", "sudoku", "--size", "4x4", "--symmetry", "diagonal"])
    assert stop.value.code != 0 and "invalid choice: 'diagonal'" in capsys.readouterr().err
    with pytest.raises(GenerateError, match="unknown symmetry 'diagonal'"):
        gridlang.generate("sudoku", (4, 4), params=SUDOKU, symmetry="diagonal")


def test_progress_is_a_line_per_stage_on_stderr(capsys):
    assert main(["generate", "sudoku", "--size", "4x4", "--param", "box_rows=2", "--param", "box_cols=2",
                 "--seed", "7"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0].startswith("seed 7: answer 1 drawn (") and lines[-1].startswith("seed 7: checked by maxsat (")
    assert any(" clues placed (" in line for line in lines) and "Traceback" not in captured.err
    assert captured.out.startswith("# seed 7: ")


def test_the_time_limit_prints_the_best_map_so_far_and_says_what_is_not_proved(capsys):
    # a 16 x 16 Nurikabe is not proved unique within 10 s (seed 1 ran past 30 s at a load of 4; a 12 x 12
    # takes 8 s): its answer is drawn and its clues placed (on a loaded machine the time may run out while
    # they are placed, which the head says as well)
    code = main(["generate", "nurikabe", "--size", "16x16", "--seed", "1", "-t", "10", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 3
    assert err.endswith("while a 16x16 puzzle was made, after 0 of 1 puzzles\n")
    head, *rows = out.splitlines()
    assert head.startswith(("# seed 1: the best map when the time ran out: its ",
                            "# seed 1: the best map when the time ran out: not all its clues are placed, "))
    assert "not proved" in head or "has not checked it" in head
    assert len(rows) == 16 and all(len(row) == 16 for row in rows)


@pytest.mark.slow
@pytest.mark.parametrize("genre, size, symmetry", [("nurikabe", 10, "none"), ("sudoku", 9, "rotational"),
                                                   ("slitherlink", 10, "none"), ("masyu", 10, "none")])
def test_a_large_puzzle_is_made_unique_and_checked(genre, size, symmetry):
    spec = gridlang.bundled(genre)
    made = gridlang.generate(spec, (size, size), seed=1, symmetry=symmetry, time_limit=600)
    assert made.checked_by == "maxsat" and _unique(spec, made.map) is True
    clues = _clue_cells(made.map, size, size)
    assert len(clues) == made.clues > 0
    if symmetry == "rotational":
        assert {(size - 1 - r, size - 1 - c) for r, c in clues} == clues


def test_a_check_backend_that_finds_two_answers_shows_the_map_and_both():
    import random

    from gridlang.core.deadline import Deadline
    from gridlang.why.generation import disagree
    from gridlang.why.generation.maker import Maker

    sudoku = Maker(gridlang.bundled("sudoku"), 4, 4, {"box_rows": "2", "box_cols": "2"}, "cpsat", "maxsat",
                   random.Random(0), Deadline(120))
    grid = ["12..", "34..", "....", "...."]  # many answers
    with pytest.raises(GenerateError) as caught:
        disagree(sudoku, grid, "maxsat", 3)
    text = str(caught.value)
    assert "maxsat finds two answers to the map made from seed 3, which cpsat proved unique:\n12..\n34..\n" in text
    first, second = text.split("first answer:\n")[1].split("second answer:\n")
    assert first.startswith("digit:\n12") and second.startswith("digit:\n12") and first != second
    disagree(sudoku, ["1234", "3412", "2143", "4321"], "maxsat", 3)  # unique: nothing raised


def test_a_6x6_nurikabe_from_seed_1_is_this_map_unique_and_minimal():
    # the answer's clues placed a run per value tried, and the counterexample loop changing the answer
    # where no clue could be added: the same seed makes the same map, unique on clingo, every clue needed
    spec = gridlang.bundled("nurikabe")
    made = gridlang.generate(spec, (6, 6), seed=1, time_limit=300)
    assert made.map == "...3..\n.1....\n...2..\n....1.\n......\n.7...2\n"
    assert made.url == "https://puzz.link/p?nurikabe/6/6/i3i1m2l1n7i2" and made.clues == 6
    assert _unique(spec, made.map) is True
    for r, c in _clue_cells(made.map, 6, 6):
        assert _unique(spec, _blanked(made.map, r, c, 0)) is not True


def test_a_6x6_tapa_from_seed_1_writes_its_number_lists_spaced_unique_and_minimal():
    # a clue of several characters (1,1,2) stands for one cell while the map is made; the map is written
    # with its cells separated by spaces, as a Tapa instance is, and its URL decodes to the same puzzle
    made = _check("tapa", 6, 6, 1, {})
    assert made.url == "https://puzz.link/p?tapa/6/6/g5m8g4nbmh4g5n2g" and made.clues == 7
    assert made.map.splitlines()[3].split() == [".", ".", "1,1,2", ".", ".", "4"]


def test_a_10x10_masyu_from_seed_1_is_drawn_on_a_long_loop_unique_and_minimal():
    # the answer is a random loop of runs of two to four between turns, not the 2x2 loop the solver
    # draws left to itself (four white pearls around it)
    spec = gridlang.bundled("masyu")
    made = _check("masyu", 10, 10, 1, {})
    assert made.url == "https://puzz.link/p?mashu/10/10/000620i00020i00020ib000026600020i0" and made.clues == 14
    assert made.map.count("*") == 13 and made.map.count("o") == 1
    line = gridlang.solve(spec, map=made.map, backend=THIRD).decisions["line"]
    assert len(line) == 46  # edges of the loop, as many as the cells it passes through


def test_where_a_rule_reads_an_unknown_clue_unguarded_the_answer_drawn_is_kept():
    # Shakashaka's number rule reads value(c) without 'is known': a map of clues of unknown value does
    # not compile, so its answer is not drawn again around them, and the blank map's answer is clued
    lines = []
    made = gridlang.generate(gridlang.bundled("shakashaka"), (5, 5), seed=1, time_limit=120, progress=lines.append)
    assert any("no answer leaves those cells to clues" in line for line in lines)
    assert made.url == "https://puzz.link/p?shakashaka/5/5/mdjcn" and made.clues == 2
    assert _unique(gridlang.bundled("shakashaka"), made.map) is True


def test_a_6x6_heyawake_from_seed_1_has_rectangular_rooms_and_its_numbers_unique_and_minimal():
    # rules that read both clue tiles and rooms: rectangles drawn first, then the numbers as for any clue
    made = _check("heyawake", 6, 6, 1, {})
    assert made.url == "https://puzz.link/p?heyawake/6/6/lllrrg31ju0v2k0g1g1g" and made.clues == 4
    layer = made.map.split("rooms:\n")[1].splitlines()
    room = flood_rooms(6, 6, lambda u, v: layer[u // 6][u % 6] == layer[v // 6][v % 6])
    assert max(room) + 1 == 12
    for k in set(room):  # each room fills the rectangle that bounds it
        cells = [i for i in range(36) if room[i] == k]
        rs, cs = {i // 6 for i in cells}, {i % 6 for i in cells}
        assert len(cells) == (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)


@pytest.mark.slow
def test_a_6x6_yajilin_from_seed_1_has_arrow_clues_unique_and_minimal():
    # an arrow and a number per clue cell (v1): unique on clingo, every clue needed (about 25 s); the
    # blank map's answer passes the loop through every cell it does not shade, so no clue fits it, and
    # the answer is drawn again with a sixth of the cells left to clues of unknown value
    made = _check("yajilin", 6, 6, 1, {})
    assert made.url == "https://puzz.link/p?yajilin/6/6/a21a10e10h20e20e4230d" and made.clues == 7
    assert made.map.splitlines()[5].split() == [">2", "<0", ".", ".", ".", "."]


def test_a_clue_is_tried_only_where_the_answer_keeps_its_cells_and_values_only_while_they_can_differ():
    import random

    from gridlang.core.deadline import Deadline
    from gridlang.why.generation.maker import Maker

    spec = gridlang.bundled("nurikabe")
    maker = Maker(spec, 2, 3, {}, "cpsat", "maxsat", random.Random(0), Deadline(60))
    # the rules that read no number: the wall connected, no 2x2 block, one number per island
    blind = [st.span.line for st in spec.ast.statements if id(st) in maker.value_blind and st.span.line > 15]
    assert blind == [17, 18, 23]
    # islands of one cell at the top left and the bottom right, the rest wall
    answer = {"shaded": {0: False, 1: True, 2: True, 3: True, 4: True, 5: False}}
    assert [maker.erases("clue", cell, answer) for cell in range(6)] == [False, True, True, True, True, False]
    now = maker.broken(["...", "..."], answer)
    grid, now = maker.try_clues(["...", "..."], 0, answer, now).found
    assert grid == ["1..", "..."] and now  # the other island still lacks its number
    assert maker.try_clues(grid, 4, answer, now).found is None  # a shaded cell: no number tried
    grid, now = maker.try_clues(grid, 5, answer, now).found
    assert grid == ["1..", "..1"] and now == {}
    # the island's second cell, beside its number: one value tried, the rule of one number per island
    # broken by it whatever its value
    two = {"shaded": {0: False, 1: False, 2: True, 3: True, 4: True, 5: True}}
    runs = []
    maker.broken = lambda grid, answer, run=maker.broken: runs.append(grid) or run(grid, answer)
    assert maker.try_clues(["2..", "..."], 1, two, maker.broken(["2..", "..."], two)) == (None, False)
    assert len(runs) == 2  # and the cell is not unfit: the tile was refused by that rule
    # only 1s to place, on the first cell of an island of two: the 1 tried breaks the rule that reads
    # the numbers (an island as large as its number) and no other value is left: the cell is unfit, so
    # no map of these clues has the answer, and clue_all gives up on it
    maker.clues = [("clue", ["1"])]
    assert maker.try_clues(["...", "..."], 0, two, maker.broken(["...", "..."], two)) == (None, True)
    assert maker.clue_all(two, until_valid=True) is None


def test_where_no_clue_can_be_added_the_answer_changes_by_a_cell_and_its_clues_follow():
    import random

    from gridlang.core.deadline import Deadline
    from gridlang.why.generation.maker import Maker
    from gridlang.why.generation.settle import _reshape, fits

    maker = Maker(gridlang.bundled("nurikabe"), 4, 4, {}, "cpsat", "maxsat", random.Random(1), Deadline(60))
    answer = maker.answer(["...."] * 4)
    grid = maker.clue_all(answer, until_valid=True)
    assert grid == ["....", "....", "..6.", "...."]  # one island of six: a second number cannot be added
    other = maker.another(grid, answer, "cpsat")
    assert sorted(p for p, v in other["shaded"].items() if v) == [1, 2, 3, 5, 7, 11, 12, 13, 14, 15]
    after, changed, added = _reshape(maker, answer, other, grid)
    # the cell below the top right corner is wall now, as in the second answer: the island splits into
    # one cell, numbered 1, and four, its number rewritten
    assert after == ["...1", "....", "...4", "...."] and added
    assert sorted(p for p, v in changed["shaded"].items() if v) == [0, 1, 2, 4, 6, 7, 8, 12, 13, 14, 15]
    assert fits(maker, after, changed) == {} and fits(maker, after, other) != {}
