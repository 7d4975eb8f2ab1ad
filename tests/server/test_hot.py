"""Hot statements (store/hot.py): written once, run on asyncpg itself on PostgreSQL, on sqlite3
itself in a group commit on SQLite, and through the session elsewhere; always inside the
session's transaction, so a rollback (of the transaction or of a savepoint) undoes them with
everything else."""

from __future__ import annotations

import gc
import sqlite3
from datetime import datetime

import pytest
from sqlalchemy import text as sa_text

from mazziere.game import Step
from mazziere.server.store import accounts, hands, ledger, table_rows
from mazziere.server.store.db import Database
from mazziere.server.store.hot import driver, json_dumps, json_loads, lite
from mazziere.server.store.models import GameTable, Hand, HandAction, HandPlayer


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


async def _a_hand(db: object, table_id: int, account: int) -> int:
    """A hand opened, two steps, closed and a posting: every hot statement but the fences'."""
    hand = await hands.open_hand(
        db,  # type: ignore[arg-type]
        table_id,
        "uno",
        "ab" * 16,
        {"preset": "mattel", "n": [1, 2]},
        [{"account": account}, {"bot": "greedy"}],
    )
    steps = [
        Step(0, "play r5", "player", [("played r5", None, None)]),
        Step(1, "draw", "bot", [("drew b7", 1, None), ("drew", None, 1)]),
    ]
    await hands.record_steps(db, hand, 1, steps)  # type: ignore[arg-type]
    await hands.close_hand(db, hand, {"winner": 0, "points": [0, 12]})  # type: ignore[arg-type]
    await ledger.post(
        db,  # type: ignore[arg-type]
        f"h{hand}",
        "test",
        str(hand),
        [(ledger.wallet(account), -50), (ledger.HOUSE, 50)],
    )
    return hand


def _rows_of(hand: Hand, seats: list[HandPlayer], steps: list[HandAction]) -> object:
    """What the ORM reads back of a hand, without its ids and clocks (types checked)."""
    assert isinstance(hand.started_at, datetime) and isinstance(hand.ended_at, datetime)
    assert all(isinstance(s.created_at, datetime) for s in steps)
    return (
        (hand.game, hand.seed, hand.commitment, hand.setup, hand.players, hand.status),
        hand.result,
        [(p.seat, p.account_id is not None, p.is_bot) for p in seats],
        [(s.seq, s.seat, s.action, s.actor, s.events) for s in steps],
    )


async def test_on_sqlite_a_group_commit_runs_the_hot_statements_on_its_sqlite3_connection(
    database: Database,
) -> None:
    """store/hot.py: in a group commit on SQLite the hot statements run on the session's own
    sqlite3 connection, compiled once, their parameters converted as SQLAlchemy would: what
    the ORM reads back is the same as after the session path, and the money adds up."""
    if not database.is_sqlite:
        pytest.skip("the sqlite3 path (PostgreSQL runs them on asyncpg)")
    table_id = await _table(database)
    async with database.write() as db:
        acc = await accounts.sign_up(db, "lina", "correct horse", 500)
    seen: list[object] = []

    conns: list[sqlite3.Connection] = []

    async def grouped(db: object) -> int:
        conn = lite(db)
        assert isinstance(conn, sqlite3.Connection)
        conn.set_trace_callback(seen.append)  # the steps are inserted at the batch's end
        conns.append(conn)
        return await _a_hand(db, table_id, acc.id)

    raw = await database.commit_together(grouped)
    conns[0].set_trace_callback(None)
    assert any("INSERT INTO hand_actions" in str(s) for s in seen)  # on sqlite3 itself
    async with database.write() as db:
        assert lite(db) is None  # an aiosqlite session: through SQLAlchemy
        through = await _a_hand(db, table_id, acc.id)
    got = []
    async with database.session() as db:
        for hand_id in (raw, through):
            hand = await hands.get(db, hand_id)
            assert hand is not None
            got.append(
                _rows_of(
                    hand,
                    await hands.players_of(db, hand_id),
                    await hands.actions_of(db, hand_id),
                )
            )
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 400
        assert (await ledger.check(db)).ok
    assert got[0] == got[1]


async def test_a_refused_posting_in_a_group_commit_is_undone_and_the_job_goes_on(
    database: Database,
) -> None:
    """The ledger's savepoint around a posting (on SQLite) holds on the group commit's own
    connection too: a refused posting writes nothing, and the job's other postings commit."""
    async with database.write() as db:
        acc = await accounts.sign_up(db, "ugo", "correct horse", 500)
    me = ledger.wallet(acc.id)

    async def job(db: object) -> None:
        await ledger.post(db, "a", "test", "", [(me, -100), (ledger.HOUSE, 100)])  # type: ignore[arg-type]
        with pytest.raises(ledger.InsufficientFunds):
            await ledger.post(db, "b", "test", "", [(me, -900), (ledger.HOUSE, 900)])  # type: ignore[arg-type]
        await ledger.post(db, "c", "test", "", [(me, -50), (ledger.HOUSE, 50)])  # type: ignore[arg-type]

    await database.commit_together(job)
    async with database.session() as db:
        assert await ledger.balance(db, me) == 350
        assert (await ledger.check(db)).ok


async def test_json_columns_are_written_by_one_encoder_on_every_path(database: Database) -> None:
    """store/hot.py ``json_dumps`` writes every JSON column: the ORM's, the hot statements'
    (on sqlite3 in a group commit, through the session, on asyncpg), compact and in UTF-8,
    and what is read back is what was written."""
    table_id = await _table(database)
    async with database.write() as db:
        acc = await accounts.sign_up(db, "jose", "correct horse", 500)
    hands_made = [await database.commit_together(lambda db: _a_hand(db, table_id, acc.id))]
    async with database.write() as db:
        hands_made.append(await _a_hand(db, table_id, acc.id))
        row = await table_rows.create(
            db, "uno", "tàvolo", {"nome": "Città", "n": [1]}, 2, None, 30.0
        )
    columns = [("game_tables", "config", row.id)]
    columns += [("hands", "setup", h) for h in hands_made]
    columns += [("hands", "result", h) for h in hands_made]
    async with database.session() as db:
        for h in hands_made:
            steps = await hands.actions_of(db, h)
            columns += [("hand_actions", "events", s.id) for s in steps]
        for table, column, key in columns:
            raw = (
                await db.execute(
                    sa_text(f"SELECT CAST({column} AS TEXT) FROM {table} WHERE id = :k"), {"k": key}
                )
            ).scalar_one()
            assert isinstance(raw, str) and raw == json_dumps(json_loads(raw)), (table, raw)
        config = (await db.get(GameTable, row.id)).config  # type: ignore[union-attr]
        assert config == {"nome": "Città", "n": [1]}
        assert "Città" in json_dumps(config)


async def test_a_group_commit_leaves_no_cycle_for_the_garbage_collector(
    database: Database,
) -> None:
    """The connection a hot statement caches for its transaction holds that transaction weakly:
    held strongly, every group commit would leave its session in a reference cycle that only
    the garbage collector could free, and under load those cycles would set off nearly every
    collection (mazziere/server/store/hot.py, ``_LITE``)."""
    table_id = await _table(database)

    async def job(db: object) -> None:
        await table_rows.set_status(db, table_id, "playing")  # type: ignore[arg-type]
        await table_rows.set_status(db, table_id, "open")  # type: ignore[arg-type]

    for _ in range(3):
        await database.commit_together(job)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(20):
            await database.commit_together(job)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("sqlalchemy")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
    assert await _status(database, table_id) == "open"
