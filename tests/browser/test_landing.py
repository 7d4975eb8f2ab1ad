"""Cards land before results: the card played last travels to the pile and only then does the
result of the match come up, so nothing flies across it; the pile keeps its card until the
travelling one lands on it. Checked frame by frame while a card is in flight."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .harness import LiveServer, shot, sign_up
from .test_fit import put, settle_animations
from .test_uno import create_uno_table

FRAMES = """() => {
    // one sample per frame while a card is in flight: the pile's card, the result in sight
    window.__frames = [];
    const sample = () => {
        if (document.querySelector('.flying-card')) {
            const result = document.querySelector('[data-testid=result]');
            window.__frames.push({
                pile: document.querySelector('[data-testid=discard] .card')?.dataset.code,
                result: Boolean(result && !result.hidden && result.offsetParent),
            });
        }
        requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
}"""


def test_the_last_card_lands_before_the_result_and_the_pile_waits_for_it(
    page: Page, live: LiveServer
) -> None:
    sign_up(page, live, "lando")
    tid = create_uno_table(page, "Landing")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    # this player's last card, a red 5 on a red 7: playing it ends the (single-hand) match
    put(page, live, tid, "uno hands=R5/G5,G6,G8/Y1,Y2,Y4/B5,B6,B8 discard=R7 draw=*")
    settle_animations(page)
    page.evaluate(FRAMES)
    page.locator("[data-testid=hand] .card[data-code=R5]").dblclick()
    expect(page.get_by_test_id("result")).to_be_visible()
    frames: list[dict[str, Any]] = page.evaluate("window.__frames")
    assert frames, "no card travelled to the pile"
    assert not [f for f in frames if f["result"]], "the result came up under a card in flight"
    assert frames[0]["pile"] == "R7", f"the pile showed {frames[0]['pile']} before the card landed"
    expect(page.locator("[data-testid=discard] .card")).to_have_attribute("data-code", "R5")
    shot(page, "landing-result-1366x860")
