"""The web app of ``gridlang serve``: the page, and the JSON API under it (docs/api.md, "HTTP").

A thin layer over gridlang's API: each request is read and checked here
(:mod:`gridlang.web.inputs`), and its work (a solve, an export, a picture
read) runs in a worker process of :mod:`gridlang.web.pool` through
:mod:`gridlang.web.tasks`; nothing is solved in a request handler. The page
is plain HTML, CSS and JavaScript shipped in the package
(``gridlang/web/static/``), served by fixed names: no path a client names
is ever opened.

Routes:

=========================================  ==================================================
``GET /``                                  the page
``GET /static/NAME``                       its script and style sheet
``GET /api/health``                        the pool: workers, running, queued, served, refused
``GET /api/specs``                         the bundled specs' names, puzzles and puzz.link genre names
``GET /api/specs/NAME``                    one bundled spec: its text, parameters, tiles
``POST /api/spec-info``                    the same for a spec's text (``{"spec": TEXT}``)
``GET /api/features``                      the tools this gridlang has (forced cells, explain, hint)
``POST /api/solve``                        solve: exactly what ``gridlang solve --json`` prints
``POST /api/jobs``                         start a solve for the page: ``{"id": ...}``
``GET /api/jobs/ID/events``                its progress and answer (server-sent events)
``POST /api/jobs/ID/stop``                 stop it, keeping the best answer so far
``DELETE /api/jobs/ID``                    drop it
``POST /api/export?format=F``              the model as LP, MPS, WCNF or a gringo ``.lp`` file
``POST /api/screenshot``                   a screenshot's map (the picture's bytes as the body)
``POST /api/tools/NAME``                   forced cells, an explanation, hints, where gridlang has them
``POST /api/board``                        the puzzle drawn before any solve, its geometry and puzz.link URL
``POST /api/check``                        a player's answer (``"answer"``) judged by the spec's rules
``POST /api/generate``                     a new puzzle of the spec's genre (``"rows"``, ``"cols"``, ``"seed"``,
                                           ``"symmetry"``, ``"difficulty"``)
``POST /api/jobs/generate``                the same for the page, followed at ``/api/jobs/ID/events``
=========================================  ==================================================

Errors are JSON, ``{"error": TEXT, "errors": [...]}`` with the command
line's located message (:func:`~gridlang.web.inputs.error_record`): 400
bad input, 404 nothing there, 413 too large, 415 not JSON, 503 busy (with
``Retry-After``), 500 a failure of gridlang's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from importlib import resources
from typing import Any, Callable

from gridlang.core.errors import GridlangError
from gridlang.web import tasks
from gridlang.web.inputs import (
    MAX_BODY_BYTES,
    MAX_PICTURE_BYTES,
    RequestError,
    error_record,
    read_answer,
    read_generate,
    read_problem,
)
from gridlang.web.pool import Job, Pool, QueueFull, TaskFailed, WorkerDied

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "board.js": "text/javascript; charset=utf-8", "places.js": "text/javascript; charset=utf-8",
          "lines.js": "text/javascript; charset=utf-8", "making.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
"""The page's files, served by these names only."""

TICK = 0.5
"""Seconds between two progress events of a job."""

ORPHAN_AFTER = 15.0
"""Seconds a page's job may wait for its progress stream before it is dropped as unwanted."""

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                                 b"script-src 'self'; connect-src 'self'; object-src 'none'; "
                                 b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
]
"""Sent with every response: the page loads nothing from elsewhere and cannot be framed."""


class Settings:
    """What ``gridlang serve`` was started with.

    Args:
        workers: worker processes.
        queue: the most requests waiting for a worker.
        time_limit: seconds: the default and the most a request may ask for.
        memory_limit: bytes each worker may hold (None: no limit).
    """

    def __init__(self, workers: int = 2, queue: int = 8, time_limit: float = 60.0, memory_limit: int | None = None):
        self.workers = workers
        self.queue = queue
        self.time_limit = time_limit
        self.memory_limit = memory_limit


