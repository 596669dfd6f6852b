"""``gridlang serve``: a page in the browser, and a JSON API, over gridlang's own API.

The page (``static/``: plain HTML, CSS and JavaScript, nothing fetched from
elsewhere) takes a spec (a bundled one, or the user's own text), a puzzle
(a puzz.link URL, a text map, the game's JSON level record, a screenshot,
or cells drawn by clicking), the spec's parameters, a backend and a time
limit, and shows the answer as ``--svg`` draws it. Its API (docs/api.md,
"HTTP") answers ``POST /api/solve`` with what ``gridlang solve --json``
prints.

Modules: :mod:`~gridlang.web.inputs` (a request read and checked; the spec
and map loaded), :mod:`~gridlang.web.tasks` (the work done in a worker),
:mod:`~gridlang.web.pool` (the worker processes and the bounded queue),
:mod:`~gridlang.web.app` (the routes), :mod:`~gridlang.web.server`
(uvicorn, ``gridlang serve``).
"""

from __future__ import annotations

__all__ = ["Settings", "create_app", "serve"]


def __getattr__(name: str):
    if name in ("Settings", "create_app"):
        # imported on use, not at start-up
        from gridlang.web import app

        return getattr(app, name)
    if name == "serve":
        # imported on use, not at start-up
        from gridlang.web.server import serve

        return serve
    raise AttributeError(name)
