"""The ``position`` encoding: pzprjs's ``decodeOneNumber16`` twice, one cell's column and row, read and written
back, and a position off the grid or cut short a located error.

The URL is pzprjs's ``test/script/guidearrow.js``'s (robx/pzprjs, MIT licence): the goal in column 3, row 3,
then the arrows by ``decode4Cell``.
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import decode, encode
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

SPEC = """\
puzzle "t"
tile blank '.'
tile goal 'G'
tile arrow number
decide x: bool on all
format puzzlink "t":
    cells: position (1 = goal)
    cells: number4 (number = arrow)
"""


def spec():
    tree = parse_spec(SPEC, "t.grid")
    check(tree)
    return tree


def rows(text: str) -> list[str]:
    return ["".join(ln.split()) for ln in text.splitlines()[1:]]


@pytest.mark.parametrize(
    "url,grid",
    [
        ("https://puzz.link/p?t/4/4/33i3ele", ["...3", "4...", "..G.", ".4.."]),
        # a column of two digits: '-' and two hexadecimal digits (pzprjs's writeNumber16 from 16)
        ("https://puzz.link/p?t/17/1/-111", ["." * 16 + "G"]),
    ],
)
def test_the_position_is_read_and_written_back(url, grid):
    tree = spec()
    text = decode(url, tree).text
    assert rows(text) == grid
    back = encode(tree, parse_map(text, "m.txt", "t"))
    assert back.split("?", 1)[1].split("/", 3)[3] == url.split("?", 1)[1].split("/", 3)[3]


@pytest.mark.parametrize(
    "url,column,words",
    [
        ("https://puzz.link/p?t/4/4/53i3ele", 27, "the position's column is 5; a 4x4 grid's columns run from 1 to 4"),
        ("https://puzz.link/p?t/4/4/30i3ele", 28, "the position's row is 0; a 4x4 grid's rows run from 1 to 4"),
        (
            "https://puzz.link/p?t/4/4/3",
            28,
            "a position is a column and a row, each a number (one number16 token); the row is the end of the data",
        ),
        ("https://puzz.link/p?t/4/4/3.", 28, "the position's row is ?"),
    ],
)
def test_a_position_off_the_grid_or_cut_short_is_located(url, column, words):
    with pytest.raises(GridlangError) as info:
        decode(url, spec())
    assert words in info.value.message
    assert (info.value.span.file, info.value.span.column) == ("--url", column)


def test_a_map_with_two_goals_has_no_url():
    with pytest.raises(GridlangError) as info:
        encode(spec(), parse_map("G..\n..G\n", "m.txt", "t"))
    assert "a position gives one cell, and the map has 2" in info.value.message
    assert (info.value.span.line, info.value.span.column) == (2, 3)
