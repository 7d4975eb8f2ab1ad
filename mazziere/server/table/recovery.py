"""Resuming a table after a restart, or after another process took it over: the committed
state is read back from the database (the casino session and its credit, the unfinished hand,
its players and recorded actions) and the hand is rebuilt from its seed by replaying them
(docs/architecture.md "The table actor"). A casino round is completed by the player's default
strategy, settled, and its session closed.

After another process took the table over, its players may still be connected (their sockets
were on a live process): they are marked connected before anything is replayed or settled, so
that they get what the recovery does as it happens (a casino player, the round completed and
the session closed; every other player, the table as it resumes)."""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

from mazziere.game import Step
from mazziere.server.store import hands, money
from mazziere.server.table.play import TablePlay

MAX_DEFAULT_STEPS = 500
"""Most rounds of decisions a hand completed by default may take (as ``_finish_by_default``)."""


class TableRecovery(TablePlay):
    """A table that resumes from what the database committed."""

    async def recover(
        self, connected: Callable[[int], Awaitable[bool]] | None = None
    ) -> dict[str, Any]:
        """Resume after a restart: rebuild the unfinished hand from its seed and actions; a
        casino hand is completed by the default strategy, settled and its session closed.
        ``connected`` (a takeover) says which seated players have a socket somewhere."""
        report: dict[str, Any] = {"table": self.id, "resumed": False, "completed": False}
        async with self.srv.db.session() as db:
            hand = await hands.unfinished(db, self.id)
            cs = await money.open_session_at(db, self.id)
            if cs is not None:  # committed state: the session, its owner, its credit
                self.credit_session, self.credit = cs.id, cs.credit
                self._seat(0, cs.account, self.seats[0].username)
            if hand is None:
                await self._mark_connected(connected)
                if cs is not None:
                    await self._close_credit_session("restart")
                    self._vacate(0)
                return report
            players = await hands.players_of(db, hand.id)
            steps = await hands.actions_of(db, hand.id)
        for p in players:
            left = bool((hand.players[p.seat] or {}).get("left"))  # the computer plays it
            if p.seat < len(self.seats):
                if p.account_id is not None and not left:
                    name = str((hand.players[p.seat] or {}).get("name") or "")
                    self._seat(p.seat, p.account_id, self.seats[p.seat].username or name)
                if p.is_bot:
                    self.seats[p.seat].bot = str(
                        (hand.players[p.seat] or {}).get("bot") or "greedy"
                    )
        await self._mark_connected(connected)
        game = self.kind.from_setup(hand.setup, hand.seed)
        for seat, p in enumerate(hand.players):
            if (p or {}).get("left"):
                game.substitute(seat, str(p["bot"]))
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
                await self._complete_in_one_commit()
                await self._close_credit_session("restart")
                self._vacate(0)  # a connected player gets the round and the close here
            report["completed"] = True
            report["result"] = game.result()
        else:
            self._schedule_decision()
            self._schedule_bot()
        return report

    async def _mark_connected(self, connected: Callable[[int], Awaitable[bool]] | None) -> None:
        if connected is None:
            return
        for info in self.seats:
            if info.account is not None and await connected(info.account):
                info.mark_connected()

    async def _complete_in_one_commit(self) -> None:
        """Complete the interrupted hand as :meth:`_finish_by_default` does (the player's
        default strategy for the player, the computer players' own moves), every step on one
        copy of the game and stored in one transaction: a takeover completes many rounds at
        once, and a commit per step would make each wait for as many group commits."""
        assert self.table_game is not None
        work = copy.copy(self.table_game)
        steps: list[Step] = []
        for _ in range(MAX_DEFAULT_STEPS):
            if work.is_over:
                break
            seat = work.deciders()[0]
            more = [] if self.seats[seat].bot is not None else [work.timeout(seat)]
            more.extend(self._bot_steps(work))
            if not more:
                break
            steps.extend(more)
        if steps:
            await self._commit(work, steps)
