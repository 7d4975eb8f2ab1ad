"""``mazziere ledger check`` fails (exit 1, a message naming the fault) on
books whose owner row is missing, sessions sharing a credit, a closed session still holding
money and an open session whose table is gone; each fault is planted in the database directly,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from mazziere.cli import app
from mazziere.server.store import accounts, ledger
from mazziere.server.store.db import Database
from mazziere.server.store.models import CreditSession, GameTable

runner = CliRunner()
Plant = Callable[[Database], Awaitable[None]]


async def _two_players_and_a_table(database: Database) -> tuple[int, int, int]:
    async with database.write() as db:
        a = await accounts.sign_up(db, "amelia", "amber tide 41", 1_000)
        b = await accounts.sign_up(db, "bruna", "brisk lantern 7", 1_000)
        t = GameTable(game="casino", name="t", config={}, seats=[None], status="open")
        db.add(t)
        await db.flush()
        return a.id, b.id, t.id


async def _open_session(database: Database, account: int, table: int, credit: int = 0) -> int:
    async with database.write() as db:
        cs = CreditSession(account_id=account, table_id=table)
        db.add(cs)
        await db.flush()
        if credit:
            await ledger.post(
                db,
                f"plant-topup:{cs.id}",
                "topup",
                f"casino:{cs.id}",
                [(ledger.wallet(account), -credit), (ledger.casino_book(cs.id), credit)],
            )
        return cs.id


async def plant_book_without_owner(database: Database) -> None:
    a, _, _ = await _two_players_and_a_table(database)
    async with database.write() as db:  # money in the book of a session that was never stored
        await ledger.post(
            db, "stranded", "topup", "casino:77", [(ledger.wallet(a), -100), ("casino:77", 100)]
        )


async def plant_sessions_sharing_an_account(database: Database) -> None:
    a, b, table = await _two_players_and_a_table(database)
    sid = await _open_session(database, b, table, 500)
    async with database.write() as db:  # A's top-up lands in B's session book
        await ledger.post(
            db,
            "shared",
            "topup",
            f"casino:{sid}",
            [(ledger.wallet(a), -100), (ledger.casino_book(sid), 100)],
        )


async def plant_two_open_sessions_at_one_table(database: Database) -> None:
    a, b, table = await _two_players_and_a_table(database)
    await _open_session(database, a, table, 100)
    await _open_session(database, b, table, 100)


async def plant_closed_session_with_money(database: Database) -> None:
    a, _, table = await _two_players_and_a_table(database)
    sid = await _open_session(database, a, table, 300)
    async with database.write() as db:
        await db.execute(
            text("UPDATE casino_sessions SET status = 'closed' WHERE id = :i"), {"i": sid}
        )


async def plant_open_session_without_table(database: Database) -> None:
    a, _, table = await _two_players_and_a_table(database)
    await _open_session(database, a, table, 0)
    async with database.engine.connect() as conn:  # foreign keys off for this one connection
        if database.is_sqlite:
            await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        else:
            await conn.exec_driver_sql("SET session_replication_role = replica")
        await conn.execute(text("DELETE FROM game_tables WHERE id = :i"), {"i": table})
        await conn.commit()


CASES: dict[str, tuple[Plant, str]] = {
    "book_without_owner": (plant_book_without_owner, "casino:77: ledger account without owner"),
    "sessions_sharing_an_account": (plant_sessions_sharing_an_account, "shares its ledger account"),
    "two_open_sessions_at_one_table": (
        plant_two_open_sessions_at_one_table,
        "open casino sessions (1, 2) sharing its credit",
    ),
    "closed_session_with_money": (
        plant_closed_session_with_money,
        "is closed but its book holds 300",
    ),
    "open_session_without_table": (plant_open_session_without_table, "is open but table 1 is gone"),
}


def _check(url: str) -> tuple[int, str]:
    result = runner.invoke(app, ["ledger", "check", "--database-url", url])
    return result.exit_code, result.output


def _planted(url: str, plant: Plant) -> None:
    async def go() -> None:
        database = Database(url)
        try:
            await database.migrate()
            await plant(database)
        finally:
            await database.close()

    asyncio.run(go())


@pytest.mark.parametrize("case", sorted(CASES))
def test_ledger_check_fails_on_planted_fault(db_url: str, case: str) -> None:
    plant, words = CASES[case]
    _planted(db_url, plant)
    code, out = _check(db_url)
    assert code == 1, out
    assert words in out, out
    assert "PROBLEM:" in out and "ledger: " in out


def test_ledger_check_passes_on_a_sound_ledger(db_url: str, tmp_path: Path) -> None:
    async def sound(database: Database) -> None:
        a, _, table = await _two_players_and_a_table(database)
        sid = await _open_session(database, a, table, 400)
        async with database.write() as db:
            await ledger.post(
                db,
                "close",
                "session_close",
                f"casino:{sid}",
                [(ledger.casino_book(sid), -400), (ledger.wallet(a), 400)],
            )
            await db.execute(
                text("UPDATE casino_sessions SET status = 'closed' WHERE id = :i"), {"i": sid}
            )

    _planted(db_url, sound)
    code, out = _check(db_url)
    assert code == 0 and "ledger: OK" in out, out
