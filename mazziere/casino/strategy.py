"""The two fixed strategies of UNO CASINO (uno-casino.md, seed 000 "REGOLE DEL BANCO E
STRATEGIE DI GIOCO DELLA PUNTA").

Both are pure functions of what their side may know plus a random source for the ties the
rules leave to chance, so a round is replayed exactly. Readings where the text is silent:

* Bank, several +2 (or Skip/Reverse) playable: the one of the current colour, else the lowest
  face. Skip is preferred to Reverse (they act alike with two seats).
* Bank, "a number card of the same number" when it holds no card of the current colour: one
  of the distinct faces that match by number, uniformly at random.
* Bank colour ties: most cards of the colour; then the colour whose highest card is highest,
  every action card (Skip, Reverse, +2) counting 10, above any number; then at random.
* Player: the drawn card, when playable, is played at once (000: "lo si può fare
  immediatamente"). Ties between equal weights: uniformly among the distinct faces.
* Player +2 weight: the three clauses are tried in the order given (more cards than the player
  will hold -> 0; bank on one card -> 2,500; otherwise 1,100).
* Player colour ties ("holds most"): uniformly at random among the tied colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mazziere.cards.uno import FACE_COLOR, WILD4_FACE, WILD_FACE, Card, Color
from mazziere.rng import Rng
from mazziere.uno import actions as A
from mazziere.uno.matching import DRAW2_RANK, REVERSE_RANK, SKIP_RANK
from mazziere.uno.state import Phase


@dataclass(frozen=True, slots=True)
class BankMemory:
    """What the player may remember of the bank's previous turn (public information)."""

    last_card: Card | None = None
    """The last card the bank played, in any turn."""
    played_wild: bool = False
    """The bank's previous turn played a (plain) Wild."""
    chosen_color: Color | None = None
    """The colour the bank chose with a Wild or +4 in its previous turn."""
    drew_without_playing: bool = False
    """The bank's previous turn was a draw that it could not play."""
    passed_color: Color | None = None
    """The colour in force when the bank drew and passed."""


def _plays(legal: Sequence[A.Action]) -> list[A.Play]:
    return [a for a in legal if isinstance(a, A.Play)]


def _color_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0, 0, 0, 0]
    for c in cards:
        if FACE_COLOR[c] >= 0:
            counts[FACE_COLOR[c]] += 1
    return counts


def _pick(rng: Rng, options: list[int]) -> int:
    return options[0] if len(options) == 1 else options[rng.randbelow(len(options))]


# ----------------------------------------------------------------------------------- bank
def bank_color(hand_after: Sequence[Card], rng: Rng) -> Color:
    """000 bank rule 3: the colour held most; tie: colour of the highest card (actions above
    numbers); still tied: at random."""
    counts = _color_counts(hand_after)
    best = max(counts)
    tied = [c for c in range(4) if counts[c] == best]
    if len(tied) > 1:
        top = [-1, -1, -1, -1]
        for card in hand_after:
            col = FACE_COLOR[card]
            if col >= 0:
                r = card % 13
                top[col] = max(top[col], 10 if r >= SKIP_RANK else r)
        high = max(top[c] for c in tied)
        tied = [c for c in tied if top[c] == high]
    return Color(_pick(rng, tied))


def _prefer(cards: list[Card], color: int) -> Card:
    same = [c for c in cards if FACE_COLOR[c] == color]
    return min(same) if same else min(cards)


