"""The replay of a hand: a poker showdown's step shows the showdown (both hands, the pot), not
the next deal; the steps' numbers are not cut at three digits; a speed control plays a long
match in about a minute, and a hand (a deal) is a jump away. At 1366x850 and 390x844."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from .harness import LiveServer, hold_moments, shot, state_no, wait_state_after
from .test_layout import SIZES
from .test_words import start_poker

CHEAP = ("see", "wait", "replace", "draw", "open", "raise")


def play_to_a_showdown(page: Page) -> None:
    """The cheapest moves the page offers (never a fold) until a showdown is on the table."""
    showdown = page.get_by_test_id("showdown")
    deadline = time.monotonic() + 90
    while not showdown.is_visible():
        assert time.monotonic() < deadline, "no showdown in time"
        before = state_no(page)
        for action in CHEAP:
            b = page.locator(f"[data-testid=actions] [data-action={action}]")
            if b.count() and b.first.is_enabled():
                b.first.click()
                wait_state_after(page, before)
                break
        else:
            page.wait_for_timeout(100)


def longer(factor: int) -> Any:
    """A route handler that sends the replay's steps ``factor`` times over (a long match)."""

    def handle(route: Route) -> None:
        response = route.fetch()
        data = response.json()
        data["steps"] = data["steps"] * factor
        route.fulfill(response=response, body=json.dumps(data))

    return handle


SHOWDOWN_STEP = """async () => {
    const api = await import('/js/api.js');
    const id = Number(location.hash.split('/').pop());
    const data = await api.get(`/api/history/${id}`);
    const k = data.steps.findIndex((s) => s.events.some((e) => e.type === 'shown'));
    const shown = data.steps[k].events.filter((e) => e.type === 'shown' && e.seat === data.seat);
    return {k: k + 1, mine: shown[0].cards, n: data.steps.length};
}"""

NUMBERS_CUT = """() => {
    // a step number cut off by its list (the list's box or its own)
    const list = document.querySelector('.replay-list');
    const l = list.getBoundingClientRect();
    return [...list.querySelectorAll('.step-no')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < l.left - 0.5 || el.scrollWidth > el.clientWidth + 0.5;
    }).map((el) => el.textContent);
}"""


@pytest.mark.parametrize("size", ["1366x850", "390x844"])
def test_a_replay_shows_the_showdown_at_its_step_and_plays_a_long_match_quickly(
    page: Page, live: LiveServer, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    start_poker(page, live, f"rita{size.replace('x', '_')}")
    hold_moments(page)
    play_to_a_showdown(page)
    page.evaluate("location.hash = '#/history'")
    page.locator("[data-testid^=replay-]").first.click()
    page.get_by_test_id("replay-board").wait_for()

    # the showdown's step: the hands shown and named, this player's shown cards on the board
    at = page.evaluate(SHOWDOWN_STEP)
    page.locator(".replay-list li button").nth(at["k"] - 1).click()
    expect(page.get_by_test_id("replay-counter")).to_have_text(f"step {at['k']} of {at['n']}")
    expect(page.get_by_test_id("replay-shown")).to_have_count(2)
    board = page.locator("[data-testid=replay-board] .poker-cards .card")
    assert [board.nth(i).get_attribute("data-code") for i in range(5)] == at["mine"]
    shot(page, f"replay-showdown-{size}")

    # the same match over and over, past 100 steps: three-digit steps, played fast, a deal a
    # jump away
    times = -(-110 // at["n"])
    page.route(re.compile(r".*/api/history/\d+$"), longer(times))
    page.reload()
    page.get_by_test_id("replay-board").wait_for()
    n = at["n"] * times
    assert n >= 100
    expect(page.get_by_test_id("replay-counter")).to_have_text(f"step {n} of {n}")
    assert page.evaluate(NUMBERS_CUT) == [], "step numbers are cut"
    page.locator(".replay-list").evaluate("(el) => el.scrollTo(0, el.scrollHeight)")
    shot(page, f"replay-long-{size}")
    jump = page.get_by_test_id("replay-jump")
    options = jump.locator("option")
    expect(options.nth(2)).to_have_text("Deal 2")
    jump.select_option(index=2)
    k = int(options.nth(2).get_attribute("value") or "0")
    assert k > 0
    expect(page.get_by_test_id("replay-counter")).to_have_text(f"step {k} of {n}")
    # at x16 the long match plays through in a few seconds (at x1 it would take minutes)
    page.get_by_test_id("replay-speed").select_option("16")
    page.locator("[data-action=first]").click()
    page.locator("[data-action=autoplay]").click()
    expect(page.get_by_test_id("replay-counter")).to_have_text(
        f"step {n} of {n}", timeout=n * 900 // 4
    )
