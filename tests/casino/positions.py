"""Hand-made casino positions: a round whose UNO state is set by hand."""

from __future__ import annotations

from mazziere.casino import BankMemory, CasinoRound, CasinoRules
from mazziere.rng import SplitMixRng
from tests.uno.positions import position


def casino_position(
    player: str,
    bank: str,
    top: str,
    *,
    color: str | None = None,
    draw: str = "",
    multiplier: int = 3,
    memory: BankMemory | None = None,
    current: int = 0,
    stake: int = 100,
    empty_pile: bool = False,
    seed: int = 0,
) -> CasinoRound:
    rules = CasinoRules()
    state = position(rules.uno, [player, bank], top, color=color, draw=draw, current=current)
    if empty_pile:
        state = state.replace(removed=state.draw_pile, draw_pile=())
    return CasinoRound(
        rules=rules,
        uno=state,
        stake=stake,
        multiplier=multiplier,
        strategy_rng=SplitMixRng(seed),
        memory=memory or BankMemory(),
        turns=0,
        result=None,
    )
