"""UNO CASINO positions as text (docs/positions.md, :mod:`mazziere.casino.position`): exact
round trips on random mid-round states, identical continuations, the rules a short position
shows, and typed errors for malformed positions."""

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

from mazziere.casino import (
    CasinoRound,
    CasinoRules,
    apply,
    default_action,
    format_position,
    legal_actions,
    new_round,
    parse_position,
    play_default,
)
from mazziere.casino.position import KEYS, diff_positions
from mazziere.errors import BadPosition, IllegalAction
from mazziere.rng import ShakeRng, SplitMixRng
from mazziere.uno.position import KEYS as UNO_KEYS
from mazziere.uno.state import Phase

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")
RULES = CasinoRules()
STATES = 10_000


def random_rounds(seed: int, rules: CasinoRules = RULES) -> Iterator[CasinoRound]:
    """Every state of one round with a random stake, the player choosing at random among the
    legal actions (or by the default strategy one time in ten); SplitMix or SHAKE sources
    alternately."""
    pick = random.Random(seed)
    src = SplitMixRng(seed) if seed % 2 else ShakeRng.from_seed(seed)
    r, _ = new_round(rules, pick.randint(rules.min_stake, rules.max_stake), rng=src)
    while True:
        yield r
        if r.result is not None:
            return
        acts = legal_actions(r)
        if pick.random() < 0.1:
            r, _ = play_default(r)
        else:
            r, _ = apply(r, pick.choice(acts))


def test_round_trip_on_random_mid_round_states() -> None:
    """parse_position(format_position(r)) == r, and formatting again gives the same text, on
    10,000 states of random rounds (every phase the player meets, ended rounds included)."""
    seen, phases, reasons, multipliers, seed = 0, set(), set(), set(), 0
    while seen < STATES:
        for r in random_rounds(seed):
            text = format_position(r)
            back = parse_position(text, RULES)
            assert back == r, diff_positions(back, r)
            assert format_position(back) == text
            seen += 1
            phases.add(r.uno.phase)
            multipliers.add(r.multiplier)
            if r.result is not None:
                reasons.add(r.result.reason)
        seed += 1
    assert {Phase.PLAY, Phase.DRAWN, Phase.OVER} <= phases
    assert multipliers == {1, 2, 3}
    assert {"player_out", "bank_out", "no_draw_at_x1"} <= reasons


