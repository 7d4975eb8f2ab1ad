"""Why an UNO action was refused: the typed error (its ``code`` and a message naming the
rule) for an action that is not legal now.

:meth:`mazziere.uno.game.Game.push` decides legality by looking the action up among the legal
actions (:mod:`mazziere.uno.legal`); only an action it did not find comes here, so these checks
explain a refusal and never accept anything. Each check names the uno.md section it applies.
An action every check lets through is still refused, with the generic ``illegal_action``
code. Nothing here changes the game. Not compiled: it runs only for refused actions.
"""

from __future__ import annotations

from typing import NoReturn

from mazziere.cards.uno import WILD4_FACE, WILD_FACE, Card, Color
from mazziere.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from mazziere.uno import actions as A
from mazziere.uno.legal import (
    NUMBER,
    has_playable,
    others,
    playable,
    stack_playable,
    zero_targets,
)
from mazziere.uno.matching import rank
from mazziere.uno.state import COLOR, DRAWN, OVER, PENDING, PLAY, GameData, Phase

_PHASE_HINT = {
    PLAY: "play a card or draw",
    DRAWN: "you drew a playable card: play it or pass",
    PENDING: "draw cards are pending: accept, stack or challenge",
    COLOR: "choose the colour of the first card (a Wild) first",
    OVER: "the match is over",
}


def explain_refusal(
    g: GameData, seat: object, action: object, legal: tuple[A.Action, ...]
) -> NoReturn:
    """Raise the typed error for ``seat``'s ``action``, which is not legal now; ``legal``:
    the seat's legal actions (when it is a seat of the table). ``seat`` and ``action`` may
    be anything a caller sent: they are checked here."""
    if g.phase is OVER:
        raise GameOver("the match is over; no more actions are accepted")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.players:
        raise MalformedAction(f"seat {seat!r} does not exist at this {g.players}-seat table")
    if not isinstance(action, A.Action):
        raise MalformedAction(f"{action!r} is not an UNO action")
    if isinstance(action, A.Timeout):
        if seat != g.current:
            raise NotYourTurn(f"seat {seat} has no decision pending; seat {g.current} has")
    elif isinstance(action, A.Leave):
        raise IllegalAction(
            "only two-player tables with the abandonment rule can be left (at four players a "
            "table cannot be left)",
            "leave_not_allowed",
        )
    elif isinstance(action, A.EndHand):
        pass
    elif not g.in_hand[seat]:
        raise NotYourTurn(f"seat {seat} is not playing this hand", "not_in_hand")
    elif isinstance(action, A.Play):
        _check_play(g, seat, action)
    elif isinstance(action, A.Draw):
        _check_draw(g, seat)
    else:
        _check_word(g, seat, action, legal)
    raise IllegalAction(f"{action} is not among seat {seat}'s legal actions now")


def _require_turn(g: GameData, seat: int, *phases: Phase) -> None:
    if seat != g.current:
        raise NotYourTurn(f"it is seat {g.current}'s turn, not seat {seat}'s")
    if g.phase not in phases:
        raise IllegalAction(_PHASE_HINT[g.phase], f"wrong_phase_{g.phase.value}")


def _check_play(g: GameData, seat: int, action: A.Play) -> None:
    """Every reason a play is refused (uno.md "A hand" 4, 6, 8, 9, the house rules)."""
    rules = g.rules
    cards = action.cards
    if not cards or not all(isinstance(c, int) and 0 <= c < 54 for c in cards):
        raise MalformedAction("a play names one or more cards")
    hand = g.hands[seat]
    jump = seat != g.current
    if jump:
        top = g.discard[-1]
        if not (
            rules.jump_in
            and g.phase is PLAY
            and len(cards) == 1
            and cards[0] == top
            and top < WILD_FACE
        ):
            if rules.jump_in:
                raise NotYourTurn(
                    f"it is seat {g.current}'s turn; out of turn only a card identical "
                    f"to the {top} on the pile may jump in"
                )
            raise NotYourTurn(f"it is seat {g.current}'s turn, not seat {seat}'s")
    elif g.phase not in (PLAY, DRAWN, PENDING):
        raise IllegalAction(_PHASE_HINT[g.phase], f"wrong_phase_{g.phase.value}")
    # the cards must be in the hand, counting copies
    remaining = list(hand)
    for c in cards:
        if c not in remaining:
            raise IllegalAction(f"{_fmt(cards)}: {Card(c)} is not in your hand", "not_in_hand")
        remaining.remove(c)
    last = cards[-1]
    if len(cards) > 1:
        if g.phase is not PLAY or jump:
            raise IllegalAction(
                "several cards may only be played as a normal turn's play",
                "multi_play_not_allowed",
            )
        if not all(NUMBER[c] and c % 13 == cards[0] % 13 for c in cards):
            raise IllegalAction(
                "cards played together must be number cards of one number",
                "multi_play_mismatch",
            )
        burn = rules.burn and len(cards) == 2 and cards[0] == cards[1]
        if not burn and not rules.multi_play:
            raise IllegalAction(
                "several cards at once need multi_play (or burn, for two identical cards)",
                "multi_play_not_allowed",
            )
        if not playable(g, seat, cards[0]):
            raise IllegalAction(f"{Card(cards[0])} does not match the pile", "no_match")
    elif g.phase is DRAWN:
        if last != g.drawn:
            raise IllegalAction(
                f"after drawing only the drawn card ({g.drawn}) may be played",
                "only_drawn_card",
            )
        if not playable(g, seat, last):
            raise IllegalAction(f"{Card(last)} does not match the pile", "no_match")
    elif g.phase is PENDING:
        if not stack_playable(g, seat, last):
            raise IllegalAction(
                f"{g.pending} cards are pending: accept them"
                + (", challenge" if g.w4_by is not None else "")
                + f"; {Card(last)} cannot be stacked here (stacking={rules.stacking})",
                "must_answer_draw",
            )
    elif not playable(g, seat, last):
        if last == WILD4_FACE:
            raise IllegalAction(
                "a Wild Draw Four is only legal with no other card of the current colour"
                if rules.wild4_rule == "color"
                else "a Wild Draw Four is only legal with no other playable card",
                "wild4_not_allowed",
            )
        if not rules.go_out_on_action and len(hand) == 1:
            raise IllegalAction(
                "the hand may not end on an action or wild card (go_out_on_action=false)",
                "cannot_go_out_on_action",
            )
        raise IllegalAction(
            f"{Card(last)} does not match {g.discard[-1]} (colour {g.color})"
            if g.color is not None
            else f"{Card(last)} does not match the pile",
            "no_match",
        )
    # colour and target
    if last >= WILD_FACE:
        if not isinstance(action.color, Color):
            raise MalformedAction(
                f"{Card(last)} needs a colour, e.g. '{Card(last)}:R'", "color_required"
            )
    elif action.color is not None:
        raise MalformedAction("only a Wild or Wild Draw Four takes a colour", "color_not_allowed")
    target = action.target
    if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
        raise MalformedAction("a target is a seat number", "bad_target")
    r = rank(last)
    if r == 7 and rules.seven_swap:
        if target is None or target not in others(g, seat):
            raise MalformedAction(
                "a 7 swaps hands: name another seat in the hand, e.g. R7>1", "target_required"
            )
    elif r == 0 and rules.zero_gives_four:
        if target is not None and target not in zero_targets(g, seat):
            raise IllegalAction(f"seat {target} may not be chosen to draw four", "bad_target")
    elif target is not None:
        raise MalformedAction(
            "only a 7 (seven_swap) or a 0 (zero_gives_four) takes a seat", "target_not_allowed"
        )


