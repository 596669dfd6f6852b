"""Hostile input: every bad spec, map, parameter, option or file gets a located
error and exit 1 (or a status and its exit code), never a traceback or a hang.

docs/reliability.md lists these inputs with what each gets.
"""

from __future__ import annotations

import contextlib
import io
import time

import pytest
from horse_data import REPO
from timing import busy

from gridlang.cli import main
from gridlang.core.errors import GridSyntaxError
from gridlang.core.limits import MAX_NESTING, MAX_SPEC_BYTES
from gridlang.language.parser import parse_spec

HORSE = str(REPO / "puzzles" / "horse.grid")
HORSE_TEXT = (REPO / "puzzles" / "horse.grid").read_text()
DAILY = str(REPO / "puzzles" / "maps" / "daily-2026-01-07.txt")


def write(tmp_path, text: str | bytes, name: str = "map.txt"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def horse_with(old: str, new: str) -> str:
    assert old in HORSE_TEXT
    return HORSE_TEXT.replace(old, new)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# ------------------------------------------------------------- nesting

def test_deep_parentheses_are_no_nesting(tmp_path, capsys):
    text = horse_with("require count(wall) <= budget",
                      "require count(wall) <= " + "(" * 5000 + "budget" + ")" * 5000)
    spec = write(tmp_path, text, "deep.grid")
    code, out, err = run_cli(["check", spec], capsys)
    assert code == 0 and out.startswith(f"{spec}: ok") and err == ""


@pytest.mark.parametrize("backend", ["cpsat", "milp", "maxsat"])
def test_nesting_at_the_limit_solves(tmp_path, capsys, backend):
    # `not` twice is the identity: an even number of them leave the rule as it
    # was. The relation `pen avoids border` is a level of its own under them.
    text = horse_with("require pen avoids border", "require " + "not " * (MAX_NESTING - 2) + "pen avoids border")
    spec = write(tmp_path, text, "nots.grid")
    code, out, _ = run_cli(["solve", spec, "--map", DAILY, "--backend", backend], capsys)
    assert code == 0 and "score 66 (verified)" in out


@pytest.mark.parametrize("rule, column", [
    ("require " + "not " * (MAX_NESTING + 1) + "pen avoids border", 9 + 4 * MAX_NESTING),
    ("require count(wall) " + "+ 0 " * MAX_NESTING + "<= budget", 9),
    ("require count(wall) <= " + "- " * 5000 + "budget", 24 + 2 * MAX_NESTING),
])
def test_nesting_beyond_the_limit_is_located(tmp_path, capsys, rule, column):
    text = HORSE_TEXT + rule + "\n"
    spec = write(tmp_path, text, "deep.grid")
    code, out, err = run_cli(["check", spec], capsys)
    line = text.count("\n")
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:{line}:{column}: error: this expression is nested more than "
                          f"{MAX_NESTING} levels deep")


# ------------------------------------------------------------- integers

@pytest.mark.parametrize("literal, shown", [
    ("1" + "0" * 100, "1000000000...0000 (101 digits)"),
    ("9" * 5000, "9999999999...9999 (5000 digits)"),
    ("1000000001", "1000000001"),
])
def test_huge_integer_in_a_rule_is_located(tmp_path, capsys, literal, shown):
    spec = write(tmp_path, horse_with("<= budget", "<= " + literal), "big.grid")
    code, out, err = run_cli(["solve", spec, "--map", DAILY], capsys)
    line = line_of(HORSE_TEXT, "<= budget")
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:{line}:24: error: the integer {shown} is too large: gridlang takes "
                          "integers of at most 1,000,000,000 in magnitude")


def test_integer_at_the_limit_is_taken():
    spec = parse_spec("param p: int <= 1000000000 = -1000000000\n", "s.grid")
    assert spec.statements[0].default == -1000000000


