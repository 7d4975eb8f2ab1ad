"""The proof that the compiled UNO CASINO round equals the readable one: both play the same
seeds, and every round is compared step by step (docs/architecture.md "prove it equal to the
pure path on the same seeds"): the kernel records its steps (:func:`kernel_trace`), the readable
round's events give the same steps (:func:`pure_trace`), and a hash of each round's steps
(:func:`trace_hash`) must agree, as must (player_won, multiplier, turns).

>>> r = check_kernel(1, 50, workers=1)
>>> r.compared, r.mismatches
(50, ())
>>> pure_trace(7) == kernel_trace(7)
True
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mazziere.cards.uno import FACE_COLOR, WILD_FACE, Card, Color
from mazziere.casino import CasinoRules, apply, legal_actions, new_round, play_default, rulebook
from mazziere.casino.events import MultiplierChanged, RoundEnded
from mazziere.casino.readings import Readings
from mazziere.casino.round import choice_rng
from mazziere.casino.strategy import random_decision
from mazziere.rng import SplitMixRng
from mazziere.sim.casino_kernel import (
    MOVE_KINDS,
    REASONS,
    STEP_KINDS,
    kernel_rounds,
    kernel_trace,
    round_seeds,
    warm_up,
)
from mazziere.sim.pool import run_chunks
from mazziere.uno import actions as A
from mazziere.uno.events import Dealt, Drew, Event, Played, Returned, Turned

Triple = tuple[int, int, int]
Step = tuple[int, int, int, int, int]
_KIND = {name: i for i, name in enumerate(STEP_KINDS)}
_DRAW = {"choice": rulebook.DRAW_CHOICE, "no_play": rulebook.DRAW_NO_PLAY}
CHUNK = 500
"""Seeds per job on the readable engine (about half a second of one core)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One round where the two paths disagree."""

    index: int
    seed: int
    kernel: Triple
    python: Triple
    first_step: int = -1
    """The first step where the traces differ (-1: only the outcome differs)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """How many rounds were compared, the disagreements, and what the kernel's rounds
    covered (endings by reason)."""

    compared: int
    mismatches: tuple[Mismatch, ...]
    endings: dict[str, int]
    kernel_seconds: float
    python_seconds: float


def steps_of(events: Iterable[Event]) -> list[Step]:
    """A readable round's events as trace steps (:data:`STEP_KINDS`): cards dealt, turned,
    returned, played and drawn, the multiplier's moves, the end; other events (skips, passes,
    the hand's bookkeeping) follow from these."""
    out: list[Step] = []
    for e in events:
        if isinstance(e, Dealt):
            out.extend((_KIND["dealt"], e.seat, int(c), 0, 0) for c in e.cards)
        elif isinstance(e, Turned):
            out.append((_KIND["turned"], int(e.card), 0, 0, 0))
        elif isinstance(e, Returned):
            out.append((_KIND["returned"], int(e.card), 0, 0, 0))
        elif isinstance(e, Played):
            card = int(e.cards[-1])
            color = FACE_COLOR[card] if e.color is None else int(e.color)
            out.append((_KIND["played"], e.seat, card, color, 0))
        elif isinstance(e, Drew):
            why = _DRAW.get(e.reason, rulebook.DRAW_PENALTY)
            out.extend((_KIND["drew"], e.seat, int(c), why, 0) for c in e.cards)
        elif isinstance(e, MultiplierChanged):
            seat = 0 if e.reason == "player_drew" else 1
            out.append((_KIND["multiplier"], seat, e.multiplier, 0, 0))
        elif isinstance(e, RoundEnded):  # counted as paid and the multiple (round.outcome)
            paid = 1 if e.payout > 0 else 0
            multiple = e.payout // e.stake if paid else e.multiplier
            out.append((_KIND["ended"], paid, multiple, e.turns, REASONS.index(e.reason)))
    return out


def pure_trace(seed: int, readings: Readings | None = None) -> list[Step]:
    """Every step of ``simulate_round(seed, readings)``'s round, from its events."""
    rules = CasinoRules() if readings is None else CasinoRules(readings=readings)
    r, events = new_round(rules, rules.min_stake, rng=SplitMixRng(seed))
    seen = list(events)
    while r.result is None:
        r, events = play_default(r)
        seen.extend(events)
    return steps_of(seen)


def decided_step(action: A.Action) -> Step:
    """A player's decision as the kernel's ``decided`` step (move kind, card, colour)."""
    if isinstance(action, A.Play):
        card = int(action.cards[0])
        color = FACE_COLOR[card] if action.color is None else int(action.color)
        return (_KIND["decided"], MOVE_KINDS.index("play"), card, color, 0)
    kind = "draw" if isinstance(action, A.Draw) else "pass"
    return (_KIND["decided"], MOVE_KINDS.index(kind), -1, -1, 0)


def action_of(step: Step) -> A.Action:
    """The action a ``decided`` step records (the inverse of :func:`decided_step`)."""
    kind, card, color = MOVE_KINDS[step[1]], step[2], step[3]
    if kind == "draw":
        return A.DRAW
    if kind == "pass":
        return A.PASS
    if card >= WILD_FACE:
        return A.play_of((Card(card),), Color(color))
    return A.play_of((Card(card),))


