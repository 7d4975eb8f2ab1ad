"""Table actors: one per table, applying one action at a time (docs/architecture.md "Server").

An actor owns its table's seats, the game in progress, the hand record and the timers. Every
change runs under the actor's lock (FIFO), is written to the database in one transaction with
the money it moves, and is then sent to each seated player as that player's own view.
Time-outs, held seats and session closing are timers of the server's clock that come back into
the actor as ordinary messages.
"""

from __future__ import annotations

import asyncio
import copy
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import IllegalAction, MazziereError, NotYourTurn
from mazziere.game import GameSession, Step, TableRules, commitment, find_game, new_seed
from mazziere.server import protocol as P
from mazziere.server.store import hands, money
from mazziere.server.store import tables as table_rows
from mazziere.server.store.hands import close_hand, open_hand, record_steps
from mazziere.server.store.models import GameTable
from mazziere.server.timers import TableTimers
from mazziere.server.updates import notes_for, table_update

T = TypeVar("T")

if TYPE_CHECKING:
    from mazziere.server.ports import ActorRuntime

MAX_BOT_STEPS = 20_000
MAX_WATCHERS = 50
"""Spectators a table keeps; a new one past this replaces the one who came first."""
RECENT_LINES = 60
"""How many lines of its play-by-play (events and notes, in order) a seat keeps, to send in
its next full update (a reload, a second device, a reconnection)."""


MOVE_EVENTS = frozenset(
    {"played", "drew", "passed", "color_chosen", "uno_called", "auto_played"}
    | {"opened", "waited", "raised", "replaced", "folded", "saw"}
)
"""Event types that tell a seat's own move (UNO and the casino; poker), as a time-out's note
names it."""


