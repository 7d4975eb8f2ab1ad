"""The audit log for auditors and admins (docs/operators.md): paged, newest first, as JSON or
as a CSV download."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from mazziere.server.routes.admin_common import Auditor, Cursor, csv_answer, malformed, next_cursor
from mazziere.server.routes.deps import Srv
from mazziere.server.store import audit

router = APIRouter()

CSV_COLUMNS = ("id", "at", "actor", "actor_id", "address", "action", "target", "before", "after")


@router.get("/audit", response_model=None)
async def audit_log(
    account: Auditor,
    server: Srv,
    before: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 50,
    format: Literal["json", "csv"] = "json",
    target: Annotated[str | None, Query(max_length=120)] = None,
) -> dict[str, Any] | Response:
    """Lines older than ``before`` (all when absent), at most ``limit`` (1-200 as JSON, up to
    10,000 as CSV), on ``target`` if given (``account:7``, ``table:3``...)."""
    if format == "json" and limit > 200:
        raise malformed(("query", "limit"), "a JSON page holds at most 200 lines")
    async with server.db.session() as db:
        rows = await audit.entries(db, before, limit, target=target)
    entries = [audit.as_json(e) for e in rows]
    if format == "csv":
        return csv_answer(
            "audit.csv",
            CSV_COLUMNS,
            (
                [
                    *(e[c] for c in CSV_COLUMNS[:7]),
                    *(
                        json.dumps(e[c], sort_keys=True) if e[c] is not None else ""
                        for c in CSV_COLUMNS[7:]
                    ),
                ]
                for e in entries
            ),
        )
    return {"entries": entries, "next": next_cursor([e.id for e in rows], limit)}
