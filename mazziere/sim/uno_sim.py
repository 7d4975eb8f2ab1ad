"""Batch UNO simulation on the pure engine: full matches between bots, win rates with Wilson
intervals, turns per hand, throughput; reproducible from the seed whatever the worker count.

>>> from mazziere.uno import find_preset
>>> rules = find_preset("classic").with_options(match="single_hand")
>>> r = simulate_uno(rules, 3, 4, seed=1, bots=["greedy"])
>>> r.games, sum(r.wins_by_seat)
(4, 4)

Game ``g`` is dealt from the engine seed ``f"{seed}:{g}"`` and the bots draw from
``random.Random(f"{seed}:{g}:bots")``; seat ``i`` plays ``bots[i % len(bots)]``. Each step,
the seats whose turn it is not and who have legal actions (catch, UNO call, jump-in, a
third-party challenge) are asked first, in seat order after the current seat; the first that
acts is applied, otherwise the current seat's bot acts.

Since each match depends only on the seed and its number, a long run may be cut into
sittings: with a ``journal`` (:class:`Journal`) every finished match is written to a file as
it arrives, and a run started again on that file plays only the matches it lacks. The totals
are then exactly those of one uninterrupted run.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from mazziere import __version__
from mazziere.errors import MazziereError, OptionError
from mazziere.sim.journal import JournalFile
from mazziere.sim.pool import cut_ranges, run_chunks
from mazziere.sim.stats import Interval, MeanCI, mean_ci, wilson
from mazziere.uno import (
    Action,
    Rules,
    State,
    all_legal_actions,
    apply,
    format_position,
    new_game,
    view,
)
from mazziere.uno.bots import Bot, find_bot

if TYPE_CHECKING:
    from mazziere.sim.ray_backend import RayCluster

MAX_STEPS = 200_000
"""Actions allowed in one match before the simulation gives up (a stuck game is a bug)."""
CHUNK_CAP = 50
"""Most matches per job."""
JOURNAL_CHUNK_CAP = 10
"""Most matches per job when they go to a journal: a job's matches are written when it ends,
so a run stopped loses at most this many per worker (the cost of more jobs is small)."""

BotSpec = str | Bot
Progress = Callable[[int, int], None]
"""Called with (games finished, games in all) as games finish."""


class SimulationError(MazziereError):
    """A simulated match went wrong: a step limit hit, a bot that broke the protocol, or an
    engine defect. ``position`` is the match's position then (``format_position``), so that
    ``mazziere position`` reproduces it; the message ends with it."""

    default_code = "simulation_error"
    position: str | None = None


def _at(state: State, message: str, code: str) -> SimulationError:
    text = format_position(state)
    err = SimulationError(f"{message}; position: {text}", code)
    err.position = text
    return err


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one simulated match (integers only, so merging is exact)."""

    game: int
    winners: tuple[int, ...]
    total_turns: int
    hands: int
    steps: int
    hands_won: tuple[int, ...] = ()
    """Hands won by each seat's side (a team's hand counts for both partners)."""

    @property
    def turns_per_hand(self) -> float:
        return self.total_turns / self.hands


@dataclass(frozen=True, slots=True)
class UnoSimResult:
    """Totals over ``games`` matches; a team win counts for both partners."""

    games: int
    players: int
    seed: str
    bots: tuple[str, ...]
    wins_by_seat: tuple[int, ...]
    win_rate_ci95: tuple[Interval, ...]
    hands: int
    """Hands played in all the matches (a hand nobody won included)."""
    hand_wins_by_seat: tuple[int, ...]
    hand_win_rate_ci95: tuple[Interval, ...]
    """Single hands won per seat over ``hands``, with a Wilson interval that treats the hands
    as independent (hands of one match share its scores: close enough for bots that ignore
    them, a little narrow for those that do not)."""
    turns_per_hand: MeanCI
    mean_hands: float
    mean_steps: float
    wall_seconds: float
    workers: int
    played: int | None = None
    """Matches played by this run, when a journal supplied the others (None: all of them)."""

    @property
    def mean_turns(self) -> float:
        """Mean over matches of ``total_turns / hands`` (turns per hand)."""
        return self.turns_per_hand.mean

    @property
    def games_per_second(self) -> float:
        """Matches played by this run per second of its wall time."""
        n = self.games if self.played is None else self.played
        return n / self.wall_seconds if self.wall_seconds > 0 else float("inf")


