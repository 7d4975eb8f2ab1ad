"""A seat's observation as a flat ``float32`` vector and the legal actions as fixed indices:
the per-step work of :mod:`mazziere.rl.uno_env`, compiled with mypyc like the engine.

The layout of both (which index means what) is documented once, in
:mod:`mazziere.rl.uno_encoding`, which re-exports these constants; this module writes it. It
uses the standard library only: it writes into buffers it is given (memoryviews, e.g. of a
zeroed NumPy array), value by value, where a NumPy call per value would cost more than the
write.

>>> from mazziere.uno import Game, find_preset
>>> g = Game.new(find_preset("mattel"), 2, rng=1)
>>> o = memoryview(bytearray(4 * OBS_SIZE)).cast("f")
>>> observe_into(o, g, 0, [])
>>> sum(o[O_HAND:O_HAND + FACES]) == len(g.hands[0]), o[O_COUNTS] == len(g.hands[0])
(True, True)
>>> legal = legal_indices(g.legal_actions(0), 0, 2)
>>> all(legal[i] in g.legal_actions(0) for i in legal)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from mazziere.uno import actions as A
from mazziere.uno import events as E
from mazziere.uno.game import Game
from mazziere.uno.state import COLOR, DRAWN, PENDING, PLAY

MAX_SEATS: Final = 10
FACES: Final = 54
HISTORY: Final = 8

PLAY_WILD: Final = 52
PLAY_WILD4: Final = 56
PLAY_TARGET: Final = 60
DRAW: Final = 132
PASS: Final = 133
ACCEPT: Final = 134
CHALLENGE: Final = 135
UNO: Final = 136
CATCH: Final = 137
COLOR_CHOICE: Final = 146
WAIT: Final = 150
MULTI: Final = 151
BASE_ACTIONS: Final = MULTI
MULTI_RANKS: Final = (1, 2, 3, 4, 5, 6, 8, 9)
_MULTI_INDEX: Final = (-1, 0, 1, 2, 3, 4, 5, -1, 6, 7)
MULTI_TARGET: Final = MULTI + 8 * 81 * 4
ACTIONS: Final = MULTI_TARGET + 2 * 81 * 4 * 10

O_HAND: Final = 0
O_TOP: Final = 54
O_COLOR: Final = 108
O_DIR: Final = 112
O_COUNTS: Final = 113
O_IN_HAND: Final = 123
O_ACTIVE: Final = 133
O_CURRENT: Final = 143
O_PENDING: Final = 153
O_PHASE: Final = 154
O_DRAWN: Final = 159
O_UNO_SEAT: Final = 213
O_UNO_CALLED: Final = 223
O_CHALLENGEABLE: Final = 224
O_W4_BY: Final = 225
O_SCORES: Final = 235
O_DRAW_PILE: Final = 245
O_DISCARD: Final = 246
O_HISTORY: Final = 247
HISTORY_WIDTH: Final = MAX_SEATS + FACES + 4
OBS_SIZE: Final = O_HISTORY + HISTORY * HISTORY_WIDTH

_WILD: Final = 52
_POWERS: Final = (1, 3, 9, 27)


def observe_into(out: memoryview, g: Game, me: int, history: list[tuple[int, int, int]]) -> None:
    """Write seat ``me``'s observation (:mod:`mazziere.rl.uno_encoding`'s table) into
    ``out``, a zeroed memoryview of :data:`OBS_SIZE` C floats (format ``"f"``: a NumPy
    ``float32`` array's ``.data``). ``history`` holds the public plays as
    :func:`history_entry` tuples, oldest first. It reads from the game exactly what
    :func:`mazziere.uno.view` shows that seat (its own hand and drawn card, the public counts
    and state), without building the view."""
    o: Any = out  # written through the buffer protocol, one float object per value
    one: Any = 1.0
    n = g.players
    hands: list[Any] = g.hands  # tuples; a test or tool may set lists
    f: int
    seen = 0  # the faces written so far, as bits: a repeated face adds, a new one is set
    for f in hands[me]:
        bit = 1 << f
        if seen & bit:
            o[f] = o[f] + one
        else:
            o[f] = one
            seen |= bit
    f = g.discard[-1]
    o[O_TOP + f] = one
    color = g.color
    if color is not None:
        f = color
        o[O_COLOR + f] = one
    if g.direction > 0:
        o[O_DIR] = one
    in_hand, active, scores = g.in_hand, g.active, g.scores
    ns = len(scores)
    for k in range(n):
        s = (me + k) % n
        o[O_COUNTS + k] = float(len(hands[s]))
        if in_hand[s]:
            o[O_IN_HAND + k] = one
        if active[s]:
            o[O_ACTIVE + k] = one
        score = scores[s % ns]  # per seat, or per team (seat % 2)
        if score:
            o[O_SCORES + k] = float(score)
    current = g.current
    o[O_CURRENT + (current - me) % n] = one
    pending = g.pending
    if pending:
        o[O_PENDING] = float(pending)
    phase = g.phase
    if phase is PLAY:
        o[O_PHASE] = one
    elif phase is DRAWN:
        o[O_PHASE + 1] = one
    elif phase is PENDING:
        o[O_PHASE + 2] = one
    elif phase is COLOR:
        o[O_PHASE + 3] = one
    else:
        o[O_PHASE + 4] = one
    drawn = g.drawn
    if drawn is not None and current == me:
        f = drawn
        o[O_DRAWN + f] = one
    uno_seat = g.uno_seat
    if uno_seat is not None:
        o[O_UNO_SEAT + (uno_seat - me) % n] = one
        if g.uno_called:
            o[O_UNO_CALLED] = one
    w4_by = g.w4_by
    if w4_by is not None:
        o[O_CHALLENGEABLE] = one
        o[O_W4_BY + (w4_by - me) % n] = one
    o[O_DRAW_PILE] = float(len(g.draw_pile))
    o[O_DISCARD] = float(len(g.discard))
    at = O_HISTORY
    i = len(history) - 1
    stop = max(-1, i - HISTORY)
    while i > stop:
        seat, face_at, colour_at = history[i]
        o[at + (seat - me) % n] = one
        o[at + face_at] = one
        o[at + colour_at] = one
        at += HISTORY_WIDTH
        i -= 1


def history_entry(seat: int, face: int, colour: int) -> tuple[int, int, int]:
    """A public play as :func:`observation` reads it: the seat, then where its face and the
    colour it set go inside a history slot."""
    return seat, MAX_SEATS + face, MAX_SEATS + FACES + colour


def record(events: Iterable[E.Event], history: list[tuple[int, int, int]]) -> int:
    """Append the public plays among ``events`` to ``history`` (keeping at least the last
    :data:`HISTORY`); returns the winner of a hand that ended among them, -1 for a hand
    nobody won, -2 when no hand ended."""
    ended = -2
    for e in events:
        if isinstance(e, E.Played):
            card: int = e.cards[-1]
            color = e.color
            colour: int = color if color is not None else card // 13
            history.append((e.seat, MAX_SEATS + card, MAX_SEATS + FACES + colour))
        elif isinstance(e, E.HandEnded):
            winner = e.winner
            ended = -1 if winner is None else winner
    if len(history) > 4 * HISTORY:
        del history[: len(history) - HISTORY]
    return ended


def action_index(action: A.Action, seat: int, players: int) -> int:
    """The index of ``seat``'s legal ``action`` in the fixed action space."""
    if isinstance(action, A.Play):
        return _play_index(action, seat, players)
    if isinstance(action, A.Draw):
        return DRAW
    if isinstance(action, A.Pass):
        return PASS
    if isinstance(action, A.Accept):
        return ACCEPT
    if isinstance(action, A.Challenge):
        return CHALLENGE
    if isinstance(action, A.CallUno):
        return UNO
    if isinstance(action, A.Catch):
        return CATCH + (action.target - seat) % players - 1
    if isinstance(action, A.ChooseColor):
        chosen: int = action.color
        return COLOR_CHOICE + chosen
    raise ValueError(f"{action!r} is not an action an agent takes")


def _play_index(p: A.Play, seat: int, players: int) -> int:
    cards = p.cards
    last: int = cards[-1]
    target = p.target
    offset = 0 if target is None else (target - seat) % players
    if len(cards) == 1:
        if last >= _WILD:
            color = p.color
            assert color is not None
            wild_colour: int = color
            return (PLAY_WILD if last == _WILD else PLAY_WILD4) + wild_colour
        if offset:
            rank, colour = last % 13, last // 13
            k = colour if rank == 0 else 4 + colour
            return PLAY_TARGET + k * 9 + offset - 1
        return last
    first: int = cards[0]
    rank = first % 13
    m = 0
    c: int
    for c in cards:
        m += _POWERS[c // 13]
    lastc = last // 13
    if rank == 0 or rank == 7:
        z = 0 if rank == 0 else 1
        return MULTI_TARGET + ((z * 81 + m) * 4 + lastc) * 10 + offset
    return MULTI + (_MULTI_INDEX[rank] * 81 + m) * 4 + lastc


def legal_indices(
    legal: tuple[A.Action, ...], seat: int, players: int
) -> dict[int, A.Action | None]:
    """``seat``'s legal actions by index (where several share an outcome, the last listed)."""
    out: dict[int, A.Action | None] = {}
    for a in legal:
        out[action_index(a, seat, players)] = a
    return out


def select(
    g: Game, declined: set[int], out_of_turn: bool
) -> tuple[int, dict[int, A.Action | None]]:
    """The seat to act and its legal actions by index: a seat offered an action out of turn
    (when ``out_of_turn``: the rules allow it) that is not in ``declined``, in seat order
    after the seat to play, with :data:`WAIT` (``None``) added; else the seat to play."""
    cur, n = g.current, g.players
    if out_of_turn:
        for k in range(1, n):
            s = (cur + k) % n
            if s in declined:
                continue
            offers = g.legal_actions(s)
            if offers:
                legal = legal_indices(offers, s, n)
                legal[WAIT] = None
                return s, legal
    return cur, legal_indices(g.legal_actions(cur), cur, n)


def mask_into(out: memoryview, indices: Iterable[int]) -> None:
    """Set ``out`` (a zeroed mask's memoryview) to 1 at ``indices``."""
    o: Any = out
    for i in indices:
        o[i] = 1


def observe_both(
    obs: memoryview,
    mask: memoryview,
    g: Game,
    me: int,
    history: list[tuple[int, int, int]],
    legal: dict[int, A.Action | None] | None,
) -> None:
    """:func:`observe_into` ``obs`` and :func:`mask_into` ``mask`` (zeroed) with ``legal``'s
    indices, or none when ``legal`` is ``None`` (``me`` is not to act): one call per step."""
    observe_into(obs, g, me, history)
    if legal is not None:
        mask_into(mask, legal)


def advance(
    g: Game,
    seat: int,
    chosen: A.Action | None,
    history: list[tuple[int, int, int]],
    declined: set[int],
    out_of_turn: bool,
    hand_episode: bool,
    more: bool,
) -> tuple[int, int, dict[int, A.Action | None]]:
    """One agent step of :mod:`mazziere.rl.uno_env` after its checks: ``seat`` takes
    ``chosen`` (``None``: waits, added to ``declined``; else pushed, its public plays
    :func:`record`-ed and ``declined`` cleared), then, unless the episode is over (a hand
    ended when ``hand_episode``, the match ended) or ``more`` is false (the step limit),
    :func:`select` the next. Returns (:func:`record`'s ``ended``, the next seat or -1 when
    none was selected, its legal actions by index)."""
    ended = -2
    if chosen is None:
        declined.add(seat)
    else:
        ended = record(g.push(chosen, seat), history)
        if declined:
            declined.clear()
        if (hand_episode and ended != -2) or g.result is not None:
            return ended, -1, {}
    if not more:
        return ended, -1, {}
    nxt, legal = select(g, declined, out_of_turn)
    return ended, nxt, legal
