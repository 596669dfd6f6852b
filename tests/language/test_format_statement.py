"""The ``format puzzlink`` statement: parsed into its items, and every misuse a located error of ``gridlang check``."""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.language import ast
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

HEAD = """\
tile blank '.'
tile clue number
tile white 'o'
tile black '*'
param stars: int >= 1 = 1
param pieces: shapes = pentominoes
decide x: bool on all
"""


def test_the_statement_parses_into_its_items():
    spec = parse_spec(HEAD + 'format puzzlink "heyawake" "heyawacky":\n    rooms: borders\n'
                             '    room numbers: number16 (? = blank)\n    flag "b": stars = 2\n'
                             '    pieces: piece bank (p = "pentominoes")\n', "t.grid")
    fmt, = spec.of(ast.Format)
    assert (fmt.kind, fmt.names) == ("puzzlink", ("heyawake", "heyawacky"))
    assert [(i.place, i.encoding) for i in fmt.parts] == [("rooms", "borders"), ("room numbers", "number16"),
                                                          ("pieces", "piece bank")]
    assert [(e.key, e.value) for e in fmt.parts[1].mapping] == [("?", "blank")]
    assert [(f.flag, f.param, f.value) for f in fmt.flags] == [("b", "stars", 2)]
    check(spec)


def test_a_format_may_stand_above_what_it_names():
    check(parse_spec('format puzzlink "t":\n    cells: circles (1 = white, 2 = black)\n' + HEAD, "t.grid"))


@pytest.mark.parametrize("items,line,column,words", [
    ("cells: number17", 9, 12, "unknown encoding 'number17'; the encodings are number16"),
    ("cell: number16", 9, 5, "unknown place 'cell'; a format item fills cells, rooms"),
    ("corners: number4", 9, 5, "the format fills the corners of the cells, and the spec puts no tile on them"),
    ("cells: circles (1 = whit, 2 = black)", 9, 25, "'whit' is not a declared tile"),
    ("cells: circles (1 = stars, 2 = black)", 9, 25, "'stars' is a param; a mapping sends a value to a tile"),
    ("cells: circles (3 = white)", 9, 21, "circles gives 1 and 2, never 3"),
    ("cells: number16 (empty = x)", 9, 30, "'x' is a decision"),
    ("cells: number16 (none = white)", 9, 22, "a mapping's key is a number, '?', 'empty' or 'number'; 'none'"),
    ("cells: number16 (number = white)", 9, 31, "numbers go to tile 'white', which holds none"),
    ("cells: circles (1 = white, 2 = white)", 9, 5, "1 and 2 both go to 'white'"),
    ("cells: borders", 9, 12, "borders cannot fill cells; it fills rooms"),
    ("rooms: number16", 9, 12, "number16 cannot fill rooms"),
    ("cells: slash", 9, 12, "slash cannot fill cells; it fills separator"),
    ("separator: number16", 9, 16, "number16 cannot fill separator"),
    ("stars: borders", 9, 12, "borders cannot fill an int parameter"),
    ("stars: piece bank", 9, 12, "piece bank cannot fill an int parameter; it fills a shapes parameter"),
    ("room numbers: number16", 9, 5, "a 'rooms: borders' item comes before them"),
    ("rooms: borders\n    rooms: borders", 10, 5, "the format fills 'rooms' twice"),
    ("stars: field (1 = white)", 9, 19, "field takes no mapping"),
    ("stars: size (4x4 = 2, 9 = 3)", 9, 27, "a size table's key is a grid size, COLSxROWS"),
    ("stars: size (4x4 = 0)", 9, 24, "stars = 0 breaks the bound stars >= 1"),
    ('pieces: piece bank (pp = "pentominoes")', 9, 25, "'pp' is not one letter"),
    ('pieces: piece bank (p = "hexominoes")', 9, 29, "the preset 'p' must list shapes"),
    ('flag "e": nope = 1', 9, 15, "flag 'e' sets 'nope', which is not declared"),
    ('flag "e": pieces = 1', 9, 15, "a shapes parameter; a flag sets an int parameter"),
    ('flag "e": stars = 0', 9, 5, "stars = 0 breaks the bound stars >= 1"),
    ('flag "ee": stars = 2', 9, 10, "a flag is one letter of the URL's flag field"),
    ("sizes: size bank", 9, 5, "unknown place 'sizes'"),
    ("outside top left: sum pairs", 9, 5, "sums outside the grid (outside top left: sum pairs) follow"),
])
def test_misuse_is_located(items, line, column, words):
    text = HEAD + 'format puzzlink "t":\n    ' + items + "\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert words in str(info.value)
    assert f"t.grid:{line}:{column}:" in str(info.value)