def play_match(
    rules: Rules, players: int, seed: str, bots: Sequence[Bot], max_steps: int = MAX_STEPS
) -> State:
    """Play one match to its end with one bot per seat; returns the final state."""
    state = new_game(rules, players, seed)
    rng = random.Random(f"{seed}:bots")
    steps = 0
    while not state.is_over:
        steps += 1
        if steps > max_steps:
            raise _at(
                state,
                f"match {seed!r} did not end within {max_steps} actions "
                f"(hand {state.hand_no}, phase {state.phase.value}, seat {state.current})",
                "step_limit",
            )
        seat, action = next_action(state, bots, rng)
        try:
            state, _ = apply(state, seat, action)
        except Exception as e:  # a listed action the engine refused: a defect, reproducible
            raise _at(
                state, f"seat {seat} played {action}, which failed: {e!r}", "engine_defect"
            ) from e
    return state


def next_action(state: State, bots: Sequence[Bot], rng: random.Random) -> tuple[int, Action]:
    """The action applied this step: the first out-of-turn one offered (seat order after the
    current seat), else the current seat's."""
    current = state.current
    waiting: list[int] = []
    for seat, _ in all_legal_actions(state):
        if seat != current and (not waiting or waiting[-1] != seat):
            waiting.append(seat)
    for seat in waiting:
        v = view(state, seat)
        action = bots[seat].act(v, rng)
        if action is not None:
            return seat, _checked(action, v.legal, bots[seat], seat)
    v = view(state, current)
    if not v.legal:
        raise _at(
            state,
            f"seat {current} must act in phase {state.phase.value} but has no legal action",
            "no_legal_action",
        )
    action = bots[current].act(v, rng)
    if action is None:
        raise _at(
            state,
            f"bot {bots[current].name!r} at seat {current} declined its own turn",
            "bot_declined",
        )
    return current, _checked(action, v.legal, bots[current], current)


def _checked(action: Action, legal: tuple[Action, ...], bot: Bot, seat: int) -> Action:
    if action not in legal:
        raise SimulationError(
            f"bot {bot.name!r} at seat {seat} chose {action}, not one of its legal actions",
            "bot_illegal_action",
        )
    return action


def run_games(
    rules: Rules, players: int, seed: str, bots: Sequence[BotSpec], games: range
) -> list[GameRecord]:
    """Play the matches numbered ``games`` (one worker's share)."""
    table = resolve_bots(bots, players)
    out: list[GameRecord] = []
    for g in games:
        state = play_match(rules, players, f"{seed}:{g}", table)
        assert state.result is not None
        winners = tuple(s for s, mp in enumerate(state.result.match_points) if mp > 0)
        hands = state.hand_no + 1
        won = tuple(state.hands_won[state.side_of(s)] for s in range(players))
        out.append(GameRecord(g, winners, state.total_turns, hands, state.clock, won))
    return out


def resolve_bots(bots: Sequence[BotSpec], players: int) -> list[Bot]:
    """One bot per seat: seat ``i`` gets ``bots[i % len(bots)]`` (names via ``find_bot``)."""
    if not bots:
        raise OptionError("name at least one bot, e.g. 'greedy'", "no_bots")
    made = [find_bot(b) if isinstance(b, str) else b for b in bots]
    return [made[i % len(made)] for i in range(players)]


def check_sim_args(
    rules: Rules, players: int, games: int, bots: Sequence[BotSpec], workers: int
) -> list[Bot]:
    """Refuse a bad simulation request before any game is played; returns the seats' bots."""
    rules.check_players(players)
    if games < 1:
        raise OptionError(f"simulate at least one game, not {games}", "bad_games")
    if workers < 1:
        raise OptionError(f"workers must be at least 1, not {workers}", "bad_workers")
    return resolve_bots(bots, players)


def _run_chunk(args: tuple[Rules, int, str, Sequence[BotSpec], range]) -> list[GameRecord]:
    return run_games(*args)


