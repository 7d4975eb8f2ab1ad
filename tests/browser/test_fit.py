"""The table fits every screen. At five window sizes, for each game and each
decision (play, choose a colour, a pending +2, a +4 challenge, a drawn card, UNO!, the casino
stake and its round, the poker bet, draw and showdown, the end of a game), the player's hand,
the pile or the pot and every button of the decision are inside the window without scrolling.
The table is put in each decision with a position (tests/browser/positions.py): the page draws
the update the server builds for it. A screenshot of each case goes to screenshots/."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .harness import LiveServer, hold_moments, shot, sign_up, table_id, wait_state_after
from .positions import put_position
from .test_uno import create_uno_table

VIEWPORTS: dict[str, ViewportSize] = {
    "1366x850": {"width": 1366, "height": 850},
    "1280x720": {"width": 1280, "height": 720},
    "1920x1080": {"width": 1920, "height": 1080},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
}

OTHERS = "/G5,G6,G8,G9,B1,B2,R2/Y1,Y2,Y4,Y5,Y6,Y9,B4/B5,B6,B8,B9,R3,R4,G3"
"""The three computer players' hands in the UNO positions below (seven cards each)."""
UNO_DECISIONS: dict[str, tuple[str, list[str]]] = {
    # name: (position, the actions the decision must offer)
    "play": (f"uno hands=R1,R5,R9,G2,G7,B3,B7,Y3,Y8,YS,W,W4{OTHERS} discard=R7 draw=*", ["draw"]),
    "first-colour": (
        f"uno hands=R1,R5,G2,G7,B3,B7,Y3{OTHERS} discard=W color=- phase=color draw=*",
        ["color-R", "color-Y", "color-G", "color-B"],
    ),
    "pending-draw2": (
        f"uno hands=R1,R5,G2,G7,B3,B7,Y3{OTHERS} discard=BD2 phase=pending pending=2 draw=*",
        ["accept"],
    ),
    "challenge": (
        f"uno hands=R1,R5,G2,G7,B3,B7,Y3{OTHERS} discard=W4,R7 draw=* color=G phase=pending "
        "pending=4 stackw4=1 stackcolor=R w4by=3 w4legal=0 turns=1 totalturns=1 clock=1",
        ["challenge", "accept"],
    ),
    "drawn": (
        f"uno hands=R1,R5,G2,G7,B3,B7,Y3,R8{OTHERS} discard=R7 phase=drawn drawn=R8 "
        "lastdraw=0,-1,-1,-1 clock=1 draw=*",
        [],  # classic: the drawn card that can be played must be
    ),
    "uno": (f"uno hands=R1,G2{OTHERS} discard=R7 draw=*", ["uno", "draw"]),
}

CASINO_PLAY = (
    "casino stake=200 mult=2 turns=1 uno hands=R1,R5,G2,G7,B3,B7,Y3,W,B9/B5,B6,B8 discard=R7 "
    "draw=* turns=1 totalturns=1 clock=1"
)
CASINO_OVER = (
    "casino stake=200 mult=2 turns=5 result=player:2:200:400:player_out:5 uno hands=-/B5,B6 "
    "discard=R7 phase=over result=0:0,1:0,0:-:-:out turns=5 totalturns=5 clock=5"
)
POKER_HANDS = "poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s"
POKER_DECISIONS: dict[str, tuple[str, list[str]]] = {
    "bet": (POKER_HANDS, ["open", "wait", "fold"]),
    "draw": (f"{POKER_HANDS} phase=draw first=0 acts=2 history=0:wait:0,1:replace:0", ["draw"]),
    "see": (
        "poker hands=Ah,Ad,7c,7d,8s/Kh,Kd,Qc,Jd,9s deck=Qh,Qd,* discards=8h,9h,Td phase=bet2 "
        "first=1 turn=0 drawn=1,2 pot=15 bankrolls=495,490 committed=0,5 acts=1 "
        "history=1:wait:0,0:replace:0,1:draw:1,0:draw:2,1:open:5",
        ["raise", "see", "fold"],
    ),
}
POKER_OVER = f"{POKER_HANDS} phase=over pot=0 bankrolls=3,997 result=1:seat_0_cannot_pay_the_ante"


