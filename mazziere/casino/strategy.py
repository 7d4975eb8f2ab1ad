"""The two fixed strategies of UNO CASINO (docs/rules/casino.md, seed 000 "REGOLE DEL BANCO E
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

The decisions themselves are :mod:`mazziere.casino.rulebook`'s, written once for this path
and the compiled RTP kernel; this module turns a hand and the engine's legal actions into
their arguments and their candidates into an action, breaking ties with the round's source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mazziere.cards.uno import WILD_FACE, Card, Color
from mazziere.casino import rulebook as R
from mazziere.casino.readings import Readings
from mazziere.rng import Rng
from mazziere.uno import actions as A
from mazziere.uno.state import Phase

ADOPTED = Readings()
"""The readings of seed 000 the project adopts (:mod:`mazziere.casino.readings`)."""


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


def pick(rng: Rng, ties: Sequence[int], n: int) -> int:
    """The decision among a rule's ``n`` candidates: the only one, or ``ties[randbelow(n)]``
    (the compiled kernel draws the same way)."""
    if n < 1:
        raise ValueError("a decision needs at least one candidate")
    return ties[0] if n == 1 else ties[rng.randbelow(n)]


def _plays(legal: Sequence[A.Action]) -> list[A.Play]:
    return [a for a in legal if isinstance(a, A.Play)]


def _no_play(legal: Sequence[A.Action]) -> A.Action:
    return A.DRAW if A.DRAW in legal else legal[0]


def _checked(action: A.Play, legal: Sequence[A.Action]) -> A.Play:
    if action not in legal:  # the rulebook and the engine disagree: a defect, never a move
        raise AssertionError(f"strategy chose {action}, not among the legal {list(legal)}")
    return action


# ----------------------------------------------------------------------------------- bank
def bank_color(hand_after: Sequence[Card], rng: Rng) -> Color:
    """000 bank rule 3 (:func:`rulebook.bank_colors`) for the cards the bank keeps."""
    ties = [0] * 54
    return Color(pick(rng, ties, R.bank_colors(R.counts(hand_after), 0, ties)))


def bank_decision(
    hand: Sequence[Card],
    top: Card,
    color: int,
    phase: Phase,
    legal: Sequence[A.Action],
    rng: Rng,
) -> A.Action:
    """000 bank rules 1-2: draw when nothing is playable (and play the drawn card if it can);
    otherwise the card of :func:`rulebook.bank_cards`, with the colour of :func:`bank_color`
    for a wild."""
    plays = _plays(legal)
    if not plays:
        return _no_play(legal)
    if phase is Phase.DRAWN:
        card = plays[0].cards[0]  # the drawn card, playable
    else:
        ties = [0] * 54
        card = Card(pick(rng, ties, R.bank_cards(R.counts(hand), 0, top, color, ties)))
    if card >= WILD_FACE:
        rest = list(hand)
        rest.remove(card)
        return _checked(A.play_of((card,), bank_color(rest, rng)), legal)
    return _checked(A.play_of((card,)), legal)


# --------------------------------------------------------------------------------- player
def _last(memory: BankMemory) -> int:
    return -1 if memory.last_card is None else int(memory.last_card)


def _chosen(memory: BankMemory) -> int:
    return -1 if memory.chosen_color is None else int(memory.chosen_color)


def card_weight(
    card: Card,
    hand: Sequence[Card],
    top: Card,
    color: int,
    bank_cards: int,
    memory: BankMemory,
    run: int = 0,
    readings: Readings = ADOPTED,
) -> int:
    """000 player strategy weights 1-5 for one playable card (:func:`rulebook.player_weight`);
    ``run``: the cards the player has laid since the bank last moved."""
    return R.player_weight(
        R.counts(hand),
        0,
        card,
        color,
        len(hand),
        bank_cards,
        _last(memory),
        memory.played_wild,
        memory.drew_without_playing,
        run,
        readings.codes(),
    )


def player_decision(
    hand: Sequence[Card],
    top: Card,
    color: int,
    bank_cards: int,
    phase: Phase,
    legal: Sequence[A.Action],
    memory: BankMemory,
    rng: Rng,
    run: int = 0,
    readings: Readings = ADOPTED,
) -> A.Action:
    """000 player default strategy: the playable card of highest weight (ties at random),
    drawing only when nothing is playable; the drawn card is played when it can be."""
    plays = _plays(legal)
    if not plays:
        return _no_play(legal)
    if phase is Phase.DRAWN:
        card = plays[0].cards[0]  # the drawn card, playable
    else:
        ties = [0] * 54
        n = R.player_cards(
            R.counts(hand),
            0,
            top,
            color,
            len(hand),
            bank_cards,
            _last(memory),
            memory.played_wild,
            memory.drew_without_playing,
            run,
            readings.codes(),
            ties,
        )
        card = Card(pick(rng, ties, n))
    if card >= WILD_FACE:
        rest = list(hand)
        rest.remove(card)
        return _checked(A.play_of((card,), player_color(rest, memory, bank_cards, rng)), legal)
    return _checked(A.play_of((card,)), legal)


def player_color(rest: list[Card], memory: BankMemory, bank_cards: int, rng: Rng) -> Color:
    """000 player strategy 6 (:func:`rulebook.player_colors`): the colour to declare after a
    Wild or +4, given the cards the player keeps (``rest``) and the bank's card count."""
    ties = [0] * 54
    n = R.player_colors(
        R.counts(rest),
        0,
        len(rest),
        bank_cards,
        _chosen(memory),
        memory.drew_without_playing,
        -1 if memory.passed_color is None else int(memory.passed_color),
        ties,
    )
    return Color(pick(rng, ties, n))


# ------------------------------------------------------------------ a careless player
def random_decision(legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """A careless player (the low end of the skill range, ``mazziere rtp --strategy random``):
    one of its distinct moves uniformly, each playable face once in face order, then the draw
    (when offered) or, with a drawn card, the pass; a wild's colour uniformly. With one move
    (or one colour) no number is drawn. Choosing among moves rather than among the engine's
    action list keeps a wild from counting four times (once per colour). The compiled kernel
    (:func:`mazziere.sim.casino_kernel.round._random_move`) draws the same numbers."""
    faces = sorted({a.cards[0] for a in legal if isinstance(a, A.Play)})
    extra: list[A.Action] = [a for a in (A.DRAW, A.PASS) if a in legal]
    n = len(faces) + len(extra)
    if n == 0:
        raise ValueError("a decision needs at least one legal action")
    i = 0 if n == 1 else rng.randbelow(n)
    if i >= len(faces):
        return extra[i - len(faces)]
    card = faces[i]
    if card >= WILD_FACE:
        return _checked(A.play_of((card,), Color(rng.randbelow(4))), legal)
    return _checked(A.play_of((card,)), legal)
