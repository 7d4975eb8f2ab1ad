"""``mazziere play poker`` and ``mazziere sim poker`` (draw-poker.md; the CLI conventions):
the seed's action names shown with English help, hand descriptions, items listed, helpful
messages for wrong input, JSON keys of a simulation."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mazziere.cli.poker import app, summary
from mazziere.poker import Rules, new_game, view
from mazziere.poker.actions import Draw, Open
from mazziere.poker.sim import Tally
from mazziere.terminal.poker import parse_input

runner = CliRunner()


def test_sim_json_keys_and_interval() -> None:
    r = runner.invoke(
        app,
        [
            "sim",
            "--deck",
            "32",
            "--a",
            "normal",
            "--b",
            "easy",
            "--deals",
            "400",
            "--seed",
            "4",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["deals"] == 400
    low, high = out["ci95"]
    assert low <= out["a_net_per_deal"] <= high


def test_sim_same_result_whatever_the_worker_count() -> None:
    args = ["sim", "--deck", "32", "--a", "hard", "--b", "baseline", "--deals", "1200", "--json"]
    one = json.loads(runner.invoke(app, [*args, "--workers", "1"]).output)
    two = json.loads(runner.invoke(app, [*args, "--workers", "2"]).output)
    assert one["a_net_per_deal"] == two["a_net_per_deal"] and one["ci95"] == two["ci95"]


def test_sim_bad_arguments_are_one_line_errors() -> None:
    r = runner.invoke(app, ["sim", "--deck", "36"])
    assert r.exit_code == 2 and "52 or 32" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["sim", "--a", "hardd", "--deals", "10", "--workers", "1"])
    assert r.exit_code == 2 and "did you mean 'hard'" in r.output


def test_summary_mean_and_interval_per_deal() -> None:
    mean, low, high = summary(Tally(samples=4, total=8, total_sq=24, deals=8))
    assert mean == 1.0 and low < 1.0 < high


def test_play_shows_seed_names_help_and_hand_descriptions() -> None:
    inputs = "\n".join(["x", "o 1", "o", "zz 3", "w", "s", "c 9", "c 1 2", "v", "p", "q"]) + "\n"
    r = runner.invoke(
        app, ["play", "--deck", "32", "--level", "normal", "--seed", "7"], input=inputs
    )
    assert r.exit_code == 0, r.output
    out = r.output
    for text in ("APRI", "ASPETTA", "PASSA", "check", "Your hand", "Computer's items: hat (worn)"):
        assert text in out
    assert "unknown action 'x'" in out  # wrong inputs get a message, never a traceback
    assert "min_bet" in out and "needs an amount" in out and "card positions are 1 to 5" in out
    assert "Traceback" not in out and "Bye." in out


def test_play_lists_pledged_and_forfeited_items() -> None:
    from rich.console import Console

    from mazziere.poker.events import Forfeited, Pledged, Redeemed
    from mazziere.poker.state import ItemStatus
    from mazziere.terminal.poker import show_events, status

    from .helpers import rigged

    s = rigged(
        Rules(),
        "Ac Kd 9h 5s 3c",
        "Qh Jc 8d 6s 2h",
        items=(ItemStatus.FORFEITED, ItemStatus.PLEDGED) + (ItemStatus.WORN,) * 4,
    )
    console = Console(record=True, width=200)
    status(console, s, "hard")
    show_events(console, [Pledged(1, "scarf", 100), Forfeited(1, "hat"), Redeemed(1, "hat", 100)])
    text = console.export_text()
    assert "hat (forfeited), scarf (pledged), jacket (worn)" in text
    assert "high card ace, then king, nine, five and three" in text
    assert "pledges its scarf for 100" in text and "forfeits its hat" in text
    assert "buys back its hat" in text


def test_play_ranks_hands_like_every_other_mode() -> None:
    from mazziere.terminal.poker import play_rules

    assert not play_rules(32, None).flush_beats_full_house  # the seed's order on both decks
    assert not play_rules(52, None).flush_beats_full_house
    assert play_rules(32, True).flush_beats_full_house
    r = runner.invoke(app, ["play", "--deck", "32", "--seed", "3"], input="q\n")
    out = " ".join(r.output.split())  # the console wraps long lines
    assert "strongest first: straight flush > four of a kind > full house > flush" in out
    r = runner.invoke(app, ["play", "--deck", "32", "--flush-beats-full-house"], input="q\n")
    assert "four of a kind > flush > full house > straight" in " ".join(r.output.split())


def test_play_until_the_human_loses() -> None:
    r = runner.invoke(app, ["play", "--level", "easy", "--seed", "3"], input="p\n" * 120)
    assert r.exit_code == 0, r.output
    assert "You lose the game: seat 0 cannot pay the ante" in r.output


def test_play_rejects_unknown_level() -> None:
    r = runner.invoke(app, ["play", "--level", "expert"])
    assert r.exit_code == 2 and "easy, normal, hard" in r.output


def test_input_parsing_keys_words_positions_and_cards() -> None:
    s = new_game(Rules(), 1)
    v = view(s, s.current)
    assert parse_input("o 10", v) == Open(10) == parse_input("apri 10", v)
    assert str(parse_input("aspetta", v)) == "wait" and str(parse_input("PASSA", v)) == "fold"
    d = parse_input("c 1 3", v)
    assert isinstance(d, Draw) and d.cards == (v.hand[0], v.hand[2])
    assert parse_input(f"c {v.hand[1]}", v) == Draw((v.hand[1],))
