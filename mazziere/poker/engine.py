"""The draw-poker engine's pure API: ``new_game``, ``legal_actions``, ``apply``, ``view``
(draw-poker.md; docs/architecture.md "Rules engines").

>>> from mazziere.poker import Rules, new_game, legal_actions, apply
>>> s = new_game(Rules(), rng=7)
>>> s.pot, s.bankrolls, [str(a) for a in legal_actions(s, s.current)][-2:]
(10, (495, 495), ['wait', 'fold'])
>>> s2, events = apply(s, s.current, "open 10")
>>> (s.pot, s2.pot), s2.current != s.current
((10, 20), True)

A game is replayed exactly from (rules, seed, actions). ``apply`` never changes its input; a
refused action raises a typed error (:class:`~mazziere.errors.IllegalAction` and subclasses,
each with a ``code`` naming the rule) and the caller's state is intact. The next deal starts
inside the ``apply`` that ends a deal, so the events of one action may span two deals.

Play mode: the human is seat 0, the computer seat 1 (the only seat that pledges items).
"""

from __future__ import annotations

from mazziere.errors import MalformedAction
from mazziere.poker.actions import Action
from mazziere.poker.events import Event
from mazziere.poker.machine import Machine
from mazziere.poker.options import Rules
from mazziere.poker.state import State
from mazziere.poker.view import View
from mazziere.rng import Rng, make_rng


def new_game_with_events(
    rules: Rules, rng: Rng | int | str | bytes | None = None, first_actor: int = 0
) -> tuple[State, list[Event]]:
    """A new game and the events of its start (antes, pledges, deal 1)."""
    if not isinstance(rules, Rules):
        raise MalformedAction("rules must be a mazziere.poker.Rules (see find_preset)")
    m = Machine.start(rules, make_rng(rng).copy(), first_actor)
    return m.freeze(), m.events


def new_game(
    rules: Rules, rng: Rng | int | str | bytes | None = None, first_actor: int = 0
) -> State:
    """A new heads-up game. ``rng``: a seed for a reproducible game, an
    :class:`~mazziere.rng.Rng`, or ``None`` for a fresh OS-seeded cryptographic source;
    ``first_actor``: the seat that acts first in deal 1."""
    return new_game_with_events(rules, rng, first_actor)[0]


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may do now, in a stable order: opens/raises by amount, then the other
    words of the round; in the draw, every subset of the hand by size."""
    if state.is_over or seat not in (0, 1):
        return ()
    return tuple(Machine.thaw(state).legal(seat))


def apply(state: State, seat: int, action: Action | str) -> tuple[State, list[Event]]:
    """Apply ``seat``'s action (an :class:`Action` or its text form)."""
    if isinstance(action, str):
        action = Action.parse(action)
    if not isinstance(action, Action):
        raise MalformedAction("an action is a mazziere.poker Action or its text form")
    m = Machine.thaw(state)
    m.act(seat, action)
    return m.freeze(), m.events


def view(state: State, seat: int | None) -> View:
    """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
    own = seat in (0, 1)
    m = Machine.thaw(state)
    me = seat if own and seat is not None else -1
    return View(
        seat=seat,
        rules=state.rules,
        deal_no=state.deal_no,
        first=state.first,
        phase=state.phase,
        current=state.current,
        hand=state.hands[me] if me >= 0 else (),
        deck_count=len(state.deck),
        pot=state.pot,
        bankrolls=state.bankrolls,
        committed=state.committed,
        owed=state.owed(me) if me >= 0 else 0,
        raises=state.raises,
        drawn=state.drawn,
        items=state.items,
        history=state.history,
        words=m.words(me) if me >= 0 else (),
        bet_range=m.bet_range(me) if me >= 0 and state.current == me else None,
        result=state.result,
    )


def replay(
    rules: Rules,
    seed: Rng | int | str | bytes,
    actions: list[tuple[int, Action | str]],
    first_actor: int = 0,
) -> tuple[State, list[Event]]:
    """Replay a game from (rules, seed, actions); returns the final state and all events."""
    state, events = new_game_with_events(rules, seed, first_actor)
    for seat, action in actions:
        state, ev = apply(state, seat, action)
        events.extend(ev)
    return state, events
