"""Property tests over random games of every game (docs/architecture.md "Views"; platform.md "Hand
history"): what a seat may see of a step, in a live update or in the hand history, never
depends on the cards it cannot see.

Each game is played through the game contract (:class:`~mazziere.game.TableGame`) with
random legal actions, time-outs now and then and, at the casino, the bank's own moves. After
every step, for every seat and a spectator, the cards that seat cannot see are dealt again: a
random exchange of the card faces of which it knows no copy (its own hand before and after the
step, the discard pile, the cards the rules show everyone in the step's events), made in the
game's hidden parts (the other hands, the deck or draw pile) and in the step's record (the
action's text, a time-out's moves, every event text). What the seat sees must be identical in
both worlds: the live update (:meth:`~mazziere.game.TableGame.seen`, the view and legal
actions) and the replay's step (:meth:`~mazziere.game.TableGame.replay_step`). At the end
the whole hand, as the server records it, is replayed (:func:`mazziere.game.replay`) for every
seat and must show each step exactly as the table did.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazziere.cards import uno as uno_cards
from mazziere.casino.table_game import CasinoTableGame
from mazziere.errors import MazziereError
from mazziere.game import Step, TableGame, replay
from mazziere.poker import cards as poker_cards
from mazziere.poker.events import Shown
from mazziere.poker.table_game import PokerTableGame
from mazziere.textevents import TextEvent
from mazziere.uno import PRESETS, format_position, parse_position
from mazziere.uno import events as E
from mazziere.uno.game import Game
from mazziere.uno.table_game import UnoTableGame

MAX_STEPS = 90
TIMEOUT_SHARE = 0.06
"""How often a decision is left to the time-out instead of a random legal action."""
UNO_PUBLIC = (E.Played, E.Turned, E.Returned, E.DealerCard, E.HandEnded)
"""UNO events whose cards the rules show everyone (a hand's end shows every hand)."""
CARD_LISTS = ("hands", "discard", "draw", "removed", "drawn")
"""The fields of a UNO position that hold cards."""

Sigma = dict[Any, Any]
"""A re-deal: card -> the card that takes its place (absent: the card stays)."""


def relabel(value: Any, sigma: Sigma, card: type) -> Any:
    """``value`` (an action, an event, a tuple of them) with every card of type ``card``
    replaced by its image in ``sigma`` (cards are ints: only that type is a card)."""
    if type(value) is card:
        return sigma.get(value, value)
    if isinstance(value, tuple):
        return tuple(relabel(v, sigma, card) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: relabel(getattr(value, f.name), sigma, card) for f in fields(value)}
        return replace(value, **changes)
    return value


@dataclass(frozen=True)
class Kind:
    """One game as this test drives it."""

    card: type
    make: Callable[[random.Random, str], TableGame]
    """A new game from a random source (its options) and a seed (its cards)."""
    cards: Callable[[TableGame], Counter[Any]]
    """Every card in the game, with its copies."""
    known: Callable[[TableGame, int | None], set[Any]]
    """The cards a seat sees in the game as it stands (its hand, the public piles)."""
    public: tuple[type[TextEvent], ...]
    """Events whose cards the rules show everyone."""
    redealt: Callable[[TableGame, Sigma], TableGame]
    """A copy of the game with its hidden cards dealt again by ``sigma``."""
    seats: Callable[[TableGame], int]


# ------------------------------------------------------------------------------ UNO, casino
def uno_state(game: TableGame) -> Game:
    if isinstance(game, CasinoTableGame):
        return game.round.uno
    assert isinstance(game, UnoTableGame)
    return game.state


def uno_cards_of(game: TableGame) -> Counter[Any]:
    g = uno_state(game)  # a card just drawn (``drawn``) is in its drawer's hand
    return Counter([*(c for h in g.hands for c in h), *g.draw_pile, *g.discard, *g.removed])


def uno_known(game: TableGame, seat: int | None) -> set[Any]:
    g = uno_state(game)
    own = set(g.hands[seat]) if seat is not None and 0 <= seat < g.players else set()
    return own | set(g.discard) | set(g.removed)


def uno_redealt_state(g: Game, sigma: Sigma) -> Game:
    """The game with its cards exchanged by ``sigma``, through its position text (which
    checks that every card is still there once)."""

    def cards(text: str) -> str:
        if text == "-":
            return text
        return ",".join(
            str(sigma.get(uno_cards.parse_card(t), uno_cards.parse_card(t)))
            for t in text.split(",")
        )

    parts = []
    for item in format_position(g).split(" "):
        key, eq, value = item.partition("=")
        if eq and key in CARD_LISTS:
            value = "/".join(cards(h) for h in value.split("/"))
        parts.append(f"{key}{eq}{value}")
    return parse_position(" ".join(parts), g.rules)


def uno_redealt(game: TableGame, sigma: Sigma) -> TableGame:
    out = copy.copy(game)
    if isinstance(out, CasinoTableGame):
        out.round = replace(out.round, uno=uno_redealt_state(out.round.uno, sigma))
    else:
        assert isinstance(out, UnoTableGame)
        out.state = uno_redealt_state(out.state, sigma)
    return out


def new_uno(rnd: random.Random, seed: str) -> TableGame:
    preset = rnd.choice(sorted(PRESETS))
    rules = PRESETS[preset]
    players = rnd.randint(rules.min_players, min(rules.max_players, 5))
    return UnoTableGame(preset, {}, players, {}, seed)


def new_casino(rnd: random.Random, seed: str) -> TableGame:
    return CasinoTableGame({}, rnd.choice((100, 500, 2_000)), seed, None)


# ------------------------------------------------------------------------------ poker
def poker_cards_of(game: TableGame) -> Counter[Any]:
    assert isinstance(game, PokerTableGame)
    return Counter(poker_cards.deck(game.rules.deck))


def poker_known(game: TableGame, seat: int | None) -> set[Any]:
    assert isinstance(game, PokerTableGame)
    return set(game.state.hands[seat]) if seat is not None else set()


def poker_redealt(game: TableGame, sigma: Sigma) -> TableGame:
    assert isinstance(game, PokerTableGame)
    out = copy.copy(game)
    s = game.state
    hands = (
        relabel(s.hands[0], sigma, poker_cards.Card),
        relabel(s.hands[1], sigma, poker_cards.Card),
    )
    out.state = replace(s, hands=hands, deck=relabel(s.deck, sigma, poker_cards.Card))
    return out


def new_poker(rnd: random.Random, seed: str) -> TableGame:
    preset = rnd.choice(("classic", "classic32"))
    return PokerTableGame({"preset": preset, "level": "easy"}, seed)


KINDS = {
    "uno": Kind(
        uno_cards.Card,
        new_uno,
        uno_cards_of,
        uno_known,
        UNO_PUBLIC,
        uno_redealt,
        lambda g: uno_state(g).players,
    ),
    "casino": Kind(
        uno_cards.Card,
        new_casino,
        uno_cards_of,
        uno_known,
        UNO_PUBLIC,
        uno_redealt,
        lambda g: 2,
    ),
    "poker": Kind(
        poker_cards.Card,
        new_poker,
        poker_cards_of,
        poker_known,
        (Shown,),
        poker_redealt,
        lambda g: 2,
    ),
}


# ------------------------------------------------------------------------------ playing
def next_step(kind: Kind, game: TableGame, rnd: random.Random) -> Step | None:
    """One step of a random game: a random legal action of any seat that has one (a catch or
    a jump-in come from a seat whose turn it is not), now and then a time-out, or the
    computer's move where the table's computer player decides (the casino's bank)."""
    deciders = game.deciders()
    if not deciders:
        return None
    for seat in deciders:
        move = game.bot_move(seat) if isinstance(game, CasinoTableGame) else None
        if move is not None:
            return game.apply(seat, move, "bot")
    seats = range(kind.seats(game))
    choices = [(s, a) for s in seats for a in game.legal(s)]
    if rnd.random() < TIMEOUT_SHARE or not choices:
        try:
            return game.timeout(deciders[0])
        except MazziereError:
            if not choices:
                return None
    seat, action = rnd.choice(choices)
    return game.apply(seat, action, "player")


def redeal(cards: Counter[Any], known: set[Any], rnd: random.Random) -> Sigma:
    """Exchange, at random, the faces of which the seat knows no copy, among faces with as
    many copies (so that every card stays in the game once)."""
    groups: dict[int, list[Any]] = {}
    for c, n in cards.items():
        if c not in known:
            groups.setdefault(n, []).append(c)
    sigma: Sigma = {}
    for faces in groups.values():
        shuffled = faces[:]
        rnd.shuffle(shuffled)
        sigma.update(zip(faces, shuffled, strict=True))
    return sigma


def redealt_step(game: TableGame, step: Step, sigma: Sigma, card: type) -> Step:
    """The step's record with its cards exchanged by ``sigma``: the action, a time-out's
    moves, every event (its owner's text and the others' alike)."""

    def action(act: Any) -> Any:
        return relabel(act, sigma, card)

    events = [(relabel(e, sigma, card), only, hidden) for e, only, hidden in step.events]
    played = None if step.played is None else tuple(action(t) for t in step.played)
    return Step(step.seat, action(step.action), step.actor, events, played)


def what_is_seen(game: TableGame, seq: int, step: Step, seat: int | None) -> Any:
    """Everything ``seat`` receives of the step: live (what it sees of the step, its view and
    legal actions) and in the replay."""
    seen = game.seen(step, seat)
    if seat is None:
        return seen, game.view(None)
    return seen, game.seat_view(seat), game.replay_step(seq, step, seat, game.view(seat), False)


def step_cards(kind: Kind, game: TableGame, step: Step) -> set[Any]:
    """The cards the rules show everyone in the step's events (a play, a showdown)."""
    out: set[Any] = set()
    for e, _, _ in step.events:
        if isinstance(e, kind.public):
            out |= set(_cards_in(e, kind.card))
    return out


def _cards_in(value: Any, card: type) -> list[Any]:
    if type(value) is card:
        return [value]
    if isinstance(value, tuple):
        return [c for v in value for c in _cards_in(v, card)]
    if is_dataclass(value) and not isinstance(value, type):
        return [c for f in fields(value) for c in _cards_in(getattr(value, f.name), card)]
    return []


def check_random_game(name: str, seed: int) -> Counter[str]:
    kind = KINDS[name]
    rnd = random.Random(seed)
    hand_seed = f"{rnd.getrandbits(256):064x}"
    game = kind.make(rnd, hand_seed)
    players = kind.seats(game)
    viewers: tuple[int | None, ...] = (*range(players), None)
    tally: Counter[str] = Counter()
    recorded: list[tuple[int, Step]] = []
    rows: dict[int, list[dict[str, Any]]] = {s: [] for s in range(players)}
    for seq in range(1, MAX_STEPS + 1):
        before = {s: kind.known(game, s) for s in viewers}
        step = next_step(kind, game, rnd)
        if step is None:
            break
        text, rows_ = step.record()  # as the hand's record keeps it, and reads it back
        recorded.append((seq, type(game).recorded_step(step.seat, text, step.actor, rows_)))
        public = step_cards(kind, game, step)
        cards = kind.cards(game)
        for seat in viewers:
            known = before[seat] | kind.known(game, seat) | public
            sigma = redeal(cards, known, rnd)
            other = kind.redealt(game, sigma)
            moved = redealt_step(game, step, sigma, kind.card)
            where = f"{name} seed={seed} step {seq} ({step.seat}: {step.action}) seat {seat}"
            seen = what_is_seen(game, seq, step, seat)
            assert what_is_seen(other, seq, moved, seat) == seen, where
            tally["compared"] += 1
            tally["hidden cards redealt"] += sum(a != b for a, b in sigma.items())
            tally["steps redealt"] += moved != step
            tally["actions redealt"] += moved.action != step.action
            if seat is not None:
                rows[seat].append(seen[2])
    # the hand as recorded (a time-out as the word only), replayed for each seat
    for seat in range(players):
        fresh = type(game).from_setup(game.setup, hand_seed)
        initial, steps = replay(fresh, recorded, seat, revealed=False)
        assert initial == type(game).from_setup(game.setup, hand_seed).view(seat)
        assert steps == rows[seat], f"{name} seed={seed}: the replay differs for seat {seat}"
    return tally


@pytest.mark.parametrize("name", sorted(KINDS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_what_a_seat_sees_of_a_step_live_or_replayed_never_depends_on_cards_it_cannot_see(
    name: str, seed: int
) -> None:
    tally = check_random_game(name, seed)
    assert tally["compared"] > 0 and tally["hidden cards redealt"] > 0, tally


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_redeal_reaches_the_steps_records_and_a_poker_draw(name: str) -> None:
    """The check above has teeth: over a few games, some step's record held a card that was
    dealt again (one game alone may not: an UNO hand can end in two steps), and at poker a
    draw named cards dealt again."""
    tally = sum((check_random_game(name, seed) for seed in range(4)), Counter[str]())
    assert tally["steps redealt"] > 0, tally
    if name == "poker":
        assert tally["actions redealt"] > 0, tally
