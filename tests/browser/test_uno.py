"""Sign up, create a UNO table with three computer players and play a hand to its end
through the page, with double-click, select-then-click and drag (and the keyboard); illegal
moves are not offered, and one sent anyway is refused in words; the hand can be replayed."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Page, expect

from .harness import PHONE, LiveServer, shot, sign_up, state_no, table_id, wait_state_after
from .uno_play import METHODS, act_once, play_until

ALL_CARDS = [c + r for c in "RYGB" for r in [*"0123456789", "S", "R", "D2"]] + ["W", "W4"]


def create_uno_table(page: Page, name: str, seats: int = 4) -> int:
    """The lobby's form: UNO, classic preset, single hand, greedy computer players."""
    page.get_by_test_id("game-uno").check(force=True)
    page.get_by_test_id("table-name").fill(name)
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("seats").fill(str(seats))
    page.get_by_test_id("bots").select_option("greedy")
    page.get_by_test_id("match").select_option("single_hand")
    page.get_by_test_id("decision-seconds").fill("120")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("waiting").wait_for()
    return table_id(page)


def test_uno_hand_played_through_the_page(page: Page, live: LiveServer) -> None:
    sign_up(page, live, "anna")
    shot(page, "lobby")
    tid = create_uno_table(page, "Anna's table")
    expect(page.get_by_test_id("waiting")).to_contain_text("Waiting to start")
    shot(page, "uno-waiting")
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()

    # the table as the seed says: others with counts and names, pile, colour, direction, turn
    expect(page.get_by_test_id("opponents").locator(".opp")).to_have_count(3)
    for s in (1, 2, 3):
        expect(page.get_by_test_id(f"opp-{s}")).to_contain_text(f"Bot {s}")
        expect(page.get_by_test_id(f"count-{s}")).to_contain_text("cards")
    expect(page.get_by_test_id("discard").locator(".card")).to_have_count(1)
    expect(page.get_by_test_id("current-color")).not_to_have_text("")
    expect(page.get_by_test_id("direction")).to_contain_text("clockwise")
    expect(page.get_by_test_id("match-status")).to_contain_text("single hand")
    expect(page.get_by_test_id("log").locator("li").first).to_be_visible()

    # our turn: the countdown runs; cards with no legal action are dimmed and inert
    turn = page.get_by_test_id("turn-line")
    expect(turn).to_contain_text("Your turn")
    expect(page.locator(".me-bar .countdown")).to_be_visible()
    dim = page.locator("[data-testid=hand] .card.dim")
    if dim.count():
        before = state_no(page)
        expect(dim.first).to_have_attribute("aria-disabled", "true")
        dim.first.dblclick(force=True)  # a person can still double-click it
        page.wait_for_timeout(400)
        assert state_no(page) == before, "a dimmed card was played"
        assert "raised" not in (dim.first.get_attribute("class") or "")
        expect(page.get_by_test_id("ghost")).to_be_hidden()

    # an illegal move sent anyway (a card not in the hand) is refused, in words
    hand = [c.get_attribute("data-code") for c in page.locator("[data-testid=hand] .card").all()]
    missing = next(c for c in ALL_CARDS if c not in hand)
    before = state_no(page)
    page.evaluate(
        "([t, s, a]) => window.mazziere.socket.send("
        "{type: 'action', table: t, state_no: s, action: a})",
        [tid, before, missing],
    )
    err = page.get_by_test_id("table-error")
    expect(err).to_be_visible()
    expect(err).to_contain_text("not in your hand")
    wait_state_after(page, before - 1)

    # a raised card shows its translucent copy on the pile; clicking it again lowers it
    playable = page.locator("[data-testid=hand] .card.playable")
    if playable.count():
        playable.first.click()
        expect(page.get_by_test_id("ghost")).to_be_visible()
        shot(page, "uno-table")
        playable.first.click()
        expect(page.get_by_test_id("ghost")).to_be_hidden()

    # play to the end of the hand; another if the first ended before every control was used
    used: Counter[str] = Counter()
    result = page.get_by_test_id("result")
    play_until(page, result, used)
    while any(used[m] == 0 for m in METHODS):
        shot(page, "uno-result")
        page.locator("[data-action=play-again]").click()
        expect(result).to_be_hidden()
        play_until(page, result, used)
    assert all(used[m] >= 1 for m in METHODS), used
    expect(result).to_contain_text("Match over")
    expect(result.locator(".ranking li")).to_have_count(4)
    shot(page, "uno-result")

    # the hand history lists it, and the replay steps through it
    page.get_by_role("link", name="History").first.click()
    page.get_by_test_id("history-table").wait_for()
    page.locator("[data-testid^=replay-]").first.click()
    counter = page.get_by_test_id("replay-counter")
    expect(counter).to_contain_text("step")
    total = int((counter.text_content() or "").split()[-1])
    assert total > 3
    page.locator("[data-action=prev]").click()
    expect(counter).to_have_text(f"step {total - 1} of {total}")
    page.locator("[data-action=next]").click()
    expect(page.get_by_test_id("replay-result")).not_to_be_empty()
    # the last step: the cards the page worked out are the ones revealed at the end
    board = page.get_by_test_id("replay-board")
    revealed = board.locator(".revealed [data-seat='0']").get_attribute("data-cards") or ""
    left = [c.get_attribute("data-code") or "" for c in board.locator(".replay-hand .card").all()]
    assert sorted(left) == sorted(c for c in revealed.split(",") if c)
    shot(page, "history-replay")
    # the first step: the seven cards dealt
    page.locator("[data-action=first]").click()
    expect(counter).to_have_text(f"step 0 of {total}")
    expect(page.get_by_test_id("replay-hand").locator(".card")).to_have_count(7)


def test_uno_table_on_a_phone(page: Page, live: LiveServer) -> None:
    """The same table is usable on a phone-sized screen (one column, cards still playable)."""
    page.set_viewport_size(PHONE)
    sign_up(page, live, "pina")
    create_uno_table(page, "Pina's table", seats=3)
    page.locator("[data-action=start]").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    expect(page.get_by_test_id("opponents").locator(".opp")).to_have_count(2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width}px)"
    used: Counter[str] = Counter()
    for _ in range(3):  # a few turns with the phone layout
        if page.get_by_test_id("result").is_visible():
            break
        act_once(page, used, set())
    shot(page, "uno-phone")
