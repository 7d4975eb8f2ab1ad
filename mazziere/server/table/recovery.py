"""Resuming a table after a restart, or after another process took it over: the committed
state is read back from the database (the casino session and its credit, the unfinished hand,
its players and recorded actions) and the hand is rebuilt from its seed by replaying them
(docs/architecture.md "The table actor"). A casino round is completed by the player's default
strategy, settled, and its session closed."""

from __future__ import annotations

from typing import Any

from mazziere.server.store import hands, money
from mazziere.server.table.play import TablePlay


class TableRecovery(TablePlay):
    """A table that resumes from what the database committed."""

    async def recover(self) -> dict[str, Any]:
        """Resume after a restart: rebuild the unfinished hand from its seed and actions; a
        casino hand is completed by the default strategy, settled and its session closed."""
        report: dict[str, Any] = {"table": self.id, "resumed": False, "completed": False}
        async with self.srv.db.session() as db:
            hand = await hands.unfinished(db, self.id)
            cs = await money.open_session_at(db, self.id)
            if cs is not None:  # committed state: the session, its owner, its credit
                self.credit_session, self.credit = cs.id, cs.credit
                self._seat(0, cs.account, self.seats[0].username)
            if hand is None:
                if cs is not None:
                    await self._close_credit_session("restart")
                    self._vacate(0)
                return report
            players = await hands.players_of(db, hand.id)
            steps = await hands.actions_of(db, hand.id)
        for p in players:
            if p.seat < len(self.seats):
                if p.account_id is not None:
                    name = str((hand.players[p.seat] or {}).get("name") or "")
                    self._seat(p.seat, p.account_id, self.seats[p.seat].username or name)
                if p.is_bot:
                    self.seats[p.seat].bot = str(
                        (hand.players[p.seat] or {}).get("bot") or "greedy"
                    )
        game = self.kind.from_setup(hand.setup, hand.seed)
        for row in steps:
            game.apply(row.seat, row.action, row.actor)
        self.table_game, self.hand_id, self.seq = game, hand.id, len(steps)
        self.hand_seed = hand.seed
        self.status = "playing"
        self.state_no += 1
        report["resumed"] = True
        report["actions_replayed"] = len(steps)
        if self.rules.on_leave == "finish":
            async with self.lock:
                await self._finish_by_default()
                await self._close_credit_session("restart")
                self._vacate(0)
            report["completed"] = True
            report["result"] = game.result()
        else:
            self._schedule_decision()
            self._schedule_bot()
        return report
