"""``a div b`` and ``a mod b``: a construct in one module (gridlang/constructs/arithmetic.py), found by
the stages through the registry of constructs. Answers are counted on every backend and checked
by the verifier; the rounding of a negative dividend tells floor division from truncation."""

from __future__ import annotations

import pytest
from horse_data import REPO  # noqa: F401 - the tests' path

import gridlang
from gridlang.cli import main
from gridlang.core.errors import SemanticError
from gridlang.language.constructs import construct_of, constructs

HALF = """puzzle "half"
tile blank '.'
decide shaded: bool on all
require count(shaded) == count(all) div 2
require for each p in all: (row index(p) + column index(p)) mod 2 == 1 implies not shaded[p]
"""

SIGNED = """tile blank '.'
param k: int
param op: int = 0
decide shaded: bool on all
require op == 0 implies count(shaded) == (k div 3) + 3
require op == 1 implies count(shaded) == k mod 3
"""


def write(tmp_path, spec: str, rows: str):
    (tmp_path / "spec.grid").write_text(spec, encoding="utf-8")
    (tmp_path / "map.txt").write_text(rows, encoding="utf-8")
    return gridlang.load_spec(tmp_path / "spec.grid"), tmp_path / "map.txt"


@pytest.mark.parametrize("backend", ["asp", "cpsat", "maxsat", "milp"])
def test_half_the_cells_on_a_checkerboard_counts_five_answers(tmp_path, backend):
    # 3x3: the four cells of odd parity stay blank; 9 div 2 = 4 of the five even ones are shaded.
    spec, path = write(tmp_path, HALF, "...\n...\n...\n")
    answers = gridlang.solutions(spec, map=path, backend=backend, limit=10)
    found = [sorted(map(tuple, a.decisions["shaded"])) for a in answers]
    assert len(found) == 5 and answers.complete
    even = {(r, c) for r in range(3) for c in range(3) if (r + c) % 2 == 0}
    assert all(len(cells) == 4 and set(cells) <= even for cells in found)


@pytest.mark.parametrize("k, op, expected", [
    (-7, 0, 1),   # -7 div 3 = -3 (truncation: -2): 0 shaded cells of 4, one answer
    (-7, 1, 6),   # -7 mod 3 = 2 (truncation: -1, no answer): 2 of 4 cells, six answers
    (2, 0, 4),    # 2 div 3 = 0: 3 shaded cells of 4, four answers
    (7, 1, 4),    # 7 mod 3 = 1: 1 of 4 cells, four answers
])
def test_a_negative_dividend_rounds_down(tmp_path, k, op, expected):
    spec, path = write(tmp_path, SIGNED, "....\n")
    answers = gridlang.solutions(spec, map=path, params={"k": k, "op": op}, limit=20)
    assert sum(1 for _ in answers) == expected and answers.complete


def test_the_verifier_computes_div_itself(tmp_path):
    spec, path = write(tmp_path, HALF, "...\n...\n...\n")
    good = {"shaded": {(0, 0): True, (0, 2): True, (2, 0): True, (2, 2): True}}
    short = {"shaded": {(0, 0): True, (0, 2): True, (2, 0): True}}
    assert gridlang.verify(spec, path, good).ok
    verdict = gridlang.verify(spec, path, short)
    assert not verdict.ok and any("count(shaded) == count(all) div 2" in str(v) for v in verdict.violations)


COUNTED = """tile blank '.'
decide shaded: bool on all
require (count(shaded) - 7) div 3 == -2
require count(shaded) mod 2 == 1
"""


@pytest.mark.parametrize("backend", ["asp", "cpsat", "maxsat", "milp"])
def test_a_dividend_that_depends_on_the_decisions_counts_its_answers(tmp_path, backend):
    # 1x5: (n - 7) div 3 == -2 for n from 1 to 3 (-6, -5, -4 round down to -2), n odd: C(5, 1) + C(5, 3) = 15,
    # each answer once (the quotient's bits and the remainder are unique for each count)
    spec, path = write(tmp_path, COUNTED, ".....\n")
    answers = gridlang.solutions(spec, map=path, backend=backend, limit=30)
    found = [frozenset(map(tuple, a.decisions["shaded"])) for a in answers]
    assert answers.complete and len(found) == len(set(found)) == 15
    assert sorted(len(cells) for cells in found) == [1] * 5 + [3] * 10


def test_a_divisor_that_depends_on_the_decisions_is_refused_at_it(tmp_path, capsys):
    (tmp_path / "spec.grid").write_text("tile blank '.'\ndecide shaded: bool on all\n"
                                        "require 5 div count(shaded) == 1\n", encoding="utf-8")
    assert main(["check", str(tmp_path / "spec.grid")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'spec.grid'}:3:15: error: 'div': its divisor is a number known before "
                          "solving; this depends on the decisions\n")


def test_a_divisor_below_one_is_an_error_at_the_expression(tmp_path):
    spec, path = write(tmp_path, "tile blank '.'\nparam k: int = 0\ndecide shaded: bool on all\n"
                                 "require count(shaded) == count(all) mod (k - k)\n", "..\n")
    with pytest.raises(SemanticError) as e:
        gridlang.solve(spec, map=path)
    assert (e.value.span.line, e.value.span.column) == (4, 26)
    assert e.value.message == "'mod' divides by a number of 1 or more; the divisor here is 0"


def test_div_and_mod_are_one_registered_construct():
    from gridlang.constructs.arithmetic import Division, IntDiv

    found = [c for c in constructs() if isinstance(c, Division)]
    assert len(found) == 1 and construct_of(IntDiv(None, "div", None)) is found[0]
    assert set(found[0].rules) == {"div", "mod"}
