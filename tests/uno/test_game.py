"""The in-place engine (``mazziere.uno.Game``): ``push`` accepts an action exactly when its
canonical form is listed (the object itself, an equal one, its text, a multi-play in another
order all give the same game), the refusals only explain what is not listed, a refusal changes
nothing, and ``legal_actions`` is computed once per position and seat."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mazziere.errors import IllegalAction, MalformedAction, NotYourTurn
from mazziere.rng import SplitMixRng
from mazziere.uno import Game, find_preset
from mazziere.uno.actions import (
    DRAW,
    Action,
    Play,
)
from mazziere.uno.engine import all_legal_actions
from mazziere.uno.refusals import explain_refusal

from .test_properties import _fuzz_states


def test_push_accepts_a_listed_action_in_any_form_with_the_same_result() -> None:
    """Legality is defined once: a listed action pushed as the listed object, as an equal
    new object, as its text, or (a multi-play) with its middle cards in another order gives
    the same game and events."""
    checked = 0
    for state in _fuzz_states():
        for seat, action in all_legal_actions(state):
            forms: list[Action | str] = [str(action)]
            if isinstance(action, Play):
                forms.append(Play(action.cards, action.color, action.target))
                if len(action.cards) > 2:
                    first, *middle, last = action.cards
                    forms.append(replace(action, cards=(first, *reversed(middle), last)))
            listed = state.copy()
            ev_listed = listed.push(action, seat)
            for form in forms:
                other = state.copy()
                assert other.push(form, seat) == ev_listed and other == listed, (seat, form)
            checked += 1
    assert checked > 1000


def test_a_refused_push_changes_nothing() -> None:
    g = Game.new(find_preset("mattel"), 3, rng=11)
    before = g.copy()
    other = (g.current + 1) % 3
    for seat, action in [(other, "draw"), (g.current, "accept"), (g.current, "R0,R0")]:
        with pytest.raises((IllegalAction, MalformedAction, NotYourTurn)):
            g.push(action, seat)
        assert g == before


def test_push_text_and_default_seat() -> None:
    g = Game.new(find_preset("mattel"), 2, rng=3)
    seat = g.current
    action = g.legal_actions()[-1]
    h = g.copy()
    assert g.push(str(action)) == h.push(action, seat)
    assert g == h and g.clock == 1


def test_legal_actions_are_cached_per_position_and_seat() -> None:
    g = Game.new(find_preset("house"), 4, rng=5)
    first = g.legal_actions(g.current)
    assert g.legal_actions(g.current) is first
    g.push(first[0])
    assert g.legal_actions(g.current) is not first
    assert g.legal_actions(g.current) == tuple(a for s, a in all_legal_actions(g) if s == g.current)


def test_copy_is_independent() -> None:
    g = Game.new(find_preset("classic"), 2, rng=SplitMixRng(9))
    c = g.copy()
    assert c == g and c is not g
    c.push(c.legal_actions()[0])
    assert c != g and g.clock == 0
    assert Action.parse("draw") == DRAW


def _candidates(state: Game, seat: int) -> list[Action]:
    """Every single-card play of the seat's hand (each colour and target, or none) and every
    word: the candidates a verify-then-list engine would filter."""
    from mazziere.cards.uno import Color
    from mazziere.uno.actions import ACCEPT, CALL_UNO, CHALLENGE, PASS, Catch, ChooseColor, Play

    out: list[Action] = [DRAW, PASS, ACCEPT, CHALLENGE, CALL_UNO]
    out += [Catch(s) for s in range(state.players)]
    out += [ChooseColor(c) for c in Color]
    for card in sorted(set(state.hands[seat])):
        for color in (None, *Color):
            for target in (None, *range(state.players)):
                out.append(Play((card,), color, target))
    return out


def test_push_accepts_exactly_the_listed_actions_and_refusals_explain_the_rest() -> None:
    """Every candidate is accepted by ``push`` exactly when it is listed; a refused one gets
    a specific reason from the refusals (never the generic ``illegal_action``), and the
    refusals object to no listed action (they agree with the generator, so every message
    names the rule that was broken)."""
    compared = 0
    for state in _fuzz_states()[::3]:
        for seat in range(state.players):
            legal = state.legal_actions(seat)
            listed = set(legal)
            for action in _candidates(state, seat):
                try:
                    state.copy().push(action, seat)
                    accepted = True
                except (IllegalAction, MalformedAction, NotYourTurn):
                    accepted = False
                assert accepted == (action in listed), (seat, str(action), state)
                with pytest.raises((IllegalAction, MalformedAction)) as why:
                    explain_refusal(state, seat, action, legal)
                generic = why.value.code == "illegal_action"
                assert generic == (action in listed), (seat, str(action), why.value, state)
                compared += 1
    assert compared > 5000


def test_a_seat_that_does_not_exist_has_no_legal_actions_after_a_push() -> None:
    """The legal-action cache never answers for a seat of no table (-1 marks it empty)."""
    g = Game.new(find_preset("mattel"), 2, rng=7)
    first = g.legal_actions()[0]
    g.push(first)
    assert g.legal_actions(-1) == ()
    with pytest.raises(MalformedAction):
        g.push(first, -1)


def test_new_game_refuses_wrong_argument_types_with_typed_errors() -> None:
    """Compiled or pure, a wrong type is a typed error, not a bare TypeError."""
    from mazziere.errors import OptionError

    with pytest.raises(OptionError) as e:
        Game.new(find_preset("mattel"), "3", rng=1)  # type: ignore[arg-type]
    assert e.value.code == "bad_player_count"
    with pytest.raises(OptionError):
        Game.new(find_preset("mattel"), True, rng=1)
    with pytest.raises(MalformedAction):
        Game.new("mattel", 2, rng=1)
    with pytest.raises(MalformedAction) as e2:
        Game.new(find_preset("mattel"), 2, rng=1.5)
    assert e2.value.code == "bad_rng"
