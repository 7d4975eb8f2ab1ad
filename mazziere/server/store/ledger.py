"""The append-only, double-entry ledger (platform.md "Money and records").

Every movement is one transaction whose entries sum to zero, written in the caller's database
transaction (the one that also records the game event causing it) under an idempotency key:
posting the same key again moves nothing. Books: ``mint`` (where demo credit comes from),
``wallet:<account>``, ``casino:<session>`` (a table session's credit) and ``house``; with the
operator's transfer wallet, ``operator`` and ``transit`` (:mod:`.transfers`). Every book but
``mint``, ``house`` and ``operator`` must stay at or above zero; the sum of all balances is
always zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store import transfers
from mazziere.server.store.hot import Hot, driver
from mazziere.server.store.models import (
    Account,
    Adjustment,
    Balance,
    CreditSession,
    GameTable,
    LedgerEntry,
    LedgerTxn,
)

MINT = "mint"
HOUSE = "house"
UNBOUNDED = frozenset({MINT, HOUSE})
"""The house's books, which may go below zero (an adjustment moves money against one)."""
BELOW_ZERO = UNBOUNDED | {transfers.OPERATOR}
"""Every book that may go below zero: the house's and the operator's wallet
(:mod:`.transfers`), where money from outside comes from."""


class LedgerError(MazziereError):
    default_code = "ledger_error"


class InsufficientFunds(LedgerError):
    default_code = "insufficient_funds"


def wallet(account_id: int) -> str:
    return f"wallet:{account_id}"


def casino_book(session_id: int) -> str:
    return f"casino:{session_id}"


_TXNS = cast(Table, LedgerTxn.__table__)
_ENTRIES = cast(Table, LedgerEntry.__table__)
_BALANCES = cast(Table, Balance.__table__)

# The statements of a posting (hot statements, :mod:`.hot`: every stake and payout runs them)
_SEEN = Hot(select(_TXNS.c.id).where(_TXNS.c.idempotency_key == bindparam("key")))
_DEBIT = Hot(
    update(_BALANCES)
    .where(_BALANCES.c.book == bindparam("b"), _BALANCES.c.balance + bindparam("d") >= 0)
    .values(balance=_BALANCES.c.balance + bindparam("d"))
    .returning(_BALANCES.c.book)
)


def _upsert(dialect_insert: Any) -> Any:
    stmt = dialect_insert(_BALANCES).values(book=bindparam("b"), balance=bindparam("d"))
    return stmt.on_conflict_do_update(
        index_elements=["book"], set_={"balance": _BALANCES.c.balance + stmt.excluded.balance}
    )


_CREDIT = Hot(_upsert(sqlite_insert), _upsert(pg_insert))
_TXN = Hot(
    insert(_TXNS)
    .values(
        idempotency_key=bindparam("key"),
        kind=bindparam("kind"),
        ref=bindparam("ref"),
        created_at=bindparam("at", type_=_TXNS.c.created_at.type),
    )
    .returning(_TXNS.c.id)
)
_ENTRY = Hot(
    insert(_ENTRIES).values(txn_id=bindparam("txn"), book=bindparam("b"), amount=bindparam("a"))
)
_BALANCE = Hot(select(_BALANCES.c.balance).where(_BALANCES.c.book == bindparam("b")))


