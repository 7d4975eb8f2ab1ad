"""``GET /api/attest``: this process's manifest of its own files, the accepted manifest's hash
and the last check (docs/security.md "Attested software"); public, as the hashes of certified
software are."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mazziere.server.routes.deps import Srv

router = APIRouter(prefix="/api")


@router.get("/attest")
async def attest(server: Srv) -> dict[str, Any]:
    return server.attestation.to_json()
