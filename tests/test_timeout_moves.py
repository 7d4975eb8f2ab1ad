"""A time-out names the moves the server made for the player (platform.md "Time and presence"):
the table's log says what was played, structured, never the word ``timeout``. UNO's names are
the engine's own auto-play decisions (seed 004), the casino's the player's default strategy
(seed 000), poker's the check-or-fold it applies."""

from __future__ import annotations

import copy
import random

import pytest

from mazziere import wire
from mazziere.game import TableGame, Visibility, find_game
from mazziere.uno.table_game import autoplay_moves

UNO_TABLES = [
    ({"preset": "classic"}, 3),
    ({"preset": "house"}, 4),
    ({"preset": "online"}, 4),
    ({"preset": "mattel"}, 2),
    ({"preset": "classic", "options": {"drawn_card": "must_play"}}, 3),
    ({"preset": "house", "options": {"seven_swap": True, "zero_rotate": True}}, 4),
]


def texts(step_events: list[Visibility]) -> list[str]:
    """The events of a step as everybody's texts (a private event once, in full)."""
    return [str(e) for e, _only, hidden_from in step_events if hidden_from is None]


@pytest.mark.parametrize(("config", "seats"), UNO_TABLES)
def test_uno_timeout_names_the_moves_the_engine_makes(
    config: dict[str, object], seats: int
) -> None:
    """Applying the named moves one by one gives what the engine's ``timeout`` gave (less its
    ``auto_played`` event): the same events and the same state."""
    kind = find_game("uno")
    checked = 0
    for n in range(12):
        game = kind.new(config, seats, {}, f"{n + 1:064x}")
        rnd = random.Random(n)
        for _ in range(300):
            if game.is_over:
                break
            seat = game.deciders()[0]
            if rnd.random() < 0.5:
                named = copy.copy(game)
                step = game.timeout(seat)
                assert step.text == "timeout" and step.played is not None
                assert step.moves and "timeout" not in map(str, step.moves)
                replayed = []
                for move in step.moves:
                    replayed += texts(named.apply(seat, move, "player").events)
                timed_out = [t for t in texts(step.events) if not t.startswith("auto_played")]
                assert replayed == timed_out, (step.moves, timed_out)
                assert named.view(seat) == game.view(seat)
                checked += 1
            else:
                game.apply(seat, rnd.choice(game.legal(seat)), "player")
    assert checked > 300


def test_two_player_online_uno_timeout_plays_nothing() -> None:
    """There a time-out abandons the match (004): no move is named."""
    game = find_game("uno").new({"preset": "online"}, 2, {}, "0" * 63 + "7")
    seat = game.deciders()[0]
    step = game.timeout(seat)
    assert step.played == () and step.moves == ()
    assert game.is_over and game.result()["reason"] == "timeout"


def test_uno_autoplay_moves_draw_then_keep_or_play() -> None:
    """A hand with no playable number card draws (then keeps or plays the drawn card)."""
    kind = find_game("uno")
    seen: set[tuple[str, ...]] = set()
    for n in range(40):
        game = kind.new({"preset": "classic"}, 2, {}, f"{n + 100:064x}")
        for _ in range(20):
            if game.is_over:
                break
            seat = game.deciders()[0]
            moves = autoplay_moves(game.state, seat)  # type: ignore[attr-defined]
            words = map(str, moves)
            seen.add(tuple("card" if m not in ("draw", "pass", "uno") else m for m in words))
            game.timeout(seat)
    assert ("draw",) in seen and ("card",) in seen and ("draw", "card") in seen


def test_casino_timeout_names_the_default_strategy_move() -> None:
    kind = find_game("casino")
    for n in range(20):
        game = kind.new({}, 2, {}, f"{n + 1:064x}", 100, 1000)
        while not game.is_over:
            if game.deciders() == [1]:  # the bank's reply: one move a step
                move = game.bot_move(1)
                assert move is not None
                game.apply(1, move, "bot")
                continue
            named = copy.copy(game)
            step = game.timeout(0)
            (move,) = step.moves
            assert str(move) != "timeout"
            assert texts(named.apply(0, move, "player").events) == texts(step.events)


def test_poker_timeout_move_is_its_own_action() -> None:
    game: TableGame = find_game("poker").new({"level": "easy"}, 2, {}, "0" * 63 + "1")
    step = game.timeout(game.deciders()[0])
    assert step.played is None and step.moves == (step.action,)
    assert step.text in ("wait", "replace", "see", "fold", "draw")
    assert wire.action(step.action)["kind"] == step.text.split()[0]
