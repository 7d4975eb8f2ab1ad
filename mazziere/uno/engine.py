"""The UNO engine's functional API over :class:`~mazziere.uno.game.Game`: ``new_game``,
``legal_actions``, ``apply`` (a copy, then ``push``), ``view``.

>>> from mazziere.uno import find_preset, new_game, legal_actions, apply
>>> s = new_game(find_preset("mattel"), 2, rng=7)
>>> acts = legal_actions(s, s.current)
>>> s2, events = apply(s, s.current, acts[0])
>>> s2 is not s and s2.clock == s.clock + 1
True

A game is replayed exactly from (rules, seed, actions). ``apply`` never changes its input: it
copies the game and pushes the action on the copy; a refused action raises a typed error. To
play many actions fast, push them on one :class:`Game` instead.
"""

from __future__ import annotations

from mazziere.rng import Rng
from mazziere.uno.actions import Action
from mazziere.uno.events import Event
from mazziere.uno.game import Game
from mazziere.uno.options import Rules
from mazziere.uno.state import OVER
from mazziere.uno.view import View


def new_game_with_events(
    rules: Rules, seats: int, rng: Rng | int | str | bytes | None = None
) -> tuple[Game, list[Event]]:
    """A new match and the events of its start (dealer choice, deal, first card)."""
    g = Game.new(rules, seats, rng)
    return g, g.events


def new_game(rules: Rules, seats: int, rng: Rng | int | str | bytes | None = None) -> Game:
    """A new match of ``seats`` players. ``rng``: a seed for a reproducible game, a
    :class:`~mazziere.rng.Rng`, or ``None`` for a fresh OS-seeded cryptographic source."""
    return Game.new(rules, seats, rng)


def legal_actions(state: Game, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may do now (see :meth:`Game.legal_actions`)."""
    return state.legal_actions(seat)


def all_legal_actions(state: Game) -> tuple[tuple[int, Action], ...]:
    """Every (seat, action) pair allowed now: the current seat first, then the others in
    seat order after it."""
    if state.phase is OVER:
        return ()
    out: list[tuple[int, Action]] = []
    for k in range(state.players):
        seat = (state.current + k) % state.players
        out.extend((seat, a) for a in state.legal_actions(seat))
    return tuple(out)


def apply(state: Game, seat: int, action: Action | str) -> tuple[Game, list[Event]]:
    """Apply ``seat``'s action (an :class:`Action` or its text form) to a copy of ``state``.
    Raises :class:`~mazziere.errors.IllegalAction` (and subclasses) or ``MalformedAction``."""
    g = state.copy()
    # for exactly this seat: push's default seat (the seat to act) is not the functional API's
    events = g._push(seat, action)
    return g, events


def view(state: Game, seat: int | None) -> View:
    """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
    own = seat is not None and 0 <= seat < state.players
    legal = state.legal_actions(seat) if own and seat is not None else ()
    return View(
        seat=seat,
        rules=state.rules,
        players=state.players,
        hand_no=state.hand_no,
        dealer=state.dealer,
        phase=state.phase,
        current=state.current,
        direction=state.direction,
        hand=tuple(state.hands[seat]) if own and seat is not None else (),
        hand_counts=tuple(len(h) for h in state.hands),
        top=state.discard[-1],
        color=state.color,
        draw_pile_count=len(state.draw_pile),
        discard_count=len(state.discard),
        pending=state.pending,
        challengeable=state.w4_by is not None,
        w4_by=state.w4_by,
        drawn=state.drawn if own and seat == state.current else None,
        uno_seat=state.uno_seat,
        uno_called=state.uno_called,
        in_hand=state.in_hand,
        active=state.active,
        scores=state.scores,
        hands_won=state.hands_won,
        turns=state.turns,
        total_turns=state.total_turns,
        result=state.result,
        legal=legal,
        log=state.public_log(),
    )


def replay(
    rules: Rules, seats: int, seed: Rng | int | str | bytes, actions: list[tuple[int, Action | str]]
) -> tuple[Game, list[Event]]:
    """Replay a game from (rules, seed, actions); returns the final state and all events."""
    g = Game.new(rules, seats, seed)
    events = list(g.events)
    for seat, action in actions:
        events.extend(g.push(action, seat))
    return g, events
