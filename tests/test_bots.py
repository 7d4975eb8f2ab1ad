"""UNO bots: they answer every view with a legal action (or None out of turn), see only
views, and follow their rules of thumb (greedy) or seed 004's time-out rule (autoplay)."""

from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

import mazziere.uno.bots as bots_pkg
from mazziere.cards.uno import Color, parse_card, parse_cards
from mazziere.errors import UnknownOption
from mazziere.uno import (
    PRESETS,
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Phase,
    Play,
    Rules,
    View,
    all_legal_actions,
    apply,
    find_preset,
    new_game,
    view,
)
from mazziere.uno.bots import BOTS, AutoplayBot, Bot, GreedyBot, RandomBot, find_bot
from mazziere.uno.bots.strong import StrongBot

HOUSE_VARIANTS: list[dict[str, object]] = [
    {"jump_in": True, "seven_swap": True, "zero_gives_four": True},
    {"stacking": "all", "burn": True, "challenge_by": "any", "zero_rotate": True},
    {"stacking": "draw2_draw4", "stack_wild4_rule_applies": True, "go_out_on_action": False},
    {"teams": True, "reverse_skip_same": True, "draw2_skips": False, "uno_call": "auto"},
]


def _tables() -> list[tuple[str, Rules, int]]:
    out: list[tuple[str, Rules, int]] = []
    for name, rules in PRESETS.items():
        single = rules.with_options(match="single_hand")
        for n in sorted({rules.min_players, min(4, rules.max_players), rules.max_players}):
            out.append((f"{name}-{n}", single, n))
    for i, opts in enumerate(HOUSE_VARIANTS):
        out.append((f"house-variant{i}", find_preset("house").with_options(**opts), 4))
    return out


TABLES = _tables()


def _check_bot(bot: Bot, v: View, rng: random.Random) -> None:
    action = bot.act(v, rng)
    if v.my_turn and v.legal:
        assert action is not None and action in v.legal, (bot.name, v.phase, action, v.legal)
    else:
        assert action is None or action in v.legal, (bot.name, action, v.legal)


