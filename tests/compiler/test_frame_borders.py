"""Borders on the grid's outer frame: tiles ``on borders and frame``, the layer of ``2R + 1`` rows, a
frame border's one cell in ``cells(b)`` and its two corners in ``corners(b)``.

The layer is read in pzprjs's order (its ``hasborder: 2``: the borders between cells, then the frame's
top, bottom, left and right); the lowering is counted against brute force on every backend, each
assignment judged by the interpreter, which reads the frame its own way; the errors of the spec and the
map are located.
"""

from __future__ import annotations

import functools

import pytest
from tiny import judged_answers, solved_answers, spec_errors
from tiny import spec_judge as _judge

from gridlang.core.errors import GridlangError
from gridlang.core.grid import border_cells, border_ends, border_index, border_places
from gridlang.formats.layers import read_layered
from gridlang.formats.puzzlink.text import borders_text
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked, solve_model

# 2x3 cells and their frame: the top's 3, then each row's 4 beside and between its cells and the 3 under it
FRAMED = "borders:\n a b c\nd e f g\n h i j\nk l m n\n o p q\n"


def test_the_framed_layer_reads_in_pzprjs_order():
    data = read_layered("m.txt", "...\n...\n" + FRAMED)
    # between left and right neighbours (e f, l m), between upper and lower (h i j), then the frame:
    # top (a b c), bottom (o p q), left (d k), right (g n)
    assert data.borders == list("eflmhijabcopqdkgn")
    assert (data.border_span(13).line, data.border_span(13).column) == (
        5,
        1,
    )  # d, the left of row 1


def test_the_framed_layer_is_written_back_as_read():
    tokens = list("eflmhijabcopqdkgn")
    assert borders_text(2, 3, tokens) + "\n" == FRAMED


def test_the_border_between_two_cells_is_found_by_its_index():
    # 2x3: borders 0-3 between left and right neighbours, 4-6 between upper and lower ones; the
    # inverse of border_cells (the puzz.link walls and dots read their borders so), None for cells
    # that are not side neighbours (the end of one row and the start of the next, a diagonal)
    pairs = [border_cells(2, 3, k) for k in range(7)]
    assert [border_index(2, 3, q, p) for p, q in pairs] == list(range(7))
    others = [border_index(2, 3, p, q) for p, q in ((1, 4), (2, 3), (0, 4))]
    assert others == [5, None, None]


def test_a_frame_border_has_its_cell_and_the_place_beyond():
    # 2x3: 7 borders between cells, then 3 top, 3 bottom, 2 left, 2 right
    assert [border_places(2, 3, k) for k in (0, 6, 7, 10, 13, 15)] == [
        ((0, 0), (0, 1)),
        ((0, 2), (1, 2)),
        ((0, 0), (-1, 0)),
        ((1, 0), (2, 0)),
        ((0, 0), (0, -1)),
        ((0, 2), (0, 3)),
    ]
    assert [border_ends(2, 3, k) for k in (0, 6, 7, 10, 13, 16)] == [
        ((0, 1), (1, 1)),
        ((1, 2), (1, 3)),
        ((0, 0), (0, 1)),
        ((2, 0), (2, 1)),
        ((0, 0), (1, 0)),
        ((1, 3), (2, 3)),
    ]


SPEC = """tile blank '.'
tile none '.' on borders and frame
tile mark 'x' on borders and frame
decide shaded: bool on all
require for each b in mark: count(cells(b)) == 1 implies count(shaded and cells(b)) == 1
require for each b in mark: count(cells(b)) == 2 implies count(shaded and cells(b)) == 1
"""
# 2x2: x on the frame above (0, 0), left of (1, 0) and below (1, 1); x between (0, 1) and (1, 1)
MAP = "..\n..\nborders:\n x .\n. . .\n . x\n x . .\n . x\n"


@functools.cache
def brute_force() -> frozenset[tuple[bool, ...]]:
    *_, grid, judge = _judge(SPEC, MAP)
    return judged_answers(judge, grid, "shaded")


