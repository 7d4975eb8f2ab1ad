"""UNO CASINO table rules and stake validation (docs/rules/casino.md "The round" 1, seed 000).

Money is integer cents. A stake must be whole cents, positive, within the table's limits and
no more than the session credit; anything else is refused with a :class:`StakeError` before
any money moves.

>>> validate_stake(500, CasinoRules(), credit=10_000)
500
>>> try:
...     validate_stake(0, CasinoRules())
... except StakeError as e:
...     print(e.code)
stake_not_positive
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from mazziere.casino.readings import Readings
from mazziere.errors import MazziereError, OptionError
from mazziere.fields import check_limits, option
from mazziere.uno.options import Rules
from mazziere.uno.presets import CASINO

MAX_MULTIPLIER = 3
"""The payout multiplier starts at most at x3 and steps x3, x2, x1 (000 "PAGAMENTI")."""
PUBLISHED_RTP = 0.9606
"""The theoretical return to player seed 000 publishes ("RTP": 96,06%), which the measured
one is reconciled with (docs/rules/casino.md "Readings of the rules")."""
SMALLEST_STAKE = 1
"""The least a table minimum may be, in cents (a stake is more than zero)."""


class StakeError(MazziereError, ValueError):
    """A stake that cannot be accepted; nothing was debited."""

    default_code = "bad_stake"


@dataclass(frozen=True, slots=True)
class CasinoRules:
    """One UNO CASINO table: stake limits in cents, start multiplier, decision time."""

    min_stake: int = option(10, "Smallest stake in cents (table minimum).", ge=SMALLEST_STAKE)
    max_stake: int = option(10_000, "Largest stake in cents (table maximum).", ge=SMALLEST_STAKE)
    start_multiplier: int = option(
        3,
        'The payout multiplier a round starts at (000 "PAGAMENTI": x3, x2, x1).',
        ge=1,
        le=MAX_MULTIPLIER,
    )
    decision_time_limit: float = option(
        30.0,
        "Seconds per player decision; on expiry the default strategy decides (000).",
        gt=0,
    )
    uno: Rules = option(
        CASINO,
        "The UNO rules of the table (preset ``casino``: 4/5 deal, no bluff, no reshuffle...).",
    )
    readings: Readings = option(
        Readings(),
        "How the published rules' open sentences are read (mazziere.casino.readings; the "
        "adopted ones by default).",
    )

    def __post_init__(self) -> None:
        check_limits(self)  # stakes, the x3 cap, the decision time: bounds on each option
        if not isinstance(self.readings, Readings):
            raise OptionError("readings must be a mazziere.casino.Readings", "bad_option_value")
        if self.uno.returned_first_card != self.readings.first_card:
            # the reading decides where a returned first card goes: the UNO rules follow it
            uno = self.uno.with_options(returned_first_card=self.readings.first_card)
            object.__setattr__(self, "uno", uno)
        if self.min_stake > self.max_stake:
            raise OptionError(
                "stake limits must satisfy 0 < min_stake <= max_stake", "bad_option_value"
            )
        u = self.uno
        if u.max_players != 2 or u.challenge or u.wild4_bluff or u.stacking != "none":
            raise OptionError(
                "a casino table is one player against the bank with no bluff, challenge or "
                "stacking",
                "bad_combination",
            )


def validate_stake(stake: object, rules: CasinoRules, credit: int | None = None) -> int:
    """The stake in cents if acceptable, else :class:`StakeError` naming the rule broken."""
    if isinstance(stake, bool) or not isinstance(stake, (int, Decimal, float)):
        raise StakeError("the stake must be a number of cents", "stake_not_integer_cents")
    if isinstance(stake, (Decimal, float)):
        if stake != stake or stake != int(stake):  # NaN, or a fraction of a cent
            raise StakeError("the stake must be whole cents", "stake_not_integer_cents")
        stake = int(stake)
    assert isinstance(stake, int)
    if stake <= 0:
        raise StakeError("the stake must be more than zero", "stake_not_positive")
    if stake < rules.min_stake:
        raise StakeError(f"the table minimum is {rules.min_stake} cents", "stake_below_min")
    if stake > rules.max_stake:
        raise StakeError(f"the table maximum is {rules.max_stake} cents", "stake_above_max")
    if credit is not None and stake > credit:
        raise StakeError(f"the session credit is {credit} cents", "stake_above_credit")
    return stake
