"""Browser tests: a real server per test module and Debian's Chromium driven by Playwright for
Python (see harness.py).

Chromium must be installed (``scripts/install-browser.sh`` does it); ``playwright install``
cannot download browsers here, so the system's ``chromium`` is launched by path.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from .harness import CHROMIUM_ARGS, LiveServer, Watch, new_context, run_server


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with run_server(tmp_path_factory.mktemp("server")) as s:
        yield s


# Module scope, not session: Playwright's sync API keeps an event loop marked as running in this
# thread while it is started, which would break the asyncio tests that run after these ones in
# the same process. pytest ends module fixtures as soon as the next test is in another module.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    path = shutil.which("chromium")
    assert path, "chromium is not installed: run scripts/install-browser.sh"
    b = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def watch(live: LiveServer) -> Watch:
    return Watch(live.base)


@pytest.fixture
def context(browser: Browser, live: LiveServer, watch: Watch) -> Iterator[BrowserContext]:
    ctx = new_context(browser, live, watch)
    yield ctx
    ctx.close()
    watch.check()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
