"""The sums behind the RTP watch (:mod:`mazziere.server.rtp_monitor`), aggregated in SQL on
SQLite and PostgreSQL alike: no round is read into Python, only one row a window, or one a
player.

A settled round is a hand of the game whose status is ``done``. Its money is the ledger's:
the stake posted under the key ``stake:<hand>`` and the payout under ``payout:<hand>``
(:mod:`mazziere.server.store.money`), each the amount its transaction moved (its one
positive entry: the house's for a stake, the session's for a payout; a lost round has no
payout). Nothing but the hands' primary key narrows the rounds, so both databases walk the
hands and look each one's postings up by their unique keys: ``n`` rounds cost ``n`` index
look-ups, whether the last ``n`` or a range of hand ids (which the monitor uses to carry the
all-time sums forward rather than read every round at each run:
:mod:`mazziere.server.monitoring`)."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import ColumnElement, Select, String, Table, and_, func, literal, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.rtp_monitor import Totals
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
        .join(se, and_(se.c.txn_id == st.c.id, se.c.amount > 0))
        .outerjoin(pt, pt.c.idempotency_key == _key("payout"))
        .outerjoin(pe, and_(pe.c.txn_id == pt.c.id, pe.c.amount > 0))
    )
    return (
        select(
            _HANDS.c.id.label("hand"),
            se.c.amount.label("stake"),
            func.coalesce(pe.c.amount, 0).label("paid"),
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


async def window_totals(db: AsyncSession, game: str, last: int) -> Totals:
    """The sums over ``game``'s last ``last`` settled rounds (by hand id): ``last`` index
    look-ups from the newest hand down."""
    sub = _rounds(game).order_by(_HANDS.c.id.desc()).limit(last).subquery("w")
    return _totals((await db.execute(select(*_sums(sub)))).one())


def _between(query: Select[Any], after: int, upto: int | None) -> Select[Any]:
    query = query.where(_HANDS.c.id > after)
    return query if upto is None else query.where(_HANDS.c.id <= upto)


async def range_totals(db: AsyncSession, game: str, after: int, upto: int | None) -> Totals:
    """The sums over ``game``'s settled rounds with a hand id above ``after`` and at most
    ``upto`` (``None``: no limit): a walk of that range of the hands' primary key."""
    sub = _between(_rounds(game), after, upto).subquery("w")
    return _totals((await db.execute(select(*_sums(sub)))).one())


async def range_player_totals(
    db: AsyncSession, game: str, after: int, upto: int | None
) -> dict[int, tuple[str, Totals]]:
    """Each player's sums over the same rounds as :func:`range_totals` (the seat a person
    held; computer seats have no account), with the player's name."""
    seat = _PLAYERS.alias("seat")
    rounds = _between(
        _rounds(game, seat.c.account_id.label("account"))
        .join(seat, seat.c.hand_id == _HANDS.c.id)
        .where(seat.c.account_id.is_not(None), seat.c.is_bot.is_(False)),
        after,
        upto,
    ).subquery("r")
    query = (
        select(rounds.c.account, _ACCOUNTS.c.username, *_sums(rounds))
        .join(_ACCOUNTS, _ACCOUNTS.c.id == rounds.c.account)
        .group_by(rounds.c.account, _ACCOUNTS.c.username)
    )
    return {int(r[0]): (str(r[1]), _totals(r[2:])) for r in (await db.execute(query)).all()}


async def last_hand(db: AsyncSession) -> int:
    """The largest hand id (0: none), from the primary key."""
    return int(await db.scalar(select(func.max(_HANDS.c.id))) or 0)


async def first_unsettled(db: AsyncSession, game: str, after: int) -> int | None:
    """The smallest id above ``after`` of a hand of ``game`` still being played."""
    found = await db.scalar(
        select(func.min(_HANDS.c.id)).where(
            _HANDS.c.id > after, _HANDS.c.game == game, _HANDS.c.status == "playing"
        )
    )
    return None if found is None else int(found)
