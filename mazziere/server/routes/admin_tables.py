"""Tables and hands in the back office (docs/operators.md): every open table of every
process with its owner, age and last action; closing one; any hand replayed with every card,
its seed and commitment. A table's live view is the WebSocket's ``watch``, which any account
may use on any table (a spectator sees no hidden card)."""

from __future__ import annotations

import os
import socket
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import func, select

from mazziere import wire
from mazziere.errors import MazziereError
from mazziere.game import TableGame, find_game
from mazziere.server.roles import Conflict, NotFound
from mazziere.server.routes.admin_common import (
    HandId,
    Reason,
    Staff,
    TableCloser,
    TableId,
    actor,
    at_table,
)
from mazziere.server.routes.deps import Srv
from mazziere.server.store import hands
from mazziere.server.store.models import GameTable, Hand, HandAction
from mazziere.server.store.staff import iso

router = APIRouter()

PROCESS = f"{socket.gethostname()}.{os.getpid()}"
"""This process's name as the table list gives it when it runs alone."""


@router.get("/tables")
async def tables(account: Staff, server: Srv) -> dict[str, Any]:
    """Every table not closed, on every process: game, preset, seats, the process that owns
    it, its age in seconds and the time of its last action."""
    cluster = server.cluster
    if cluster is not None:
        rows = await cluster.summaries()
    else:
        rows = [t.summary() for t in sorted(server.tables.values(), key=lambda t: t.id)]
    rows = [r for r in rows if r.get("status") != "closed"]
    ids = [int(r["id"]) for r in rows]
    async with server.db.session() as db:
        made = dict(
            (
                await db.execute(
                    select(GameTable.id, GameTable.created_at).where(GameTable.id.in_(ids))
                )
            ).all()
        )
        last = dict(
            (
                await db.execute(
                    select(Hand.table_id, func.max(HandAction.created_at))
                    .join(HandAction, HandAction.hand_id == Hand.id)
                    .where(Hand.table_id.in_(ids))
                    .group_by(Hand.table_id)
                )
            ).all()
        )
    now = datetime.now(UTC)
    out = []
    for r in rows:
        tid = int(r["id"])
        owner = await cluster.owner_of(tid) if cluster is not None else PROCESS
        created = made.get(tid)
        age = (now - _aware(created)).total_seconds() if created is not None else None
        out.append(
            {
                "id": tid,
                "name": r.get("name"),
                "game": r["game"],
                "preset": (r.get("config") or {}).get("preset"),
                "status": r["status"],
                "seats": [
                    {
                        "seat": i,
                        "name": s.get("name"),
                        "bot": s.get("bot"),
                        "connected": s.get("connected"),
                    }
                    for i, s in enumerate(r.get("seats") or [])
                ],
                "owner": owner,
                "age_s": round(age, 1) if age is not None else None,
                "last_action_at": iso(last.get(tid)),
            }
        )
    return {"tables": out}


@router.post("/tables/{table_id}/close")
async def close(
    table_id: TableId, body: Reason, request: Request, account: TableCloser, server: Srv
) -> dict[str, Any]:
    """Close a table where it lives (the table verb ``close``): its players leave as on an
    ordinary leave (casino credit closed and credited), a game in progress is played out by
    the computer players, the table closes and leaves the lobby. 409 ``already_closed``."""
    async with server.db.session() as db:
        row = await db.get(GameTable, table_id)
    if row is None:
        raise NotFound(f"table {table_id} does not exist")
    if row.status == "closed":
        raise Conflict(f"table {table_id} is closed already", "already_closed")
    where = actor(request, account).address
    left = await at_table(
        server, table_id, account.id, account.username, "close", "operator", body.reason, where
    )
    return {"id": table_id, "status": "closed", "players_left": left}


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@router.get("/hands/{hand_id}")
async def hand(hand_id: HandId, account: Staff, server: Srv) -> dict[str, Any]:
    """A hand with every card: its seed and commitment, every seat's view as dealt and after
    each step, each step's action and moves in full and every event with the seat it was for
    (``only``; ``None``: everyone)."""
    async with server.db.session() as db:
        row = await hands.get(db, hand_id)
        if row is None:
            raise NotFound(f"hand {hand_id} does not exist")
        actions = await hands.actions_of(db, hand_id)
    kind = find_game(row.game)
    game = kind.from_setup(row.setup, row.seed)
    seats = range(len(row.players))
    steps = []
    for r in actions:
        step = kind.recorded_step(r.seat, r.action, r.actor, r.events)
        step = _replayed(game, step)
        steps.append(
            {
                "seq": r.seq,
                "seat": step.seat,
                "actor": step.actor,
                "action": str(step.action),
                "act": wire.action(step.action),
                "moves": None if step.played is None else [wire.action(m) for m in step.played],
                "events": [
                    {**wire.event(e), "only": only}
                    for e, only, hidden in step.events
                    if hidden is None  # a blanked copy repeats an event shown in full
                ],
                "views": _views(game, seats),
                "at": iso(r.created_at),
            }
        )
    initial = kind.from_setup(row.setup, row.seed)
    return {
        "id": row.id,
        "table": row.table_id,
        "game": row.game,
        "status": row.status,
        "seed": row.seed,
        "commitment": row.commitment,
        "setup": row.setup,
        "players": row.players,
        "result": row.result,
        "started_at": iso(row.started_at),
        "ended_at": iso(row.ended_at),
        "initial": _views(initial, seats),
        "steps": steps,
    }


def _replayed(game: TableGame, step: Any) -> Any:
    """Apply a recorded step to ``game`` again; a recorded time-out is acted again to name the
    moves it made (as :func:`mazziere.game.replay` does)."""
    try:
        timed_out = game.timeout_action
        if step.actor == "server" and timed_out and isinstance(step.action, timed_out):
            return replace(step, played=game.timeout(step.seat).played or ())
        game.apply(step.seat, step.action, step.actor)
    except MazziereError:  # cannot happen for a recorded hand; the log is shown anyway
        pass
    return step


def _views(game: TableGame, seats: range) -> list[dict[str, Any] | None]:
    out: list[dict[str, Any] | None] = []
    for s in seats:
        try:
            out.append(game.view(s))
        except MazziereError:
            out.append(None)
    return out
