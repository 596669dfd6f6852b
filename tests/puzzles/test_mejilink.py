"""Mejilink: the spec's verifier against pzprjs's own checks, and how the board is drawn.

Its instance (``puzzles/instances/mejilink``) is solved to its published answer, proved unique and verified
by tests/puzzles/test_instances.py. Here: each wrong answer of pzprjs's test script
(robx/pzprjs ``test/script/mejilink.js``, MIT licence) on the same board breaks the rule pzprjs names
for it, and the one it accepts breaks none; the picture draws the dotted borders, the frame's too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from processes import gridlang_process

from gridlang.api import verify

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "puzzles" / "mejilink.grid"
MAP = ROOT / "puzzles" / "instances" / "mejilink" / "pzprjs_4x4.txt"
LOOP = "the line is one loop"
TILES = "a tile's unused dotted borders are as many as its cells"


def _rows(board: str) -> list[list[str]]:
    """A pzprv3 board of a 4x4 Mejilink: its borders with the frame, 4 rows of 5 upright ones, then 5 rows of 4
    flat ones; 0 an erased border, 1 and -1 a dotted one, 2 a dotted one with the line."""
    return [r.split() for r in board.strip("/").split("/")]


def _line(board: str) -> list:
    """The line's edges between corners of the lattice."""
    return [
        [[r, c], [r + 1, c]] if r < 4 else [[r - 4, c], [r - 4, c + 1]]
        for r, row in enumerate(_rows(board))
        for c, v in enumerate(row)
        if v == "2"
    ]


def _url(board: str) -> str:
    """The board's URL, its bits in pzprjs's order of the borders (hasborder: 2), 1 an erased border."""
    rows = _rows(board)
    upright, flat = rows[:4], rows[4:]
    order = [row[c] for row in upright for c in (1, 2, 3)] + [
        row[c] for row in flat[1:4] for c in range(4)
    ]
    order += (
        flat[0] + flat[4] + [row[0] for row in upright] + [row[4] for row in upright]
    )
    bits = "".join("1" if v == "0" else "0" for v in order)
    digits = "0123456789abcdefghijklmnopqrstuv"
    return "https://puzz.link/p?mejilink/4/4/" + "".join(
        digits[int(bits[k : k + 5].ljust(5, "0"), 2)] for k in range(0, len(bits), 5)
    )


# pzprjs's failcheck boards, each with the check pzprjs names, and the answer it accepts. pzprjs names the first
# check of its list that fails (branch, cross, the tiles' count, dead end, one loop); the spec's loop rule
# holds the four checks of the line, so a board pzprjs fails on a branch or a cross may break the tiles'
# rule too, and one it fails on the count may also break the loop's; one it fails on a dead end or a second
# loop has passed the count, so it breaks the loop's alone.
BOARDS = [
    (
        "lnBranch",
        "1 0 1 1 1 /2 2 1 1 1 /2 0 1 1 1 /1 0 0 0 1 /1 1 1 1 /1 0 0 0 /2 0 0 1 /1 1 0 1 /1 1 1 1 /",
        {LOOP, TILES},
    ),
    (
        "lnCross",
        "1 0 1 1 1 /1 1 1 2 1 /1 0 2 2 1 /1 0 0 0 1 /1 1 1 1 /1 0 0 0 /1 0 2 2 /2 2 0 2 /1 1 1 1 /",
        {LOOP, TILES},
    ),
    (
        "bkNoLineNe",
        "2 0 1 1 1 /1 2 1 1 1 /2 0 1 1 1 /2 0 0 0 1 /2 2 1 1 /2 0 0 0 /2 0 0 1 /1 1 0 1 /2 2 2 2 /",
        {TILES, LOOP},
    ),
    (
        "lnDeadEnd",
        "2 0 1 2 2 /1 2 1 2 2 /2 0 1 2 2 /2 0 0 1 2 /2 2 2 1 /2 0 0 0 /2 0 0 1 /1 1 0 0 /2 2 2 2 /",
        {LOOP},
    ),
    (
        "lnPlLoop",
        "2 2 0 2 2 /2 2 0 2 2 /1 0 0 0 1 /2 1 0 1 2 /2 1 1 2 /1 0 0 1 /2 1 1 2 /2 2 2 2 /2 2 2 2 /",
        {LOOP},
    ),
    (
        "accepted",
        "2 0 -1 1 2 /-1 2 -1 1 2 /2 0 -1 2 1 /2 0 0 0 2 /2 2 2 2 /2 0 0 0 /2 0 0 2 /-1 -1 0 2 /2 2 2 2 /",
        set(),
    ),
]


def test_the_accepted_board_is_the_instance_s_url():
    """pzprjs's encoder leaves out the frame's digits, which are all 0 here; the URL's 25th bit is 0."""
    assert _url(BOARDS[-1][1]) == "https://puzz.link/p?mejilink/4/4/g9rm4000"


@pytest.mark.parametrize("check, board, broken", BOARDS, ids=[b[0] for b in BOARDS])
def test_pzprjs_s_boards_break_the_rules_pzprjs_names(tmp_path, check, board, broken):
    puzzle = tmp_path / "m.txt"
    puzzle.write_text(_url(board) + "\n")
    answer = tmp_path / "a.json"
    answer.write_text(
        json.dumps({"decisions": {"line": [[e, 1] for e in _line(board)]}})
    )
    verdict = verify(str(SPEC), str(puzzle), str(answer))
    assert {v.name for v in verdict.violations} == broken


def test_the_picture_draws_every_dotted_border_the_frame_s_too(tmp_path):
    svg = tmp_path / "m.svg"
    out = gridlang_process(
        "solve", str(SPEC), "--map", str(MAP), "--svg", str(svg), "--time-limit", "60"
    )
    assert out.returncode == 0, out.stderr
    text = svg.read_text()
    # 40 borders, 11 of them erased: 29 dotted ones, each cut into five dashes; the tiles not outlined
    assert text.count('class="border-dashed"') == 1
    assert text.split('class="border-dashed"')[1].split(">")[0].count("M") == 29 * 5
    assert 'class="rooms"' not in text