def test_the_interpreter_reads_a_frame_border_s_one_cell():
    # (0, 0), (1, 0) and (1, 1) shaded by the frame's marks, so (0, 1) is not, by the mark between them
    assert brute_force() == {(True, False, True, True)}


def test_lowering_matches_brute_force(backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, _ = _judge(SPEC, MAP)
    assert (
        solved_answers(spec, symbols, data, grid, backend, "shaded", brute_force())
        == brute_force()
    )


LINED = """tile blank '.'
tile off '.' on borders and frame
tile on '-' on borders and frame
decide line: bool on corner edges
let lined(b) = sum(count(line[v, w] for w in corners(b)) for v in corners(b)) == 2
require for each b in on: lined(b)
require for each b in off: not lined(b)
"""
# 1x2: the loop around both cells, the border between them off
LOOP = "..\nborders:\n - -\n- . -\n - -\n"


def test_corners_of_a_border_name_the_edge_along_it(backend):
    """corners(b) of every border, the frame's too, are its two ends: the line is the borders marked on,
    on every backend, and the interpreter accepts it."""
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, _, judge = _judge(LINED, LOOP)
    model, _ = load_checked(spec, symbols, data, {})
    report = solve_model(model, backend, SolveOptions(time_limit=120), count=3)
    assert report.complete is True and len(report.solutions) == 1
    edges = report.solutions[0].decisions["line"]
    assert sorted(k for k, v in edges.items() if v) == [
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0)),
        ((0, 1), (0, 2)),
        ((0, 2), (1, 2)),
        ((1, 0), (1, 1)),
        ((1, 1), (1, 2)),
    ]
    assert judge.evaluate(report.solutions[0].decisions).ok


def test_a_tile_on_the_frame_and_one_off_it_are_refused_together():
    errors = spec_errors(
        "tile blank '.'\ntile a 'a' on borders and frame\ntile b 'b' on borders\n"
    )
    assert errors == [
        (
            3,
            12,
            (
                "the borders include the grid's frame for every tile on borders or for none: 'a' is "
                "'on borders and frame', 'b' 'on borders'"
            ),
        )
    ]


@pytest.mark.parametrize(
    "spec, map_text, where, words",
    [
        (
            SPEC,
            "..\n..\nborders:\n .\n. .\n .\n",
            "m.txt:4:2",
            (
                "the spec's tiles on borders stand on the grid's frame too ('on borders and frame'); the "
                "border layer gives no frame: it needs 5 rows"
            ),
        ),
        (
            SPEC.replace(" and frame", ""),
            MAP,
            "m.txt:4:2",
            "the border layer gives the grid's frame, and the spec's tiles on borders stand between cells only",
        ),
        (
            SPEC,
            MAP.replace(" x .\n", " x y\n"),
            "m.txt:4:4",
            "'y' on the frame above row 1, column 2 is not a tile on borders of this spec",
        ),
        (
            SPEC,
            MAP.replace(". . .\n", ". . . .\n"),
            "m.txt:5:7",
            (
                "this row of the border layer has 4 borders; the borders beside and between the cells of "
                "grid row 1 are 3"
            ),
        ),
    ],
)
def test_map_errors_are_located(spec, map_text, where, words):
    with pytest.raises(GridlangError) as info:
        _judge(spec, map_text)
    assert str(info.value).startswith(f"{where}: error: {words}"), str(info.value)


def test_a_broken_rule_names_a_frame_border_by_its_cell_and_the_place_beyond():
    """The verifier's places of a broken rule: a frame border as its cell and the place off the grid beyond
    it (what JSON lists), and in words as the frame beside the cell."""
    *_, judge = _judge(SPEC, MAP)
    verdict = judge.evaluate({"shaded": {}})
    frame = [v for v in verdict.violations if v.borders and v.borders[0][1][0] < 0]
    assert [v.borders for v in frame] == [(((0, 0), (-1, 0)),)]
    assert "b = the frame above row 1, column 1" in str(frame[0])
    left = [
        v.borders for v in verdict.violations if v.borders and v.borders[0][1][1] < 0
    ]
    assert left == [(((1, 0), (1, -1)),)]
