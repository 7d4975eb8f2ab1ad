"""Operations: ``/health`` (200 once recovery is done) and ``/metrics`` (Prometheus), the
latter for loopback callers, or with the metrics token, or for anyone if made public."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, Response

from mazziere.server.routes.deps import Srv, bearer
from mazziere.server.store import transfers
from mazziere.server.wallet.transfer import TransferWallet

router = APIRouter()


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@router.get("/health")
async def health(server: Srv) -> Response:
    if not server.accepting:
        return JSONResponse({"status": "starting"}, status_code=503)
    body: dict[str, object] = {"status": "ok", "tables": len(server.tables)}
    if server.cluster is not None:  # this process's name and the tables it owns
        body["process"] = server.cluster.proc
        body["owned"] = sorted(server.tables)
    return JSONResponse(body)


@router.get("/metrics")
async def metrics(
    request: Request, server: Srv, authorization: Annotated[str | None, Header()] = None
) -> Response:
    s = server.settings
    host = request.client.host if request.client else ""
    allowed = (
        s.metrics_public
        or _is_loopback(host)
        or (s.metrics_token is not None and bearer(authorization) == s.metrics_token)
    )
    if not allowed:
        return JSONResponse(
            {"code": "forbidden", "message": "metrics are served to loopback or with a token"},
            status_code=403,
        )
    server.metrics.count_tables((t.game, t.status) for t in server.tables.values())
    if isinstance(server.wallet, TransferWallet):
        async with server.db.session() as db:
            server.metrics.outbox(await transfers.owed(db), datetime.now(UTC))
    return Response(server.metrics.render(), media_type="text/plain; version=0.0.4")
