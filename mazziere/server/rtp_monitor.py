"""The RTP watch, as arithmetic (docs/operators.md "Watching the return to player"): for each
game with a published return, the realised return over the last rounds against the
theoretical one, with the control band that one round's volatility implies for that many
rounds. The figures come from the database (:mod:`mazziere.server.store.rtp`); nothing here
reads it.

**The band.** One round staking ``s`` pays ``s * X``, ``X`` the round's payout per unit
staked (0, 1, 2 or 3 in UNO CASINO), with mean ``mu`` (the theoretical return) and standard
deviation ``sigma``. Over rounds staking ``s_1 .. s_n`` the realised return
``sum(s_i X_i) / sum(s_i)`` has mean ``mu`` and variance ``sigma^2 * sum(s_i^2) / sum(s_i)^2``,
that is ``sigma^2 / n_eff`` with ``n_eff = sum(s_i)^2 / sum(s_i^2)`` (``n`` when every stake
is equal, fewer when a few large stakes weigh most). The 99% band is
``mu +- z * sigma / sqrt(n_eff)``, ``z`` the normal quantile (2.5758...); a fair game
leaves it one window in a hundred.

>>> r = PublishedReturn("g", theoretical=0.96, payouts=((0, 0.5), (2, 0.5)), source="example")
>>> r.sd
1.0
>>> w = window(r, Totals(rounds=10_000, staked=10_000, staked_sq=10_000, paid=9_700), 10_000)
>>> round(w.low, 6), round(w.high, 6), w.realised, w.out_of_band
(0.934242, 0.985758, 0.97, False)

**The theoretical figure and the volatility.** UNO CASINO publishes its return
(:data:`mazziere.catalog.PUBLISHED_RETURNS`, from the rules); the spread of one round's payout
is the one the certification report measured (``mazziere certify casino``: the share of
rounds paying x0, x1, x2 and x3, ``report.json``'s ``payouts``), taken about its own mean.
Without a report the widest spread any payouts between 0 and the largest multiple ``M`` can
have at the published mean stands in: variance ``mu * (M - mu)`` (every round paying 0 or
``M``), a wider band, never a narrower one.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

from mazziere.catalog import PUBLISHED_RETURNS

CONFIDENCE = 0.99
"""The control band's level: a fair game's figure lies outside it one time in a hundred."""
WINDOWS: tuple[int | None, ...] = (1_000, 10_000, 100_000, None)
"""The windows watched: the last 1,000, 10,000 and 100,000 settled rounds, and all of them
(``None``)."""
PLAYER_MIN_ROUNDS = 500
"""A player is listed above the band only over at least this many rounds."""
CERTIFIED_REPORT = Path(__file__).resolve().parents[2] / "docs/certify/casino-1e8/report.json"
"""The certification report of the source tree (``mazziere certify casino --rounds 1e8``),
read when ``Settings.rtp_report`` names none and it is there."""


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile of ``confidence`` (2.5758... at 99%)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True, slots=True)
class PublishedReturn:
    """A game's published return: the theoretical figure and the distribution of one round's
    payout per unit staked (``(multiple, share)`` pairs), whose spread sets the band."""

    game: str
    theoretical: float
    payouts: tuple[tuple[int, float], ...]
    source: str
    """Where the distribution came from: the report's path, or ``bound``."""

    @property
    def sd(self) -> float:
        """Standard deviation of one round's payout per unit staked, about the distribution's
        own mean."""
        total = math.fsum(s for _, s in self.payouts)
        mean = math.fsum(k * s for k, s in self.payouts) / total
        return math.sqrt(math.fsum(s * (k - mean) ** 2 for k, s in self.payouts) / total)


def widest(game: str, theoretical: float, largest: int) -> PublishedReturn:
    """The distribution on ``0 .. largest`` with mean ``theoretical`` and the largest spread:
    every round pays 0 or ``largest`` (a band at least as wide as the true one)."""
    p = theoretical / largest
    return PublishedReturn(game, theoretical, ((0, 1 - p), (largest, p)), "bound")


def from_report(
    game: str, theoretical: float, report: Mapping[str, Any], source: str
) -> PublishedReturn:
    """A game's published return with the payout distribution of its certification report
    (``report.json``'s ``payouts``: ``{"x0": {"share": ...}, "x1": ...}``)."""
    pays = report.get("payouts")
    if not isinstance(pays, Mapping) or not pays:
        raise ValueError(f"{source}: no payout shares")
    payouts = tuple(sorted((int(k.removeprefix("x")), float(v["share"])) for k, v in pays.items()))
    if any(s < 0 for _, s in payouts) or sum(s for _, s in payouts) <= 0:
        raise ValueError(f"{source}: payout shares are not a distribution")
    return PublishedReturn(game, theoretical, payouts, source)


def read_report(path: Path | None) -> tuple[dict[str, Any] | None, str]:
    """The certification report at ``path`` (or :data:`CERTIFIED_REPORT` when ``None``) and
    its path as text; ``(None, "bound")`` when no path was given and the source tree's report
    is not there (an installed package)."""
    chosen = path or CERTIFIED_REPORT
    if not chosen.is_file():
        if path is not None:
            raise FileNotFoundError(f"no certification report at {path}")
        return None, "bound"
    return dict(json.loads(chosen.read_text())), str(chosen)


