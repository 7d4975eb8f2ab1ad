"""Hot statements (store/hot.py): written once, run on asyncpg itself on PostgreSQL and through
the session elsewhere; either way inside the session's transaction, so a rollback (of the
transaction or of a savepoint) undoes them with everything else."""

from __future__ import annotations

import pytest

from mazziere.server.store import accounts, ledger
from mazziere.server.store import tables as table_rows
from mazziere.server.store.db import Database
from mazziere.server.store.hot import driver
from mazziere.server.store.models import GameTable


class _Boom(Exception):
    pass


async def _table(database: Database) -> int:
    async with database.write() as db:
        row = await table_rows.create(db, "uno", "t", {}, 2, None, 30.0)
        return int(row.id)


async def _status(database: Database, table_id: int) -> str:
    async with database.session() as db:
        row = await db.get(GameTable, table_id)
        assert row is not None
        return row.status


async def test_hot_statements_run_on_the_driver_only_on_postgresql(database: Database) -> None:
    async with database.session() as db, db.begin():
        pg = await driver(db)
        if database.is_sqlite:
            assert pg is None
        else:
            assert pg is not None and pg.is_in_transaction()
            assert await driver(db) is pg  # one connection for the whole transaction


async def test_hot_statements_roll_back_with_the_session(database: Database) -> None:
    table_id = await _table(database)
    with pytest.raises(_Boom):
        async with database.session() as db, db.begin():
            await table_rows.set_status(db, table_id, "playing")
            raise _Boom
    assert await _status(database, table_id) == "open"
    async with database.session() as db, db.begin():
        await table_rows.set_status(db, table_id, "playing")
    assert await _status(database, table_id) == "playing"


async def test_hot_and_orm_statements_share_one_transaction(database: Database) -> None:
    """An ORM write and a hot write in one transaction see each other and commit together."""
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "olga", "correct horse", 500)  # ORM + ledger (hot)
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 500  # hot read of it
        await ledger.post(db, "k", "test", "", [(ledger.wallet(acc.id), -200), (ledger.HOUSE, 200)])
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 300
        assert (await ledger.check(db)).ok


async def test_a_hot_write_inside_a_savepoint_is_undone_with_it(database: Database) -> None:
    table_id = await _table(database)
    async with database.session() as db, db.begin():
        await table_rows.set_status(db, table_id, "playing")
        with pytest.raises(_Boom):
            async with db.begin_nested():
                await table_rows.set_status(db, table_id, "closed")
                raise _Boom
        await table_rows.set_status(db, table_id, "playing")  # the transaction goes on
    assert await _status(database, table_id) == "playing"
