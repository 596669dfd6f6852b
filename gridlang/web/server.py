"""``gridlang serve``: the web app on uvicorn, bound to localhost unless told otherwise."""

from __future__ import annotations

import ipaddress
import socket
import sys
from typing import Callable

from gridlang.core.workers import core_count
from gridlang.web.app import Settings, create_app

DEFAULT_HOST = "127.0.0.1"
"""Where ``gridlang serve`` listens by default: this machine only."""

DEFAULT_PORT = 8000
"""Its default port."""


def loopback(host: str) -> bool:
    """True when ``host`` names this machine only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_workers() -> int:
    """One worker per core, at least 1."""

    return core_count()


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, settings: Settings | None = None,
          echo: Callable[[str], None] | None = None) -> None:
    """Serve the page and the API until interrupted (Ctrl-C ends the workers and the server).

    Args:
        host: the address to listen on; a loopback address (the default)
            answers only requests that name this machine in their ``Host``.
        port: the port; 0 picks a free one (printed).
        settings: workers, queue, time and memory limits.
        echo: where the address is printed (default: standard output).

    Raises:
        OSError: the address cannot be bound (in use, not this machine's).
    """
    import uvicorn

    echo = echo or (lambda line: print(line, flush=True))
    settings = settings or Settings(workers=default_workers())
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    bound = sock.getsockname()[1]
    allowed = None
    if loopback(host):
        allowed = ["127.0.0.1", "localhost", "::1", "[::1]", host]
    app = create_app(settings, allowed_hosts=allowed)
    shown = f"[{host}]" if ":" in host else host
    echo(f"gridlang serve: http://{shown}:{bound}/ ({settings.workers} worker{'s' if settings.workers != 1 else ''}, "
         f"a queue of {settings.queue}, {settings.time_limit:g} s a solve at most; Ctrl-C stops)")
    if not loopback(host):
        print(f"note: listening on {host}: anyone who can reach this address can use the solver; see "
              "docs/api.md (HTTP) before exposing it", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                            access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