def bank_decision(
    hand: Sequence[Card],
    color: int,
    phase: Phase,
    legal: Sequence[A.Action],
    rng: Rng,
) -> A.Action:
    """000 bank rules 1-2: draw when nothing is playable (and play the drawn card if it can);
    otherwise +4, +2, Skip/Reverse, highest number of the colour (else a same-number card),
    Wild."""
    plays = _plays(legal)
    if not plays:
        return A.DRAW if A.DRAW in legal else legal[0]
    faces = sorted({p.cards[0] for p in plays})
    if phase is Phase.DRAWN:
        card = faces[0]
    elif WILD4_FACE in faces:
        card = Card(WILD4_FACE)
    elif d2 := [c for c in faces if c < WILD_FACE and c % 13 == DRAW2_RANK]:
        card = _prefer(d2, color)
    elif skips := [c for c in faces if c < WILD_FACE and c % 13 == SKIP_RANK]:
        card = _prefer(skips, color)
    elif revs := [c for c in faces if c < WILD_FACE and c % 13 == REVERSE_RANK]:
        card = _prefer(revs, color)
    elif nums := [c for c in faces if c < WILD_FACE and c % 13 <= 9]:
        own = [c for c in nums if FACE_COLOR[c] == color]
        if own:
            card = max(own, key=lambda c: (c % 13, -c))
        elif any(FACE_COLOR[c] == color for c in hand):
            card = max(nums, key=lambda c: (c % 13, -c))  # cannot happen: such cards match
        else:
            card = Card(_pick(rng, [int(c) for c in nums]))
    else:
        card = Card(WILD_FACE)
    if card >= WILD_FACE:
        rest = list(hand)
        rest.remove(card)
        return A.play_of((card,), bank_color(rest, rng))
    return A.play_of((card,))


# --------------------------------------------------------------------------------- player
def card_weight(
    card: Card,
    hand: Sequence[Card],
    top: Card,
    color: int,
    bank_cards: int,
    memory: BankMemory,
) -> int:
    """000 player strategy weights 1-5 for one playable card."""
    if card == WILD4_FACE:
        return 2000 if bank_cards == 1 else 0
    if card == WILD_FACE:
        return 1000 if memory.played_wild else 0
    r = card % 13
    col = FACE_COLOR[card]
    if r in (SKIP_RANK, REVERSE_RANK):
        last = memory.last_card
        same = last is not None and last < WILD_FACE and last % 13 == r
        others = (
            sum(
                1
                for c in hand
                if c < WILD_FACE and FACE_COLOR[c] == col and c % 13 in (SKIP_RANK, REVERSE_RANK)
            )
            - 1
        )
        return (5000 if same else 2000) + 1000 * others
    if r == DRAW2_RANK:
        player_after = len(hand) - 1
        if bank_cards > player_after:
            return 0
        if bank_cards == 1:
            return 2500
        return 1100
    if col == color:
        return 10 + r
    return 1


def player_decision(
    hand: Sequence[Card],
    top: Card,
    color: int,
    bank_cards: int,
    phase: Phase,
    legal: Sequence[A.Action],
    memory: BankMemory,
    rng: Rng,
) -> A.Action:
    """000 player default strategy: the playable card of highest weight (ties at random),
    drawing only when nothing is playable; the drawn card is played when it can be."""
    plays = _plays(legal)
    if not plays:
        return A.DRAW if A.DRAW in legal else legal[0]
    faces = sorted({p.cards[0] for p in plays})
    if phase is Phase.DRAWN:
        card = faces[0]
    else:
        weights = {c: card_weight(c, hand, top, color, bank_cards, memory) for c in faces}
        best = max(weights.values())
        card = Card(_pick(rng, [int(c) for c in faces if weights[c] == best]))
    if card >= WILD_FACE:
        rest = list(hand)
        rest.remove(card)
        return A.play_of((card,), player_color(rest, memory, bank_cards, rng))
    return A.play_of((card,))


def player_color(rest: list[Card], memory: BankMemory, bank_cards: int, rng: Rng) -> Color:
    """000 player strategy 6: the colour to declare after a Wild or +4, given the cards the
    player keeps (``rest``) and how many cards the bank holds."""
    counts = _color_counts(rest)
    chosen = memory.chosen_color
    if chosen is not None:
        others = [c for c in range(4) if c != chosen]
        if bank_cards == 1:
            best = max(counts[c] for c in others)
            return Color(_pick(rng, [c for c in others if counts[c] == best]))
        playable = [c for c in others if counts[c] > 0]
        if not playable:
            return Color(chosen)
        best = max(counts[c] for c in playable)
        return Color(_pick(rng, [c for c in playable if counts[c] == best]))
    if (
        rest
        and all(c >= WILD_FACE for c in rest)
        and memory.drew_without_playing
        and memory.passed_color is not None
    ):
        return memory.passed_color
    best = max(counts)
    return Color(_pick(rng, [c for c in range(4) if counts[c] == best]))
