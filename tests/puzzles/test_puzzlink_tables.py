"""A genre's own encoding, a ``table`` in its spec's format: read as pzprjs's genre decoders read, written
back as their encoders write, and every malformed table or URL a located error.

The URLs are pzprjs's (robx/pzprjs, MIT licence): ``test/script/sashigane.js``'s, whose encoder wrote it,
and others made from it here; the table is the one ``src/variety/loute.js``'s ``decodeSashigane`` reads.
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import decode, encode
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

TILES = """\
tile blank '.'
tile up_arrow '^'
tile down_arrow 'v'
tile left_arrow '<'
tile right_arrow '>'
tile circle 'o'
tile sized number
tile unknown '?'
decide x: bool on all
"""

DEC = "cells: table ('0'-'9' = 1..10, '-' 2 dec = 1..100, 'g'-'z' = skip 1..20)"
TABLE = (
    "cells: table ('0'-'9' = 0..9, 'a'-'f' = 10..15, '-' 2 hex = 0..255, '.' = circle, '@' = unknown, "
    "'%' = unknown, 'g' = up_arrow, 'h' = down_arrow, 'i' = left_arrow, 'j' = right_arrow, "
    "'k'-'z' = skip 1..16)"
)


def spec(item: str = TABLE, tiles: str = TILES):
    return parse_spec(f'puzzle "t"\n{tiles}format puzzlink "t":\n    {item}\n', "t.grid")


def rows(text: str) -> list[str]:
    return ["".join(ln.split()) for ln in text.splitlines()[1:]]


def body(url: str) -> str:
    return url.split("?", 1)[1].split("/", 3)[3].rstrip("/")


def test_the_table_reads_pzprjs_s_url_and_writes_it_back():
    tree = spec()
    check(tree)
    text = decode("https://puzz.link/p?t/5/5/jm.o3khkgojm4", tree).text
    assert rows(text) == [">...o", ".....", "3.v.^", ".....", ">...4"]
    assert body(encode(tree, parse_map(text, "m.txt", "t"))) == "jm.o3khkgojm4"


@pytest.mark.parametrize(
    "url,grid,back",
    [
        # a number from 16 takes the prefix and its two digits; one below 16 a character of its own
        ("https://puzz.link/p?t/3/1/-1fk-05", ["31.5"], "-1fk5"),
        # '%' and '@' both read '?', written as '@', the first; 20 empty cells as 16 and 4
        ("https://puzz.link/p?t/22/1/%zn@", ["?" + "." * 20 + "?"], "@zn@"),
        # the empty cells after the last clue are written too
        ("https://puzz.link/p?t/4/1/.m", ["o..."], ".m"),
    ],
)
def test_numbers_prefixes_and_runs(url, grid, back):
    tree = spec()
    text = decode(url, tree).text
    lines = rows(text)
    assert ["".join(ch for ch in ln) for ln in lines] == grid
    assert body(encode(tree, parse_map(text, "m.txt", "t"))) == back


def test_a_character_sent_to_a_number_tile_is_its_number_not_given():
    """'.' = sized: the number tile's cell without its number, '?' in the map, '.' again in the URL."""
    tiles = TILES.replace("tile unknown '?'\n", "")
    tree = spec("cells: table ('0'-'9' = 0..9, '.' = sized, 'k'-'z' = skip 1..16)", tiles)
    text = decode("https://puzz.link/p?t/3/1/.k7", tree).text
    assert text.splitlines()[1:] == ["?.7"]
    assert body(encode(tree, parse_map(text, "m.txt", "t"))) == ".k7"


def test_decimal_digits_after_a_prefix_give_the_range_s_first_number_plus_theirs():
    """'-' 2 dec = 1..100: '-10' is 11, '-99' is 100; 5 is one digit, '4'; so pzprjs writes its numbers less one."""
    tree = spec(DEC)
    text = decode("https://puzz.link/p?t/3/1/-10-994", tree).text
    assert text.splitlines()[1:] == [" 11 100   5"]
    assert body(encode(tree, parse_map(text, "m.txt", "t"))) == "-10-994"


