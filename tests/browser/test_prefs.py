"""A colour-blind mode (a symbol and a pattern on each of the four colours),
sounds made in the browser (off by default, with a mute toggle), and a shareable table link
that opens the table after signing in."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Browser, Page, expect

from .harness import PASSWORD, LiveServer, Watch, new_context, shot, sign_up, table_id
from .test_uno import create_uno_table
from .uno_play import act_once

SYMBOLS = {"R": "▲", "Y": "■", "G": "●", "B": "◆"}

SOUNDS = "() => Number(document.documentElement.dataset.sounds || 0)"


def test_colour_blind_mode_marks_each_colour_and_sounds_are_off_until_asked(
    page: Page, live: LiveServer
) -> None:
    sign_up(page, live, "cinzia")
    create_uno_table(page, "Colours")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    card = page.locator(".card.uno:not(.c-W)").first
    color = (card.get_attribute("data-code") or "?")[0]
    after = "(el) => getComputedStyle(el, '::after').content"
    assert card.evaluate(after) in ("none", "normal", '""')
    page.get_by_test_id("table-menu").click()
    page.get_by_test_id("colorblind").click()
    expect(page.locator("html")).to_have_class("cb")
    assert card.evaluate(after) == f'"{SYMBOLS[color]}"'
    assert card.evaluate("(el) => getComputedStyle(el).backgroundImage") != "none"
    shot(page, "uno-colourblind")

    # sounds: none by default, a few once switched on, none again once muted
    sound = page.get_by_test_id("sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    used: Counter[str] = Counter()
    for _ in range(3):
        act_once(page, used, set())
    assert page.evaluate(SOUNDS) == 0
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(SOUNDS) >= 1  # the switch says it works
    before = page.evaluate(SOUNDS)
    for _ in range(6):
        if page.get_by_test_id("result").is_visible():
            break
        act_once(page, used, set())
    page.wait_for_timeout(300)
    assert page.evaluate(SOUNDS) > before
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    muted = page.evaluate(SOUNDS)
    for _ in range(3):
        act_once(page, used, set())
    assert page.evaluate(SOUNDS) == muted
    # the mode is this browser's: it stays after a reload
    page.reload()
    page.get_by_test_id("discard").locator(".card").wait_for()  # the hand may be over by now
    expect(page.locator("html")).to_have_class("cb")


def test_a_shared_table_link_opens_the_table_after_signing_in(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    sign_up(page, live, "sara")
    create_uno_table(page, "Friends")
    tid = table_id(page)
    page.get_by_test_id("table-menu").click()
    page.locator("[data-action=share]").click()
    link = page.locator(".page-table").get_attribute("data-shared") or ""
    assert link.endswith(f"#/table/{tid}"), link
    page.keyboard.press("Escape")

    friend = new_context(browser, live, watch)
    try:
        other = friend.new_page()
        other.goto(link)
        other.get_by_test_id("tab-signup").click()  # not signed in: the sign-in page first
        other.get_by_test_id("auth-username").fill("franca")
        other.get_by_test_id("auth-password").fill(PASSWORD)
        other.get_by_test_id("auth-submit").click()
        other.locator("[data-action=skip-limits]").click()  # the question a new player is asked
        other.wait_for_url(f"**/#/table/{tid}")
        expect(other.get_by_test_id("waiting")).to_contain_text("franca")
        expect(page.get_by_test_id("waiting")).to_contain_text("franca")
        shot(other, "shared-link-arrival")
    finally:
        friend.close()


def test_a_shared_link_to_a_full_table_lets_a_spectator_watch_without_a_hand(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    sign_up(page, live, "matteo")
    create_uno_table(page, "Full")
    tid = table_id(page)
    page.locator("[data-action=start]").click()  # the computer players take the free seats
    page.locator("[data-testid=hand] .card").first.wait_for()
    link = f"{live.base}/#/table/{tid}"
    friend = new_context(browser, live, watch)
    try:
        other = friend.new_page()
        sign_up(other, live, "viola")
        other.goto(link)
        expect(other.get_by_test_id("watching-banner")).to_be_visible()
        expect(other.get_by_test_id("opponents").locator(".opp")).to_have_count(4)
        expect(other.get_by_test_id("discard").locator(".card")).to_have_count(1)
        expect(other.locator("[data-testid=hand] .card")).to_have_count(0)
        expect(other.locator("[data-testid=actions] button")).to_have_count(0)
        # the player's moves reach the spectator
        before = int(other.locator(".page-table").get_attribute("data-state") or "0")
        used: Counter[str] = Counter()
        for _ in range(20):
            if act_once(page, used, set()):
                break
            page.wait_for_timeout(100)
        other.wait_for_function(
            "(s) => Number(document.querySelector('.page-table').dataset.state) > s", arg=before
        )
        shot(other, "uno-spectator")
    finally:
        friend.close()