SHOWN_BOX = """(el) => {
    // the element's box, and the part of it no scrolling or clipping ancestor hides
    const r = el.getBoundingClientRect();
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
            const c = a.getBoundingClientRect();
            [l, t, rt, b] = [Math.max(l, c.left), Math.max(t, c.top), Math.min(rt, c.right),
                             Math.min(b, c.bottom)];
        }
    }
    return {x: r.left, y: r.top, w: r.width, h: r.height,
            shown: Math.max(0, rt - l) * Math.max(0, b - t)};
}"""


ANIMATIONS_AT_REST = """() => document.getAnimations().filter(
    (a) => a.playState === 'running' && a.effect
        && a.effect.getComputedTiming().iterations !== Infinity).length === 0"""


def settle_animations(page: Page, timeout_ms: int = 4000) -> None:
    """Wait until no finite animation runs (cards in flight, the deal), so the screenshot shows
    the table at rest; endless ones (the lit seat's glow) are left running."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(ANIMATIONS_AT_REST, timeout=timeout_ms)


def assert_fits(page: Page, name: str, parts: dict[str, Locator]) -> None:
    """Every element of ``parts`` (each locator: all its matches) lies inside the window with
    the page scrolled to the top, and no ancestor that clips (a felt, a panel) cuts any of it
    off; a screenshot of the case is saved first."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(350)  # transitions (a raised card, a panel) come to rest
    settle_animations(page)
    size = page.viewport_size
    assert size is not None
    shot(page, f"fit-{name}")
    outside = []
    for label, loc in parts.items():
        n = loc.count()
        assert n, f"{name}: no {label} on the page"
        for i in range(n):
            box = loc.nth(i).evaluate(SHOWN_BOX)
            x, y, w, h = box["x"], box["y"], box["w"], box["h"]
            where = f"{label}[{i}] at x={x:.0f} y={y:.0f} w={w:.0f} h={h:.0f}"
            if not w or not h:
                outside.append(f"{label}[{i}] not shown")
            elif min(x, y) < -0.5 or x + w > size["width"] + 0.5 or y + h > size["height"] + 0.5:
                outside.append(where)
            elif box["shown"] < w * h * 0.98:
                outside.append(f"{where}, partly hidden by an ancestor")
    size_text = f"{size['width']}x{size['height']}"
    assert not outside, f"{name}: outside the {size_text} window: {outside}"


def new_player(page: Page, live: LiveServer, name: str, viewport: ViewportSize) -> None:
    page.set_viewport_size(viewport)
    sign_up(page, live, name)


