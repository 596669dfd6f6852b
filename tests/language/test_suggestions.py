"""A misspelt word gets the closest right one ("did you mean"): keywords of the language, names
in a spec, backend settings, backends, subcommands and options."""

from __future__ import annotations

import pytest
from horse_data import REPO

from gridlang.cli import main
from gridlang.core.errors import GridlangError
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

HORSE = str(REPO / "puzzles" / "horse.grid")
DAILY = str(REPO / "puzzles" / "maps" / "daily-2026-01-10.txt")

HEAD = "puzzle \"x\"\ntile cell '.'\ndecide shaded: bool on cell\n"


@pytest.mark.parametrize("text, line, column, message", [
    (HEAD + "requre count(shaded) >= 1\n", 4, 1, "unexpected name 'requre'; did you mean 'require'?"),
    ("requre count(s) >= 1\n", 1, 1, "unexpected name 'requre'; did you mean 'require'?"),
    (HEAD + "maximze count(shaded)\n", 4, 1, "unexpected name 'maximze'; did you mean 'maximize'?"),
    (HEAD + "require shaded is conected\n", 4, 19, "unexpected name 'conected'; did you mean 'connected'?"),
    (HEAD + "require count(shadde) >= 1\n", 4, 15, "unknown name 'shadde'; did you mean 'shaded'?"),
])
def test_a_misspelt_word_in_a_spec_gets_the_closest(text, line, column, message):
    with pytest.raises(GridlangError) as e:
        check(parse_spec(text, "t.grid"))
    assert (e.value.span.line, e.value.span.column) == (line, column)
    assert e.value.message == message


def run(argv, capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err.strip()


@pytest.mark.parametrize("argv, message", [
    (["--set", "cpsat.num_worker=4"], "error: CP-SAT has no parameter 'num_worker'; did you mean cpsat.num_workers?"),
    (["--set", "maxsat.algoritm=rc2"], "error: backend 'maxsat' has no setting 'algoritm'; did you mean "
                                       "maxsat.algorithm? It has algorithm, "),
    (["--set", "cpast.num_workers=4"], "error: --set cpast.num_workers: there is no backend 'cpast'; did you mean "
                                       "cpsat.num_workers?"),
    (["--set", "auto.rac=asp,cpsat"], "error: backend 'auto' has no setting 'rac'; did you mean auto.race?"),
    (["--backend", "cpast"], "gridlang solve: error: argument --backend/-b: invalid choice: 'cpast' (choose from "),
    (["--time-limt", "5"], "error: --time-limt is neither an option of 'gridlang solve' nor a parameter of"),
])
def test_a_misspelt_setting_backend_or_option_gets_the_closest(capsys, argv, message):
    code, err = run(["solve", HORSE, "--map", DAILY] + argv, capsys)
    assert code == 1 and err.startswith(message)
    if "cpast'" in message and "--backend" in argv:
        assert err.endswith("; did you mean 'cpsat'?")
    if "--time-limt" in argv:
        assert err.endswith("; did you mean --time-limit?")


@pytest.mark.parametrize("argv, message", [
    (["slove", HORSE], "gridlang: error: argument COMMAND: invalid choice: 'slove' (choose from "),
    (["import", "URL", "--debgu"], "gridlang import: error: unrecognized arguments: --debgu; did you mean '--debug'?"),
])
def test_a_misspelt_subcommand_or_option_gets_the_closest(capsys, argv, message):
    code, err = run(argv, capsys)
    assert code == 1 and err.startswith(message)
    if argv[0] == "slove":
        assert err.endswith("; did you mean 'solve'?")
