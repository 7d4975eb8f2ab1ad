"""The table actor: one per table, applying one action at a time (docs/architecture.md
"The table actor").

:class:`TableActor` is the top of the table's layers (:mod:`mazziere.server.table`): the lock
and the verbs a player sends (join, watch, leave, start, act, top up, stake; by name in
:mod:`.verbs`), and what a connection's end does to a seat (held, then left). Every verb takes
the actor's lock (an ``asyncio.Lock``, first come first served), so one action is applied at
a time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import IllegalAction
from mazziere.game import new_seed
from mazziere.server import protocol as P
from mazziere.server.store import audit, results, table_rows
from mazziere.server.store.hands import close_hand, mark_left
from mazziere.server.table.errors import TableError
from mazziere.server.table.recovery import TableRecovery
from mazziere.server.table.seats import admit
from mazziere.server.table.updates import watch_update


class TableActor(TableRecovery):
    """One table. All public methods take the lock, so actions apply one at a time."""

    _autostart_timer: Any = None
    """The wait of a table that starts by itself, once its first player sat down."""

    # ------------------------------------------------------------------------------ lobby
    async def join(self, account: int, username: str) -> int:
        async with self.lock:
            if self.retired:  # it moved to another process just now: nothing changes here
                raise table_rows.Fenced(f"table {self.id} moved to another process", "table_moved")
            self._refuse_closed()
            seat = self.seat_of(account)
            back = seat is not None and self._held(seat)
            if seat is None:
                if self.status == "playing" and not self.rules.seat_after_start:
                    raise TableError("the game has started; every seat is taken", "table_full")
                free = [i for i, s in enumerate(self.seats) if s.account is None and s.bot is None]
                if not free:
                    raise TableError("no free seat at this table", "table_full")
                seat = free[0]
                self._seat(seat, account, username)
                self._note(P.Seated(seat=seat, name=username))
            info = self.seats[seat]
            if back:
                self._note(P.Back(seat=seat, name=info.username))
            info.mark_connected()
            info.held_until = None
            self.watchers.pop(account, None)  # seated now: no longer a spectator
            self.timers.release(seat)
            self.timers.cancel_close()
            await self._autostart()
            await self._broadcast()
            return seat

    def _held(self, seat: int) -> bool:
        """The seat's player lost the connection and the seat is held for them."""
        info = self.seats[seat]
        return info.held_until is not None and not info.connected

    async def watch(self, account: int, username: str) -> None:
        """Watch the table without a seat: updates with the view for no seat."""
        async with self.lock:
            self._refuse_closed()
            if self.seat_of(account) is not None:
                raise TableError("you are seated at this table: join it", "seated")
            admit(self.watchers, account)
            await self.srv.hub.send(account, watch_update(self, account))

    async def leave(self, account: int) -> None:
        async with self.lock:
            if account in self.watchers:  # a spectator stops watching
                del self.watchers[account]
                return
            seat = self.seat_of(account)
            if seat is None:
                raise TableError("you are not seated at this table", "not_seated")
            await self._leave_seat(seat, "left")
            await self._broadcast()
            await self._close_if_abandoned()

    async def _leave_seat(self, seat: int, why: str) -> None:
        running = self.table_game is not None and not self.table_game.is_over
        if self.rules.on_leave == "finish":
            if running:
                await self._finish_by_default()
            if self.rules.session_money:
                await self._close_credit_session(why)
        elif running and self.table_game is not None:
            own = self.table_game.leave_action(seat)
            if own is not None:
                await self._apply_and_store([(seat, own, "player")])
            elif self.rules.on_leave == "substitute":
                await self._substitute(seat)
            else:  # forfeit: the game ends with the leaver's loss; the hand record is closed
                assert self.hand_id is not None
                standings = self.table_game.standings(len(self.seats))
                async with self.srv.db.write() as db:
                    await self._fenced(db)
                    await close_hand(db, self.hand_id, self.table_game.forfeit(seat))
                    await results.record(db, self.hand_id, self.id, self.game, standings, seat)
                self.table_game = None
                self.status = "open"
        self._vacate(seat)

    async def _substitute(self, seat: int) -> None:
        """A player leaves a match in progress that goes on without them: the computer
        (:attr:`~mazziere.game.TableRules.substitute_bot`, the auto-play) plays the seat
        until the match ends, as commercial card rooms do, so the other players keep their
        match and nobody waits on an empty seat. The hand's record says so first (a restart
        resumes the seat with the computer; the match's results know who left); then the
        game and the seat take the computer player, and it moves at once if the turn is its
        (on a paced table after the table's thinking time)."""
        assert self.table_game is not None and self.hand_id is not None
        info, bot = self.seats[seat], self.rules.substitute_bot
        async with self.srv.db.write() as db:
            await self._fenced(db)
            await mark_left(db, self.hand_id, seat, bot)
        self.table_game.substitute(seat, bot)
        info.bot = bot
        self._note(P.Substituted(seat=seat, name=info.username, bot=bot))
        await self._run_bots_and_store()

    async def _close_if_abandoned(self) -> None:
        """No human is left at the table: it closes, as a card room closes a table its
        players left rather than keep it in the lobby with nobody to play or wait for. A match
        in progress is first played to its end at once by the computer players who hold every
        seat (its result recorded, as any match's), then the table's row is marked closed; its
        spectators get the closed table, the lobby stops listing it, and a join or a watch is
        answered ``no_table``. A table nobody sat at yet stays open for its first player."""
        if self.status == "closed" or any(s.account is not None for s in self.seats):
            return
        await self._close("abandoned")

    async def close(self, reason: str, by: audit.Actor, note: str) -> int:
        """Close the table from the back office (``reason``: ``operator``): every player
        leaves it as on an ordinary leave (a casino round finished by the default strategy,
        the credit session closed and credited), then it closes as an abandoned table does.
        Returns how many players left it.

        ``by`` (the operator) and ``note`` (their reason) make the audit line
        ``table_closed``, written in the transaction that marks the table closed: the table
        is never closed without its line, nor the line written for a close that failed."""
        async with self.lock:
            self._refuse_closed()
            before = {"status": self.status, "game": self.game}
            seated = [i for i, s in enumerate(self.seats) if s.account is not None]
            for seat in seated:
                await self._leave_seat(seat, reason)
            if seated:
                await self._broadcast()

            async def audited(db: AsyncSession) -> None:
                after = {"status": "closed", "reason": note, "players_left": len(seated)}
                await audit.record(db, by, "table_closed", f"table:{self.id}", before, after)

            await self._close(reason, audited)
            return len(seated)

    async def _close(
        self, reason: str, also: Callable[[AsyncSession], Awaitable[None]] | None = None
    ) -> None:
        await self._play_out()
        async with self.srv.db.write() as db:
            await self._fenced(db)
            await table_rows.set_status(db, self.id, "closed")
            if also is not None:
                await also(db)
        self.timers.cancel_all()
        self.status = "closed"
        self.state_no += 1
        self._note(P.Closed(reason=reason))
        await self._broadcast()
        self.watchers.clear()
        if self.srv.cluster is not None:
            self.srv.cluster.lost(self.id)  # no process serves it any more

    async def start(self, account: int) -> None:
        async with self.lock:
            self._refuse_closed()
            if self.seat_of(account) is None:
                raise TableError("sit at the table before starting", "not_seated")
            if self.rules.starts_with == "stake":
                raise TableError("a round here starts with a stake", "no_start")
            if self.table_game is not None and not self.table_game.is_over:
                raise TableError("a game is already in progress", "already_started")
            await self._start_game()

    async def _start_game(self) -> None:
        """Deal a new game: empty seats get the table's computer players first."""
        if self.rules.fill_bots is not None:
            for s in self.seats:
                if s.account is None and s.bot is None:
                    s.bot = self.rules.fill_bots
        seed = new_seed()
        bots = {i: s.bot for i, s in enumerate(self.seats) if s.bot}
        game = self.kind.new(self.config, len(self.seats), bots, seed)
        await self._begin_hand(game, seed)

    # ------------------------------------------------------------------------------ by itself
    async def _autostart(self) -> None:
        """A table that starts by itself (``config["autostart"]``: quick play, a rematch)
        deals its first game as soon as the players it waits for are seated (every seat
        taken; for a rematch, every player it invited), else when ``seconds`` have passed
        since its first player sat down, computer players in the seats still free (note
        ``starts_soon``). A player waits a few seconds at most, never for a start button."""
        auto = self.config.get("autostart")
        if not auto or self.table_game is not None or self.status != "open":
            return
        if self.rules.starts_with != "start":
            return
        seated = {s.account for s in self.seats if s.account is not None}
        if not seated:
            return
        full = all(s.account is not None or s.bot is not None for s in self.seats)
        invited = auto.get("wait_for")
        if full or (invited and set(invited) <= seated):
            self._autostart_timer = None
            await self._start_game()
            return
        if getattr(self, "_autostart_timer", None) is None:
            seconds = float(auto.get("seconds", 10.0))
            self._autostart_timer = self.srv.later(seconds, self.on_autostart)
            self._note(P.StartsSoon(seconds=seconds))

    async def on_autostart(self) -> None:
        """The wait of a table that starts by itself is over: it starts with whoever sat."""
        async with self.lock:
            if self.retired or self.status != "open" or self.table_game is not None:
                return
            if any(s.account is not None for s in self.seats):
                await self._start_game()

    # ------------------------------------------------------------------------------ actions
    async def act(self, account: int, state_no: int, action: str) -> None:
        t0 = self.srv.clock.now()
        async with self.lock:
            seat = self.seat_of(account)
            if seat is None:
                raise TableError("you are not seated at this table", "not_seated")
            if state_no != self.state_no:
                raise TableError(
                    f"the table moved on (state {self.state_no}, not {state_no}): redraw and "
                    "decide again",
                    "stale_state",
                )
            if self.table_game is None or self.table_game.is_over:
                raise IllegalAction("no hand is in progress", "no_hand")
            await self._apply_and_store([(seat, action, "player")])
            await self._broadcast()
        self.srv.metrics.latency.observe(max(0.0, self.srv.clock.now() - t0))

    # ------------------------------------------------------------------------------ casino
    async def top_up(self, account: int, amount: int, key: str | None = None) -> int:
        """Move cents from the wallet into this table's session credit (opening it)."""
        async with self.lock:
            return await self._top_up(account, amount, key)

    async def stake(self, account: int, state_no: int, amount: int) -> None:
        """Start a casino round: the stake moves from the session credit to the house in the
        same transaction that opens the hand record."""
        async with self.lock:
            game, seed, credit_after = self._new_round(account, state_no, amount)
            await self._begin_hand(game, seed, stake=amount, credit_after=credit_after)

    # ------------------------------------------------------------------------------ presence
    def on_disconnect(self, account: int) -> None:
        seat = self.seat_of(account)
        if seat is None:
            return
        info = self.seats[seat]
        info.connected = False
        info.held_until = self.srv.clock.now() + self.srv.settings.hold_seconds
        self._note(P.SeatHeld(seat=seat, name=info.username))
        self.timers.hold(
            seat, self.srv.settings.hold_seconds, lambda: self.on_hold_expired(seat, account)
        )
        if self.rules.session_money:
            self._maybe_schedule_close()

    async def on_casino_idle_close(self) -> None:
        await super().on_casino_idle_close()
        async with self.lock:
            await self._close_if_abandoned()

    async def recover(self, connected: Any = None) -> dict[str, Any]:
        """Resume after a restart or a takeover (:meth:`TableRecovery.recover`); a match whose
        last player left just before the server stopped resumes with nobody to play for, and
        the table closes as it would have (:meth:`_close_if_abandoned`)."""
        report = await super().recover(connected)
        if report.get("resumed") and not report.get("completed"):
            async with self.lock:
                await self._close_if_abandoned()
            report["closed"] = self.status == "closed"
        return report

    def _refuse_closed(self) -> None:
        if self.status == "closed":
            raise TableError(f"table {self.id} is closed", "no_table")

    async def on_hold_expired(self, seat: int, account: int) -> None:
        async with self.lock:
            self.timers.expired(seat)
            info = self.seats[seat]
            if info.account != account or info.connected:
                return
            if self.rules.session_money:
                return  # the casino session has its own 3-minute rule
            await self._leave_seat(seat, "disconnected")
            await self._broadcast()
            await self._close_if_abandoned()
