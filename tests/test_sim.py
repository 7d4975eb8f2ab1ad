"""UNO simulation: confidence intervals, reproducible seeds, identical results whatever the
worker count, bots fed only views, a step limit, and greedy beating random."""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mazziere.errors import OptionError, UnknownOption
from mazziere.sim import SimulationError, UnoSimResult, mean_ci, simulate_uno, wilson
from mazziere.sim.stats import t_quantile, z_quantile
from mazziere.sim.uno_sim import JOURNAL_CHUNK_CAP, play_match, resolve_bots
from mazziere.uno import Action, Draw, State, View, find_preset, format_position, parse_position
from mazziere.uno.bots import GreedyBot

SINGLE = find_preset("classic").with_options(match="single_hand")


def _same(a: UnoSimResult, b: UnoSimResult) -> bool:
    keys = ("games", "wins_by_seat", "win_rate_ci95", "turns_per_hand", "mean_hands", "bots")
    keys += ("hands", "hand_wins_by_seat", "hand_win_rate_ci95")
    return all(getattr(a, k) == getattr(b, k) for k in keys)


# ---------------------------------------------------------------- statistics
def test_wilson_interval_matches_published_values() -> None:
    w = wilson(81, 263)  # Wilson 1927 / Newcombe 1998 example: 0.2553-0.3662
    assert (round(w.low, 4), round(w.high, 4)) == (0.2553, 0.3662)
    zero = wilson(0, 10)
    assert zero.low == 0.0 and 0.27 < zero.high < 0.28
    assert wilson(10, 10).high == 1.0
    assert math.isnan(wilson(0, 0).estimate)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_mean_ci_uses_student_t() -> None:
    ci = mean_ci([2.0, 4.0, 6.0])
    assert ci.mean == 4.0 and ci.n == 3
    assert ci.high - ci.mean == pytest.approx(4.302653 * 2 / math.sqrt(3), rel=1e-6)
    assert mean_ci([5.0]).low == mean_ci([5.0]).high == 5.0
    assert math.isnan(mean_ci([]).mean)


@pytest.mark.parametrize(
    ("dof", "value"), [(1, 12.7062), (2, 4.3027), (3, 3.1824), (9, 2.2622), (60, 2.0003)]
)
def test_t_quantile_table(dof: int, value: float) -> None:
    assert t_quantile(0.95, dof) == pytest.approx(value, abs=1e-4)
    assert z_quantile(0.95) == pytest.approx(1.959964, abs=1e-6)


# ---------------------------------------------------------------- simulation
def test_sim_counts_single_hands_won_in_matches() -> None:
    rules = find_preset("mattel").with_options(target=100)
    r = simulate_uno(rules, 2, 6, "h", ["greedy", "random"])
    assert r.hands == round(r.mean_hands * r.games)
    assert sum(r.hand_wins_by_seat) <= r.hands and r.hands >= r.games
    assert r.hand_win_rate_ci95[0] == wilson(r.hand_wins_by_seat[0], r.hands)
    single = simulate_uno(SINGLE, 2, 20, "h", ["greedy", "random"])
    assert single.hand_wins_by_seat == single.wins_by_seat  # one hand a match (or a tie-break)


def test_sim_is_reproducible_from_the_seed() -> None:
    a = simulate_uno(SINGLE, 4, 30, "s", ["greedy", "random"])
    b = simulate_uno(SINGLE, 4, 30, "s", ["greedy", "random"])
    c = simulate_uno(SINGLE, 4, 30, "t", ["greedy", "random"])
    assert _same(a, b) and a.games == 30
    assert not _same(a, c)


def test_sim_is_identical_with_one_or_two_workers() -> None:
    rules = find_preset("house")  # full matches to 500 points
    one = simulate_uno(rules, 3, 12, 7, ["greedy", "random", "autoplay"], workers=1)
    two = simulate_uno(rules, 3, 12, 7, ["greedy", "random", "autoplay"], workers=2)
    assert _same(one, two) and two.workers == 2


