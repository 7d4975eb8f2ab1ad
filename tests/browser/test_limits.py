"""Limits are the server's, told in a player's words before anything is sent: the sign-up hint
gives the password length the server requires; a casino stake is whole cents (1.234 is refused,
not rounded); a poker bet outside the allowed range is brought back into it and said so; a
double-click sends one move, not a second one the server would refuse as out of date."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, WebSocket, expect

from mazziere.server.store.accounts import MAX_PASSWORD, MIN_PASSWORD

from .harness import LiveServer, shot, sign_up, state_no, wait_state_after


class Frames:
    """The messages the page sends over its WebSocket, parsed."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, object]] = []
        page.on("websocket", self.watch)

    def watch(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def of(self, kind: str) -> list[dict[str, object]]:
        return [m for m in self.sent if m.get("type") == kind]


def test_the_sign_up_hint_gives_the_servers_password_length(page: Page, live: LiveServer) -> None:
    page.goto(f"{live.base}/#/login")
    page.get_by_test_id("tab-signup").click()
    hint = page.locator(".auth-form .hint")
    expect(hint).to_contain_text(f"{MIN_PASSWORD} to {MAX_PASSWORD} characters")
    # one character short: said on the page, in the hint's words
    page.get_by_test_id("auth-username").fill("lena")
    page.get_by_test_id("auth-password").fill("x" * (MIN_PASSWORD - 1))
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("auth-error")).to_contain_text(f"{MIN_PASSWORD} to {MAX_PASSWORD}")
    assert "#/login" in page.url
    page.locator("button[data-lang=it]").click()
    expect(hint).to_contain_text(f"da {MIN_PASSWORD} a {MAX_PASSWORD} caratteri")


def open_casino(page: Page, live: LiveServer, name: str) -> None:
    """A casino table with 20 euros of session credit."""
    sign_up(page, live, name)
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").wait_for()
    before = state_no(page)
    page.get_by_test_id("topup-input").fill("20")
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)
    expect(page.locator("[data-action=deal]")).to_be_enabled()


def test_a_casino_stake_is_whole_cents(page: Page, live: LiveServer) -> None:
    frames = Frames(page)
    open_casino(page, live, "cento")
    credit = page.get_by_test_id("credit").inner_text()
    page.get_by_test_id("topup-input").fill("5.555")
    page.locator("[data-action=topup]").click()
    expect(page.get_by_test_id("stake-error")).to_contain_text("cents")
    page.get_by_test_id("stake-input").fill("1.234")
    page.locator("[data-action=deal]").click()
    expect(page.get_by_test_id("stake-error")).to_contain_text("cents")
    page.wait_for_timeout(300)
    assert frames.of("stake") == [], "a stake of 1.234 was sent"
    assert [m["amount"] for m in frames.of("topup")] == [2000], "a top-up of 5.555 was sent"
    expect(page.get_by_test_id("credit")).to_have_text(credit)
    shot(page, "limits-casino-cents-1366x860")
    # the same amount to two decimals is a stake
    before = state_no(page)
    page.get_by_test_id("stake-input").fill("1.23")
    page.locator("[data-action=deal]").click()
    wait_state_after(page, before)
    assert [m["amount"] for m in frames.of("stake")] == [123]


def test_a_double_click_on_bet_and_deal_places_one_stake(page: Page, live: LiveServer) -> None:
    frames = Frames(page)
    open_casino(page, live, "doppio")
    page.get_by_test_id("stake-input").fill("2")
    page.locator("[data-action=deal]").dblclick()
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.wait_for_timeout(800)  # the answer to a second stake would have come by now
    expect(page.get_by_test_id("table-error")).to_be_hidden()
    assert len(frames.of("stake")) == 1
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(r"18[.,]00"))


def test_a_poker_bet_outside_the_range_is_brought_back_into_it(
    page: Page, live: LiveServer
) -> None:
    frames = Frames(page)
    sign_up(page, live, "bettina")
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("poker-preset").select_option("classic")
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    amount = page.get_by_test_id("bet-amount")
    action = "open" if page.locator("[data-action=open]").count() else "raise"
    hi = int(amount.get_attribute("max") or "0")
    lo = int(amount.get_attribute("min") or "0")
    assert 0 < lo < hi
    before = state_no(page)
    amount.fill(str(hi * 20))
    page.locator(f"[data-action={action}]").click()
    note = page.get_by_test_id("bet-note")
    expect(note).to_contain_text(f"{hi} chips")
    expect(amount).to_have_value(str(hi))
    page.wait_for_timeout(300)
    assert state_no(page) == before and not frames.of("action"), (
        "an amount above the range was sent"
    )
    expect(page.get_by_test_id("table-error")).to_be_hidden()
    shot(page, "limits-poker-bet-1366x860")
    amount.fill("0")
    page.locator(f"[data-action={action}]").click()
    expect(note).to_contain_text(f"{lo} chips")
    expect(amount).to_have_value(str(lo))
    # the amount now in the field is a bet
    page.locator(f"[data-action={action}]").click()
    wait_state_after(page, before)
    expect(page.get_by_test_id("table-error")).to_be_hidden()
    assert [m["action"] for m in frames.of("action")] == [f"{action} {lo}"]
