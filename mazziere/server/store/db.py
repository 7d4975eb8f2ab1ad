"""The database: an async SQLAlchemy engine (SQLite file by default, PostgreSQL by URL) with
the schema brought to the latest Alembic migration at start, and the group commit through
which the tables' hot writes go (:meth:`Database.commit_together`).

Group commit: a table's write (a hand opened, steps recorded, money moved) is a job, a
coroutine function of the session. One writer task takes every job waiting, runs them one
after another in one transaction and commits once; each caller is answered only after that
commit, so nothing is acknowledged that a crash could lose. While a batch commits, the next
one gathers: no job waits on a timer, and under load one commit carries many tables' writes.
A job that fails rolls the batch back; the batch is then run again job by job, each in its own
transaction, so that one bad job fails alone and the others commit as they would have.

A transaction PostgreSQL refuses only for how it met another one (chosen as a deadlock's
victim, or a serialization failure) is run again as it was, a few times: PostgreSQL's own advice
for these errors. Several processes share the database, and a batch's jobs lock rows in the
order they came (a player's account, the house's balance, the tables' rows at the end), so two
processes' batches can wait on each other; one of them is then refused, and goes through when
run again once the other committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, create_engine, event, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from mazziere.server.store.hot import Hot, json_dumps, json_loads

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
MIGRATE_LOCK = 0x6D617A7A
"""PostgreSQL advisory lock key held while migrating."""
MAX_BATCH = 256
"""Most jobs one group commit carries."""
RETRIED_STATES = frozenset({"40P01", "40001"})
"""PostgreSQL's ``deadlock_detected`` and ``serialization_failure``: the transaction was
refused for how it met another one, not for what it wrote, and goes through if run again."""
ATTEMPTS = 4
"""Most times a group commit's transaction is run when PostgreSQL refuses it that way."""

