"""The back office's own account (``GET /api/admin/me``): who is signed in, with which role
and permissions (docs/operators.md). Every back-office route lives under ``/api/admin`` and
checks a permission of :mod:`mazziere.server.roles` through ``require``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter

from mazziere.server import roles
from mazziere.server.routes.deps import require
from mazziere.server.store.models import Account

router = APIRouter(prefix="/api/admin")

Staff = Annotated[Account, require("players.read")]
"""Any back-office role (every one may read players)."""


@router.get("/me")
async def me(account: Staff) -> dict[str, Any]:
    """The signed-in back-office account, its role and its permissions (derived from the one
    table, :data:`mazziere.server.roles.WHO_MAY`), for the console to show what it may do."""
    return {
        "id": account.id,
        "username": account.username,
        "role": account.role,
        "permissions": list(roles.PERMISSIONS[account.role]),
    }
