"""A table's state, the ground floor of its actor: the game's kind and rules, the seats and
spectators, the table's log of notes, the hand in progress and its numbers, the casino
session's credit, the timers; who sits where, the public seat list, fencing (several
processes), and sending each recipient its update (built in :mod:`.updates`).

The layers above (:mod:`.money`, :mod:`.play`, :mod:`.recovery`, :mod:`.actor`) change this
state only under the actor's lock."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.game import TableGame, TableRules, find_game
from mazziere.server import protocol as P
from mazziere.server.store import table_rows
from mazziere.server.store.models import GameTable
from mazziere.server.table.seats import SeatInfo, Watcher
from mazziere.server.table.updates import seat_update, watch_update
from mazziere.server.timers import TableTimers

T = TypeVar("T")

if TYPE_CHECKING:
    from mazziere.server.ports import ActorRuntime


class TableState:
    """One table's state and the bookkeeping every layer of the actor shares."""

    def __init__(self, srv: ActorRuntime, row: GameTable, fence: int | None = None) -> None:
        self.srv = srv
        self.fence = fence
        """Several processes: this process's fencing token for the table, checked by every
        write (docs/scaling.md); ``None`` for a server that runs alone."""
        self.retired = False
        self.id = row.id
        self.game = row.game
        self.kind = find_game(row.game)
        self.name = row.name
        self.config: dict[str, Any] = dict(row.config)
        self.rules: TableRules = self.kind.table_rules(self.config)
        self.decision_seconds = float(row.decision_seconds)
        self.bot_delay = float(self.config.get("bot_delay", 0.0))
        """Seconds each computer move waits: 0 plays the bots' moves at once, in
        the same commit as the move before them; more, one move per timer of the table."""
        self.seats = [SeatInfo() for _ in range(len(row.seats))]
        for seat, bot in self.rules.fixed_bots.items():
            self.seats[seat].bot = bot
        self.status = row.status
        self.table_game: TableGame | None = None
        self.hand_id: int | None = None
        self.hand_seed: str | None = None
        """The seed of the hand in progress, revealed in its ``hand_over`` note."""
        self.seq = 0
        self.state_no = 0
        self.credit_session: int | None = None
        self.credit: int | None = None
        """The casino session's credit, kept in step with the ledger (read once at recovery)."""
        self.lock = asyncio.Lock()
        self.log: deque[P.TableNote] = deque(maxlen=40)
        self.notes_total = 0
        """How many notes the table has had since the actor started: the number the next
        note takes (``log`` holds the last ones)."""
        self.seats_version = 0
        self._seats_key: tuple[tuple[Any, ...], ...] = ()
        self._seats_public: list[dict[str, Any]] = []
        self.timers = TableTimers(srv)
        self.watchers: dict[int, Watcher] = {}
        """Spectators by account: the view for no seat, never a hand."""

    # ------------------------------------------------------------------------------ seats
    def seat_of(self, account: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.account == account:
                return i
        return None

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "name": self.name,
            "status": self.status,
            "seats": [s.public() for s in self.seats],
            "config": self.config,
            "decision_seconds": self.decision_seconds,
            "started": self.table_game is not None,
        }

    def _players(self) -> list[dict[str, Any]]:
        return [{"account": s.account, "name": s.username, "bot": s.bot} for s in self.seats]

    def _someone_away(self) -> bool:
        return any(s.account is not None and not s.connected for s in self.seats)

    def _note(self, note: P.TableNote) -> None:
        self.log.append(note)
        self.notes_total += 1
        line = P.Recent(note=note)
        for info in self.seats:
            if info.account is not None:
                info.recent.append(line)

    def public_seats(self) -> tuple[int, list[dict[str, Any]]]:
        """The public seat list and its version. The list is built again only when a seat's
        public fields changed (wherever that happened: sitting, leaving, a connection, a
        substitute...), so one broadcast builds it at most once for all its recipients."""
        key = tuple((s.account, s.username, s.bot, s.connected) for s in self.seats)
        if key != self._seats_key:
            self._seats_key, self._seats_public = key, [s.public() for s in self.seats]
            self.seats_version += 1
        return self.seats_version, self._seats_public

    def _seat(self, seat: int, account: int, username: str = "") -> None:
        info = self.seats[seat]
        if info.account is not None and info.account != account:
            self.srv.seating.unseat(info.account, self.id)
        if info.account != account:
            info.notes_sent = None  # a new player: the first update is full
            info.recent.clear()  # and the play-by-play is theirs from now on
        info.account, info.username = account, username
        self.srv.seating.seat(account, self.id)

    def _vacate(self, seat: int) -> None:
        info = self.seats[seat]
        name = info.username
        if info.account is not None:
            self.srv.seating.unseat(info.account, self.id)
        if info.account is not None and info.connected:
            self.srv.spawn(self._farewell(info.account, list(info.pending)))
        keep_bot = info.bot if self.table_game is not None and not self.table_game.is_over else None
        if seat in self.rules.fixed_bots:
            keep_bot = self.rules.fixed_bots[seat]
        self.seats[seat] = SeatInfo(bot=keep_bot)
        self._note(P.SeatLeft(seat=seat, name=name))

    # ------------------------------------------------------------------------------ fencing
    async def _fenced(self, db: AsyncSession) -> None:
        """In a transaction of this table: refuse it if another process took the table (in a
        group commit the check is made at the end of the batch, still before its commit)."""
        if self.retired:
            raise table_rows.Fenced(f"table {self.id} moved to another process", "table_moved")
        if self.fence is not None:
            try:
                await table_rows.check_fence(db, self.id, self.fence)
            except table_rows.Fenced:
                self._moved()
                raise

    def _moved(self) -> None:
        if self.srv.cluster is not None:
            self.srv.cluster.lost(self.id)

    async def _commit_together(self, write: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """``write`` in the next group commit; a refused fence (checked at the end of the
        batch) forgets the table here."""
        try:
            return await self.srv.db.commit_together(write)
        except table_rows.Fenced:
            self._moved()
            raise

    def retire(self) -> None:
        """Another process owns the table now: stop its timers and refuse every change."""
        self.retired = True
        self.timers.cancel_all()

    # ------------------------------------------------------------------------------ output
    async def update_for(self, seat: int, *, full: bool = False) -> P.TableUpdate:
        """The next update for ``seat``: what changed since its previous one, or all of it
        when ``full`` (or when the seat is due a full one: it just joined or reconnected)."""
        info = self.seats[seat]
        events, info.pending = info.pending, []
        return seat_update(self, seat, events, full=full)

    async def _farewell(self, account: int, events: list[dict[str, Any]]) -> None:
        """The leaver's last update: what happened as it left (session closed, credit)."""
        await self.srv.hub.send(account, seat_update(self, None, events, full=True))

    async def _broadcast(self) -> None:
        if self.srv.cluster is not None:
            self.srv.cluster.publish_summary(self.id, self.summary())
        for i, info in enumerate(self.seats):
            if info.account is not None and info.connected:
                await self.srv.hub.send(info.account, await self.update_for(i))
        for account in list(self.watchers):
            await self.srv.hub.send(account, watch_update(self, account))
