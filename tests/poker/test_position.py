"""Draw-poker positions as text (docs/positions.md, :mod:`mazziere.poker.position`): exact
round trips on random states of every preset, identical continuations, the actions a short
position offers, and typed errors for malformed positions."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.errors import BadPosition
from mazziere.poker import (
    PRESETS,
    ItemStatus,
    Phase,
    Rules,
    State,
    apply,
    find_preset,
    format_position,
    legal_actions,
    new_game,
    parse_position,
)
from mazziere.poker.position import KEYS, diff_positions, discards
from mazziere.rng import ShakeRng, SplitMixRng

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")
STATES_PER_PRESET = 10_000 // len(PRESETS) + 1
POOR = find_preset("classic").with_options(bankroll=40, item_value=20, max_bet=None)
"""Small bankrolls and cheap items: games end within a few deals, with pledges on the way."""


def random_states(rules: Rules, seed: int, max_steps: int = 300) -> Iterator[State]:
    """Every state of one game played by random legal actions (SplitMix or SHAKE sources
    alternately, either seat first), to its end or ``max_steps``."""
    pick = random.Random(seed)
    src = SplitMixRng(seed) if seed % 2 else ShakeRng.from_seed(seed)
    s = new_game(rules, src, first_actor=pick.randrange(2))
    for _ in range(max_steps):
        yield s
        if s.is_over:
            return
        s, _ = apply(s, s.current, pick.choice(legal_actions(s, s.current)))


def sampled_states(rules: Rules, count: int, seed: int = 0) -> Iterator[State]:
    made = 0
    while made < count:
        for s in random_states(rules, seed):
            yield s
            made += 1
            if made == count:
                return
        seed += 1


def _round_trip(states: Iterator[State]) -> tuple[set[Phase], int, int]:
    phases: set[Phase] = set()
    pledged = draws = 0
    for s in states:
        text = format_position(s)
        back = parse_position(text, s.rules)
        assert back == s, diff_positions(back, s)
        assert format_position(back) == text
        phases.add(s.phase)
        pledged += any(i is not ItemStatus.WORN for i in s.items)
        draws += bool(discards(s))
    return phases, pledged, draws


@pytest.mark.parametrize("preset", list(PRESETS))
def test_round_trip_on_random_mid_game_states_of_every_preset(preset: str) -> None:
    """parse_position(format_position(s)) == s, and formatting again gives the same text."""
    phases, _, draws = _round_trip(sampled_states(PRESETS[preset], STATES_PER_PRESET))
    assert phases >= {Phase.BET1, Phase.DRAW, Phase.BET2} and draws


def test_round_trip_to_the_end_of_games_with_pledges() -> None:
    phases, pledged, _ = _round_trip(sampled_states(POOR, 2000, seed=100))
    assert phases == set(Phase) and pledged


def test_a_parsed_position_continues_exactly_like_the_original() -> None:
    """The game's random source and the deck are in the text: the same actions give the same
    states and events, the next deals' shuffles included."""
    deals = 0
    for seed in range(20):
        states = list(random_states(PRESETS["classic32"], 300 + seed, max_steps=60))
        start = states[len(states) // 2]
        if start.is_over:
            continue
        a, b = start, parse_position(format_position(start), start.rules)
        pick = random.Random(seed)
        for _ in range(40):
            if a.is_over:
                break
            acts = legal_actions(a, a.current)
            assert acts == legal_actions(b, b.current)
            action = pick.choice(acts)
            (a, ea), (b, eb) = apply(a, a.current, action), apply(b, b.current, action)
            assert ea == eb
            assert a == b, diff_positions(a, b)
        deals += a.deal_no - start.deal_no
    assert deals >= 10


def test_the_formatter_writes_every_key_once_in_order() -> None:
    tokens = format_position(new_game(PRESETS["classic"], 3)).split()
    assert tokens[0] == "poker"
    assert [t.split("=")[0] for t in tokens[1:]] == list(KEYS)


# ---------------------------------------------------------------------- named positions
NAMED = json.loads((Path(__file__).parents[1] / "fixtures/positions/poker.json").read_text())
"""Golden positions (tests/fixtures/positions/poker.json): hand-written texts, each with both
seats' legal actions, one per situation of the betting flow the rules describe."""


@pytest.mark.parametrize("case", NAMED, ids=[c["name"] for c in NAMED])
def test_golden_positions_give_the_recorded_legal_actions(case: dict[str, Any]) -> None:
    rules = find_preset(case["preset"]).with_options(**case["options"])
    s = parse_position(case["position"], rules)
    legal = {str(seat): [str(a) for a in legal_actions(s, seat)] for seat in (0, 1)}
    assert legal == case["legal"]
    assert parse_position(format_position(s), rules) == s


def test_golden_positions_cover_every_phase() -> None:
    phases = {
        parse_position(c["position"], find_preset(c["preset"]).with_options(**c["options"])).phase
        for c in NAMED
    }
    assert phases == set(Phase)


CLASSIC = find_preset("classic")
HANDS = "hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s"


def test_a_short_hand_written_position_fills_the_rest() -> None:
    s = parse_position(f"poker {HANDS} deck=9h,*", CLASSIC)
    assert s.deal_no == 1 and s.phase is Phase.BET1 and s.current == s.first == 0
    assert s.pot == 10 and s.bankrolls == (495, 495) and str(s.deck[0]) == "9h"
    assert len(s.deck) == 42 and s.drawn == (-1, -1) and s.commitment == ""
    assert [str(a) for a in legal_actions(s, 0)][-2:] == ["wait", "fold"]


def test_replacing_cards_takes_them_from_the_top_of_the_deck() -> None:
    s = parse_position(
        f"poker {HANDS} deck=9h,9d,* phase=draw acts=2 history=0:wait:0,1:replace:0", CLASSIC
    )
    after, _ = apply(s, 0, "draw 7c 2s")
    assert [str(c) for c in after.hands[0]] == ["Ah", "Ad", "9h", "7d", "9d"]
    assert after.current == 1 and [str(c) for c in discards(after)] == ["2s", "7c"]
    text = format_position(after)
    assert " discards=2s,7c " in text and parse_position(text, CLASSIC) == after


def test_a_tied_pot_is_carried_into_the_next_deal() -> None:
    """Both stand pat with the same hand ranks: SEE shows down a tie and the pot stays."""
    tie = "hands=Ah,Kd,Qc,Js,9h/As,Kh,Qd,Jc,9s phase=bet2 drawn=0,0"
    s = parse_position(f"poker {tie} acts=1 turn=1 history=0:see:0", CLASSIC)
    after, _ = apply(s, 1, "see")
    assert after.deal_no == 2 and after.pot == 20 and after.bankrolls == (490, 490)
    assert parse_position(format_position(after), CLASSIC) == after


# ---------------------------------------------------------------------- malformed positions
BASE = new_game(PRESETS["classic"], SplitMixRng(5))
BASE_TEXT = format_position(BASE)


def _with(text: str, key: str, value: str) -> str:
    return re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text)


