"""The browser tests' own helpers: a test that failed is run again on the same server, so its
second sign-up finds the name taken and must log in instead (else every rerun fails at the
lobby and hides why the first try failed)."""

from playwright.sync_api import Page

from .harness import LiveServer, sign_up


def test_a_rerun_signs_in_when_its_name_is_taken(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "zed")
    page.context.clear_cookies()
    page.evaluate("localStorage.clear(); sessionStorage.clear()")
    sign_up(page, live, "zed")
    assert page.get_by_test_id("table-list").is_visible()
