"""The words a player reads, in English and Italian: the draw of draw poker in plain grammar
("You stand pat"), its change of cards named apart from REPLACE (a call); player names as they
were typed, in the log and in the dialogs alike; a +2 to take offered with only the moves that
apply; "Close session" asking to close the session and gone once it is closed; the lobby's
"More options" in words, not the options' internal names; a lost connection followed by "you
are back"; a full table said once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from mazziere.catalog import catalog

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
from .positions import put_position
from .test_connection import Gate, account_of, cut
from .test_fit import OTHERS, put, settle_animations
from .test_uno import create_uno_table


def log_lines(page: Page) -> list[str]:
    """The log's lines, newest first."""
    return [t.strip() for t in page.get_by_test_id("log").locator("li").all_inner_texts()]


def start_poker(page: Page, live: LiveServer, name: str) -> int:
    sign_up(page, live, name)
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("poker-preset").select_option("classic")
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    return table_id(page)


POKER_DRAW = (
    "poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s phase=draw first=0 acts=2 "
    "history=0:wait:0,1:replace:0"
)
"""Deal 1 at the draw, this player first: both paid nothing more than the ante."""


def test_the_draw_is_told_in_plain_words(page: Page, live: LiveServer) -> None:
    tid = start_poker(page, live, "pat")
    put(page, live, tid, POKER_DRAW)
    # the button that changes the marked cards is CHANGE, not the call REPLACE
    button = page.locator("[data-testid=actions] [data-action=draw]")
    expect(button).to_contain_text("Keep all five")
    page.locator("[data-testid=hand] button.card").nth(4).click()
    expect(button).to_contain_text("CHANGE 1")
    expect(page.get_by_test_id("turn-line")).to_contain_text("press CHANGE")
    page.locator("[data-testid=hand] button.card").nth(4).click()
    before = state_no(page)
    button.click()  # none marked: stand pat
    wait_state_after(page, before)
    lines = log_lines(page)
    assert "You stand pat." in lines, lines
    assert not [x for x in lines if "changes 0" in x or "You changes" in x], lines
    settle_animations(page)
    shot(page, "words-poker-stand-pat-1366x860")
    # the same in Italian; the computer's own draw is in words too
    page.locator("button[data-lang=it]").click()
    lines = log_lines(page)
    assert "Sei servito." in lines, lines
    assert [x for x in lines if re.match(r"Il computer (cambia \d carte?|è servito)\.", x)], lines
    put(page, live, tid, POKER_DRAW)
    expect(page.locator("[data-testid=actions] [data-action=draw]")).to_contain_text(
        "Tieni tutte e cinque"
    )
    page.locator("[data-testid=hand] button.card").nth(4).click()
    expect(page.locator("[data-testid=actions] [data-action=draw]")).to_contain_text("CAMBIA 1")
    page.locator("button[data-lang=en]").click()


