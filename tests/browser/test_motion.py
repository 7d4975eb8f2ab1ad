"""Paced and animated. The server paces the computer players (the table's
``bot_delay``, 0.7 s a move by default), so their moves arrive one per update, apart; the
page animates each as it comes (cards travel), lights the seat to act and says a computer
player is thinking; the speed setting has "instant", and a system that asks for reduced
motion gets no animation."""

from __future__ import annotations

import itertools
import statistics
import time
from collections import Counter
from typing import Any

from playwright.sync_api import Browser, Page

from .harness import LiveServer, Watch, new_context, shot, sign_up
from .test_uno import create_uno_table
from .uno_play import act_once

RECORD = """() => {
    window.__moves = [];
    window.__flying = 0;
    window.mazziere.socket.addEventListener('message', (ev) => {
        const m = ev.detail;
        if (m.type !== 'table' || !m.events) return;
        // who moved: a card played, a pass, a draw of one's own (not a penalty another's
        // card gave, which comes in that move's update)
        const own = (e) => e.type === 'played' || e.type === 'passed'
            || (e.type === 'drew' && ['choice', 'no_play', 'turn'].includes(e.reason));
        const seats = [...new Set(m.events.filter(own).map((e) => e.seat))];
        if (seats.length) window.__moves.push({t: performance.now(), seats});
    });
    new MutationObserver((list) => {
        for (const r of list) for (const n of r.addedNodes)
            if (n.classList && n.classList.contains('flying-card')) window.__flying++;
    }).observe(document.body, {childList: true});
}"""


def play_for(page: Page, seconds: float) -> int:
    """Take our turns for a while; returns how many times a computer player to act was lit
    and said it was thinking while we waited."""
    used: Counter[str] = Counter()
    thinking = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not page.get_by_test_id("result").is_visible():
        if page.locator(".opp.turn [data-testid=thinking]").count():
            if not thinking:
                shot(page, "uno-thinking")
            thinking += 1
        if not act_once(page, used, set()):
            page.wait_for_timeout(100)
    return thinking


def start_table(page: Page, live: LiveServer, name: str) -> None:
    sign_up(page, live, name)
    create_uno_table(page, f"{name}'s table")
    page.evaluate(RECORD)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()


def test_computer_moves_arrive_one_at_a_time_and_cards_travel(
    browser: Browser, live: LiveServer, watch: Watch
) -> None:
    ctx = new_context(browser, live, watch, paced=True)
    try:
        page = ctx.new_page()
        start_table(page, live, "marta")
        # while a computer player thinks, its seat is lit and says so
        assert play_for(page, 12) > 0
        moves: list[dict[str, Any]] = page.evaluate("window.__moves")
        bots = [m for m in moves if 0 not in m["seats"]]
        assert len(bots) >= 3, moves
        # one computer player's move per update, after the table's delay: the gaps are taken
        # as the page received the updates, and on a loaded machine one late frame can land
        # right before the next (the server's own pacing, move by move, is checked in
        # tests/server/test_pacing.py), so the typical gap is what the page must show
        assert all(len(m["seats"]) == 1 for m in bots), bots
        gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(moves) if 0 not in b["seats"]]
        assert statistics.median(gaps) >= 550, gaps
        assert page.evaluate("window.__flying") > 0
    finally:
        ctx.close()
    watch.check()


def test_instant_speed_and_reduced_motion_move_nothing(
    browser: Browser, live: LiveServer, watch: Watch
) -> None:
    for name, kw, instant in (("ivo", {}, True), ("rina", {"reduced_motion": "reduce"}, False)):
        ctx = new_context(browser, live, watch, **kw)
        try:
            page = ctx.new_page()
            sign_up(page, live, name)
            create_uno_table(page, f"{name}'s table")
            if instant:
                page.get_by_test_id("table-menu").click()
                page.get_by_test_id("speed").select_option("instant")
            page.evaluate(RECORD)
            page.locator("[data-action=start]").click()
            page.locator("[data-testid=hand] .card").first.wait_for()
            play_for(page, 6)
            assert len(page.evaluate("window.__moves")) >= 2
            assert page.evaluate("window.__flying") == 0
        finally:
            ctx.close()
    watch.check()
