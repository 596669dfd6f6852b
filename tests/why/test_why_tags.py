"""Rule instances: tagging constraints with their statement and for-each binding compiles the same
model, and the tags say which binding each constraint belongs to (definitions: none)."""

from __future__ import annotations

import pytest
from horse_data import REPO
from why_data import shipped_instances

from gridlang.compiler import compile_tagged
from gridlang.compiler.cellsets import caps_component
from gridlang.compiler.core import _Compiler
from gridlang.compiler.reaching import reaches
from gridlang.compiler.tags import TaggedConstraints
from gridlang.solving.pipeline import load


@pytest.mark.parametrize("spec, path", shipped_instances(6), ids=lambda p: p.stem)
def test_tagging_compiles_the_same_model(spec, path):
    """Tags change nothing in the model. A tagged compile caps no component (a capping rule's instance
    may be left out) and states no reaching rule as one node (gridlang.compiler.reaching), so it is
    compared with a compile that does neither; where no rule caps a component or reaches, that is the
    model itself."""
    model, _ = load(spec, path)
    source, symbols = model.source

    def compiled(tagged: bool):
        compiler = _Compiler(source, symbols, model.grid, dict(model.params), model.info["map"])
        compiler.cap_components = False
        if tagged:
            compiler.constraints = TaggedConstraints(compiler)
        return compiler, compiler.run()

    _, plain = compiled(False)
    compiler, again = compiled(True)
    assert again.constraints == plain.constraints and again.variables == plain.variables
    assert len(compiler.constraints.tags) == len(compiler.constraints)
    if not any(caps_component(st) or reaches(st) for st in source.statements):
        assert plain.constraints == model.constraints and plain.variables == model.variables
    tagged, tagging = compile_tagged(model)
    assert tagged.variables == plain.variables and len(tagging.tags) == len(tagged.constraints)


def _bindings(spec_name: str, map_path, line: int):
    """The model, and the bindings of the rule instances tagged for the statement on ``line`` of the spec."""
    model, _ = load(REPO / "puzzles" / spec_name, map_path)
    _, tagging = compile_tagged(model)
    rule = next(k for k, st in enumerate(model.source[0].statements) if st.span is not None and st.span.line == line)
    return model, tagging, {tag[1] for tag in tagging.tags if tag is not None and tag[0] == rule}


def test_each_clue_is_an_instance_of_its_own():
    model, tagging, clues = _bindings("heyawake.grid", REPO / "puzzles" / "instances" / "heyawake" / "cspuz_6x6.txt", 18)
    cells = sorted(i for i, t in enumerate(model.grid.tiles) if t == "clue")
    assert clues == {(("c", "cell", c),) for c in cells}
    whole = {tag for tag in tagging.tags if tag is not None and tag[1] == ()}
    assert len(whole) == 1  # (not shaded) is connected: one instance for the whole grid


def test_a_rule_stated_cell_by_cell_is_an_instance_per_cell():
    model, _, avoid = _bindings("horse.grid", REPO / "tests" / "data" / "why" / "horse_leak.txt", 24)
    border = [c for c in range(model.grid.size) if model.grid.is_border(c)]
    assert avoid and all(len(b) == 1 and b[0][0] is None and b[0][2] in border for b in avoid)


def test_definitions_are_untagged_and_record_what_they_make():
    model, _ = load(REPO / "puzzles" / "nurikabe.grid", REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
    tagged, tagging = compile_tagged(model)
    made = [d for d, t in zip(tagging.definitions, tagging.tags) if d is not None]
    assert made and all(t is None for d, t in zip(tagging.definitions, tagging.tags) if d is not None)
    families = {tagged.variables[v - 1].family for d in set(made)
                for v in range(tagging.outputs[d][0], tagging.outputs[d][1] + 1)}
    assert "component" in families and "shaded" not in families
