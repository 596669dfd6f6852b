"""Convert the shared Snake Eggs JSON records into the instance text format.

Run from the repository root::

    python tests/data/snake_eggs_convert.py tests/data/snake_eggs

It writes ``puzzles/instances/snake_eggs/<name>.txt`` (and ``derived/``) and
``tests/data/snake_eggs_expected.json`` (each instance's expected solution:
the published one when the record has it, else the independently computed
one, as rows of ``0`` = snake and ``k`` = egg of size k). The grid rows come
from :func:`gridlang.families.snake_eggs.snake_eggs_rows`, the same function
the JSON record reader uses, so the two formats cannot drift apart.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from gridlang.families.snake_eggs import snake_eggs_rows

LICENCE = ("Licence: none stated by the source; the puzzle belongs to its author and is kept here, "
           "with attribution, as test data only.")
DERIVED = ("NOT A PUBLISHED PUZZLE: the solution grid comes from the generated gallery in GitHub "
           "tuzz/snake-egg-puzzle (README.md); the ends were read off it and the clue set chosen and "
           "minimised by an independent check until the solution was unique.")


def sizes_text(sizes: list[int]) -> str:
    """``1..n`` for a run 1..n, else a comma list."""
    if sizes == list(range(1, len(sizes) + 1)) and len(sizes) > 1:
        return f"1..{len(sizes)}"
    return ", ".join(str(k) for k in sizes)


def convert(record: dict, origin: str) -> str:
    """The instance text of one record, header comment first."""
    lines = [f"# Snake Eggs instance {record['name']}, converted from {origin}."]
    if record.get("derived"):
        lines += ["# " + w for w in textwrap.wrap(DERIVED, 76)]
    lines += ["# " + w for w in textwrap.wrap("Source: " + record["source"], 76)]
    lines += ["# " + w for w in textwrap.wrap(LICENCE, 76)]
    lines.append("# Legend: . unknown cell, o circled snake end, 1-9 and A-Z (10-35) egg-size clue.")
    lines.append(f"sizes: {sizes_text(record['egg_sizes'])}")
    lines += snake_eggs_rows(record)
    return "\n".join(lines) + "\n"


def main(folder: str) -> None:
    root = Path(folder)
    out_dir = Path("puzzles/instances/snake_eggs")
    expected = {}
    for path in sorted(root.glob("*.json")) + sorted(root.glob("derived/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(root)
        target = out_dir / rel.with_suffix(".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(convert(record, f"tests/data/snake_eggs/{rel}"), encoding="utf-8")
        published = record.get("solution")
        expected[str(rel.with_suffix(""))] = {
            "solution": published or record["computed_solution"],
            "from": "published" if published else "computed",
            "unique": record.get("computed_unique"),
            "derived": bool(record.get("derived")),
            "rows": record["rows"], "cols": record["cols"],
        }
        print(f"wrote {target}")
    Path("tests/data/snake_eggs_expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print("wrote tests/data/snake_eggs_expected.json")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/snake_eggs")
