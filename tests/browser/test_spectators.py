"""A spectator of a poker or casino table sees the table with the player's
place by name (never "You", never a seat number), without a hand or any control."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from .harness import (
    LiveServer,
    Watch,
    new_context,
    shot,
    sign_up,
    state_no,
    table_id,
    wait_state_after,
)


def spectator_page(browser: Browser, live: LiveServer, watch: Watch, tid: int, name: str) -> Page:
    friend = new_context(browser, live, watch)
    other = friend.new_page()
    sign_up(other, live, name)
    other.goto(f"{live.base}/#/table/{tid}")
    expect(other.get_by_test_id("watching-banner")).to_be_visible()
    return other


def test_a_poker_spectator_sees_the_player_by_name_and_no_hand(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    sign_up(page, live, "piero")
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.wait_for_function("() => location.hash.startsWith('#/table/')")
    start = page.locator("[data-action=start]")
    if start.is_visible():
        start.click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    other = spectator_page(browser, live, watch, table_id(page), "sara")
    try:
        expect(other.get_by_test_id("me-name")).to_contain_text("piero")
        expect(other.get_by_test_id("me-name")).not_to_contain_text("You")
        expect(other.get_by_test_id("my-bankroll")).to_be_visible()
        expect(other.locator("[data-testid=hand] .card")).to_have_count(0)
        expect(other.locator("[data-testid=actions] button")).to_have_count(0)
        expect(other.locator(".page-table")).not_to_contain_text("Seat 1")
        shot(other, "poker-spectator")
    finally:
        other.context.close()


def test_a_casino_spectator_sees_the_player_by_name_and_a_card_count(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    sign_up(page, live, "carla")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    before = state_no(page)
    page.get_by_test_id("topup-input").fill("10")
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)
    page.get_by_test_id("stake-input").fill("1")
    page.locator("[data-action=deal]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    other = spectator_page(browser, live, watch, table_id(page), "dario")
    try:
        expect(other.get_by_test_id("me-name")).to_have_text("carla")
        expect(other.locator(".me-meta")).to_contain_text("cards")
        expect(other.get_by_test_id("bank")).to_be_visible()
        expect(other.locator("[data-testid=hand] .card")).to_have_count(0)
        expect(other.locator("[data-testid=actions] button")).to_have_count(0)
        expect(other.get_by_test_id("session")).to_be_hidden()
        shot(other, "casino-spectator")
    finally:
        other.context.close()