def _field(text: str, key: str) -> str:
    m = re.search(rf"(?<= ){key}=(\S*)", text)
    assert m
    return m.group(1)


@pytest.mark.parametrize(
    "key,value,code",
    [
        ("phase", "showdown", "bad_phase"),
        ("phase", "over", "bad_phase"),
        ("phase", "bet2", "bad_phase"),
        ("result", "1:tired", "bad_phase"),
        ("deal", "0", "bad_phase"),
        ("drawn", "2,-1", "bad_phase"),
        ("turn", "1", "bad_seat"),
        ("turn", "2", "bad_seat"),
        ("first", "-1", "bad_seat"),
        ("history", "3:open:5", "bad_seat"),
        ("hands", "Ah,Ad/Kh", "bad_count"),
        ("hands", "Ah,Ad,Ac,As,Kh", "bad_count"),
        ("bankrolls", "495", "bad_count"),
        ("drawn", "6,-1", "bad_count"),
        ("raises", "1", "bad_count"),
        ("items", "www", "bad_count"),
        ("hands", "Zz,Ad,Ac,As,Kh/Kd,Kc,Ks,Qh,Qd", "bad_card"),
        ("deck", "-", "cards_not_conserved"),
        ("discards", "2c", "cards_not_conserved"),
        ("pot", "11", "money_not_conserved"),
        ("bankrolls", "496,495", "money_not_conserved"),
        ("committed", "6,6", "money_not_conserved"),
        ("items", "pwwwww", "bad_pledge"),
        ("pledges", "0", "bad_pledge"),
        ("rng", "mersenne:1", "bad_rng"),
        ("rng", "shake:00:1:0", "bad_rng"),
        ("commit", "abc", "bad_rng"),
        ("pot", "ten", "bad_position"),
        ("items", "wwwxww", "bad_position"),
        ("history", "0:check:0", "bad_position"),
        ("result", "1", "bad_position"),
        ("result", "1:bad%zz", "bad_position"),
    ],
)
def test_malformed_fields_raise_typed_errors(key: str, value: str, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(_with(BASE_TEXT, key, value), BASE.rules)
    assert e.value.code == code, e.value


@pytest.mark.parametrize(
    "text,rules,code",
    [
        ("", CLASSIC, "bad_position"),
        ("uno hands=R1/R2 discard=R3", CLASSIC, "bad_position"),
        ("poker deal=1", CLASSIC, "bad_position"),
        ("poker hands=-/- hands=-/-", CLASSIC, "bad_position"),
        ("poker hands=-/- chips=5", CLASSIC, "bad_position"),
        (f"poker {HANDS}/Qs", CLASSIC, "bad_count"),
        (f"poker {HANDS}", PRESETS["classic32"], "cards_not_conserved"),
        (f"poker {HANDS} phase=bet2 drawn=1,1", CLASSIC, "cards_not_conserved"),
        (f"poker {HANDS} phase=draw drawn=0,-1 turn=0", CLASSIC, "bad_seat"),
        (f"poker {HANDS} phase=draw drawn=-1,0 turn=1", CLASSIC, "bad_phase"),
        ("poker deal=0 hands=-/- phase=over result=1:x", CLASSIC, "cards_not_conserved"),
    ],
)
def test_malformed_positions_raise_typed_errors(text: str, rules: Rules, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(text, rules)
    assert e.value.code == code, e.value


def test_an_item_pledged_for_chips_neither_kept_nor_in_the_pot_is_refused() -> None:
    """The boots pledged for 100 chips, but the computer holds none and the pot only 10: no
    game reaches that, and playing it would buy the boots back with chips that do not exist."""
    with pytest.raises(BadPosition) as e:
        parse_position(
            "poker hands=Ah,Kd,Qc,Js,9d/As,Kh,Qd,Jc,9h bankrolls=1590,0 items=fffffp "
            "pledges=0,1,2,3,4,5",
            CLASSIC,
        )
    assert e.value.code == "bad_pledge"


@pytest.mark.parametrize(
    "fields,code",
    [
        ("bankrolls=1100,90 items=pfwwww pledges=0,1", "bad_pledge"),
        (
            "bankrolls=1590,0 pot=10 items=ffffff pledges=0,1,2,3,4,5 phase=over result=0:x",
            "bad_phase",
        ),
        ("bankrolls=1000,100 pot=0 items=pwwwww pledges=0 phase=over result=1:x", "bad_pledge"),
        ("acts=1 turn=1 committed=0,5", "bad_bet"),
        ("bankrolls=0,980 pot=20 first=1 acts=1 committed=0,10", "bad_bet"),
        ("phase=draw acts=2 committed=5,0", "bad_bet"),
    ],
)
def test_pledges_and_bets_no_game_reaches_are_refused(fields: str, code: str) -> None:
    """Pledged items above the forfeited ones and paid for, a finished game settled, and the
    seat to act answering a bet it can pay."""
    with pytest.raises(BadPosition) as e:
        parse_position(f"poker {HANDS} {fields}", CLASSIC)
    assert e.value.code == code, e.value


def test_rules_are_poker_rules() -> None:
    with pytest.raises(BadPosition):
        parse_position(f"poker {HANDS}", {"deck": 52})  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), duplicate=st.booleans())
