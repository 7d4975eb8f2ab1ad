"""The casino through the game contract: two seats, the player (0) and the
bank (1, always the server's); the player's view shows the bank's card count, never its cards;
the bank's own view shows its hand and not the player's."""

from __future__ import annotations

from typing import Any

import pytest

from mazziere.casino import BANK, PLAYER, CasinoRules, new_round, play_default
from mazziere.casino.events import RoundEnded
from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.game import Step, find_game, seed_rng

CONFIG = {"min_stake": 10, "max_stake": 500}


def test_casino_table_has_player_and_bank_seats() -> None:
    kind = find_game("casino")
    config, seats = kind.table_config({"min_stake": 10, "max_stake": 500})
    assert seats == 2
    rules = kind.table_rules(config)
    assert rules.fixed_bots == {BANK: "bank"} and rules.starts_with == "stake"


def test_player_view_hides_the_bank_hand_and_bank_view_hides_the_player_hand() -> None:
    kind = find_game("casino")
    for n in range(20):
        g = kind.new({"min_stake": 10, "max_stake": 500}, 2, {BANK: "bank"}, f"{n:064x}", 100, 500)
        while True:
            bank = [str(c) for c in g.round.uno.hands[BANK]]  # type: ignore[attr-defined]
            mine = [str(c) for c in g.round.uno.hands[PLAYER]]  # type: ignore[attr-defined]
            pv, bv, spectator = g.view(PLAYER), g.view(BANK), g.view(None)
            assert pv["hand"] == mine and pv["bank_cards"] == len(bank)
            assert bv["hand"] == bank and spectator["hand"] == []
            if g.is_over:
                break
            if g.deciders() == [BANK]:  # the bank's reply: one move at a time
                move = g.bot_move(BANK)
                assert move is not None and g.legal(PLAYER) == []
                g.apply(BANK, move, "bot")
            else:
                g.apply(PLAYER, g.legal(PLAYER)[0], "player")


def _play(g: Any, player: str = "timeout") -> list[Step]:
    """Play ``g`` to its end: the bank's moves through ``bot_move``, the player's by its
    default strategy (a time-out), as a paced table does."""
    steps: list[Step] = []
    for _ in range(500):
        if g.is_over:
            break
        seat = g.deciders()[0]
        if seat == BANK:
            move = g.bot_move(BANK)
            assert move is not None
            steps.append(g.apply(BANK, move, "bot"))
        else:
            assert g.bot_move(BANK) is None
            steps.append(g.timeout(PLAYER))
    assert g.is_over
    return steps


@pytest.mark.parametrize("n", range(40))
def test_the_paced_bank_plays_exactly_the_round_played_all_at_once(n: int) -> None:
    """Each bank move is its own step, decided by the bank's strategy on the round's
    strategy stream; the moves, the result and the payout are those of the readable round
    played all at once (the path the RTP kernel is checked against)."""
    seed = f"{n:064x}"
    kind = find_game("casino")
    g = kind.new(CONFIG, 2, {BANK: "bank"}, seed, 100, 500)
    assert g.setup["paced_bank"] is True
    steps = _play(g)
    r, _ = new_round(CasinoRules(min_stake=10, max_stake=500), 100, seed_rng(seed))
    while r.result is None:
        r, _ = play_default(r)
    assert g.result()["payout"] == r.result.payout
    assert g.result() == {
        "winner": r.result.winner,
        "multiplier": r.result.multiplier,
        "stake": 100,
        "payout": r.result.payout,
        "reason": r.result.reason,
        "turns": r.result.turns,
    }
    # one settlement: the round's end is told once, in the step that ended it
    ended = [i for i, st in enumerate(steps) for e, *_ in st.events if isinstance(e, RoundEnded)]
    assert len(ended) == 1 and ended[0] == len(steps) - 1
    assert all(st.seat == BANK and st.actor == "bot" for st in steps if st.text != "timeout")
    # the recorded steps replay to the same round (crash recovery, the hand history)
    again = kind.from_setup(g.setup, seed)
    for st in steps:
        if st.text == "timeout":
            again.timeout(st.seat)
        else:
            again.apply(st.seat, st.action, st.actor)
    assert again.result() == g.result()
    assert again.view(PLAYER) == g.view(PLAYER)


def test_the_bank_plays_only_its_strategys_move_and_only_on_its_turn() -> None:
    kind = find_game("casino")
    for n in range(40):
        g = kind.new(CONFIG, 2, {BANK: "bank"}, f"{n:064x}", 100, 500)
        while not g.is_over and g.deciders() == [PLAYER]:
            with pytest.raises(NotYourTurn):
                g.apply(BANK, "draw", "bot")
            g.timeout(PLAYER)
        if g.is_over:
            continue
        with pytest.raises(NotYourTurn):
            g.apply(PLAYER, "draw", "player")
        with pytest.raises(NotYourTurn):
            g.timeout(PLAYER)
        move = g.bot_move(BANK)
        assert move is not None
        other = "pass" if move != "pass" else "draw"
        with pytest.raises(IllegalAction):
            g.apply(BANK, other, "bot")
        g.apply(BANK, move, "bot")
        return
    raise AssertionError("no seed left the bank to move")


def test_a_hand_recorded_before_pacing_replays_the_old_way() -> None:
    """A hand whose setup has no ``paced_bank`` (recorded when the player's step held the
    bank's whole reply) replays with the bank playing inside the player's steps."""
    kind = find_game("casino")
    for n in range(20):
        seed = f"{n:064x}"
        g = kind.from_setup({"config": CONFIG, "stake": 100}, seed)
        assert "paced_bank" not in g.setup
        steps = []
        while not g.is_over:
            assert g.deciders() == [PLAYER] and g.bot_move(BANK) is None
            steps.append(g.timeout(PLAYER))
        new = kind.new(CONFIG, 2, {BANK: "bank"}, seed, 100, 500)
        _play(new)
        assert g.result() == new.result()
        assert all(st.seat == PLAYER for st in steps)
        old = kind.from_setup({"config": CONFIG, "stake": 100}, seed)
        for st in steps:
            old.timeout(st.seat)
        assert old.result() == g.result()
