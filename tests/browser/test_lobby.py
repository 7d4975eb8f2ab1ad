"""A lobby that fits and brings players in: the create button in view without scrolling (a
laptop, a phone), the tables filtered by game, a table being played watched from its row.
At 1366x850 and 390x844, with screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .harness import LiveServer, shot, sign_up, table_id
from .test_fit import put, settle_animations
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


@pytest.mark.parametrize("size", ["1366x850", "390x844"])
def test_a_won_match_offers_a_rematch_and_shows_on_the_players_page_and_boards(
    page: Page, live: LiveServer, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    me = f"vinci{size.replace('x', '_')}"
    sign_up(page, live, me)
    tid = create_uno_table(page, "Rematch")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    put(page, live, tid, "uno hands=R5/G5,G6,G8/Y1,Y2,Y4/B5,B6,B8 discard=R7 draw=*")
    settle_animations(page)
    page.locator("[data-testid=hand] .card[data-code=R5]").dblclick()
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    page.wait_for_timeout(400)  # the confetti in mid-air
    shot(page, f"rematch-offered-{size}")

    # the player's page: the match played and won, its replay a click away
    page.evaluate(f"location.hash = '#/players/{me}'")
    expect(page.get_by_test_id("player-uno")).to_contain_text("1")
    recent = page.get_by_test_id("player-recent")
    expect(recent.locator("tbody tr")).to_have_count(1)
    assert_no_sideways_scroll(page, f"page-player-{size}")
    # the leaderboards: UNO counts matches between people only, poker by the computer's level
    page.evaluate("location.hash = '#/leaderboards'")
    board = page.get_by_test_id("leaderboard")
    expect(board).to_contain_text("No match finished")
    assert_no_sideways_scroll(page, f"page-leaderboards-{size}")
    page.get_by_test_id("board-game-poker").click()
    expect(page.get_by_test_id("leaderboard")).to_be_visible()
    page.get_by_test_id("board-period-all").click()
    expect(page.get_by_test_id("board-period-all")).to_have_attribute("aria-pressed", "true")
    page.evaluate(f"location.hash = '#/players/{me}'")
    page.locator("[data-testid^=player-replay-]").first.click()
    page.get_by_test_id("replay-board").wait_for()

    # the rematch: the same players at a new table
    page.evaluate(f"location.hash = '#/table/{tid}'")
    page.locator("[data-testid=result] [data-action=rematch]").click()
    page.wait_for_function(
        "(tid) => /#\\/table\\/\\d+$/.test(location.hash) && !location.hash.endsWith(`/${tid}`)",
        arg=tid,
    )
    assert table_id(page) != tid

    # quick play: a poker table of one's own, dealt at once
    page.evaluate("location.hash = '#/lobby'")
    page.get_by_test_id("quick-poker").click()
    page.wait_for_url("**/#/table/*")
    start = page.locator("[data-action=start]")
    page.locator("[data-testid=hand] .card").or_(start).first.wait_for()
    shot(page, f"quick-play-poker-{size}")

    # quick play at UNO: a table that starts by itself, said in the log
    page.evaluate("location.hash = '#/lobby'")
    page.get_by_test_id("quick-uno-classic").click()
    page.wait_for_url("**/#/table/*")
    expect(page.get_by_test_id("log")).to_contain_text("computer players take the seats")
    expect(page.get_by_test_id("starts-soon")).to_be_visible()
    shot(page, f"quick-play-uno-{size}")
