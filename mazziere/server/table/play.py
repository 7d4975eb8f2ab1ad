"""A table's play: opening a hand, applying steps and the computer players' moves, the commit
that stores them with the money they move, what each seat and spectator sees of them, and
the pace of play: a paced table's computer moves one per thinking timer, the decision timer
and its time-out (docs/architecture.md "The table actor").

Commit, then change in memory: steps are applied to a copy of the game, stored in one
transaction, and only once that committed does the actor take the copy as its game and move
its state number on."""

from __future__ import annotations

import copy
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere import wire
from mazziere.game import Step, TableGame, commitment
from mazziere.server import admission
from mazziere.server import protocol as P
from mazziere.server.store import limits, money, results, table_rows
from mazziere.server.store.hands import close_hand, open_hand, record_steps
from mazziere.server.table.money import CasinoMoney

MAX_BOT_STEPS = 20_000

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


class TablePlay(CasinoMoney):
    """Hands, steps, the computer players and the timers that pace them."""

    async def _begin_hand(
        self,
        game: TableGame,
        seed: str,
        stake: int | None = None,
        credit_after: int | None = None,
    ) -> None:
        """Open the hand record (and move the stake) in one transaction; the actor takes the
        new hand and the credit after the stake only once it committed."""
        players, session = self._players(), self.credit_session

        async def write(db: AsyncSession) -> int:
            await self._fenced(db)
            if stake is not None and session is not None:
                await admission.require_stake_allowed(db, self.srv.settings, session)
                await limits.check_stake(db, session, stake, *self._limit_terms())
            hand_id = await open_hand(db, self.id, self.game, seed, game.setup, players)
            if stake is not None and session is not None:
                await money.stake(db, session, hand_id, stake)
            await table_rows.set_status(db, self.id, "playing")
            return hand_id

        hand_id = await self._commit_together(write)
        if stake is not None and session is not None:
            self.srv.metrics.money(self.game, staked=stake)
        self.table_game, self.hand_id, self.seq = game, hand_id, 0
        self.hand_seed = seed
        if credit_after is not None:
            self.credit = credit_after
        self.status = "playing"
        self.state_no += 1
        self._note(P.HandStarted(hand=hand_id, commitment=commitment(seed)))
        for i in range(len(self.seats)):
            self.seats[i].push({"type": "hand_started", "id": hand_id})
        await self._run_bots_and_store()
        await self._broadcast()

    # ------------------------------------------------------------------------------ steps
    async def _apply_and_store(self, moves: list[tuple[int, str, str]]) -> None:
        """Apply moves (refused ones raise, changing nothing), then the bots; store it all in
        one transaction with the money it moves."""
        assert self.table_game is not None and self.hand_id is not None
        work = copy.copy(self.table_game)  # the actor's game changes only after the commit
        steps = [work.apply(seat, action, actor) for seat, action, actor in moves]
        if not self.bot_delay:
            steps.extend(self._bot_steps(work))
        await self._commit(work, steps)

    def _bot_steps(self, work: TableGame, most: int = MAX_BOT_STEPS) -> list[Step]:
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
        assert self.table_game is not None
        if self.bot_delay:  # paced: the first computer move comes on its timer
            self._after_steps([])
            return
        work = copy.copy(self.table_game)
        steps = self._bot_steps(work)
        if steps:
            await self._commit(work, steps)
        else:
            self._after_steps(steps)

    async def _play_out(self) -> None:
        """Every seat is the computer's (the last player left): the match in progress is
        played to its end at once, in one commit, its result recorded as any match's."""
        if self.table_game is None or self.table_game.is_over:
            return
        work = copy.copy(self.table_game)
        steps = self._bot_steps(work)
        if steps:
            await self._commit(work, steps)

    async def _finish_by_default(self) -> None:
        """Complete the hand in progress at once: the player's default strategy decides for
        the player (casino, 000), the computer players (the bank) make their own moves."""
        assert self.table_game is not None
        for _ in range(500):
            if self.table_game.is_over:
                break
            seat = self.table_game.deciders()[0]
            work = copy.copy(self.table_game)
            steps = [] if self.seats[seat].bot is not None else [work.timeout(seat)]
            steps.extend(self._bot_steps(work))
            if not steps:
                break
            await self._commit(work, steps)

    async def _commit(self, work: TableGame, steps: list[Step]) -> None:
        """Store ``steps`` (applied to ``work``, a copy of the actor's game) in one transaction
        with the money they move; only once it committed does the actor take ``work`` as its
        game, the new sequence number and the credit (a failure leaves the actor as it was)."""
        hand_id, seq, session = self.hand_id, self.seq, self.credit_session
        assert hand_id is not None
        result = work.result() if work.is_over else None
        paid = int(result.get("payout", 0)) if result is not None and session is not None else 0
        standings = work.standings(len(self.seats)) if result is not None else None
        if self.rules.session_money:
            standings = None  # a casino round is not a match between players

        async def write(db: AsyncSession) -> None:
            await self._fenced(db)
            await record_steps(db, hand_id, seq + 1, steps)
            if result is not None:
                await close_hand(db, hand_id, result)
                if standings is not None:  # the match's results, with its end
                    await results.record(db, hand_id, self.id, self.game, standings)
                if session is not None:
                    await money.payout(db, session, hand_id, paid)
                await table_rows.set_status(db, self.id, "open")

        await self._commit_together(write)
        self.srv.metrics.money(self.game, paid=paid)
        self.table_game, self.seq = work, seq + len(steps)
        if paid and self.credit is not None:
            self.credit += paid
        self._after_steps(steps)

    def _after_steps(self, steps: list[Step]) -> None:
        assert self.table_game is not None
        if steps:
            self.state_no += 1
        wired: dict[int, dict[str, Any]] = {}  # each event object made structured once
        for step in steps:
            self.srv.metrics.decisions.labels(self.game, step.actor).inc()
            auto = step.actor == "server" and bool(step.moves)
            # what each seat sees of the step: the rule the hand history follows too
            for i, info in enumerate(self.seats):
                if info.account is not None:
                    for e in self.table_game.seen(step, i).events:
                        got = wired.get(id(e))
                        if got is None:
                            got = wired[id(e)] = wire.event(e)
                        info.push(_by_server(got, step.seat) if auto else got)
            if not self.watchers and step.actor != "server":
                continue
            public = self.table_game.seen(step, None)  # what a spectator sees
            if self.watchers:
                shown = [wired.get(id(e)) or wire.event(e) for e in public.events]
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
                        actions=[wire.action(m) for m in moves if m is not None],
                    )
                )
        if self.table_game.is_over:
            assert self.hand_id is not None
            self.status = "open"
            self._note(
                P.HandOver(hand=self.hand_id, result=self.table_game.result(), seed=self.hand_seed)
            )
        self._schedule_decision()
        self._schedule_bot()

    # ------------------------------------------------------------------------------ pace
    def _schedule_bot(self) -> None:
        """Paced table: the next computer move comes after the table's thinking time, if one
        moves then (the lock is free meanwhile: another seat's move, a catch, goes first and
        starts the wait again)."""
        self.timers.cancel_think()
        if not self.bot_delay or self.table_game is None or self.table_game.is_over:
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
            if self.table_game is None or self.table_game.is_over:
                return
            work = copy.copy(self.table_game)
            steps = self._bot_steps(work, most=1)
            if not steps:
                return
            await self._commit(work, steps)
            await self._broadcast()
            if self.rules.session_money and self.table_game.is_over and self._someone_away():
                self._maybe_schedule_close()  # the round ended on a computer move

    def _schedule_decision(self) -> None:
        self.timers.cancel_decision()
        if self.table_game is None or self.table_game.is_over:
            return
        humans = [s for s in self.table_game.deciders() if self.seats[s].bot is None]
        if not humans:
            return
        seat, state_no = humans[0], self.state_no
        self.timers.decide_within(
            self.decision_seconds, lambda: self.on_decision_timeout(seat, state_no)
        )

    async def on_decision_timeout(self, seat: int, state_no: int) -> None:
        async with self.lock:
            if state_no != self.state_no or self.table_game is None or self.table_game.is_over:
                return
            if seat not in self.table_game.deciders():
                return
            work = copy.copy(self.table_game)
            step = work.timeout(seat)
            bots = [] if self.bot_delay else self._bot_steps(work)
            await self._commit(work, [step, *bots])
            info = self.seats[seat]
            info.push({"type": "auto_played", "seat": seat, "auto": True})
            await self._broadcast()
            if self.rules.session_money and not info.connected:
                self._maybe_schedule_close()
