"""What a legal UNO action does: the effects of a play (the cards' powers and the house
rules'), a draw, a pass, an answer to a pending draw, a challenge, an UNO call, a catch and a
colour chosen, each applied to a game in place.

Every function here is given an action that is legal now (:mod:`mazziere.uno.legal` decides
which; :meth:`mazziere.uno.game.Game.push` calls these only with a listed action), so it checks
nothing and never raises. The effects every rule shares (drawing, advancing the turn, skips,
pending +2/+4 draws) are :class:`~mazziere.uno.state.GameData`'s own. Compiled with mypyc
(:mod:`mazziere._compiled`): a play is applied at every step of every game.
"""

from __future__ import annotations

from mazziere.cards.uno import COLORS, FACE_COLOR, WILD4_FACE, WILD_FACE, Color
from mazziere.uno import actions as A
from mazziere.uno import events as E
from mazziere.uno.events import Played, passed, played_one, reversed_to
from mazziere.uno.legal import may_precall, playable, stack_w4_legal
from mazziere.uno.matching import DRAW2_RANK, REVERSE_RANK, SKIP_RANK, rank, wild4_legal
from mazziere.uno.scoring import end_hand
from mazziere.uno.state import DRAWN, OVER, PENDING, PLAY, GameData

_RANK: tuple[int, ...] = tuple(rank(f) for f in range(54))
_FACE_COLOR_OBJ: tuple[Color | None, ...] = tuple(
    None if FACE_COLOR[f] < 0 else COLORS[FACE_COLOR[f]] for f in range(54)
)


def close_uno_window(g: GameData) -> None:
    """uno.md 8: the next player starting a turn closes the UNO window; with ``auto`` a
    player who did not call draws ``uno_penalty`` cards now."""
    s = g.uno_seat
    if s is None:
        return
    g.uno_seat = None
    if (
        g.rules.uno_call == "auto"
        and not g.uno_called
        and len(g.hands[s]) == 1
        and g.phase is not OVER
    ):
        g.events.append(E.UnoMissed(s))
        g.draw_cards(s, g.rules.uno_penalty, "uno")
    g.uno_called = False


# ---------------------------------------------------------------------- plays
def apply_play(g: GameData, seat: int, action: A.Play) -> None:
    """Apply a legal play (uno.md "A hand" 4, 6, 8, 9 and the house-rule options)."""
    cards = action.cards
    last = cards[-1]
    target = action.target
    stacking_now = g.phase is PENDING
    if g.uno_seat is not None:
        close_uno_window(g)  # may hand this very seat its UNO penalty (auto)
    hand = g.hands[seat]
    if len(cards) == 1:
        i = hand.index(last)
        last = hand[i]  # the hand's own (interned) card, whatever the action holds
        hand = hand[:i] + hand[i + 1 :]
    else:
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        hand = tuple(rest)
    if last < WILD_FACE:
        color_before = g.color = _FACE_COLOR_OBJ[last]
        was_legal_w4 = True
    else:
        color_before = g.color
        was_legal_w4 = True
        if last == WILD4_FACE:
            rules = g.rules
            if stacking_now:
                was_legal_w4 = (not rules.stack_wild4_rule_applies) or stack_w4_legal(g, seat)
            else:
                was_legal_w4 = wild4_legal(hand, g.discard[-1], color_before, rules)
        g.color = action.color
    g.hands[seat] = hand
    if len(cards) == 1:
        g.discard.append(last)
    else:
        g.discard.extend(cards)
    g.passes = 0
    jump = seat != g.current
    g.events.append(
        played_one(seat, last, action.color)
        if target is None and not jump and len(cards) == 1
        else Played(seat, cards, action.color, target, jump)
    )
    if jump:
        g.current = seat
    g.drawn = None
    g.phase = PLAY
    left = len(hand)
    if left == 1:
        g.uno_seat = seat
        g.uno_called = g.uno_ready == seat
    g.uno_ready = None
    if not left:
        _go_out(g, seat, last)
        return
    # --- effects ----------------------------------------------------------------------
    rules = g.rules
    if len(cards) == 2 and rules.burn and cards[0] == cards[1]:  # bruciata
        g.skip_next(seat)
        return
    r = _RANK[last]
    if r <= 9 and not (r == 7 or r == 0):  # advance(), inlined for the commonest play
        n, d, in_hand = g.players, g.direction, g.in_hand
        seat = (seat + d) % n
        while not in_hand[seat]:
            seat = (seat + d) % n
        g.current = seat
        g.turns += 1
        g.total_turns += 1
    elif r <= 9:
        if r == 7 and rules.seven_swap and target is not None:
            g.hands[seat], g.hands[target] = g.hands[target], g.hands[seat]
            g.events.append(E.Swapped(seat, target))
            g.uno_seat, g.uno_called = None, False
        elif r == 0 and rules.zero_rotate:
            _rotate_hands(g)
        elif r == 0 and rules.zero_gives_four and target is not None:
            g.draw_cards(target, 4, "zero")
        g.advance(seat)
    elif r == SKIP_RANK:
        g.skip_next(seat)
    elif r == REVERSE_RANK:
        if g.seats_in_hand() == 2 and rules.two_player_reverse == "skip":
            g.skip_next(seat)
        else:
            g.direction = -g.direction
            g.events.append(reversed_to(g.direction))
            g.advance(seat)
    elif r == DRAW2_RANK:
        g.hit_with_draw2(g.next_seat(seat), stacked=stacking_now)
    elif r == 13:
        g.advance(seat)
    else:  # +4
        g.hit_with_wild4(seat, color_before, was_legal_w4, stacked=stacking_now)


