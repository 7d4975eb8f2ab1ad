"""The pages hold still and fit the screen, on a laptop (1366x850) and a phone held upright
(390x844) or sideways (844x390): no page scrolls sideways (the lobby, the wallet, the hand
history and a replay, the rules, each game's table); nothing on the UNO table moves under the
pointer when the player's turn starts or a refusal is shown; a phone held sideways keeps the
seats around the table off the piles. A screenshot of each case goes to screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .harness import (
    LiveServer,
    Watch,
    hold_moments,
    new_context,
    shot,
    sign_up,
    state_no,
    table_id,
)
from .test_fit import OTHERS, POKER_DECISIONS, put, settle_animations
from .test_uno import create_uno_table

SIZES: dict[str, ViewportSize] = {
    "1366x850": {"width": 1366, "height": 850},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
}

SIDEWAYS = """() => {
    // how far the page reaches past the window's right edge, and what sticks out most
    const width = document.documentElement.clientWidth;
    const reach = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    let worst = null;
    for (const el of document.querySelectorAll('main *, header *')) {
        const r = el.getBoundingClientRect();
        if (!r.width || r.right <= width + 0.5 || (worst && r.right <= worst.right)) continue;
        const cls = typeof el.className === 'string' && el.className ? `.${el.className}` : '';
        worst = {right: Math.round(r.right), what: `${el.tagName.toLowerCase()}${cls}`,
                 testid: el.dataset.testid || null};
    }
    return {width, reach, worst};
}"""


def assert_no_sideways_scroll(page: Page, name: str) -> None:
    """The page is no wider than the window (a screenshot of it is saved first)."""
    page.wait_for_timeout(300)
    settle_animations(page)
    shot(page, name)
    got = page.evaluate(SIDEWAYS)
    assert got["reach"] <= got["width"], (
        f"{name}: the page is {got['reach']} px wide in a {got['width']} px window;"
        f" widest: {got['worst']}"
    )


def pick_game(page: Page, game: str) -> None:
    """Choose the game of the create form (its radio button, as a click on its label does)."""
    radio = page.get_by_test_id(f"game-{game}")
    radio.evaluate("(el) => el.click()")
    expect(radio).to_be_checked()


def visit(page: Page, path: str, ready: str) -> None:
    page.evaluate(f"location.hash = '#{path}'")
    page.locator(ready).first.wait_for()


@pytest.mark.parametrize("size", SIZES)
def test_no_page_scrolls_sideways(
    browser: Browser, live: LiveServer, watch: Watch, size: str
) -> None:
    ctx = new_context(browser, live, watch, viewport=SIZES[size])
    try:
        page = ctx.new_page()
        page.goto(f"{live.base}/#/login")
        page.get_by_test_id("auth-submit").wait_for()
        assert_no_sideways_scroll(page, f"page-login-{size}")
        sign_up(page, live, f"wanda{size.replace('x', '_')}")

        # a table of each game, each with a hand dealt (the wallet and the history fill up)
        create_uno_table(page, "A table whose name is rather long for a phone")
        uno = table_id(page)
        page.locator("[data-action=start]").click()
        page.locator("[data-testid=hand] .card").first.wait_for()
        assert_no_sideways_scroll(page, f"page-uno-{size}")

        visit(page, "/lobby", "[data-testid=game-casino]")
        pick_game(page, "casino")
        page.get_by_test_id("create-submit").click()
        page.get_by_test_id("topup-input").wait_for()
        assert_no_sideways_scroll(page, f"page-casino-topup-{size}")
        page.get_by_test_id("topup-input").fill("20")
        page.locator("[data-action=topup]").click()
        expect(page.locator("[data-action=deal]")).to_be_enabled()
        page.get_by_test_id("stake-input").fill("2")
        page.locator("[data-action=deal]").click()
        page.locator("[data-testid=hand] .card").first.wait_for()
        assert_no_sideways_scroll(page, f"page-casino-{size}")

        visit(page, "/lobby", "[data-testid=game-poker]")
        pick_game(page, "poker")
        page.get_by_test_id("create-submit").click()
        page.locator("[data-action=start]").click()
        page.locator("[data-testid=hand] .card").first.wait_for()
        assert_no_sideways_scroll(page, f"page-poker-{size}")
        # a showdown's moment: both hands face up, named, the way on to the next deal
        hold_moments(page)
        put(page, live, table_id(page), POKER_DECISIONS["see"][0])
        page.locator("[data-testid=actions] [data-action=see]").click()
        page.get_by_test_id("showdown").wait_for()
        assert_no_sideways_scroll(page, f"page-poker-showdown-{size}")

        visit(page, "/lobby", "[data-testid=table-list] .table-row")
        assert_no_sideways_scroll(page, f"page-lobby-{size}")
        pick_game(page, "uno")
        page.locator(".create-form details.options summary").click()
        assert_no_sideways_scroll(page, f"page-lobby-options-{size}")
        visit(page, "/wallet", "[data-testid=ledger]")
        assert_no_sideways_scroll(page, f"page-wallet-{size}")
        visit(page, "/history", "[data-testid=history-table]")
        assert_no_sideways_scroll(page, f"page-history-{size}")
        page.locator("[data-testid^=replay-]").last.click()  # the first hand: the UNO one
        page.get_by_test_id("replay-board").wait_for()
        assert_no_sideways_scroll(page, f"page-replay-{size}")
        for game in ("uno", "casino", "poker"):
            visit(page, f"/rules/{game}", ".rules-body")
            assert_no_sideways_scroll(page, f"page-rules-{game}-{size}")
        visit(page, f"/table/{uno}", "[data-testid=hand] .card")
        assert_no_sideways_scroll(page, f"page-uno-again-{size}")
    finally:
        ctx.close()
    watch.check()


BOXES = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height];
    };
    const cards = document.querySelectorAll('[data-testid=hand] .card');
    return {
        hand: [...cards].map(box),
        discard: [box(document.querySelector('[data-testid=discard]'))],
        'draw pile': [box(document.querySelector('[data-action=draw-pile]'))],
    };
}"""