@pytest.mark.parametrize(
    "url,column,words",
    [
        ("https://puzz.link/p?t/5/5/jm.o3khkgojm", 39, "the data ends after 24 cells; a 5x5 grid has 25"),
        ("https://puzz.link/p?t/5/5/jm.o3khkgojm4k", 40, "unexpected 'k' after the puzzle's data"),
        ("https://puzz.link/p?t/5/5/jm.o3khkgojz", 38, "the data describes 37 cells; a 5x5 grid has 25"),
        ("https://puzz.link/p?t/2/2/g!", 28, "unexpected '!': t.grid's table reads the characters"),
        ("https://puzz.link/p?t/2/2/g-1", 28, "'-' is followed by 2 hexadecimal digits in t.grid's table"),
    ],
)
def test_a_url_that_runs_short_or_long_or_holds_a_stranger_is_located(url, column, words):
    with pytest.raises(GridlangError) as info:
        decode(url, spec())
    assert words in info.value.message
    assert (info.value.span.file, info.value.span.column) == ("--url", column)


@pytest.mark.parametrize(
    "item,column,words",
    [
        (
            "cells: table ('a'-'z' = skip 1..26, 'g' = up_arrow)",
            41,
            "ambiguous table: 'g' is read by 'a'-'z' = skip 1..26 (line 12) and by 'g' = up_arrow",
        ),
        ("cells: table ('-' 2 hex = 0..255, '-' = circle, 'k' = skip 1..1)", 39, "ambiguous table: '-' is read by"),
        ("cells: table ('0'-'9' = 0..8, 'k' = skip 1..1)", 29, "'0'-'9' is 10 characters and 0..8 9 numbers"),
        ("cells: table ('-' 2 hex = 0..99, 'k' = skip 1..1)", 31, "2 hex digits write 256 numbers; 0..99 holds 100"),
        ("cells: table ('-' 2 oct = 0..63, 'k' = skip 1..1)", 19, "the digits after a prefix are dec, hex, base36"),
        ("cells: table ('k'-'z' = jump 1..16)", 29, "'jump' is not 'skip'"),
        ("cells: table ('k'-'z' = skip 0..15)", 29, "a skip runs over at least 1 empty place"),
        ("cells: table ('/' = circle, 'k' = skip 1..1)", 19, "'/' separates the parts of a URL"),
        ("cells: table ('z'-'a' = skip 1..26)", 19, "the range 'z'-'a' is empty"),
        ("cells: table ('.' = circle, 'l'-'z' = skip 2..16)", 33, "none stands for one empty place"),
        ("cells: table ('.' = ring, 'k' = skip 1..1)", 25, "'ring' is not a declared tile; a table sends a character"),
        ("cells: table (1 = circle, 'k' = skip 1..1)", 19, "a table's key is a character"),
        ("cells: number16 ('g' = circle)", 22, "characters are the keys of a genre's own encoding"),
    ],
)
def test_a_malformed_or_ambiguous_table_is_located(item, column, words):
    with pytest.raises(GridlangError) as info:
        check(spec(item))
    assert words in info.value.message
    assert (info.value.span.line, info.value.span.column) == (12, column)


def test_a_table_s_numbers_need_a_number_tile():
    tiles = TILES.replace("tile sized number\n", "")
    with pytest.raises(GridlangError) as info:
        check(spec("cells: table ('0'-'9' = 0..9, 'k' = skip 1..1)", tiles))
    assert "the table gives numbers, and t.grid has no tile for them" in info.value.message
    assert (info.value.span.line, info.value.span.column) == (11, 12)


def test_a_value_the_table_cannot_write_is_located_in_the_map():
    tree = spec("cells: table ('0'-'9' = 0..9, '.' = circle, 'k'-'z' = skip 1..16)")
    with pytest.raises(GridlangError) as info:
        encode(tree, parse_map("o  .\n. 12\n", "m.txt", "t"))
    assert "12 is a number the table does not write" in info.value.message
    assert (info.value.span.file, info.value.span.line, info.value.span.column) == ("m.txt", 2, 3)


def test_a_table_fills_the_borders_in_pzprjs_s_order():
    """On a 2x2 grid the borders are (0,0)|(0,1), (1,0)|(1,1), then (0,0)/(1,0), (0,1)/(1,1): 'kbka' skips the
    first, puts black on the second, skips the third and puts white on the fourth; the layer draws them as
    the grid stands (the border in row 1, the two under it, the border in row 2)."""
    tiles = "tile blank '.'\ntile none '.' on borders\ntile white 'w' on borders\ntile black 'b' on borders\n"
    tree = parse_spec(
        f'puzzle "t"\n{tiles}decide x: bool on all\nformat puzzlink "t":\n'
        "    borders: table ('a' = white, 'b' = black, 'k'-'z' = skip 1..16)\n",
        "t.grid",
    )
    check(tree)
    text = decode("https://puzz.link/p?t/2/2/kbka", tree).text
    assert text.splitlines()[3:] == ["borders:", " .", ". w", " b"]
    assert body(encode(tree, parse_map(text, "m.txt", "t"))) == "kbka"
