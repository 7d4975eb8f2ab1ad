"""Responsible gaming in the page (docs/rules/platform.md "Limits and reality checks"): a new
player is asked to set limits at sign-up and sets them; the limits page shows a raise waiting
with the date it takes effect; a top-up over a limit at a casino table is refused and the page
says which limit and what is left; a reality check the server pushes covers the table with
the time played and the result, and the player continues. This module's server runs on a
manual clock, which the tests move to bring a reality check due."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from mazziere.server.clock import ManualClock

from .harness import PASSWORD, LiveServer, run_server, shot, sign_up, state_no, wait_state_after


@pytest.fixture(scope="module")
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, clock: ManualClock) -> Iterator[LiveServer]:
    """This module's server, on a clock the tests move (no inactivity cut meanwhile)."""
    with run_server(tmp_path_factory.mktemp("server"), clock, inactivity_seconds=10.0**7) as s:
        yield s


def advance(live: LiveServer, clock: ManualClock, seconds: float) -> None:
    """Move the server's clock to ``seconds`` after the real time now (a login's time is the
    real one), inside the server's loop (its timers start jobs there)."""
    target = datetime.now(UTC) + timedelta(seconds=seconds)

    async def move() -> None:
        clock.advance(max(0.0, (target - clock.wall()).total_seconds()))

    live.call(move())


def casino_table(page: Page) -> None:
    """Open a casino table of one's own from the lobby."""
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("session").wait_for()


def top_up(page: Page, euros: str) -> None:
    before = state_no(page)
    page.get_by_test_id("topup-input").fill(euros)
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)


def test_a_new_player_sets_limits_at_sign_up(page: Page, live: LiveServer) -> None:
    page.goto(f"{live.base}/#/login")
    page.get_by_test_id("tab-signup").click()
    page.get_by_test_id("auth-username").fill("lina")
    page.get_by_test_id("auth-password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    ask = page.locator(".modal-limits")
    expect(ask).to_contain_text("Set your limits")
    page.get_by_test_id("limit-topup_day").fill("20")
    page.get_by_test_id("limit-loss_week").fill("50,50")
    page.get_by_test_id("limit-session_minutes").fill("90")
    shot(page, "limits-at-sign-up")
    page.locator("[data-action=set-limits]").click()
    page.get_by_test_id("table-list").wait_for()

    page.get_by_test_id("nav-limits").click()
    expect(page.get_by_test_id("limit-topup_day")).to_have_value("20.00")
    expect(page.get_by_test_id("limit-loss_week")).to_have_value("50.50")
    expect(page.get_by_test_id("limit-session_minutes")).to_have_value("90")
    expect(page.get_by_test_id("limit-topup_month")).to_have_value("")
    # a raise waits 24 hours, shown with the moment it takes effect; a lower one is at once
    page.get_by_test_id("limit-topup_day").fill("30")
    page.get_by_test_id("limit-loss_week").fill("40")
    page.get_by_test_id("limits-save").click()
    expect(page.get_by_test_id("pending-topup_day")).to_contain_text(
        re.compile(r"becomes €30\.00 on")
    )
    expect(page.get_by_test_id("pending-loss_week")).to_have_count(0)
    expect(page.get_by_test_id("limit-loss_week")).to_have_value("40.00")
    expect(page.get_by_test_id("exclusion-link")).to_have_attribute("href", "#/exclusion")
    shot(page, "limits-page")

    # in Italian
    page.locator("[data-lang=it]").click()
    expect(page.locator("h1")).to_have_text("Gioco responsabile")
    expect(page.get_by_test_id("pending-topup_day")).to_contain_text("diventa")
    shot(page, "limits-page-it")
    page.locator("[data-lang=en]").click()


def test_the_question_is_asked_at_each_login_and_reload_until_answered(
    page: Page, live: LiveServer
) -> None:
    page.goto(f"{live.base}/#/login")
    page.get_by_test_id("tab-signup").click()
    page.get_by_test_id("auth-username").fill("olga")
    page.get_by_test_id("auth-password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    ask = page.locator(".modal-limits")
    expect(ask).to_be_visible()
    page.evaluate("location.hash = '#/leaderboards'")  # went elsewhere: not answered
    expect(ask).to_have_count(0)
    page.reload()  # the site opened again, still logged in: asked again
    expect(ask).to_be_visible()
    page.evaluate("location.hash = '#/lobby'")
    expect(ask).to_have_count(0)

    def log_in_again() -> None:
        page.get_by_role("button", name="Log out").click()
        page.get_by_test_id("auth-username").fill("olga")
        page.get_by_test_id("auth-password").fill(PASSWORD)
        page.get_by_test_id("auth-submit").click()

    log_in_again()
    expect(ask).to_be_visible()  # asked again
    page.locator("[data-action=skip-limits]").click()
    page.get_by_test_id("table-list").wait_for()
    log_in_again()
    page.get_by_test_id("table-list").wait_for()
    expect(ask).to_have_count(0)  # skipped: remembered, not asked any more


def test_a_limit_hit_at_a_casino_table_is_told(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "marta")
    page.get_by_test_id("nav-limits").click()
    page.get_by_test_id("limit-topup_day").fill("10")
    page.get_by_test_id("limits-save").click()
    expect(page.get_by_test_id("limit-topup_day")).to_have_value("10.00")
    page.goto(f"{live.base}/#/lobby")
    casino_table(page)
    top_up(page, "20")
    error = page.get_by_test_id("table-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Over your daily top-up limit: €10.00 left.")
    expect(page.get_by_test_id("credit")).not_to_have_text(re.compile(r"20[.,]00"))
    shot(page, "limits-casino-refused")
    top_up(page, "10")
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(r"10[.,]00"))


def test_a_reality_check_covers_the_table_until_the_player_continues(
    page: Page, live: LiveServer, clock: ManualClock
) -> None:
    sign_up(page, live, "nadia")
    casino_table(page)
    top_up(page, "20")
    advance(live, clock, 3600 + 60)  # an hour after the login: the check is due
    check = page.get_by_test_id("reality-check")
    expect(check).to_contain_text("You have been playing for 1 h")
    expect(page.get_by_test_id("reality-net")).to_contain_text("€0.00")
    shot(page, "reality-check")
    page.locator("[data-action=reality-continue]").click()
    expect(check).to_have_count(0)
    top_up(page, "5")
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(r"25[.,]00"))