def published_returns(report_path: Path | None = None) -> dict[str, PublishedReturn]:
    """Every game with a published return (:data:`mazziere.catalog.PUBLISHED_RETURNS`), by
    name; UNO CASINO's volatility from its certification report (``report_path``, else the
    source tree's), or the widest one (module docstring)."""
    out = {}
    for game, (theoretical, largest) in PUBLISHED_RETURNS.items():
        report, source = read_report(report_path) if game == "casino" else (None, "bound")
        out[game] = (
            widest(game, theoretical, largest)
            if report is None
            else from_report(game, theoretical, report, source)
        )
    return out


@dataclass(frozen=True, slots=True)
class Totals:
    """Sums over settled rounds, in cents: rounds, stakes, stakes squared, payouts."""

    rounds: int = 0
    staked: int = 0
    staked_sq: int = 0
    paid: int = 0

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            self.rounds + other.rounds,
            self.staked + other.staked,
            self.staked_sq + other.staked_sq,
            self.paid + other.paid,
        )

    @property
    def realised(self) -> float | None:
        """Paid over staked (``None``: nothing staked)."""
        return self.paid / self.staked if self.staked else None

    @property
    def effective_rounds(self) -> float:
        """``sum(s)^2 / sum(s^2)``: as many equal-stake rounds as would give the same spread."""
        return self.staked * self.staked / self.staked_sq if self.staked_sq else 0.0


def band(ret: PublishedReturn, totals: Totals, z: float | None = None) -> tuple[float, float]:
    """The control band ``theoretical +- z * sd / sqrt(n_eff)`` for these rounds (module
    docstring); the whole line when no round was staked."""
    n = totals.effective_rounds
    if n <= 0:
        return (-math.inf, math.inf)
    half = (z_value() if z is None else z) * ret.sd / math.sqrt(n)
    return ret.theoretical - half, ret.theoretical + half


@dataclass(frozen=True, slots=True)
class Window:
    """One window's figure: the rounds it holds, the realised return, the band, the alert."""

    window: int | None
    rounds: int
    staked: int
    paid: int
    realised: float | None
    low: float | None
    high: float | None
    out_of_band: bool

    @property
    def label(self) -> str:
        """The window's name in the metrics: its size, or ``all``."""
        return "all" if self.window is None else str(self.window)

    def as_json(self) -> dict[str, Any]:
        return {
            "window": self.window,
            "rounds": self.rounds,
            "realised": self.realised,
            "low": self.low,
            "high": self.high,
            "out_of_band": self.out_of_band,
            "staked_cents": self.staked,
            "paid_cents": self.paid,
        }


def window(ret: PublishedReturn, totals: Totals, size: int | None) -> Window:
    """The figure of the last ``size`` rounds (``None``: all) against the band."""
    realised = totals.realised
    if realised is None:
        return Window(size, totals.rounds, 0, totals.paid, None, None, None, False)
    low, high = band(ret, totals)
    return Window(
        size, totals.rounds, totals.staked, totals.paid, realised, low, high,
        not low <= realised <= high,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlayerAbove:
    """A player whose realised return over at least :data:`PLAYER_MIN_ROUNDS` rounds lies
    above the band for that many rounds (how computer-assisted play shows)."""

    account: int
    username: str
    rounds: int
    realised: float
    high: float
    z: float
    """How many standard errors above the theoretical figure."""

    def as_json(self) -> dict[str, Any]:
        return {
            "account": self.account,
            "username": self.username,
            "rounds": self.rounds,
            "realised": self.realised,
            "high": self.high,
            "z": self.z,
        }


def players_above(
    ret: PublishedReturn,
    players: Sequence[tuple[int, str, Totals]],
    min_rounds: int = PLAYER_MIN_ROUNDS,
) -> list[PlayerAbove]:
    """The players above their band, the farthest above first."""
    out = []
    for account, username, t in players:
        realised = t.realised
        if t.rounds < min_rounds or realised is None:
            continue
        _, high = band(ret, t)
        if realised > high:
            se = ret.sd / math.sqrt(t.effective_rounds)
            z = (realised - ret.theoretical) / se
            out.append(PlayerAbove(account, username, t.rounds, realised, high, z))
    return sorted(out, key=lambda p: (-p.z, p.account))


@dataclass(frozen=True, slots=True)
class GameWatch:
    """One game's watch: its windows and the players above the band."""

    ret: PublishedReturn
    windows: tuple[Window, ...]
    above: tuple[PlayerAbove, ...]

    @property
    def alert(self) -> bool:
        return any(w.out_of_band for w in self.windows)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.ret.game,
            "theoretical": self.ret.theoretical,
            "sd": self.ret.sd,
            "volatility_source": self.ret.source,
            "confidence": CONFIDENCE,
            "alert": self.alert,
            "windows": [w.as_json() for w in self.windows],
            "players_above": [p.as_json() for p in self.above],
        }