def _rotate_hands(g: GameData) -> None:
    seats = [s for s in range(g.players) if g.in_hand[s]]
    old = {s: g.hands[s] for s in seats}
    for s in seats:
        g.hands[g.next_seat(s)] = old[s]
    g.events.append(E.Rotated(g.direction))
    g.uno_seat, g.uno_called = None, False  # an open UNO window follows nobody


def _go_out(g: GameData, seat: int, last: int) -> None:
    """uno.md 9: the hand ends; a last +2/+4 (and any stack) is still drawn by the next
    player and counts in scoring."""
    r = rank(last)
    victim = g.next_seat(seat)
    count = g.pending + (2 if r == DRAW2_RANK else 4 if r == 14 else 0)
    g.clear_pending()
    if count:
        g.draw_cards(victim, count, "draw4" if r == 14 else "draw2")
    end_hand(g, seat, "out")


# ---------------------------------------------------------------------- draws and words
def apply_draw(g: GameData, seat: int, has_playable: bool) -> None:
    """uno.md 5 and 7: draw one card (by choice with ``voluntary_draw``, or for lack of a
    playable card); only the drawn card may then be played."""
    if g.uno_seat is not None:
        close_uno_window(g)
    g.uno_ready = None
    if not g.can_draw():
        g.events.append(E.Passed(seat, "nothing_to_draw"))
        g.passes += 1
        if g.passes >= g.seats_in_hand():
            end_hand(g, None, "blocked")
        else:
            g.advance(seat)
        return
    g.passes = 0
    c = g.draw_cards(seat, 1, "choice" if has_playable else "no_play")[0]
    if playable(g, seat, c):
        g.phase, g.drawn = DRAWN, c
    else:
        g.events.append(passed(seat, "kept"))
        g.advance(seat)


def apply_word(g: GameData, seat: int, action: A.Action, legal: tuple[A.Action, ...]) -> None:
    """Apply a legal word action (pass, accept, challenge, uno, catch, colour) of ``seat``,
    whose legal actions now are ``legal``."""
    if isinstance(action, A.Pass):
        _pass(g, seat)
    elif isinstance(action, A.Accept):
        close_uno_window(g)
        g.take_pending(seat)
    elif isinstance(action, A.Challenge):
        _challenge(g, seat)
    elif isinstance(action, A.CallUno):
        _call_uno(g, seat, legal)
    elif isinstance(action, A.Catch):
        _catch(g, seat, action.target)
    elif isinstance(action, A.ChooseColor):
        g.color = action.color
        g.events.append(E.ColorChosen(seat, action.color))
        g.phase = PLAY
    else:  # pragma: no cover - legal_actions lists no other kind
        raise AssertionError(f"not a listed word action: {action!r}")


def _pass(g: GameData, seat: int) -> None:
    if g.uno_seat is not None:
        close_uno_window(g)
    g.events.append(passed(seat, "kept"))
    g.drawn = None
    g.uno_ready = None
    g.advance(seat)


def _challenge(g: GameData, seat: int) -> None:
    """uno.md "Wild Draw Four" challenge: the server checks the hand without showing it.
    Guilty: the challenged draws 4, the victim neither draws nor loses the turn. Innocent:
    the victim-challenger draws the pending cards + 2 and loses the turn."""
    rules = g.rules
    offender, victim = g.w4_by, g.current
    assert offender is not None
    close_uno_window(g)
    guilty = not g.w4_legal
    g.events.append(E.Challenged(seat, offender, guilty))
    if guilty:
        g.clear_pending()
        g.draw_cards(offender, rules.challenge_guilty_draw, "challenge")
        g.current, g.phase = victim, PLAY
        return
    if seat == victim:
        count = g.pending + rules.challenge_innocent_extra
        g.clear_pending()
        g.draw_cards(victim, count, "challenge")
        g.events.append(E.skipped(victim))
        g.advance(victim)
    else:
        g.w4_by = None
        g.draw_cards(seat, rules.challenge_innocent_extra, "challenge")


def _call_uno(g: GameData, seat: int, legal: tuple[A.Action, ...]) -> None:
    if (
        seat == g.current
        and g.phase in (PLAY, DRAWN)
        and g.uno_ready != seat
        and may_precall(g, seat, list(legal))
    ):
        g.uno_ready = seat
        g.events.append(E.UnoCalled(seat))
        return
    g.uno_called = True
    g.events.append(E.UnoCalled(seat))


def _catch(g: GameData, seat: int, target: int) -> None:
    """uno.md 8 ``catch``: before the next player starts a turn, another player catches
    one who did not call UNO; the caught player draws ``uno_penalty`` cards."""
    g.uno_seat, g.uno_called = None, False
    g.events.append(E.Caught(seat, target))
    g.draw_cards(target, g.rules.uno_penalty, "uno")