@pytest.mark.parametrize(("label", "rules", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_bots_return_legal_actions_over_random_views(
    label: str, rules: Rules, players: int
) -> None:
    """Random play reaches varied views; every bot answers each with a legal action. The
    search bot plays a small budget here (its legality does not depend on the budget, and at
    its default of 450 rollouts a decision this sweep of thousands of views took over ten
    minutes); tests/uno/test_strong.py checks it at its default budget."""
    every = [StrongBot(rollouts=12) if name == "strong" else find_bot(name) for name in BOTS]
    rng = random.Random(label)
    for g in range(4):
        state = new_game(rules, players, f"bots:{label}:{g}")
        steps = 0
        while not state.is_over and steps < 500:
            for seat in range(players):
                v = view(state, seat)
                if v.legal or v.my_turn:
                    for bot in every:
                        _check_bot(bot, v, rng)
            # half greedy, half random moves, to reach both sensible and odd positions
            seat, action = rng.choice(all_legal_actions(state))
            if rng.random() < 0.5:
                v = view(state, state.current)
                action = GreedyBot().act(v, rng) or action
                seat = state.current if action in v.legal else seat
            state, _ = apply(state, seat, action)
            steps += 1


def test_find_bot_knows_every_name_and_refuses_unknown_ones() -> None:
    assert {find_bot(n).name for n in BOTS} == {"random", "greedy", "autoplay", "strong"}
    assert isinstance(find_bot(" Greedy "), GreedyBot)
    with pytest.raises(UnknownOption) as err:
        find_bot("gredy")
    assert err.value.code == "unknown_bot" and "did you mean 'greedy'" in err.value.message


def test_bots_satisfy_the_protocol() -> None:
    for b in (RandomBot(), GreedyBot(), AutoplayBot()):
        assert isinstance(b, Bot)


def test_bot_modules_do_not_import_engine_internals() -> None:
    """Bots see only views: no machine, core, state internals, dealing, scoring or engine.

    The search bot (``strong.py``) is the one exception for the engine: it plays out games it
    sampled from its own view (the engine is its simulator, never the real table's state);
    tests/uno/test_strong.py proves it reads no hidden card by swapping them."""
    for path in Path(bots_pkg.__file__).parent.glob("*.py"):
        forbidden = {"machine", "core", "dealing", "scoring", "engine", "state"}
        if path.name == "strong.py":
            forbidden -= {"engine"}
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                assert not (parts[:2] == ["mazziere", "uno"] and forbidden & set(parts[2:])), (
                    path.name,
                    node.module,
                )
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not forbidden & set(alias.name.split(".")[2:]), (path.name, alias.name)


# ---------------------------------------------------------------- greedy's rules of thumb
def _view(rules: Rules | None = None, **changes: object) -> View:
    """A view of seat 0 on its turn, edited to the situation a test needs."""
    base = view(new_game(rules or find_preset("classic"), 4, "greedy-unit"), 0)
    fields: dict[str, object] = {
        "seat": 0,
        "current": 0,
        "phase": Phase.PLAY,
        "direction": 1,
        "hand_counts": (7, 7, 7, 7),
        "uno_seat": None,
        "uno_called": False,
        "challengeable": False,
        "pending": 0,
        "drawn": None,
    }
    fields.update(changes)
    return replace(base, **fields)  # type: ignore[arg-type]


def _play(text: str) -> Play:
    return Play.parse(text)


def test_greedy_prefers_playing_to_drawing_and_keeps_wilds() -> None:
    v = _view(
        hand=parse_cards("R5 W B9"),
        top=parse_card("R2"),
        color=Color.RED,
        legal=(_play("R5"), *(_play(f"W:{c}") for c in "RYGB"), Draw()),
    )
    assert GreedyBot().act(v, random.Random(0)) == _play("R5")
    only_wild = replace(v, legal=(*(_play(f"W:{c}") for c in "RYGB"), Draw()))
    assert GreedyBot().act(only_wild, random.Random(0)) == _play("W:B")  # colour held most


def test_greedy_dumps_high_points_and_plays_more_cards() -> None:
    v = _view(
        hand=parse_cards("R5 RS G5 Y2"),
        top=parse_card("R1"),
        color=Color.RED,
        legal=(_play("R5"), _play("RS"), Draw()),
    )
    assert GreedyBot().act(v, random.Random(0)) == _play("RS")
    multi = replace(v, legal=(_play("R5"), _play("RS"), _play("R5,G5"), Draw()))
    assert GreedyBot().act(multi, random.Random(0)) == _play("R5,G5")


def test_greedy_hits_a_player_about_to_go_out() -> None:
    v = _view(
        hand=parse_cards("R9 RD2 G1 G2"),
        top=parse_card("R1"),
        color=Color.RED,
        hand_counts=(4, 1, 7, 7),
        legal=(_play("R9"), _play("RD2"), Draw()),
    )
    assert GreedyBot().act(v, random.Random(0)) == _play("RD2")


def test_greedy_calls_uno_before_its_next_to_last_card_and_catches() -> None:
    v = _view(
        hand=parse_cards("R5 G2"),
        top=parse_card("R1"),
        color=Color.RED,
        legal=(_play("R5"), Draw(), CallUno()),
    )
    assert GreedyBot().act(v, random.Random(0)) == CallUno()
    catch = replace(v, legal=(_play("R5"), Draw(), CallUno(), Catch(2)))
    assert GreedyBot().act(catch, random.Random(0)) == Catch(2)
    out_of_turn = replace(v, current=1, hand=parse_cards("R5 G2 B3"), legal=(Catch(2),))
    assert GreedyBot().act(out_of_turn, random.Random(0)) == Catch(2)


def test_greedy_jumps_in_and_stacks() -> None:
    v = _view(current=2, hand=parse_cards("R5 G2"), top=parse_card("R5"), legal=(_play("R5"),))
    assert GreedyBot().act(v, random.Random(0)) == _play("R5")
    pending = _view(
        phase=Phase.PENDING,
        pending=2,
        hand=parse_cards("RD2 G2"),
        top=parse_card("BD2"),
        color=Color.BLUE,
        legal=(_play("RD2"), Accept()),
    )
    assert GreedyBot().act(pending, random.Random(0)) == _play("RD2")


def test_greedy_challenges_only_a_likely_guilty_wild4() -> None:
    base = _view(
        find_preset("mattel"),
        phase=Phase.PENDING,
        pending=4,
        challengeable=True,
        hand=parse_cards("R5 G2"),
        top=parse_card("W4"),
        color=Color.GREEN,
        legal=(Challenge(), Accept()),
    )
    # seat 3 played the +4 (direction 1, victim 0)
    assert GreedyBot().act(replace(base, hand_counts=(2, 7, 7, 4)), random.Random(0)) == Accept()
    assert GreedyBot().act(replace(base, hand_counts=(2, 7, 7, 9)), random.Random(0)) == (
        Challenge()
    )
    assert GreedyBot().act(replace(base, hand_counts=(2, 7, 7, 1)), random.Random(0)) == (
        Challenge()
    )
    no_bluff = replace(base, hand_counts=(2, 7, 7, 9), rules=find_preset("casino"))
    assert GreedyBot().act(no_bluff, random.Random(0)) == Accept()
    strict = replace(base, hand_counts=(2, 7, 7, 4), rules=find_preset("classic"))
    assert GreedyBot().act(strict, random.Random(0)) == Challenge()  # 003: any playable card


def test_greedy_chooses_the_colour_it_holds_most_and_keeps_a_drawn_wild() -> None:
    v = _view(phase=Phase.COLOR, hand=parse_cards("B1 B2 G3"), legal=tuple(map(ChooseColor, Color)))
    assert GreedyBot().act(v, random.Random(0)) == ChooseColor(Color.BLUE)
    drawn = _view(
        phase=Phase.DRAWN,
        hand=parse_cards("B1 B2 G3 W"),
        drawn=parse_card("W"),
        top=parse_card("R1"),
        color=Color.RED,
        legal=(*(_play(f"W:{c}") for c in "RYGB"), Pass()),
    )
    assert GreedyBot().act(drawn, random.Random(0)) == Pass()


def test_autoplay_bot_never_acts_out_of_turn_and_follows_seed_004() -> None:
    v = _view(
        hand=parse_cards("R5 R2 RS W"),
        top=parse_card("R1"),
        color=Color.RED,
        legal=(_play("R2"), _play("R5"), _play("RS"), *(_play(f"W:{c}") for c in "RYGB"), Draw()),
    )
    assert AutoplayBot().act(v, random.Random(0)) == _play("R2")
    assert AutoplayBot().act(replace(v, current=1, legal=(Catch(1),)), random.Random(0)) is None


def test_random_bot_acts_out_of_turn_about_half_the_time() -> None:
    v = _view(current=1, legal=(Catch(2),))
    rng = random.Random(5)
    acted = sum(RandomBot().act(v, rng) is not None for _ in range(2000))
    assert 900 < acted < 1100
    mine = _view(legal=(Draw(), CallUno()))
    assert all(RandomBot().act(mine, rng) in mine.legal for _ in range(50))
