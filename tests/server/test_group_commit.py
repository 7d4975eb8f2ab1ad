"""Group commit (store/db.py): the tables' writes are committed together, each caller answered
only after its commit, and one failing write fails alone."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store import accounts, ledger
from mazziere.server.store.db import Database


def _move(account: int, cents: int, key: str):  # type: ignore[no-untyped-def]
    async def job(db: AsyncSession) -> bool:
        return await ledger.post(
            db, key, "test", "", [(ledger.wallet(account), -cents), (ledger.HOUSE, cents)]
        )

    return job


async def test_concurrent_writes_share_commits_and_each_waits_for_its_own(
    database: Database,
) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "gina", "correct horse", 10_000)
    before = database.batches
    results = await asyncio.gather(
        *(database.commit_together(_move(acc.id, 10, f"k{i}")) for i in range(100))
    )
    assert results == [True] * 100
    commits = database.batches - before
    assert 1 <= commits < 100  # grouped: far fewer commits than writes
    async with database.session() as db:  # answered: so committed, visible to anyone
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 10_000 - 1_000
        assert (await ledger.check(db)).ok


async def test_a_failing_write_fails_alone_and_writes_nothing(database: Database) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "hugo", "correct horse", 100)
    jobs = [
        _move(acc.id, 30, "a"),
        _move(acc.id, 500, "too-much"),  # more than the balance: refused by the ledger
        _move(acc.id, 30, "b"),
    ]
    got = await asyncio.gather(*(database.commit_together(j) for j in jobs), return_exceptions=True)
    assert got[0] is True and got[2] is True
    assert isinstance(got[1], ledger.InsufficientFunds)
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 40
        assert (await ledger.check(db)).ok


async def test_a_lone_failing_write_raises_its_own_error(database: Database) -> None:
    async def bad(db: AsyncSession) -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await database.commit_together(bad)
    assert await database.commit_together(_noop) == 7  # the writer goes on


async def _noop(db: AsyncSession) -> int:
    return 7


async def test_steps_of_many_jobs_are_inserted_together_and_a_clash_fails_alone(
    database: Database,
) -> None:
    """record_steps defers its rows to the end of the group commit (one insert for the batch);
    a job whose steps clash with recorded ones (same hand, same number) fails alone."""
    from sqlalchemy import func, select

    from mazziere.game import Step
    from mazziere.server.store import hands, table_rows
    from mazziere.server.store.models import HandAction

    async with database.write() as db:
        row = await table_rows.create(db, "uno", "t", {}, 2, None, 30.0)
        hand = await hands.open_hand(db, row.id, "uno", "ab" * 32, {}, [{}, {}])
    step = Step(seat=0, action="draw", actor="player", events=[("draws 1", None, None)])

    def record(first: int):  # type: ignore[no-untyped-def]
        async def job(db: AsyncSession) -> None:
            await hands.record_steps(db, hand, first, [step, step])

        return job

    got = await asyncio.gather(
        *(database.commit_together(record(first)) for first in (1, 3, 1, 5)),
        return_exceptions=True,
    )
    assert got[0] is None and got[1] is None and got[3] is None
    assert isinstance(got[2], Exception)  # steps 1-2 again: refused, nothing of it written
    async with database.session() as db:
        seqs = (await db.scalars(select(HandAction.seq).where(HandAction.hand_id == hand))).all()
        assert sorted(seqs) == [1, 2, 3, 4, 5, 6]
        assert await db.scalar(select(func.count()).select_from(HandAction)) == 6


async def test_fences_of_a_batch_are_checked_together_and_a_moved_table_fails_alone(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table's fencing check in one group commit is one statement at the end of the
    batch (docs/scaling.md); a table another process took is refused alone: its write is
    rolled back while the other tables' writes commit."""
    from mazziere.server.store import table_rows
    from mazziere.server.store.models import GameTable

    async with database.write() as db:
        rows = [await table_rows.create(db, "uno", f"t{i}", {}, 2, None, 30.0) for i in range(3)]
    ids = [r.id for r in rows]
    async with database.write() as db:
        for t in ids:
            assert await table_rows.take_fence(db, t, 1)
        assert await table_rows.take_fence(db, ids[1], 2)  # another process took table 1

    def job(table_id: int):  # type: ignore[no-untyped-def]
        async def write(db: AsyncSession) -> int:
            await table_rows.check_fence(db, table_id, 1)
            await table_rows.set_status(db, table_id, "playing")
            return table_id

        return write

    statements: list[str] = []

    def count(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if "fence" in statement and statement.lstrip().upper().startswith("UPDATE"):
            statements.append(statement)

    from sqlalchemy import event

    from mazziere.server.store import hot

    engine = database.engine.sync_engine if database._sync is None else None
    sync_bind = engine or database._sync.kw["bind"]  # type: ignore[union-attr]
    event.listen(sync_bind, "before_cursor_execute", count)
    raw = hot.Hot.column  # on PostgreSQL the check runs on the driver, past SQLAlchemy's events

    async def column(self, db, params):  # type: ignore[no-untyped-def]
        if await hot.driver(db) is not None:
            count(None, None, self.sql)
        return await raw(self, db, params)

    monkeypatch.setattr(hot.Hot, "column", column)
    try:
        got = await asyncio.gather(
            *(database.commit_together(job(t)) for t in ids), return_exceptions=True
        )
    finally:
        event.remove(sync_bind, "before_cursor_execute", count)
    assert got[0] == ids[0] and got[2] == ids[2]
    assert isinstance(got[1], table_rows.Fenced) and got[1].code == "table_moved"
    async with database.session() as db:
        status = {t: (await db.get(GameTable, t)).status for t in ids}  # type: ignore[union-attr]
    assert status == {ids[0]: "playing", ids[1]: "open", ids[2]: "playing"}
    # the first (grouped) attempt checked the three fences in one statement; the retry job by
    # job made one each
    assert len(statements) <= 1 + len(ids)
    assert statements and any(w in statements[0].upper() for w in (" IN ", "UNNEST"))


POSTGRESQL_ONLY = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
"""SQLite has one writer at a time: no row locks, no deadlock."""


@POSTGRESQL_ONLY
async def test_a_players_limit_check_leaves_the_tables_they_created_free_to_write(
    database: Database,
) -> None:
    """A stake's or a top-up's limit check locks the player's account row against the other
    limit checks of that account (``FOR NO KEY UPDATE``), not against the foreign-key check
    PostgreSQL makes when a row naming the account is written a second time in one transaction
    (a table the player created: its status, then its fence, at the end of a group commit).
    Locked ``FOR UPDATE``, the account held that batch waiting, and two processes' batches
    could wait on each other (the player's stake waiting for the house's balance the other
    batch held)."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from mazziere.server.store import limits, table_rows

    async with database.write() as db:
        acc = await accounts.sign_up(db, "ines", "correct horse", 10_000)
        row = await table_rows.create(db, "casino", "t", {}, 1, acc.id, 30.0)
        assert await table_rows.take_fence(db, row.id, 1)
    async with database.write() as limit_check:
        await limits.check_top_up(limit_check, acc.id, None, 100, datetime.now(UTC), 100_000)
        async with database.write() as batch:  # waits at most 5 s for a lock, then fails
            await batch.execute(text("SET LOCAL lock_timeout = '5s'"))
            await table_rows.set_status(batch, row.id, "playing")
            await table_rows.check_fences(batch, [(row.id, 1)])


@POSTGRESQL_ONLY
async def test_a_group_commit_chosen_as_a_deadlocks_victim_is_run_again(
    database: Database,
) -> None:
    """Two transactions wait on each other: PostgreSQL refuses one (``deadlock_detected``).
    When that one is a group commit, it is run again once the other committed, and its caller
    gets its result, not the error."""
    from sqlalchemy import select, text

    from mazziere.server.store.models import Account

    async with database.write() as db:
        a = (await accounts.sign_up(db, "jana", "correct horse", 0)).id
        b = (await accounts.sign_up(db, "kim", "correct horse", 0)).id
    lock = select(Account.id).with_for_update()
    first_holds_a, other_waits = asyncio.Event(), asyncio.Event()
    runs = 0

    async def job(db: AsyncSession) -> int:  # a, then b
        nonlocal runs
        runs += 1
        await db.execute(text("SET LOCAL deadlock_timeout = '100ms'"))  # the one refused
        await db.execute(lock.where(Account.id == a))
        if runs == 1:
            first_holds_a.set()
            await other_waits.wait()
        await db.execute(lock.where(Account.id == b))
        return runs

    async def other() -> None:  # b, then a: waits first, so the group commit closes the cycle
        async with database.write() as db:
            await db.execute(text("SET LOCAL deadlock_timeout = '60s'"))
            await db.execute(lock.where(Account.id == b))
            await first_holds_a.wait()
            await db.execute(lock.where(Account.id == a))

    async def waiting_on_a_lock() -> None:
        waits = text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        while True:
            async with database.session() as db:
                if await db.scalar(waits):
                    other_waits.set()
                    return
            await asyncio.sleep(0.01)

    rerun = database.rerun
    committed = database.commit_together(job)
    got, _, _ = await asyncio.wait_for(asyncio.gather(committed, other(), waiting_on_a_lock()), 60)
    assert got == 2 and database.rerun == rerun + 1
