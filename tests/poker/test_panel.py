"""The panel of exploiters (mazziere.poker.bots.panel): each plays its one fixed idea,
the registry and ``mazziere sim poker --b panel`` know them, and ``easy`` draws follow the
deck."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from mazziere.cli.poker import app
from mazziere.poker import Rules, apply, new_game, parse_cards, view
from mazziere.poker.actions import FOLD, Draw, Open, Raise
from mazziere.poker.bots import PANEL, find_bot
from mazziere.poker.state import Phase

from .helpers import rigged, run

R52, R32 = Rules(), Rules(deck=32)


def _decisions(name: str, deals: int = 30):  # type: ignore[no-untyped-def]
    """(view, action) of bot ``name`` against the random bot over a few deals."""
    bot, other = find_bot(name), find_bot("random")
    rng = random.Random(1)
    out = []
    for g in range(2):
        s = new_game(R52, f"panel{g}")
        while not s.is_over and s.deal_no <= deals:
            v = view(s, s.current)
            a = (bot if s.current == g else other).act(v, rng)
            if s.current == g:
                out.append((v, a))
            s, _ = apply(s, s.current, a)
    return out


def test_panel_members_are_registered_bots() -> None:
    assert PANEL == ("maxbet", "maxpat", "station", "openfold", "foldraise", "random", "baseline")
    for name in PANEL:
        assert find_bot(name).name == name


def test_maxbet_always_bets_the_maximum_and_never_folds() -> None:
    for v, a in _decisions("maxbet"):
        assert a != FOLD
        if (
            v.phase is not Phase.DRAW
            and v.bet_range is not None
            and {"open", "raise"} & set(v.words)
        ):
            assert isinstance(a, (Open, Raise)) and a.amount == v.bet_range[1]


def test_maxpat_always_stands_pat() -> None:
    draws = [a for v, a in _decisions("maxpat") if v.phase is Phase.DRAW]
    assert draws and all(a == Draw(()) for a in draws)


def test_station_never_bets_raises_or_folds() -> None:
    for _, a in _decisions("station"):
        assert a != FOLD and not isinstance(a, (Open, Raise))


def test_openfold_opens_the_maximum_and_folds_to_any_bet() -> None:
    seen = set()
    for v, a in _decisions("openfold"):
        if v.phase is Phase.DRAW:
            continue
        if v.owed:
            assert a == FOLD
            seen.add("fold")
        elif "open" in v.words:
            assert v.bet_range is not None and a == Open(v.bet_range[1])
            seen.add("open")
    assert seen == {"fold", "open"}


def test_foldraise_folds_to_a_raise_and_calls_an_open() -> None:
    s = rigged(R52, "Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h", first=1)
    bot = find_bot("foldraise")
    assert bot.act(view(s, 1), random.Random(0)) == Open(10)  # the pot
    s, _ = run(s, (1, "wait"), (0, "open 20"))
    assert str(bot.act(view(s, 1), random.Random(0))) == "replace"
    s = rigged(R52, "Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h", first=1)
    s, _ = run(s, (1, "open 10"), (0, "raise 10"))
    assert bot.act(view(s, 1), random.Random(0)) == FOLD


def test_easy_draws_an_open_straight_before_a_four_flush_with_32_cards() -> None:
    hand = "8h 9h Th Jc Ah"  # open-ended 8-J and four hearts
    easy = find_bot("easy")
    s32 = rigged(R32, hand, "Qc Qd Kd 7s 7c", phase=Phase.DRAW, current=0, drawn=(-1, -1))
    assert easy.act(view(s32, 0), random.Random(0)) == Draw(parse_cards("Ah"))
    s52 = rigged(R52, hand, "Qc Qd Kd 7s 7c", phase=Phase.DRAW, current=0, drawn=(-1, -1))
    assert easy.act(view(s52, 0), random.Random(0)) == Draw(parse_cards("Jc"))


def test_sim_against_the_panel_lists_every_member() -> None:
    r = CliRunner().invoke(
        app, ["sim", "--a", "easy", "--b", "panel", "--deals", "20", "--workers", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert [row["b"] for row in out["panel"]] == list(PANEL)
    assert out["all_intervals_above_zero"] == all(row["ci95"][0] > 0 for row in out["panel"])
