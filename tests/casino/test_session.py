"""The casino through the game contract (issue 10 item 1): two seats, the player (0) and the
bank (1, always the server's); the player's view shows the bank's card count, never its cards;
the bank's own view shows its hand and not the player's."""

from __future__ import annotations

from mazziere.casino import BANK, PLAYER
from mazziere.game import find_game


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
            g.apply(PLAYER, g.legal(PLAYER)[0], "player")
