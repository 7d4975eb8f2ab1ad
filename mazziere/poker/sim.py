"""Bot-against-bot draw poker, measured in chips per deal (draw-poker.md "The computer
opponent"; the engine itself, no shortcut).

How a simulation is read, where the rules are silent:

* Both sides have an effectively unlimited bankroll (``SIM_BANKROLL``) and no items, so every
  deal is played under the table limits alone and a deal's net is well defined: A's chips after
  the deal (before the next ante) minus before its ante. A tied deal nets minus what A put in;
  the carried pot goes to the winner of the next deal, as in a real game.
* Games are played in duplicate pairs: game ``g`` is dealt from the simulation source
  ``SplitMixRng.from_seed(f"{seed}:{g}")`` twice,
  A in seat 0 then in seat 1, so A holds each deal's cards once in each seat. The first actor
  alternates every deal, so A alternates between acting first and second; the pair's two
  deals ``k`` form one sample, which removes much of the luck of the cards.
* Bots draw their random choices from ``SplitMixRng.from_seed(f"{seed}:{g}:{side}")``, the
  same stream in both games of a pair.

>>> t = play_pairs(Rules(), "normal", "easy", games=[0], deals_per_game=20, seed=1)
>>> t.samples, t.deals
(20, 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mazziere.errors import MazziereError
from mazziere.poker.bots import Bot, find_bot
from mazziere.poker.engine import apply, new_game, view
from mazziere.poker.options import Rules
from mazziere.poker.state import State
from mazziere.rng import Rng, SplitMixRng

SIM_BANKROLL = 10**12
MAX_STEPS_PER_DEAL = 200


class SimulationError(MazziereError):
    """A simulated game went wrong: a bot broke the protocol or a deal never ended."""

    default_code = "simulation_error"


@dataclass(frozen=True, slots=True)
class Tally:
    """Integer sums of paired samples (A's net in both games of a pair, for one deal)."""

    samples: int
    total: int
    total_sq: int
    deals: int

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.samples + other.samples,
            self.total + other.total,
            self.total_sq + other.total_sq,
            self.deals + other.deals,
        )


def sim_rules(rules: Rules) -> Rules:
    """The table's rules with an unlimited bankroll and no items (see the module docstring)."""
    return rules.with_options(bankroll=SIM_BANKROLL, items=())


def play_game(
    rules: Rules,
    bots: tuple[Bot, Bot],
    seed: str,
    deals: int,
    rngs: tuple[Rng, Rng],
    seat_of_interest: int = 0,
) -> list[int]:
    """One seat's net chips in each of the first ``deals`` deals of one game."""
    state: State = new_game(rules, SplitMixRng.from_seed(seed))
    nets: list[int] = []
    me = seat_of_interest
    before = state.bankrolls[me] + rules.ante
    steps = 0
    while len(nets) < deals:
        if state.is_over:
            raise SimulationError(f"game {seed} ended early: {state.result}")
        seat = state.current
        action = bots[seat].act(view(state, seat), rngs[seat])
        deal = state.deal_no
        state, _ = apply(state, seat, action)
        steps += 1
        if state.deal_no != deal:
            after = state.bankrolls[me] + rules.ante
            nets.append(after - before)
            before, steps = after, 0
        elif steps > MAX_STEPS_PER_DEAL:
            raise SimulationError(f"deal {deal} of game {seed} does not end")
    return nets


def play_pairs(
    rules: Rules,
    a: str | Bot,
    b: str | Bot,
    games: Sequence[int],
    deals_per_game: int,
    seed: int | str,
) -> Tally:
    """Duplicate pairs of games between bots A and B; the tally of A's paired nets."""
    bot_a = find_bot(a) if isinstance(a, str) else a
    bot_b = find_bot(b) if isinstance(b, str) else b
    table = sim_rules(rules)
    tally = Tally(0, 0, 0, 0)
    for g in games:
        deal_seed = f"{seed}:{g}"
        ra, rb = SplitMixRng.from_seed(f"{deal_seed}:a"), SplitMixRng.from_seed(f"{deal_seed}:b")
        first = play_game(table, (bot_a, bot_b), deal_seed, deals_per_game, (ra, rb))
        ra, rb = SplitMixRng.from_seed(f"{deal_seed}:a"), SplitMixRng.from_seed(f"{deal_seed}:b")
        swapped = play_game(table, (bot_b, bot_a), deal_seed, deals_per_game, (rb, ra), 1)
        pairs = [x + y for x, y in zip(first, swapped, strict=True)]
        tally += Tally(len(pairs), sum(pairs), sum(p * p for p in pairs), 2 * len(pairs))
    return tally
