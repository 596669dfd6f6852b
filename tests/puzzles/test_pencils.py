"""Pencils (puzzles/pencils.grid) answered as pencils: its tips a decided direction drawn as pzprjs draws them.

The published answer of pzprjs's test puzzle has three tips the answer
places (two up, one right: two triangles each in the picture, the outline
and the lead) besides the two the map gives; the text writes each tip's
arrow and outlines the shafts with ``|`` and ``-`` where no line crosses.
"""

from __future__ import annotations

import re
from pathlib import Path

from processes import gridlang_process

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SPEC = PUZZLES / "pencils.grid"
MAP = PUZZLES / "instances" / "pencils" / "pzprjs_5x5.txt"

TEXT = """\
┌───^ ╶─^
│ - -   -
╵|?|3|╷|1
      │ -
╷|·|·|└─^
│ -     -
└─v|3|╷|·
- - - │
· ·|>─┘|·"""


def test_the_answer_is_drawn_as_pencils(tmp_path):
    svg = tmp_path / "p.svg"
    out = gridlang_process(
        "solve", str(SPEC), "--map", str(MAP), "--svg", str(svg), "--time-limit", "60"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n\n")[0] == TEXT
    tips = re.findall(r'class="tip (\w+) role-\w+"', svg.read_text())
    assert sorted(tips) == ["right", "right", "up", "up", "up", "up"]