def _check_draw(g: GameData, seat: int) -> None:
    _require_turn(g, seat, PLAY)
    can_play = has_playable(g, seat)
    if can_play and not g.can_draw():
        raise IllegalAction(
            "nothing is left to draw and you hold a playable card: play it", "must_play"
        )
    if can_play and not g.rules.voluntary_draw:
        raise IllegalAction("you hold a playable card and voluntary_draw is off", "must_play")


def _check_word(g: GameData, seat: int, action: A.Action, legal: tuple[A.Action, ...]) -> None:
    """Every reason a word action (pass, accept, challenge, uno, catch, colour) is
    refused; the checks of uno.md's sections named in :mod:`mazziere.uno.effects`, which
    applies them."""
    rules = g.rules
    if isinstance(action, A.Pass):
        _require_turn(g, seat, DRAWN)
        if A.PASS not in legal:
            raise IllegalAction(
                f"the drawn card {g.drawn} is playable and must be played (drawn_card=must_play)",
                "must_play_drawn",
            )
    elif isinstance(action, A.Accept):
        _require_turn(g, seat, PENDING)
    elif isinstance(action, A.Challenge):
        if g.phase is not PENDING or g.w4_by is None:
            raise IllegalAction(
                "there is no Wild Draw Four to challenge now", "nothing_to_challenge"
            )
        if seat != g.current and (rules.challenge_by != "any" or seat == g.w4_by):
            if rules.challenge_by == "victim":
                raise NotYourTurn(
                    "only the player who must draw may challenge (challenge_by=victim)",
                    "not_the_victim",
                )
            raise IllegalAction("you cannot challenge your own Wild Draw Four", "own_wild4")
    elif isinstance(action, A.CallUno):
        if rules.uno_call == "off":
            raise IllegalAction("UNO calls are not used at this table (uno_call=off)", "uno_off")
        if A.CALL_UNO not in legal:
            raise IllegalAction(
                "UNO is called when playing your next-to-last card or while holding one card",
                "uno_not_due",
            )
    elif isinstance(action, A.Catch):
        _check_catch(g, seat, action.target)
    elif isinstance(action, A.ChooseColor):
        _require_turn(g, seat, COLOR)
        if not isinstance(action.color, Color):
            raise MalformedAction("choose one of R, Y, G, B")


def _check_catch(g: GameData, seat: int, target: int) -> None:
    if g.rules.uno_call != "catch":
        raise IllegalAction(
            "catching is not used at this table (uno_call is not 'catch')", "catch_off"
        )
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < g.players:
        raise MalformedAction(f"seat {target!r} does not exist")
    if target == seat:
        raise IllegalAction("you cannot catch yourself", "catch_rejected")
    if len(g.hands[target]) != 1:
        raise IllegalAction(f"seat {target} holds more than one card", "catch_rejected")
    if g.uno_seat != target:
        raise IllegalAction(f"too late: seat {target} can no longer be caught", "catch_rejected")
    if g.uno_called:
        raise IllegalAction(f"seat {target} called UNO", "catch_rejected")


def _fmt(cards: tuple[Card, ...]) -> str:
    return ",".join(str(Card(c)) for c in cards)
