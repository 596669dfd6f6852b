"""The Python API: load a spec once, solve, enumerate, export and verify maps with it.

    >>> import gridlang
    >>> spec = gridlang.bundled("horse")
    >>> result = gridlang.solve(spec, map=gridlang.bundled_map("daily-2026-01-07"), backend="maxsat")
    >>> result.status, result.objective, result.verified
    ('OPTIMAL', 66, True)
    >>> len(result.decisions["wall"])
    12

Each function is the service's (:mod:`gridlang.service.calls`), which every front end calls;
the JSON a ``solve --json`` prints is :meth:`SolveResult.to_json`. :func:`forced`,
:func:`explain` and :func:`hints` ask why (:mod:`gridlang.why`). docs/api.md
shows each function at work.
"""

from __future__ import annotations

from gridlang.service.calls import (  # noqa: F401 - the public names of the API
    FORMAT_BACKEND,
    Answers,
    SolveResult,
    Spec,
    bundled,
    bundled_map,
    bundled_maps,
    bundled_specs,
    explain,
    export,
    forced,
    generate,
    hints,
    load_spec,
    read,
    report_json,
    result_of,
    solutions,
    solve,
    verify,
)

__all__ = [
    "FORMAT_BACKEND",
    "Answers",
    "SolveResult",
    "Spec",
    "bundled",
    "bundled_map",
    "bundled_maps",
    "bundled_specs",
    "explain",
    "export",
    "forced",
    "generate",
    "hints",
    "load_spec",
    "read",
    "report_json",
    "result_of",
    "solutions",
    "solve",
    "verify",
]
