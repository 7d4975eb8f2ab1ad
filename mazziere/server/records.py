"""Hand records (platform.md "Money and records"): a hand's row with its seed and commitment,
each action with its events, the result; money moved in the same database transaction as the
action that causes it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.games.base import Step, commitment
from mazziere.server.store import ledger
from mazziere.server.store.models import Hand, HandAction, HandPlayer

Moves = Sequence[tuple[str, int]]


async def open_hand(
    db: AsyncSession,
    table_id: int,
    game: str,
    seed: str,
    setup: dict[str, Any],
    players: list[dict[str, Any]],
) -> Hand:
    hand = Hand(
        table_id=table_id,
        game=game,
        seed=seed,
        commitment=commitment(seed),
        setup=setup,
        players=players,
        status="playing",
    )
    db.add(hand)
    await db.flush()
    for seat, p in enumerate(players):
        db.add(
            HandPlayer(
                hand_id=hand.id, seat=seat, account_id=p.get("account"), is_bot=bool(p.get("bot"))
            )
        )
    await db.flush()
    return hand


async def record_step(db: AsyncSession, hand_id: int, seq: int, step: Step) -> None:
    db.add(
        HandAction(
            hand_id=hand_id,
            seq=seq,
            seat=step.seat,
            action=step.action,
            actor=step.actor,
            events=[list(e) for e in step.events],
        )
    )


async def close_hand(db: AsyncSession, hand_id: int, result: dict[str, Any]) -> None:
    hand = await db.get(Hand, hand_id)
    if hand is not None:
        hand.status = "done"
        hand.result = result
        hand.ended_at = datetime.now(UTC)


async def post_money(db: AsyncSession, key: str, kind: str, ref: str, moves: Moves) -> None:
    await ledger.post(db, key, kind, ref, moves)


async def actions_of(db: AsyncSession, hand_id: int) -> list[HandAction]:
    rows = await db.scalars(
        select(HandAction).where(HandAction.hand_id == hand_id).order_by(HandAction.seq)
    )
    return list(rows.all())
