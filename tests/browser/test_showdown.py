"""The poker showdown as a moment: both hands face up in their places and named in the
player's language, the pot's winner said where the pot was, then the next deal, with nothing of
the showdown left over it (nor after a reload): the computer's cards, bankroll and items stay in
view throughout. The player's own hand is named during play."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .harness import LiveServer, hold_moments, shot, sign_up, table_id
from .test_fit import POKER_DECISIONS, put
from .test_layout import SIZES
from .test_words import start_poker

SEE = POKER_DECISIONS["see"][0]
"""Deal 1 after the draw, this player to SEE: two pair, aces and sevens, against a pair of kings."""
DEAL_3 = "poker deal=3 first=1 turn=1 hands=9h,9d,4c,5d,2s/Kh,Kd,Qc,Jd,3s bankrolls=510,480 pot=10"
"""A later deal, the computer to act first."""

COVERED = """() => {
    // the parts of the computer's box that a showdown lying over it would hide
    const cross = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const sd = document.querySelector('[data-testid=showdown]');
    if (!sd || sd.hidden || !sd.offsetParent) return [];
    const box = sd.getBoundingClientRect();
    return [...document.querySelectorAll(
        '[data-testid=opp-cards] .card, [data-testid=opp-bankroll], [data-testid=items] li')]
        .filter((el) => cross(el.getBoundingClientRect(), box))
        .map((el) => el.outerHTML.slice(0, 60));
}"""

MOMENT = f"""() => {{
    const codes = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.code);
    const text = (id) => document.querySelector(`[data-testid=${{id}}]`)?.textContent;
    return {{
        opp: codes('[data-testid=opp-cards] .card'),
        mine: codes('[data-testid=hand] .card'),
        me: text('hand-name-me'),
        them: text('hand-name-them'),
        text: text('showdown'),
        covered: ({COVERED})(),
    }};
}}"""

WORDS = {
    "en": {
        "mine": "Two pair, aces and sevens",
        "me": "Two pair, aces and sevens, eight kicker",
        "them": "Pair of kings, queen, jack and nine kickers",
        "take": "You take the pot",
    },
    "it": {
        "mine": "Doppia coppia di assi e sette",
        "me": "Doppia coppia di assi e sette, kicker otto",
        "them": "Coppia di re, kicker donna, fante e nove",
        "take": "Prendi il piatto",
    },
}


@pytest.mark.parametrize(("size", "lang"), [("1366x850", "en"), ("390x844", "it")])
def test_the_showdown_is_a_moment_and_the_next_deal_comes_clear_of_it(
    page: Page, live: LiveServer, size: str, lang: str
) -> None:
    page.set_viewport_size(SIZES[size])
    tid = start_poker(page, live, f"sid{lang}")
    # the language chosen (on a phone the table has no site bar: the choice is stored)
    page.evaluate("(lang) => localStorage.setItem('mazziere.lang', lang)", lang)
    hold_moments(page)
    page.reload()
    page.locator("[data-testid=hand] .card").first.wait_for()
    words = WORDS[lang]
    put(page, live, tid, SEE)
    # the player's own hand, named during play
    expect(page.get_by_test_id("my-hand-value")).to_have_text(words["mine"])

    # the amount's quick choices: the least, half the pot of 15 (rounded), the pot, the most
    amount = page.get_by_test_id("bet-amount")
    lo, hi = (int(amount.get_attribute(k) or "0") for k in ("min", "max"))
    for key, want in (("min", lo), ("half", 8), ("pot", 15), ("max", hi)):
        page.locator(f"[data-action=bet-{key}]").click()
        expect(amount).to_have_value(str(min(hi, max(lo, want))))
    shot(page, f"poker-bet-presets-{size}-{lang}")

    page.locator("[data-testid=actions] [data-action=see]").click()
    showdown = page.get_by_test_id("showdown")
    expect(showdown).to_be_visible()
    # the moment as it is
    seen = page.evaluate(MOMENT)
    assert seen["opp"] == ["Kh", "Kd", "Qc", "Jd", "9s"], "the computer's hand is not face up"
    assert seen["mine"] == ["Ah", "Ad", "7c", "7d", "8s"], "this player's hand is not shown"
    assert seen["me"] == words["me"]
    assert seen["them"] == words["them"]
    assert words["take"] in seen["text"]
    assert seen["covered"] == [], "the showdown lies over the computer's box"
    shot(page, f"poker-showdown-moment-{size}-{lang}")
    expect(page.get_by_test_id("log")).to_contain_text(words["them"])

    # the next deal, on the button (or by itself after a few seconds)
    page.locator("[data-testid=actions] [data-action=next-deal]").click()
    expect(showdown).to_be_hidden()
    expect(page.locator("[data-testid=opp-cards] .card.back")).to_have_count(5)
    expect(page.get_by_test_id("pot")).to_be_visible()

    # a new deal put on the table, and the page opened again: no showdown comes back
    put(page, live, tid, SEE)
    page.locator("[data-testid=actions] [data-action=see]").click()
    expect(showdown).to_be_visible()
    put(page, live, tid, DEAL_3)
    expect(showdown).to_be_hidden()
    expect(page.locator("[data-testid=opp-cards] .card.back")).to_have_count(5)
    page.reload()
    page.locator("[data-testid=hand] .card").first.wait_for()
    assert table_id(page) == tid
    expect(page.get_by_test_id("opp-bankroll")).to_be_visible()
    expect(showdown).to_be_hidden()
    assert page.evaluate(COVERED) == []
    shot(page, f"poker-next-deal-{size}-{lang}")


def test_poker_tables_speak_italian_in_the_lobby_and_at_the_table(
    page: Page, live: LiveServer
) -> None:
    """A table created without a name is the game's table in the player's language, and the
    computer's default items are named in it, in the create form as at the table."""
    sign_up(page, live, "italo")
    page.locator("button[data-lang=it]").click()
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("poker-preset").select_option("classic")
    expect(page.get_by_test_id("poker-items")).to_have_value(re.compile(r"^cappello, sciarpa"))
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    tid = table_id(page)
    expect(page.locator(".table-title")).to_have_text(f"Tavolo Poker a 5 carte #{tid}")
    expect(page.get_by_test_id("items").locator("li").first).to_contain_text("cappello")
    # the items the form showed in Italian reached the table as the default ones
    assert "items" not in (live.server.tables[tid].config.get("options") or {})
    page.evaluate("location.hash = '#/lobby'")
    row = page.locator(f".table-row[data-table='{tid}'] h3")
    expect(row).to_have_text(f"Tavolo Poker a 5 carte #{tid}")
    shot(page, "lobby-italian-1366x860")
