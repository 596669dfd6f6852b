"""The page's board through the HTTP API (Starlette's test client, one worker): the puzzle drawn
before any solve with the geometry the page lays its cells over, its puzz.link URL, a player's
answer judged by the spec's rules, and the hint's steps each drawn and in words."""

from __future__ import annotations

import itertools
import re
import warnings

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx: pip install '.[test]'")

with (
    warnings.catch_warnings()
):  # Starlette 1.x prefers httpx2 beside httpx; either works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from board_puzzles import (
    KROPKI,
    MASYU,
    NURIKABE,
    STARBATTLE,
    STARBATTLE_MAP,
    SUDOKU,
    SUDOKU_ANSWER,
)

import gridlang
from gridlang.web.app import Settings, create_app


@pytest.fixture(scope="module")
def client():
    with TestClient(
        create_app(Settings(workers=1, queue=2, time_limit=30)),
        raise_server_exceptions=True,
    ) as c:
        yield c


def check(client, bundled: str, puzzle: str, answer: dict):
    """``POST /api/check`` of an answer to the bundled spec's puzzle: the response."""
    return client.post(
        "/api/check", json={"bundled": bundled, "puzzle": puzzle, "answer": answer}
    )


def test_an_empty_board_is_drawn_with_its_geometry_and_url(client):
    response = client.post(
        "/api/board", json={"bundled": "nurikabe", "puzzle": ".....\n" * 5}
    )
    assert response.status_code == 200, response.text
    board = response.json()
    assert (board["rows"], board["cols"], board["cell"], board["pad"]) == (
        5,
        5,
        32,
        8.0,
    )
    assert (board["width"], board["height"]) == (176, 176)
    assert board["svg"].count('class="tile tile-blank"') == 25
    assert board["url"] == "https://puzz.link/p?nurikabe/5/5/zk"
    (shaded,) = board["decisions"]
    assert (
        shaded["name"] == "shaded"
        and shaded["boolean"]
        and len(shaded["cells"]) == 25
        and shaded["fixed"] == []
    )


def test_an_open_value_s_sizes_come_as_a_range_not_one_by_one(client):
    """Fillomino's ``1..(count(all))``: 1 to 3 listed, the sizes from its open value 4 up to the 2,500
    cells of a 50x50 board as one range (they were 2,500 values listed); Nurikabe's Boolean has none."""
    fillomino = client.post(
        "/api/board", json={"bundled": "fillomino", "puzzle": ("." * 50 + "\n") * 50}
    ).json()
    (digit,) = fillomino["decisions"]
    assert (digit["values"], digit["range"]) == ([1, 2, 3], [4, 2500])
    assert len(digit["cells"]) == 2500
    nurikabe = client.post(
        "/api/board", json={"bundled": "nurikabe", "puzzle": NURIKABE}
    ).json()
    (shaded,) = nurikabe["decisions"]
    assert (shaded["values"], shaded["range"]) == ([True], None)


def test_a_url_board_gives_its_text_map_with_the_rooms_layer(client):
    board = client.post(
        "/api/board", json={"bundled": "horse", "puzzle": STARBATTLE}
    ).json()
    assert board["spec"] == "puzzles/starbattle.grid"
    assert board["map"].splitlines()[1:] == STARBATTLE_MAP
    assert board["url"] == STARBATTLE


def test_a_spec_without_a_format_says_why_it_has_no_url(client):
    board = client.post(
        "/api/board",
        json={"bundled": "horse", "puzzle": "~~~\n~H~\n~~~\n", "params": {"budget": 1}},
    ).json()
    assert (
        board["url"] is None
        and board["url_error"] == "this spec declares no puzz.link format"
    )


def test_sudoku_givens_are_fixed_entries(client):
    board = client.post(
        "/api/board", json={"bundled": "sudoku", "puzzle": SUDOKU}
    ).json()
    assert board["decisions"][0]["fixed"] == [
        [[0, 1], 1],
        [[1, 3], 2],
        [[2, 0], 3],
        [[3, 2], 3],
    ]