def put(page: Page, live: LiveServer, table: int, text: str) -> None:
    page.keyboard.press("Escape")  # no dialog left open from the case before
    state = put_position(live, table, text)
    wait_state_after(page, state - 1)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_uno_decisions_fit_the_window(page: Page, live: LiveServer, size: str) -> None:
    new_player(page, live, f"ugo{size.replace('x', '_')}", VIEWPORTS[size])
    create_uno_table(page, "Fit")
    tid = table_id(page)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    common = {
        "hand": page.locator("[data-testid=hand] .card"),
        "discard": page.get_by_test_id("discard"),
        "draw pile": page.locator("[data-action=draw-pile]"),
        "opponents": page.locator("[data-testid=opponents] .opp"),
    }
    for case, (position, actions) in UNO_DECISIONS.items():
        put(page, live, tid, position)
        buttons = page.locator("[data-testid=actions] button")
        for a in actions:
            expect(page.locator(f"[data-testid=actions] [data-action={a}]")).to_be_visible()
        parts = {**common, "buttons": buttons} if actions else common
        assert_fits(page, f"uno-{case}-{size}", parts)
    # a Wild played from the hand asks for its colour in a dialog
    put(page, live, tid, UNO_DECISIONS["play"][0])
    page.locator("[data-testid=hand] .card[data-code=W]").dblclick()
    colours = page.locator(".modal [data-color]")
    expect(colours).to_have_count(4)
    assert_fits(page, f"uno-wild-colour-{size}", {"colours": colours})
    page.keyboard.press("Escape")
    expect(colours).to_have_count(0)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_casino_decisions_fit_the_window(page: Page, live: LiveServer, size: str) -> None:
    new_player(page, live, f"cleo{size.replace('x', '_')}", VIEWPORTS[size])
    page.get_by_test_id("game-casino").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("topup-input").wait_for()
    tid = table_id(page)
    stake = {
        "stake": page.get_by_test_id("stake-input"),
        "deal": page.locator("[data-action=deal]"),
    }
    topup = {
        "top-up": page.get_by_test_id("topup-input"),
        "add": page.locator("[data-action=topup]"),
    }
    assert_fits(page, f"casino-topup-{size}", topup)
    page.get_by_test_id("topup-input").fill("20")
    page.locator("[data-action=topup]").click()
    expect(page.locator("[data-action=deal]")).to_be_enabled()
    assert_fits(page, f"casino-stake-{size}", stake)
    page.get_by_test_id("stake-input").fill("2")
    page.locator("[data-action=deal]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()

    put(page, live, tid, CASINO_PLAY)
    expect(page.locator("[data-testid=actions] [data-action=draw]")).to_be_visible()
    assert_fits(
        page,
        f"casino-play-{size}",
        {
            "hand": page.locator("[data-testid=hand] .card"),
            "discard": page.get_by_test_id("discard"),
            "draw pile": page.locator("[data-action=draw-pile]"),
            "multiplier": page.get_by_test_id("multiplier"),
            "buttons": page.locator("[data-testid=actions] button"),
        },
    )
    put(page, live, tid, CASINO_OVER)
    result = page.get_by_test_id("casino-result")
    expect(result).to_be_visible()
    expect(page.locator("[data-action=deal]")).to_contain_text("again")
    assert_fits(page, f"casino-again-{size}", {"result": result, **stake})


@pytest.mark.parametrize("size", VIEWPORTS)
def test_poker_decisions_fit_the_window(page: Page, live: LiveServer, size: str) -> None:
    new_player(page, live, f"pia{size.replace('x', '_')}", VIEWPORTS[size])
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("poker-preset").select_option("classic")
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/#/table/*")
    tid = table_id(page)
    start = page.locator("[data-action=start]")
    start.wait_for()
    start.click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    common = {"hand": page.locator("[data-testid=hand] .card"), "pot": page.get_by_test_id("pot")}
    for case, (position, actions) in POKER_DECISIONS.items():
        put(page, live, tid, position)
        for a in actions:
            expect(page.locator(f"[data-testid=actions] [data-action={a}]")).to_be_visible()
        parts = {**common, "buttons": page.locator("[data-testid=actions] button")}
        if case != "draw":
            parts["amount"] = page.get_by_test_id("bet-amount")
        else:  # two cards marked for the draw
            page.locator("[data-testid=hand] button.card").nth(3).click()
            page.locator("[data-testid=hand] button.card").nth(4).click()
        assert_fits(page, f"poker-{case}-{size}", parts)
    # SEE: the showdown in the pot's place, both hands face up, the way on to the next deal
    hold_moments(page)
    page.locator("[data-testid=actions] [data-action=see]").click()
    showdown = page.get_by_test_id("showdown")
    expect(showdown).to_be_visible()
    assert_fits(
        page,
        f"poker-showdown-{size}",
        {
            "hand": common["hand"],
            "their hand": page.locator("[data-testid=opp-cards] .card"),
            "showdown": showdown,
            "next deal": page.locator("[data-testid=actions] [data-action=next-deal]"),
        },
    )
    put(page, live, tid, POKER_OVER)
    over = page.locator("[data-testid=result] button")
    expect(over).to_be_visible()
    # the end of the game in words, naming no seat number
    expect(page.get_by_test_id("result")).to_contain_text("you cannot pay the ante")
    assert_fits(page, f"poker-over-{size}", {"new game": over})
