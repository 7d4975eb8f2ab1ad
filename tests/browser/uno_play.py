"""Playing UNO (and UNO CASINO) through the page the way a person does: with the mouse
(double-click, select then click the copy on the pile, drag) and the keyboard."""

from __future__ import annotations

import time
from collections import Counter

from playwright.sync_api import Locator, Page

from .harness import state_no, wait_state_after

METHODS = ("dblclick", "select_click", "drag", "keyboard")
"""The seed-004 controls, and the keyboard (Space raises a card, Enter plays it)."""


def wait_settled(page: Page, before: int) -> None:
    """After a gesture: answer a colour question if one comes, then wait for the new state."""
    page.wait_for_function(
        """(before) => {
            const root = document.querySelector('.page-table');
            const err = document.querySelector('[data-testid=table-error]');
            return document.querySelector('.modal') || (root && Number(root.dataset.state) > before)
                || (err && !err.hidden);
        }""",
        arg=before,
    )
    colors = page.locator(".modal [data-color]")
    if colors.count():
        colors.first.click()
    wait_state_after(page, before)


def play_card(page: Page, card: Locator, how: str) -> None:
    """Play one card with one of the controls."""
    if how == "dblclick":
        card.dblclick()
    elif how == "select_click":
        card.click()
        assert "raised" in (card.get_attribute("class") or "")
        page.get_by_test_id("ghost").click()
    elif how == "drag":
        card.click()
        card.drag_to(page.get_by_test_id("ghost"))
    elif how == "keyboard":
        card.focus()
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
    else:
        raise ValueError(how)


def act_once(page: Page, used: Counter[str], uno_called_at: set[int]) -> bool:
    """Do one thing the page offers now; False when there is nothing to do (not our turn)."""
    before = state_no(page)
    colors = page.locator(".color-choices [data-action^='color-']")
    if colors.count():
        colors.first.click()
        wait_state_after(page, before)
        return True
    uno = page.locator("[data-action=uno]")
    if uno.count() and before not in uno_called_at:
        uno_called_at.add(before)
        uno.click()
        wait_state_after(page, before)
        return True
    cards = page.locator("[data-testid=hand] .card.playable")
    if cards.count():
        how = min(METHODS, key=lambda m: used[m])
        play_card(page, cards.first, how)
        used[how] += 1
        wait_settled(page, before)
        return True
    for action in ("accept", "draw", "pass"):
        b = page.locator(f"[data-action={action}]")
        if b.count() and b.first.is_enabled():
            b.first.click()
            wait_state_after(page, before)
            return True
    catch = page.locator("[data-action^='catch-']")
    if catch.count():
        catch.first.click()
        wait_state_after(page, before)
        return True
    return False


def play_until(page: Page, done: Locator, used: Counter[str], budget_s: float = 90) -> None:
    """Take every turn until `done` shows (the result)."""
    uno_called_at: set[int] = set()
    deadline = time.monotonic() + budget_s
    while not done.is_visible():
        assert time.monotonic() < deadline, "the hand did not end in time"
        if not act_once(page, used, uno_called_at):
            page.wait_for_timeout(100)