class Journal(JournalFile):
    """A simulation's finished matches in a JSON-lines file (:class:`JournalFile`), so that
    a long run can stop and go on (the command line's ``--journal``): the header holds the
    package version, the rules (every option), the seat count, the seed and the bots' names;
    each further line is one match's :class:`GameRecord`.

    The bots are known by name only: a journal resumed after their code changed mixes two
    versions of a bot, which the header cannot see (it does record the package version)."""

    def load(self) -> dict[int, GameRecord]:
        """The matches already in the file, by number."""
        done: dict[int, GameRecord] = {}
        for no, obj in self.entries():
            rec = self._record(obj, no)
            done.setdefault(rec.game, rec)
        return done

    def append_records(self, records: Sequence[GameRecord]) -> None:
        """Write finished matches at the end of the file (flushed: a kill loses none)."""
        self.append(asdict(r) for r in records)

    def _record(self, obj: dict[str, Any], no: int) -> GameRecord:
        def ints(x: object) -> bool:
            return isinstance(x, list) and all(type(i) is int for i in x)

        nums = ("game", "total_turns", "hands", "steps")
        if not (
            all(type(obj.get(k)) is int and obj[k] >= 0 for k in nums)
            and ints(obj.get("winners"))
            and ints(obj.get("hands_won"))
        ):
            raise self.refuse(no, "a match record")
        return GameRecord(
            obj["game"],
            tuple(obj["winners"]),
            obj["total_turns"],
            obj["hands"],
            obj["steps"],
            tuple(obj["hands_won"]),
        )


def simulate_uno(
    rules: Rules,
    players: int,
    games: int,
    seed: int | str,
    bots: Sequence[BotSpec],
    progress: Progress | None = None,
    workers: int = 1,
    cluster: RayCluster | None = None,
    journal: str | os.PathLike[str] | None = None,
) -> UnoSimResult:
    """Play ``games`` full matches (whatever match ``rules`` say) and summarise them; with
    ``workers`` > 1 the games are split across processes and merged in game order, so the
    result is the same for any worker count (wall time aside). On an open Ray ``cluster``
    the chunks are Ray tasks, cut for its CPUs (``workers`` then unused). With a ``journal``
    file (:class:`Journal`) the matches it holds are not played again and each match played
    is added to it as its chunk finishes; the result is the same as without."""
    if cluster is not None:
        workers = cluster.cpus
    table = check_sim_args(rules, players, games, bots, workers)
    seed_s = str(seed)
    names = tuple(b.name for b in table)
    start = time.perf_counter()
    done: dict[int, GameRecord] = {}
    log: Journal | None = None
    if journal is not None:
        header = {"version": __version__, "rules": rules.as_dict(), "players": players}
        log = Journal(journal, {**header, "seed": seed_s, "bots": list(names)})
        done = {g: r for g, r in log.load().items() if g < games}
    todo = [g for g in range(games) if g not in done]
    cap = CHUNK_CAP if log is None else JOURNAL_CHUNK_CAP
    chunks = [(rules, players, seed_s, list(bots), r) for r in cut_ranges(todo, workers, cap)]
    if progress is not None and done:
        progress(len(done), games)

    def arrived(done_now: int, _total: int) -> None:
        if progress is not None:
            progress(len(done) + done_now, games)

    parts = run_chunks(
        _run_chunk,
        chunks,
        workers,
        arrived,
        size=len,
        total=len(todo),
        cluster=cluster,
        each=None if log is None else log.append_records,
    )
    for part in parts:
        done.update((r.game, r) for r in part)
    wall = time.perf_counter() - start
    records = [done[g] for g in range(games)]
    played = None if log is None else len(todo)
    return summarise(records, players, seed_s, names, wall, workers, played)


def summarise(
    records: Sequence[GameRecord],
    players: int,
    seed: str,
    bots: tuple[str, ...],
    wall: float,
    workers: int,
    played: int | None = None,
) -> UnoSimResult:
    """Totals and intervals from per-game records (taken in game order); ``played`` of them
    by this run (None: all)."""
    n = len(records)
    wins = [0] * players
    hand_wins = [0] * players
    for r in records:
        for s in r.winners:
            wins[s] += 1
        for s, w in enumerate(r.hands_won):
            hand_wins[s] += w
    hands = sum(r.hands for r in records)
    return UnoSimResult(
        games=n,
        players=players,
        seed=seed,
        bots=bots,
        wins_by_seat=tuple(wins),
        win_rate_ci95=tuple(wilson(w, n) for w in wins),
        hands=hands,
        hand_wins_by_seat=tuple(hand_wins),
        hand_win_rate_ci95=tuple(wilson(w, hands) for w in hand_wins),
        turns_per_hand=mean_ci([r.turns_per_hand for r in records]),
        mean_hands=sum(r.hands for r in records) / n,
        mean_steps=sum(r.steps for r in records) / n,
        wall_seconds=wall,
        workers=workers,
        played=played,
    )
