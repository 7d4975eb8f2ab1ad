"""The ``mazziere`` command line: ``sim uno --json`` for every preset and seat count,
``play uno`` driven by scripted input, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mazziere import poker
from mazziere.cli import app
from mazziere.cli.options import parse_option_value, parse_options, uno_rules
from mazziere.errors import OptionError, UnknownOption
from mazziere.uno import PRESETS, Game, format_position

runner = CliRunner()


def _sim_cases() -> list[tuple[str, int]]:
    return [
        (name, n)
        for name, rules in PRESETS.items()
        for n in range(rules.min_players, rules.max_players + 1)
    ]


@pytest.mark.parametrize(("preset", "players"), _sim_cases())
def test_sim_json_for_every_preset_and_seat_count(preset: str, players: int) -> None:
    args = ["sim", "uno", "--preset", preset, "--players", str(players), "--games", "2"]
    args += ["--seed", "9", "--option", "match=single_hand", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # exactly one JSON object on stdout
    assert data["games"] == 2 and data["players"] == players and data["preset"] == preset
    assert len(data["wins_by_seat"]) == players and sum(data["wins_by_seat"]) >= 2
    assert data["mean_turns"] > 0 and data["games_per_second"] > 0
    assert len(data["win_rate_ci95"]) == players
    assert data["hands"] >= 2 and len(data["hand_win_rate_ci95"]) == players


def test_sim_full_match_json_is_reproducible() -> None:
    args = ["sim", "uno", "--preset", "online", "--games", "3", "--seed", "4", "--json"]
    a = json.loads(runner.invoke(app, [*args, "--bots", "greedy,random"]).stdout)
    b = json.loads(runner.invoke(app, [*args, "--bots", "greedy,random"]).stdout)
    assert a["wins_by_seat"] == b["wins_by_seat"] and a["mean_turns"] == b["mean_turns"]
    assert a["bots"] == ["greedy", "random", "greedy", "random"]


def test_sim_prints_a_table_with_confidence_intervals() -> None:
    result = runner.invoke(app, ["sim", "uno", "--preset", "casino", "--games", "5"])
    assert result.exit_code == 0, result.output
    for text in ("Win rate", "95% CI", "Mean turns per hand", "games/s", "greedy"):
        assert text in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "nope"], "unknown UNO preset 'nope'"),
        (["--preset", "casino", "--players", "4"], "these rules seat 2-2 players, not 4"),
        (["--players", "11"], "not 11"),
        (["--bots", "greedy,smart"], "unknown UNO bot 'smart'"),
        (["--option", "stackin=draw2"], "unknown UNO option 'stackin' (did you mean 'stacking'?)"),
        (["--option", "jump_in=maybe"], "option jump_in takes true or false"),
        (["--option", "stacking=lots"], "option stacking='lots' is not one of"),
        (["--option", "jump_in"], "--option takes name=value"),
    ],
)
@pytest.mark.parametrize("command", ["sim", "play"])
def test_bad_command_lines_exit_2_with_one_line(
    command: str, args: list[str], message: str
) -> None:
    result = runner.invoke(app, [command, "uno", *args, "--seed", "1"], input="quit\n")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_option_values_are_read_by_type() -> None:
    assert parse_options(["jump_in=true", "target=200", "turn_time_limit=none"]) == {
        "jump_in": True,
        "target": 200,
        "turn_time_limit": None,
    }
    assert parse_option_value("turn_time_limit", "12.5") == 12.5
    assert parse_option_value("zero_groups", "0,2/1,3") == ((0, 2), (1, 3))
    assert uno_rules("house", ["burn=yes", "match=fixed_hands"]).burn is True
    with pytest.raises(UnknownOption):
        uno_rules("house", ["brun=yes"])
    with pytest.raises(OptionError):
        parse_options(["target=lots"])


# ---------------------------------------------------------------- play
PLAY = ["play", "uno", "--preset", "classic", "--players", "3", "--seed", "5"]


def test_play_a_full_single_hand_from_scripted_input() -> None:
    script = "Z9\nhelp\n42\n" + "1\n" * 2000
    result = runner.invoke(app, [*PLAY, "--option", "match=single_hand"], input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "unknown card 'Z9'" in out and "type 'help' for the action forms" in out
    assert "Type the number of an action from the list" in out  # the help text
    assert "there is no action number 42" in out
    assert "Your hand" in out and "Discard:" in out and "Recent events" in out
    assert "Hand result" in out and "Match over" in out
    assert "Traceback" not in result.output


def test_play_is_reproducible_with_a_seed_and_offers_out_of_turn_actions() -> None:
    args = [*PLAY, "--option", "match=single_hand", "--option", "jump_in=true"]
    script = "1\n" * 2000
    a = runner.invoke(app, args, input=script)
    b = runner.invoke(app, args, input=script)
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert "Match over" in a.stdout


def test_play_never_shows_other_hands_before_the_hand_ends() -> None:
    result = runner.invoke(app, PLAY, input="quit\n")
    assert result.exit_code == 0 and "You left the table" in result.stdout
    assert "Seat 1 was dealt" not in result.stdout and "You were dealt" in result.stdout


def test_play_ends_cleanly_when_input_runs_out() -> None:
    result = runner.invoke(app, PLAY, input="1\n1\n")
    assert result.exit_code == 0 and "You left the table" in result.stdout


def test_help_lists_the_sub_apps() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "play" in result.stdout and "sim" in result.stdout


# ---------------------------------------------------------------- position
def test_position_prints_the_table_and_every_seats_legal_actions() -> None:
    text = "uno hands=R1,R2,W4/G5,R7 discard=R9,B9 draw=Y9,*"
    result = runner.invoke(app, ["position", text, "--preset", "mattel"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Top card R9, colour red" in out and "Seat 0 to act, phase play" in out
    assert "Draw pile (101), next first: Y9 " in out
    assert "*seat 0 (3): R1 R2 W4" in out and " seat 1 (2): G5 R7" in out
    assert "  seat 0: R1, R2, W4:R, W4:Y, W4:G, W4:B, draw" in out
    assert "  seat 1: -" in out


def test_position_of_a_real_game_under_options_lists_out_of_turn_actions() -> None:
    rules = uno_rules("house", ["jump_in=true"])
    g = Game.new(rules, 3, rng=4)
    result = runner.invoke(
        app, ["position", format_position(g), "-p", "house", "--option", "jump_in=true"]
    )
    assert result.exit_code == 0, result.output
    for seat in range(3):
        listed = ", ".join(str(a) for a in g.legal_actions(seat)) or "-"
        assert f"  seat {seat}: {listed}\n" in result.stdout


@pytest.mark.parametrize(
    "text,message",
    [
        ("uno hands=R1/G5 discard=R9 turn=4", "bad position [bad_seat]: turn: no seat 4"),
        ("uno hands=R1/G5 discard=R9,R9,R9", "[cards_not_conserved]"),
        ("uno hands=R1/G5", "[bad_position]: a position needs at least hands= and discard="),
        ("chess 8/8/8", "starts with the game's name (uno, casino, poker)"),
        ("casino mult=4 uno hands=R1/G5 discard=R9", "bad position [bad_multiplier]: mult is 1"),
        ("casino uno hands=R1/G5/B5 discard=R9", "[bad_count]"),
        ("poker hands=Ah/Kh", "bad position [bad_count]: seat 0 holds 1 cards, not 5"),
        ("poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s pot=11", "[money_not_conserved]"),
    ],
)
def test_bad_positions_exit_2_with_one_line(text: str, message: str) -> None:
    preset = [] if text.startswith("casino") else ["--preset", "classic"]
    result = runner.invoke(app, ["position", text, *preset])
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_position_of_a_casino_round_shows_the_players_actions_and_the_default() -> None:
    """At x1 the player may not draw: the only legal action is the red 1."""
    text = "casino stake=500 mult=1 banklast=B5 uno hands=R1,G2/B5,B6 discard=R7 draw=Y9,*"
    result = runner.invoke(app, ["position", text, "--option", "min_stake=100"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "UNO CASINO position: stake 500 cents, multiplier x1, 0 actions so far" in out
    assert "Draw pile (103), next first: Y9 " in out and "*player (seat 0) (2): R1 G2" in out
    assert " bank (seat 1) (2): B5 B6" in out and "The bank's last turn: played B5" in out
    assert "Legal actions (player): R1\n" in out and "Default strategy: R1\n" in out


def test_position_of_a_finished_casino_round_has_no_actions() -> None:
    text = "casino mult=1 result=bank:1:10:0:no_draw_at_x1:0 uno hands=G2/B5 discard=R7"
    result = runner.invoke(app, ["position", text])
    assert result.exit_code == 0, result.output
    assert "Round over: the bank won (no_draw_at_x1), x1, payout 0 cents" in result.stdout
    assert "Legal actions (player): -" in result.stdout and "Default" not in result.stdout


def test_position_of_a_poker_deal_shows_bets_as_ranges_and_draws_as_counts() -> None:
    hands = "hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s"
    result = runner.invoke(app, ["position", f"poker {hands}", "-p", "classic32"])
    assert result.exit_code == 2 and "[cards_not_conserved]" in result.stderr  # 2s, 3s: 52 only
    result = runner.invoke(app, ["position", f"poker {hands}", "-o", "max_bet=20"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Poker position: preset classic, 52 cards, deal 1, seat 0 first" in out
    assert "Seat 0 to act, phase bet1, pot 10, bankrolls 495, 495" in out
    assert "*seat 0 (5): Ah Ad 7c 7d 2s" in out and " seat 1 (5): Kh Kd Qc Jd 3s" in out
    assert "  seat 0: open 5-20, wait, fold\n  seat 1: -\n" in out
    draw = f"poker {hands} phase=draw first=1 acts=2 history=1:wait:0,0:replace:0"
    result = runner.invoke(app, ["position", draw, "-o", "max_replace=2"])
    assert result.exit_code == 0, result.output
    assert "  seat 1: draw 0-2 cards (16 choices)" in result.stdout  # 1 + 5 + 10 subsets


def test_position_of_a_real_poker_game_lists_the_engines_actions() -> None:
    s = poker.new_game(poker.find_preset("short32").with_options(max_bet=None), rng=8)
    text = poker.format_position(s)
    result = runner.invoke(app, ["position", text, "-p", "short32", "-o", "max_bet=none"])
    assert result.exit_code == 0, result.output
    cap = max(a.amount for a in poker.legal_actions(s, s.current) if isinstance(a, poker.Open))
    assert f"  seat {s.current}: open 5-{cap}, wait, fold" in result.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["casino uno hands=R1/G5 discard=R9", "-p", "casino"], "a casino table has no preset"),
        (["casino uno hands=R1/G5 discard=R9", "-o", "uno=classic"], "unknown casino option"),
        (["poker hands=-/-", "-o", "maxbet=3"], "did you mean 'max_bet'?"),
        (["poker hands=-/-", "-p", "classic64"], "unknown poker preset"),
    ],
)
def test_bad_position_options_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["position", *args])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_sim_journal_resumes_a_run_in_sittings(tmp_path: Path) -> None:
    args = ["sim", "uno", "--option", "match=single_hand", "--seed", "5", "--json"]
    whole = json.loads(runner.invoke(app, [*args, "--games", "6"]).stdout)
    path = str(tmp_path / "run.jsonl")
    first = runner.invoke(app, [*args, "--games", "2", "--journal", path])
    assert first.exit_code == 0 and json.loads(first.stdout)["played"] == 2
    rest = json.loads(runner.invoke(app, [*args, "--games", "6", "--journal", path]).stdout)
    assert rest["played"] == 4 and whole["played"] == 6
    for key in ("wins_by_seat", "hands", "hand_wins_by_seat", "mean_turns", "games"):
        assert rest[key] == whole[key]
    table = runner.invoke(
        app,
        [
            "sim",
            "uno",
            "--option",
            "match=single_hand",
            "--seed",
            "5",
            "--games",
            "7",
            "--journal",
            path,
        ],
    )
    assert "1 played now, 6 from the journal" in table.stdout


def test_sim_journal_of_another_run_is_a_clear_error(tmp_path: Path) -> None:
    path = str(tmp_path / "run.jsonl")
    runner.invoke(app, ["sim", "uno", "--games", "1", "--seed", "1", "--journal", path])
    result = runner.invoke(app, ["sim", "uno", "--games", "1", "--seed", "2", "--journal", path])
    assert result.exit_code != 0 and "another run (seed differ)" in result.output
