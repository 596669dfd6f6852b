"""The `draw NAME as LOOK` statement: parsed, checked with located errors, and resolved with the
defaults into the looks pictures and text are drawn from (gridlang/language/looks.py)."""

from __future__ import annotations

import pytest
from horse_data import REPO

from gridlang.core.errors import GridlangError
from gridlang.language.checker import check
from gridlang.language.looks import resolve
from gridlang.language.parser import parse_file, parse_spec

BASE = """puzzle "Looks"
tile blank '.'
tile clue number island
tile white 'o'
tile wall '#'
param n: int >= 1 = 3
decide line: bool on edges
decide shaded: bool on all
decide number: {0} | values of clue on all
decide kind: {snake} | 1..3 on all
decide bridge: 0..2 on edges
decide edge: bool on corner edges
region pen = reach from white through not shaded
"""
FIRST = BASE.count("\n") + 1  # the line of the first `draw` appended


def errors(extra: str) -> list[tuple[int, int, str]]:
    """The checker's errors on BASE + extra: (line, column, message)."""
    with pytest.raises(GridlangError) as e:
        check(parse_spec(BASE + extra, "t.grid"))
    found = getattr(e.value, "errors", [e.value])
    return [(err.span.line, err.span.column, err.message) for err in found]


def test_declared_looks_and_defaults():
    sym = check(parse_spec(BASE + "draw white as circle\ndraw island as circle\ndraw number as hidden\n"
                                  "draw wall as block\ndraw n x n block as rooms\ndraw pen as walls\n"))
    looks = resolve(sym, {"n": 3})
    assert looks.tiles == {"blank": "plain", "clue": "circle", "white": "circle", "wall": "block"}
    assert looks.decisions == {"line": "line", "shaded": "shade", "number": "hidden", "kind": "default",
                               "bridge": "bridges", "edge": "line"}
    assert looks.regions == {"pen": "walls"} and looks.blocks == ((3, 3),)
    assert looks.lattices == {"line": "edges", "bridge": "edges", "edge": "corners"}
    assert looks.valued == {"number", "kind"}
    bare = resolve(check(parse_spec(BASE)))
    assert bare.tiles == {"blank": "plain", "clue": "number", "white": "default", "wall": "default"}


@pytest.mark.parametrize("extra,column,words", [
    ("draw white as circel", 15, "unknown look 'circel'; did you mean 'circle'?"),
    ("draw whit as circle", 6, "unknown name 'whit' ('draw' names a tile, a tag, a decision or a region); "
                               "did you mean 'white'?"),
    ("draw n as circle", 6, "'n' is a parameter; 'draw' names a tile, a tag, a decision or a region"),
    ("draw all as circle", 6, "'all' is a cell set of every map"),
    ("draw line as shade", 14, "'line' cannot be drawn as 'shade' (a look of a Boolean decision on cells); "
                               "a decision on edges is drawn as line, bridges, walls or hidden"),
    ("draw shaded as line", 16, "'shaded' cannot be drawn as 'line' (a look of a decision on edges); a Boolean "
                                "decision on cells is drawn as shade, blue, star, bulb, tent, dot, cross, circle, disc, "
                                "stones, tint or hidden"),
    ("draw clue as bulb", 14, "'clue' cannot be drawn as 'bulb' (a look of a Boolean decision on cells); "
                              "a tile is drawn as number, char, letters, block, circle, disc, cross, plain, frame, "
                              "split, symbols, corner, tree, moon, arrow, hollow_arrow, ring_kanji, cut_kanji, star, "
                              "dot or tip"),
    ("draw rooms as shade", 15, "the room layer is drawn as walls, cages or hidden"),
    ("draw shaded as cages", 16, "'shaded' cannot be drawn as 'cages' (a look of the room layer)"),
    ("draw edge as bridges", 14, "'bridges' draws integer values; 'edge' is Boolean: draw it as line"),
    ("draw kind as number", 14, "'number' draws integer values; 'kind' has value names (snake): draw it as tint"),
    ("draw pen as shade", 13, "a region is drawn as tint, walls or hidden"),
    ("draw 2x2 block as walls", 19, "blocks cannot be drawn as 'walls'"),
    ("draw shaded x 2 block as rooms", 6, "a block's size is an integer known before solving; this is a cell set"),
])
def test_a_bad_draw_is_one_located_error(extra, column, words):
    (found,) = errors(extra + "\n")
    assert found[:2] == (FIRST, column) and words in found[2], found


def test_the_room_layer_is_drawn_as_cages_unless_a_name_of_the_spec_is_rooms():
    assert resolve(check(parse_spec(BASE + "draw rooms as cages\n"))).rooms == "cages"
    assert resolve(check(parse_spec(BASE))).rooms == "walls"
    own = check(parse_spec(BASE + "tile rooms 'r'\ndraw rooms as circle\n"))
    assert resolve(own).rooms == "walls" and resolve(own).tiles["rooms"] == "circle"


def test_a_name_drawn_twice_is_refused_at_the_second():
    (found,) = errors("draw white as circle\ndraw white as disc\n")
    assert found == (FIRST + 1, 6, f"'white' is already drawn (line {FIRST})")


def test_a_draw_may_come_before_what_it_draws():
    sym = check(parse_spec('puzzle "x"\ntile blank \'.\'\ndraw star as star\ndecide star: bool on all\n'))
    assert [d.name for d in sym.draws] == ["star"]


def test_looks_are_words_a_decision_or_tile_may_be_named_after():
    sym = check(parse_spec('puzzle "x"\ntile block \'#\'\ntile blank \'.\'\ndecide number: 0..2 on blank\n'
                           'draw block as block\ndraw number as number\n'))
    assert resolve(sym).tiles["block"] == "block" and resolve(sym).decisions["number"] == "number"


@pytest.mark.parametrize("genre", ["arukone", "hashiwokakero", "heyawake", "hitori", "lits", "masyu", "norinori",
                                   "numberlink", "nurikabe", "slitherlink", "starbattle", "statuepark", "sudoku"])
def test_every_shipped_genre_declares_how_it_is_drawn(genre):
    sym = check(parse_file(REPO / "puzzles" / f"{genre}.grid"))
    assert sym.draws, f"{genre}.grid has no draw statement"
    looks = resolve(sym, {"box_rows": 3, "box_cols": 3})
    assert "default" not in looks.tiles.values() and "default" not in looks.decisions.values(), looks
