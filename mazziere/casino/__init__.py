"""UNO CASINO: one player against the house for a stake (docs/rules/casino.md, seed 000)."""

from mazziere.casino.position import format_position, parse_position
from mazziere.casino.round import (
    BANK,
    PLAYER,
    CasinoRound,
    CasinoView,
    RoundResult,
    apply,
    bank_action,
    default_action,
    legal_actions,
    new_round,
    play_bank,
    play_default,
    settle,
    simulate_round,
    view,
)
from mazziere.casino.rules import CasinoRules, StakeError, validate_stake
from mazziere.casino.strategy import BankMemory

__all__ = [
    "BANK",
    "PLAYER",
    "BankMemory",
    "CasinoRound",
    "CasinoRules",
    "CasinoView",
    "RoundResult",
    "StakeError",
    "apply",
    "bank_action",
    "default_action",
    "format_position",
    "legal_actions",
    "new_round",
    "parse_position",
    "play_bank",
    "play_default",
    "settle",
    "simulate_round",
    "validate_stake",
    "view",
]