def test_greedy_beats_random_by_a_clear_margin() -> None:
    r = simulate_uno(SINGLE, 4, 300, 11, ["greedy", "random"])
    greedy = r.wins_by_seat[0] + r.wins_by_seat[2]
    low = wilson(greedy, r.games).low
    assert low > 0.75, r.wins_by_seat  # an even game would give 0.5


def test_every_match_has_a_winner_and_team_wins_count_for_both_partners() -> None:
    r = simulate_uno(find_preset("online").with_options(teams=True), 4, 8, 3, ["greedy"])
    assert r.wins_by_seat[0] == r.wins_by_seat[2] and r.wins_by_seat[1] == r.wins_by_seat[3]
    assert r.wins_by_seat[0] + r.wins_by_seat[1] == 8
    solo = simulate_uno(SINGLE, 5, 10, 3, ["random"])
    assert sum(solo.wins_by_seat) == 10 and solo.mean_hands >= 1
    assert solo.mean_turns > 0 and solo.games_per_second > 0


def test_progress_reports_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate_uno(SINGLE, 2, 5, 1, ["greedy"], progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (5, 5) and all(t == 5 for _, t in seen)


@dataclass
class SpyBot:
    """Greedy play that records what it was shown."""

    name: str = "spy"
    seen: list[type] = field(default_factory=list)

    def act(self, view: View, rng: random.Random) -> Action | None:
        self.seen.append(type(view))
        assert not isinstance(view, State)
        return GreedyBot().act(view, rng)


def test_bots_only_receive_views() -> None:
    spy = SpyBot()
    simulate_uno(find_preset("house").with_options(jump_in=True), 4, 3, 2, [spy, "random"])
    assert spy.seen and set(spy.seen) == {View}


def test_seat_i_plays_bots_i_mod_len() -> None:
    table = resolve_bots(["greedy", "random", "autoplay"], 5)
    assert [b.name for b in table] == ["greedy", "random", "autoplay", "greedy", "random"]
    with pytest.raises(UnknownOption):
        resolve_bots(["greedy", "nobody"], 2)
    with pytest.raises(OptionError):
        simulate_uno(find_preset("casino"), 3, 1, 1, ["greedy"])


def test_step_limit_raises_a_clear_error() -> None:
    with pytest.raises(SimulationError) as err:
        play_match(find_preset("classic"), 4, "x", resolve_bots(["random"], 4), max_steps=10)
    assert err.value.code == "step_limit" and "did not end within 10 actions" in err.value.message
    # the report carries the position, which reads back into the very game (reproducible)
    assert err.value.position is not None and err.value.message.endswith(err.value.position)
    game = parse_position(err.value.position, find_preset("classic"))
    assert format_position(game) == err.value.position and game.turns >= 1


def test_an_engine_defect_is_reported_with_its_position(monkeypatch: pytest.MonkeyPatch) -> None:
    import mazziere.sim.uno_sim as sim

    def broken(state: object, seat: int, action: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(sim, "apply", broken)
    with pytest.raises(SimulationError) as err:
        play_match(find_preset("classic"), 2, "y", resolve_bots(["random"], 2))
    assert err.value.code == "engine_defect" and "boom" in err.value.message
    assert err.value.position is not None
    assert format_position(parse_position(err.value.position, find_preset("classic"))) == (
        err.value.position
    )


@dataclass
class CheatBot:
    name: str = "cheat"

    def act(self, view: View, rng: random.Random) -> Action | None:
        return Draw() if view.my_turn else None


def test_a_bot_choosing_an_illegal_action_is_reported() -> None:
    rules = find_preset("classic").with_options(voluntary_draw=False, match="single_hand")
    with pytest.raises(SimulationError) as err:
        simulate_uno(rules, 2, 3, 1, [CheatBot()])
    assert err.value.code == "bot_illegal_action"


# ---------------------------------------------------------------- journal (a run in sittings)
def test_journal_resumed_run_equals_one_uninterrupted_run(tmp_path: Path) -> None:
    rules = find_preset("mattel").with_options(target=100)
    whole = simulate_uno(rules, 3, 9, "j", ["greedy", "random"])
    path = tmp_path / "run.jsonl"
    first = simulate_uno(rules, 3, 4, "j", ["greedy", "random"], journal=path)
    assert first.played == 4 and len(path.read_text().splitlines()) == 1 + 4
    seen: list[tuple[int, int]] = []
    rest = simulate_uno(
        rules,
        3,
        9,
        "j",
        ["greedy", "random"],
        workers=2,
        journal=path,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert _same(rest, whole) and rest.played == 5 and rest.mean_steps == whole.mean_steps
    assert seen[0] == (4, 9) and seen[-1] == (9, 9)
    again = simulate_uno(rules, 3, 9, "j", ["greedy", "random"], journal=path)
    assert _same(again, whole) and again.played == 0  # nothing left to play
    assert len(path.read_text().splitlines()) == 1 + 9


def test_journal_of_another_run_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    simulate_uno(SINGLE, 2, 3, "a", ["greedy"], journal=path)
    before = path.read_bytes()
    for seed, players, bots, rules in (
        ("b", 2, ["greedy"], SINGLE),
        ("a", 3, ["greedy"], SINGLE),
        ("a", 2, ["random"], SINGLE),
        ("a", 2, ["greedy"], SINGLE.with_options(stacking="all")),
    ):
        with pytest.raises(OptionError) as err:
            simulate_uno(rules, players, 3, seed, bots, journal=path)
        assert err.value.code == "journal_mismatch" and "another run" in str(err.value)
    assert path.read_bytes() == before


def _line(**change: object) -> str:
    rec = {"game": 0, "winners": [0], "total_turns": 1, "hands": 1, "steps": 1, "hands_won": [1, 0]}
    return json.dumps({**rec, **change}) + "\n"


@pytest.mark.parametrize(
    "bad",
    [
        "not json\n",
        '{"game": 0}\n',
        _line(game=-1),
        _line(winners=["0"]),
        _line(hands=True),
        "[1, 2]\n",
    ],
)
def test_journal_that_cannot_be_read_is_refused(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "run.jsonl"
    simulate_uno(SINGLE, 2, 2, "a", ["greedy"], journal=path)
    path.write_text(path.read_text() + bad)
    before = path.read_bytes()
    with pytest.raises(OptionError) as err:
        simulate_uno(SINGLE, 2, 4, "a", ["greedy"], journal=path)
    assert err.value.code == "bad_journal"
    assert path.read_bytes() == before


def test_journal_line_cut_short_by_a_kill_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    whole = simulate_uno(SINGLE, 2, 5, "k", ["greedy", "random"])
    simulate_uno(SINGLE, 2, 3, "k", ["greedy", "random"], journal=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:12])  # match 2's line half written
    r = simulate_uno(SINGLE, 2, 5, "k", ["greedy", "random"], journal=path)
    assert _same(r, whole) and r.played == 3
    assert [json.loads(x)["game"] for x in path.read_text().splitlines()[1:]] == [0, 1, 2, 3, 4]


def test_journal_keeps_matches_beyond_a_shorter_run(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    simulate_uno(SINGLE, 2, 6, "s", ["greedy"], journal=path)
    short = simulate_uno(SINGLE, 2, 4, "s", ["greedy"], journal=path)
    assert _same(short, simulate_uno(SINGLE, 2, 4, "s", ["greedy"])) and short.played == 0
    assert len(path.read_text().splitlines()) == 1 + 6


def test_journal_is_written_every_few_matches(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    sizes: list[int] = []

    def seen(done: int, total: int) -> None:
        sizes.append(done - sum(sizes))

    simulate_uno(SINGLE, 2, 200, "w", ["greedy"], progress=seen, journal=path)
    assert max(sizes) <= JOURNAL_CHUNK_CAP and sum(sizes) == 200
    assert len(path.read_text().splitlines()) == 1 + 200