MY_HAND = "R1,R5,G2,G7,B3,B7,Y3"


Boxes = dict[str, list[list[float]]]
"""Each part's boxes (x, y, width, height): the hand's cards, the discard pile, the draw pile."""


def table_boxes(page: Page) -> Boxes:
    """Where the hand's cards and the two piles are, once nothing moves on its own."""
    page.wait_for_timeout(300)
    settle_animations(page)
    boxes: Boxes = page.evaluate(BOXES)
    return boxes


def assert_same_boxes(name: str, before: Boxes, after: Boxes) -> None:
    """Every box is where it was, within a pixel."""
    moved = []
    for part, was in before.items():
        for i, (a, b) in enumerate(zip(was, after[part], strict=True)):
            if any(abs(x - y) > 1 for x, y in zip(a, b, strict=True)):
                moved.append(f"{part}[{i}] {[round(x) for x in a]} -> {[round(x) for x in b]}")
    assert not moved, f"{name}: moved under the pointer: {moved}"


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES)
def test_uno_table_holds_still_when_the_turn_starts_or_a_move_is_refused(
    page: Page, live: LiveServer, size: str, lang: str
) -> None:
    """A turn starting (the buttons, the countdown and the prompt appear), a +2 to take (its
    badge) and a refusal (its banner) move neither the hand's cards nor the piles: a
    double-click's second click lands where the first did. In both languages (the Italian
    prompts are longer)."""
    page.set_viewport_size(SIZES[size])
    sign_up(page, live, f"tilde{lang}{size.replace('x', '_')}")
    page.locator(f"button[data-lang={lang}]").click()
    tid = create_uno_table(page, "Still")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    # the computer player before this one is to play (it does not move: the position is put
    # on the table, nobody plays it), then it is this player's turn with the same cards
    put(page, live, tid, f"uno turn=3 hands={MY_HAND}{OTHERS} discard=R7 draw=*")
    expect(page.get_by_test_id("thinking")).to_be_visible()
    waiting = table_boxes(page)
    shot(page, f"still-waiting-{size}-{lang}")
    put(page, live, tid, f"uno turn=0 hands={MY_HAND}{OTHERS} discard=R7 draw=*")
    expect(page.locator("[data-testid=actions] [data-action=draw]")).to_be_visible()
    expect(page.get_by_test_id("thinking")).to_have_count(0)
    assert_same_boxes(f"{size} {lang}, the turn starts", waiting, table_boxes(page))
    shot(page, f"still-my-turn-{size}-{lang}")

    # a card not in the hand, sent anyway: refused, in a banner that covers nothing played
    before = table_boxes(page)
    page.evaluate(
        "([t, s]) => window.mazziere.socket.send("
        "{type: 'action', table: t, state_no: s, action: 'B9'})",
        [tid, state_no(page)],
    )
    expect(page.get_by_test_id("table-error")).to_be_visible()
    assert_same_boxes(f"{size} {lang}, a refusal", before, table_boxes(page))
    shot(page, f"still-refused-{size}-{lang}")

    # the turn starts with a +2 to take: its badge appears on the felt
    put(page, live, tid, f"uno turn=3 hands={MY_HAND}{OTHERS} discard=R7 draw=*")
    waiting = table_boxes(page)
    put(page, live, tid, f"uno hands={MY_HAND}{OTHERS} discard=BD2 phase=pending pending=2 draw=*")
    expect(page.locator("[data-testid=actions] [data-action=accept]")).to_be_visible()
    assert_same_boxes(f"{size} {lang}, a +2 to take", waiting, table_boxes(page))
    shot(page, f"still-pending-{size}-{lang}")


