"""A UNO CASINO round through the page: top up a session, a stake within the limits,
the multiplier and the bank's cards, the result and the payout, then the session closed and
every movement (top-up, stake, payout, closing) in the wallet page."""

from __future__ import annotations

import itertools
import re
import statistics
import time
from collections import Counter
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .harness import LiveServer, Watch, new_context, shot, sign_up, state_no, wait_state_after
from .test_motion import RECORD
from .uno_play import act_once, play_until

EUROS = re.compile(r"[-−]?€?\s?([\d.,]+)\s?€?")


def cents(text: str) -> int:
    """'€1,004.50' or '1.004,50 €' -> 100450 (the page shows euros)."""
    m = EUROS.search(text.replace("\u00a0", " "))
    assert m, text
    digits = m.group(1)
    whole, _, frac = digits.replace(",", ".").rpartition(".")
    return int(whole.replace(".", "") or "0") * 100 + int(frac)


def test_casino_round_settles_into_the_wallet(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "carla")
    start_balance = cents(page.get_by_test_id("balance").inner_text())
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("table-name").fill("Carla's casino")
    page.get_by_test_id("min-stake").fill("0.50")
    page.get_by_test_id("max-stake").fill("20.00")
    page.get_by_test_id("decision-seconds").fill("60")
    page.get_by_test_id("create-submit").click()

    # no session credit yet: the page asks for a top-up first
    session = page.get_by_test_id("session")
    expect(session).to_contain_text("Session credit")
    expect(page.locator("[data-action=deal]")).to_be_disabled()
    expect(page.get_by_test_id("multiplier")).to_contain_text("x3")
    expect(session).to_contain_text("60 s")
    expect(session).to_contain_text("20 minutes")
    before = state_no(page)
    page.get_by_test_id("topup-input").fill("50")
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(r"50[.,]00"))

    # stakes outside the table's limits are refused on the page, in words
    page.get_by_test_id("stake-input").fill("25")
    page.locator("[data-action=deal]").click()
    expect(page.get_by_test_id("stake-error")).to_contain_text("maximum stake")
    page.get_by_test_id("stake-input").fill("0.10")
    page.locator("[data-action=deal]").click()
    expect(page.get_by_test_id("stake-error")).to_contain_text("minimum stake")
    shot(page, "casino-session")

    # a stake of 5 euros: the round is dealt
    page.get_by_test_id("stake-input").fill("5")
    before = state_no(page)
    page.locator("[data-action=deal]").click()
    wait_state_after(page, before)
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(r"45[.,]00"))
    expect(page.get_by_test_id("bank-count")).to_contain_text("the bank holds")
    expect(page.get_by_test_id("draws-left")).to_be_visible()
    expect(page.locator("[data-testid=hand] .card")).not_to_have_count(0)
    shot(page, "casino-table")

    # play the round to its end through the page
    result = page.get_by_test_id("casino-result")
    play_until(page, result, Counter(), budget_s=60)
    won = "You win" in result.inner_text()
    payout = int(result.get_attribute("data-payout") or "0")
    if won:
        multiplier = int(result.get_attribute("data-multiplier") or "0")
        assert payout == 500 * multiplier
        expect(result).to_contain_text(f"{money_text(payout)} paid (stake €5.00)")
    else:
        assert payout == 0
        expect(result).to_contain_text("Stake of €5.00 lost")
    expect(page.get_by_test_id("credit")).to_have_text(re.compile(money_re(4500 + payout)))
    shot(page, "casino-result")

    # close the session: what is left goes back to the wallet
    page.locator("[data-action=leave]").click()
    page.locator("[data-action=confirm-leave]").click()
    farewell = page.get_by_test_id("farewell")
    expect(farewell).to_contain_text("Session closed")
    expect(farewell).to_contain_text(money_text(4500 + payout))

    # the wallet shows every movement of the round and the balance after it
    page.get_by_test_id("nav-wallet").click()
    ledger = page.get_by_test_id("ledger")
    ledger.wait_for()
    expect(page.get_by_test_id("wallet-balance")).to_have_text(
        re.compile(money_re(start_balance - 500 + payout))
    )
    kinds = [r.get_attribute("data-kind") for r in ledger.locator("tbody tr").all()]
    for kind in ("demo_credit", "topup", "stake", "session_close"):
        assert kind in kinds, kinds
    assert ("payout" in kinds) == won
    stake_row = ledger.locator("tr[data-kind=stake]")
    expect(stake_row).to_contain_text("Stake")
    expect(stake_row).to_contain_text(re.compile(r"−\s?€?5[.,]00"))
    expect(ledger.locator("tr[data-kind=session_close][data-book^=wallet]")).to_contain_text(
        re.compile(money_re(4500 + payout))
    )
    shot(page, "wallet")