def test_check_says_right_for_the_answer_without_its_givens(client):
    givens = {(0, 1), (1, 3), (2, 0), (3, 2)}
    digits = [
        [[r, c], v]
        for r, row in enumerate(SUDOKU_ANSWER)
        for c, v in enumerate(row)
        if (r, c) not in givens
    ]
    judged = check(client, "sudoku", SUDOKU, {"digit": digits})
    assert judged.status_code == 200, judged.text
    assert judged.json()["ok"] is True
    assert judged.json()["text"] == "right: every rule of the puzzle holds"
    digits[0] = [[0, 0], 4]
    judged = check(client, "sudoku", SUDOKU, {"digit": digits}).json()
    assert judged["ok"] is False
    assert [v["line"] for v in judged["violations"]] == [23, 24, 25]
    assert judged["text"].splitlines()[0] == "not right: 3 rules are broken"
    judged = check(client, "sudoku", SUDOKU, {"digit": digits[1:]}).json()
    assert (
        judged["empty"] == [[0, 0]]
        and judged["text"] == "1 cell is still empty: row 1, column 1"
    )


def test_check_names_the_broken_rule_in_words(client):
    judged = check(client, "nurikabe", "2.\n..\n", {"shaded": [[[1, 1], True]]}).json()
    assert judged["ok"] is False
    assert [(v["line"], v["cells"]) for v in judged["violations"]] == [
        (22, [[0, 0]]),
        (29, []),
    ]
    assert (
        "line 22: for each c in clue: value(c) is known implies count(component of c in not shaded) == "
        "value(c) (with c = row 1, column 1: the condition is false)" in judged["text"]
    )


def test_check_refuses_an_answer_of_another_shape_in_a_sentence(client):
    response = check(client, "nurikabe", "2.\n..\n", {"shaded": [[0, 1]]})
    assert response.status_code == 400
    assert "[[row, column], value]" in response.json()["error"]
    response = check(client, "nurikabe", "2.\n..\n", {"shaded": [[[0, 0], True]]})
    assert response.status_code == 400
    assert response.json()["error"] == "error: 'shaded' is not made on row 1, column 1"


def test_check_refuses_an_edge_for_a_cell_decision_and_a_cell_for_an_edge_one(client):
    # Both shapes pass the request's own check; the decision's kind decides which one it takes.
    response = check(client, "nurikabe", "2.\n..\n", {"shaded": [[[[0, 0], [0, 1]], True]]})
    assert response.status_code == 400
    assert response.json()["error"] == (
        "error: 'shaded' is made on cells: give an entry as [r, c], not [[0, 0], [0, 1]]")
    response = check(client, "masyu", MASYU, {"line": [[[0, 1], True]]})
    assert response.status_code == 400
    assert response.json()["error"] == (
        "error: 'line' is made on edges: give an entry as [[r1, c1], [r2, c2]], not [0, 1]")


def test_a_cell_and_an_edge_take_one_and_zero_for_true_and_false_alike(client):
    # 1 marks, 0 leaves unmarked, on a cell decision and on an edge decision; 2 is refused by both
    as_true = check(client, "nurikabe", "2.\n..\n", {"shaded": [[[1, 1], True], [[1, 0], False]]})
    as_one = check(client, "nurikabe", "2.\n..\n", {"shaded": [[[1, 1], 1], [[1, 0], 0]]})
    assert as_true.status_code == as_one.status_code == 200
    assert as_one.json()["ok"] is False and as_one.json() == as_true.json()
    line = {"line": [[[[1, 1], [1, 2]], 1], [[[0, 0], [0, 1]], 0]]}
    assert check(client, "masyu", MASYU, line).json()["violations"][0]["cells"] == [[1, 1], [1, 2]]
    for decision, entry, name in (
        ("shaded", [[1, 1], 2], "shaded"),
        ("line", [[[1, 1], [1, 2]], 2], "line"),
    ):
        spec, data = ("nurikabe", "2.\n..\n") if decision == "shaded" else ("masyu", MASYU)
        response = check(client, spec, data, {decision: [entry]})
        assert response.status_code == 400
        assert response.json()["error"] == f"error: {name!r} is true or false, not 2"


