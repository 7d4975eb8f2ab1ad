"""The moments a player remembers at the UNO table: between two hands of a match the hand's
result (who went out, the points of each hand left, the running scores, the match's target)
with a short celebration for the winner and a pause or "Next hand" before play goes on; a
banner, not only a log line, for a +4 challenge, a UNO catch, a skip and a stack landing on
the player; an unplayable card double-clicked shakes and says why. At 1366x850 and 390x844,
with screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .harness import LiveServer, hold_moments, shot, sign_up, table_id
from .test_fit import put, settle_animations
from .test_layout import SIZES

TWO_SIZES = ["1366x850", "390x844"]


def create_match(page: Page, live: LiveServer, name: str, size: str) -> int:
    """A UNO match to 500 points against three computer players, its first hand dealt."""
    page.set_viewport_size(SIZES[size])
    sign_up(page, live, name)
    hold_moments(page)
    page.get_by_test_id("game-uno").check(force=True)
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("seats").fill("4")
    page.get_by_test_id("bots").select_option("greedy")
    page.get_by_test_id("match").select_option("target_points")
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("waiting").wait_for()
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    return table_id(page)


@pytest.mark.parametrize("size", TWO_SIZES)
def test_between_two_hands_the_hand_result_comes_with_a_pause(
    page: Page, live: LiveServer, size: str
) -> None:
    tid = create_match(page, live, f"gino{size.replace('x', '_')}", size)
    # this player's last card; the others hold 19, 7 and 19 points; scores before the hand
    put(
        page,
        live,
        tid,
        "uno hands=R5/G5,G6,G8/Y1,Y2,Y4/B5,B6,B8 discard=R7 draw=* scores=100,20,0,30",
    )
    settle_animations(page)
    page.locator("[data-testid=hand] .card[data-code=R5]").dblclick()
    panel = page.get_by_test_id("hand-result")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Hand 1: you went out!")
    expect(page.get_by_test_id("hand-points-0")).to_have_text("+45")
    for seat, points in ((1, "19"), (2, "7"), (3, "19")):
        expect(page.get_by_test_id(f"hand-points-{seat}")).to_have_text(points)
    expect(page.get_by_test_id("hand-score-0")).to_have_text("145")
    expect(page.get_by_test_id("hand-score-3")).to_have_text("30")
    expect(page.get_by_test_id("hand-result-match")).to_have_text("hand 2 · first to 500 points")
    expect(page.get_by_test_id("celebration")).to_have_count(1)
    page.wait_for_timeout(500)  # the confetti in mid-air
    shot(page, f"moment-hand-result-{size}")
    # the next hand: on the button (or by itself after a pause)
    page.locator("[data-testid=hand-result] [data-action=next-hand]").click()
    expect(panel).to_be_hidden()
    expect(page.locator("[data-testid=hand] .card")).to_have_count(7)
