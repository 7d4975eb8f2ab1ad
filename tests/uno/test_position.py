"""UNO positions as text (docs/positions.md, :mod:`mazziere.uno.position`): exact round trips
on random mid-game states of every preset, identical continuations, and typed errors for
malformed positions."""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.errors import BadPosition
from mazziere.rng import ShakeRng, SplitMixRng
from mazziere.uno import (
    PRESETS,
    Game,
    Rules,
    all_legal_actions,
    find_preset,
    format_position,
    parse_position,
)
from mazziere.uno.position import KEYS, diff_positions
from mazziere.uno.state import Phase

from .goldens import FIXTURES, load, rules_of

GOLDENS = sorted(FIXTURES.glob("*.json"))

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")

# every preset, at several seat counts; targets lowered so that matches end (phase over)
SEATS = {"classic": (2, 3, 5, 10), "mattel": (2, 4, 7), "online": (2, 3, 4), "house": (2, 4, 6)}
SEATS["casino"] = (2,)
SHORT = {"target": 150}
VARIANTS: tuple[tuple[str, Rules, tuple[int, ...]], ...] = (
    *((name, rules, SEATS[name]) for name, rules in PRESETS.items()),
    *(
        (f"{name}-short", rules.with_options(**SHORT), SEATS[name])
        for name, rules in PRESETS.items()
        if rules.match == "target_points"
    ),
    (
        "sink",
        find_preset("house").with_options(
            stacking="all",
            burn=True,
            seven_swap=True,
            zero_rotate=True,
            jump_in=True,
            challenge_by="any",
            target=120,
        ),
        (2, 3, 5),
    ),
    ("elimination", find_preset("house").with_options(elimination=True, target=100), (3, 4)),
    ("teams", find_preset("online").with_options(teams=True, victory_points=True), (4,)),
    (
        "removed_reverse",
        find_preset("classic").with_options(
            two_player_reverse="removed", uno_call="auto", stacking="draw2_draw4", target=150
        ),
        (2, 3),
    ),
)
PARAMS = [pytest.param(*v, id=v[0]) for v in VARIANTS]
STATES_PER_PRESET = 10_000 // len(PRESETS) + 1
EVERY = 3
"""Sample one state in ``EVERY`` steps (and every state not in phase play)."""


def random_states(
    rules: Rules, players: int, seed: int, max_steps: int = 600
) -> Iterator[tuple[Game, random.Random]]:
    """States of one random game (any seat's legal action, out-of-turn ones included),
    sampled every few steps and at the end; SplitMix or SHAKE sources alternately."""
    rng = SplitMixRng(seed) if seed % 2 else ShakeRng.from_seed(seed)
    g = Game.new(rules, players, rng)
    pick = random.Random(seed)
    for step in range(max_steps):
        if g.is_over:
            break
        if step % EVERY == 0 or g.phase is not Phase.PLAY:
            yield g, pick
        seat, action = pick.choice(all_legal_actions(g))
        g.push(action, seat)
    yield g, pick


def sampled_states(name: str, rules: Rules, seats: tuple[int, ...], count: int) -> list[Game]:
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        players = seats[seed % len(seats)]
        out.extend(
            g.copy()
            for g, _ in random_states(rules, players, zlib.crc32(name.encode()) % 1000 + seed)
        )
        seed += 1
    return out[:count]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_round_trip_on_random_mid_game_states_of_every_preset(preset: str) -> None:
    """parse_position(format_position(s)) == s, and formatting again gives the same text."""
    phases: set[Phase] = set()
    for g in sampled_states(preset, PRESETS[preset], SEATS[preset], STATES_PER_PRESET):
        text = format_position(g)
        back = parse_position(text, g.rules)
        assert back == g, diff_positions(back, g)
        assert format_position(back) == text
        phases.add(g.phase)
    assert Phase.PLAY in phases and Phase.DRAWN in phases


@pytest.mark.parametrize("name,rules,seats", PARAMS[len(PRESETS) :])
def test_round_trip_under_rule_variants_and_at_the_end_of_matches(
    name: str, rules: Rules, seats: tuple[int, ...]
) -> None:
    over = 0
    for g in sampled_states(name, rules, seats, 600):
        text = format_position(g)
        assert parse_position(text, rules) == g, text
        over += g.is_over
    for seed in range(4):
        *_, (g, _) = random_states(rules, seats[0], 500 + seed, max_steps=20_000)
        assert parse_position(format_position(g), rules) == g
        over += g.is_over
    assert over


