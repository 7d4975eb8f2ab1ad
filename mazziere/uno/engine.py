"""The UNO engine's pure API: ``new_game``, ``legal_actions``, ``apply``, ``view``.

>>> from mazziere.uno import find_preset, new_game, legal_actions, apply
>>> s = new_game(find_preset("mattel"), 2, rng=7)
>>> acts = legal_actions(s, s.current)
>>> s2, events = apply(s, s.current, acts[0])
>>> s2 is not s and s2.total_turns + s2.turns >= 0
True

A game is replayed exactly from (rules, seed, actions). ``apply`` never changes its input: it
works on a copy (:class:`~mazziere.uno.machine.Machine`) and returns a new state with the
events of the action; a refused action raises a typed error and the caller's state is intact.
"""

from __future__ import annotations

from mazziere.errors import MalformedAction
from mazziere.rng import Rng, make_rng
from mazziere.uno.actions import Action
from mazziere.uno.events import Event
from mazziere.uno.machine import Machine
from mazziere.uno.options import Rules
from mazziere.uno.state import Phase, State
from mazziere.uno.view import View


def new_game_with_events(
    rules: Rules, seats: int, rng: Rng | int | str | bytes | None = None
) -> tuple[State, list[Event]]:
    """A new match and the events of its start (dealer choice, deal, first card)."""
    if not isinstance(rules, Rules):
        raise MalformedAction("rules must be a mazziere.uno.Rules (see find_preset)")
    m = Machine.start(rules, seats, make_rng(rng).copy())
    return m.freeze(), m.events


def new_game(rules: Rules, seats: int, rng: Rng | int | str | bytes | None = None) -> State:
    """A new match of ``seats`` players. ``rng``: a seed for a reproducible game, a
    :class:`~mazziere.rng.Rng`, or ``None`` for a fresh OS-seeded cryptographic source."""
    return new_game_with_events(rules, seats, rng)[0]


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may do now, in a stable order: plays (by card, then colour/target),
    several-card plays, draw/pass/accept/challenge, then UNO call and catches. Out-of-turn
    actions (catch, jump-in, a third-party challenge) appear for seats whose turn it is not.
    Server-only actions (``timeout``, ``end_hand``) and ``leave`` are never listed."""
    if state.phase is Phase.OVER or not 0 <= seat < state.players:
        return ()
    return tuple(Machine.thaw(state, readonly=True).legal(seat))


def all_legal_actions(state: State) -> tuple[tuple[int, Action], ...]:
    """Every (seat, action) pair allowed now: the current seat first, then the others in
    seat order after it."""
    if state.phase is Phase.OVER:
        return ()
    m = Machine.thaw(state, readonly=True)
    out: list[tuple[int, Action]] = []
    for k in range(state.players):
        seat = (state.current + k) % state.players
        out.extend((seat, a) for a in m.legal(seat))
    return tuple(out)


def apply(state: State, seat: int, action: Action | str) -> tuple[State, list[Event]]:
    """Apply ``seat``'s action (an :class:`Action` or its text form). Raises
    :class:`~mazziere.errors.IllegalAction` (and subclasses) or ``MalformedAction``."""
    if isinstance(action, str):
        action = Action.parse(action)
    m = Machine.thaw(state)
    m.act(seat, action)
    return m.freeze(), m.events


def view(state: State, seat: int | None) -> View:
    """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
    own = seat is not None and 0 <= seat < state.players
    legal = legal_actions(state, seat) if own and seat is not None else ()
    return View(
        seat=seat,
        rules=state.rules,
        players=state.players,
        hand_no=state.hand_no,
        dealer=state.dealer,
        phase=state.phase,
        current=state.current,
        direction=state.direction,
        hand=state.hands[seat] if own and seat is not None else (),
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
    )


def replay(
    rules: Rules, seats: int, seed: Rng | int | str | bytes, actions: list[tuple[int, Action | str]]
) -> tuple[State, list[Event]]:
    """Replay a game from (rules, seed, actions); returns the final state and all events."""
    state, events = new_game_with_events(rules, seats, seed)
    for seat, action in actions:
        state, ev = apply(state, seat, action)
        events.extend(ev)
    return state, events
