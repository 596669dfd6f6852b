"""Every cell of a set joined to a fixed set through it (Cave's shaded cells and the border): one
connectivity node with an outside vertex, counted against brute force on every backend.

The spec's rules are judged by the interpreter (breadth-first search, no IR) on every assignment of
a tiny map; each backend must enumerate exactly those answers, with the one node where the rule's
cells cover the set, and with a component per cell where they do not.
"""

from __future__ import annotations

import functools

import pytest
from tiny import judged_answers, solved_answers
from tiny import spec_judge as _judge

from gridlang.ir.backend import SolveOptions, get_backend
from gridlang.ir.model import Connected, GraphConnected
from gridlang.solving.pipeline import load, load_checked

HEAD = "tile blank '.'\ntile wall 'x'\ntile exit 'o'\ndecide shaded: bool on blank or exit\n"

# name -> (spec, map, whether the rule becomes one node)
CASES = {
    "joined to the border": (
        HEAD + "require for each p in (blank or exit) and not border: "
        "shaded[p] implies count(border and component of p in shaded) > 0\n",
        "xx.xx\nx...x\nx...x\nxx.xx\n",
        True,
    ),
    "the component first, at least one": (
        HEAD + "require for each p in (blank or exit) and not border: "
        "shaded[p] implies count(component of p in shaded and border) >= 1\n",
        "x.x.x\nx...x\nx.x.x\n",
        True,
    ),
    "joined to the exits, every cell asked": (
        HEAD
        + "require for each p in blank: shaded[p] implies count(exit and component of p in shaded) > 0\n",
        "o.xx\n...x\nx..o\n",
        True,
    ),
    "border cells not asked and not in the target": (
        HEAD + "require for each p in blank and not border: "
        "shaded[p] implies count(exit and component of p in shaded) > 0\n",
        "o.xx\n...x\nx..o\n",
        False,
    ),
}


@functools.cache
def _case(name: str):
    spec_text, map_text, one_node = CASES[name]
    spec, symbols, data, grid, judge = _judge(spec_text, map_text)
    free = sorted(judge.on["shaded"])
    return (
        spec,
        symbols,
        data,
        grid,
        judged_answers(judge, grid, "shaded", free),
        one_node,
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_brute_force(name, backend):
    if backend == "auto":
        pytest.skip("auto runs one of the others")
    spec, symbols, data, grid, expected, _ = _case(name)
    assert solved_answers(
        spec, symbols, data, grid, backend, "shaded", expected
    ) == set(expected)


def test_the_counts_are_not_trivial():
    # The interpreter's counts over every shading, the same as a separate breadth-first search's.
    assert {name: len(_case(name)[4]) for name in CASES} == {
        "joined to the border": 88,
        "the component first, at least one": 88,
        "joined to the exits, every cell asked": 90,
        "border cells not asked and not in the target": 143,
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_node_not_a_component_per_cell(name):
    spec, symbols, data, grid, _, one_node = _case(name)
    model, _ = load_checked(spec, symbols, data, {})
    graphs = [c for c in model.constraints if isinstance(c, GraphConnected)]
    components = [c for c in model.constraints if isinstance(c, Connected)]
    if one_node:
        assert len(graphs) == 1 and not components
        assert graphs[0].roots == (0,) and len(graphs[0].members) == len(
            _case(name)[3].neighbours
        ) + 1 - sum(t == "wall" for t in grid.tiles)
    else:
        assert not graphs and len(components) == 2  # the two inner cells' components


@pytest.mark.parametrize("fmt", ["cnf", "lp", "pbtxt", "asp"])
def test_a_model_for_a_file_keeps_a_component_per_cell(fmt, tmp_path):
    """Only the solvers' cut loops (and clingo) lower the outside vertex: a file gets the components."""
    from gridlang.service.calls import FORMAT_BACKEND, export

    spec_text, map_text, _ = CASES["joined to the border"]
    (tmp_path / "s.grid").write_text(spec_text)
    (tmp_path / "m.txt").write_text(map_text)
    spec, symbols, data, *_ = _case("joined to the border")
    model, _ = load_checked(spec, symbols, data, {}, files=True)
    assert not any(isinstance(c, GraphConnected) for c in model.constraints)
    # the six inner cells' components
    assert sum(isinstance(c, Connected) for c in model.constraints) == 6
    written = export(
        tmp_path / "s.grid", tmp_path / "m.txt", fmt, tmp_path / f"m.{fmt}"
    )
    assert written == [str(tmp_path / f"m.{fmt}"), str(tmp_path / f"m.{fmt}.vars.json")]
    # the file is the model for a file (its six components) as its backend writes it
    same, _ = load(tmp_path / "s.grid", tmp_path / "m.txt", files=True)
    assert sum(isinstance(c, Connected) for c in same.constraints) == 6
    get_backend(FORMAT_BACKEND[fmt]).write(same, str(tmp_path / f"files.{fmt}"), fmt, SolveOptions())
    text = (tmp_path / f"m.{fmt}").read_text()
    assert text == (tmp_path / f"files.{fmt}").read_text().replace(f"files.{fmt}", f"m.{fmt}")