def strategy_trace(seed: int, strategy: str, decisions: Sequence[Step] = ()) -> list[Step]:
    """Every step of the readable round on ``SplitMixRng(seed)`` with the player deciding by
    ``strategy``: ``random`` (:func:`~mazziere.casino.strategy.random_decision`) or
    ``replay`` (the ``decided`` steps of a kernel trace, in order, each checked legal by the
    engine). Each decision is recorded as a ``decided`` step before its effects, where the
    kernel records its own; a lone draw for lack of a playable card is no decision."""
    rules = CasinoRules()
    r, events = new_round(rules, rules.min_stake, rng=SplitMixRng(seed))
    steps = steps_of(events)
    choice = choice_rng(seed)
    queue = iter(decisions)
    while r.result is None:
        legal = legal_actions(r)
        if any(isinstance(a, A.Play) for a in legal):
            if strategy == "random":
                action = random_decision(legal, choice)
            elif strategy == "replay":
                action = action_of(next(queue))
            else:
                raise ValueError(f"no readable player for strategy {strategy!r}")
            steps.append(decided_step(action))
        else:
            action = legal[0]
        r, events = apply(r, action)
        steps.extend(steps_of(events))
    return steps


def replayed(seed: int, kernel_steps: Sequence[Step]) -> list[Step]:
    """The readable round of ``seed`` with the player making the decisions of a kernel
    trace of that seed (any strategy): equal to the trace when the kernel played by the
    rules, every decision legal in the engine."""
    decided = [s for s in kernel_steps if s[0] == _KIND["decided"]]
    return strategy_trace(seed, "replay", decided)


def trace_hash(steps: Sequence[Step]) -> str:
    """A hash of every step of a round (BLAKE2b of the steps as 64-bit integers)."""
    data = np.array(steps, dtype=np.int64).reshape(-1, 5).tobytes()
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _outcome(steps: Sequence[Step]) -> Triple:
    end = steps[-1]
    assert end[0] == _KIND["ended"], end
    return (end[1], end[2], end[3])


def python_rounds(seeds: Sequence[int]) -> list[tuple[Triple, str]]:
    """Each seed's readable round: (outcome, hash of its steps) (one worker's share)."""
    out = []
    for s in seeds:
        steps = pure_trace(int(s))
        out.append((_outcome(steps), trace_hash(steps)))
    return out


def first_difference(a: Sequence[Step], b: Sequence[Step]) -> int:
    """The index of the first step where two traces differ (-1 if equal)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return -1 if len(a) == len(b) else min(len(a), len(b))


def check_kernel(
    master: int,
    rounds: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> CheckResult:
    """Play rounds ``0 .. rounds - 1`` of the run ``master`` on both paths and compare them
    step by step (the readable engine on ``workers`` processes)."""
    seeds = round_seeds(master, 0, rounds)
    warm_up()
    t0 = time.perf_counter()
    k = kernel_rounds(seeds)
    kernel_seconds = time.perf_counter() - t0
    k_hashes = [trace_hash(kernel_trace(int(s))) for s in seeds]
    chunks = [[int(s) for s in seeds[i : i + CHUNK]] for i in range(0, rounds, CHUNK)]
    t0 = time.perf_counter()
    parts = run_chunks(python_rounds, chunks, workers, progress, size=len, total=rounds)
    py = [t for part in parts for t in part]
    python_seconds = time.perf_counter() - t0
    bad = []
    for i in range(rounds):
        outcome, digest = py[i]
        if k.triple(i) != outcome or k_hashes[i] != digest:
            s = int(seeds[i])
            step = first_difference(kernel_trace(s), pure_trace(s))
            bad.append(Mismatch(i, s, k.triple(i), outcome, step))
    counts = np.bincount(k.reason, minlength=len(REASONS))
    endings = {name: int(counts[i]) for i, name in enumerate(REASONS)}
    return CheckResult(len(py), tuple(bad), endings, kernel_seconds, python_seconds)


def check_rare(
    master: int, scan: int, reason: str = "pile_out", readings: Readings | None = None
) -> CheckResult:
    """The rounds among ``0 .. scan - 1`` of the run ``master`` that the kernel ends with
    ``reason`` (the pile running out is about 1 in 30,000), replayed by the readable round and
    compared step by step, seed 000 read as ``readings`` on both."""
    seeds = round_seeds(master, 0, scan)
    warm_up()
    t0 = time.perf_counter()
    k = kernel_rounds(seeds, readings=readings)
    kernel_seconds = time.perf_counter() - t0
    picked = np.flatnonzero(k.reason == REASONS.index(reason))
    t0 = time.perf_counter()
    bad: list[Mismatch] = []
    for i in picked:
        s = int(seeds[i])
        ks, ps = kernel_trace(s, readings=readings), pure_trace(s, readings)
        if ks != ps or k.triple(int(i)) != _outcome(ps):
            bad.append(
                Mismatch(int(i), s, k.triple(int(i)), _outcome(ps), first_difference(ks, ps))
            )
    python_seconds = time.perf_counter() - t0
    return CheckResult(
        len(picked), tuple(bad), {reason: len(picked)}, kernel_seconds, python_seconds
    )