def test_a_parsed_round_continues_exactly_like_the_original() -> None:
    """The strategies' source and the UNO sources are in the text: the same player actions
    (and the default strategy's, which draws on the strategies' source) give the same
    rounds and events to the end."""
    checked = 0
    for seed in range(60):
        states = list(random_rounds(1000 + seed))
        start = states[len(states) // 2]
        if start.result is not None:
            continue
        a, b = start, parse_position(format_position(start), RULES)
        pick = random.Random(seed)
        while a.result is None:
            acts = legal_actions(a)
            assert acts == legal_actions(b)
            assert default_action(a) == default_action(b)
            if seed % 2:
                (a, ea), (b, eb) = play_default(a), play_default(b)
            else:
                action = pick.choice(acts)
                (a, ea), (b, eb) = apply(a, action), apply(b, action)
            assert ea == eb
            assert a == b, diff_positions(a, b)
            assert format_position(a) == format_position(b)
        assert a.result == b.result
        checked += 1
    assert checked > 30


def test_the_formatter_writes_every_key_once_in_order() -> None:
    r, _ = new_round(RULES, 100, rng=SplitMixRng(3))
    head, _, uno = format_position(r).partition(" uno ")
    tokens = head.split()
    assert tokens[0] == "casino"
    assert [t.split("=")[0] for t in tokens[1:]] == list(KEYS)
    assert [t.split("=")[0] for t in uno.split()] == list(UNO_KEYS)


# ---------------------------------------------------------------------- named positions
NAMED = json.loads((Path(__file__).parents[1] / "fixtures/positions/casino.json").read_text())
"""Golden positions (tests/fixtures/positions/casino.json): hand-written texts, each with the
player's legal actions and what the player's default strategy would do."""


@pytest.mark.parametrize("case", NAMED, ids=[c["name"] for c in NAMED])
def test_golden_positions_give_the_recorded_legal_actions(case: dict[str, Any]) -> None:
    rules = CasinoRules(**case["options"])
    r = parse_position(case["position"], rules)
    assert [str(a) for a in legal_actions(r)] == case["legal"]
    assert (None if r.result else str(default_action(r))) == case["default"]
    assert parse_position(format_position(r), rules) == r


def test_at_x1_the_player_may_not_draw() -> None:
    """000 "PAGAMENTI": at x1 the player may not draw; at x2 the same hand may."""
    x1 = parse_position("casino mult=1 uno hands=R1,G2/B5 discard=R7")
    assert [str(a) for a in legal_actions(x1)] == ["R1"]
    with pytest.raises(IllegalAction) as e:
        apply(x1, "draw")
    assert e.value.code == "draw_banned_at_x1"
    x2 = parse_position("casino mult=2 uno hands=R1,G2/B5 discard=R7 draw=R9,*")
    after, _ = apply(x2, "draw")
    assert after.multiplier == 1 and str(after.uno.drawn) == "R9"
    assert [str(a) for a in legal_actions(after)] == ["R9", "pass"]


def test_a_player_who_cannot_play_at_x1_has_lost_the_round() -> None:
    """Nothing to play at x1: the round is over (the bank wins), so a position saying it goes
    on is refused, and the same position with the bank's win is read."""
    with pytest.raises(BadPosition) as e:
        parse_position("casino mult=1 uno hands=G2,B3/B5 discard=R7")
    assert e.value.code == "bad_phase"
    r = parse_position(
        "casino mult=1 result=bank:1:10:0:no_draw_at_x1:0 uno hands=G2/B5 discard=R7"
    )
    assert r.is_over and legal_actions(r) == ()


def test_a_short_hand_written_position_fills_the_rest() -> None:
    r = parse_position("casino uno hands=R1,R2/G5 discard=R7")
    assert r.stake == RULES.min_stake and r.multiplier == RULES.start_multiplier
    assert r.turns == 0 and r.result is None and r.strategy_rng == SplitMixRng(0)
    assert len(r.uno.draw_pile) == 108 - 4 and r.uno.players == 2


# ---------------------------------------------------------------------- malformed positions
BASE, _ = new_round(RULES, 250, rng=SplitMixRng(5))
BASE_TEXT = format_position(BASE)


def _with(text: str, key: str, value: str) -> str:
    """``key=value`` in place of the round's field ``key`` (the first occurrence, so a key
    the UNO part shares, ``turns`` or ``result``, is the round's)."""
    return re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text, count=1)


def _uno_with(text: str, key: str, value: str) -> str:
    """``key=value`` in place of the UNO part's field ``key``."""
    head, _, uno = text.partition(" uno ")
    return f"{head} uno" + re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", " " + uno)


