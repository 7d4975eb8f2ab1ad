"""The hot statements, those the server runs for every move: each written once, as a
SQLAlchemy Core statement with named bind parameters, and run two ways.

* **PostgreSQL**: compiled once, at import, to asyncpg's SQL (``$1, $2...``) and run on the
  driver's own connection, inside the session's transaction (:func:`driver`). Through
  ``AsyncSession`` a statement costs several times the CPU it costs on asyncpg itself: the
  greenlet hop, the ORM session's execute, the compiled cache lookup and the result wrapping
  would be a large share of a server process's CPU under load.
* **SQLite**, in a group commit (:class:`~mazziere.server.store.db._InlineSession`, a
  synchronous session run inline): compiled once to SQLite's SQL (``?``) and run on the
  session's own ``sqlite3`` connection (:func:`lite`), inside its transaction, the parameters
  converted by the same type processors SQLAlchemy would apply (dates, JSON), without
  SQLAlchemy's per-execution work (compiling the cached statement's parameters, the bind
  processors, the ORM session's execute).
* Any other session (a write outside a group commit, SQLite's aiosqlite sessions): executed
  through the session, as every other statement.

Only statements of the hot path are here: the group commit's step rows and fencing check, a
hand opened and closed, a table's status, and the ledger's postings (a casino round runs two).
Everything else (sign-up, lobby, recovery, reports) stays on the ORM session.

Why not a library: SQLAlchemy has no way to run a compiled statement on the raw driver inside
its own transaction; asyncpg alone has no statement builder. The bridge is :func:`driver` (it
starts the adapter's transaction if the session has not run a statement yet, so the raw
statements and SQLAlchemy's share one transaction, committed or rolled back by the session).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any, cast

import msgspec
from sqlalchemy import JSON
from sqlalchemy.dialects.postgresql import asyncpg as _asyncpg_dialect
from sqlalchemy.dialects.sqlite import pysqlite as _pysqlite_dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

_PG = _asyncpg_dialect.dialect()  # type: ignore[no-untyped-call]
_ENCODE = msgspec.json.Encoder()


def json_dumps(value: Any) -> str:
    """A JSON column's text, by msgspec: every engine and dialect of the store serializes JSON
    with it, faster than SQLAlchemy's default, the standard library's encoder."""
    return _ENCODE.encode(value).decode()


def json_loads(text: str | bytes) -> Any:
    """A JSON column's value (the store's engines' deserializer)."""
    return msgspec.json.decode(text)


_SQLITE = _pysqlite_dialect.dialect(json_serializer=json_dumps, json_deserializer=json_loads)
# RETURNING, as the dialect enables it on connecting to SQLite 3.35 or later (the hot
# statements that return rows need it on either path)
_SQLITE.insert_returning = _SQLITE.update_returning = _SQLITE.delete_returning = True
_DRIVER = "mazziere.hot.driver"
_LITE = "mazziere.hot.lite"
"""Keys of a session's ``info`` holding (a weak reference to the transaction, the driver's
connection). Weak: a strong one makes a cycle (session, info, transaction, session) that only
the garbage collector frees: every group commit would leave one such cycle, enough to trigger
the collector, whose pauses stop the event loop."""


def _held(sync: Session, key: str, tx: Any) -> tuple[bool, Any]:
    """Whether ``sync.info[key]`` was cached for transaction ``tx``, and its connection."""
    held = sync.info.get(key)
    if held is not None and tx is not None and held[0]() is tx:
        return True, held[1]
    return False, None


def _hold(sync: Session, key: str, tx: Any, conn: Any) -> None:
    """Cache ``conn`` for transaction ``tx`` in ``sync.info[key]`` (nothing without one)."""
    if tx is not None:
        sync.info[key] = (weakref.ref(tx), conn)


async def driver(db: Any) -> Any | None:
    """The asyncpg connection under ``db``'s transaction (begun if it was not), or ``None``
        when ``db`` is not a PostgreSQL :class:`AsyncSession` (the statements then go through the
        session). Cached for the transaction (the innermost: a savepoint the session opened is
    emitted before any statement runs inside it)."""
    if not isinstance(db, AsyncSession):
        return None
    sync = db.sync_session
    tx = sync.get_nested_transaction() or sync.get_transaction()
    hit, pg = _held(sync, _DRIVER, tx)
    if hit:
        return pg
    pg = None
    if sync.get_bind().dialect.name == "postgresql":
        # begins the session's transaction if none was, and emits a pending SAVEPOINT
        conn = await db.connection()
        tx = sync.get_nested_transaction() or sync.get_transaction()
        raw = await conn.get_raw_connection()
        adapted = raw.dbapi_connection
        if getattr(adapted, "_transaction", None) is None:  # SQLAlchemy begins on first use
            await adapted._start_transaction()  # type: ignore[union-attr]
        pg = raw.driver_connection
        if pg is None or not pg.is_in_transaction():  # pragma: no cover - a new SQLAlchemy
            raise RuntimeError("the PostgreSQL transaction could not be shared")
    _hold(sync, _DRIVER, tx, pg)
    return pg


def lite(db: Any) -> Any | None:
    """The ``sqlite3`` connection under a group commit's synchronous session (module
    docstring), its transaction begun by the session; ``None`` for any other session. Cached
    for the transaction (the innermost: a savepoint is emitted when it is opened)."""
    sync = getattr(db, "sync_session", None)
    if isinstance(db, AsyncSession) or not isinstance(sync, Session):
        return None
    tx = sync.get_nested_transaction() or sync.get_transaction()
    hit, raw = _held(sync, _LITE, tx)
    if hit:
        return raw
    conn = sync.connection()  # begins the session's transaction if none was
    raw = conn.connection.dbapi_connection
    if sync.get_bind().dialect.name != "sqlite" or raw is None:  # pragma: no cover
        raw = None
    tx = sync.get_nested_transaction() or sync.get_transaction()
    _hold(sync, _LITE, tx, raw)
    return raw