def create_app(settings: Settings | None = None, allowed_hosts: list[str] | None = None,
               warm: bool = True):
    """The ASGI app (Starlette), its pool of workers started and ended with it.

    Args:
        settings: the pool and limits (default: 2 workers, a queue of 8, 60 s).
        allowed_hosts: the ``Host`` names answered (a server on localhost
            answers only its own names, so that another site's page cannot
            reach it through a name that resolves to 127.0.0.1); None: any.
        warm: warm each worker up before its first job.
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    settings = settings or Settings()
    state = _State(settings, warm)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await state.pool.start()
        try:
            yield
        finally:
            await state.pool.close()

    api = _Api(state)
    routes = [
        Route("/", api.page, methods=["GET"]),
        Route("/favicon.ico", api.no_icon, methods=["GET"]),
        Route("/static/{name}", api.static, methods=["GET"]),
        Route("/api/health", api.health, methods=["GET"]),
        Route("/api/specs", api.specs, methods=["GET"]),
        Route("/api/specs/{name}", api.spec, methods=["GET"]),
        Route("/api/spec-info", api.spec_info, methods=["POST"]),
        Route("/api/features", api.features, methods=["GET"]),
        Route("/api/solve", api.solve, methods=["POST"]),
        Route("/api/jobs", api.start_job, methods=["POST"]),
        Route("/api/jobs/generate", api.start_generate, methods=["POST"]),
        Route("/api/jobs/{id}/events", api.events, methods=["GET"]),
        Route("/api/jobs/{id}/stop", api.stop_job, methods=["POST"]),
        Route("/api/jobs/{id}", api.drop_job, methods=["DELETE"]),
        Route("/api/export", api.export, methods=["POST"]),
        Route("/api/screenshot", api.screenshot, methods=["POST"]),
        Route("/api/tools/{name}", api.tool, methods=["POST"]),
        Route("/api/board", api.board, methods=["POST"]),
        Route("/api/check", api.check, methods=["POST"]),
        Route("/api/generate", api.generate, methods=["POST"]),
    ]
    middleware = [Middleware(_Guard, allowed_hosts=allowed_hosts)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={404: _not_found, 405: _not_allowed})
    app.state.gridlang = state
    return app


class _State:
    """The app's pool, settings, and the bundled specs' descriptions (read once)."""

    def __init__(self, settings: Settings, warm: bool):
        self.settings = settings
        self.pool = Pool(settings.workers, settings.queue, tasks.warm if warm else None)
        self.described: dict[str, dict] = {}
        self.lock = threading.Lock()

    def describe(self, spec: str | None, bundled: str | None) -> dict:
        """A spec's description, one at a time (the parser is shared); bundled ones kept."""
        if bundled is not None and bundled in self.described:
            return self.described[bundled]
        with self.lock:
            info = tasks.describe(spec, bundled)
        if bundled is not None:
            self.described[bundled] = info
        return info


def _json(record: Any, status: int = 200, headers: dict[str, str] | None = None):
    from starlette.responses import JSONResponse

    return JSONResponse(record, status_code=status, headers=headers)


def _error(e: Exception):
    """The JSON response of a refused or failed request."""
    if isinstance(e, RequestError):
        return _json(e.record(), e.status, e.headers)
    if isinstance(e, QueueFull):
        message = f"the server is busy: every worker is solving and the queue is full; try again in {e.retry_after} s"
        return _json({"error": f"error: {message}", "errors": [{"message": message, "kind": "error"}]}, 503,
                     {"Retry-After": str(e.retry_after)})
    if isinstance(e, TaskFailed):
        if e.record is not None:
            return _json(e.record, e.status)
        return _json({"error": f"error: {e}", "errors": [{"message": str(e), "kind": "error"}]}, 500)
    if isinstance(e, WorkerDied):
        return _json({"error": f"error: {e}", "errors": [{"message": str(e), "kind": "error"}]}, 500)
    raise e


def _guarded(handler: Callable) -> Callable:
    """A handler whose refusals and failures become JSON error responses."""
    async def run(self, request):
        try:
            return await handler(self, request)
        except (RequestError, QueueFull, TaskFailed, WorkerDied) as e:
            return _error(e)
        except asyncio.CancelledError:
            raise

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def _not_found(request, exc):
    return _error(RequestError(404, f"nothing is at {request.url.path}"))


async def _not_allowed(request, exc):
    return _error(RequestError(405, f"{request.method} is not a method of {request.url.path}"))


