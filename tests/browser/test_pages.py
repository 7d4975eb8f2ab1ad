"""The rules pages (the casino's states the measured RTP), the language switch, and the
keyboard: every page in Italian and English from one dictionary per language."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .harness import LiveServer, shot, sign_up

RTP = (
    "RTP measured: 96.14% (95% confidence interval 96.11%-96.16%, 100,000,000 simulated rounds "
    "with the published strategies)"
)


def test_rules_pages_and_the_casino_rtp(page: Page, live: LiveServer) -> None:
    page.goto(f"{live.base}/#/rules/casino")
    expect(page.get_by_test_id("rtp")).to_have_text(RTP)
    expect(page.locator("h1")).to_have_text("UNO CASINO — the rules")
    expect(page.locator(".rules-section")).not_to_have_count(0)
    shot(page, "rules-casino")
    page.get_by_role("link", name="Draw poker").click()
    expect(page.locator(".rules-body")).to_contain_text("SOSTITUISCI / REPLACE")
    page.locator("[data-lang=it]").click()
    expect(page.locator("h1")).to_have_text("Poker a cinque carte — le regole")
    page.locator(".rules-tabs a").first.click()
    expect(page.locator("h1")).to_have_text("UNO — le regole")
    expect(page.locator(".rules-body")).to_contain_text("Doppio clic")


def test_language_switch_and_keyboard(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "gina")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_contain_text("Lobby")
    page.locator("[data-lang=it]").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    nav_it = page.get_by_role("navigation", name="Principale")
    expect(nav_it).to_contain_text("Sala")
    expect(nav_it).to_contain_text("Portafoglio")
    expect(page.get_by_test_id("create-submit")).to_have_text("Crea e siediti")
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(r"1\.?000,00\s*€"))
    shot(page, "lobby-it")
    # the choice is kept across a reload
    page.reload()
    expect(page.get_by_test_id("create-submit")).to_have_text("Crea e siediti")

    # the create form is usable from the keyboard alone
    page.get_by_test_id("table-name").focus()
    page.keyboard.type("Tavolo di Gina")
    page.get_by_test_id("create-submit").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-action=start]")).to_be_visible()
    page.locator("[data-action=start]").focus()
    page.keyboard.press("Enter")
    first = page.locator("[data-testid=hand] .card").first
    first.wait_for()
    expect(page.get_by_test_id("turn-line")).to_contain_text("Tocca a te")
    # cards are buttons: Tab reaches them, arrows move between them
    first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.index")
    assert focused == "1"
    page.locator("[data-lang=en]").click()
    expect(page.get_by_test_id("turn-line")).to_contain_text("Your turn")
