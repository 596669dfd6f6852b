"""The ``dots`` place and encoding: pzprjs's ``decodeDot`` over the doubled lattice inside the grid, each dot
put on its cell, border or corner, written back as ``encodeDot`` writes, and its errors located.

The URL is pzprjs's ``test/script/nothree.js``'s (robx/pzprjs, MIT licence); the places of its dots were read
from the answer file of the same script (a row of the doubled lattice per line: ``...1.......`` and so on).
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import decode, encode
from gridlang.formats.puzzlink.dots import lattice
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

TILES = """\
puzzle "t"
tile blank '.'
tile dot 'o'
tile grey '*'
tile no_dot '.' on borders
tile border_dot 'o' on borders
tile border_grey '*' on borders
tile no_dot_here '.' on corners
tile corner_dot 'o' on corners
tile corner_grey '*' on corners
decide x: bool on all
"""
ITEM = "dots: dots (1 = dot, 1 = border_dot, 1 = corner_dot, 2 = grey, 2 = border_grey, 2 = corner_grey)"


def spec(item: str = ITEM, tiles: str = TILES):
    tree = parse_spec(f'{tiles}format puzzlink "t":\n    {item}\n', "t.grid")
    check(tree)
    return tree


def layers(text: str) -> dict[str, list[str]]:
    """The grid and the corner and border layers of a decoded map, each as rows without spaces."""
    out: dict[str, list[str]] = {"grid": [], "corners": [], "borders": []}
    key = "grid"
    for line in text.splitlines()[1:]:
        if line.endswith(":"):
            key = line[:-1]
            continue
        out[key].append("".join(line.split()))
    return out


def test_the_lattice_is_pzprjs_s_order_of_dots():
    places = lattice(2, 3)  # 3 x 5 points
    assert places[:5] == [("cells", 0), ("borders", 0), ("cells", 1), ("borders", 1), ("cells", 2)]
    assert places[5:10] == [("borders", 4), ("corners", (1, 1)), ("borders", 5), ("corners", (1, 2)), ("borders", 6)]
    assert places[10:] == [("cells", 3), ("borders", 2), ("cells", 4), ("borders", 3), ("cells", 5)]


def test_pzprjs_s_dots_go_to_their_cells_borders_and_corners_and_back():
    tree = spec()
    url = "https://puzz.link/p?t/6/6/ien62ezo2ek282aelem"
    text = decode(url, tree).text
    got = layers(text)
    assert got["grid"] == ["......", "......", "......", "......", "..o...", "......"]
    assert got["corners"] == [".......", ".......", ".......", "....oo.", "....oo.", "....o..", "......."]
    assert got["borders"] == [
        ".o...",
        "....o.",
        "oo...",
        "......",
        ".....",
        "......",
        ".....",
        "oo....",
        ".....",
        "......",
        ".....",
    ]
    assert encode(tree, parse_map(text, "m.txt", "t")) == url


@pytest.mark.parametrize(
    "cols,rows,body,grid,borders,corners",
    [
        # a grey dot (an odd digit) with the next dot 3 places on ('5'), then the border under the first cell ('0'),
        # then the last dot, which counts 7 places past it ('e' = 13 + 1), beyond the end
        (2, 2, "50e", ["*.", ".."], [".", "o.", "."], ["...", ".o.", "..."]),
        # 20 places without a dot are one 'z'
        (11, 1, "ze", ["..........o"], [".........."], ["." * 12, "." * 12]),
    ],
)
def test_grey_dots_and_long_runs(cols, rows, body, grid, borders, corners):
    tree = spec()
    text = decode(f"https://puzz.link/p?t/{cols}/{rows}/{body}", tree).text
    assert layers(text) == {"grid": grid, "borders": borders, "corners": corners}
    assert encode(tree, parse_map(text, "m.txt", "t")).rsplit("/", 1)[1] == body


@pytest.mark.parametrize(
    "url,column,words",
    [
        ("https://puzz.link/p?t/2/2/0!", 28, "unexpected '!' in the dots"),
        ("https://puzz.link/p?t/2/2/0", 28, "the data ends after 1 places; a 2x2 grid has 9 places for dots"),
    ],
)
def test_a_bad_body_is_located(url, column, words):
    with pytest.raises(GridlangError) as info:
        decode(url, spec())
    assert words in info.value.message
    assert (info.value.span.file, info.value.span.column) == ("--url", column)


def test_a_dot_without_a_tile_on_its_kind_of_place_is_located():
    tree = spec("dots: dots (1 = dot, 1 = border_dot, 1 = corner_dot)")
    with pytest.raises(GridlangError) as info:
        decode("https://puzz.link/p?t/2/2/g1m", tree)
    assert "the number 2 on a border has no tile there" in info.value.message
    assert info.value.span.column == 28


@pytest.mark.parametrize(
    "item,tiles,words",
    [
        (
            "dots: dots (1 = dot)",
            "puzzle \"t\"\ntile blank '.'\ntile dot 'o'\ndecide x: bool on all\n",
            "the spec puts no tile on borders or on corners",
        ),
        ("dots: dots (1 = dot, 1 = border_dot)", TILES, "a dot may stand on corners, and the mapping sends none"),
        ("dots: dots (1 = dot, 1 = grey, 1 = border_dot, 1 = corner_dot)", TILES, "1 is mapped twice on that kind"),
    ],
)
def test_a_dots_item_without_its_tiles_is_refused(item, tiles, words):
    with pytest.raises(GridlangError) as info:
        spec(item, tiles)
    assert words in info.value.message