def _by_server(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event of a move the server made for ``seat`` whose time ran out, marked ``auto``
    when it tells that seat's own move: the time-out's note already names the move, so a log
    says it once; what followed from it (a skip, the hand's end) is not marked."""
    if event.get("type") not in MOVE_EVENTS or event.get("seat") != seat:
        return event
    return {**event, "auto": True}


class TableError(MazziereError):
    default_code = "table_error"


@dataclass
class SeatInfo:
    account: int | None = None
    username: str = ""
    bot: str | None = None
    connected: bool = False
    held_until: float | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    """Events this seat has yet to receive, in their structured forms."""
    notes_sent: int | None = None
    """How many notes of the table's log (counted since the actor started) this seat has
    received; ``None``: its next update is full (a new player, a join, a reconnection)."""
    seats_sent: int = -1
    """The version of the public seat list (:meth:`TableActor.public_seats`) this seat's last
    update carried."""
    recent: deque[P.Recent] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    """This seat's recent play-by-play, oldest first: the events it was sent and the table's
    notes, in the order they happened."""

    def push(self, event: dict[str, Any]) -> None:
        """An event for this seat: in its next update, and in its play-by-play."""
        self.pending.append(event)
        if self.account is not None:
            self.recent.append(P.Recent(event=event))

    def __setattr__(self, name: str, value: Any) -> None:
        # ``connected`` set true is a join or a reconnection (the player's page may hold
        # nothing of the table): its next update is full
        if name == "connected" and value:
            object.__setattr__(self, "notes_sent", None)
        object.__setattr__(self, name, value)

    def public(self) -> dict[str, Any]:
        return {
            "name": self.username or (f"bot ({self.bot})" if self.bot else ""),
            "bot": self.bot is not None,
            "connected": self.connected or self.bot is not None,
            "free": self.account is None and self.bot is None,
        }


@dataclass
class Watcher:
    """A spectator: what it was sent of the table's notes and seat list, and the events
    anyone may see that it has yet to receive."""

    notes_sent: int | None = None
    seats_sent: int = -1
    pending: list[dict[str, Any]] = field(default_factory=list)


class TableActor:
    """One table. All public methods take the lock, so actions apply one at a time."""

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
        self.session: GameSession | None = None
        self.hand_id: int | None = None
        self.seq = 0
        self.state_no = 0
        self.casino_session: int | None = None
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

    # ------------------------------------------------------------------------------ helpers
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
        }

    def _players(self) -> list[dict[str, Any]]:
        return [{"account": s.account, "name": s.username, "bot": s.bot} for s in self.seats]

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

    # ------------------------------------------------------------------------------ lobby
    async def join(self, account: int, username: str) -> int:
        async with self.lock:
            if self.retired:  # it moved to another process just now: nothing changes here
                raise table_rows.Fenced(f"table {self.id} moved to another process", "table_moved")
            seat = self.seat_of(account)
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
            info.connected = True
            info.held_until = None
            self.watchers.pop(account, None)  # seated now: no longer a spectator
            self.timers.release(seat)
            self.timers.cancel_close()
            await self._broadcast()
            return seat

    async def watch(self, account: int, username: str) -> None:
        """Watch the table without a seat: updates with the view for no seat."""
        async with self.lock:
            if self.seat_of(account) is not None:
                raise TableError("you are seated at this table: join it", "seated")
            self.watchers.pop(account, None)
            while len(self.watchers) >= MAX_WATCHERS:
                self.watchers.pop(next(iter(self.watchers)))
            self.watchers[account] = Watcher()
            await self.srv.hub.send(account, self._watch_update(account))

    def _watch_update(self, account: int) -> P.TableUpdate:
        w = self.watchers[account]
        version, seats = self.public_seats()
        full, log_from, notes = notes_for(self.log, self.notes_total, w.notes_sent)
        events, w.pending = w.pending, []
        update = P.TableUpdate(
            table=self.id,
            game=self.game,
            state_no=self.state_no,
            status=self.status,
            seat=None,
            full=full,
            seats=seats if full or w.seats_sent != version else None,
            view=self.session.view(None) if self.session is not None else None,
            legal=[],
            events=events,
            time_left=self.timers.time_left(),
            log=notes,
            log_from=log_from,
            watching=True,
        )
        w.notes_sent, w.seats_sent = self.notes_total, version
        return update

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

    async def _leave_seat(self, seat: int, why: str) -> None:
        info = self.seats[seat]
        running = self.session is not None and not self.session.is_over
        if self.rules.on_leave == "finish":
            if running:
                await self._finish_by_default()
            if self.rules.session_money:
                await self._close_casino_session(why)
        elif running and self.session is not None:
            own = self.session.leave_action(seat)
            if own is not None:
                await self._apply_and_store([(seat, own, "player")])
            elif self.rules.on_leave == "substitute":
                info.bot = self.rules.substitute_bot
                self._note(P.Substituted(seat=seat, name=info.username, bot=info.bot))
                self._schedule_bot()
            else:  # forfeit: the game ends with the leaver's loss; the hand record is closed
                assert self.hand_id is not None
                async with self.srv.db.write() as db:
                    await self._fenced(db)
                    await close_hand(db, self.hand_id, self.session.forfeit(seat))
                self.session = None
                self.status = "open"
        self._vacate(seat)

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
        keep_bot = info.bot if self.session is not None and not self.session.is_over else None
        if seat in self.rules.fixed_bots:
            keep_bot = self.rules.fixed_bots[seat]
        self.seats[seat] = SeatInfo(bot=keep_bot)
        self._note(P.SeatLeft(seat=seat, name=name))

    async def _farewell(self, account: int, events: list[dict[str, Any]]) -> None:
        """The leaver's last update: what happened as it left (session closed, credit)."""
        await self.srv.hub.send(account, self._update(None, events, full=True))

    async def start(self, account: int) -> None:
        async with self.lock:
            if self.seat_of(account) is None:
                raise TableError("sit at the table before starting", "not_seated")
            if self.rules.starts_with == "stake":
                raise TableError("a round here starts with a stake", "no_start")
            if self.session is not None and not self.session.is_over:
                raise TableError("a game is already in progress", "already_started")
            if self.rules.fill_bots is not None:
                for s in self.seats:
                    if s.account is None and s.bot is None:
                        s.bot = self.rules.fill_bots
            seed = new_seed()
            bots = {i: s.bot for i, s in enumerate(self.seats) if s.bot}
            game = self.kind.new(self.config, len(self.seats), bots, seed)
            await self._begin_hand(game, seed)

    async def _begin_hand(
        self,
        game: GameSession,
        seed: str,
        stake: int | None = None,
        credit_after: int | None = None,
    ) -> None:
        """Open the hand record (and move the stake) in one transaction; the actor takes the
        new hand and the credit after the stake only once it committed."""
        players, session = self._players(), self.casino_session

        async def write(db: AsyncSession) -> int:
            await self._fenced(db)
            hand_id = await open_hand(db, self.id, self.game, seed, game.setup, players)
            if stake is not None and session is not None:
                await money.stake(db, session, hand_id, stake)
            await table_rows.set_status(db, self.id, "playing")
            return hand_id

        hand_id = await self._commit_together(write)
        self.session, self.hand_id, self.seq = game, hand_id, 0
        if credit_after is not None:
            self.credit = credit_after
        self.status = "playing"
        self.state_no += 1
        self._note(P.HandStarted(hand=hand_id, commitment=game_commitment(seed)))
        for i in range(len(self.seats)):
            self.seats[i].push({"type": "hand_started", "id": hand_id})
        await self._run_bots_and_store()
        await self._broadcast()

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
            if self.session is None or self.session.is_over:
                raise IllegalAction("no hand is in progress", "no_hand")
            if action.strip().lower() in ("timeout", "end_hand"):
                raise NotYourTurn("only the server sends time-outs", "server_only")
            await self._apply_and_store([(seat, action, "player")])
            await self._broadcast()
        self.srv.metrics.latency.observe(max(0.0, self.srv.clock.now() - t0))

    async def _apply_and_store(self, moves: list[tuple[int, str, str]]) -> None:
        """Apply moves (refused ones raise, changing nothing), then the bots; store it all in
        one transaction with the money it moves."""
        assert self.session is not None and self.hand_id is not None
        work = copy.copy(self.session)  # the actor's game changes only after the commit
        steps = [work.apply(seat, action, actor) for seat, action, actor in moves]
        if not self.bot_delay:
            steps.extend(self._bot_steps(work))
        await self._commit(work, steps)

    def _bot_steps(self, work: GameSession, most: int = MAX_BOT_STEPS) -> list[Step]:
        """The computer players' moves on ``work`` (at most ``most``), the seat to decide
        first, until no computer player moves."""
        steps: list[Step] = []
        for _ in range(most):
            if work.is_over:
                break
            moved = False
            order = work.deciders() + list(range(len(self.seats)))
            for seat in dict.fromkeys(order):
                if self.seats[seat].bot is None:
                    continue
                move = work.bot_move(seat)
                if move is not None:
                    steps.append(work.apply(seat, move, "bot"))
                    moved = True
                    break
            if not moved:
                break
        return steps

    async def _run_bots_and_store(self) -> None:
        assert self.session is not None
        if self.bot_delay:  # paced: the first computer move comes on its timer
            self._after_steps([])
            return
        work = copy.copy(self.session)
        steps = self._bot_steps(work)
        if steps:
            await self._commit(work, steps)
        else:
            self._after_steps(steps)

    async def _commit(self, work: GameSession, steps: list[Step]) -> None:
        """Store ``steps`` (applied to ``work``, a copy of the actor's game) in one transaction
        with the money they move; only once it committed does the actor take ``work`` as its
        game, the new sequence number and the credit (a failure leaves the actor as it was)."""
        hand_id, seq, session = self.hand_id, self.seq, self.casino_session
        assert hand_id is not None
        result = work.result() if work.is_over else None
        paid = int(result.get("payout", 0)) if result is not None and session is not None else 0

        async def write(db: AsyncSession) -> None:
            await self._fenced(db)
            await record_steps(db, hand_id, seq + 1, steps)
            if result is not None:
                await close_hand(db, hand_id, result)
                if session is not None:
                    await money.payout(db, session, hand_id, paid)
                await table_rows.set_status(db, self.id, "open")

        await self._commit_together(write)
        self.session, self.seq = work, seq + len(steps)
        if paid and self.credit is not None:
            self.credit += paid
        self._after_steps(steps)

    def _after_steps(self, steps: list[Step]) -> None:
        assert self.session is not None
        if steps:
            self.state_no += 1
        wired: dict[Any, dict[str, Any]] = {}  # each event made structured once
        for step in steps:
            self.srv.metrics.decisions.labels(self.game, step.actor).inc()
            auto = step.actor == "server" and bool(step.moves)
            # what each seat sees of the step: the rule the hand history follows too
            for i, info in enumerate(self.seats):
                if info.account is not None:
                    for text in self.session.seen(step, i).events:
                        if text not in wired:
                            wired[text] = self.kind.event_wire(text)
                        info.push(_by_server(wired[text], step.seat) if auto else wired[text])
            if not self.watchers and step.actor != "server":
                continue
            public = self.session.seen(step, None)  # what a spectator sees
            if self.watchers:
                shown = [self.kind.event_wire(text) for text in public.events]
                if auto:
                    shown = [_by_server(e, step.seat) for e in shown]
                for w in self.watchers.values():
                    w.pending.extend(shown)
            if step.actor == "server":
                # the table's log goes to every seat and spectator: the moves anyone may see
                moves = (public.action,) if public.moves is None else public.moves
                self._note(
                    P.TimedOut(
                        seat=step.seat,
                        name=self.seats[step.seat].username,
                        actions=[self.kind.action_wire(t) for t in moves if t is not None],
                    )
                )
        if self.session.is_over:
            assert self.hand_id is not None
            self.status = "open"
            self._note(P.HandOver(hand=self.hand_id, result=self.session.result()))
        self._schedule_decision()
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        """Paced table: the next computer move comes after the table's thinking time, if one
        moves then (the lock is free meanwhile: another seat's move, a catch, goes first and
        starts the wait again)."""
        self.timers.cancel_think()
        if not self.bot_delay or self.session is None or self.session.is_over:
            return
        if all(s.bot is None for s in self.seats):
            return
        state_no = self.state_no
        self.timers.think(self.bot_delay, lambda: self.on_bot_turn(state_no))

    async def on_bot_turn(self, state_no: int) -> None:
        """A computer player's move on a paced table, if the table is where it was."""
        async with self.lock:
            if self.retired or state_no != self.state_no:
                return
            if self.session is None or self.session.is_over:
                return
            work = copy.copy(self.session)
            steps = self._bot_steps(work, most=1)
            if not steps:
                return
            await self._commit(work, steps)
            await self._broadcast()
            if self.rules.session_money and self.session.is_over and self._someone_away():
                self._maybe_schedule_close()  # the round ended on a computer move

    def _someone_away(self) -> bool:
        return any(s.account is not None and not s.connected for s in self.seats)

    # ------------------------------------------------------------------------------ casino
    async def top_up(self, account: int, amount: int, key: str | None = None) -> int:
        """Move cents from the wallet into this table's session credit (opening it)."""
        async with self.lock:
            if not self.rules.session_money:
                raise TableError("only casino tables hold a session credit", "not_casino")
            if self.seat_of(account) is None:
                raise TableError("sit at the table first", "not_seated")
            if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
                raise TableError("a top-up is a positive number of cents", "bad_amount")
            async with self.srv.db.write() as db:
                await self._fenced(db)
                sid, credit = await money.top_up(
                    db, account, self.id, self.casino_session, amount, key
                )
            # committed: only now does the table hold the session (a refused first top-up
            # rolled its row back, and its id may be given to another session)
            self.casino_session, self.credit = sid, credit
            self.state_no += 1
            await self._broadcast()
            return credit

    async def stake(self, account: int, state_no: int, amount: int) -> None:
        """Start a casino round: the stake moves from the session credit to the house in the
        same transaction that opens the hand record."""
        async with self.lock:
            if self.rules.starts_with != "stake":
                raise TableError("stakes are for casino tables", "not_casino")
            if self.seat_of(account) is None:
                raise TableError("sit at the table first", "not_seated")
            if state_no != self.state_no:
                raise TableError("the table moved on: redraw and decide again", "stale_state")
            if self.session is not None and not self.session.is_over:
                raise TableError("a round is in progress", "round_in_progress")
            if self.casino_session is None:
                raise TableError("top up the session credit first", "no_credit")
            credit = self.credit or 0
            seed = new_seed()
            # a bad stake raises StakeError here, before any money moves
            bots = {i: s.bot for i, s in enumerate(self.seats) if s.bot}
            game = self.kind.new(self.config, len(self.seats), bots, seed, amount, credit)
            await self._begin_hand(game, seed, stake=amount, credit_after=credit - amount)

    async def _finish_by_default(self) -> None:
        """Complete the hand in progress at once: the player's default strategy decides for
        the player (casino, 000), the computer players (the bank) make their own moves."""
        assert self.session is not None
        for _ in range(500):
            if self.session.is_over:
                break
            seat = self.session.deciders()[0]
            work = copy.copy(self.session)
            steps = [] if self.seats[seat].bot is not None else [work.timeout(seat)]
            steps.extend(self._bot_steps(work))
            if not steps:
                break
            await self._commit(work, steps)

    async def _close_casino_session(self, why: str) -> None:
        if self.casino_session is None:
            return
        async with self.srv.db.write() as db:
            await self._fenced(db)
            rest = await money.close(db, self.casino_session, why)
        self.casino_session = None
        self.credit = None
        self._note(P.SessionClosed(reason=why, credited=rest))
        for info in self.seats:
            if info.account is not None:
                info.push({"type": "session_closed", "credited": rest, "reason": why})

    # ------------------------------------------------------------------------------ timers
    def _schedule_decision(self) -> None:
        self.timers.cancel_decision()
        if self.session is None or self.session.is_over:
            return
        humans = [s for s in self.session.deciders() if self.seats[s].bot is None]
        if not humans:
            return
        seat, state_no = humans[0], self.state_no
        self.timers.decide_within(
            self.decision_seconds, lambda: self.on_decision_timeout(seat, state_no)
        )

    async def on_decision_timeout(self, seat: int, state_no: int) -> None:
        async with self.lock:
            if state_no != self.state_no or self.session is None or self.session.is_over:
                return
            if seat not in self.session.deciders():
                return
            work = copy.copy(self.session)
            step = work.timeout(seat)
            bots = [] if self.bot_delay else self._bot_steps(work)
            await self._commit(work, [step, *bots])
            info = self.seats[seat]
            info.push({"type": "auto_played", "seat": seat, "auto": True})
            await self._broadcast()
            if self.rules.session_money and not info.connected:
                self._maybe_schedule_close()

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

    def _maybe_schedule_close(self) -> None:
        """000: with no pending decision a disconnected session closes after 3 minutes; with
        one, the decision's time-out decides first and the wait starts after the round."""
        if self.session is not None and not self.session.is_over:
            return
        self.timers.close_after(self.srv.settings.casino_close_seconds, self.on_casino_idle_close)

    async def on_casino_idle_close(self) -> None:
        async with self.lock:
            self.timers.close_fired()
            seat = next((i for i, s in enumerate(self.seats) if s.account is not None), None)
            if seat is None or self.seats[seat].connected:
                return
            if self.session is not None and not self.session.is_over:
                return
            await self._close_casino_session("disconnected")
            self._vacate(seat)

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

    # ------------------------------------------------------------------------------ output
    async def update_for(self, seat: int, *, full: bool = False) -> P.TableUpdate:
        """The next update for ``seat``: what changed since its previous one, or all of it
        when ``full`` (or when the seat is due a full one: it just joined or reconnected)."""
        info = self.seats[seat]
        events, info.pending = info.pending, []
        return self._update(seat, events, full=full)

    def _update(
        self, seat: int | None, events: list[dict[str, Any]], *, full: bool = False
    ) -> P.TableUpdate:
        credit = self.credit if self.casino_session is not None else None
        version, seats = self.public_seats()
        info = self.seats[seat] if seat is not None else None
        sent = None if full or info is None else info.notes_sent
        full, log_from, notes = notes_for(self.log, self.notes_total, sent)
        changed = full or info is None or info.seats_sent != version
        update = table_update(
            table=self.id,
            game=self.game,
            state_no=self.state_no,
            status=self.status,
            seat=seat,
            seats=seats if changed else None,
            session=self.session,
            events=events,
            time_left=self.timers.time_left(),
            full=full,
            log=notes,
            log_from=log_from,
            extra_view={"credit": credit} if self.rules.session_money else None,
            recent=list(info.recent) if full and info is not None else None,
        )
        if info is not None:  # built: this seat now has these notes and this seat list
            info.notes_sent, info.seats_sent = self.notes_total, version
        return update

    async def _broadcast(self) -> None:
        if self.srv.cluster is not None:
            self.srv.cluster.publish_summary(self.id, self.summary())
        for i, info in enumerate(self.seats):
            if info.account is not None and info.connected:
                await self.srv.hub.send(info.account, await self.update_for(i))
        for account in list(self.watchers):
            await self.srv.hub.send(account, self._watch_update(account))

    # ------------------------------------------------------------------------------ recovery
    async def recover(self) -> dict[str, Any]:
        """Resume after a restart: rebuild the unfinished hand from its seed and actions; a
        casino hand is completed by the default strategy, settled and its session closed."""
        report: dict[str, Any] = {"table": self.id, "resumed": False, "completed": False}
        async with self.srv.db.session() as db:
            hand = await hands.unfinished(db, self.id)
            cs = await money.open_session_at(db, self.id)
            if cs is not None:  # committed state: the session, its owner, its credit
                self.casino_session, self.credit = cs.id, cs.credit
                self._seat(0, cs.account, self.seats[0].username)
            if hand is None:
                if cs is not None:
                    await self._close_casino_session("restart")
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
        self.session, self.hand_id, self.seq = game, hand.id, len(steps)
        self.status = "playing"
        self.state_no += 1
        report["resumed"] = True
        report["actions_replayed"] = len(steps)
        if self.rules.on_leave == "finish":
            async with self.lock:
                await self._finish_by_default()
                await self._close_casino_session("restart")
                self._vacate(0)
            report["completed"] = True
            report["result"] = game.result()
        else:
            self._schedule_decision()
            self._schedule_bot()
        return report


async def run_op(actor: TableActor, op: str, account: int, username: str, args: list[Any]) -> Any:
    """A lobby operation (REST) on a table, by name: here, or sent by another process."""
    if op == "join":
        return await actor.join(account, username)
    if op == "leave":
        return await actor.leave(account)
    if op == "start":
        return await actor.start(account)
    if op == "topup":
        amount, key = args
        return await actor.top_up(account, amount, key)
    raise TableError(f"no table operation {op!r}", "malformed")


def game_commitment(seed: str) -> str:
    return commitment(seed)


def new_table_config(game: str, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Validate a create-table request; returns (config, seats). Raises typed errors."""
    return find_game(game).table_config(body)