@pytest.mark.parametrize("text, column, words", [
    ("param s: set of int = 1..1000000000\n", 23, "this set has 1,000,000,000 values; a set of integers has at most 10,000"),
    ("tile a 'a' exactly 99999999999\n", 20, "the integer 99999999999 is too large"),
    ("tile a 'a' value -99999999999\n", 19, "the integer 99999999999 is too large"),
])
def test_huge_values_in_declarations(text, column, words):
    with pytest.raises(GridSyntaxError) as e:
        parse_spec(text, "s.grid")
    assert (e.value.span.line, e.value.span.column) == (1, column)
    assert words in e.value.message


# ------------------------------------------------------------- size of a spec

def test_a_spec_beyond_the_size_limit_is_refused_at_once(tmp_path, capsys):
    spec = write(tmp_path, HORSE_TEXT + "require count(wall) <= budget\n" * 170_000, "huge.grid")
    t0 = time.perf_counter()
    code, out, err = run_cli(["check", spec], capsys)
    assert time.perf_counter() - t0 < busy(1.0)  # parsing the 170,000 lines would take far longer
    head = len(HORSE_TEXT.encode())
    line = HORSE_TEXT.count("\n") + (MAX_SPEC_BYTES - head) // 30 + 1
    column = (MAX_SPEC_BYTES - head) % 30 + 1
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:{line}:{column}: error: the spec is {spec.stat().st_size:,} bytes long; "
                          f"gridlang reads a spec of at most {MAX_SPEC_BYTES:,} bytes")


def test_a_spec_with_too_many_statements(tmp_path):
    text = "tile a 'a'\n" + "require a avoids a\n" * 2000
    with pytest.raises(GridSyntaxError) as e:
        parse_spec(text, "s.grid")
    assert (e.value.span.line, e.value.span.column) == (2001, 9)
    assert e.value.message == "the spec has 2,001 statements; gridlang reads a spec of at most 2,000"


def test_an_endless_file_is_refused_as_too_long(capsys):
    code, out, err = run_cli(["check", "/dev/zero"], capsys)
    assert (code, out) == (1, "")
    assert err.startswith("/dev/zero:1:65537: error: the spec is more than 65,536 bytes long")


# ------------------------------------------------------------- maps

SMALL = "~~~~~\n~.H.~\n~~~~~\n"


