"""The HTTP API of ``gridlang serve`` through Starlette's test client (one worker process):
``POST /api/solve`` answers exactly what ``gridlang solve --json`` prints, errors are the command
line's located messages with a 4xx status, sizes are capped and no client-named path is read."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx: pip install '.[test]'")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 beside httpx; either works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from horse_data import REPO  # noqa: E402

from gridlang.cli import main  # noqa: E402
from gridlang.core.limits import MAX_MAP_BYTES  # noqa: E402
from gridlang.service.schemas import validator  # noqa: E402
from gridlang.web.app import Settings, create_app  # noqa: E402
from gridlang.web.inputs import MAX_BODY_BYTES  # noqa: E402

NURIKABE = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
DAILY = (REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text(encoding="utf-8")
NUMBERS = "tile blank '.'\ntile clue number\ndecide s: bool on blank\n"
TYPO = 'puzzle "x"\ntile a \'.\'\ndecide s: bool on a\nrequre count(s) >= 1\n'


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=1, queue=2, time_limit=30)), raise_server_exceptions=True) as c:
        yield c


def cli_json(argv, capsys) -> dict:
    code = main(["solve", *argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


# Keys whose values depend on the run, not on the answer: the clock, and how the spec and map are named.
RUN_KEYS = {"seconds", "spec", "map", "stats"}


def test_solve_answers_what_solve_json_prints(client, capsys):
    expected = cli_json(["--url", NURIKABE, "--unique"], capsys)
    response = client.post("/api/solve", json={"puzzle": NURIKABE, "unique": True})
    assert response.status_code == 200, response.text
    got = response.json()
    validator("solve").validate(got)
    assert set(got) == set(expected)
    assert {k: v for k, v in got.items() if k not in RUN_KEYS} == \
        {k: v for k, v in expected.items() if k not in RUN_KEYS}
    assert set(got["stats"]) == set(expected["stats"])
    assert got["map"] == NURIKABE and got["spec"] == "puzzles/nurikabe.grid"
    assert got["status"] == "SOLVED" and got["unique"] is True and len(got["decisions"]["shaded"]) == 14
    assert response.headers["x-gridlang-exit"] == "0"


def test_the_daily_with_its_budget_scores_66(client):
    rows = "".join(line + "\n" for line in DAILY.splitlines() if not line.startswith("budget"))
    response = client.post("/api/solve", json={"bundled": "horse", "puzzle": rows, "params": {"budget": 12}})
    assert response.status_code == 200, response.text
    record = response.json()
    validator("solve").validate(record)
    assert (record["status"], record["objective"], record["verified"], record["verified_score"]) == \
        ("OPTIMAL", 66, True, 66)
    assert len(record["horse"]["walls"]) == 12 and record["params"] == {"budget": 12}


def test_an_infeasible_map_gives_the_cli_exit_code(client):
    response = client.post("/api/solve", json={"bundled": "horse", "puzzle": ".....\n..H..\n.....\n",
                                                "params": {"budget": 0}})
    assert response.status_code == 200
    assert response.json()["status"] == "INFEASIBLE" and response.headers["x-gridlang-exit"] == "2"


def test_a_typo_in_a_spec_is_located_as_the_cli_locates_it(client):
    response = client.post("/api/solve", json={"spec": TYPO, "puzzle": "..\n"})
    assert response.status_code == 400
    record = response.json()
    assert record["error"].splitlines()[0] == "<spec>:4:1: error: unexpected name 'requre'; did you mean 'require'?"
    assert record["error"].splitlines()[2].strip() == "^^^^^^"
    assert record["errors"][0]["line"] == 4 and record["errors"][0]["column"] == 1


def test_a_bad_map_is_located_in_the_map(client):
    response = client.post("/api/solve", json={"bundled": "horse", "puzzle": "~~~\n~H~\n~~X\n",
                                                "params": {"budget": 1}})
    assert response.status_code == 400
    assert response.json()["error"].startswith("<map>:3:3: error: character 'X' at row 3, column 3 is not a tile")


def test_the_spec_info_names_parameters_and_tiles(client):
    info = client.get("/api/specs/horse").json()
    assert info["puzzle"] == "enclose.horse" and [p["name"] for p in info["params"]] == ["budget"]
    assert info["tiles"][0] == {"name": "water", "chars": ["~"], "number": False}
    assert "maximize value(pen)" in info["text"]
    nurikabe = client.post("/api/spec-info", json={"spec": NUMBERS}).json()
    assert nurikabe["tiles"][1] == {"name": "clue", "chars": [], "number": True}
    bad = client.post("/api/spec-info", json={"spec": TYPO})
    assert bad.status_code == 400 and bad.json()["errors"][0]["line"] == 4


@pytest.mark.parametrize("body, status, words", [
    ({"bundled": "../../etc/passwd", "puzzle": "."}, 400, "no bundled spec is called '../../etc/passwd'"),
    ({"bundled": "horse", "puzzle": "/etc/passwd", "params": {"budget": 1}}, 400,
     "<map>:1:1: error: character '/' at row 1, column 1 is not a tile"),
    ({"spec": "/etc/passwd", "puzzle": "."}, 400, "<spec>:1:1: error:"),
    ({"bundled": "horse", "puzzle": "~H~", "time_limit": 31}, 400, "more than this server allows (30 s"),
    ({"bundled": "horse", "puzzle": "~H~", "time_limt": 3}, 400, "did you mean 'time_limit'?"),
    ({"bundled": "horse", "puzzle": "~H~", "backend": "cpast"}, 400, "did you mean 'cpsat'?"),
    ({"bundled": "horse", "spec": "x", "puzzle": "~H~"}, 400, "not both"),
    ({"puzzle": "~H~"}, 400, "give the spec"),
    ({"bundled": "horse", "puzzle": "." * (MAX_MAP_BYTES + 1)}, 413, "gridlang reads a map of at most 4,194,304 bytes"),
    ([1, 2], 400, "the request must be a JSON object"),
])
def test_bad_requests_are_refused_in_a_sentence(client, body, status, words):
    response = client.post("/api/solve", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_the_body_is_capped_typed_and_json(client):
    huge = client.post("/api/solve", content=b"{" + b" " * MAX_BODY_BYTES + b"}",
                       headers={"Content-Type": "application/json"})
    assert huge.status_code == 413 and "this server takes at most" in huge.json()["error"]
    form = client.post("/api/solve", content=b"bundled=horse", headers={"Content-Type": "text/plain"})
    assert form.status_code == 415
    broken = client.post("/api/solve", content=b'{"bundled": ', headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and "the request is not JSON" in broken.json()["error"]


def test_no_other_file_is_served(client):
    for path in ("/static/../../../../etc/passwd", "/static/inputs.py", "/static/%2e%2e%2fapp.py", "/nothing"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "passwd" not in response.text or "nothing is at" in response.json()["error"]
    page = client.get("/")
    assert page.status_code == 200 and "<title>gridlang</title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.split("<body>")[0].replace('http-equiv', '')  # no script or style from elsewhere


def test_an_export_is_the_model_file(client):
    rows = "~~~~~\n~...~\n~.H.~\n~...~\n~~~~~\n"
    response = client.post("/api/export?format=lp", json={"bundled": "horse", "puzzle": rows,
                                                          "params": {"budget": 0}})
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == 'attachment; filename="horse.lp"'
    assert "\nmax \nscore:\n+1 pen_1_1\n" in response.text and "param budget = 0" in response.text
    refused = client.post("/api/export?format=docx", json={"bundled": "horse", "puzzle": rows})
    assert refused.status_code == 400


def test_another_host_is_refused_on_localhost():
    app = create_app(Settings(workers=1, queue=0), allowed_hosts=["127.0.0.1", "localhost"], warm=False)
    with TestClient(app, base_url="http://evil.example") as c:
        response = c.get("/api/health")
        assert response.status_code == 400 and "not 'evil.example'" in response.json()["error"]
    with TestClient(app, base_url="http://localhost:8000") as c:
        assert c.get("/api/health").json()["ok"] is True


def test_features_say_which_tools_exist(client):
    import gridlang.api as api

    features = client.get("/api/features").json()
    assert features == {"forced": callable(getattr(api, "forced", None)),
                        "explain": callable(getattr(api, "explain", None)),
                        "hint": callable(getattr(api, "hints", None))}
    if not features["forced"]:
        assert client.post("/api/tools/forced", json={"bundled": "horse", "puzzle": "~H~"}).status_code == 404


def test_forced_cells_are_what_solve_forced_json_prints(client, capsys):
    expected = cli_json(["puzzles/nurikabe.grid", "--map", str(REPO / "puzzles" / "instances" / "nurikabe" /
                                                                   "pzprjs_5x5.txt"), "--forced"], capsys)
    two = client.post("/api/tools/forced", json={"bundled": "nurikabe", "puzzle": "2.\n..\n"})
    assert two.status_code == 200, two.text
    record = two.json()["json"]
    validator("solve").validate(record)
    assert record["forced"] == {"shaded": [[[1, 1], 1]]} and record["open"] == [[0, 1], [1, 0]]
    assert record["map"] == "<map>" and record["spec"] == "puzzles/nurikabe.grid"
    assert two.json()["svg"].count('class="open"') == 4  # two grey cells, two question marks
    got = client.post("/api/tools/forced", json={"bundled": "nurikabe", "puzzle": NURIKABE}).json()["json"]
    assert got["forced"] == expected["forced"] and got["open"] == [] and got["forced_complete"] is True


def test_explain_and_hint_tools_answer_as_the_command_line(client):
    sudoku = (REPO / "tests" / "data" / "why" / "sudoku_two_ones.txt").read_text(encoding="utf-8")
    why = client.post("/api/tools/explain", json={"bundled": "sudoku", "puzzle": sudoku})
    assert why.status_code == 200, why.text
    record = why.json()["json"]
    assert record["status"] == "INFEASIBLE" and record["explanation_minimal"] is True
    assert [(e["line"], e["cells"]) for e in record["explanation"]] == [(21, [[0, 0]]), (21, [[0, 2]]),
                                                                        (23, [[0, 0], [0, 1], [0, 2], [0, 3]])]
    hint = client.post("/api/tools/hint", json={"bundled": "nurikabe", "puzzle": NURIKABE})
    assert hint.status_code == 200, hint.text
    steps = hint.json()["json"]
    validator("hint").validate(steps)
    assert steps["complete"] is True and len(steps["steps"]) == 9
    assert hint.json()["svg"].count('class="decides"') == 4  # the first step: the clue 1's four neighbours


def test_hint_on_the_daily_explains_its_optimal_answer(client):
    # the page's horse with the daily of the README: Solve, then Hint
    solved = client.post("/api/solve", json={"bundled": "horse", "puzzle": DAILY})
    assert solved.status_code == 200, solved.text
    hint = client.post("/api/tools/hint", json={"bundled": "horse", "puzzle": DAILY})
    assert hint.status_code == 200, hint.text
    steps = hint.json()["json"]
    validator("hint").validate(steps)
    assert steps["complete"] is True and steps["open"] == [] and steps["reason"] is None and steps["steps"]
    walls = sorted(kv[0] for step in steps["steps"] for kv in step["decides"]["wall"] if kv[1] == 1)
    assert walls == sorted(kv[0] for kv in steps["decisions"]["wall"]) and len(walls) == 12
    # the first step: the horse's one way out is not walled, by "the best score is 66" alone
    first = steps["steps"][0]
    assert first["decides"] == {"wall": [[[8, 6], 0]]} and first["rules"][0]["rule"] == "maximize value(pen)"
    assert hint.json()["svg"].count('class="decides"') == 1


def test_hint_with_no_step_is_an_answer_without_a_picture(client):
    hint = client.post("/api/tools/hint", json={"bundled": "nurikabe", "puzzle": ".?\n..\n"})
    assert hint.status_code == 200, hint.text
    record = hint.json()["json"]
    assert record["steps"] == [] and record["open"] == [[0, 0], [1, 0], [1, 1]] and "svg" not in hint.json()
