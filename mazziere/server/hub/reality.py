"""The timers of a player's login that the server keeps on the player's behalf
(docs/rules/platform.md "Limits and reality checks"): the next reality check, pushed to the
socket when it is due (``reality_check``), and the end of the login's play time
(``session_minutes``), told in a notice, after which the player's casino tables are left (the
round in progress finished by the default strategy, the credit session closed and paid back).

The timers only tell: the refusal of a stake or a top-up is the table's own check, read from
the database in the transaction that would move the money (:mod:`mazziere.server.store.limits`),
so it holds whichever process serves the table, and whether or not a timer fired here. Each
timer reads the database again when it fires: a "continue" answered on another process, or
a limit changed meanwhile, arms it anew rather than telling the player twice."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import select

from mazziere.server import protocol as P
from mazziere.server.hub.connection import Connection
from mazziere.server.hub.routing import Router
from mazziere.server.store import limits
from mazziere.server.store.models import CreditSession

if TYPE_CHECKING:
    from mazziere.server.ports import HubRuntime


class Sockets(Protocol):
    """What the timers use of the hub: its connections, its sending and its routing."""

    conns: dict[int, Connection]
    router: Router

    async def send(self, account: int, message: P.ServerMessage) -> None: ...


class LoginWatch:
    """The reality-check and play-time timers of every connection of one hub."""

    def __init__(self, srv: HubRuntime, hub: Sockets) -> None:
        self.srv = srv
        self.hub = hub
        self._timers: dict[int, list[Any]] = {}

    def stop(self, account: int) -> None:
        """The account's socket closed here: its timers stop."""
        for timer in self._timers.pop(account, []):
            timer.cancel()

    async def arm(self, account: int) -> None:
        """(Re)start the account's timers from what the database says now (nothing if its
        socket is not on this process)."""
        self.stop(account)
        if account not in self.hub.conns:
            return
        now = self.srv.clock.wall()
        async with self.srv.db.session() as db:
            login = await limits.login_at(db, account)
            if login is None:
                return
            protection = await limits.protection_of(db, account)
            played = (await limits.limits_of(db, account, now)).get("session_minutes")
        if account not in self.hub.conns:  # the socket closed meanwhile
            return
        self.stop(account)  # two arms at once: the last one's timers
        timers = [
            self._at(limits.reality_due_at(protection, login), now, self._reality_due, account)
        ]
        if played is not None and played.amount is not None:
            end = login + timedelta(minutes=played.amount)
            timers.append(self._at(end, now, self._play_time_over, account))
        self._timers[account] = timers

    def _at(self, when: datetime, now: datetime, job: Any, account: int) -> Any:
        delay = max(0.0, (when - now).total_seconds())
        return self.srv.later(delay, lambda: job(account))

    async def _reality_due(self, account: int) -> None:
        if account not in self.hub.conns:
            return
        from mazziere.server.store.limit_changes import reality_report

        async with self.srv.db.session() as db:
            report = await reality_report(db, account, self.srv.clock.wall())
        if report is None:
            return
        if not report["due"]:  # answered meanwhile (or the rhythm changed): later
            await self.arm(account)
            return
        await self.hub.send(
            account,
            P.RealityCheck(
                played_seconds=report["played_seconds"],
                net=report["net"],
                minutes=report["minutes"],
            ),
        )

    async def _play_time_over(self, account: int) -> None:
        conn = self.hub.conns.get(account)
        if conn is None:
            return
        now = self.srv.clock.wall()
        async with self.srv.db.session() as db:
            login = await limits.login_at(db, account)
            played = (await limits.limits_of(db, account, now)).get("session_minutes")
            tables = (
                await db.scalars(
                    select(CreditSession.table_id).where(
                        CreditSession.account_id == account, CreditSession.status == "open"
                    )
                )
            ).all()
        if login is None or played is None or played.amount is None:
            return
        if now < login + timedelta(minutes=played.amount):  # the limit was raised meanwhile
            await self.arm(account)
            return
        await self.hub.send(
            account,
            P.Notice(
                kind="session_time_limit",
                message=f"your play time of {played.amount} minutes for this login is over: "
                "your casino credit goes back to your wallet",
            ),
        )
        for table in sorted(set(tables)):
            leave = P.Leave(table=table)
            with contextlib.suppress(Exception):  # a table gone meanwhile: nothing to leave
                await self.hub.router.route(conn, leave, P.encode_client(leave))
