"""The peer command of ``gridlang bench dataset`` for puzzlekit, run by a Python that has puzzlekit.

Usage: ``PYTHON puzzlekit_peer.py TYPE PROBLEM SOLUTION SECONDS``: solves the
puzzle in the file ``PROBLEM`` (the dataset's text) as puzzlekit's genre
``TYPE`` with ``puzzlekit.solve`` under a limit of ``SECONDS``, compares its
answer with the dataset's ``SOLUTION`` by puzzlekit's own ``grid_verifier``
(as puzzlekit judges itself; token by token for a genre it has no verifier of), and prints one JSON line: ``{"status":
puzzlekit's status, "matches": true | false | null, "error": null | a
sentence}``. It imports nothing of gridlang, and gridlang never imports it:
puzzlekit is no dependency of gridlang.
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    """Solve and compare as the module's docstring says; exit 0 when a line was printed."""
    kind, problem, solution, seconds = argv
    out = {"status": "ERROR", "matches": None, "error": None}
    try:
        import puzzlekit
        from puzzlekit.core.grid import Grid
        from puzzlekit.verifiers import grid_verifier

        with open(problem, encoding="utf-8") as f:
            text = f.read()
        with open(solution, encoding="utf-8") as f:
            published = [
                line.split()
                for line in f.read().strip().split("\n")[1:]
                if line.strip()
            ]
        result = puzzlekit.solve(
            text, kind, solver_options={"time_limit_sec": float(seconds)}
        )
        out["status"] = result.solution_data.get("status")
        if result.is_solved and result.sol_grid is not None:
            try:
                out["matches"] = bool(
                    grid_verifier(kind, result.sol_grid, Grid(published))
                )
            except (
                ValueError
            ):  # puzzlekit has no verifier of this genre (Fillomino): token by token
                out["matches"] = [
                    list(map(str, row)) for row in result.sol_grid.matrix
                ] == published
    except Exception as e:  # noqa: BLE001 (the peer's own failure is a row of the benchmark, not a crash)
        out["error"] = f"{type(e).__name__}: {e}"[:300]
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