def test_hint_steps_are_each_drawn_and_in_words(client):
    hints = client.post("/api/tools/hint", json={"puzzle": NURIKABE}).json()
    expected = gridlang.hints(url=NURIKABE)
    assert len(hints["steps"]) == len(expected.steps) == 9
    first = hints["steps"][0]
    # the spec is named relative to the current directory, or by its file name when installed
    assert re.match(
        r"step 1 \(1 rule, 0 known\): row 3, column 3 is shaded; row 4, column 2 is "
        r"shaded; row 4, column 4 is shaded; row 5, column 3 is shaded\n  by "
        r"(puzzles/)?nurikabe\.grid:22:56: each island has as many cells as its number  ",
        first["text"],
    )
    assert first["svg"].count('class="decides"') == 4
    assert hints["text"].splitlines()[-3].startswith("solved in 9 steps")
    assert hints["text"].splitlines()[-2].startswith("difficulty 1.75: easy")


def test_check_of_a_puzzle_with_an_objective_gives_its_score_not_a_verdict_of_best(
    client,
):
    judged = check(
        client,
        "horse",
        "budget: 1\n~~~~\n~H.~\n~.~~\n~~~~\n",
        {"wall": [[[2, 1], True]]},
    ).json()
    assert judged["ok"] is True and judged["objective"] == 2
    assert (
        judged["text"]
        == "every rule of the puzzle holds: it scores 2 (Solve finds the best score)"
    )


def test_generate_makes_the_puzzle_the_command_line_makes(client):
    response = client.post(
        "/api/generate",
        json={
            "bundled": "sudoku",
            "rows": 4,
            "cols": 4,
            "seed": 3,
            "params": {"box_rows": 2, "box_cols": 2},
        },
    )
    assert response.status_code == 200, response.text
    made = response.json()
    expected = gridlang.generate(
        gridlang.bundled("sudoku"), (4, 4), 3, {"box_rows": 2, "box_cols": 2}
    )
    assert (made["map"], made["url"], made["clues"]) == (
        expected.map,
        expected.url,
        expected.clues,
    )
    assert gridlang.solve(url=made["url"], unique=True).unique is True


def test_generate_refuses_a_size_in_a_sentence(client):
    response = client.post(
        "/api/generate", json={"bundled": "sudoku", "rows": 0, "cols": 4}
    )
    assert response.status_code == 400
    assert (
        response.json()["error"]
        == 'error: "rows" must be a whole number from 1 to 30, not 0'
    )
    response = client.post("/api/generate", json={"rows": 4, "cols": 4})
    assert response.json()["error"] == (
        'error: give the spec: "bundled" (a shipped spec\'s name) or "spec" (its text)'
    )


def test_a_board_whose_rules_fail_whatever_the_decisions_reads_as_a_puzzle(client):
    board = client.post(
        "/api/board", json={"bundled": "nurikabe", "puzzle": "5.\n..\n"}
    ).json()
    # a rule that fails whatever the decisions makes an infeasible puzzle, not bad input: the board
    # reads, with its three blank cells to shade, and the live check says there is no answer
    assert board["no_answer"] is False and board["problem"] is None
    assert [len(d["cells"]) for d in board["decisions"]] == [3]
    board = client.post(
        "/api/board", json={"bundled": "horse", "puzzle": "~~~\n~~~\n"}
    ).json()
    assert (
        board["no_answer"] is False
        and board["svg"].count('class="tile tile-water"') == 6
    )
    assert board["problem"].startswith(
        "<map>:1:1: error: the map has no 'horse' tile ('H')"
    )


