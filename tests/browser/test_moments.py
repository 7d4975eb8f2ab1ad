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
from .test_layout import SIZES, assert_no_sideways_scroll

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


OTHERS3 = "G5,G6,G8/Y1,Y2,Y4/B5,B6,B8"
MINE = "R1,R5,G2,B7"


def banner_says(page: Page, text: str) -> None:
    banner = page.get_by_test_id("banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(text)
    settle_animations(page)


@pytest.mark.parametrize("size", TWO_SIZES)
def test_what_matters_gets_a_banner_and_an_unplayable_card_says_why(
    page: Page, live: LiveServer, size: str
) -> None:
    tid = create_match(page, live, f"bice{size.replace('x', '_')}", size)
    suffix = size

    # an unplayable card, double-clicked: it shakes, and the banner says why
    put(page, live, tid, f"uno hands={MINE}/{OTHERS3} discard=R7 draw=*")
    settle_animations(page)
    page.locator("[data-testid=hand] .card[data-code=G2]").dblclick(force=True)
    expect(page.locator("[data-testid=hand] .card[data-code=G2].shake")).to_have_count(1)
    banner_says(page, "matches neither the colour in play (red) nor the red 7")
    shot(page, f"moment-why-{suffix}")

    # a +2 landing on this player
    put(page, live, tid, f"uno hands={MINE}/{OTHERS3} discard=BD2 phase=pending pending=2 draw=*")
    banner_says(page, "A +2 lands on you!")
    shot(page, f"moment-pending-{suffix}")

    # a +4 challenged by this player: the verdict in the banner
    put(
        page,
        live,
        tid,
        f"uno hands={MINE}/G5,G6,G8/Y1,Y2,Y4/B5,B6,B8,R9 discard=W4,R3 color=G phase=pending"
        " pending=4 w4by=3 w4legal=0 draw=*",
    )
    page.locator("[data-testid=actions] [data-action=challenge]").click()
    banner_says(page, "You challenge the +4 of Bot 3: guilty!")
    shot(page, f"moment-challenge-{suffix}")

    # a player caught without UNO (by this player, or by a computer player first)
    put(
        page,
        live,
        tid,
        f"uno hands={MINE}/G5/Y1,Y2,Y4/B5,B6,B8 discard=R7 draw=* unoseat=1 unocalled=0",
    )
    catch = page.locator("[data-testid=actions] [data-action=catch-1]")
    if catch.is_visible():
        catch.click()
    banner_says(page, "without UNO")
    shot(page, f"moment-catch-{suffix}")

    # this player skipped: after this player's red 5 the next two draw and pass, the third
    # plays its only red card, a Skip
    put(
        page,
        live,
        tid,
        "uno hands=R1,R5,G2,B7/G6,G8,G9/Y1,Y2,Y4/RS,B6,B8 discard=R7 draw=Y9,Y8,Y7,*",
    )
    settle_animations(page)
    page.locator("[data-testid=hand] .card[data-code=R5]").dblclick()
    banner_says(page, "You lose your turn.")
    shot(page, f"moment-skipped-{suffix}")


IN_VIEW = """(el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
        && r.right <= innerWidth;
}"""


def credit_in_view(page: Page) -> None:
    """The session's credit is on the screen as it is, without scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    credit = page.locator("[data-testid=credit-now]:visible").first
    expect(credit).to_contain_text("€")
    assert credit.evaluate(IN_VIEW), "the credit is off the screen"


@pytest.mark.parametrize("size", TWO_SIZES)
def test_casino_tops_up_first_keeps_the_credit_in_view_and_shows_the_banks_cards(
    page: Page, live: LiveServer, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    sign_up(page, live, f"cora{size.replace('x', '_')}")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    topup = page.get_by_test_id("topup-input")
    topup.wait_for()
    tid = table_id(page)
    # the first visit: money in first (the top-up before the stake), the credit in view
    top, deal = topup.bounding_box(), page.locator("[data-action=deal]").bounding_box()
    assert top and deal
    assert (top["y"], top["x"]) < (deal["y"], deal["x"]), "the stake comes before the top-up"
    credit_in_view(page)
    shot(page, f"moment-casino-first-{size}")
    topup.fill("20")
    page.locator("[data-action=topup]").click()
    expect(page.locator("[data-action=deal]")).to_be_enabled()
    page.get_by_test_id("stake-input").fill("2")
    page.locator("[data-action=deal]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    credit_in_view(page)
    assert_no_sideways_scroll(page, f"moment-casino-in-round-{size}")

    # the player's last card ends the round: the bank's cards are shown with the result
    put(page, live, tid, "casino stake=200 mult=3 uno hands=R1/B5,G6 discard=R7")
    settle_animations(page)
    page.locator("[data-testid=hand] .card[data-code=R1]").dblclick()
    expect(page.get_by_test_id("casino-result")).to_be_visible()
    left = page.get_by_test_id("bank-left")
    expect(left).to_contain_text("The bank's cards")
    expect(left.locator(".mini")).to_have_count(2)
    credit_in_view(page)
    assert_no_sideways_scroll(page, f"moment-casino-round-over-{size}")


@pytest.mark.parametrize("size", TWO_SIZES)
def test_opening_the_site_while_seated_at_a_live_table_goes_back_to_it(
    page: Page, live: LiveServer, size: str
) -> None:
    tid = create_match(page, live, f"remo{size.replace('x', '_')}", size)
    page.goto(f"{live.base}/")
    page.wait_for_url(f"**/#/table/{tid}")
    page.locator("[data-testid=hand] .card").first.wait_for()
    settle_animations(page)
    shot(page, f"moment-back-to-the-table-{size}")
    # the way to the lobby stays open: the lobby is not left for the table again
    page.locator(".table-top a.back").click()
    page.get_by_test_id("table-list").wait_for()
    page.wait_for_timeout(500)
    assert page.url.endswith("#/lobby")
