"""Clues on the borders between cells: tiles ``on borders``, the map's ``borders:`` layer, ``cells(b)``.

The layer is read in pzprjs's order; the lowering is counted against brute force on every
backend (each assignment judged by the interpreter, which reads the borders its own way);
the errors of the spec, the map and the URL are located; the puzz.link encodings read and
write pzprjs's ``decodeCircle_kropki`` and ``decodeMinarism``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from processes import gridlang_process
from tiny import judged_answers, solved_answers, spec_errors
from tiny import spec_judge as _judge

from gridlang.core.errors import GridlangError
from gridlang.core.grid import Grid
from gridlang.formats.layers import read_layered
from gridlang.formats.maps import encode_map
from gridlang.solving.pipeline import load_checked

# 3x3 cells: the borders inside each row (2), then under it (3), by turns
LAYER = "borders:\n a b\nc d e\n f g\nh i j\n k l\n"


def test_the_border_layer_reads_in_pzprjs_order():
    data = read_layered("m.txt", "...\n...\n...\n" + LAYER)
    # pzprjs: the R x (C - 1) borders between left and right neighbours row by row, then the (R - 1) x C others
    assert data.borders == ["a", "b", "f", "g", "k", "l", "c", "d", "e", "h", "i", "j"]
    assert (data.border_span(2).line, data.border_span(2).column) == (7, 2)


def test_border_cells_and_index_agree():
    grid = Grid(3, 4, ("." * 12), ("blank",) * 12)
    assert grid.border_count == 3 * 3 + 2 * 4
    assert [grid.border_cells(k) for k in (0, 2, 3, 8, 9, 16)] == [
        (0, 1),
        (2, 3),
        (4, 5),
        (10, 11),
        (0, 4),
        (7, 11),
    ]
    assert all(
        grid.border_index(*grid.border_cells(k)) == k for k in range(grid.border_count)
    )
    assert (
        grid.border_index(3, 4) is None
    )  # the end of a row and the start of the next are not neighbours
    assert grid.border_index(5, 0) is None


def test_one_column_and_one_row_have_no_empty_rows():
    assert read_layered("m.txt", ".\n.\n.\nborders:\nx\ny\n").borders == ["x", "y"]
    assert read_layered("m.txt", "...\nborders:\nx y\n").borders == ["x", "y"]


@pytest.mark.parametrize(
    "layer, where, words",
    [
        (
            "borders:\n a b\nc d e\n f g\nh i j\n",
            "m.txt:8:5",
            "the border layer has 4 rows; it needs 5 rows for a 3x3",
        ),
        (
            "borders:\n a b\nc d\n f g\nh i j\n k l\n",
            "m.txt:6:3",
            "this row of the border layer has 2 borders; the borders under grid row 1 are 3",
        ),
        (
            "borders:\n a b z\nc d e\n f g\nh i j\n k l\n",
            "m.txt:5:6",
            "this row of the border layer has 3 borders; the borders between the cells of grid row 1 are 2",
        ),
        (LAYER + "borders:\n a\n", "m.txt:10:1", "'borders:' is given twice"),
        ("borders:\n", "m.txt:4:1", "'borders:' is followed by no border layer"),
    ],
)
def test_layer_shape_errors_are_located(layer, where, words):
    with pytest.raises(GridlangError) as info:
        read_layered("m.txt", "...\n...\n...\n" + layer)
    text = str(info.value)
    assert text.startswith(where) and words in text, text


SPEC = (
    "tile blank '.'\ntile plain '.' on borders\ntile clue number on borders\ntile arrow '>' on borders\n"
    "decide shaded: bool on all\n"
    "require for each b in clue: value(b) is known implies count(shaded and cells(b)) == value(b)\n"
    "require for each b in arrow, each p in cells(b), each q in cells(b):\n"
    "    q = p + right or q = p + down implies shaded[p] and not shaded[q]\n"
)
# 2x3 cells: a 1 between (0, 0) and (0, 1), an arrow under (0, 1), a ? under (0, 2), a 1 between (1, 1) and (1, 2)
MAP = "...\n...\nborders:\n 1 .\n. > ?\n . 1\n"


@functools.cache
def brute_force() -> frozenset[tuple[bool, ...]]:
    """Every shading of the 2x3 map the interpreter accepts."""
    *_, grid, judge = _judge(SPEC, MAP)
    return judged_answers(judge, grid, "shaded")


def test_the_interpreter_reads_the_borders_as_the_rules_say():
    # (0, 1) shaded above the arrow, (1, 1) under it not; one of (0, 0), (0, 1); one of (1, 1), (1, 2)
    assert brute_force() == {
        (False, True, c2, c3, False, True)
        for c2 in (False, True)
        for c3 in (False, True)
    }


def test_lowering_matches_brute_force(backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, _ = _judge(SPEC, MAP)
    assert solved_answers(spec, symbols, data, grid, backend, "shaded", brute_force()) == brute_force()


@pytest.mark.parametrize(
    "spec, where, words",
    [
        (
            SPEC.replace("cells(b))\n", "cells(p))\n")
            .replace("each b in clue", "each p in all")
            .replace("value(b)", "1"),
            (6, 70),
            "cells(...) takes one corner of the lattice of cell corners",
        ),
        (
            "tile blank '.'\ntile link 'a' on borders linked\ndecide shaded: bool on all\n",
            (2, 26),
            "a tile on borders takes no tags and is not linked",
        ),
        (
            SPEC.replace("count(shaded and cells(b))", "count(clue)"),
            (6, 61),
            "count(...) takes a cell set; this is a set of borders between cells",
        ),
        (
            SPEC.replace("shaded[p] and", "shaded[b] and"),
            (8, 50),
            "takes one cell",
        ),
    ],
)
def test_spec_errors_are_located(spec, where, words):
    errors = spec_errors(spec)
    assert any(
        (line, column) == where and words in message for line, column, message in errors
    ), errors


@pytest.mark.parametrize(
    "map_text, where, words",
    [
        ("...\n...\n", "m.txt:1:1", "the map gives no 'borders:' layer under its grid"),
        (
            "...\n...\nborders:\n 1 .\n. x ?\n . 1\n",
            "m.txt:5:3",
            "'x' on the border between column 2, rows 1 and 2",
        ),
    ],
)
def test_map_errors_are_located(map_text, where, words):
    with pytest.raises(GridlangError) as info:
        _judge(SPEC, map_text)
    text = str(info.value)
    assert text.startswith(where) and words in text, text


def test_a_border_layer_for_a_spec_without_tiles_on_borders_is_refused():
    with pytest.raises(
        GridlangError, match="the spec puts no tile on the borders between cells"
    ):
        _judge(
            "tile blank '.'\ndecide shaded: bool on all\n",
            "..\n..\nborders:\n.\n. .\n.\n",
        )


def test_an_unknown_number_is_an_error_at_the_border_in_the_map():
    spec = SPEC.replace("value(b) is known implies ", "")
    spec_, symbols, data, _, _ = _judge(spec, MAP)
    with pytest.raises(GridlangError) as info:
        load_checked(spec_, symbols, data, {})
    text = str(info.value)
    assert text.startswith(
        "m.txt:5:5: error: on the border between row 1, column 3 and row 2, column 3:"
    ), text


SIGNS = (
    "puzzle \"signs\"\ntile blank '.'\ntile none '.' on borders\ntile lt '<' on borders\n"
    "tile gt '>' on borders\ntile diff number on borders\ndecide digit: 1..4 on all\n"
    'format puzzlink "minarism":\n    borders: inequalities (less = lt, greater = gt, ? = diff)\n'
)
DOTS = (
    "puzzle \"dots\"\ntile blank '.'\ntile none '.' on borders\ntile white 'w' on borders\n"
    "tile black 'b' on borders\ndecide digit: 1..4 on all\n"
    'format puzzlink "kropki":\n    borders: circles (1 = white, 2 = black)\n'
)


def _import(tmp_path, spec_text: str, url: str) -> tuple[Path, str]:
    spec = tmp_path / "s.grid"
    spec.write_text(spec_text)
    out = gridlang_process("import", url, "--spec", str(spec))
    assert out.returncode == 0, out.stderr
    return spec, out.stdout


def test_circles_on_the_borders_read_and_write_as_pzprjs(tmp_path):
    """pzprjs's kropki test URL (test/script/kropki.js): decodeCircle_kropki, three borders a base-27
    character; the layer holds the dots of its pzprv3 board (1 white, 2 black), row by row."""
    spec, text = _import(tmp_path, DOTS, "https://puzz.link/p?kropki/4/4/aa7fioco")
    layer = text.split("borders:\n")[1].split("\n")[:7]
    assert layer == [
        " w . w",
        "b . . b",
        " w . w",
        "b . w w",
        " . b w",
        ". b b .",
        " w b .",
    ]
    (tmp_path / "m.txt").write_text(text)
    assert (
        encode_map(str(spec), str(tmp_path / "m.txt"))
        == "https://puzz.link/p?kropki/4/4/aa7fioco"
    )


def test_numbers_and_inequalities_on_the_borders_read_and_write_as_pzprjs(tmp_path):
    """pzprjs's minarism test URL (test/script/minarism.js): decodeMinarism; 'h' the first cell greater
    (its board's 'b'), 'g' the first smaller ('a'), numbers, and runs of borders without either."""
    spec, text = _import(tmp_path, SIGNS, "https://puzz.link/p?minarism/4/4/hhhq21pgi")
    layer = text.split("borders:\n")[1].split("\n")[:7]
    assert layer == [
        " > > >",
        "2 1 . .",
        " . . .",
        ". . . .",
        " . . .",
        ". . < .",
        " . . .",
    ]
    (tmp_path / "m.txt").write_text(text)
    assert (
        encode_map(str(spec), str(tmp_path / "m.txt"))
        == "https://puzz.link/p?minarism/4/4/hhhq21pgi"
    )
    (tmp_path / "m.txt").write_text(
        ".....\n.....\nborders:\n 20 ? . <\n. . . . >\n . . . .\n"
    )
    assert (
        encode_map(str(spec), str(tmp_path / "m.txt"))
        == "https://puzz.link/p?minarism/5/2/-14.igph"
    )


@pytest.mark.parametrize(
    "body, column, words",
    [
        (
            "aaaaa",
            34,
            "unexpected 'aaa' after the puzzle's data (a 2x2 grid is complete before it)",
        ),
        ("2", 33, "the circles of a 2x2 grid take 2 characters; the URL has 1"),
    ],
)
def test_a_url_whose_borders_run_long_or_short_is_refused_at_the_character(
    tmp_path, body, column, words
):
    spec = tmp_path / "s.grid"
    spec.write_text(DOTS)
    out = gridlang_process("import", f"https://puzz.link/p?kropki/2/2/{body}", "--spec", str(spec))
    assert out.returncode == 1
    assert out.stderr.startswith(f"--url:1:{column}: error: {words}"), out.stderr


@pytest.mark.parametrize(
    "spec, words",
    [
        (
            SIGNS.replace("less = lt, ", ""),
            "inequalities gives 'less', and s.grid has no tile for it",
        ),
        (
            SIGNS.replace("less = lt", "fewer = lt"),
            "a mapping's key is a number, '?', 'empty', 'less', 'greater'",
        ),
        (SIGNS.replace("inequalities", "number10"), "number10 cannot fill borders"),
        (
            "tile blank '.'\ndecide digit: 1..4 on all\nformat puzzlink \"t\":\n    borders: circles\n",
            "the format fills the borders between cells, and the spec puts no tile on them",
        ),
    ],
)
def test_format_errors_are_found_in_the_spec(spec, words):
    errors = spec_errors(spec)
    assert any(words in message for _, _, message in errors), errors


def test_a_map_token_the_format_cannot_write_is_an_error_at_the_border(tmp_path):
    spec = tmp_path / "s.grid"
    spec.write_text(SIGNS)
    (tmp_path / "m.txt").write_text("...\nborders:\n 300 .\n")
    with pytest.raises(GridlangError) as info:
        encode_map(str(spec), str(tmp_path / "m.txt"))
    assert str(info.value).startswith(
        f"{tmp_path / 'm.txt'}:3:2: error: 300 is not a number from 0 to 255, '?' "
        "or an inequality sign (the border between row 1, column 1 and row 1, column 2)"
    )


def test_the_picture_draws_each_dot_on_its_border(tmp_path):
    """pzprjs's kropki test URL: eight white dots and seven black ones, each a circle on a border's midpoint."""
    spec = tmp_path / "s.grid"
    spec.write_text(DOTS + "draw white as circle\ndraw black as disc\n")
    svg = tmp_path / "dots.svg"
    out = gridlang_process(
        "solve",
        str(spec),
        "--url",
        "https://puzz.link/p?kropki/4/4/aa7fioco",
        "--svg",
        str(svg),
    )
    assert out.returncode == 0, out.stderr
    group = svg.read_text().split('class="border-clues"')[1].split("</g>")[0]
    assert group.count('class="border-circle"') == 8
    assert group.count('class="border-disc"') == 7


def test_the_picture_draws_numbers_in_circles_and_signs_on_the_borders(tmp_path):
    """pzprjs's minarism test URL: two numbers in circles, four inequality signs."""
    spec = tmp_path / "s.grid"
    spec.write_text(SIGNS + "draw lt as less\ndraw gt as greater\n")
    svg = tmp_path / "signs.svg"
    out = gridlang_process(
        "solve",
        str(spec),
        "--url",
        "https://puzz.link/p?minarism/4/4/hhhq21pgi",
        "--svg",
        str(svg),
    )
    assert out.returncode == 0, out.stderr
    group = svg.read_text().split('class="border-clues"')[1].split("</g>")[0]
    assert group.count('class="border-circle"') == 2
    assert group.count('class="border-sign"') == 4
    assert ">2<" in group and ">1<" in group


def test_the_text_answer_shows_the_borders_between_the_cells():
    from gridlang.pictures.textdraw import with_borders

    # 2x2: a w between the top cells, nothing between the bottom ones, b and 12 under the top cells
    assert (
        with_borders(2, 2, ["1", "2", "3", "4"], ("w", ".", "b", "12"))
        == " 1  w  2\n b    12\n 3     4"
    )


def test_a_tile_on_borders_is_drawn_with_a_look_of_borders():
    errors = spec_errors(DOTS + "draw white as shade\n")
    assert any(
        (line, column) == (9, 15)
        and "'white' cannot be drawn as 'shade'" in message
        and "circle, disc" in message
        for line, column, message in errors
    ), errors


def test_generate_refuses_clues_on_borders_no_rule_reads_in_a_sentence(tmp_path):
    # the dots of DOTS say nothing about the digits; tests/why/test_why_generate_sites.py makes Kropki's
    spec = tmp_path / "s.grid"
    spec.write_text(DOTS)
    out = gridlang_process("generate", str(spec), "--size", "4x4", "--seed", "1")
    assert out.returncode == 1
    assert out.stderr == (
        f"error: {spec}: no rule reads its clues on the borders between cells, so no clue there can "
        "make an answer unique\n"
    )


def test_a_count_on_a_tile_on_borders_is_refused_at_it():
    errors = spec_errors(
        DOTS.replace("tile white 'w' on borders", "tile white 'w' on borders exactly 1")
    )
    assert any(
        (line, column) == (4, 27) and "a tile on borders takes no count" in message
        for line, column, message in errors
    ), errors


VOXAS = Path(__file__).resolve().parents[2] / "puzzles" / "voxas.grid"


def test_voxas_flag_t_forbids_four_blocks_at_a_point():
    """pzprjs's voxas test URL is unique without the flag; its answer has four blocks meeting below row 2
    and right of column 1, so with the flag t (no such point) it has none."""
    plain = gridlang_process(
        "solve",
        str(VOXAS),
        "--url",
        "https://puzz.link/p?voxas/5/5/hdhbhchbk7dh8bi",
        "--unique",
    )
    assert (
        plain.returncode == 0
        and "unique: the solution is the only one (proved)" in plain.stdout
    ), plain.stderr
    flagged = gridlang_process(
        "solve", str(VOXAS), "--url", "https://puzz.link/p?voxas/t/5/5/hdhbhchbk7dh8bi"
    )
    assert flagged.returncode == 2 and "INFEASIBLE" in flagged.stdout, (
        flagged.stdout,
        flagged.stderr,
    )


def test_the_text_answer_draws_the_walls_between_blocks_on_the_borders_without_a_clue():
    from gridlang.pictures.textdraw import with_borders

    # 2x2 in two blocks, the top row and the bottom row; a w between the bottom cells
    rooms = [0, 0, 1, 1]
    assert (
        with_borders(2, 2, [".", ".", ".", "."], (".", "w", ".", "."), rooms)
        == ".   .\n-   -\n. w ."
    )


def test_a_grid_of_one_cell_has_no_border_layer_to_give(tmp_path):
    spec, text = _import(tmp_path, DOTS, "https://puzz.link/p?kropki/1/1/")
    assert "borders:" not in text
    (tmp_path / "m.txt").write_text(text)
    assert (
        encode_map(str(spec), str(tmp_path / "m.txt"))
        == "https://puzz.link/p?kropki/1/1/"
    )
    _, _, _, grid, _ = _judge(DOTS.split("format")[0], ".\n")
    assert (grid.border_count, grid.border_chars) == (0, ())


COUNTED = SPEC + "require count(any(shaded[p] for p in cells(b)) for b in plain) == 1\n"


def test_an_aggregate_runs_over_the_borders_of_a_tile(backend):
    """count(... for b in plain): the three plain borders, (0, 1)-(0, 2), (0, 0)-(1, 0) and (1, 0)-(1, 1); the
    first touches (0, 1), shaded by the arrow, so (1, 0) is not shaded: two answers of the four, on every
    backend as the interpreter judges them."""
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, judge = _judge(COUNTED, MAP)
    found = judged_answers(judge, grid, "shaded")
    assert found == {(False, True, c2, False, False, True) for c2 in (False, True)}
    assert solved_answers(spec, symbols, data, grid, backend, "shaded", found) == found


def test_a_number_tile_on_borders_may_be_drawn_as_number():
    """The checker's test of a decision's integer looks stays off tiles on borders (it looked the tile up
    among the decisions: a KeyError, 'this is a bug')."""
    spec = SIGNS.replace("format puzzlink", "draw diff as number\nformat puzzlink")
    _, symbols, _, _, _ = _judge(spec.split("format")[0], "..\nborders:\n 1\n")
    assert [(d.name, d.look) for d in symbols.draws] == [("diff", "number")]
