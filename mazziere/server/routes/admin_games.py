"""Games switched on and off, and the daily reports, in the back office (docs/operators.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import field_validator, model_validator

from mazziere.catalog import presets_of
from mazziere.game import REGISTRY
from mazziere.server.routes.admin_common import (
    GameSwitcher,
    Reason,
    Staff,
    actor,
    csv_answer,
    malformed,
)
from mazziere.server.routes.deps import Srv
from mazziere.server.store import audit, reports, switches

router = APIRouter()


class Switch(Reason):
    game: str
    preset: str | None = None
    enabled: bool

    @field_validator("game")
    @classmethod
    def _game(cls, game: str) -> str:
        if game not in REGISTRY:
            raise ValueError(f"a game is one of {', '.join(REGISTRY)}")
        return game

    @model_validator(mode="after")
    def _preset(self) -> Switch:
        names = [p["name"] for p in presets_of(self.game)]
        if self.preset is not None and self.preset not in names:
            raise ValueError(f"the presets of {self.game} are: {', '.join(names) or 'none'}")
        return self


@router.get("/games")
async def games(account: Staff, server: Srv) -> dict[str, Any]:
    """Every game (``preset`` null) and each of its presets, on or off."""
    async with server.db.session() as db:
        off = await switches.disabled(db)
    rows = []
    for game in REGISTRY:
        rows.append({"game": game, "preset": None, "enabled": (game, "") not in off})
        for p in presets_of(game):
            rows.append(
                {"game": game, "preset": p["name"], "enabled": (game, p["name"]) not in off}
            )
    return {"games": rows}


@router.post("/games")
async def switch(
    body: Switch, request: Request, account: GameSwitcher, server: Srv
) -> dict[str, Any]:
    """Switch a game or one of its presets on or off: the lobby's catalog stops (or starts
    again) offering it and a new table of it is refused (``game_disabled``); running tables
    finish."""
    async with server.db.write() as db:
        was = await switches.switch(db, body.game, body.preset, body.enabled, account.id)
        target = f"game:{switches.name_of(body.game, body.preset)}"
        await audit.record(
            db, actor(request, account), "game_switched", target,
            {"enabled": was}, {"enabled": body.enabled, "reason": body.reason},
        )  # fmt: skip
    return {"game": body.game, "preset": body.preset, "enabled": body.enabled}


REPORT_COLUMNS = (
    "day",
    "game",
    "stakes_cents",
    "payouts_cents",
    "ggr_cents",
    "rounds",
    "players",
)
MAX_REPORT_DAYS = 366


@router.get("/reports/daily", response_model=None)
async def daily(
    account: Staff,
    server: Srv,
    first: Annotated[date | None, Query(alias="from")] = None,
    last: Annotated[date | None, Query(alias="to")] = None,
    format: Literal["json", "csv"] = "json",
) -> dict[str, Any] | Response:
    """Per game and day (UTC) from ``from`` to ``to`` (inclusive; default today, at most a
    year): stakes, payouts, gross gaming revenue, settled rounds and players; as JSON or a
    CSV download."""
    today = datetime.now(UTC).date()
    first, last = first or last or today, last or first or today
    if last < first:
        raise malformed(("query", "to"), "the report's last day comes after its first")
    if (last - first).days >= MAX_REPORT_DAYS:
        raise malformed(("query", "to"), f"a report covers at most {MAX_REPORT_DAYS} days")
    async with server.db.session() as db:
        rows = await reports.daily(db, first, last)
    if format == "csv":
        name = f"daily-{first.isoformat()}-{last.isoformat()}.csv"
        return csv_answer(name, REPORT_COLUMNS, ([r[c] for c in REPORT_COLUMNS] for r in rows))
    return {"from": first.isoformat(), "to": last.isoformat(), "rows": rows}
