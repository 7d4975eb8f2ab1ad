"""A casino table's money: the session credit a player tops up from the wallet, the checks a
stake passes before a round opens (the stake itself moves in the transaction that opens the
hand, :meth:`~mazziere.server.table.play.TablePlay._begin_hand`), and the session's close,
which pays the rest back to the wallet: when the player leaves, after a restart, or after the
idle wait of a disconnected player (docs/rules/casino.md).

Every cent moves in the ledger in the same transaction as the table's change
(``store/money.py``); the actor takes the new credit only once that committed. The wallet is
the server's (:mod:`mazziere.server.wallet.base`) or the operator's, whose debit is taken
over HTTP before that transaction and given back if it fails (docs/wallet.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.game import TableGame, new_seed
from mazziere.server import admission
from mazziere.server import protocol as P
from mazziere.server.store import limits
from mazziere.server.table.errors import TableError
from mazziere.server.table.state import TableState


class CasinoMoney(TableState):
    """The casino session's credit: top-up, the stake's checks, closing the session."""

    async def _top_up(self, account: int, amount: int, key: str | None) -> int:
        """Move cents from the wallet into this table's session credit (opening it)."""
        if not self.rules.session_money:
            raise TableError("only casino tables hold a session credit", "not_casino")
        if self.seat_of(account) is None:
            raise TableError("sit at the table first", "not_seated")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise TableError("a top-up is a positive number of cents", "bad_amount")
        self.srv.attestation.require_for_money()
        session, wallet = self.credit_session, self.srv.wallet
        repeated = False  # sent again after it was recorded: moves nothing, refused by nothing
        if key is not None:
            async with self.srv.db.session() as db:
                repeated = await wallet.repeated(db, key)
        if wallet.remote and not repeated:  # refused before the operator's wallet is debited
            async with self.srv.db.session() as db:
                await self._top_up_checks(db, account, session, amount)
        # the debit is taken with no transaction open (docs/wallet.md); leaving its block by
        # an exception (a check refused, the table was fenced) gives the money back
        async with (
            wallet.debit(account, self.id, session, amount, key) as debit,
            self.srv.db.write() as db,
        ):
            await self._fenced(db)
            if not repeated:
                await self._top_up_checks(db, account, session, amount)
            sid, credit = await debit.record(db)
        # committed: only now does the table hold the session (a refused first top-up
        # rolled its row back, and its id may be given to another session)
        self.credit_session, self.credit = sid, credit
        self.state_no += 1
        await self._broadcast()
        return credit

    async def _top_up_checks(
        self, db: AsyncSession, account: int, session: int | None, amount: int
    ) -> None:
        """What refuses a top-up before any money moves (a typed error): play for money
        allowed (self-exclusion, the exclusion register), the player's limits and the
        session cap."""
        await admission.require_money_allowed(db, self.srv.settings, account)
        await limits.check_top_up(db, account, session, amount, *self._limit_terms())

    def _limit_terms(self) -> tuple[datetime, int]:
        """What a top-up's or a stake's limit checks read besides the ledger: the date now and
        the operator's cap per credit session (docs/rules/platform.md "Limits and reality
        checks")."""
        return self.srv.clock.wall(), self.srv.settings.casino_session_cap

    def _new_round(self, account: int, state_no: int, amount: int) -> tuple[TableGame, str, int]:
        """The round a stake of ``amount`` starts, dealt from a fresh seed, and the credit
        left after the stake: ``(game, seed, credit_after)``. A stake the table or the rules
        refuse (``StakeError``) raises here, before any money moves."""
        if self.rules.starts_with != "stake":
            raise TableError("stakes are for casino tables", "not_casino")
        if self.seat_of(account) is None:
            raise TableError("sit at the table first", "not_seated")
        if state_no != self.state_no:
            raise TableError("the table moved on: redraw and decide again", "stale_state")
        if self.table_game is not None and not self.table_game.is_over:
            raise TableError("a round is in progress", "round_in_progress")
        if self.credit_session is None:
            raise TableError("top up the session credit first", "no_credit")
        self.srv.attestation.require_for_money()
        credit = self.credit or 0
        seed = new_seed()
        bots = {i: s.bot for i, s in enumerate(self.seats) if s.bot}
        game = self.kind.new(self.config, len(self.seats), bots, seed, amount, credit)
        return game, seed, credit - amount

    async def _close_credit_session(self, why: str) -> None:
        if self.credit_session is None:
            return
        async with self.srv.db.write() as db:
            await self._fenced(db)
            rest = await self.srv.wallet.close(db, self.credit_session, why)
        self.srv.wallet.closed()  # the transfer wallet's credit leaves now (docs/wallet.md)
        self.credit_session = None
        self.credit = None
        self._note(P.SessionClosed(reason=why, credited=rest))
        for info in self.seats:
            if info.account is not None:
                info.push({"type": "session_closed", "credited": rest, "reason": why})

    def _maybe_schedule_close(self) -> None:
        """000: with no pending decision a disconnected session closes after 3 minutes; with
        one, the decision's time-out decides first and the wait starts after the round."""
        if self.table_game is not None and not self.table_game.is_over:
            return
        self.timers.close_after(self.srv.settings.casino_close_seconds, self.on_casino_idle_close)

    async def on_casino_idle_close(self) -> None:
        async with self.lock:
            self.timers.close_fired()
            seat = next((i for i, s in enumerate(self.seats) if s.account is not None), None)
            if seat is None or self.seats[seat].connected:
                return
            if self.table_game is not None and not self.table_game.is_over:
                return
            await self._close_credit_session("disconnected")
            self._vacate(seat)
