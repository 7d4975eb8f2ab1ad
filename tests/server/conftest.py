"""Server test fixtures: every database test runs on SQLite and on PostgreSQL (a fresh
database per test, created on the server at 127.0.0.1:5432 when one is reachable)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

PG_ADMIN = os.environ.get("MAZZIERE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _pg_reachable() -> bool:
    try:
        import asyncpg

        async def probe() -> None:
            conn = await asyncpg.connect(PG_ADMIN, timeout=3)
            await conn.close()

        asyncio.run(probe())
        return True
    except Exception:
        return False


PG_OK = _pg_reachable()
if os.environ.get("CI") and not PG_OK:  # CI has PostgreSQL: never skip it silently there
    raise RuntimeError(f"PostgreSQL is not reachable at {PG_ADMIN}")


def _create_pg_database() -> str:
    import asyncpg

    name = f"mz_{uuid.uuid4().hex[:12]}"

    async def create() -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'CREATE DATABASE "{name}"')
        await conn.close()

    asyncio.run(create())
    return PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"


def _drop_pg_database(url: str) -> None:
    import asyncpg

    name = url.rsplit("/", 1)[1]

    async def drop() -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()

    asyncio.run(drop())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    if not PG_OK:
        pytest.skip("PostgreSQL is not reachable here (CI has it)")
    url = _create_pg_database()
    try:
        yield url
    finally:
        _drop_pg_database(url)


@pytest.fixture
async def database(db_url: str) -> AsyncIterator[object]:
    from mazziere.server.store.db import Database

    db = Database(db_url)
    await db.migrate()
    try:
        yield db
    finally:
        await db.close()
