"""A name the language reads as its own word (``up``, ``border``, ``count``) is refused where it is
declared, with one located error; every other keyword of the grammar may name a tile."""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError, MultipleErrors
from gridlang.language import ast
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.language.parser.messages import keywords
from gridlang.language.parser.reserved import RESERVED

KEYWORDS = sorted(keywords())

# The places a tile's name is used; each must read the name as the tile.
USES = {
    "on": "decide s: bool on {K}\n",
    "count": "decide s: bool on all\nrequire count(s and {K}) >= 0\n",
    "reach": "decide s: bool on all\nregion r = reach from {K} through not s\n",
    "in": "decide s: bool on all\nrequire s in {K}\n",
    "for each": "decide s: bool on all\nrequire for each p in {K}: not s[p]\n",
}


def spec(name: str, use: str) -> str:
    return f"puzzle \"x\"\ntile {name} 'q'\ntile other '.'\n" + USES[use].format(K=name)


def test_reserved_words_are_keywords_of_the_grammar():
    assert RESERVED <= set(KEYWORDS)


@pytest.mark.parametrize("use", ["on", "count"])
@pytest.mark.parametrize("word", sorted(RESERVED))
def test_a_reserved_word_is_refused_at_its_declaration_alone(word, use):
    # whether its use parses (a checker error) or not (a syntax error), one error, at the declaration
    with pytest.raises(GridlangError) as e:
        check(parse_spec(spec(word, use), "t.grid"))
    assert not isinstance(e.value, MultipleErrors)
    assert (e.value.span.line, e.value.span.column) == (2, 6)
    assert e.value.message.startswith(f"{word!r} is ")
    assert e.value.message.endswith(f"so it cannot name a tile: every use of it would read as that word; give the "
                                    f"tile another name, such as '{word}_tile'")


@pytest.mark.parametrize("word", [w for w in KEYWORDS if w not in RESERVED])
def test_any_other_keyword_names_a_tile_in_every_place_a_name_is_used(word):
    for use in USES:
        symbols = check(parse_spec(spec(word, use), "t.grid"))
        assert word in symbols.tiles
        if use == "on":  # read as the tile, not as a built-in set
            assert symbols.decisions["s"].on == ast.Name(word)


@pytest.mark.parametrize("text, line, column, what", [
    ("param up: int = 1\n", 2, 7, "parameter"),
    ("decide left: bool on all\n", 2, 8, "decision"),
    ("region right = reach from c through c\n", 2, 8, "region"),
    ("tile d 'd' down\n", 2, 12, "tag"),
])
def test_reserved_names_of_parameters_decisions_regions_and_tags(text, line, column, what):
    with pytest.raises(GridlangError) as e:
        check(parse_spec("puzzle \"x\"\n" + text + "tile c '.'\ndecide s: bool on all\n", "t.grid"))
    assert (e.value.span.line, e.value.span.column) == (line, column)
    assert f"so it cannot name a {what}" in e.value.message


def test_up_and_down_tiles_get_one_error_each_not_a_cascade():
    text = "puzzle \"x\"\ntile up 'u'\ntile down 'd'\ndecide s: bool on up\nrequire count(s and down) >= 1\n"
    with pytest.raises(MultipleErrors) as e:
        check(parse_spec(text, "t.grid"))
    assert [(err.span.line, err.span.column) for err in e.value.errors] == [(2, 6), (3, 6)]
