"""Rounds anyone can verify (docs/verify.md): a player's hand as a file to download, and its
verification, replayed from the revealed seed and the recorded actions through the game's
engine (:func:`mazziere.verify.verify`), the same check ``mazziere verify HAND_FILE`` makes.
Only the hand's players may ask, and only once it is over: a hand in progress answers
``hand_in_progress`` and reveals nothing."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from mazziere import verify as V
from mazziere.server.routes.deps import HandId, Me, Srv
from mazziere.server.store import hands
from mazziere.server.table.errors import TableError

router = APIRouter(prefix="/api")


class HandInProgress(TableError):
    """The hand's seed is revealed only when it is over."""

    default_code = "hand_in_progress"


async def _hand_file(hand_id: int, account: int, server: Any) -> dict[str, Any]:
    """The hand's file (:func:`mazziere.verify.hand_file`) for one of its players."""
    async with server.db.session() as db:
        seat = await hands.seat_in(db, hand_id, account)
        hand = await hands.get(db, hand_id)
        if seat is None or hand is None:
            raise TableError("no such hand of yours", "no_hand")
        if hand.status != "done":
            raise HandInProgress(
                "the hand is in progress: its seed is revealed, and the hand can be "
                "verified, once it is over"
            )
        rows = await hands.actions_of(db, hand_id)
    return V.hand_file(
        hand=hand.id,
        game=hand.game,
        setup=hand.setup,
        players=hand.players,
        commitment=hand.commitment,
        seed=hand.seed,
        steps=[(r.seq, r.seat, r.actor, r.action, r.events) for r in rows],
        result=hand.result,
        started_at=hand.started_at.isoformat(),
        ended_at=hand.ended_at.isoformat() if hand.ended_at else None,
    )


@router.get("/hands/{hand_id}/file")
async def hand_file(hand_id: HandId, account: Me, server: Srv) -> Response:
    """The hand's file, to download and check with ``mazziere verify``."""
    record = await _hand_file(hand_id, account.id, server)
    return Response(
        json.dumps(record, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="mazziere-hand-{hand_id}.json"'},
    )


@router.get("/hands/{hand_id}/verify")
async def verify(hand_id: HandId, account: Me, server: Srv) -> dict[str, Any]:
    """The hand replayed from its revealed seed and recorded actions: the commitment checked,
    every card dealt, and any problem found."""
    record = await _hand_file(hand_id, account.id, server)
    return V.verify(record).to_json()