async def read_body(request, limit: int, kinds: tuple[str, ...]) -> bytes:
    """The request's body, refused past ``limit`` bytes (413, before reading it whole) or of another type (415).

    Args:
        request: the Starlette request.
        limit: the most bytes taken.
        kinds: the content types accepted (a page of another site cannot
            send these without the browser asking this server first, which
            it does not allow).
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in kinds:
        raise RequestError(415, f"send the body as {' or '.join(kinds)}, not {kind or 'no content type'}")
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise RequestError(413, f"the request is {int(length):,} bytes; this server takes at most {limit:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(413, f"the request is more than {limit:,} bytes; this server takes at most {limit:,}")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request) -> Any:
    """The request's JSON body (at most :data:`~gridlang.web.inputs.MAX_BODY_BYTES`).

    Raises:
        RequestError: too large, not JSON, or not UTF-8, in a sentence saying where.
    """
    raw = await read_body(request, MAX_BODY_BYTES, ("application/json",))
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RequestError(400, f"the request is not UTF-8 (byte {e.start + 1})") from None
    except json.JSONDecodeError as e:
        raise RequestError(400, f"the request is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RequestError(400, "the request's JSON is nested too deeply") from None


async def disconnected(receive) -> None:
    """Return when the client has gone (the body already read)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


