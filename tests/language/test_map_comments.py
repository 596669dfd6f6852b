"""A map's rows are never dropped: comment lines that could be rows, blank lines inside a
JSON map, and a JSON value of the wrong shape are located errors."""

from __future__ import annotations

import pytest
from horse_data import REPO

from gridlang.cli import main
from gridlang.core.errors import MapError, ParamError
from gridlang.formats.maps import build_grid, parse_map, read_map
from gridlang.formats.params import resolve_params
from gridlang.language.checker import check
from gridlang.language.parser import parse_file, parse_spec

HORSE = str(REPO / "puzzles" / "horse.grid")
SNAKE = str(REPO / "puzzles" / "snake_eggs.grid")

# Kakuro-like: '#' is a black cell, '.' a white one; the score counts the white cells.
BLOCKS = """puzzle "blocks"
tile black '#'
tile white '.'
decide x: bool on white
maximize count(x)
"""

KAKURO = "#.#.#\n.....\n#.#.#\n.....\n#...#\n.#.#.\n"   # 6 rows of 5, 20 white cells


def blocks(tmp_path):
    path = tmp_path / "blocks.grid"
    path.write_text(BLOCKS)
    return path, check(parse_spec(BLOCKS, str(path)))


def kakuro(tmp_path, spaced: bool, head: str = "", indent: str = ""):
    """The Kakuro map under ``head``, its cells side by side or separated by spaces."""
    rows = [" ".join(row) if spaced else row for row in KAKURO.splitlines()]
    path = tmp_path / "kakuro.txt"
    path.write_text(head + "".join(indent + row + "\n" for row in rows))
    return path


@pytest.mark.parametrize("indent", ["", "  "])
@pytest.mark.parametrize("spaced", [False, True], ids=["plain", "spaced"])
def test_a_row_that_begins_with_a_hash_tile_is_never_read_as_a_comment(tmp_path, indent, spaced):
    _, symbols = blocks(tmp_path)
    path = kakuro(tmp_path, spaced, indent=indent)
    with pytest.raises(MapError) as e:
        build_grid(symbols, read_map(path))
    span = e.value.span
    assert (span.line, span.column) == (1, len(indent) + 1)
    assert ("line 1 begins with '#', which this spec declares as the tile 'black': it could be a row of the grid "
            "or a comment; write a line 'grid:' above the grid's first row") in e.value.message


@pytest.mark.parametrize("spaced", [False, True], ids=["plain", "spaced"])
def test_a_grid_line_marks_where_the_rows_start(tmp_path, capsys, spaced):
    spec, symbols = blocks(tmp_path)
    path = kakuro(tmp_path, spaced, head="# a Kakuro's black cells\n\ngrid:\n")
    grid = build_grid(symbols, read_map(path))
    assert (grid.rows, grid.cols) == (6, 5)
    assert main(["solve", str(spec), "--map", str(path), "--backend", "cpsat", "--json"]) == 0
    assert '"objective": 20' in capsys.readouterr().out


def test_comments_above_the_grid_stay_comments_when_hash_is_no_tile(tmp_path):
    path = tmp_path / "map.txt"
    path.write_text("# from the daily of 2026-01-07\nbudget: 1\n  # an indented comment\n~~~~~\n~.H.~\n~~~~~\n")
    symbols = check(parse_file(HORSE))
    data = read_map(path)
    assert data.comments == [1, 3] and build_grid(symbols, data).rows == 3
    assert resolve_params(symbols, data)["budget"] == 1


def test_a_comment_line_inside_the_grid_gets_a_true_message(tmp_path):
    path = tmp_path / "map.txt"
    path.write_text("budget: 1\n~~~~~\n~.H.~\n# hi\n~...~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        read_map(path)
    assert (e.value.span.line, e.value.span.column) == (4, 3)
    assert e.value.message.startswith(
        "row 3 of the grid has 2 cells; the first row has 1 (every row is split on white space, because row 3 "
        "holds white space between cells, so the first row, '~~~~~', is one cell; a comment line ('#') stands "
        "only above the grid)")
    path.write_text("budget: 1\n~~~~~\n~.H.~\n#hi\n~...~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        read_map(path)
    assert e.value.message.startswith("row 3 of the grid has 3 cells; the first row has 5; a comment line ('#') "
                                   "stands only above the grid")


def test_a_grid_line_inside_the_grid_is_refused(tmp_path):
    with pytest.raises(MapError) as e:
        parse_map("~~~~~\ngrid:\n~.H.~\n", "m.txt")
    assert (e.value.span.line, e.value.span.column) == (2, 1)
    assert "a 'grid:' line stands inside the grid" in str(e.value)


def test_a_blank_line_inside_a_json_map_is_refused_not_dropped():
    text = '{"map": "~~~~~\\n~.H.~\\n\\n~...~\\n~~~~~", "budget": 1}'
    with pytest.raises(MapError) as e:
        parse_map(text, "level.json")
    assert (e.value.span.line, e.value.span.column) == (1, 22)
    assert 'a blank line splits the grid of the "map" string (after its row 2)' in str(e.value)
    data = parse_map('{"map": "\\n~~~~~\\n~.H.~\\n~~~~~\\n\\n", "budget": 1}', "level.json")
    assert data.rows == ["~~~~~", "~.H.~", "~~~~~"]


@pytest.mark.parametrize("value", ["[1]", "[]", "[1, 2]", '"1"'])
def test_a_json_budget_must_be_one_integer(value):
    text = '{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": %s}' % value
    symbols = check(parse_file(HORSE))
    data = parse_map(text, "level.json")
    if value == '"1"':  # a string holding an integer, as the text header gives it
        assert resolve_params(symbols, data)["budget"] == 1
        return
    with pytest.raises(ParamError) as e:
        resolve_params(symbols, data)
    assert (e.value.span.line, e.value.span.column) == (1, 42)
    assert f"budget must be an integer, not {value.replace(' ', '')}" in str(e.value)


def test_a_json_list_is_still_a_set_of_integers():
    symbols = check(parse_file(SNAKE))
    data = parse_map('{"map": "o..\\n...\\n..o", "sizes": [1, 2]}', "eggs.json")
    assert resolve_params(symbols, data)["sizes"] == (1, 2)