_POST_PG = Hot(
    None,
    text(
        """
WITH seen AS (
    SELECT 1 FROM ledger_txns WHERE idempotency_key = CAST(:key AS VARCHAR)
), locked AS (
    SELECT book, balance FROM balances
    WHERE book = ANY(CAST(:debit_books AS VARCHAR[])) AND NOT EXISTS (SELECT 1 FROM seen)
    ORDER BY book FOR UPDATE
), short AS (
    SELECT d.book, COALESCE(l.balance, 0) AS balance, d.delta
    FROM unnest(CAST(:debit_books AS VARCHAR[]), CAST(:debit_deltas AS BIGINT[])) AS d(book, delta)
    LEFT JOIN locked AS l ON l.book = d.book
    WHERE COALESCE(l.balance, 0) + d.delta < 0
), txn AS (
    INSERT INTO ledger_txns (idempotency_key, kind, ref, created_at)
    SELECT CAST(:key AS VARCHAR), CAST(:kind AS VARCHAR), CAST(:ref AS VARCHAR),
           CAST(:at AS TIMESTAMP WITH TIME ZONE)
    WHERE NOT EXISTS (SELECT 1 FROM seen) AND NOT EXISTS (SELECT 1 FROM short)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
), debited AS (
    UPDATE balances AS b SET balance = b.balance + d.delta
    FROM txn, unnest(CAST(:debit_books AS VARCHAR[]), CAST(:debit_deltas AS BIGINT[]))
        AS d(book, delta)
    WHERE b.book = d.book AND b.balance + d.delta >= 0
    RETURNING b.book
), credited AS (
    INSERT INTO balances (book, balance)
    SELECT c.book, c.delta
    FROM txn, unnest(CAST(:credit_books AS VARCHAR[]), CAST(:credit_deltas AS BIGINT[]))
        AS c(book, delta)
    ON CONFLICT (book) DO UPDATE SET balance = balances.balance + excluded.balance
    RETURNING book
), entries AS (
    INSERT INTO ledger_entries (txn_id, book, amount)
    SELECT txn.id, e.book, e.amount
    FROM txn, unnest(CAST(:books AS VARCHAR[]), CAST(:amounts AS BIGINT[]))
        WITH ORDINALITY AS e(book, amount, n)
    ORDER BY e.n
    RETURNING id
)
SELECT EXISTS (SELECT 1 FROM seen) AS seen, (SELECT id FROM txn) AS txn,
       (SELECT count(*) FROM debited) AS debited,
       (SELECT ARRAY[book, CAST(balance AS VARCHAR), CAST(delta AS VARCHAR)]
        FROM short ORDER BY book LIMIT 1) AS short
"""
    ),
)
"""PostgreSQL's form of :func:`post`, one round trip instead of five or six (the ledger's
statements would otherwise be most of a group commit's round trips): the same steps
in the same order, as one statement. The key is looked up; the books taken from are locked
(``FOR UPDATE``, in book order, so a concurrent posting cannot slip in between the check and
the debit); if the key is new and every such book holds enough, the transaction, the debits,
the credits (upserts) and the entries are written, else nothing is. Written by hand, beside
the portable path below, because one Core statement for it would be harder to read than this
SQL; the ledger tests run both paths (tests/server, every backend)."""


async def posted(db: AsyncSession, key: str) -> bool:
    """Whether a transaction was posted under idempotency key ``key``."""
    return await _SEEN.scalar(db, {"key": key}) is not None


async def post(
    db: AsyncSession, key: str, kind: str, ref: str, moves: Sequence[tuple[str, int]]
) -> bool:
    """Post a balanced transaction. Returns False (and moves nothing) if ``key`` was posted
    before; raises :class:`InsufficientFunds` if a bounded book would go below zero, before
    writing anything.

    SQLAlchemy Core, a handful of statements (every stake and payout runs this): the key
    looked up; each book taken from with a guarded ``UPDATE ... WHERE balance + d >= 0``
    (the row lock and the check in one statement), the book taken from first so that a refusal
    comes before any write; each book paid into with an upsert (its row is created on first
    use); then the transaction and its entries (one executemany). On PostgreSQL the same
    steps run as one statement (:data:`_POST_PG`)."""
    if not moves or sum(a for _, a in moves) != 0:
        raise LedgerError("a transaction's entries must sum to zero", "unbalanced")
    if any(not isinstance(a, int) or isinstance(a, bool) for _, a in moves):
        raise LedgerError("amounts are integer cents", "not_integer_cents")
    delta: dict[str, int] = {}
    for book, amount in moves:
        delta[book] = delta.get(book, 0) + amount
    debits = sorted(b for b, d in delta.items() if d < 0 and b not in BELOW_ZERO)
    credits = sorted(b for b in delta if b not in debits)
    if await driver(db) is not None:
        return await _post_pg(db, key, kind, ref, moves, delta, debits, credits)
    existing = await _SEEN.scalar(db, {"key": key})
    if existing is not None:
        return False
    if len(debits) > 1:  # two books checked: a later refusal must undo the first
        async with db.begin_nested():
            await _debit_all(db, debits, delta)
    else:
        await _debit_all(db, debits, delta)
    for book in credits:
        await _add(db, book, delta[book])
    txn_id = await _TXN.scalar(db, {"key": key, "kind": kind, "ref": ref, "at": datetime.now(UTC)})
    await _ENTRY.executemany(db, [{"txn": txn_id, "b": b, "a": a} for b, a in moves])
    return True


async def _post_pg(
    db: AsyncSession,
    key: str,
    kind: str,
    ref: str,
    moves: Sequence[tuple[str, int]],
    delta: dict[str, int],
    debits: list[str],
    credits: list[str],
) -> bool:
    seen, txn_id, debited, short = await _POST_PG.row(
        db,
        {
            "key": key,
            "kind": kind,
            "ref": ref,
            "at": datetime.now(UTC),
            "debit_books": debits,
            "debit_deltas": [delta[b] for b in debits],
            "credit_books": credits,
            "credit_deltas": [delta[b] for b in credits],
            "books": [b for b, _ in moves],
            "amounts": [a for _, a in moves],
        },
    )
    if seen:
        return False
    if short is not None:
        book, current, d = short
        raise InsufficientFunds(
            f"{book} holds {current} cents; {-int(d)} needed", "insufficient_funds"
        )
    if txn_id is None:  # the same key committed by another transaction meanwhile
        return False
    if debited != len(debits):  # pragma: no cover - the books are locked before the check
        raise LedgerError("a debit failed after its check: roll back", "ledger_race")
    return True


