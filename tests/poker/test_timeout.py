"""platform.md "Time and presence": when a poker decision's time runs out the server checks if
that costs nothing, else folds; in the draw it stands pat. Owing nothing, going to the draw
(SOSTITUISCI) or to the showdown (VEDI) is a check, not a fold."""

from __future__ import annotations

import random

from mazziere.game import find_game
from mazziere.poker.table_game import check_or_fold


def test_timeout_checks_when_free_else_folds() -> None:
    assert check_or_fold(["fold", "open 10", "wait"], 0) == "wait"
    assert check_or_fold(["fold", "open 10", "replace"], 0) == "replace"
    assert check_or_fold(["fold", "open 10", "see"], 0) == "see"
    assert check_or_fold(["fold", "raise 10", "replace"], 10) == "fold"
    assert check_or_fold(["fold", "see"], 5) == "fold"
    assert check_or_fold(["draw", "draw 7h"], 0) == "draw"


def test_timeout_never_folds_a_hand_that_owes_nothing() -> None:
    kind = find_game("poker")
    seen = 0
    for n in range(60):
        g = kind.new({"level": "normal", "deck": 52}, 2, {}, f"{n:064x}")
        rnd = random.Random(n)
        for _ in range(400):
            if g.is_over:
                break
            seat = g.deciders()[0]
            if seat == 0 and g.view(0)["owed"] == 0:
                step = g.timeout(0)
                assert step.text != "fold", g.legal(0)
                seen += 1
                continue
            move = g.bot_move(seat) if seat == 1 else rnd.choice(g.legal(seat))
            g.apply(seat, move or g.legal(seat)[0], "player")
    assert seen > 50
