"""The back office's routes, under ``/api/admin`` (docs/operators.md): the signed-in account
(``GET /api/admin/me``) here, each area in its own module (players, tables and hands, money,
games and reports, the audit log), every one behind a permission of
:mod:`mazziere.server.roles`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mazziere.server import roles
from mazziere.server.routes import (
    admin_audit,
    admin_games,
    admin_money,
    admin_players,
    admin_tables,
    admin_wallet,
)
from mazziere.server.routes.admin_common import Staff
from mazziere.server.routes.deps import Srv

router = APIRouter(prefix="/api/admin")


@router.get("/me")
async def me(account: Staff, server: Srv) -> dict[str, Any]:
    """The signed-in back-office account, its role and its permissions (derived from the one
    table, :data:`mazziere.server.roles.WHO_MAY`), for the console to show what it may do;
    with the idle limit of its logins and how many people an adjustment needs."""
    return {
        "id": account.id,
        "username": account.username,
        "role": account.role,
        "permissions": list(roles.PERMISSIONS[account.role]),
        "idle_minutes": server.settings.admin_idle_minutes,
        "adjustment_approvals": server.settings.adjustment_approvals,
    }


for area in (admin_audit, admin_players, admin_tables, admin_money, admin_games, admin_wallet):
    router.include_router(area.router)