@pytest.mark.parametrize("name,rules,seats", PARAMS)
def test_a_parsed_position_continues_exactly_like_the_original(
    name: str, rules: Rules, seats: tuple[int, ...]
) -> None:
    """The random sources are in the text: the same actions give the same states and events
    (reshuffles and next hands included)."""
    seen: set[str] = set()
    for seed in range(3):
        for k, (g, pick) in enumerate(random_states(rules, seats[-1], 77 + seed, 300)):
            if k < 10 + 7 * seed and not g.is_over:
                continue  # from a mid-game state (or the end of a short game)
            a, b = g.copy(), parse_position(format_position(g), rules)
            for _ in range(1500):
                if a.is_over:
                    break
                seat, action = pick.choice(all_legal_actions(a))
                events = a.push(action, seat)
                assert events == b.push(action, seat)
                assert a == b, (format_position(g), diff_positions(a, b))
                seen.update(type(e).__name__ for e in events)
            break
    assert "Reshuffled" in seen or "HandStarted" in seen or rules.match == "single_hand"


# ---------------------------------------------------------------------- named positions
CASINO = find_preset("casino")
MATTEL = find_preset("mattel")


def test_a_short_hand_written_position_fills_the_rest() -> None:
    g = parse_position("uno hands=R1,R2/G5 discard=R7 draw=Y9,*", CASINO)
    assert g.players == 2 and str(g.top) == "R7" and g.color is not None and g.color.letter == "R"
    assert str(g.draw_pile[-1]) == "Y9" and len(g.draw_pile) == 108 - 3 - 1
    assert [str(a) for a in g.legal_actions(0)] == ["R1", "R2", "draw"]
    assert parse_position(format_position(g), CASINO) == g


def test_the_two_player_reverses_are_removed_by_default_where_the_rules_remove_them() -> None:
    rules = MATTEL.with_options(two_player_reverse="removed")
    g = parse_position("uno hands=R1/G5 discard=R7", rules)
    assert len(g.removed) == 8 and len(g.draw_pile) == 108 - 8 - 3
    with pytest.raises(BadPosition) as e:
        parse_position("uno hands=R1/G5 discard=R7 removed=-", rules)
    assert e.value.code == "cards_not_conserved"


NAMED = json.loads((Path(__file__).parents[1] / "fixtures/positions/uno.json").read_text())
"""Golden positions (tests/fixtures/positions/uno.json): hand-written texts, each with every
seat's legal actions, one per phase and situation a rule test sets up."""


@pytest.mark.parametrize("case", NAMED, ids=[c["name"] for c in NAMED])
def test_golden_positions_give_the_recorded_legal_actions(case: dict[str, Any]) -> None:
    rules = find_preset(case["preset"]).with_options(**case["options"])
    g = parse_position(case["position"], rules)
    legal = {str(s): [str(a) for a in g.legal_actions(s)] for s in range(g.players)}
    assert legal == case["legal"]
    assert parse_position(format_position(g), rules) == g


def test_golden_positions_cover_every_phase() -> None:
    phases = {
        parse_position(c["position"], find_preset(c["preset"]).with_options(**c["options"])).phase
        for c in NAMED
    }
    assert phases == set(Phase)


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_every_state_of_the_golden_replays_round_trips(path: Path) -> None:
    """The recorded games (SHAKE-256 sources, every rule situation the goldens cover)."""
    rec = load(path)
    rules = rules_of(rec["preset"], rec["options"])
    g = Game.new(rules, int(rec["players"]), str(rec["seed"]))
    for seat, text in rec["actions"]:
        assert parse_position(format_position(g), rules) == g
        g.push(text, int(seat))
    assert parse_position(format_position(g), rules) == g