def test_a_card_removed_or_duplicated_is_not_conserved(
    data: st.DataObject, duplicate: bool
) -> None:
    """Taking one card out of a hand or the deck, or copying one, is refused."""
    key = data.draw(st.sampled_from(["hands", "deck"]))
    groups = _field(BASE_TEXT, key).split("/")
    gi = data.draw(st.integers(0, len(groups) - 1))
    cards = groups[gi].split(",")
    ci = data.draw(st.integers(0, len(cards) - 1))
    if duplicate:
        cards.insert(ci, cards[ci])
    else:
        del cards[ci]
    groups[gi] = ",".join(cards)
    with pytest.raises(BadPosition) as e:
        parse_position(_with(BASE_TEXT, key, "/".join(groups)), BASE.rules)
    assert e.value.code in ("cards_not_conserved", "bad_count")


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    junk=st.text(alphabet="AKQJT98765432cdhs:,-=/*_% xwpf", max_size=6) | st.text(max_size=4),
)
def test_any_corrupted_text_is_read_or_refused_with_a_typed_error(
    data: st.DataObject, junk: str
) -> None:
    """Characters cut out of or put into a valid position: the parser returns a valid game
    (which formats back to a text that parses to it) or raises BadPosition, nothing else."""
    text = BASE_TEXT
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + junk + text[j:]
    try:
        s = parse_position(text, BASE.rules)
    except BadPosition as e:
        assert SNAKE_CASE.match(e.code)
        return
    assert parse_position(format_position(s), BASE.rules) == s
