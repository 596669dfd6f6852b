"""Shared fixtures. The tests are grouped by layer: language/ (parsing,
errors, start-up, fuzzing), compiler/ (constructs and IR passes),
encodings/ (each backend's encodings on tiny IR models, counted against
brute force), backends/ (real maps and instances per backend, limits,
settings), verifier/ (the spec-level and published-rules verifiers),
puzzles/ (the genres, puzz.link, Snake Eggs end to end) and cli/ (the
commands, pictures, batch, packaging).

This file's directory is put on ``sys.path`` by pytest, so the helpers
beside it (``horse_data``, ``snake_data``, ``tiny``) import from any layer.
"""

from __future__ import annotations

import pytest

from gridlang.backend import backend_names


@pytest.fixture(params=backend_names())
def backend(request) -> str:
    """Each registered backend's name in turn (cpsat, milp, maxsat, asp): the
    cross-backend cases run once per backend."""
    return request.param
