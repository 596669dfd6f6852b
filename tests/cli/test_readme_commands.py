"""The README's command lines run as written.

Every line of a code block of README.md that starts with ``gridlang`` (or
``$ gridlang``) and names only files of the repository is run in a shell, in
order, in a folder that holds the repository's ``puzzles/`` and ``tests/`` (so
that what a command writes, ``january.jsonl``, lands there and a later line
reads it), and must end with exit 0 and print what it says it prints. Lines
that stand for a user's own files (``SPEC``, ``MAP``, ``screenshot.png``) or
start a server (``gridlang serve``, tested in ``tests/web/``) are the ones
left out, and the test says which.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from horse_data import REPO

PLACEHOLDERS = ("SPEC", "MAP", "screenshot.png", "RESULTS", "FIGURE")


def command_lines() -> list[str]:
    """The README's ``gridlang`` command lines, comments after ``#`` dropped, in order. In a code
    block that shows a session (``$ CMD`` and what it prints), only the ``$`` lines are commands."""
    blocks: list[list[str]] = []
    previous_indented = False
    for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines():
        indented = line.startswith("    ") or (previous_indented and not line.strip())
        if indented and not previous_indented:
            blocks.append([])
        if indented and line.strip():
            blocks[-1].append(line[4:])
        previous_indented = indented
    lines = []
    for block in blocks:
        session = any(x.startswith("$ ") for x in block)
        for x in block:
            command = x[2:] if x.startswith("$ ") else None if session else x
            if command is not None and command.startswith("gridlang "):
                lines.append(re.sub(r"\s+#.*$", "", command).strip())
    return lines


def runnable(line: str) -> bool:
    words = shlex.split(line)
    return words[1] != "serve" and not any(p in w for w in words for p in PLACEHOLDERS)


def test_the_readme_names_the_commands_it_leaves_out():
    left_out = [line for line in command_lines() if not runnable(line)]
    assert left_out == [
        "gridlang solve SPEC --map MAP --forced", "gridlang solve SPEC --map MAP --explain",
        "gridlang hint SPEC --map MAP", "gridlang generate SPEC --size 6x6 --seed 1",
        "gridlang import-image screenshot.png", "gridlang solve puzzles/horse.grid --image screenshot.png --budget 12",
        "gridlang serve",
    ]


def test_every_command_of_the_readme_runs_as_written(tmp_path):
    for name in ("puzzles", "tests"):
        (tmp_path / name).symlink_to(REPO / name)
    (tmp_path / "docs").mkdir()
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    ran = []
    for line in filter(runnable, command_lines()):
        done = subprocess.run(line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        ran.append((line, done.stdout))
    outputs = dict(ran)
    assert len(ran) == 10
    # What the lines say they do: the variants solve to their proved optimum, the batches write a line per map,
    # the plot and the picture are drawn.
    for line in (line for line in outputs if line.startswith("gridlang solve puzzles/horse_")):
        assert "(verified)" in outputs[line] and "status OPTIMAL" in outputs[line], line
    for name in ("january.jsonl", "cpsat-january.jsonl"):
        records = [json.loads(x) for x in (tmp_path / name).read_text(encoding="utf-8").splitlines()]
        assert len(records) == 31 and {r["status"] for r in records} == {"OPTIMAL"}
    maxsat = {r["map"]: r["objective"] for r in map(json.loads, (tmp_path / "january.jsonl").open())}
    cpsat = {r["map"]: r["objective"] for r in map(json.loads, (tmp_path / "cpsat-january.jsonl").open())}
    assert maxsat == cpsat
    assert (tmp_path / "january.png").stat().st_size > 10_000
    assert (tmp_path / "docs" / "daily-2026-01-07.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
