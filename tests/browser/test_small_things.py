"""The small things users notice. A dialog closes when the page changes and
does nothing; UNO! is offered only when it can be due; a touch screen is told to tap; every
refused setting is explained under its field; presets have names a player understands (the
rules page describes each); every option is a form field under "More options"."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .harness import LiveServer, Watch, new_context, shot, sign_up, table_id
from .test_fit import OTHERS, put
from .test_uno import create_uno_table


def start_uno(page: Page, live: LiveServer, name: str) -> int:
    sign_up(page, live, name)
    create_uno_table(page, f"{name}'s table")
    tid = table_id(page)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    return tid


def test_a_dialog_closes_when_the_page_changes_and_does_nothing(
    page: Page, live: LiveServer
) -> None:
    tid = start_uno(page, live, "dora")
    page.locator("[data-action=leave]").click()
    expect(page.locator(".modal")).to_be_visible()
    page.evaluate("location.hash = '#/lobby'")
    page.get_by_test_id("table-list").wait_for()
    expect(page.locator(".modal")).to_have_count(0)
    # back at the table: still seated, the hand goes on
    page.evaluate(f"location.hash = '#/table/{tid}'")
    page.locator("[data-testid=hand] .card").first.wait_for()
    expect(page.get_by_test_id("farewell")).to_have_count(0)


def test_uno_is_offered_only_when_it_can_be_due(page: Page, live: LiveServer) -> None:
    tid = start_uno(page, live, "ugo")
    uno = page.locator("[data-testid=actions] [data-action=uno]")
    put(page, live, tid, f"uno hands=R1,G2{OTHERS} discard=B7 draw=*")  # nothing to play
    expect(page.locator("[data-testid=actions] [data-action=draw]")).to_be_visible()
    expect(uno).to_have_count(0)
    put(page, live, tid, f"uno hands=R1,G2{OTHERS} discard=R7 draw=*")  # R1 leaves one card
    expect(uno).to_be_visible()


def test_a_touch_screen_is_told_to_tap(browser: Browser, live: LiveServer, watch: Watch) -> None:
    ctx = new_context(
        browser, live, watch, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = ctx.new_page()
        tid = start_uno(page, live, "tina")
        put(page, live, tid, f"uno hands=R1,R5,G2{OTHERS} discard=R7 draw=*")
        turn = page.get_by_test_id("turn-line")
        expect(turn).to_contain_text("tap")
        expect(turn).not_to_contain_text("click")
        shot(page, "uno-touch-prompt")
    finally:
        ctx.close()
    watch.check()


def test_refused_settings_are_explained_under_their_fields(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "remo")
    page.get_by_test_id("game-uno").check(force=True)
    # a time limit out of bounds: said under the field, nothing created
    page.get_by_test_id("decision-seconds").fill("0")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("field-error-decision_seconds")).to_be_visible()
    expect(page.get_by_test_id("create-error")).not_to_be_empty()
    assert "#/table/" not in page.url
    # an option out of its bounds: under its field, in "More options"
    page.get_by_test_id("decision-seconds").fill("30")
    page.locator(".create-form details.options summary").click()
    page.get_by_test_id("opt-hand_size").fill("0")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("field-error-hand_size")).to_have_text("At least 1.")
    # a combination the server refuses (teams of two need four players): under the option
    page.get_by_test_id("opt-hand_size").fill("7")
    page.get_by_test_id("seats").fill("3")
    page.get_by_test_id("opt-teams").check()
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("field-error-teams")).to_contain_text("exactly 4 players")
    assert "#/table/" not in page.url
    shot(page, "create-refused")


DEALT_FIVE = """() => {
    const hand = document.querySelectorAll('[data-testid=hand] .card').length;
    let drawn = 0;
    for (const li of document.querySelectorAll('[data-testid=log] li')) {
        if (li.textContent.trim().startsWith('You draw')) {
            drawn += li.querySelectorAll('.mini').length;
        }
    }
    return hand > 0 && hand - drawn === 5;
}"""


def test_presets_have_player_names_and_options_are_form_fields(
    page: Page, live: LiveServer
) -> None:
    sign_up(page, live, "olga")
    page.get_by_test_id("game-uno").check(force=True)
    form = page.locator(".create-form")
    for preset in ("classic", "mattel", "online", "house", "casino"):
        page.get_by_test_id("preset").select_option(preset)
        expect(form).not_to_contain_text(re.compile("seed", re.I))
    expect(form.locator("textarea")).to_have_count(0)
    expect(form).not_to_contain_text("JSON")
    page.get_by_test_id("preset").select_option("classic")
    form.locator("details.options summary").click()
    page.get_by_test_id("opt-hand_size").fill("5")
    page.get_by_test_id("table-name").fill("Five cards")
    page.get_by_test_id("seats").fill("3")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("waiting").wait_for()
    page.locator("[data-action=start]").click()
    # five dealt: the hand holds five cards more than the log says this player drew (a computer
    # player's +2 or +4 may come before the hand is looked at); the player does not act here
    page.wait_for_function(DEALT_FIVE, timeout=15_000)
    # the rules page describes each preset by its name, citing no source document by number
    page.goto(f"{live.base}/#/rules/uno")
    rules = page.locator("main")
    expect(rules).to_contain_text(re.compile(r"Classico?: "))
    expect(rules).not_to_contain_text(re.compile(r"seed \d", re.I))
