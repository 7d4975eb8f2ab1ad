"""``GET /api/admin/rtp``: the RTP watch (docs/operators.md "Watching the return to player"):
for each game with a published return, the realised return over the last 1,000, 10,000 and
100,000 settled rounds and over all of them, each against the theoretical figure with its
99% control band, and the players above their band over at least 500 rounds. Read from the
database at each request (requests arriving together share one reading); any back-office
role may read it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter

from mazziere.server.routes.deps import Srv, require
from mazziere.server.store.models import Account

router = APIRouter(prefix="/api/admin")


@router.get("/rtp")
async def rtp(server: Srv, _: Annotated[Account, require("rtp.read")]) -> dict[str, Any]:
    """``{games: [{game, theoretical, sd, volatility_source, confidence, alert, windows:
    [{window, rounds, realised, low, high, out_of_band, staked_cents, paid_cents}],
    players_above: [{account, username, rounds, realised, high, z}]}]}``."""
    games = await server.monitor.rtp()
    return {"games": [g.as_json() for g in games]}