BANK_TURN_LINE = """() => document.querySelector('[data-testid=bank] [data-testid=thinking]')
    ? document.querySelector('[data-testid=turn-line]').textContent.trim() : null"""
"""The turn line while the bank is shown thinking (``null`` when it is not)."""


def test_the_bank_thinks_and_its_moves_arrive_one_at_a_time(
    browser: Browser, live: LiveServer, watch: Watch
) -> None:
    """At a paced table the bank is lit and "thinking" while it is to move, the
    player is told the bank is playing, and each bank move arrives in an update of its own,
    after the table's delay; the round still ends with its result and payout."""
    ctx = new_context(browser, live, watch, paced=True)
    try:
        page = ctx.new_page()
        sign_up(page, live, "bruno")
        page.get_by_test_id("game-casino").check(force=True)
        page.get_by_test_id("table-name").fill("Bruno's casino")
        page.get_by_test_id("create-submit").click()
        before = state_no(page)
        page.get_by_test_id("topup-input").fill("50")
        page.locator("[data-action=topup]").click()
        wait_state_after(page, before)
        page.evaluate(RECORD)
        result = page.get_by_test_id("casino-result")
        thinking = 0
        used: Counter[str] = Counter()
        for _ in range(6):
            page.get_by_test_id("stake-input").fill("1")
            before = state_no(page)
            page.locator("[data-action=deal]").click()
            wait_state_after(page, before)
            deadline = time.monotonic() + 60
            while not result.is_visible():
                assert time.monotonic() < deadline, "the round did not end in time"
                # what one render shows, read at once: the bank thinking, and the turn line
                # (read in two calls, the next update could land between them under load)
                line = page.evaluate(BANK_TURN_LINE)
                if line is not None:
                    assert line == "The bank is playing…"
                    if not thinking:
                        shot(page, "casino-bank-thinking")
                    thinking += 1
                if not act_once(page, used, set()):
                    page.wait_for_timeout(100)
            moves: list[dict[str, Any]] = page.evaluate("window.__moves")
            if thinking and len([m for m in moves if m["seats"] == [1]]) >= 2:
                break
        assert thinking > 0
        moves = page.evaluate("window.__moves")
        # the player's update never holds a bank move; each bank move comes alone
        assert all(m["seats"] in ([0], [1]) for m in moves), moves
        banks = [m for m in moves if m["seats"] == [1]]
        assert len(banks) >= 2, moves
        # the gaps as the page received the updates: on a loaded machine one late frame can
        # land right before the next, so the typical gap is what the page must show (the
        # server's pacing, move by move, is checked in tests/server/test_pacing.py)
        gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(moves) if b["seats"] == [1]]
        assert statistics.median(gaps) >= 550, gaps
    finally:
        ctx.close()
    watch.check()


def money_text(c: int) -> str:
    return f"€{c // 100:,}.{c % 100:02d}"


def money_re(c: int) -> str:
    """A pattern for an amount of cents as either language writes it (1,004.50 / 1.004,50)."""
    whole = f"{c // 100:,}".replace(",", "[.,]?")
    return f"{whole}[.,]{c % 100:02d}"


def test_time_out_note_names_the_move_in_words(page: Page, live: LiveServer) -> None:
    """When the decision time runs out the log says, by name, what the server played."""
    sign_up(page, live, "tina")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("decision-seconds").fill("1")
    page.get_by_test_id("create-submit").click()
    before = state_no(page)
    page.get_by_test_id("topup-input").fill("10")
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)
    page.get_by_test_id("stake-input").fill("1")
    page.locator("[data-action=deal]").click()
    note = page.get_by_test_id("log").locator(".note-timed_out").first
    expect(note).to_contain_text("Time ran out: the server plays for you — ", timeout=15_000)
    expect(note).to_contain_text(re.compile(r"— (plays|draws|passes|calls UNO|chooses)"))
    expect(note).not_to_contain_text("timeout")
    # one line per time-out: the moves it made are not told again beside the note
    log = page.get_by_test_id("log")
    assert (
        log.locator("li", has_text="Time ran out").count() == log.locator(".note-timed_out").count()
    )
    expect(log.locator(".ev-auto_played")).to_have_count(0)
    shot(page, "casino-time-out")
