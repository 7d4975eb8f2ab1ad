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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run again, at most twice (pytest-rerunfailures).

    These tests drive a real Chromium against a real server on a shared 2-core machine, and a
    few depend on timing the page cannot control (a frame late under load). A rerun is
    reported (``R`` in the progress line, "rerun" in the summary), so a flaky test stays
    visible; a test that fails three times fails the run. Only this folder's tests get it.
    """
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.flaky(reruns=2))


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
