"""Match results (platform.md "Leaderboards and player pages"): one row per seat of each
finished match, written in the transaction that records the match's end, and the sums over
them behind the leaderboards and a player's page. Nothing here reads a table's memory: the
figures are the rows', so they are right after a crash and whichever process served a table.

Which matches count where (the platform's rule):

- UNO's leaderboard ranks players by victory points over matches between humans only (every
  seat a player when the match started); a match with a computer player counts on the
  player's page, apart (``humans_matches`` says how many were between humans), never on the
  leaderboard. A player who left before the end has no win and no points there.
- Poker's leaderboard is per computer level: the chips each player won (or lost) against it,
  summed over finished games.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import case, desc, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store.models import Account, Hand, MatchResult

PERIODS: dict[str, timedelta | None] = {
    "week": timedelta(days=7),
    "month": timedelta(days=30),
    "all": None,
}
"""A leaderboard's periods: the last 7 days, the last 30 days, all time."""
RECENT = 20
"""How many of a player's last matches a player's page lists."""


async def record(
    db: AsyncSession,
    hand_id: int,
    table_id: int,
    game: str,
    standings: list[dict[str, Any]],
    left: int | None = None,
) -> None:
    """The match of hand ``hand_id`` ended with ``standings`` (one per seat,
    :meth:`~mazziere.game.TableGame.standings`): a row per seat, in the caller's transaction.
    Who sat where, who was a computer player from the start and who left come from the hand's
    record (``left``: a seat whose player left just now, forfeiting the game)."""
    hand = await db.get(Hand, hand_id)
    assert hand is not None
    players = [dict(p or {}) for p in hand.players]
    humans_only = all(p.get("account") is not None for p in players)
    level = next((p["bot"] for p in players if p.get("account") is None and p.get("bot")), None)
    now = datetime.now(UTC)
    rows = []
    for seat, (p, st) in enumerate(zip(players, standings, strict=False)):
        gone = bool(p.get("left")) or seat == left
        human = p.get("account") is not None
        rows.append(
            {
                "hand_id": hand_id,
                "table_id": table_id,
                "game": game,
                "seat": seat,
                "account_id": p.get("account"),
                "bot": None if human else p.get("bot"),
                "humans_only": humans_only,
                "left": gone,
                "rank": st.get("rank"),
                "won": bool(st.get("won")) and not gone,
                "points": 0 if gone else int(st.get("points") or 0),
                "chips": st.get("chips"),
                "level": level if game == "poker" else None,
                "ended_at": now,
            }
        )
    if rows:
        await db.execute(insert(MatchResult), rows)


def _since(period: str) -> datetime | None:
    span = PERIODS[period]
    return None if span is None else datetime.now(UTC) - span


async def uno_board(db: AsyncSession, period: str, limit: int = 100) -> list[dict[str, Any]]:
    """UNO's leaderboard: players by victory points over matches between humans, then wins,
    then fewer matches, then name."""
    r = MatchResult
    points = func.sum(r.points).label("points")
    wins = func.sum(case((r.won, 1), else_=0)).label("wins")
    matches = func.count(r.id).label("matches")
    q = (
        select(Account.username, points, wins, matches)
        .join(Account, Account.id == r.account_id)
        .where(r.game == "uno", r.humans_only)
        .group_by(Account.username)
        .order_by(desc(points), desc(wins), matches, Account.username)
        .limit(limit)
    )
    since = _since(period)
    if since is not None:
        q = q.where(r.ended_at >= since)
    rows = (await db.execute(q)).all()
    return [
        {"rank": i + 1, "name": n, "points": int(p), "matches": int(m), "wins": int(w)}
        for i, (n, p, w, m) in enumerate(rows)
    ]


async def poker_board(
    db: AsyncSession, period: str, levels: list[str], limit: int = 100
) -> dict[str, list[dict[str, Any]]]:
    """Poker's leaderboards, one per computer level: players by chips won against it, then
    wins, then fewer games, then name."""
    r = MatchResult
    chips = func.coalesce(func.sum(r.chips), 0).label("chips")
    wins = func.sum(case((r.won, 1), else_=0)).label("wins")
    matches = func.count(r.id).label("matches")
    q = (
        select(r.level, Account.username, chips, wins, matches)
        .join(Account, Account.id == r.account_id)
        .where(r.game == "poker")
        .group_by(r.level, Account.username)
        .order_by(r.level, desc(chips), desc(wins), matches, Account.username)
    )
    since = _since(period)
    if since is not None:
        q = q.where(r.ended_at >= since)
    out: dict[str, list[dict[str, Any]]] = {level: [] for level in levels}
    for level, name, c, w, m in (await db.execute(q)).all():
        board = out.setdefault(str(level), [])
        if len(board) < limit:
            board.append(
                {
                    "rank": len(board) + 1,
                    "name": name,
                    "chips": int(c),
                    "matches": int(m),
                    "wins": int(w),
                }
            )
    return out


async def player_page(db: AsyncSession, name: str) -> dict[str, Any] | None:
    """A player's page: per game, matches played and won, victory points (UNO, over matches
    between humans, as the leaderboard counts them) or chips won (poker); and the last
    :data:`RECENT` matches, newest first, with their hand ids (the replay's links)."""
    account = await db.scalar(select(Account).where(Account.username == name))
    if account is None:
        return None
    r = MatchResult
    humans = case((r.humans_only, 1), else_=0)
    q = (
        select(
            r.game,
            func.count(r.id),
            func.sum(case((r.won, 1), else_=0)),
            func.sum(case((r.humans_only, r.points), else_=0)),
            func.sum(humans),
            func.coalesce(func.sum(r.chips), 0),
        )
        .where(r.account_id == account.id)
        .group_by(r.game)
    )
    games: dict[str, dict[str, Any]] = {}
    for game, m, w, pts, hm, chips in (await db.execute(q)).all():
        entry: dict[str, Any] = {"matches": int(m), "wins": int(w)}
        if game == "uno":
            entry |= {"points": int(pts), "humans_matches": int(hm)}
        if game == "poker":
            entry["chips"] = int(chips)
        games[str(game)] = entry
    recent = (
        await db.scalars(
            select(r).where(r.account_id == account.id).order_by(desc(r.id)).limit(RECENT)
        )
    ).all()
    return {
        "name": account.username,
        "games": games,
        "recent": [
            {
                "hand": x.hand_id,
                "game": x.game,
                "table": x.table_id,
                "ended_at": x.ended_at.isoformat(),
                "seat": x.seat,
                "rank": x.rank,
                "won": x.won,
                "points": x.points,
                "chips": x.chips,
                "humans_only": x.humans_only,
                "left": x.left,
                "level": x.level,
            }
            for x in recent
        ],
    }
