"""Hand history ("game recall", platform.md): one's last hands, and a hand replayed step by
step as this player saw it, by the same rule as the live updates (:mod:`mazziere.game`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mazziere.game import find_game
from mazziere.game import replay as replay_hand
from mazziere.server.routes.deps import HandId, Me, Srv
from mazziere.server.store import hands
from mazziere.server.table.errors import TableError

router = APIRouter(prefix="/api")


@router.get("/history")
async def history(account: Me, server: Srv, limit: int = 20) -> list[dict[str, Any]]:
    async with server.db.session() as db:
        rows = await hands.recent_of(db, account.id, max(1, min(limit, 200)))
    return [
        {
            "hand": h.id,
            "table": h.table_id,
            "game": h.game,
            "seat": seat,
            "status": h.status,
            "commitment": h.commitment,
            "result": h.result,
            "started_at": h.started_at.isoformat(),
            "ended_at": h.ended_at.isoformat() if h.ended_at else None,
        }
        for h, seat in rows
    ]


@router.get("/history/{hand_id}")
async def replay(hand_id: HandId, account: Me, server: Srv) -> dict[str, Any]:
    """A hand step by step as this player saw it: each step by the rule of the live updates
    (:meth:`~mazziere.game.TableGame.seen`), the views rebuilt from the seed and the
    recorded actions; the seed, and the actions in full, only once the hand is over."""
    async with server.db.session() as db:
        seat = await hands.seat_in(db, hand_id, account.id)
        hand = await hands.get(db, hand_id)
        if seat is None or hand is None:
            raise TableError("no such hand of yours", "no_hand")
        rows = await hands.actions_of(db, hand_id)
    done = hand.status == "done"
    kind = find_game(hand.game)
    recorded = [(r.seq, kind.recorded_step(r.seat, r.action, r.actor, r.events)) for r in rows]
    game = kind.from_setup(hand.setup, hand.seed)
    initial, steps = replay_hand(game, recorded, seat, revealed=done)
    return {
        "hand": hand.id,
        "game": hand.game,
        "seat": seat,
        "commitment": hand.commitment,
        "seed": hand.seed if done else None,
        "players": hand.players,
        "result": hand.result,
        "initial": initial,
        "steps": steps,
    }