T = TypeVar("T")
Job = Callable[[AsyncSession], Awaitable[Any]]


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
        kwargs: dict[str, object] = {"json_serializer": json_dumps, "json_deserializer": json_loads}
        if not self.is_sqlite:
            kwargs.update(pool_size=10, max_overflow=20)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._sync: sessionmaker[Session] | None = None
        """SQLite: the group commit's own sessions, on a synchronous engine (see
        :class:`_InlineSession`)."""
        if self.is_sqlite:
            sync_engine = create_engine(
                self.url.replace("+aiosqlite", "", 1),
                json_serializer=json_dumps,
                json_deserializer=json_loads,
            )
            event.listen(sync_engine, "connect", _sqlite_pragmas)
            self._sync = sessionmaker(sync_engine, expire_on_commit=False)
        # SQLite has one writer at a time: queue writers here instead of letting them spin on
        # the file lock ("database is locked"); PostgreSQL takes concurrent writers.
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if self.is_sqlite else None
        self._jobs: list[tuple[Job, asyncio.Future[Any]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        """Group commits made (with :attr:`batched_jobs`: how well writes are grouped)."""
        self.batched_jobs = 0
        self.rerun = 0
        """Group commits PostgreSQL refused for a concurrent transaction and that were run
        again (:data:`RETRIED_STATES`)."""
        self.on_batch: Callable[[int, float], object] | None = None
        """Told the number of writes of every group commit and its wall time in seconds (the
        server's metrics)."""

    async def migrate(self) -> None:
        """Bring the schema to the latest migration. On PostgreSQL under an advisory lock:
        several processes starting together migrate one after another."""
        async with self.engine.begin() as conn:
            if not self.is_sqlite:
                await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATE_LOCK})
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

    async def commit_together(self, job: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``job(session)`` in the next group commit and return its result once that
        commit is done (its exception if it failed; then nothing of it was written). A job only
        writes to the session: it may be run a second time (a batch retried job by job), so it
        changes nothing in memory; the caller does that after this returns."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.append((job, fut))
        self._wake.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches(), name="group-commit")
        return await fut

    async def _write_batches(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._jobs:
                batch, self._jobs = self._jobs[:MAX_BATCH], self._jobs[MAX_BATCH:]
                await self._commit_batch(batch)

    async def _run_jobs(self, jobs: list[Job]) -> list[Any]:
        """Run ``jobs`` in one transaction and commit it; their results. Rows the jobs
        deferred (:func:`defer_insert`) are inserted last, one statement a table. A
        transaction refused as a deadlock's victim or a serialization failure
        (:func:`refused_for_concurrency`) is run again, after a short random pause that lets
        the other transaction commit first."""
        attempt = 1
        while True:
            try:
                return await self._run_jobs_once(jobs)
            except Exception as e:
                if attempt == ATTEMPTS or not refused_for_concurrency(e):
                    raise
            self.rerun += 1
            await asyncio.sleep(random.uniform(0.0, 0.02 * attempt))
            attempt += 1

    async def _run_jobs_once(self, jobs: list[Job]) -> list[Any]:
        if self._sync is None:
            async with self.write() as db:
                return await _jobs_then_deferred(db, jobs)
        assert self._write_lock is not None
        async with self._write_lock:
            with self._sync() as sync, sync.begin():
                return await _jobs_then_deferred(cast(AsyncSession, _InlineSession(sync)), jobs)

    async def _commit_batch(self, batch: list[tuple[Job, asyncio.Future[Any]]]) -> None:
        started = time.perf_counter()
        try:
            results = await self._run_jobs([job for job, _ in batch])
        except Exception as e:
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(e)
                return
            for job, fut in batch:  # one at a time: the failing job fails alone
                await self._commit_one(job, fut)
            return
        self._count(len(batch), started)
        for (_, fut), result in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(result)

    async def _commit_one(self, job: Job, fut: asyncio.Future[Any]) -> None:
        started = time.perf_counter()
        try:
            (result,) = await self._run_jobs([job])
        except Exception as e:
            if not fut.done():
                fut.set_exception(e)
            return
        self._count(1, started)
        if not fut.done():
            fut.set_result(result)

    def _count(self, writes: int, started: float) -> None:
        self.batches += 1
        self.batched_jobs += writes
        if self.on_batch is not None:
            self.on_batch(writes, time.perf_counter() - started)

    async def close(self) -> None:
        """Finish the writes already submitted, then close the engine."""
        while self._jobs:
            batch, self._jobs = self._jobs[:MAX_BATCH], self._jobs[MAX_BATCH:]
            await self._commit_batch(batch)
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        await self.engine.dispose()
        if self._sync is not None:
            bind = self._sync.kw.get("bind")
            if bind is not None:
                bind.dispose()


_DEFERRED = "mazziere.deferred_inserts"
_CHECKS = "mazziere.deferred_checks"
Check = Callable[[AsyncSession, list[Any]], Awaitable[None]]
"""A check run once for a whole group commit, on every job's items (it raises to refuse)."""


def refused_for_concurrency(error: BaseException) -> bool:
    """Whether ``error`` is PostgreSQL refusing a transaction as a deadlock's victim or for a
    serialization failure (:data:`RETRIED_STATES`), raised by the driver itself (a statement
    run on asyncpg directly) or wrapped by SQLAlchemy (the driver's error as ``orig``)."""
    seen: BaseException | None = error
    for _ in range(4):  # the error, what SQLAlchemy wrapped, what that was raised from
        if seen is None:
            return False
        if getattr(seen, "sqlstate", None) in RETRIED_STATES:
            return True
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False


def defer_insert(db: AsyncSession, statement: Hot, rows: list[dict[str, Any]]) -> bool:
    """In a group commit, queue ``rows`` for ``statement`` (an insert, or an update nothing in
    the batch reads back: a hand closed, a table's status): the batch runs every job's rows in
    one statement, in the order they came, before it commits (one executemany instead of one
    statement a job). False outside a group commit: the caller runs them itself."""
    pending: dict[Hot, list[dict[str, Any]]] | None = db.info.get(_DEFERRED)
    if pending is None:
        return False
    pending.setdefault(statement, []).extend(rows)
    return True


def defer_check(db: AsyncSession, check: Check, item: Any) -> bool:
    """In a group commit, queue ``item`` for ``check``, which the batch runs once on every
    job's items after their writes and before it commits (one statement for the batch instead
    of one UPDATE round trip a job, which would be a large share of a server process's CPU
    under load). Raising refuses the whole batch, which is then retried job by job, so
    only the job whose item fails is refused. False outside a group commit: the caller checks
    at once."""
    pending: dict[Check, list[Any]] | None = db.info.get(_CHECKS)
    if pending is None:
        return False
    pending.setdefault(check, []).append(item)
    return True


async def _jobs_then_deferred(db: AsyncSession, jobs: list[Job]) -> list[Any]:
    pending: dict[Hot, list[dict[str, Any]]] = {}
    checks: dict[Check, list[Any]] = {}
    db.info[_DEFERRED] = pending
    db.info[_CHECKS] = checks
    try:
        results = [await job(db) for job in jobs]
        for statement, rows in pending.items():
            await statement.executemany(db, rows)
        for check, items in checks.items():
            await check(db, items)
        return results
    finally:
        db.info.pop(_DEFERRED, None)
        db.info.pop(_CHECKS, None)


class _InlineSession:
    """What a group-commit job uses of :class:`AsyncSession` (``execute``, ``scalar``,
    ``scalars``, ``get``, ``add``, ``flush``, ``begin_nested``, ``get_bind``), over a
    synchronous session: each awaited call runs at once, on the event loop's thread.

    For SQLite only, where a statement is a function call into the file, not a network round
    trip. aiosqlite runs each statement on its own thread and hands the result back through
    the event loop, which costs several times the CPU of the statements themselves. A batch
    holds the write lock and blocks the loop for its few hundred microseconds, no longer: the
    jobs only write. PostgreSQL keeps the asynchronous engine (asyncpg)."""

    def __init__(self, sync: Session) -> None:
        self.sync_session = sync
        self.info = sync.info

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.execute(*args, **kwargs)

    async def scalar(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.scalar(*args, **kwargs)

    async def scalars(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.scalars(*args, **kwargs)

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.get(*args, **kwargs)

    async def flush(self, *args: Any, **kwargs: Any) -> None:
        self.sync_session.flush(*args, **kwargs)

    def add(self, obj: object) -> None:
        self.sync_session.add(obj)

    def get_bind(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.get_bind(*args, **kwargs)

    def begin_nested(self) -> _InlineSavepoint:
        return _InlineSavepoint(self.sync_session.begin_nested())


class _InlineSavepoint:
    """``async with db.begin_nested():`` over a synchronous savepoint."""

    def __init__(self, tx: SessionTransaction) -> None:
        self.tx = tx

    async def __aenter__(self) -> SessionTransaction:
        return self.tx.__enter__()

    async def __aexit__(self, *exc: Any) -> None:
        self.tx.__exit__(*exc)


def _sqlite_pragmas(dbapi_conn: object, _record: object) -> None:
    cur = dbapi_conn.cursor()  # type: ignore[attr-defined]
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL: a committed transaction survives a crash
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
