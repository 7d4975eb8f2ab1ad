"""The sums behind the RTP watch (:mod:`mazziere.server.rtp_monitor`), aggregated in SQL on
SQLite and PostgreSQL alike: no round is read into Python, only one row a window, or one a
player.

A settled round is a hand of the game whose status is ``done``. Its money is the ledger's:
the stake posted under the key ``stake:<hand>`` and the payout under ``payout:<hand>``
(:mod:`mazziere.server.store.money`), read on the house's side of each (the stake is what the
house took, the payout what it paid; a lost round has no payout). The keys are unique and
indexed, so the last ``n`` rounds cost ``n`` index look-ups; every round, one pass."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import ColumnElement, Select, String, Table, and_, func, literal, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.rtp_monitor import Totals
from mazziere.server.store.ledger import HOUSE
from mazziere.server.store.models import Account, Hand, HandPlayer, LedgerEntry, LedgerTxn

_HANDS = cast(Table, Hand.__table__)
_PLAYERS = cast(Table, HandPlayer.__table__)
_ACCOUNTS = cast(Table, Account.__table__)


def _key(prefix: str) -> ColumnElement[str]:
    """``'<prefix>:' || hands.id``: the idempotency key of a hand's posting."""
    return literal(prefix + ":") + sql_cast(_HANDS.c.id, String)


def _rounds(game: str, *extra: Any) -> Select[Any]:
    """One row a settled round of ``game``: its id, the stake and the payout in cents."""
    st, pt = (
        cast(Table, LedgerTxn.__table__).alias("st"),
        cast(Table, LedgerTxn.__table__).alias("pt"),
    )
    se = cast(Table, LedgerEntry.__table__).alias("se")
    pe = cast(Table, LedgerEntry.__table__).alias("pe")
    joined = (
        _HANDS.join(st, st.c.idempotency_key == _key("stake"))
        .join(se, and_(se.c.txn_id == st.c.id, se.c.book == HOUSE))
        .outerjoin(pt, pt.c.idempotency_key == _key("payout"))
        .outerjoin(pe, and_(pe.c.txn_id == pt.c.id, pe.c.book == HOUSE))
    )
    return (
        select(
            _HANDS.c.id.label("hand"),
            se.c.amount.label("stake"),
            (-func.coalesce(pe.c.amount, 0)).label("paid"),
            *extra,
        )
        .select_from(joined)
        .where(_HANDS.c.game == game, _HANDS.c.status == "done")
    )


def _sums(rows: Any) -> list[Any]:
    return [
        func.count(),
        func.coalesce(func.sum(rows.c.stake), 0),
        func.coalesce(func.sum(rows.c.stake * rows.c.stake), 0),
        func.coalesce(func.sum(rows.c.paid), 0),
    ]


def _totals(row: Any) -> Totals:
    n, staked, staked_sq, paid = row
    return Totals(int(n), int(staked), int(staked_sq), int(paid))


async def window_totals(db: AsyncSession, game: str, last: int | None) -> Totals:
    """The sums over ``game``'s last ``last`` settled rounds (by hand id), or all of them."""
    rounds = _rounds(game)
    if last is not None:
        rounds = rounds.order_by(_HANDS.c.id.desc()).limit(last)
    sub = rounds.subquery("w")
    return _totals((await db.execute(select(*_sums(sub)))).one())


async def player_totals(
    db: AsyncSession, game: str, min_rounds: int
) -> list[tuple[int, str, Totals]]:
    """``(account, username, sums)`` of every player with at least ``min_rounds`` settled
    rounds of ``game`` (the seat a person held; computer seats have no account)."""
    seat = _PLAYERS.alias("seat")
    rounds = (
        _rounds(game, seat.c.account_id.label("account"))
        .join(seat, seat.c.hand_id == _HANDS.c.id)
        .where(seat.c.account_id.is_not(None), seat.c.is_bot.is_(False))
    ).subquery("r")
    query = (
        select(rounds.c.account, _ACCOUNTS.c.username, *_sums(rounds))
        .join(_ACCOUNTS, _ACCOUNTS.c.id == rounds.c.account)
        .group_by(rounds.c.account, _ACCOUNTS.c.username)
        .having(func.count() >= min_rounds)
        .order_by(rounds.c.account)
    )
    return [(int(r[0]), str(r[1]), _totals(r[2:])) for r in (await db.execute(query)).all()]