def test_a_board_names_the_model_files_that_can_be_written(client):
    """Masyu's loop is connected through chosen edges, which no LP, MPS or WCNF file holds (``gridlang
    export`` refuses them); the page offers what the board names."""
    masyu = client.post(
        "/api/board", json={"puzzle": "https://puzz.link/p?masyu/6/6/1063000i3000"}
    ).json()
    assert masyu["files"] == ["asp"]
    nurikabe = client.post("/api/board", json={"puzzle": NURIKABE}).json()
    assert nurikabe["files"] == ["lp", "mps", "wcnf", "asp"]
    unfinished = client.post(
        "/api/board", json={"bundled": "horse", "puzzle": "~~~\n~~~\n"}
    ).json()
    assert unfinished["problem"] is not None and unfinished["files"] == []


def test_the_board_lists_the_edges_of_a_line_and_the_outside_frame(client):
    masyu = client.post(
        "/api/board", json={"bundled": "masyu", "puzzle": "*..\n...\n...\n"}
    ).json()
    assert masyu["decisions"] == [] and masyu["lattice"] == ["line"]
    (line,) = masyu["lines"]
    assert (line["name"], line["kind"], line["boolean"]) == ("line", "edges", True)
    assert len(line["edges"]) == 12  # 3 x 2 across and 2 x 3 down, between cell centres
    assert line["edges"][0] == [[0, 0], [0, 1]]
    slither = client.post(
        "/api/board", json={"bundled": "slitherlink", "puzzle": "3.\n..\n"}
    ).json()
    assert (
        slither["lines"][0]["kind"] == "corners"
        and len(slither["lines"][0]["edges"]) == 12
    )
    sky = client.post(
        "/api/board",
        json={
            "bundled": "skyscrapers",
            "puzzle": "https://puzz.link/p?skyscrapers/4/4/k13h4j3g",
        },
    ).json()
    assert (sky["rows"], sky["cols"], sky["frame"]) == (6, 6, ["+"])
    assert (
        len(sky["outside"]) == 20
        and [0, 0] in sky["outside"]
        and [1, 1] not in sky["outside"]
    )
    assert masyu["outside"] == [] and masyu["frame"] == []


def test_the_spec_info_names_the_tiles_on_borders_and_corners(client):
    kropki = client.get("/api/specs/kropki").json()
    assert kropki["border_tiles"] == [
        {"name": "none", "chars": ["."], "number": False},
        {"name": "white", "chars": ["w"], "number": False},
        {"name": "black", "chars": ["b"], "number": False},
    ]
    assert kropki["corner_tiles"] == [] and kropki["frame_borders"] is False
    assert client.get("/api/specs/mejilink").json()["frame_borders"] is True
    assert (
        kropki["size_params"]["n"]["4x4"] == 4 and len(kropki["size_params"]["n"]) == 15
    )
    creek = client.get("/api/specs/creek").json()
    assert creek["corner_tiles"] == [
        {"name": "plain", "chars": ["."], "number": False},
        {"name": "clue", "chars": [], "number": True},
    ]


def test_a_line_drawn_by_a_player_is_judged_by_the_spec_s_rules(client):
    around = [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0], [1, 0], [0, 0]]
    edges = [[[a, b], True] for a, b in itertools.pairwise(around)]
    right = check(client, "masyu", MASYU, {"line": edges}).json()
    assert right["ok"] and right["text"] == "right: every rule of the puzzle holds"
    open_line = check(client, "masyu", MASYU, {"line": edges[:-1]}).json()
    assert not open_line["ok"]
    assert [v["line"] for v in open_line["violations"]] == [
        20,
        21,
    ]  # no loop, and no turn at the pearl
    bad = check(
        client,
        "masyu",
        MASYU,
        {"line": [[[[0, 0], [1, 1]], True]]},
    )
    assert bad.status_code == 400
    assert bad.json()["error"] == "error: 'line' is not made between [0, 0] and [1, 1]"


