"""A log a player trusts. One timeline (a hand's start before its first
move, its end after its last), one line per thing that happened, names rather than seat
numbers, grammar that fits the player ("You play W and choose red"), the casino's own words,
and the same play-by-play after a reload."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Page, expect

from .harness import LiveServer, sign_up
from .test_uno import create_uno_table
from .uno_play import play_until

IN_ORDER = """() => [...document.querySelectorAll('[data-testid=log] li')].reverse().map((li) => {
    const el = li.querySelector('.ev');
    return {cls: el ? el.className : li.className, text: li.textContent};
})"""


def test_uno_log_is_one_timeline_in_order(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "lorenzo")
    create_uno_table(page, "Log", seats=3)
    page.locator("[data-action=start]").click()
    result = page.get_by_test_id("result")
    play_until(page, result, Counter())
    lines = page.evaluate(IN_ORDER)
    kinds = [line["cls"] for line in lines]
    texts = [line["text"] for line in lines]

    def first(part: str) -> int:
        return next(i for i, k in enumerate(kinds) if part in k)

    def last(part: str) -> int:
        return max(i for i, k in enumerate(kinds) if part in k)

    assert first("note-seated") < first("note-hand_started") < first("ev-played"), texts
    assert last("ev-played") < first("ev-hand_ended") < first("note-hand_over"), texts
    # the hand's start is said once, by its note; nobody is a seat number
    assert not any("recorded" in x for x in texts), texts
    assert not any("seat 0" in x.lower() or "seat 1" in x.lower() for x in texts), texts
    assert not any("You play" in x and "chooses" in x for x in texts), texts

    # a reload shows the same play-by-play, in the same order (the server sends it on join)
    page.reload()
    page.get_by_test_id("result").wait_for()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length > 10")
    # (the reload itself dropped the connection for a moment: the log says so, and that the
    # player is back, at its end)
    away = ("note-held", "note-back")
    after = [x["text"] for x in page.evaluate(IN_ORDER) if not any(a in x["cls"] for a in away)]
    assert after == texts[-len(after) :], (after, texts)


def test_casino_log_speaks_of_rounds_not_matches(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "rita")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").fill("10")
    page.locator("[data-action=topup]").click()
    expect(page.locator("[data-action=deal]")).to_be_enabled()
    page.get_by_test_id("stake-input").fill("1")
    page.locator("[data-action=deal]").click()
    result = page.get_by_test_id("casino-result")
    play_until(page, result, Counter(), budget_s=60)
    log = page.get_by_test_id("log")
    expect(log.locator(".ev-round_ended")).to_have_count(1)
    expect(log).not_to_contain_text("match")
    expect(log).not_to_contain_text("the others hold")
