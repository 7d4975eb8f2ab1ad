"""Money adjustments in the back office (docs/operators.md): an operator requests one with a
reason, a second operator approves it (or rejects it), and only then does one balanced
ledger transaction move the amount between the player's wallet and a named house book."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field, field_validator

from mazziere.server import protocol as P
from mazziere.server.roles import Conflict
from mazziere.server.routes.admin_common import (
    MAX_ID,
    AdjustmentId,
    Approver,
    Reason,
    Requester,
    Staff,
    actor,
)
from mazziere.server.routes.deps import Body, Srv
from mazziere.server.store import adjustments

router = APIRouter()


class NewAdjustment(Reason):
    account: int = Field(ge=1, le=MAX_ID)
    amount_cents: int = Field(ge=-P.MAX_CENTS, le=P.MAX_CENTS)
    """Into the wallet; negative: out of it. Integer cents, never zero."""
    house_account: str = Field(max_length=80)

    @field_validator("amount_cents")
    @classmethod
    def _not_zero(cls, amount: int) -> int:
        if amount == 0:
            raise ValueError("an adjustment moves a non-zero number of cents")
        return amount

    @field_validator("house_account")
    @classmethod
    def _house(cls, book: str) -> str:
        if book not in adjustments.HOUSE_BOOKS:
            raise ValueError(f"a house account is one of {', '.join(adjustments.HOUSE_BOOKS)}")
        return book


class Approval(Body):
    """An approval's body: none, or an empty object."""


@router.get("/adjustments")
async def listed(
    account: Staff, server: Srv, status: Literal["pending", "posted", "rejected"] | None = None
) -> dict[str, Any]:
    """Adjustments, newest first (the last 200), of one status if given."""
    async with server.db.session() as db:
        return {"adjustments": await adjustments.listed(db, status)}


def _builtin_wallet(server: Srv) -> None:
    """An adjustment moves money in the server's own wallet (``wallet:<id>``). With the
    operator's transfer wallet (docs/wallet.md) a player's money is held there and a top-up
    never reads that book, so it would move money nobody can use: refused, to be made at the
    operator's wallet instead."""
    if server.wallet.remote:
        raise Conflict(
            "players' money is held in the operator's wallet: adjust it there", "wallet_external"
        )


@router.post("/adjustments")
async def request(
    body: NewAdjustment, request: Request, account: Requester, server: Srv
) -> dict[str, Any]:
    """Request an adjustment: pending until a second operator approves it (posted at once
    when ``--adjustment-approvals 1``); 409 ``wallet_external`` with the operator's wallet."""
    _builtin_wallet(server)
    async with server.db.write() as db:
        adj = await adjustments.request(
            db,
            actor(request, account),
            body.account,
            body.amount_cents,
            body.house_account,
            body.reason,
            server.settings.adjustment_approvals,
        )
        return {"id": adj.id, "status": adj.status, "txn": adj.txn_id}


@router.post("/adjustments/{adjustment_id}/approve")
async def approve(
    adjustment_id: AdjustmentId,
    request: Request,
    account: Approver,
    server: Srv,
    body: Approval | None = None,
) -> dict[str, Any]:
    """Approve and post: 403 ``own_adjustment`` for its requester, 409 once decided, 400
    ``insufficient_funds`` if the wallet would go below zero (nothing changes), 409
    ``wallet_external`` with the operator's wallet."""
    _builtin_wallet(server)
    async with server.db.write() as db:
        adj = await adjustments.approve(
            db, actor(request, account), adjustment_id, server.settings.adjustment_approvals
        )
        return {"id": adj.id, "status": adj.status, "txn": adj.txn_id}


@router.post("/adjustments/{adjustment_id}/reject")
async def reject(
    adjustment_id: AdjustmentId, body: Reason, request: Request, account: Approver, server: Srv
) -> dict[str, Any]:
    """Reject: nothing moves, ever."""
    async with server.db.write() as db:
        adj = await adjustments.reject(db, actor(request, account), adjustment_id, body.reason)
        return {"id": adj.id, "status": adj.status}