@pytest.mark.parametrize("spec,words,where", [
    ('format penpa "t":\n    cells: number16\n', "unknown format kind 'penpa'", "8:8"),
    ('format puzzlink "T":\n    cells: number16\n', "'T' is no pzprjs genre name", "8:17"),
    ('format puzzlink "t" "t":\n    cells: number16\n', "the genre name 't' is given twice", "8:21"),
    ('format puzzlink "t":\n    cells: number16\nformat puzzlink "u":\n    cells: number16\n',
     "a spec has one puzzlink format; this is the second", "10:8"),
])
def test_the_statement_itself_is_checked(spec, words, where):
    with pytest.raises(GridlangError) as info:
        check(parse_spec(HEAD + spec, "t.grid"))
    assert words in str(info.value) and f"t.grid:{where}:" in str(info.value)


def test_a_circle_without_a_tile_is_found_by_check():
    text = "tile blank '.'\ntile white 'o'\ndecide x: bool on all\nformat puzzlink \"t\":\n    cells: circles (1 = white)\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert "t.grid:5:12: error: circles gives 2, and t.grid has no tile for it" in str(info.value)


def test_numbers_without_a_tile_to_go_to_are_found_by_check():
    text = "tile blank '.'\ndecide x: bool on all\nformat puzzlink \"t\":\n    cells: number16\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert "t.grid:4:12: error: number16 gives numbers, and t.grid has no tile for them" in str(info.value)
    check(parse_spec(text.replace("number16", "number16 (number = clue)") + "tile clue '0'-'9' value digit\n",
                     "t.grid"))


def test_cells_without_a_value_need_a_tile():
    text = "tile clue number\ndecide x: bool on all\nformat puzzlink \"t\":\n    cells: number16\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert "t.grid:4:12: error: a cell without a value needs a tile, and t.grid has no tile '.'" in str(info.value)
    text = "tile clue number\ndecide x: bool on all\nformat puzzlink \"t\":\n    stars: field\nparam stars: int\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert "the format leaves the cells empty, and t.grid has no tile '.'" in str(info.value)


def test_a_misspelt_word_in_the_statement_is_a_syntax_error_at_it():
    with pytest.raises(GridlangError) as info:
        parse_spec(HEAD + 'format puzzlink "t"\n    cells: number16\n', "t.grid")
    assert "t.grid:9:5: error: unexpected 'cells'" in str(info.value)


def test_structured_clues_need_their_tile():
    text = "tile blank '.'\ndecide x: bool on all\nformat puzzlink \"t\":\n    cells: arrows\n"
    with pytest.raises(GridlangError) as info:
        check(parse_spec(text, "t.grid"))
    assert "t.grid:4:12: error: arrows gives clues of several parts (an arrow and a number, ^2), and t.grid has no " \
           "tile for them: declare 'tile NAME arrow number'" in str(info.value)
    check(parse_spec(text + "tile clue arrow number\n", "t.grid"))
    lists = text.replace("arrows", "number lists")
    with pytest.raises(GridlangError) as info:
        check(parse_spec(lists, "t.grid"))
    assert "declare 'tile NAME numbers'" in str(info.value)
    check(parse_spec(lists + "tile clue numbers\n", "t.grid"))


def test_a_decoded_grid_whose_first_row_begins_with_a_hash_keeps_its_rows(tmp_path):
    """A tile written ``#`` in the first row of a decoded map: the map stands under ``grid:``,
    so the row is not read as a comment (a map's rows are never dropped)."""
    from gridlang.formats.maps import parse_map
    from gridlang.formats.puzzlink import decode

    spec = tmp_path / "hashes.grid"
    spec.write_text('puzzle "Hashes"\ntile blank \'.\'\ntile block \'#\'\ndecide shaded: bool on blank\n'
                    'require count(shaded) == 1\nformat puzzlink "hashes":\n    cells: marks (1 = block)\n')
    text = decode("https://puzz.link/p?hashes/3/2/40", spec).text
    assert text.splitlines()[1:] == ["grid:", "#..", "..#"]
    assert parse_map(text, "hashes").rows == ["#..", "..#"]


def test_a_decoded_map_of_a_spec_with_a_hash_tile_stands_under_a_grid_line(tmp_path):
    """Its title line begins with ``#``, which such a spec's map reader would take for a possible row,
    even when no row begins with ``#`` (pzprjs's test URL of Akari, its black cells written ``#``)."""
    from gridlang.formats.maps import parse_map
    from gridlang.formats.puzzlink import decode

    spec = tmp_path / "lamps.grid"
    spec.write_text('puzzle "Lamps"\ntile white \'.\'\ntile black \'#\'\ntile clue number\n'
                    'decide light: bool on white\nrequire count(light) == 1\n'
                    'format puzzlink "lamps":\n    cells: number4 (? = black)\n')
    text = decode("https://puzz.link/p?lamps/3/2/6.i", spec).text
    assert text.splitlines()[1:] == ["grid:", "1.#", "..."]
    assert parse_map(text, "lamps").rows == ["1.#", "..."]
