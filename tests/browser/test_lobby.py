"""A lobby that fits and brings players in: the create button in view without scrolling (a
laptop, a phone), the tables filtered by game, a table being played watched from its row.
At 1366x850 and 390x844, with screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .harness import LiveServer, shot, sign_up, table_id
from .test_layout import SIZES, assert_no_sideways_scroll
from .test_moments import IN_VIEW
from .test_uno import create_uno_table


@pytest.mark.parametrize("size", ["1366x850", "390x844"])
def test_the_lobby_fits_filters_by_game_and_offers_to_watch(
    page: Page, live: LiveServer, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    tag = size.replace("x", "_")
    # someone else's tables: a UNO match being played and a casino table
    sign_up(page, live, f"host{tag}")
    uno = create_uno_table(page, "Busy table")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.evaluate("location.hash = '#/lobby'")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").wait_for()
    casino = table_id(page)
    page.evaluate("window.mazziere.logout()")
    page.get_by_test_id("auth-submit").wait_for()

    sign_up(page, live, f"guest{tag}")
    rows = page.locator("[data-testid=table-list] .table-row")
    expect(rows.filter(has=page.locator(f"[data-testid=watch-{uno}]"))).to_have_count(1)
    # the create button, without scrolling
    page.evaluate("window.scrollTo(0, 0)")
    submit = page.get_by_test_id("create-submit")
    expect(submit).to_be_visible()
    assert submit.evaluate(IN_VIEW), "the create button is below the fold"
    shot(page, f"lobby-{size}")

    # the list by game
    page.get_by_test_id("filter-casino").click()
    expect(page.locator(f".table-row[data-table='{casino}']")).to_have_count(1)
    expect(page.locator(f".table-row[data-table='{uno}']")).to_have_count(0)
    page.get_by_test_id("filter-uno").click()
    expect(page.locator(f".table-row[data-table='{uno}']")).to_have_count(1)
    expect(page.locator(f".table-row[data-table='{casino}']")).to_have_count(0)
    shot(page, f"lobby-filtered-{size}")
    page.get_by_test_id("filter-all").click()
    expect(page.locator(f".table-row[data-table='{casino}']")).to_have_count(1)

    # watching the match being played, without a seat
    page.get_by_test_id(f"watch-{uno}").click()
    page.wait_for_url(f"**/#/watch/{uno}")
    expect(page.get_by_test_id("watching-banner")).to_be_visible()
    assert_no_sideways_scroll(page, f"page-watch-{size}")