@pytest.mark.parametrize(
    "key,value,code",
    [
        ("stake", "5", "bad_stake"),
        ("stake", "10001", "bad_stake"),
        ("stake", "ten", "bad_position"),
        ("mult", "0", "bad_multiplier"),
        ("mult", "4", "bad_multiplier"),
        ("mult", "-1", "bad_multiplier"),
        ("turns", "-1", "bad_position"),
        ("banklast", "Q9", "bad_card"),
        ("bankwild", "1", "bad_memory"),
        ("bankwild", "2", "bad_position"),
        ("bankcolor", "G", "bad_memory"),
        ("bankcolor", "P", "bad_position"),
        ("bankdrew", "1", "bad_memory"),
        ("bankpassed", "R", "bad_memory"),
        ("strategy", "mersenne:1", "bad_rng"),
        ("strategy", "splitmix:1", "bad_rng"),
        ("result", "bank:3:250:0", "bad_position"),
        ("result", "house:3:250:0:bank_out:0", "bad_position"),
        ("result", "bank:3:250:0:bank_out:0", "bad_phase"),
    ],
)
def test_malformed_round_fields_raise_typed_errors(key: str, value: str, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(_with(BASE_TEXT, key, value), RULES)
    assert e.value.code == code, e.value


@pytest.mark.parametrize(
    "key,value,code",
    [
        ("turn", "1", "bad_seat"),
        ("turn", "2", "bad_seat"),
        ("seats", "3", "bad_count"),
        ("hands", "R1/R2/R3", "bad_count"),
        ("discard", "R0,R0", "cards_not_conserved"),
        ("discard", "X9", "bad_card"),
        ("phase", "over", "bad_phase"),
        ("rng", "shake:00:1:0", "bad_rng"),
    ],
)
def test_malformed_uno_parts_raise_typed_errors(key: str, value: str, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(_uno_with(BASE_TEXT, key, value), RULES)
    assert e.value.code == code, e.value


OVER = "casino stake=200 mult=2 turns=5 {} uno hands=-/B5 discard=R7 phase=over " + (
    "result=0:0,1:0,0:-:-:out"
)
BANK_OVER = "casino stake=200 mult=2 turns=5 {} uno hands=B5/- discard=R7 phase=over " + (
    "result=1:1,0:0,0:-:-:out"
)


@pytest.mark.parametrize(
    "template,result,code",
    [
        (OVER, "player:2:200:400:player_out:5", None),
        (OVER, "player:3:200:600:player_out:5", "bad_multiplier"),
        (OVER, "player:2:100:200:player_out:5", "bad_stake"),
        (OVER, "player:2:200:200:player_out:5", "bad_stake"),
        (OVER, "player:2:200:400:player_out:4", "bad_count"),
        (OVER, "bank:2:200:0:bank_out:5", "bad_phase"),
        (OVER, "-", "bad_phase"),
        (BANK_OVER, "bank:2:200:0:bank_out:5", None),
        (BANK_OVER, "bank:2:200:400:bank_out:5", "bad_stake"),
        (BANK_OVER, "player:2:200:400:player_out:5", "bad_phase"),
    ],
)
def test_a_result_agrees_with_the_round(template: str, result: str, code: str | None) -> None:
    text = template.format(f"result={result}")
    if code is None:
        assert parse_position(text).result is not None
        return
    with pytest.raises(BadPosition) as e:
        parse_position(text)
    assert e.value.code == code, e.value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "uno hands=R1/R2 discard=R3",
        "casino stake=100",
        "casino stake=100 stake=200 uno hands=R1/R2 discard=R3",
        "casino colour=R uno hands=R1/R2 discard=R3",
        "casino stake uno hands=R1/R2 discard=R3",
    ],
)
def test_malformed_lines_raise_bad_position(text: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(text)
    assert e.value.code == "bad_position", e.value


def test_rules_are_a_casino_table() -> None:
    with pytest.raises(BadPosition):
        parse_position("casino uno hands=R1/R2 discard=R3", RULES.uno)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    junk=st.text(alphabet="RYGBWSD0123456789:,-=/* xunoplayerbank", max_size=6)
    | st.text(max_size=4),
)
def test_any_corrupted_text_is_read_or_refused_with_a_typed_error(
    data: st.DataObject, junk: str
) -> None:
    """Characters cut out of or put into a valid position: the parser returns a valid round
    (which formats back to a text that parses to it) or raises BadPosition, nothing else."""
    text = BASE_TEXT
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + junk + text[j:]
    try:
        r = parse_position(text, RULES)
    except BadPosition as e:
        assert SNAKE_CASE.match(e.code)
        return
    assert parse_position(format_position(r), RULES) == r