async def _debit_all(db: AsyncSession, books: list[str], delta: dict[str, int]) -> None:
    for book in books:
        d = delta[book]
        done = await _DEBIT.scalar(db, {"b": book, "d": d})
        if done is None:
            current = await balance(db, book)
            raise InsufficientFunds(
                f"{book} holds {current} cents; {-d} needed", "insufficient_funds"
            )


async def _add(db: AsyncSession, book: str, amount: int) -> None:
    """Add ``amount`` to ``book``, creating its row on first use (the house and the mint are
    touched by every table: no lock is held longer than the statement)."""
    await _CREDIT.execute(db, {"b": book, "d": amount})


async def balance(db: AsyncSession, book: str) -> int:
    value = await _BALANCE.scalar(db, {"b": book})
    return int(value or 0)


@dataclass
class LedgerReport:
    """What :func:`check` found: counts and every discrepancy."""

    transactions: int = 0
    entries: int = 0
    books: int = 0
    total: int = 0
    issued: int = 0
    house: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def check(db: AsyncSession) -> LedgerReport:
    """Reconcile: every transaction sums to zero, every book's balance equals the sum of its
    entries, no bounded book is negative, and all balances sum to zero; then the owners of the
    books (:func:`check_owners`) and the back office's adjustments
    (:func:`check_adjustments`) and the transfer wallet's records (:func:`.transfers.check`)."""
    rep = LedgerReport()
    rep.transactions = int(await db.scalar(select(func.count(LedgerTxn.id))) or 0)
    rep.entries = int(await db.scalar(select(func.count(LedgerEntry.id))) or 0)
    unbalanced = (
        await db.execute(
            select(LedgerEntry.txn_id, func.sum(LedgerEntry.amount))
            .group_by(LedgerEntry.txn_id)
            .having(func.sum(LedgerEntry.amount) != 0)
        )
    ).all()
    for txn_id, s in unbalanced:
        rep.problems.append(f"transaction {txn_id} sums to {s}, not 0")
    sums = dict(
        (
            await db.execute(
                select(LedgerEntry.book, func.sum(LedgerEntry.amount)).group_by(LedgerEntry.book)
            )
        ).all()
    )
    balances = {b.book: b.balance for b in (await db.scalars(select(Balance))).all()}
    rep.books = len(set(sums) | set(balances))
    for book in sorted(set(sums) | set(balances)):
        s, b = int(sums.get(book, 0)), int(balances.get(book, 0))
        if s != b:
            rep.problems.append(f"{book}: balance {b} but entries sum to {s}")
        if book not in BELOW_ZERO and b < 0:
            rep.problems.append(f"{book}: negative balance {b}")
    rep.total = sum(int(v) for v in balances.values())
    if rep.total != 0:
        rep.problems.append(f"all balances sum to {rep.total}, not 0: money was created or lost")
    rep.issued = -int(balances.get(MINT, 0))
    rep.house = int(balances.get(HOUSE, 0))
    rep.problems.extend(await check_owners(db, sorted(set(sums) | set(balances)), balances))
    rep.problems.extend(await check_adjustments(db))
    rep.problems.extend(await transfers.check(db, balances))
    return rep


def _owner_id(book: str, prefix: str) -> int | None:
    tail = book.removeprefix(prefix)
    return int(tail) if tail != book and tail.isdigit() else None