@pytest.mark.parametrize("text, name, where, message", [
    ('{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": 12.5}', "f.json", (1, 42),
     "budget must be an integer, not 12.5 (the spec declares budget: int)"),
    ('{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": true}', "t.json", (1, 42),
     "budget must be an integer, not true (the spec declares budget: int)"),
    ('{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": null}', "n.json", (1, 42),
     "budget must be an integer, not null (the spec declares budget: int)"),
    ('{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": 3, "budgett": 4}', "k.json", (1, 45),
     "record key 'budgett' names no parameter of the spec; did you mean 'budget'?"),
    ("wallcost: 3\nbudget: 1\n" + SMALL, "w.txt", (1, 1),
     "header key 'wallcost' names no parameter of the spec (its parameters: budget)"),
    ("budgte: 1\nbudget: 1\n" + SMALL, "b.txt", (1, 1),
     "header key 'budgte' names no parameter of the spec; did you mean 'budget'?"),
    ("budget: " + "1" * 31 + "\n" + SMALL, "big.txt", (1, 9),
     "budget is too large: 1111111111...1111 (31 digits) is beyond the limit of 1,000,000,000 in magnitude"),
    ('{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": ' + "7" * 5000 + "}", "d.json", (1, 42),
     "budget is too large: 7777777777...7777 (5000 digits) is beyond the limit"),
    ('{"map": ' + "[" * 100_000 + "]" * 100_000 + "}", "deep.json", (1, 1),
     "the map nests too deeply to be a map"),
    ("budget: 1\n~~~~~\n~.H\x00~\n~~~~~\n", "nul.txt", (3, 4),
     "character '\\x00' at row 2, column 4 is not a tile of this spec"),
    # White space inside a row separates cells (maps with numbers of several
    # digits): this row has two cells, "~.H" and "~".
    ("budget: 1\n~~~~~\n~.H\t~\n~~~~~\n", "tab.txt", (3, 5),
     "row 2 of the grid has 2 cells; the first row has 1"),
    ("budget: 1\n" + "~" * 10_000 + "\n", "wide.txt", (2, 1001),
     "row 1 of the grid has 10,000 cells; a map has at most 1,000 columns"),
    ("budget: 1\nH\n" + ".\n" * 1500, "tall.txt", (1002, 1), "the grid has 1,501 rows; a map has at most 1,000"),
    ("budget: 1\n" + ("H" + "." * 249 + "\n") + ("." * 250 + "\n") * 249, "square.txt", (162, 1),
     "the grid has 250 rows of 250 cells, 62,500 in all; a map has at most 40,000 cells"),
])
def test_bad_maps_are_located(tmp_path, capsys, text, name, where, message):
    path = write(tmp_path, text, name)
    code, out, err = run_cli(["solve", HORSE, "--map", path], capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:{where[0]}:{where[1]}: error: {message}")


@pytest.mark.parametrize("text", [
    "budget: 1\r\n~~~~~\r\n~.H.~\r\n~~~~~\r\n",
    "\ufeffbudget: 1\n~~~~~\n~.H.~\n~~~~~\n",
    '{"map": "~~~~~\\n~.H.~\\n~~~~~", "budget": 1, "name": "a level", "date": "2026-01-07"}',
])
def test_crlf_bom_and_record_fields_are_fine(tmp_path, capsys, text):
    path = write(tmp_path, text.encode("utf-8"), "map.json" if text.startswith("{") else "map.txt")
    code, out, _ = run_cli(["solve", HORSE, "--map", path], capsys)
    assert code == 0 and "score 3 (verified)" in out


@pytest.mark.parametrize("target, message", [
    ("missing.txt", "error: cannot read map {path}: No such file or directory"),
    (".", "error: cannot read map {path}: Is a directory"),
])
def test_unreadable_maps(tmp_path, capsys, target, message):
    path = tmp_path / target
    code, out, err = run_cli(["solve", HORSE, "--map", path], capsys)
    assert (code, out, err) == (1, "", message.format(path=path) + "\n")


def test_an_endless_map_is_refused_as_too_long(capsys):
    code, out, err = run_cli(["compile", HORSE, "--map", "/dev/zero"], capsys)
    assert (code, out) == (1, "")
    assert err.startswith("/dev/zero:1:4194305: error: the map is more than 4,194,304 bytes long")


def test_a_huge_snake_eggs_record_is_refused(tmp_path, capsys):
    path = write(tmp_path, '{"rows": 100000, "cols": 100000, "egg_sizes": [1]}', "big.json")
    code, out, err = run_cli(["solve", REPO / "puzzles" / "snake_eggs.grid", "--map", path], capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:1:10: error: the grid has 100,000 rows of 100,000 cells; a map has at most "
                          "1,000 rows, 1,000 columns and 40,000 cells")


@pytest.mark.parametrize("value, message", [
    ("1..1000000000", "sizes has 1,000,000,000 values; a set of integers has at most 10,000"),
    ("1,x", "sizes must be a set of integers (1..5, or 1,2,3); x is not an integer"),
    ("5..1", "sizes must be a set of integers; the range 5..1 is empty"),
])
def test_bad_set_values(capsys, value, message):
    instance = REPO / "puzzles" / "instances" / "snake_eggs" / "pzprjs_test_5x5.txt"
    code, out, err = run_cli(["solve", REPO / "puzzles" / "snake_eggs.grid", "--map", instance,
                              "--sizes", value], capsys)
    assert (code, out) == (1, "")
    assert err == f"error: --param sizes: {message} (the spec declares sizes: set of int)\n"


@pytest.mark.parametrize("text, where, message", [
    ("tile é 'é'\n", (1, 6), "unexpected character 'é'; a name is made of ASCII letters, digits and '_'"),
    ("tile a '\x00'\ntile b\x00 'b'\n", (2, 7), "unexpected character '\\x00'"),
])
def test_unicode_and_control_characters_in_a_spec(text, where, message):
    with pytest.raises(GridSyntaxError) as e:
        parse_spec(text, "s.grid")
    assert (e.value.span.line, e.value.span.column) == where
    assert e.value.message.startswith(message)


def test_unicode_map_characters_and_a_bom_in_a_spec(tmp_path, capsys):
    spec = write(tmp_path, "\ufeffpuzzle \"snow\"\ntile snow '☃'\ntile sun 'é'\ndecide melt: bool on snow\n"
                           "maximize count(melt)\n", "snow.grid")
    path = write(tmp_path, "☃é\n☃☃\n", "snow.txt")
    code, out, _ = run_cli(["solve", spec, "--map", path, "--backend", "maxsat"], capsys)
    assert code == 0 and "score 3" in out


# ------------------------------------------------------------- specs that check

@pytest.mark.parametrize("text, where, message", [
    ("", (1, 1), "the spec is empty; a spec declares tiles, decides on cells (decide NAME: bool on CELLS) "
                 "and states rules (docs/language.md)"),
    ("# only a comment\n", (1, 1), "the spec is empty;"),
    ("puzzle \"p\"\ntile a '.'\nrequire count(a) >= 0\n", (1, 1),
     "the spec decides nothing: without a 'decide' statement there is nothing to solve"),
    ("tile a '.'\ndecide x: bool on a\nparam budget: int >= 0 = -5\n", (3, 26),
     "the default budget = -5 breaks the bound budget >= 0 declared with it"),
    ("tile a '.'\ndecide x: bool on a\nparam p: int >= 0 <= 10 = 11\n", (3, 27),
     "the default p = 11 breaks the bound p <= 10 declared with it"),
])
def test_check_refuses_a_spec_with_nothing_to_solve_or_a_default_out_of_bounds(tmp_path, capsys, text, where,
                                                                               message):
    spec = write(tmp_path, text, "s.grid")
    code, out, err = run_cli(["check", spec], capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:{where[0]}:{where[1]}: error: {message}")


def test_a_default_within_its_bounds_checks(tmp_path, capsys):
    spec = write(tmp_path, "tile a '.'\ndecide x: bool on a\nparam p: int >= 0 <= 10 = 10\n", "s.grid")
    code, out, _ = run_cli(["check", spec], capsys)
    assert code == 0 and "ok (1 tiles, 1 parameters, 1 decisions, 0 regions" in out


# ------------------------------------------------------------- compiled sizes

def big_spec(tmp_path, rule: str, puzzle: str = "big"):
    text = HORSE_TEXT.replace('puzzle "enclose.horse"', f'puzzle "{puzzle}"')
    return write(tmp_path, text.replace("require count(wall) <= budget", rule), "big.grid")


@pytest.mark.parametrize("rule, statement, message", [
    ("require count(wall) * 1000000000 * 1000000000 <= budget", "require count(wall) *",
     "this rule's coefficients and constant add up to 104,000,000,000,000,000,012 on this map, beyond the limit "
     "of 1,000,000,000,000,000 up to which every backend computes exactly"),
    ("require count(wall) <= 1000000000 * 1000000000", "require count(wall) <=",
     "this rule's coefficients and constant add up to 1,000,000,000,000,000,104 on this map"),
    ("require count(wall) <= budget\nmaximize value(pen) * 1000000000 * 10000", "maximize value(pen) *",
     "the objective's coefficients and constant add up to 1,450,000,000,000,000 on this map"),
])
@pytest.mark.parametrize("backend", ["cpsat", "milp", "maxsat"])
def test_rows_beyond_what_a_backend_takes_are_located(tmp_path, capsys, rule, statement, message, backend):
    spec = big_spec(tmp_path, rule)
    if "maximize value(pen) *" in rule:
        spec.write_text(spec.read_text().replace("maximize value(pen)\n", "", 1))
    text = spec.read_text()
    line = line_of(text, statement)
    column = 1 if statement.startswith("maximize") else 9
    code, out, err = run_cli(["solve", spec, "--map", DAILY, "--backend", backend], capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:{line}:{column}: error: {message}")


@pytest.mark.parametrize("backend", ["cpsat", "milp", "maxsat"])
def test_rows_within_the_limit_solve_exactly(tmp_path, capsys, backend):
    spec = big_spec(tmp_path, "require count(wall) * 1000000000 * 1000 <= budget * 1000000000 * 1000")
    code, out, _ = run_cli(["solve", spec, "--map", DAILY, "--backend", backend], capsys)
    assert code == 0 and "score 66 (checked by the spec's rules)" in out


def test_a_model_beyond_the_variable_limit_is_refused_at_the_values_that_make_it(tmp_path, capsys):
    spec = write(tmp_path, "tile cell '.'\nparam sizes: set of int\ndecide kind: {snake} | sizes on all\n"
                           "require count(kind = snake) >= 1\n", "enum.grid")
    path = write(tmp_path, "sizes: 1..100\n" + ("." * 200 + "\n") * 200, "wide.txt")
    t0 = time.perf_counter()
    code, out, err = run_cli(["compile", spec, "--map", path], capsys)
    assert time.perf_counter() - t0 < 5
    assert (code, out) == (1, "")
    assert err.startswith(f"{spec}:3:24: error: with sizes, 'kind' has 101 values on 40,000 cells of this map: "
                          "4,040,000 variables, more than the 1,000,000 a model holds")


# ------------------------------------------------------------- the command line

@pytest.mark.parametrize("option, value, message", [
    ("--count", "0", "argument --count: give a whole number from 1 to 1,000,000, not 0"),
    ("--count", "-3", "argument --count: give a whole number from 1 to 1,000,000, not -3"),
    ("--count", "many", "argument --count: give a whole number from 1 to 1,000,000, not many"),
    ("--workers", "0", "argument --workers/-w: give a whole number from 1 to 256, not 0"),
    ("--workers", "1" + "0" * 100, "argument --workers/-w: give a whole number from 1 to 256, not 1" + "0" * 100),
    ("--mip-gap", "-1", "argument --mip-gap: give a relative gap of 0 or more (0.01 is 1%), not -1"),
    ("--mip-gap", "nan", "argument --mip-gap: give a relative gap of 0 or more (0.01 is 1%), not nan"),
    ("--time-limit", "inf", "argument --time-limit/-t: give a number of seconds more than 0, not inf "
                            "(leave it out for no limit)"),
    ("--set", "maxsat.conflicts=1" + "0" * 40, "argument --set: maxsat.conflicts=1000000000...0000 (41 digits): "
                                               "the value is beyond 64 bits, more than any solver setting takes"),
])
def test_out_of_range_options_are_refused_in_a_sentence(capsys, option, value, message):
    with pytest.raises(SystemExit) as e:
        main(["solve", HORSE, "--map", DAILY, option, value])
    err = capsys.readouterr().err
    assert e.value.code == 1
    assert err.splitlines()[-1] == f"gridlang solve: error: {message}"


def test_the_verify_objective_option_is_bounded(capsys):
    with pytest.raises(SystemExit) as e:
        main(["verify", HORSE, "--map", DAILY, "--solution", "x.json", "--objective", "1" + "0" * 30])
    assert e.value.code == 1
    assert "argument --objective: give a whole number from -9,223,372,036,854,775,807 to " in capsys.readouterr().err


def gridlang_process(*argv: str):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "gridlang", *map(str, argv)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=REPO.parent)


@pytest.mark.parametrize("command", ["solve", "compile"])
def test_a_closed_pipe_is_quiet_and_exit_0(tmp_path, command):
    path = write(tmp_path, "budget: 3\n" + "~" * 60 + "\n" + ("~" + "." * 58 + "~\n") * 29 + "~" + "." * 28 + "H"
                 + "." * 29 + "~\n" + ("~" + "." * 58 + "~\n") * 29 + "~" * 60 + "\n")
    argv = [command, HORSE, "--map", path, "--dump-ir"] if command == "compile" else [command, HORSE, "--map", DAILY]
    proc = gridlang_process(*argv)
    if command == "compile":
        first = proc.stdout.readline()  # as `| head -1` reads
        assert first.startswith(b"model 'enclose.horse': 61x60 cells")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0
    assert err == ""


# ------------------------------------------------------------- decode and verify

def exported(tmp_path, capsys, fmt: str = "wcnf"):
    target = tmp_path / f"daily.{fmt}"
    code, _, _ = run_cli(["export", HORSE, "--map", DAILY, "--format", fmt, "-o", target], capsys)
    assert code == 0
    return target


def test_decode_says_which_rules_an_answer_breaks(tmp_path, capsys):
    exported(tmp_path, capsys)
    answer = write(tmp_path, "v " + "1" * 219 + "\n", "all.out")
    code, out, err = run_cli(["decode", HORSE, "--map", DAILY, "--solution", answer], capsys)
    assert (code, out) == (4, "")
    assert err.splitlines() == [
        f"error: the answer in {answer} breaks the compiled model:",
        f"  {HORSE}:22:8: 'region pen = reach from horse through not impassable and ...': 104 constraints "
        "false, e.g. clause ~pen[0,2] | ~wall[0,2] is false",
        f"  {HORSE}:24:9: 'require pen avoids border': 16 constraints false, e.g. clause ~pen[0,2] is false",
        f"  {HORSE}:25:9: 'require count(wall) <= budget': linear constraint evaluates to 104 <= 12: false",
    ]


@pytest.mark.parametrize("suffix", ["out", "sol"])
def test_decode_of_a_binary_file_is_located(tmp_path, capsys, suffix):
    answer = write(tmp_path, b"v 1\n\xbc\x00\xff", f"bin.{suffix}")
    code, out, err = run_cli(["decode", HORSE, "--map", DAILY, "--solution", answer], capsys)
    assert (code, out) == (1, "")
    assert err == f"{answer}:2:1: error: the solution file is not UTF-8 text (byte 0xbc)\n"


@pytest.fixture(scope="module")
def daily_answer() -> dict:
    """What `gridlang solve --json` prints for the daily map (score 66)."""
    import json

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", HORSE, "--map", DAILY, "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("claim, code, message", [
    (66.0, 0, None),
    (6.6e1, 0, None),
    (67, 4, "error: the answer claims the objective 67, but the spec's rules score it 66"),
    (10**20, 4, "error: the answer claims the objective 100000000000000000000, but the spec's rules score it 66"),
    (1e20, 1, "the answer claims the objective 1e+20, but a float this large is not exact; write the integer"),
    (66.5, 1, "the answer claims the objective 66.5, but it must be a whole number"),
    (True, 1, "the answer claims the objective true, but it must be a whole number"),
])
def test_verify_reads_a_claimed_objective_exactly(tmp_path, capsys, daily_answer, claim, code, message):
    import json

    record = dict(daily_answer)
    record["objective"] = claim
    answer = write(tmp_path, json.dumps(record), "answer.json")
    got, out, err = run_cli(["verify", HORSE, "--map", DAILY, "--solution", answer], capsys)
    assert got == code
    if message is None:
        assert out == f"{answer}: every rule of {HORSE} holds, objective 66\n"
    elif code == 4:
        assert err == f"{answer}: {message}\n"
    else:
        column = json.dumps(record).index('"objective": ') + len('"objective": ') + 1
        assert err.startswith(f"{answer}:1:{column}: error: {message}")


# ------------------------------------------------------------- no solution without a time limit

@pytest.mark.parametrize("setting, backend", [
    ("cpsat.max_time_in_seconds=0.001", "cpsat"),
    ("milp.highs_options.time_limit=0.001", "milp"),
])
def test_a_second_clock_is_refused(capsys, setting, backend):
    code, out, err = run_cli(["solve", HORSE, "--map", DAILY, "--backend", backend, "--set", setting], capsys)
    assert (code, out) == (1, "")
    assert err == (f"error: --set {setting.split('=')[0]}: give the time limit as --time-limit SECONDS, the one "
                   "clock of the whole command (parsing, every cut round, every solve)\n")


def test_a_solver_limit_without_a_time_limit_says_so(capsys):
    weekly = REPO / "puzzles" / "maps" / "weekly-01.txt"
    code, out, _ = run_cli(["solve", HORSE, "--map", weekly, "--set", "cpsat.max_deterministic_time=0.0000001"],
                           capsys)
    assert code == 3
    assert out.splitlines()[:2] == [
        "status UNKNOWN   backend auto: cpsat, connectivity auto",  # a cpsat setting: auto picks cpsat
        "no solution found before the solver stopped at a limit of its own, and none ruled out",
    ]


def test_an_endless_answer_file_is_refused_as_too_long(capsys):
    code, out, err = run_cli(["verify", HORSE, "--map", DAILY, "--solution", "/dev/zero"], capsys)
    assert code == 1
    assert err.startswith("/dev/zero:1:16777217: error: the answer is more than 16,777,216 bytes long; "
                          "gridlang reads an answer of at most 16,777,216 bytes")
    code, out, err = run_cli(["decode", HORSE, "--map", DAILY, "--solution", "/dev/zero", "--format", "out"], capsys)
    assert code == 1
    assert err.startswith("/dev/zero:1:16777217: error: the solution file is more than 16,777,216 bytes long; "
                          "gridlang reads a solution file of at most 16,777,216 bytes")


def test_a_directory_as_an_answer_file_is_refused(tmp_path, capsys):
    code, out, err = run_cli(["verify", HORSE, "--map", DAILY, "--solution", tmp_path], capsys)
    assert code == 1
    assert err.strip() == f"error: cannot read answer {tmp_path}: Is a directory"
    code, out, err = run_cli(["decode", HORSE, "--map", DAILY, "--solution", tmp_path, "--format", "sol"], capsys)
    assert code == 1
    assert err.strip() == f"error: cannot read solution file {tmp_path}: Is a directory"


def test_batch_workers_are_bounded(capsys):
    with pytest.raises(SystemExit) as e:
        main(["batch", HORSE, DAILY, "--out", "r.jsonl", "--workers", "100000"])
    assert e.value.code == 1
    assert "argument --workers/-w: give a whole number from 1 to 256, not 100000" in capsys.readouterr().err


@pytest.mark.parametrize("first_end,end", [("\v", "\n"), ("\f", "\n"), ("\u2028", "\n"), ("", "\r"), ("", "\r\n")])
def test_the_echoed_line_is_the_line_the_location_counts(tmp_path, capsys, first_end, end):
    """Lines end in \\n, \\r\\n or a lone \\r (as in maps); a vertical tab, form
    feed or Unicode line separator inside a line is shown as a space."""
    spec = tmp_path / "odd.grid"
    spec.write_bytes(f'puzzle "A" # a{first_end}b{end}tile white \'.\'{end}decide light: bool on wite{end}'
                     .encode())
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{spec}:3:23: error: unknown name 'wite'; did you mean 'white'?"
    assert err[1:3] == ["    decide light: bool on wite", "                          ^^^^"]
