"""Settled UNO CASINO rounds planted through the store's own functions (the hand opened, the
stake posted, the hand closed with its result, the payout posted, as a table records them),
with payouts drawn from a chosen distribution: the RTP watch's tests read them back."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.game import new_seed
from mazziere.server.rtp_monitor import published_returns
from mazziere.server.store import accounts, hands, ledger, money, table_rows
from mazziere.server.store.db import Database

CERTIFIED = published_returns()["casino"]
"""UNO CASINO's published return, with the certification report's payout shares."""


def multiples(shares: Sequence[tuple[int, float]], n: int, seed: int) -> list[int]:
    """``n`` payouts (in stakes) drawn from ``(multiple, share)`` pairs."""
    rng = random.Random(seed)
    values, weights = zip(*shares, strict=True)
    return rng.choices(values, weights, k=n)


def fair(n: int, seed: int = 1) -> list[int]:
    """Rounds paying as the certification measured (a return near the published one)."""
    return multiples(CERTIFIED.payouts, n, seed)


def assisted(n: int, seed: int = 2) -> list[int]:
    """Rounds of a player who wins far more often than the published strategy: x3 in 45% of
    rounds, a return near 135%, as the search player's skill range reaches."""
    return multiples(((0, 0.55), (3, 0.45)), n, seed)


async def casino_player(database: Database, name: str) -> tuple[int, int]:
    """An account with a casino table of its own: ``(account, table)``."""
    async with database.write() as db:
        acc = await accounts.create_account(db, name, "planted", 0)
        table = await table_rows.create(db, "casino", f"{name}'s table", {}, 2, acc.id, 30.0)
        return acc.id, table.id


async def plant_rounds(
    database: Database, account: int, table: int, paid: Sequence[int], stake: int = 100
) -> None:
    """One settled round per entry of ``paid`` (the payout in stakes), each staking
    ``stake`` cents, in one credit session opened with the stakes and closed after."""
    need = stake * len(paid)
    seats: list[dict[str, Any]] = [
        {"account": account, "name": "p", "bot": None},
        {"account": None, "bot": "bank"},
    ]

    async def write(db: AsyncSession) -> None:  # the tables' own path: one group commit
        await money_in(db, account, need)
        session, _ = await money.top_up(db, account, table, None, need, None)
        for k in paid:
            hand = await hands.open_hand(db, table, "casino", new_seed(), {}, seats)
            await money.stake(db, session, hand, stake)
            result = {"winner": 0 if k else 1, "stake": stake, "payout": k * stake}
            await hands.close_hand(db, hand, result)
            await money.payout(db, session, hand, k * stake)
        await money.close(db, session, "left")

    await database.commit_together(write)


async def money_in(db: AsyncSession, account: int, cents: int) -> None:
    """Credit ``account``'s wallet from the mint (play money, as a sign-up does)."""
    await ledger.post(
        db,
        f"plant:{account}:{new_seed()[:16]}",
        "demo_credit",
        f"account:{account}",
        [(ledger.MINT, -cents), (ledger.wallet(account), cents)],
    )
