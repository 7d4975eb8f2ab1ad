"""The database: an async SQLAlchemy engine (SQLite file by default, PostgreSQL by URL) with
the schema brought to the latest Alembic migration at start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` and ``sqlite:///`` URLs; use the async drivers."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///") and "+aiosqlite" not in url:
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


def sqlite_url(data_dir: Path) -> str:
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{data_dir / 'mazziere.sqlite3'}"


def _alembic_upgrade(connection: Connection) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


class Database:
    """Engine and session factory; ``migrate()`` applies the Alembic migrations."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, object] = {}
        if not self.is_sqlite:
            kwargs.update(pool_size=10, max_overflow=20)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time: queue writers here instead of letting them spin on
        # the file lock ("database is locked"); PostgreSQL takes concurrent writers.
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if self.is_sqlite else None

    async def migrate(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(_alembic_upgrade)

    def session(self) -> AsyncSession:
        """A session for reading (or for a caller that manages its own transaction)."""
        return self.sessions()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session in one transaction, committed on exit, rolled back on an exception."""
        if self._write_lock is None:
            async with self.sessions() as db, db.begin():
                yield db
            return
        async with self._write_lock, self.sessions() as db, db.begin():
            yield db

    async def close(self) -> None:
        await self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: object, _record: object) -> None:
    cur = dbapi_conn.cursor()  # type: ignore[attr-defined]
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL: a committed transaction survives a crash
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