# ---------------------------------------------------------------------- malformed positions
BASE = Game.new(find_preset("house"), 3, SplitMixRng(5))
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
        ("phase", "thinking", "bad_phase"),
        ("phase", "drawn", "bad_phase"),
        ("phase", "pending", "bad_phase"),
        ("phase", "over", "bad_phase"),
        ("phase", "color", "bad_phase"),
        ("pending", "2", "bad_phase"),
        ("drawn", "W", "bad_phase"),
        ("stackw4", "1", "bad_phase"),
        ("turn", "3", "bad_seat"),
        ("turn", "-", "bad_seat"),
        ("dealer", "-1", "bad_seat"),
        ("w4by", "7", "bad_seat"),
        ("seats", "11", "bad_count"),
        ("seats", "4", "bad_count"),
        ("scores", "0,0", "bad_count"),
        ("lastdraw", "-1,-1,-1,-1", "bad_count"),
        ("active", "11", "bad_count"),
        ("inhand", "110", "bad_count"),
        ("inhand", "1x1", "bad_position"),
        ("discard", "-", "bad_count"),
        ("discard", "Q7", "bad_card"),
        ("removed", "RR", "cards_not_conserved"),
        ("color", "P", "bad_position"),
        ("dir", "2", "bad_position"),
        ("hand", "one", "bad_position"),
        ("clock", "-4", "bad_position"),
        ("rng", "mersenne:1", "bad_rng"),
        ("rng", "shake:00:1:0", "bad_rng"),
        ("matchrng", "splitmix:1:99999999999999999999999", "bad_rng"),
        ("result", "0:0,1", "bad_position"),
    ],
)
def test_malformed_fields_raise_typed_errors(key: str, value: str, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(_with(BASE_TEXT, key, value), BASE.rules)
    assert e.value.code == code, e.value


@pytest.mark.parametrize(
    "text,code",
    [
        ("", "bad_position"),
        ("poker hands=R1/R2 discard=R3", "bad_position"),
        ("uno hands=R1/R2", "bad_position"),
        ("uno hands=R1/R2 discard=R3 colour=R", "bad_position"),
        ("uno hands=R1/R2 discard=R3 discard=R4", "bad_position"),
        ("uno hands=R1/R2 discard=R3 turn", "bad_position"),
        ("uno hands=R1/R2/G1/G2/B1/B2/Y1/Y2/R3/R4/R5 discard=R6", "bad_count"),
        ("uno hands=R1/R2 discard=W", "bad_phase"),
        ("uno hands=R1/R2 discard=R0,R0", "cards_not_conserved"),
        ("uno hands=R1/R2 discard=R3 draw=-", "cards_not_conserved"),
        ("uno hands=R1/R2 discard=R3 inhand=10", "bad_count"),
        ("uno hands=-/R2 discard=R3", "bad_count"),
        ("uno hands=R1/R2 discard=W4,R3 phase=pending pending=4 stackw4=1 w4by=0", "bad_seat"),
        ("uno hands=R1/R2 discard=R3 phase=drawn drawn=R2", "bad_phase"),
    ],
)
def test_malformed_positions_raise_typed_errors(text: str, code: str) -> None:
    with pytest.raises(BadPosition) as e:
        parse_position(text, MATTEL)
    assert e.value.code == code, e.value


@settings(max_examples=200, deadline=None)
@given(data=st.data(), duplicate=st.booleans())
def test_a_card_removed_or_duplicated_is_not_conserved(
    data: st.DataObject, duplicate: bool
) -> None:
    """Taking one card out of any pile or hand, or copying one, is refused."""
    key = data.draw(st.sampled_from(["hands", "draw", "discard"]))
    groups = _field(BASE_TEXT, key).split("/")
    gi = data.draw(st.integers(0, len(groups) - 1))
    cards = groups[gi].split(",")
    ci = data.draw(st.integers(0, len(cards) - 1))
    if duplicate:
        cards.insert(ci, cards[ci])
    elif len(cards) > 1:
        del cards[ci]
    else:
        cards = ["-"]
    groups[gi] = ",".join(cards)
    text = _with(BASE_TEXT, key, "/".join(groups))
    with pytest.raises(BadPosition) as e:
        parse_position(text, BASE.rules)
    assert e.value.code in ("cards_not_conserved", "bad_count")


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    junk=st.text(alphabet="RYGBWSD0123456789:,-=/* x", max_size=6) | st.text(max_size=4),
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
        g = parse_position(text, BASE.rules)
    except BadPosition as e:
        assert SNAKE_CASE.match(e.code)
        return
    assert parse_position(format_position(g), BASE.rules) == g


def test_the_formatter_writes_every_key_once_in_order() -> None:
    tokens = BASE_TEXT.split()
    assert tokens[0] == "uno"
    assert [t.split("=")[0] for t in tokens[1:]] == list(KEYS)
