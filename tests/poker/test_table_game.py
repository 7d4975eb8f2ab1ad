"""The poker table session: its legal actions are listed once per state, and their structured
forms are exactly the parsed text forms."""

from __future__ import annotations

import random

import pytest

from mazziere import wire
from mazziere.game import new_seed
from mazziere.poker.table_game import PokerTableGame


@pytest.mark.parametrize("deck", [32, 52])
def test_legal_wire_is_the_parsed_legal_text_on_every_state_of_random_games(deck: int) -> None:
    """The structured legal actions (a betting turn's list is built once per words and bet
    range, and shared) are the engine's, in its order, for the seat to act and the other."""
    rng = random.Random(deck)
    states = 0
    for _ in range(4):
        s = PokerTableGame({"level": "easy", "deck": deck, "options": {}}, new_seed())
        while not s.is_over and states < 1500:
            seat = s.state.current
            texts = s.legal(seat)
            parsed = [PokerTableGame.parse_action(t) for t in texts]
            assert s.legal_wire(seat) == [wire.action(a) for a in parsed]
            view, legal = s.seat_view(seat)  # an update's pair, from one engine view
            assert view == s.view(seat) and legal == s.legal_wire(seat)
            other = s.seat_view(1 - seat)
            assert other == (s.view(1 - seat), []) or s.legal(1 - seat) != []
            assert s.legal(seat) == texts  # the cached listing is the same
            s.apply(seat, rng.choice(texts), "player")
            states += 1
            assert s.legal(s.state.current) != [] or s.is_over
    assert states > 200


def test_the_computers_items_carry_a_code_a_client_words_in_its_language() -> None:
    """An item of the default list travels with its code (``hat``, ``watch``...) for the
    client to name in Italian or English; an item the table's creator named keeps its name
    and has no code."""
    from mazziere.poker.options import DEFAULT_ITEMS

    config, _ = PokerTableGame.table_config({})
    game = PokerTableGame.new(config, 2, {}, new_seed())
    items = game.view(0)["items"]
    assert [i["code"] for i in items] == list(DEFAULT_ITEMS)
    assert [i["name"] for i in items] == list(DEFAULT_ITEMS)
    config, _ = PokerTableGame.table_config({"options": {"items": ["anello", "watch"]}})
    game = PokerTableGame.new(config, 2, {}, new_seed())
    got = [(i["name"], i["code"]) for i in game.view(0)["items"]]
    assert got == [("anello", None), ("watch", "watch")]
