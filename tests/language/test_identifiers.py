"""A name that begins with a keyword (``left_of``, ``count_x``, ``rowsum``) is one name everywhere."""

from __future__ import annotations

import pytest

from gridlang.language import ast
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec
from gridlang.language.parser.messages import keywords

KEYWORDS = sorted(keywords())
SUFFIXES = ["_of", "sum", "2", "_"]


def spec(name: str) -> str:
    """A spec that declares ``name`` as a decision, a tile's tag and a parameter, and uses each."""
    return (f"puzzle \"x\"\ntile c '.' {name}_t\nparam {name}_n: int = 1\ndecide {name}: bool on all\n"
            f"let {name}_l(p) = {name}[p]\n"
            f"require count({name}) >= {name}_n\n"
            f"require for each cell p: {name}[p] or not {name}_l(p)\n"
            f"require for each {name}_v in {name}_t: not {name}[{name}_v]\n"
            f"maximize count({name} and {name}_t)\n")


@pytest.mark.parametrize("word", KEYWORDS)
def test_a_name_that_begins_with_a_keyword_is_one_name(word):
    for suffix in SUFFIXES:
        name = word + suffix
        symbols = check(parse_spec(spec(name), "t.grid"))
        assert name in symbols.decisions and f"{name}_n" in symbols.params


def test_left_of_is_a_decision_not_the_direction_left():
    text = "puzzle \"x\"\ntile c '.'\ndecide left_of: bool on all\nrequire for each cell p: left_of[p]\n"
    rule = parse_spec(text, "t.grid").statements[-1]
    assert rule.body.formula == ast.At(ast.Name("left_of"), ast.Name("p"))


def test_maximise_after_a_tiles_tags_is_the_objective():
    text = "puzzle \"x\"\ntile c '.' open\ndecide s: bool on all\ntile d 'd' closed\nmaximise count(s)\n"
    statements = parse_spec(text, "t.grid").statements
    assert statements[3].tags == ("closed",)
    assert isinstance(statements[4], ast.Objective) and statements[4].sense == "maximize"
