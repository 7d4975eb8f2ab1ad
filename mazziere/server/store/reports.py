"""Daily reports (docs/operators.md): per game and day (UTC), the settled rounds, the
players who sat in them, the stakes the house took and the payouts it made, and the gross
gaming revenue (stakes less payouts), summed in SQL on SQLite and PostgreSQL alike. A round
is a hand of the game whose status is ``done``, counted on the day it started; its money is
the ledger's, read on the house's side of the postings keyed ``stake:<hand>`` and
``payout:<hand>`` (:mod:`mazziere.server.store.money`)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, String, Table, and_, func, literal, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store.ledger import HOUSE
from mazziere.server.store.models import Hand, HandPlayer, LedgerEntry, LedgerTxn

_HANDS = cast(Table, Hand.__table__)


def _day(sqlite: bool) -> ColumnElement[str]:
    """A hand's start as ``YYYY-MM-DD`` in UTC (SQLite keeps UTC text; PostgreSQL converts)."""
    if sqlite:
        return func.substr(sql_cast(_HANDS.c.started_at, String), 1, 10)
    return func.to_char(func.timezone("UTC", _HANDS.c.started_at), "YYYY-MM-DD")


def _key(prefix: str) -> ColumnElement[str]:
    return literal(prefix + ":") + sql_cast(_HANDS.c.id, String)


async def daily(db: AsyncSession, first: date, last: date) -> list[dict[str, Any]]:
    """One row per day and game with a settled round between ``first`` and ``last``
    (inclusive), by day then game."""
    sqlite = db.get_bind().dialect.name == "sqlite"
    day = _day(sqlite).label("day")
    start = datetime.combine(first, time(), UTC)
    end = datetime.combine(last + timedelta(days=1), time(), UTC)
    when = and_(_HANDS.c.status == "done", _HANDS.c.started_at >= start, _HANDS.c.started_at < end)
    st = cast(Table, LedgerTxn.__table__).alias("st")
    pt = cast(Table, LedgerTxn.__table__).alias("pt")
    se = cast(Table, LedgerEntry.__table__).alias("se")
    pe = cast(Table, LedgerEntry.__table__).alias("pe")
    money = (
        select(
            day,
            _HANDS.c.game,
            func.count(_HANDS.c.id),
            func.coalesce(func.sum(se.c.amount), 0),
            func.coalesce(func.sum(-pe.c.amount), 0),
        )
        .select_from(
            _HANDS.outerjoin(st, st.c.idempotency_key == _key("stake"))
            .outerjoin(se, and_(se.c.txn_id == st.c.id, se.c.book == HOUSE))
            .outerjoin(pt, pt.c.idempotency_key == _key("payout"))
            .outerjoin(pe, and_(pe.c.txn_id == pt.c.id, pe.c.book == HOUSE))
        )
        .where(when)
        .group_by(day, _HANDS.c.game)
    )
    players = (
        select(day, _HANDS.c.game, func.count(func.distinct(HandPlayer.account_id)))
        .select_from(_HANDS.join(HandPlayer, HandPlayer.hand_id == _HANDS.c.id))
        .where(when, HandPlayer.account_id.is_not(None))
        .group_by(day, _HANDS.c.game)
    )
    seated = {(d, g): int(n) for d, g, n in (await db.execute(players)).all()}
    rows = []
    for d, game, rounds, stakes, payouts in (await db.execute(money)).all():
        stakes, payouts = int(stakes), int(payouts)
        rows.append(
            {
                "day": d,
                "game": game,
                "stakes_cents": stakes,
                "payouts_cents": payouts,
                "ggr_cents": stakes - payouts,
                "rounds": int(rounds),
                "players": seated.get((d, game), 0),
            }
        )
    return sorted(rows, key=lambda r: (r["day"], r["game"]))
