"""The transfer wallet in the back office (docs/wallet.md "Back office"): the outbox, what is
still owed to the operator's wallet or in doubt with it, each row with its tries, its next
try and the wallet's last refusal."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter

from mazziere.server.routes.deps import Srv, require
from mazziere.server.store import transfers
from mazziere.server.store.models import Account

router = APIRouter()

WalletReader = Annotated[Account, require("wallet.read")]


@router.get("/wallet/outbox")
async def outbox(account: WalletReader, server: Srv) -> dict[str, Any]:
    """The wallet in use, and the outbox: pending credits and cancels, and the debits pending
    or being cancelled, oldest first (the first 200), with the cents owed to the wallet."""
    async with server.db.session() as db:
        rows = await transfers.outbox(db)
    owed = sum(r["amount"] for r in rows if r["direction"] == transfers.CREDIT)
    return {"wallet": server.wallet.kind, "owed": owed, "rows": rows}