async def check_owners(db: AsyncSession, books: list[str], balances: dict[str, int]) -> list[str]:
    """Every book belongs to a row that exists, and every casino session to one player:

    - a ``wallet:<n>`` book needs account ``n``; a ``casino:<n>`` book needs casino session
      ``n`` (a session whose row was rolled back but whose id was kept would leave money in a
      book nobody owns); any other book than ``mint``, ``house``, ``operator`` and
      ``transit`` is unknown;
    - money moves between a session's book and a wallet only of the session's owner (else two
      players share one credit), and a table holds at most one open session;
    - a closed session's book is empty; an open session's table exists and is not closed.
    """
    problems: list[str] = []
    accounts = set((await db.scalars(select(Account.id))).all())
    sessions = {s.id: s for s in (await db.scalars(select(CreditSession))).all()}
    tables = dict((await db.execute(select(GameTable.id, GameTable.status))).all())
    for book in books:
        if book in UNBOUNDED or book in transfers.BOOKS:
            continue
        if (n := _owner_id(book, "wallet:")) is not None:
            if n not in accounts:
                problems.append(f"{book}: ledger account without owner (account {n} missing)")
        elif (n := _owner_id(book, "casino:")) is not None:
            if n not in sessions:
                problems.append(
                    f"{book}: ledger account without owner (casino session {n} missing)"
                )
        else:
            problems.append(f"{book}: unknown ledger account")
    w, c = LedgerEntry.__table__.alias("w"), LedgerEntry.__table__.alias("c")
    pairs = (
        await db.execute(
            select(w.c.book, c.c.book, w.c.txn_id)
            .join(c, c.c.txn_id == w.c.txn_id)
            .where(w.c.book.like("wallet:%"), c.c.book.like("casino:%"))
            .order_by(w.c.txn_id)
        )
    ).all()
    shared: set[tuple[str, str]] = set()
    for wallet_book, casino, txn in pairs:
        sid, acc = _owner_id(casino, "casino:"), _owner_id(wallet_book, "wallet:")
        cs = sessions.get(sid) if sid is not None else None
        if cs is not None and acc != cs.account_id and (wallet_book, casino) not in shared:
            shared.add((wallet_book, casino))
            problems.append(
                f"{casino}: casino session {sid} of account {cs.account_id} shares its "
                f"ledger account with {wallet_book} (transaction {txn})"
            )
    open_by_table: dict[int, list[int]] = {}
    for cs in sessions.values():
        rest = int(balances.get(casino_book(cs.id), 0))
        if cs.status == "open":
            open_by_table.setdefault(cs.table_id, []).append(cs.id)
            if cs.table_id not in tables:
                problems.append(f"casino session {cs.id} is open but table {cs.table_id} is gone")
            elif tables[cs.table_id] == "closed":
                problems.append(f"casino session {cs.id} is open but table {cs.table_id} is closed")
        elif rest != 0:
            problems.append(f"casino session {cs.id} is {cs.status} but its book holds {rest}")
    for table, ids in sorted(open_by_table.items()):
        if len(ids) > 1:
            listed = ", ".join(str(i) for i in sorted(ids))
            problems.append(
                f"table {table} has {len(ids)} open casino sessions ({listed}) sharing its credit"
            )
    return problems


async def movements(
    db: AsyncSession, books: list[str], limit: int = 200
) -> list[dict[str, object]]:
    """The latest ledger lines of ``books``, newest first (a wallet page)."""
    rows = (
        await db.execute(
            select(
                LedgerEntry.book,
                LedgerEntry.amount,
                LedgerTxn.kind,
                LedgerTxn.ref,
                LedgerTxn.created_at,
                LedgerTxn.id,
            )
            .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
            .where(LedgerEntry.book.in_(books))
            .order_by(LedgerTxn.id.desc())
            .limit(limit)
        )
    ).all()
    return [
        {
            "txn": r.id,
            "book": r.book,
            "amount": r.amount,
            "kind": r.kind,
            "ref": r.ref,
            "at": r.created_at.isoformat(),
        }
        for r in rows
    ]


ADJUSTMENT_KIND = "adjustment"
"""The kind of a manual adjustment's ledger transaction (:mod:`.adjustments`)."""
ADJUSTMENT_POSTED = "posted"
"""An adjustment's status once its transaction is posted."""


async def check_adjustments(db: AsyncSession) -> list[str]:
    """What the ledger check says of adjustments: every ``adjustment`` transaction belongs to
    a posted adjustment and moves exactly its amount between its wallet and its house book;
    every posted adjustment has its transaction; a pending or rejected one has none."""
    problems: list[str] = []
    adjustments = {a.id: a for a in (await db.scalars(select(Adjustment))).all()}
    txns = (await db.scalars(select(LedgerTxn).where(LedgerTxn.kind == ADJUSTMENT_KIND))).all()
    by_txn = {a.txn_id: a for a in adjustments.values() if a.txn_id is not None}
    for t in txns:
        adj = by_txn.get(t.id)
        if adj is None or adj.status != ADJUSTMENT_POSTED:
            problems.append(f"ledger transaction {t.id} ({t.ref}) is no posted adjustment's")
            continue
        entries = (
            await db.execute(
                select(LedgerEntry.book, LedgerEntry.amount).where(LedgerEntry.txn_id == t.id)
            )
        ).all()
        want = sorted([(wallet(adj.account_id), adj.amount), (adj.house_account, -adj.amount)])
        if sorted((b, int(a)) for b, a in entries) != want:
            problems.append(f"adjustment {adj.id}: its transaction {t.id} does not move its amount")
    posted_txns = {t.id for t in txns}
    for adj in adjustments.values():
        if adj.status == ADJUSTMENT_POSTED and adj.txn_id not in posted_txns:
            problems.append(f"adjustment {adj.id} is posted but no ledger transaction moved it")
        if adj.status != ADJUSTMENT_POSTED and adj.txn_id is not None:
            problems.append(f"adjustment {adj.id} is {adj.status} but has a ledger transaction")
    return problems