class _Api:
    """The route handlers, over the app's :class:`_State`."""

    def __init__(self, state: _State):
        self.state = state
        self.pool = state.pool
        self.settings = state.settings

    # ------------------------------------------------------------ page

    async def page(self, request):
        return await self._file("index.html")

    async def no_icon(self, request):
        from starlette.responses import Response

        return Response(status_code=204)

    async def static(self, request):
        name = request.path_params["name"]
        if name not in STATIC or name == "index.html":
            return _error(RequestError(404, f"nothing is at {request.url.path}"))
        return await self._file(name)

    async def _file(self, name: str):
        from starlette.responses import Response

        data = resources.files("gridlang.web").joinpath("static", name).read_bytes()
        return Response(data, media_type=STATIC[name], headers={"Cache-Control": "no-cache"})

    async def health(self, request):
        return _json({"ok": True, **self.pool.status(), "time_limit": self.settings.time_limit})

    async def features(self, request):
        return _json(tasks.available_tools())

    # ------------------------------------------------------------ specs

    @_guarded
    async def specs(self, request):
        from starlette.concurrency import run_in_threadpool

        # imported on use, not at start-up
        from gridlang.formats.catalog import spec_names

        out = []
        for name in spec_names():
            info = await run_in_threadpool(self.state.describe, None, name)
            out.append({"name": name, "puzzle": info["puzzle"], "genres": info["genres"]})
        return _json({"specs": out})

    @_guarded
    async def spec(self, request):
        from starlette.concurrency import run_in_threadpool

        # imported on use, not at start-up
        from gridlang.formats.catalog import spec_names, spec_path

        name = request.path_params["name"]
        if name not in spec_names():
            raise RequestError(404, f"no bundled spec is called {name!r}")
        info = await run_in_threadpool(self.state.describe, None, name)
        return _json({"name": name, "text": spec_path(name).read_text(encoding="utf-8"), **info})

    @_guarded
    async def spec_info(self, request):
        from starlette.concurrency import run_in_threadpool


        body = await read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("spec"), str) or set(body) != {"spec"}:
            raise RequestError(400, 'send {"spec": TEXT}, the text of a .grid spec')
        try:
            return _json(await run_in_threadpool(self.state.describe, body["spec"], None))
        except GridlangError as e:
            return _json(error_record(e), 400)

    # ------------------------------------------------------------ solving

    def _submit(self, task, args: tuple, seconds: float) -> Job:
        return self.pool.submit(task, args, seconds)

    async def _answer(self, request, job: Job):
        """The job's answer, or None when the client went away first (the job is then dropped)."""
        gone = asyncio.ensure_future(disconnected(request.receive))
        try:
            await asyncio.wait({job.future, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not job.future.done():
            self.pool.cancel(job)
            return None
        return job.future.result()

    @_guarded
    async def solve(self, request):
        """``POST /api/solve``: the object ``gridlang solve --json`` prints, and the exit code it
        would give in the header ``X-Gridlang-Exit``."""
        problem = read_problem(await read_json(request), self.settings.time_limit)
        job = self._submit(tasks.solve, (problem, self.settings.memory_limit, False), problem.time_limit)
        answer = await self._answer(request, job)
        if answer is None:
            from starlette.responses import Response

            return Response(status_code=499)
        return _json(answer["json"], headers={"X-Gridlang-Exit": str(answer["exit"])})

    @_guarded
    async def start_job(self, request):
        """``POST /api/jobs``: a solve for the page, followed at ``/api/jobs/ID/events``."""
        problem = read_problem(await read_json(request), self.settings.time_limit)
        job = self._submit(tasks.solve, (problem, self.settings.memory_limit, True), problem.time_limit)
        asyncio.get_running_loop().call_later(ORPHAN_AFTER, self._orphan, job)
        return _json({"id": job.id, "events": f"/api/jobs/{job.id}/events"}, 202)

    def _orphan(self, job: Job) -> None:
        if not job.watched:
            self.pool.cancel(job)

    def _job(self, request) -> Job:
        job = self.pool.jobs.get(request.path_params["id"])
        if job is None:
            raise RequestError(404, "no such job (it ended more than two minutes ago, or never was)")
        return job

    @_guarded
    async def events(self, request):
        """``GET /api/jobs/ID/events``: ``progress`` events every half second, then ``result`` or ``failed``."""
        return _Events(self.pool, self._job(request))

    @_guarded
    async def stop_job(self, request):
        job = self._job(request)
        self.pool.stop(job)
        return _json(job.snapshot(self.pool.position(job)), 202)

    @_guarded
    async def drop_job(self, request):
        job = self._job(request)
        self.pool.cancel(job)
        return _json({"dropped": job.id})

    # ------------------------------------------------------------ files and pictures

    @_guarded
    async def export(self, request):
        """``POST /api/export?format=lp|mps|wcnf|asp``: the model for another solver, as a file."""
        from starlette.responses import Response

        fmt = request.query_params.get("format", "")
        if fmt not in tasks.EXPORTS:
            raise RequestError(400, f"give ?format= one of {', '.join(tasks.EXPORTS)}, not {fmt!r}")
        problem = read_problem(await read_json(request), self.settings.time_limit)
        job = self._submit(tasks.export, (problem, fmt), self.settings.time_limit)
        answer = await self._answer(request, job)
        if answer is None:
            return Response(status_code=499)
        return Response(answer["text"], media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{answer["name"]}"'})

    @_guarded
    async def screenshot(self, request):
        """``POST /api/screenshot?puzzle=NAME&name=FILE``: the map a screenshot shows, ``{"map": TEXT}``."""
        from starlette.responses import Response

        picture = await read_body(request, MAX_PICTURE_BYTES, ("application/octet-stream",))
        label = "".join(ch for ch in request.query_params.get("name", "screenshot") if ch.isprintable())[:80]
        puzzle = request.query_params.get("puzzle") or None
        job = self._submit(tasks.read_picture, (picture, label or "screenshot", puzzle, self.settings.time_limit,
                                                self.settings.memory_limit), self.settings.time_limit)
        answer = await self._answer(request, job)
        return Response(status_code=499) if answer is None else _json(answer)

    @_guarded
    async def tool(self, request):
        """``POST /api/tools/forced|explain|hint``: the tool's JSON, where this gridlang has it."""
        from starlette.responses import Response

        name = request.path_params["name"]
        if not tasks.available_tools().get(name):
            raise RequestError(404, f"this gridlang has no {name!r} tool (it has: "
                                    f"{', '.join(k for k, v in tasks.available_tools().items() if v) or 'none'})")
        problem = read_problem(await read_json(request), self.settings.time_limit)
        job = self._submit(tasks.tool, (name, problem), problem.time_limit)
        answer = await self._answer(request, job)
        return Response(status_code=499) if answer is None else _json(answer)

    @_guarded
    async def board(self, request):
        """``POST /api/board``: the puzzle drawn without an answer, as ``{"svg", "rows", "cols", ...}``."""
        return await self._run(request, tasks.board, read_problem(await read_json(request), self.settings.time_limit))

    @_guarded
    async def check(self, request):
        """``POST /api/check``: the solve request with ``"answer"`` (decisions as ``solve --json`` lists
        them), judged by the spec's rules: ``{"ok", "empty", "violations", "text"}``."""
        body = await read_json(request)
        answer = read_answer(body.pop("answer", None) if isinstance(body, dict) else None)
        problem = read_problem(body, self.settings.time_limit)
        return await self._run(request, tasks.check, problem, answer)

    @_guarded
    async def generate(self, request):
        """``POST /api/generate``: a puzzle made for the spec, ``{"map", "url", "seed", "clues", "seconds"}``."""
        problem, rows, cols, seed, options = read_generate(await read_json(request), self.settings.time_limit)
        return await self._run(request, tasks.generate, problem, rows, cols, seed, options["symmetry"],
                               options["difficulty"])

    @_guarded
    async def start_generate(self, request):
        """``POST /api/jobs/generate``: a Generate for the page, its stages and result followed at
        ``/api/jobs/ID/events`` (``progress`` events carry ``stage``, the last stage's line)."""
        problem, rows, cols, seed, options = read_generate(await read_json(request), self.settings.time_limit)
        job = self._submit(tasks.generate, (problem, rows, cols, seed, options["symmetry"], options["difficulty"]),
                           problem.time_limit)
        asyncio.get_running_loop().call_later(ORPHAN_AFTER, self._orphan, job)
        return _json({"id": job.id, "events": f"/api/jobs/{job.id}/events"}, 202)

    async def _run(self, request, task, problem, *args):
        """A task's JSON answer, run in a worker under the request's time limit (499 when the client went)."""
        from starlette.responses import Response

        answer = await self._answer(request, self._submit(task, (problem, *args), problem.time_limit))
        return Response(status_code=499) if answer is None else _json(answer)


class _Events:
    """A job's progress as server-sent events; the job is dropped when the last stream following it goes."""

    def __init__(self, pool: Pool, job: Job):
        self.pool, self.job = pool, job

    async def __call__(self, scope, receive, send) -> None:
        job, pool = self.job, self.pool
        job.watchers += 1
        job.watched = True
        gone = asyncio.ensure_future(disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/event-stream; charset=utf-8"),
                                    (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]})
            while not gone.done():
                await asyncio.wait({job.future, gone}, timeout=TICK, return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    break
                if job.future.done():
                    await send({"type": "http.response.body", "body": _final(job), "more_body": False})
                    return
                await send({"type": "http.response.body", "more_body": True,
                            "body": _event("progress", job.snapshot(pool.position(job)))})
        except OSError:  # the client went away while we wrote
            pass
        finally:
            gone.cancel()
            job.watchers -= 1
            if job.watchers == 0 and not job.future.done():
                pool.cancel(job)


def _event(name: str, data: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode("utf-8")


def _final(job: Job) -> bytes:
    """A finished job's last event: ``result`` (the solve's answer and pictures) or ``failed`` (an error record)."""
    if job.future.cancelled():
        message = "the solve was dropped"
        return _event("failed", {"status": 499, "error": f"error: {message}", "errors": [{"message": message}]})
    error = job.future.exception()
    if error is None:
        return _event("result", job.future.result())
    response = _error(error)
    return _event("failed", {"status": response.status_code, **json.loads(response.body)})


class _Guard:
    """ASGI middleware: requests that name another host are refused (400), and every response
    carries :data:`SECURITY_HEADERS`.

    Args:
        app: the app.
        allowed_hosts: the host names answered (the ``Host`` header without
            its port), or None for any.
    """

    def __init__(self, app, allowed_hosts: list[str] | None = None):
        self.app = app
        self.allowed = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if self.allowed is not None:
            host = _host_name(dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1"))
            if host not in self.allowed:
                response = _error(RequestError(400, f"this server answers only requests for "
                                                    f"{', '.join(sorted(self.allowed))}, not {host or 'no host'!r}"))
                await response(scope, receive, sending)
                return
        await self.app(scope, receive, sending)


def _host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port: ``localhost``, ``127.0.0.1``, ``[::1]``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[:header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header
