"""Hand history ("game recall", platform.md): one's last hands, and a hand replayed step by
step as this player saw it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mazziere import wire
from mazziere.errors import MazziereError
from mazziere.game import find_game
from mazziere.server.routes.deps import Me, Srv
from mazziere.server.store import hands
from mazziere.server.tables import TableError

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
async def replay(hand_id: int, account: Me, server: Srv) -> dict[str, Any]:
    """A hand step by step as this player saw it; the seed only once the hand is over."""
    async with server.db.session() as db:
        seat = await hands.seat_in(db, hand_id, account.id)
        hand = await hands.get(db, hand_id)
        if seat is None or hand is None:
            raise TableError("no such hand of yours", "no_hand")
        steps = await hands.actions_of(db, hand_id)
    # the views this seat saw: rebuilt from the seed and the recorded actions
    game = find_game(hand.game).from_setup(hand.setup, hand.seed)
    initial = game.view(seat)
    out = []
    for st in steps:
        moves: list[dict[str, Any]] | None = None
        try:
            if st.actor == "server" and st.action == "timeout":
                # a time-out: the moves the server made for the seat, as the table's log
                # named them (issue 13), never the bare word
                played = game.timeout(st.seat).played or ()
                moves = [game.action_wire(text) for text in played]
            else:
                game.apply(st.seat, st.action, st.actor)
            seen: dict[str, Any] | None = game.view(seat)
        except MazziereError:  # cannot happen for a recorded hand; show the log anyway
            seen = None
        visible = [
            game.event_wire(text)
            for text, only, hidden_from in st.events
            if (only is None and hidden_from != seat) or only == seat
        ]
        try:
            act: dict[str, Any] | None = wire.action(game.parse_action(st.action))
        except MazziereError:  # "timeout" and the like: the server's own words
            act = None
        out.append(
            {
                "seq": st.seq,
                "seat": st.seat,
                "action": st.action,
                "act": act,
                "moves": moves,
                "actor": st.actor,
                "events": visible,
                "view": seen,
            }
        )
    done = hand.status == "done"
    return {
        "hand": hand.id,
        "game": hand.game,
        "seat": seat,
        "commitment": hand.commitment,
        "seed": hand.seed if done else None,
        "players": hand.players,
        "result": hand.result,
        "initial": initial,
        "steps": out,
    }
