"""Bad input gets file:line:col, the offending line with a caret, and exit 1; no traceback."""

from __future__ import annotations

import json

import pytest
from horse_data import REPO

from gridlang.cli import main
from gridlang.core.errors import GridSyntaxError, MapError, MultipleErrors, ParamError, SemanticError
from gridlang.formats.maps import build_grid, read_map
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

HORSE = str(REPO / "puzzles" / "horse.grid")


def horse_grid(path):
    from gridlang.language.parser import parse_file

    return build_grid(check(parse_file(HORSE)), read_map(path))


def write(tmp_path, text: str | bytes, name: str = "map.txt"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def located(err, path, line: int, col: int) -> str:
    assert err.span is not None
    assert (err.span.file, err.span.line, err.span.column) == (str(path), line, col)
    return err.render()


# ------------------------------------------------------------------ maps

def test_ragged_row(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~\n~.H.~\n~..~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        read_map(path)
    text = located(e.value, path, 4, 5)
    assert "row 3 of the grid has 4 cells; the first row has 5" in text
    assert text.splitlines()[1].strip() == "~..~"
    assert text.splitlines()[2].strip() == "^"


def test_blank_line_inside_the_grid(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~\n~.H.~\n\n~~~~~\n")
    with pytest.raises(MapError) as e:
        read_map(path)
    assert "a blank line splits the grid" in located(e.value, path, 4, 1)


def test_trailing_blank_lines_are_fine(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~\n~.H.~\n~~~~~\n\n\n")
    assert read_map(path).rows == ["~~~~~", "~.H.~", "~~~~~"]


def test_unknown_character(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~\n~.HX~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        horse_grid(path)
    text = located(e.value, path, 3, 4)
    assert "character 'X' at row 2, column 4 is not a tile of this spec" in text


def test_no_horse(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~\n~...~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        horse_grid(path)
    assert "the map has no 'horse' tile ('H'); the spec requires exactly 1" in e.value.render()
    located(e.value, path, 2, 1)


def test_two_horses_points_at_the_second(tmp_path):
    path = write(tmp_path, "budget: 4\n~~~~~~\n~.H..~\n~..H.~\n~~~~~~\n")
    with pytest.raises(MapError) as e:
        horse_grid(path)
    text = located(e.value, path, 4, 4)
    assert "the map has 2 'horse' tiles ('H'); the spec allows exactly 1" in text


@pytest.mark.parametrize("grid, where, times", [
    ("~~~~~~\n~.H1.~\n~....~\n~~~~~~\n", (3, 4), "1 time;"),
    ("~~~~~~\n~1H1.~\n~..1.~\n~~~~~~\n", (4, 4), "3 times;"),
])
def test_portal_must_appear_twice(tmp_path, grid, where, times):
    path = write(tmp_path, "budget: 4\n" + grid)
    with pytest.raises(MapError) as e:
        horse_grid(path)
    text = located(e.value, path, *where)
    assert f"linked tile '1' appears {times}" in text


def test_empty_file(tmp_path):
    path = write(tmp_path, "\n  \n")
    with pytest.raises(MapError) as e:
        read_map(path)
    assert "the map file is empty" in located(e.value, path, 1, 1)


def test_bytes_that_are_not_utf8(tmp_path):
    path = write(tmp_path, b"budget: 4\n~~~~~\n~.H\xff~\n~~~~~\n")
    with pytest.raises(MapError) as e:
        read_map(path)
    assert "not UTF-8 text (byte 0xff)" in located(e.value, path, 3, 4)


def test_json_map_errors_point_inside_the_map_string(tmp_path):
    path = write(tmp_path, '{"budget": 4,\n "map": "~~~~\\n~HX~\\n~~~~"}', "level.json")
    with pytest.raises(MapError) as e:
        horse_grid(path)
    text = located(e.value, path, 2, 18)
    assert "character 'X'" in text
    assert text.splitlines()[2].index("^") == 4 + 17


# ------------------------------------------------------------ parameters

def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_missing_budget_points_at_the_declaration(tmp_path, capsys):
    path = write(tmp_path, "~~~~~\n~.H.~\n~~~~~\n")
    code, out, err = run_cli(["solve", HORSE, "--map", path], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"{HORSE}:18:7: error: parameter 'budget' has no value")
    assert "Traceback" not in err
    assert err.splitlines()[1].strip() == "param budget: int >= 0"


def test_negative_budget_in_the_map_header(tmp_path, capsys):
    path = write(tmp_path, "budget: -3\n~~~~~\n~.H.~\n~~~~~\n")
    code, _, err = run_cli(["solve", HORSE, "--map", path], capsys)
    assert code == 1
    assert err.startswith(f"{path}:1:9: error: budget = -3 breaks the bound budget >= 0")


def test_negative_budget_on_the_command_line(tmp_path, capsys):
    path = write(tmp_path, "~~~~~\n~.H.~\n~~~~~\n")
    code, _, err = run_cli(["solve", HORSE, "--map", path, "--budget", "-1"], capsys)
    assert code == 1
    assert "budget = -1 breaks the bound budget >= 0" in err


def test_malformed_and_unknown_parameters(tmp_path):
    from gridlang.solving.pipeline import load

    path = write(tmp_path, "budget: twelve\n~~~~~\n~.H.~\n~~~~~\n")
    with pytest.raises(ParamError) as e:
        load(HORSE, path)
    assert "budget must be an integer, not twelve (the spec declares budget: int)" in located(e.value, path, 1, 9)
    path = write(tmp_path, "~~~~~\n~.H.~\n~~~~~\n")
    with pytest.raises(ParamError) as e:
        load(HORSE, path, {"budgte": "3", "budget": "3"})
    assert "declares no parameter 'budgte'" in e.value.render()


@pytest.mark.parametrize("setting,backend,words", [
    ("xyz", "cpsat", "write BACKEND.SETTING=VALUE"),
    ("maxsat.algorithm=", "maxsat", "write BACKEND.SETTING=VALUE"),
    ("cpsat.num_workers=4", "maxsat", "the setting is for backend 'cpsat', but the backend is 'maxsat'"),
    ("maxsat.algoritm=rc2", "maxsat", "backend 'maxsat' has no setting 'algoritm'"),
    ("cpsat.num_wokers=4", "cpsat", "CP-SAT has no parameter 'num_wokers'"),
    ("cpsat.num_workers=many", "cpsat", "CP-SAT parameter 'num_workers' takes a value of type int, not 'many'"),
    ("milp.seed_cuts=many", "milp", "backend 'milp': setting 'seed_cuts' takes an integer, not 'many'"),
    ("milp.seed_cuts=3", "milp", "setting 'seed_cuts' is 0, 1 or 2, not 3"),
    ("milp.warmstart=1", "milp", "setting 'warmstart' takes true or false, not 1"),
    ("milp.highs_options=x", "milp",
     "setting 'highs_options' takes entries, one at a time: milp.highs_options.KEY=VALUE, not 'x'"),
    ("milp.highs_options.presolv=off", "milp", "HiGHS has no option 'presolv'"),
    ("milp.highs_options.presolve=3", "milp", "HiGHS refuses the value 3 for its option 'presolve'"),
    ("milp.highs_option.presolve=off", "milp", "backend 'milp' has no setting 'highs_option.presolve'"),
    ("maxsat.conflicts=many", "maxsat", "setting 'conflicts' takes an integer, not 'many'"),
    ("maxsat.conflicts=0", "maxsat", "setting 'conflicts' must be at least 1, not 0"),
    ("maxsat.rc2.solver=zz", "maxsat", "PySAT has no SAT solver 'zz'"),
    ("asp.threads=many", "asp", "backend 'asp': setting 'threads' takes an integer, not 'many'"),
    ("asp.options.heuristc=Vsids", "asp", "clingo refuses the options --opt-mode=opt --parallel-mode=2,split "
                                          "--trans-ext=card --opt-heuristic=sign --heuristc=Vsids: "
                                          "unknown option: 'heuristc'"),
    ("asp.opt_strategy=usc,nope", "asp", "'usc,nope' invalid value for: 'opt-strategy'"),
])
def test_bad_backend_settings_are_usage_errors(tmp_path, capsys, setting, backend, words):
    path = write(tmp_path, "budget: 1\n~~~~~\n~.H.~\n~~~~~\n")
    try:
        code, out, err = run_cli(["solve", HORSE, "--map", path, "--backend", backend, "--set", setting], capsys)
    except SystemExit as e:  # argparse's own usage error
        code, err = e.code, capsys.readouterr().err
    assert code == 1 and words in err and "Traceback" not in err


def test_backend_setting_reaches_the_backend(tmp_path, capsys):
    path = write(tmp_path, "budget: 1\n~~~~~\n~.H.~\n~~~~~\n")
    code, out, _ = run_cli(["solve", HORSE, "--map", path, "--backend", "maxsat", "--set", "maxsat.algorithm=rc2",
                            "--json"], capsys)
    assert code == 0 and json.loads(out)["stats"]["algorithm"] == "rc2"


# ----------------------------------------------------------------- specs

def test_spec_syntax_error(tmp_path, capsys):
    spec = write(tmp_path, 'puzzle "x"\ntile grass value 1\n', "bad.grid")
    code, _, err = run_cli(["check", spec], capsys)
    assert code == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"{spec}:2:12: error: unexpected 'value'")
    assert "a tile needs at least one map character" in lines[0]
    assert lines[1] == "    tile grass value 1"
    assert lines[2] == "    " + " " * 11 + "^^^^^"


def test_syntax_error_at_end_of_spec():
    with pytest.raises(GridSyntaxError) as e:
        parse_spec("tile grass '.'\nrequire count(grass) <=", "s.grid")
    assert (e.value.span.line, e.value.span.column) == (2, 24)
    assert "unexpected end of spec" in e.value.message


def test_semantic_errors_are_reported_together(tmp_path):
    text = (
        "tile grass '.' value 1\n"
        "tile lawn '.'\n"                        # '.' already a grass tile
        "decide wall: bool on gras\n"            # unknown name (typo)
        "require count(wall) <= budget\n"        # undeclared parameter
        "maximize wall\n"                        # a cell set, not a number
    )
    with pytest.raises(MultipleErrors) as e:
        check(parse_spec(text, "s.grid"))
    errors = e.value.errors
    got = [(x.span.line, x.span.column, x.message) for x in errors]
    assert got == [
        (2, 11, "map character '.' is already a 'grass' tile"),
        (3, 22, "unknown name 'gras'; did you mean 'grass'?"),
        (4, 24, "unknown name 'budget'"),
        (5, 10, "the objective must be a number; this is a cell set (use value(...) or count(...))"),
    ]
    assert all(isinstance(x, SemanticError) for x in errors)


@pytest.mark.parametrize("text, line, col, words", [
    ("tile g '.'\ndecide w: bool on g\nrequire w <= 3\n", 3, 9, "a comparison takes numbers; this is a cell set"),
    ("tile g '.'\ndecide w: bool on g\nrequire count(w) * count(w) <= 3\n", 3, 9, "not linear"),
    ("tile g '.'\ndecide w: bool on g\nregion r = reach from w through g\n", 3, 23, "grows from a fixed cell set"),
    ("tile g '.'\ntile g 'x'\n", 2, 6, "'g' is already declared (line 1)"),
    ("tile g '.'\ndecide w: bool on g\nrequire w avoids 3\n", 3, 18, "both sides of 'avoids' are cell sets"),
    ("param p: set of int >= 2\n", 1, 7, "bounds apply to 'int' parameters"),
])
def test_type_and_declaration_errors(text, line, col, words):
    with pytest.raises(SemanticError) as e:
        check(parse_spec(text, "s.grid"))
    assert (e.value.span.line, e.value.span.column) == (line, col)
    assert words in e.value.message


def test_debug_shows_the_traceback(tmp_path):
    spec = write(tmp_path, "tile grass value 1\n", "bad.grid")
    with pytest.raises(GridSyntaxError):
        main(["check", str(spec), "--debug"])


def test_missing_files_are_errors_not_crashes(tmp_path, capsys):
    code, _, err = run_cli(["solve", tmp_path / "nope.grid", "--map", tmp_path / "nope.txt"], capsys)
    assert code == 1 and "cannot read spec" in err and "Traceback" not in err
    code, _, err = run_cli(["solve", HORSE, "--map", tmp_path / "nope.txt"], capsys)
    assert code == 1 and "cannot read map" in err


# ------------------------------------------------------- mistyped options

@pytest.mark.parametrize("argv, message", [
    (["--time-limt", "5"], "error: --time-limt is neither an option of 'gridlang solve' nor a parameter of "
                           f"{HORSE}; did you mean --time-limit?"),
    (["--budgte=5"], f"error: --budgte is neither an option of 'gridlang solve' nor a parameter of {HORSE}; "
                     "did you mean --budget?"),
    (["--zzzzz", "5"], f"error: --zzzzz is neither an option of 'gridlang solve' nor a parameter of {HORSE} "
                       "(its parameters: budget; the options: gridlang solve --help)"),
])
def test_mistyped_option_names_the_closest_option_or_parameter(tmp_path, capsys, argv, message):
    path = write(tmp_path, "budget: 1\n~~~~~\n~.H.~\n~~~~~\n")
    code, out, err = run_cli(["solve", HORSE, "--map", path, *argv], capsys)
    assert (code, out, err) == (1, "", message + "\n")


def test_declared_parameter_as_option_still_works(tmp_path, capsys):
    path = write(tmp_path, "budget: 0\n~~~~~\n~.H.~\n~~~~~\n")
    code, out, _ = run_cli(["solve", HORSE, "--map", path, "--budget", "1", "--json"], capsys)
    assert code == 0 and json.loads(out)["params"] == {"budget": 1}


def test_an_operator_left_at_the_end_of_a_line_is_the_error_there(tmp_path):
    """``require count(wall) <= budget +`` reads on into the next statement and failed two lines
    later, at the ``value`` of ``maximize value(pen)``; the error points at the ``+``."""
    text = _horse_text().replace("require count(wall) <= budget\n", "require count(wall) <= budget +\n")
    line = text.splitlines().index("require count(wall) <= budget +") + 1
    path = write(tmp_path, text, "spec.grid")
    with pytest.raises(GridSyntaxError) as e:
        parse_spec(text, str(path))
    rendered = located(e.value, path, line, len("require count(wall) <= budget +"))
    assert f"line {line} ends with '+', so its expression runs on into the statement on line {line + 2}" in rendered
    assert rendered.splitlines()[1].strip() == "require count(wall) <= budget +"


def test_an_expression_continued_on_the_next_line_is_no_error():
    """An operator at the end of a line that the next line finishes is a spec that reads."""
    parse_spec("tile blank '.'\ndecide s: bool on all\nrequire count(s) >= 1 and\n    count(s) <= 3\n", "s.grid")


def _horse_text() -> str:
    with open(HORSE) as f:
        return f.read()