def test_check_gives_the_borders_corners_rows_and_lines_of_a_broken_rule(client):
    latin = [[[r, c], (r + c) % 4 + 1] for r in range(4) for c in range(4)]
    judged = check(client, "kropki", KROPKI, {"digit": latin}).json()
    white = [v for v in judged["violations"] if v["line"] == 36]
    assert [v["borders"] for v in white] == [
        [[[1, 2], [1, 3]]],
        [[[3, 0], [3, 1]]],
        [[[1, 2], [2, 2]]],
    ]
    assert len(judged["violations"]) == 17 and all(
        len(v["borders"]) == 1 for v in judged["violations"]
    )
    stars = check(client, "starbattle", STARBATTLE, {"star": [[[0, 0], True]]}).json()
    row = stars["violations"][0]
    assert (row["line"], row["cells"]) == (22, [])
    assert row["region"] == [[1, c] for c in range(6)]  # row 2 holds no star
    loop = check(client, "masyu", MASYU, {"line": [[[[1, 1], [1, 2]], True]]}).json()
    # the loop rule at the line's two dead ends; the pearl's rule at its cell
    assert [(v["line"], v["cells"], v["lines"]) for v in loop["violations"]] == [
        (20, [[1, 1], [1, 2]], []),
        (21, [[0, 0]], []),
    ]
    assert (
        loop["violations"][0]["reason"]
        == "2 dead ends at row 2, column 2; row 2, column 3"
    )


def test_check_locates_a_broken_loop_at_its_dead_ends_and_branches_or_else_names_the_line(
    client,
):
    # Slitherlink's line runs along the cells' sides: its dead end and its branch are corners
    top = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (0, 0)]
    spur = [[[list(a), list(b)], True] for a, b in itertools.pairwise(top)]
    spur.append([[[1, 1], [2, 1]], True])
    judged = check(client, "slitherlink", "3.\n..\n", {"line": spur}).json()
    (loop,) = judged["violations"]
    assert (loop["line"], loop["cells"], loop["corners"], loop["lines"]) == (
        17,
        [],
        [[1, 1], [2, 1]],
        [],
    )
    assert loop["reason"] == (
        "a dead end at corner row 3, column 2 and a branch at corner row 2, column 2"
    )
    # two loops: no point breaks the rule, the line as a whole does
    squares = [
        [
            [(r, c), (r, c + 1)],
            [(r, c + 1), (r + 1, c + 1)],
            [(r + 1, c), (r + 1, c + 1)],
            [(r, c), (r + 1, c)],
        ]
        for r, c in ((0, 0), (2, 2))
    ]
    two = [[[list(a), list(b)], True] for square in squares for a, b in square]
    judged = check(client, "masyu", "....\n" * 4, {"line": two}).json()
    (loop,) = judged["violations"]
    assert (loop["cells"], loop["corners"], loop["lines"]) == ([], [], ["line"])
    assert loop["reason"] == "the chosen edges of 'line' form more than one loop"


def test_generate_takes_a_symmetry_and_a_difficulty_and_names_a_bad_one(client):
    request = {
        "bundled": "sudoku",
        "rows": 4,
        "cols": 4,
        "seed": 3,
        "params": {"box_rows": "2", "box_cols": "2"},
    }
    made = client.post(
        "/api/generate", json={**request, "symmetry": "mirror", "difficulty": "easy"}
    ).json()
    assert made["map"] == "box_rows: 2\nbox_cols: 2\n.14.\n....\n.31.\n.23.\n"
    assert (
        made["level"],
        made["difficulty"],
        made["tries"],
        made["complete"],
        made["note"],
    ) == (
        "easy",
        2.5,
        1,
        True,
        None,
    )
    bad = client.post("/api/generate", json={**request, "symmetry": "diagonal"})
    assert bad.status_code == 400
    assert (
        bad.json()["error"]
        == "error: \"symmetry\" is one of none, rotational, mirror, not 'diagonal'"
    )
    bad = client.post("/api/generate", json={**request, "difficulty": "fiendish"})
    assert bad.json()["error"] == (
        "error: \"difficulty\" is null or one of easy, medium, hard, expert, not 'fiendish'"
    )