def test_player_names_are_shown_as_typed_in_the_log_and_the_dialogs(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    sign_up(page, live, "Maura")
    tid = create_uno_table(page, "Names", seats=2)
    other = new_context(browser, live, watch)
    try:
        guest = other.new_page()
        sign_up(guest, live, "dino")
        guest.goto(f"{live.base}/#/table/{tid}")
        page.get_by_test_id("waiting").filter(has_text="dino").wait_for()
        page.locator("[data-action=start]").click()
        page.locator("[data-testid=hand] .card").first.wait_for()
        # dino to play the last card: the hand and the match end
        state = put_position(live, tid, "uno turn=1 hands=R1,R5,G2/R3 discard=R7 draw=*")
        wait_state_after(guest, state - 1)
        guest.evaluate(
            "([t, s]) => window.mazziere.socket.send("
            "{type: 'action', table: t, state_no: s, action: 'R3'})",
            [tid, state_no(guest)],
        )
        result = page.get_by_test_id("result")
        expect(result).to_contain_text("dino won the match")
        lines = log_lines(page)
        assert [x for x in lines if x.startswith("dino plays")], lines
        assert not [x for x in lines if x.startswith("Dino")], lines
        settle_animations(page)
        shot(page, "words-names-as-typed-1366x860")
    finally:
        other.close()


def test_a_plus_two_is_offered_with_the_moves_that_apply(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "stella")
    page.get_by_test_id("game-uno").check(force=True)
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("bots").select_option("greedy")
    page.get_by_test_id("match").select_option("single_hand")
    page.get_by_test_id("decision-seconds").fill("120")
    page.locator(".create-form details.options summary").click()
    page.get_by_test_id("opt-stacking").select_option("draw2")  # +2 on +2, after the preset
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("waiting").wait_for()
    tid = table_id(page)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    turn = page.get_by_test_id("turn-line")
    pending = "discard=BD2 phase=pending pending=2 draw=*"
    put(page, live, tid, f"uno hands=R1,R5,G2,G7,B3,B7,Y3{OTHERS} {pending}")
    expect(turn).to_have_text("Your turn: take 2 cards.")
    put(page, live, tid, f"uno hands=R1,R5,G2,GD2,B3,B7,Y3{OTHERS} {pending}")
    expect(turn).to_contain_text("or stack")
    page.locator("button[data-lang=it]").click()
    expect(page.get_by_test_id("turn-line")).to_contain_text("rilancia")
    put(page, live, tid, f"uno hands=R1,R5,G2,G7,B3,B7,Y3{OTHERS} {pending}")
    expect(page.get_by_test_id("turn-line")).to_have_text("Tocca a te: prendi 2 carte.")
    page.locator("button[data-lang=en]").click()


def test_closing_a_casino_session_is_called_so_and_then_gone(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "chiara")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").wait_for()
    leave = page.locator("[data-action=leave]")
    expect(leave).to_have_text("Close session")
    leave.click()
    dialog = page.locator(".modal")
    expect(dialog.locator(".modal-title")).to_have_text("Close session")
    expect(dialog.locator("[data-action=confirm-leave]")).to_have_text("Close session")
    dialog.locator("[data-action=confirm-leave]").click()
    page.get_by_test_id("farewell").wait_for()
    expect(leave).to_be_hidden()
    shot(page, "words-session-closed-1366x860")


def test_leaving_a_table_takes_the_leave_button_away(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "lea")
    create_uno_table(page, "Goodbye")
    leave = page.locator("[data-action=leave]")
    expect(leave).to_have_text("Leave table")
    leave.click()
    expect(page.locator(".modal .modal-title")).to_have_text("Leave table")
    page.locator("[data-action=confirm-leave]").click()
    page.get_by_test_id("farewell").wait_for()
    expect(leave).to_be_hidden()


def uno_options(cat: dict[str, Any]) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = next(g for g in cat["games"] if g["name"] == "uno")["options"]
    return options


@pytest.mark.parametrize("lang", ["en", "it"])
def test_more_options_are_in_words_a_player_understands(
    page: Page, live: LiveServer, lang: str
) -> None:
    sign_up(page, live, f"opzioni{lang}")
    page.locator(f"button[data-lang={lang}]").click()
    page.get_by_test_id("game-uno").check(force=True)
    page.locator(".create-form details.options summary").click()
    raw = []
    for o in uno_options(catalog()):
        field = page.get_by_test_id(f"opt-{o['name']}")
        if not field.count():
            continue  # shown above "More options" (the match), or not a form field
        label = field.evaluate(
            "(el) => (el.closest('label') || el.closest('.field').querySelector('label'))"
            ".textContent.trim()"
        )
        if "_" in label or label.lower() == o["name"].replace("_", " "):
            raw.append(label)
        for choice in o.get("choices", []):
            text = field.locator(f"option[value='{choice}']").inner_text().strip()
            if "_" in text or text.lower() == str(choice).replace("_", " "):
                raw.append(f"{label}: {text}")
    assert raw == [], f"internal names in 'More options' ({lang}): {raw}"
    shot(page, f"words-more-options-{lang}-1366x860")
    page.locator("button[data-lang=en]").click()


def test_a_lost_connection_is_followed_by_you_are_back(page: Page, live: LiveServer) -> None:
    gate = Gate(page)
    sign_up(page, live, "ritorno")
    create_uno_table(page, "Back", seats=3)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    gate.closed = True
    cut(live, account_of(page))
    expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
    gate.closed = False
    expect(page.locator("#conn")).to_be_hidden(timeout=20_000)
    notes = page.get_by_test_id("log").locator("li.log-note")
    expect(notes.first).to_have_text("You are back at the table.")
    expect(notes.nth(1)).to_contain_text("You lost the connection")
    shot(page, "words-back-1366x860")


def test_a_full_table_is_said_once(
    browser: Browser, page: Page, live: LiveServer, watch: Watch
) -> None:
    """A link to a table with no free seat shows it to watch; leaving and coming back shows it
    again, and no "no free seat" (once at most, where it must be said)."""
    sign_up(page, live, "piena")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").wait_for()
    tid = table_id(page)
    other = new_context(browser, live, watch)
    try:
        guest = other.new_page()
        sign_up(guest, live, "ospite")
        for _ in range(2):
            guest.evaluate(f"location.hash = '#/table/{tid}'")
            guest.get_by_test_id("watching-banner").wait_for()
            said = guest.locator("body").inner_text().lower().count("no free seat")
            assert said <= 1, f"'no free seat' said {said} times"
            expect(guest.locator("[data-action=leave]")).to_have_text("Stop watching")
            shot(guest, "words-watching-1366x860")
            guest.evaluate("location.hash = '#/lobby'")
            guest.get_by_test_id("table-list").wait_for()
    finally:
        other.close()
