"""Games and presets switched on and off in the back office (docs/operators.md): a switched-off
game or preset is not offered by the catalog and a new table of it is refused
(``game_disabled``); tables already running finish. A game or preset without a row is on."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store.models import GameSwitch


class GameDisabled(MazziereError):
    """A new table of a game or preset that is switched off."""

    default_code = "game_disabled"


def name_of(game: str, preset: str | None) -> str:
    """``uno`` or ``uno/classic``, as the audit log's target names it."""
    return f"{game}/{preset}" if preset else game


async def disabled(db: AsyncSession) -> set[tuple[str, str]]:
    """Every switched-off ``(game, preset)``; the preset is ``""`` for a whole game."""
    rows = await db.execute(select(GameSwitch.game, GameSwitch.preset).where(~GameSwitch.enabled))
    return {(g, p) for g, p in rows.all()}


async def switch(
    db: AsyncSession, game: str, preset: str | None, enabled: bool, by: int | None
) -> bool:
    """Switch ``game`` (or its ``preset``) on or off; returns whether it was on."""
    row = await db.get(GameSwitch, (game, preset or ""))
    was = True if row is None else row.enabled
    if row is None:
        row = GameSwitch(game=game, preset=preset or "")
        db.add(row)
    row.enabled, row.changed_by, row.changed_at = enabled, by, datetime.now(UTC)
    await db.flush()
    return was


def refuse_if_off(off: set[tuple[str, str]], game: str, preset: str | None) -> None:
    """:class:`GameDisabled` if ``game`` or its ``preset`` is switched off."""
    if (game, "") in off:
        raise GameDisabled(f"{game} is not offered at the moment")
    if preset and (game, preset) in off:
        raise GameDisabled(f"the {game} preset {preset!r} is not offered at the moment")


def offered(catalog: dict[str, Any], off: set[tuple[str, str]]) -> dict[str, Any]:
    """The catalog without the games and presets switched off (``catalog`` is not changed)."""
    if not off:
        return catalog
    out = copy.deepcopy(catalog)
    out["games"] = [g for g in out["games"] if (g["name"], "") not in off]
    for g in out["games"]:
        g["presets"] = [p for p in g["presets"] if (g["name"], p["name"]) not in off]
        for s in g.get("settings", []):
            if s.get("name") == "preset" and "choices" in s:
                s["choices"] = [c for c in s["choices"] if (g["name"], c) not in off]
                if s.get("default") not in s["choices"]:
                    s["default"] = s["choices"][0] if s["choices"] else None
    return out
