"""Hand records (platform.md "Money and records"): a hand's row with its seed and commitment,
each action with its events, the result, and the queries behind "my last hands" and a hand's
replay; money moves in the same database transaction as the action that causes it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import ARRAY, Boolean, Integer, Table, bindparam, desc, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.game import Step, commitment
from mazziere.server.store.db import defer_insert
from mazziere.server.store.hot import Hot, driver
from mazziere.server.store.models import Hand, HandAction, HandPlayer

_HANDS = cast(Table, Hand.__table__)
_ACTIONS = cast(Table, HandAction.__table__)
_PLAYERS = cast(Table, HandPlayer.__table__)


def _values(table: Table, *columns: str) -> dict[str, Any]:
    """``column=:column_`` for each (a bind parameter may not bear its column's name)."""
    return {c: bindparam(c + "_", type_=table.c[c].type) for c in columns}


_HAND_ROW = (
    insert(_HANDS)
    .values(
        **_values(
            _HANDS,
            "table_id",
            "game",
            "seed",
            "commitment",
            "setup",
            "players",
            "status",
            "started_at",
        )
    )
    .returning(_HANDS.c.id)
)
_OPEN = Hot(_HAND_ROW)
_SEATS = Hot(
    insert(_PLAYERS).values(**_values(_PLAYERS, "hand_id", "seat", "account_id", "is_bot"))
)


def _open_pg() -> Hot:
    """PostgreSQL's :func:`open_hand`: the hand and its seats in one statement (the seats from
    three arrays), one round trip instead of two."""
    hand = _HAND_ROW.cte("hand")
    seats = (
        func.unnest(
            bindparam("seats", type_=ARRAY(Integer)),
            bindparam("accounts", type_=ARRAY(Integer)),
            bindparam("bots", type_=ARRAY(Boolean)),
        )
        .table_valued("seat", "account_id", "is_bot")
        .render_derived()
    )
    players = insert(_PLAYERS).from_select(
        ["hand_id", "seat", "account_id", "is_bot"],
        select(hand.c.id, seats.c.seat, seats.c.account_id, seats.c.is_bot),
    )
    return Hot(None, select(hand.c.id).add_cte(players.cte("seated")))


_OPEN_PG = _open_pg()
STEPS = Hot(
    insert(_ACTIONS).values(
        **_values(_ACTIONS, "hand_id", "seq", "seat", "action", "actor", "events", "created_at")
    )
)
"""A step row (:func:`record_steps`): one executemany for a whole group commit."""
_CLOSE = Hot(
    update(_HANDS)
    .where(_HANDS.c.id == bindparam("hand"))
    .values(
        status=bindparam("to"),
        result=bindparam("outcome", type_=_HANDS.c.result.type),
        ended_at=bindparam("at", type_=_HANDS.c.ended_at.type),
    )
)


async def open_hand(
    db: AsyncSession,
    table_id: int,
    game: str,
    seed: str,
    setup: dict[str, Any],
    players: list[dict[str, Any]],
) -> int:
    """Insert a hand and its players; returns the hand's id (hot statements, :mod:`.hot`:
    this runs for every hand and round; one statement on PostgreSQL)."""
    row = {
        "table_id_": table_id,
        "game_": game,
        "seed_": seed,
        "commitment_": commitment(seed),
        "setup_": setup,
        "players_": players,
        "status_": "playing",
        "started_at_": datetime.now(UTC),
    }
    if await driver(db) is not None:
        row["seats"] = list(range(len(players)))
        row["accounts"] = [p.get("account") for p in players]
        row["bots"] = [bool(p.get("bot")) for p in players]
        return int(await _OPEN_PG.scalar(db, row))
    hand_id = await _OPEN.scalar(db, row)
    assert hand_id is not None
    await _SEATS.executemany(
        db,
        [
            {
                "hand_id_": hand_id,
                "seat_": seat,
                "account_id_": p.get("account"),
                "is_bot_": bool(p.get("bot")),
            }
            for seat, p in enumerate(players)
        ],
    )
    return int(hand_id)


async def record_steps(db: AsyncSession, hand_id: int, first_seq: int, steps: list[Step]) -> None:
    """Append steps ``first_seq``, ``first_seq + 1``... (the hottest write of the server): in
    a group commit, with every other job's steps in one executemany at its end."""
    if not steps:
        return
    now = datetime.now(UTC)
    rows = []
    for i, st in enumerate(steps):
        action, events = st.record()
        rows.append(
            {
                "hand_id_": hand_id,
                "seq_": first_seq + i,
                "seat_": st.seat,
                "action_": action,
                "actor_": st.actor,
                "events_": [list(e) for e in events],
                "created_at_": now,
            }
        )
    if not defer_insert(db, STEPS, rows):  # in a group commit: one insert for the batch
        await STEPS.executemany(db, rows)


async def close_hand(db: AsyncSession, hand_id: int, result: dict[str, Any]) -> None:
    """Mark the hand done with its result: in a group commit, with every other job's in one
    executemany at its end."""
    row = {"hand": hand_id, "to": "done", "outcome": result, "at": datetime.now(UTC)}
    if not defer_insert(db, _CLOSE, [row]):
        await _CLOSE.execute(db, row)


async def mark_left(db: AsyncSession, hand_id: int, seat: int, bot: str) -> None:
    """The player at ``seat`` left the hand in progress and the computer player ``bot`` plays
    the seat to the end: the hand's players say so (``left``, ``bot``), so that a restart
    resumes the seat with the computer and the match's results know who left."""
    hand = await db.get(Hand, hand_id)
    assert hand is not None
    players = [dict(p or {}) for p in hand.players]
    players[seat] = {**players[seat], "bot": bot, "left": True}
    await db.execute(update(_HANDS).where(_HANDS.c.id == hand_id).values(players=players))
    await db.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.hand_id == hand_id, _PLAYERS.c.seat == seat)
        .values(is_bot=True)
    )


async def actions_of(db: AsyncSession, hand_id: int) -> list[HandAction]:
    rows = await db.scalars(
        select(HandAction).where(HandAction.hand_id == hand_id).order_by(HandAction.seq)
    )
    return list(rows.all())


async def unfinished(db: AsyncSession, table_id: int) -> Hand | None:
    """The table's hand in progress, if any (crash recovery)."""
    return await db.scalar(
        select(Hand)
        .where(Hand.table_id == table_id, Hand.status == "playing")
        .order_by(Hand.id.desc())
        .limit(1)
    )


async def players_of(db: AsyncSession, hand_id: int) -> list[HandPlayer]:
    return list((await db.scalars(select(HandPlayer).where(HandPlayer.hand_id == hand_id))).all())


async def recent_of(db: AsyncSession, account: int, limit: int) -> list[tuple[Hand, int]]:
    """``account``'s last hands, newest first, with the seat it had."""
    rows = await db.execute(
        select(Hand, HandPlayer.seat)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(HandPlayer.account_id == account)
        .order_by(desc(Hand.id))
        .limit(limit)
    )
    return [(h, int(seat)) for h, seat in rows.all()]


async def seat_in(db: AsyncSession, hand_id: int, account: int) -> int | None:
    """The seat ``account`` had in hand ``hand_id`` (``None``: it did not play it)."""
    seat = await db.scalar(
        select(HandPlayer.seat).where(
            HandPlayer.hand_id == hand_id, HandPlayer.account_id == account
        )
    )
    return None if seat is None else int(seat)


async def get(db: AsyncSession, hand_id: int) -> Hand | None:
    return await db.get(Hand, hand_id)
