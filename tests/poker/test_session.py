"""The poker table session: its legal actions are listed once per state, and their structured
forms are exactly the parsed text forms."""

from __future__ import annotations

import random

from mazziere.game import new_seed
from mazziere.poker.session import PokerSession


def test_legal_wire_is_the_parsed_legal_text_on_every_state_of_random_games() -> None:
    rng = random.Random(2)
    states = 0
    for _ in range(4):
        s = PokerSession({"level": "easy", "preset": "classic", "options": {}}, new_seed())
        while not s.is_over and states < 1500:
            seat = s.state.current
            texts = s.legal(seat)
            assert s.legal_wire(seat) == [PokerSession.action_wire(t) for t in texts]
            assert s.legal(seat) == texts  # the cached listing is the same
            s.apply(seat, rng.choice(texts), "player")
            states += 1
            assert s.legal(s.state.current) != [] or s.is_over
    assert states > 200
