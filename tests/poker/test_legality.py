"""draw-poker.md: an action is accepted exactly when the legal-action generator lists it (a
draw naming its cards in any order), and every other action of the seat to act is refused
with a typed error naming the rule."""

from __future__ import annotations

import random

import pytest

from mazziere.errors import IllegalAction
from mazziere.poker import Rules, apply, legal_actions, new_game
from mazziere.poker import actions as A
from mazziere.poker.cards import deck
from mazziere.poker.state import State

TABLES = (
    Rules(bankroll=60, item_value=20, max_bet=None),
    Rules(deck=32, bankroll=40, item_value=15, items=("hat", "scarf"), max_raises=1),
    Rules(ante=3, bankroll=100, max_replace=3, deck=32),
    Rules(min_bet=7, max_bet=12, bankroll=30, items=()),
)
CODES = {
    "wrong_phase",
    "wait_after_bet",
    "wait_not_first",
    "already_bet",
    "bet_above_cover",
    "max_raises",
    "nothing_to_raise",
    "bet_below_minimum",
    "bet_above_max",
    "bet_above_bankroll",
    "max_replace",
    "card_not_in_hand",
}


def candidates(s: State, rng: random.Random) -> list[A.Action]:
    """Every word, bets of many sizes, and draws: legal ones, reordered ones, repeated cards,
    cards from outside the hand, too many cards."""
    out: list[A.Action] = [A.WAIT, A.REPLACE, A.FOLD, A.SEE, A.STAND_PAT]
    for amount in (0, 1, 2, 3, 5, 7, 9, 10, 11, 12, 13, 30, 31, 40, 41, 60, 100, 500):
        out += [A.Open(amount), A.Raise(amount)]
    hand, cards = list(s.hands[s.current]), list(deck(s.rules.deck))
    for n in range(6):
        out.append(A.Draw(tuple(rng.sample(hand, n))))
    out += [A.Draw((hand[0], hand[0])), A.Draw((hand[1], rng.choice(cards)))]
    return out


def in_hand_order(s: State, action: A.Action) -> A.Action:
    if isinstance(action, A.Draw):
        hand = s.hands[s.current]
        if set(action.cards) <= set(hand):
            return A.Draw(tuple(sorted(action.cards, key=hand.index)))
    return action


@pytest.mark.parametrize("table", range(len(TABLES)))
def test_accepted_exactly_when_legal(table: int) -> None:
    rng = random.Random(table)
    for g in range(40):
        s = new_game(TABLES[table], f"legality{table}.{g}", first_actor=g % 2)
        while not s.is_over and s.deal_no <= 3:
            legal = set(legal_actions(s, s.current))
            for action in candidates(s, rng):
                if in_hand_order(s, action) in legal:
                    apply(s, s.current, action)
                else:
                    with pytest.raises(IllegalAction) as e:
                        apply(s, s.current, action)
                    assert e.value.code in CODES and e.value.message
            for action in legal:
                apply(s, s.current, action)
            s, _ = apply(s, s.current, rng.choice(sorted(legal, key=str)))
