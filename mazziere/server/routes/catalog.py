"""``GET /api/catalog``: the games and what a table of each may be created with
(:mod:`mazziere.catalog`), for the lobby's create form, and the server's limits a client checks
before it sends (``limits``: a password's and a user name's length, a table name's, the largest
amount), read from the constants the server enforces. No login needed; computed once, then
offered without the games and presets the back office switched off
(:mod:`mazziere.server.store.switches`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter

from mazziere.catalog import catalog
from mazziere.game import TABLE_NAME_MAX
from mazziere.server import protocol as P
from mazziere.server.routes.deps import Srv
from mazziere.server.store import accounts, switches

router = APIRouter()


@cache
def cached_catalog() -> dict[str, Any]:
    """The catalog, computed on first use (the rules do not change while the server runs)."""
    return {**catalog(), "limits": limits()}


def limits() -> dict[str, Any]:
    """The limits a client repeats to tell a player before sending, from the server's own."""
    return {
        "password": {"min": accounts.MIN_PASSWORD, "max": accounts.MAX_PASSWORD},
        "username": {
            "min": accounts.USERNAME_MIN,
            "max": accounts.USERNAME_MAX,
            "chars": "A-Z a-z 0-9 _ . -",
        },
        "table_name": {"max": TABLE_NAME_MAX},
        "cents": {"max": P.MAX_CENTS},
    }


@router.get("/api/catalog")
async def get_catalog(server: Srv) -> dict[str, Any]:
    async with server.db.session() as db:
        off = await switches.disabled(db)
    return switches.offered(cached_catalog(), off)
