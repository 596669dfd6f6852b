"""Fixtures of the web tests: a real ``gridlang serve`` (uvicorn, 2 workers) on a free localhost
port, and the system's Chromium driven by Playwright.

Chromium comes from the system's packages (``apt-get install chromium``:
Playwright's own browser download is not reachable everywhere); a browser
test is skipped, naming the reason, only when no Chromium can be found
(``.ci/run`` installs it). ``GRIDLANG_CHROMIUM`` names another executable.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""How the browser is started: headless, and reaching nothing but the test's server."""

START_SECONDS = 60
"""The most a server may take to answer its first request (its workers import the solvers meanwhile)."""


def chromium() -> str | None:
    """The Chromium executable: ``$GRIDLANG_CHROMIUM``, else ``chromium`` (Debian) or ``chromium-browser`` on the PATH."""
    named = os.environ.get("GRIDLANG_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class Server:
    """A running ``gridlang serve``: its base URL (``http://127.0.0.1:PORT``) and process."""

    url: str
    process: subprocess.Popen

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.loads(response.read())


def start_server(*args: str) -> Server:
    """Start ``python -m gridlang serve --port 0 ARGS`` and wait until it answers.

    The address is read from the line the command prints (``--port 0``
    lets the system pick a free port).
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "gridlang", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if match is None:
        process.kill()
        raise AssertionError(
            f"gridlang serve printed {line!r}; stderr: {process.stderr.read()}"
        )
    server = Server(f"http://127.0.0.1:{match.group(1)}", process)
    until = time.monotonic() + START_SECONDS
    while True:
        try:
            if server.get("/api/health")["ok"]:
                return server
        except OSError:
            if time.monotonic() > until or process.poll() is not None:
                stop_server(server)
                raise
            time.sleep(0.2)


def stop_server(server: Server) -> None:
    """Ctrl-C the server (it ends its workers), killing it if it has not ended in 10 s."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()
    for stream in (server.process.stdout, server.process.stderr):
        stream.close()


@pytest.fixture(scope="session")
def server():
    """``gridlang serve`` with 2 workers and a queue of 4, for the whole session."""
    running = start_server("--workers", "2", "--queue", "4", "--time-limit", "60")
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def browser():
    """The system's Chromium under Playwright, for the whole session."""
    executable = chromium()
    if executable is None:
        pytest.skip(
            "no Chromium: install the system's (apt-get install chromium) or name one in GRIDLANG_CHROMIUM"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is missing: pip install '.[test]'"
    )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


def _ready(context, server):
    """A page of ``context`` on the server's start page, ready, that records the errors it raises or
    writes to its console (``page.errors``)."""
    from playwright.sync_api import expect

    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    # the console's errors but a response's status (a 400 for bad input is the page at work)
    tab.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    tab.goto(server.url + "/")
    expect(tab.locator("body[data-ready=true]")).to_have_count(1, timeout=30_000)
    tab.errors = errors
    return tab


@pytest.fixture
def page(browser, server):
    """A fresh page (its own profile: no cookies, no storage) at 1280 x 900 on the server's start page,
    ready; the test fails when the page raised an error or wrote one to its console."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, accept_downloads=True
    )
    tab = _ready(context, server)
    yield tab
    context.close()
    assert not tab.errors, f"the page raised: {tab.errors}"


@pytest.fixture
def phone(browser, server):
    """The same on a phone: 390 x 844 pixels, touch, a mobile browser."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    tab = _ready(context, server)
    yield tab
    context.close()
    assert not tab.errors, f"the page raised: {tab.errors}"
