"""The browser tests' harness: a real server (uvicorn in a thread of this process, SQLite in a
temporary folder), browser contexts that watch for script errors and outside requests, and
helpers that drive the pages like a person does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, Response, Route, ViewportSize

from mazziere.server.app import create_app
from mazziere.server.clock import Clock
from mazziere.server.context import Server, Settings
from mazziere.server.transport import uvicorn_config

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
LAPTOP: ViewportSize = {"width": 1366, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"
START_SECONDS = 120
"""How long a test server may take to start before it is taken as hung."""


@dataclass
class LiveServer:
    """A running server: its in-process state, its URL and the event loop it runs in."""

    server: Server
    base: str
    loop: asyncio.AbstractEventLoop

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 15.0) -> T:
        """Run a coroutine in the server's event loop (e.g. to cut a connection)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


@contextlib.contextmanager
def run_server(data_dir: Path, clock: Clock | None = None, **settings: Any) -> Iterator[LiveServer]:
    """uvicorn on a free port in a background thread; cheap Argon2 so sign-ups are quick.
    ``settings`` override the server's (e.g. a short inactivity limit); ``clock``, the
    server's clock (a manual one moves inside the server's loop: :meth:`LiveServer.call`)."""
    srv = Server(
        Settings(
            data_dir=data_dir,
            database_url=f"sqlite:///{data_dir / 'browser.sqlite3'}",
            argon2_time_cost=1,
            argon2_memory_kib=8192,
            settle_heap=False,  # many servers share this test process
            **settings,
        ),
        clock=clock,
    )
    app = create_app(srv=srv)
    config = uvicorn_config(app, srv.settings, "127.0.0.1", 0, lifespan="on")
    server = uvicorn.Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    # a start that fails ends the thread; the deadline only stops one that hangs: a start
    # takes about 20 s on a loaded 2-core machine, and can take over 30 s
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the test server did not start")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the test server did not start within {START_SECONDS} s")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield LiveServer(srv, f"http://127.0.0.1:{port}", loop)
    finally:
        server.should_exit = True
        thread.join(15)
        loop.close()


@dataclass
class Watch:
    """What a page did that a test must not let pass: script errors, outside requests."""

    base: str
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def response(self, r: Response) -> None:
        """A static file the page asked for and did not get (the API may refuse on purpose)."""
        if r.status >= 400 and "/api/" not in r.url:
            self.errors.append(f"{r.status} {r.url}")

    def console(self, kind: str, text: str) -> None:
        """A Content-Security-Policy violation is an error: the page must work under it."""
        if kind == "error" and "Content Security Policy" in text:
            self.errors.append(f"CSP: {text}")

    def request(self, url: str) -> None:
        local = url.startswith((self.base, self.base.replace("http://", "ws://")))
        if not local and not url.startswith(("data:", "blob:", "about:")):
            self.outside.append(url)

    def check(self) -> None:
        assert not self.errors, f"errors in the page: {self.errors}"
        assert not self.outside, f"requests outside the server: {self.outside}"


def unpaced(route: Route) -> None:
    """A table created by a test plays its computer players' moves at once (``bot_delay`` 0)
    unless the test asks for a paced context: the form sends the catalog's default pace."""
    body = route.request.post_data_json if route.request.method == "POST" else None
    if isinstance(body, dict):
        route.continue_(post_data=json.dumps({**body, "bot_delay": 0}))
    else:
        route.continue_()


def new_context(
    browser: Browser, live: LiveServer, watch: Watch, paced: bool = False, **kw: Any
) -> BrowserContext:
    ctx = browser.new_context(viewport=kw.pop("viewport", LAPTOP), locale="en-GB", **kw)
    if not paced:
        ctx.route(re.compile(r".*/api/tables$"), unpaced)
    # English unless a test switches; the page's own switch stores the choice
    ctx.add_init_script(
        "try { if (!localStorage.getItem('mazziere.lang')) localStorage.setItem('mazziere.lang',"
        " 'en'); } catch (e) { /* about:blank has no storage */ }"
    )
    ctx.on("request", lambda r: watch.request(r.url))
    ctx.on("weberror", lambda e: watch.errors.append(str(e.error)))
    ctx.on("console", lambda m: watch.console(m.type, m.text))
    ctx.on("response", watch.response)
    ctx.set_default_timeout(15_000)
    return ctx


# ------------------------------------------------------------------------------------ helpers
def shot(page: Page, name: str) -> Path:
    """Save a screenshot of the page as screenshots/NAME.png (repo root, git-ignored)."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def sign_up(page: Page, live: LiveServer, name: str) -> None:
    """Sign up through the page and wait for the lobby. If the name is taken, it was taken by
    this very test's first try (a browser test that failed is run again, on the same server):
    log in instead, so the rerun shows the test's real outcome, not a sign-up refusal."""
    page.goto(f"{live.base}/#/login")
    page.get_by_test_id("tab-signup").click()
    page.get_by_test_id("auth-username").fill(name)
    page.get_by_test_id("auth-password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    lobby, error = page.get_by_test_id("table-list"), page.get_by_test_id("auth-error")
    skip = page.locator("[data-action=skip-limits]")  # the question asked after sign-up
    lobby.or_(error.filter(has_text=re.compile(r"\S"))).or_(skip).first.wait_for()
    if skip.is_visible():
        skip.click()
        lobby.wait_for()
    if not lobby.is_visible():
        page.get_by_test_id("tab-login").click()  # same page: switch the form, not the URL
        page.get_by_test_id("auth-submit").click()
        page.get_by_test_id("username").filter(has_text=name).wait_for()
        page.evaluate("location.hash = '#/lobby'")  # not the table a seat was kept at
        lobby.or_(skip).first.wait_for()
        if skip.is_visible():
            skip.click()
        lobby.wait_for()
    page.get_by_test_id("username").filter(has_text=name).wait_for()


def log_in(page: Page, live: LiveServer, name: str) -> None:
    page.goto(f"{live.base}/#/login")
    page.get_by_test_id("auth-username").fill(name)
    page.get_by_test_id("auth-password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    lobby, skip = page.get_by_test_id("table-list"), page.locator("[data-action=skip-limits]")
    lobby.or_(skip).first.wait_for()
    if skip.is_visible():  # limits neither set nor skipped yet: asked again at each login
        skip.click()
    lobby.wait_for()


def hold_moments(page: Page) -> None:
    """A moment (a poker showdown, a UNO hand's result) stays until the player goes on (the
    page ends it by itself after a few seconds otherwise): a test can look at it at leisure."""
    page.evaluate("localStorage.setItem('mazziere.moment_ms', '600000')")


def state_no(page: Page) -> int:
    """The table's state number as last drawn by the page."""
    return int(page.locator(".page-table").get_attribute("data-state") or "-1")


def wait_state_after(page: Page, before: int, timeout: float = 10_000) -> None:
    """Wait until the page has drawn a newer table state (or shown an error)."""
    page.wait_for_function(
        """(before) => {
            const root = document.querySelector('.page-table');
            const err = document.querySelector('[data-testid=table-error]');
            return (root && Number(root.dataset.state) > before) || (err && !err.hidden);
        }""",
        arg=before,
        timeout=timeout,
    )


def table_id(page: Page) -> int:
    m = re.search(r"#/table/(\d+)", page.url)
    assert m, page.url
    return int(m.group(1))