class _Lite:
    """A statement compiled for SQLite (``?`` parameters) with its parameters' processors."""

    __slots__ = ("fixed", "names", "procs", "sql")

    def __init__(self, stmt: ClauseElement) -> None:
        compiled = cast(SQLCompiler, stmt.compile(dialect=_SQLITE, for_executemany=True))
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ())
        binds = [compiled.binds[name] for name in self.names]  # a name may come twice
        self.fixed = {n: b.value for n, b in zip(self.names, binds, strict=True) if not b.required}
        self.procs = tuple(b.type._cached_bind_processor(_SQLITE) for b in binds)

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        out = []
        for n, proc in zip(self.names, self.procs, strict=True):
            v = params[n] if n in params or n not in self.fixed else self.fixed[n]
            out.append(v if proc is None or v is None else proc(v))
        return tuple(out)


def _lite_form(stmt: ClauseElement | None) -> _Lite | None:
    """``stmt`` compiled for SQLite, or ``None`` where it cannot be fixed in advance (an
    expanding ``IN`` list): such a statement goes through the session."""
    if stmt is None:
        return None
    compiled = cast(SQLCompiler, stmt.compile(dialect=_SQLITE, for_executemany=True))
    if any(b.expanding or b.literal_execute for b in compiled.binds.values()):
        return None
    return _Lite(stmt)


class Hot:
    """A Core statement with named bind parameters (module docstring): ``stmt`` runs through
    the session, or compiled once for SQLite on a group commit's connection; ``pg`` (``stmt``
    unless a PostgreSQL-only form is given) is compiled once to asyncpg's SQL. JSON
    parameters are serialized here, as the dialect would."""

    __slots__ = ("fixed", "json", "lite", "names", "sql", "stmt")

    def __init__(self, stmt: ClauseElement | None, pg: ClauseElement | None = None) -> None:
        self.stmt = stmt
        source = pg if pg is not None else stmt
        assert source is not None
        # for_executemany: no implicit RETURNING of the primary key (explicit ones stay)
        compiled = cast(SQLCompiler, source.compile(dialect=_PG, for_executemany=True))
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ())
        self.json = frozenset(
            name for name, bind in compiled.binds.items() if isinstance(bind.type, JSON)
        )
        self.fixed = {  # literals written in the statement (``balance + :d >= 0``)
            name: bind.value for name, bind in compiled.binds.items() if not bind.required
        }
        self.lite = _lite_form(stmt)

    def args(self, params: Mapping[str, Any]) -> list[Any]:
        """The positional arguments; every named parameter must be given (a column's Python
        default is not applied here: the statements name every column they write)."""
        out = []
        for n in self.names:
            v = params[n] if n in params or n not in self.fixed else self.fixed[n]
            out.append(json_dumps(v) if n in self.json else v)
        return out

    def _raw(self, db: Any) -> tuple[Any, _Lite] | None:
        """A group commit's ``sqlite3`` connection and this statement's SQLite form."""
        form = self.lite
        if form is None:
            return None
        conn = lite(db)
        return None if conn is None else (conn, form)

    async def scalar(self, db: Any, params: Mapping[str, Any]) -> Any:
        """The first column of the first row (``None`` without a row)."""
        raw = self._raw(db)
        if raw is not None:
            got = raw[0].execute(raw[1].sql, raw[1].args(params)).fetchone()
            return None if got is None else got[0]
        pg = await driver(db)
        if pg is None:
            return await db.scalar(self._session_stmt(), dict(params))
        return await pg.fetchval(self.sql, *self.args(params))

    async def row(self, db: Any, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The first row (the statement must return one)."""
        raw = self._raw(db)
        if raw is not None:
            rows = raw[0].execute(raw[1].sql, raw[1].args(params)).fetchall()
            if len(rows) != 1:
                raise RuntimeError(f"{raw[1].sql!r} returned {len(rows)} rows, not one")
            return tuple(rows[0])
        pg = await driver(db)
        if pg is None:
            return tuple((await db.execute(self._session_stmt(), dict(params))).one())
        return tuple(await pg.fetchrow(self.sql, *self.args(params)))

    async def column(self, db: Any, params: Mapping[str, Any]) -> list[Any]:
        """The first column of every row."""
        raw = self._raw(db)
        if raw is not None:
            return [r[0] for r in raw[0].execute(raw[1].sql, raw[1].args(params)).fetchall()]
        pg = await driver(db)
        if pg is None:
            return list((await db.scalars(self._session_stmt(), dict(params))).all())
        return [r[0] for r in await pg.fetch(self.sql, *self.args(params))]

    async def execute(self, db: Any, params: Mapping[str, Any]) -> None:
        raw = self._raw(db)
        if raw is not None:
            raw[0].execute(raw[1].sql, raw[1].args(params))
            return
        pg = await driver(db)
        if pg is None:
            await db.execute(self._session_stmt(), dict(params))
            return
        await pg.execute(self.sql, *self.args(params))

    async def executemany(self, db: Any, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        raw = self._raw(db)
        if raw is not None:
            form = raw[1]
            raw[0].executemany(form.sql, [form.args(r) for r in rows])
            return
        pg = await driver(db)
        if pg is None:
            await db.execute(self._session_stmt(), [dict(r) for r in rows])
            return
        await pg.executemany(self.sql, [self.args(r) for r in rows])

    def _session_stmt(self) -> Any:
        if self.stmt is None:
            raise RuntimeError(f"{self.sql!r} runs on PostgreSQL only")
        return self.stmt