OVERLAPS = """() => {
    const box = (el) => el.getBoundingClientRect();
    const cross = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    // the piles and what is read with them: the colour in play, the direction, a +2 to take
    const middle = document.querySelectorAll(
        '[data-action=draw-pile], [data-testid=discard], [data-testid=current-color],'
        + ' [data-testid=direction], .pending-badge');
    const out = [];
    for (const seat of document.querySelectorAll('[data-testid=opponents] .opp'))
        for (const part of middle)
            if (cross(box(seat), box(part)))
                out.push(`${seat.dataset.testid} on ${part.dataset.testid || part.className}`);
    return out;
}"""


@pytest.mark.parametrize("seats", [4, 6])
def test_seats_keep_off_the_piles_on_a_phone_held_sideways(
    page: Page, live: LiveServer, seats: int
) -> None:
    """At 844x390 the seats around the table (each with its name, cards and status, the one
    to play lit) lie clear of the draw pile and the discard pile, and of what is read with them
    (the colour in play, the direction, a +2 to take)."""
    page.set_viewport_size(SIZES["844x390"])
    sign_up(page, live, f"lina{seats}")
    tid = create_uno_table(page, "Sideways", seats=seats)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    others = ["G5,G6,G8", "Y1,Y2,Y4", "B5,B6,B8", "B9,R3,R4", "Y5,Y6,Y9"]
    hands = "/".join([MY_HAND, *others[: seats - 1]])
    for turn in range(seats):  # each seat lit in turn (a lit seat's glow, its countdown)
        pending = "discard=BD2 phase=pending pending=2" if turn % 2 else "discard=R7"
        put(page, live, tid, f"uno turn={turn} hands={hands} {pending} draw=*")
        expect(page.get_by_test_id("opponents").locator(".opp")).to_have_count(seats - 1)
        settle_animations(page)
        assert page.evaluate(OVERLAPS) == [], f"{seats} seats, seat {turn} to play"
    shot(page, f"sideways-{seats}-seats-844x390")


POKER_BOXES = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height];
    };
    const all = (sel) => [...document.querySelectorAll(sel)].map(box);
    return {
        hand: all('[data-testid=hand] .card'),
        'their cards': all('[data-testid=opp-cards] .card'),
        pot: all('[data-testid=pot]'),
    };
}"""

POKER_HANDS = "hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s"


@pytest.mark.parametrize("size", SIZES)
def test_poker_table_holds_still_when_the_turn_starts(
    page: Page, live: LiveServer, size: str
) -> None:
    """The computer to act, then this player (the amount, its quick choices and the buttons
    appear): neither hand's cards nor the pot move."""
    page.set_viewport_size(SIZES[size])
    sign_up(page, live, f"ferma{size.replace('x', '_')}")
    page.get_by_test_id("game-poker").check(force=True)
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    tid = table_id(page)
    put(page, live, tid, f"poker deal=1 first=1 turn=1 {POKER_HANDS}")
    expect(page.get_by_test_id("thinking")).to_be_visible()
    page.wait_for_timeout(300)
    settle_animations(page)
    waiting: Boxes = page.evaluate(POKER_BOXES)
    put(page, live, tid, f"poker deal=1 first=1 turn=0 acts=1 history=1:wait:0 {POKER_HANDS}")
    expect(page.locator("[data-testid=actions] [data-action=open]")).to_be_visible()
    page.wait_for_timeout(300)
    settle_animations(page)
    assert_same_boxes(f"{size} poker, the turn starts", waiting, page.evaluate(POKER_BOXES))
    shot(page, f"still-poker-my-turn-{size}")
