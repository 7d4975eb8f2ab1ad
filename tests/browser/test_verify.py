"""Rounds anyone can verify, in the browser (docs/verify.md): the table shows the hand's seed
commitment while it runs and its seed, checked against the commitment, once it is over; the
history page's Verify button shows the server's replay of the hand (every card dealt) in
English and Italian, and the hand's file downloads. At 1366x850 and 390x844."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .harness import LiveServer, shot, sign_up, state_no, wait_state_after
from .test_layout import SIZES
from .uno_play import play_until

HISTORY = """async () => (await (await import('/js/api.js')).get('/api/history'))[0]"""


@pytest.mark.parametrize("size", ["1366x850", "390x844"])
def test_the_table_shows_the_commitment_then_the_seed_and_the_history_verifies_the_hand(
    page: Page, live: LiveServer, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    sign_up(page, live, f"vera{size.replace('x', '_')}")
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("create-submit").click()
    before = state_no(page)
    page.get_by_test_id("topup-input").fill("50")
    page.locator("[data-action=topup]").click()
    wait_state_after(page, before)
    page.get_by_test_id("stake-input").fill("5")
    before = state_no(page)
    page.locator("[data-action=deal]").click()
    wait_state_after(page, before)

    # the hand runs: its commitment, never its seed
    line = page.get_by_test_id("fairness")
    expect(line).to_have_attribute("data-state", "committed")
    hand = page.evaluate(HISTORY)
    assert hand["status"] == "playing" and "seed" not in hand
    expect(page.get_by_test_id("fair-commitment")).to_have_attribute(
        "data-full", hand["commitment"]
    )
    expect(line).to_contain_text(f"Hand #{hand['hand']}")
    shot(page, f"verify-table-commitment-{size}")

    # the hand is over: its seed, whose SHA-256 (in this browser) is the commitment
    play_until(page, page.get_by_test_id("casino-result"), Counter(), budget_s=60)
    expect(line).to_have_attribute("data-state", "revealed")
    expect(page.get_by_test_id("fair-check")).to_contain_text("matches the commitment")
    seed = page.get_by_test_id("fair-seed").get_attribute("data-full") or ""
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"verify-table-seed-{size}")

    # the history page: Verify shows the replay's outcome and every card dealt
    page.evaluate("location.hash = '#/history'")
    page.get_by_test_id(f"verify-{hand['hand']}").click()
    outcome = page.get_by_test_id("verify-outcome")
    expect(outcome).to_have_attribute("data-ok", "true")
    expect(page.get_by_test_id("verify-headline")).to_contain_text("This hand is verified")
    expect(page.get_by_test_id("verify-seed")).to_have_text(seed)
    expect(page.get_by_test_id("verify-browser")).to_contain_text("matches the commitment")
    page.locator(".verify-cards summary").click()
    cards = page.get_by_test_id("verify-cards").locator("li")
    expect(cards.first).to_contain_text("deal")
    assert cards.count() >= 3  # the player's cards, the bank's, the card turned
    expect(cards.first).to_contain_text("You")
    shot(page, f"verify-history-{size}")

    # the hand's file, for `mazziere verify`
    with page.expect_download() as got:
        page.locator("[data-action=download-hand]").click()
    download = got.value
    assert download.suggested_filename == f"mazziere-hand-{hand['hand']}.json"
    record = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert record["seed"] == seed and record["commitment"] == hand["commitment"]
    page.locator(".modal-choices button").click()

    # in Italian, the same outcome in its words
    page.evaluate("localStorage.setItem('mazziere.lang', 'it')")
    page.reload()
    page.get_by_test_id(f"verify-{hand['hand']}").click()
    expect(page.get_by_test_id("verify-headline")).to_contain_text("Mano verificata")
    expect(page.get_by_test_id("verify-browser")).to_contain_text("corrisponde all’impegno")
    shot(page, f"verify-history-it-{size}")
    page.locator(".modal-choices button").click()
    page.evaluate("localStorage.setItem('mazziere.lang', 'en')")
