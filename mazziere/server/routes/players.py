"""Leaderboards and player pages (platform.md "Leaderboards and player pages"): sums over the
match results written with each match's end (:mod:`mazziere.server.store.results`). No login
needed: a lobby shows them to anyone."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from mazziere.catalog import catalog
from mazziere.server.routes.deps import Srv
from mazziere.server.store import results

router = APIRouter(prefix="/api")

BOARDS = ("uno", "poker")
"""The games with a leaderboard: UNO by victory points, poker by chips per computer level."""


def _refused(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def poker_levels() -> list[str]:
    """The computer's levels, in the catalog's order."""
    game = next(g for g in catalog()["games"] if g["name"] == "poker")
    level = next(s for s in game["settings"] if s["name"] == "level")
    return [str(c) for c in level["choices"]]


@router.get("/leaderboards", response_model=None)
async def leaderboards(server: Srv, game: str = "uno", period: str = "week") -> Any:
    """``game`` (``uno`` or ``poker``) over ``period`` (``week``: the last 7 days, ``month``:
    the last 30, ``all``)."""
    if game not in BOARDS:
        return _refused("unknown_game", f"no leaderboard for {game!r}: {', '.join(BOARDS)}", 422)
    if period not in results.PERIODS:
        return _refused("bad_period", f"period is one of {', '.join(results.PERIODS)}", 422)
    async with server.db.session() as db:
        if game == "uno":
            return {"game": game, "period": period, "rows": await results.uno_board(db, period)}
        levels = poker_levels()
        board = await results.poker_board(db, period, levels)
        return {"game": game, "period": period, "levels": board}


@router.get("/players/{name}", response_model=None)
async def player(name: str, server: Srv) -> Any:
    async with server.db.session() as db:
        page = await results.player_page(db, name)
    if page is None:
        return _refused("no_player", f"no player called {name!r}", 404)
    return page
