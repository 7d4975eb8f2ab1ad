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
    from mazziere.server.store import hands
    from mazziere.server.store import tables as table_rows
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
