"""uno.md "A hand" 1-3: dealer selection, dealing, first-card handling, who starts."""

from __future__ import annotations

import itertools
from collections import Counter

from mazziere.cards.uno import FULL_DECK
from mazziere.rng import SplitMixRng
from mazziere.uno import find_preset, new_game, new_game_with_events
from mazziere.uno.events import DealerCard, DealerChosen, Returned, Turned
from mazziere.uno.state import Phase

MATTEL = find_preset("mattel")


def _first_card_game(rules, players: int, rank_text: str):  # type: ignore[no-untyped-def]
    """The first seed whose first turned card (after returns) has this face text."""
    for seed in range(5000):
        s, ev = new_game_with_events(rules, players, f"fc{seed}")
        if str(s.discard[0]).endswith(rank_text) and len(str(s.discard[0])) == 1 + len(rank_text):
            return s, ev
        if rank_text in ("W",) and str(s.discard[0]) == "W":
            return s, ev
    raise AssertionError(f"no seed turns {rank_text}")


def _first_numbers(events: list) -> dict[int, int]:  # type: ignore[type-arg]
    """Each seat's first number card in the dealer draw (action cards are redrawn)."""
    first: dict[int, int] = {}
    for e in events:
        if isinstance(e, DealerCard) and e.card.is_number and e.seat not in first:
            first[e.seat] = int(e.card.kind)
    return first


def test_dealer_draw_action_cards_are_redrawn() -> None:
    redrawn = 0
    for seed in range(40):
        _, ev = new_game_with_events(MATTEL, 6, rng=seed)
        draws = [e for e in ev if isinstance(e, DealerCard)]
        for a, b in itertools.pairwise(draws):
            if not a.card.is_number:
                assert b.seat == a.seat  # the same seat draws again at once
                redrawn += 1
    assert redrawn > 0


def test_cards_dealt_hand_size_each_one_at_a_time() -> None:
    s, ev = new_game_with_events(MATTEL.with_options(hand_size=5), 4, rng=1)
    assert [len(h) for h in s.hands] == [5, 5, 5, 5]
    every = [c for h in s.hands for c in h] + list(s.draw_pile) + list(s.discard)
    assert Counter(every) == Counter(FULL_DECK)


def test_dealer_selection_highest_number_deals() -> None:
    for seed in range(30):
        _, ev = new_game_with_events(MATTEL, 4, rng=seed)
        chosen = next(e for e in ev if isinstance(e, DealerChosen)).seat
        first = _first_numbers(ev)
        assert first[chosen] == max(first.values())


def test_dealer_selection_lowest_number_deals() -> None:
    for seed in range(30):
        _, ev = new_game_with_events(find_preset("house"), 4, rng=seed)
        chosen = next(e for e in ev if isinstance(e, DealerChosen)).seat
        first = _first_numbers(ev)
        assert first[chosen] == min(first.values())


def test_dealer_selection_random_uses_every_seat() -> None:
    dealers = {new_game(find_preset("online"), 4, rng=seed).dealer for seed in range(60)}
    assert dealers == {0, 1, 2, 3}


def test_player_left_of_dealer_starts_clockwise() -> None:
    for seed in range(200):
        s = new_game(MATTEL, 4, rng=seed)
        if s.discard[0].is_number:
            assert s.current == (s.dealer + 1) % 4 and s.direction == 1
            return
    raise AssertionError("no number first card found")


def test_first_card_skip_skips_the_first_player() -> None:
    s, _ = _first_card_game(MATTEL, 4, "S")
    assert s.current == (s.dealer + 2) % 4


def test_first_card_reverse_dealer_plays_first_and_direction_reverses() -> None:
    s, _ = _first_card_game(MATTEL, 4, "R")
    assert s.current == s.dealer and s.direction == -1


def test_first_card_draw2_first_player_draws_two_and_is_skipped() -> None:
    s, _ = _first_card_game(MATTEL, 4, "D2")
    first = (s.dealer + 1) % 4
    assert len(s.hands[first]) == 9 and s.current == (s.dealer + 2) % 4


def test_first_card_draw2_with_stacking_may_be_answered() -> None:
    s, _ = _first_card_game(find_preset("house"), 4, "D2")
    first = (s.dealer + 1) % 4
    assert s.phase is Phase.PENDING and s.current == first and s.pending == 2


def test_first_card_wild_first_player_chooses_colour_then_plays() -> None:
    s, _ = _first_card_game(MATTEL, 4, "W")
    first = (s.dealer + 1) % 4
    assert s.phase is Phase.COLOR and s.current == first and s.color is None
    from mazziere.uno import apply, legal_actions

    assert [str(a) for a in legal_actions(s, first)] == ["color R", "color Y", "color G", "color B"]
    s2, _ = apply(s, first, "color G")
    assert s2.phase is Phase.PLAY and s2.current == first and s2.color is not None


def test_first_card_wild4_returned_and_reshuffled() -> None:
    for seed in range(5000):
        s, ev = new_game_with_events(MATTEL, 2, f"w4{seed}")
        if any(isinstance(e, Returned) and str(e.card) == "W4" for e in ev):
            turned = [e for e in ev if isinstance(e, Turned)]
            assert str(turned[0].card) == "W4" and len(turned) >= 2
            assert str(s.discard[-1]) != "W4" and len(s.discard) == 1
            assert len(s.draw_pile) == 108 - 14 - 1
            return
    raise AssertionError("no seed turned a W4 first")


def test_first_card_redraw_non_number_until_a_number_shows() -> None:
    rules = find_preset("casino")
    seen_return = False
    for seed in range(300):
        s, ev = new_game_with_events(rules, 2, rng=SplitMixRng(seed))
        assert s.discard[-1].is_number and len(s.discard) == 1
        seen_return |= any(isinstance(e, Returned) for e in ev)
    assert seen_return
