"""platform.md "Money and records": a double-entry, append-only ledger with idempotency keys;
balances never negative; the reconciliation finds any discrepancy."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from mazziere.server.store import accounts, ledger
from mazziere.server.store.db import Database


async def test_signup_credits_demo_money_from_the_mint(database: Database) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "alice", "correct horse", 10_000)
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 10_000
        assert await ledger.balance(db, ledger.MINT) == -10_000
        rep = await ledger.check(db)
    assert rep.ok and rep.total == 0 and rep.issued == 10_000


async def test_posting_the_same_idempotency_key_twice_moves_money_once(
    database: Database,
) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "bob", "correct horse", 1_000)
    moves = [(ledger.wallet(acc.id), -300), (ledger.HOUSE, 300)]
    async with database.session() as db, db.begin():
        assert await ledger.post(db, "stake:1", "stake", "t", moves)
    async with database.session() as db, db.begin():
        assert not await ledger.post(db, "stake:1", "stake", "t", moves)
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 700
        assert (await ledger.check(db)).ok


async def test_balances_never_go_negative(database: Database) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "carol", "correct horse", 100)
    with pytest.raises(ledger.InsufficientFunds):
        async with database.session() as db, db.begin():
            await ledger.post(
                db, "k", "stake", "", [(ledger.wallet(acc.id), -101), (ledger.HOUSE, 101)]
            )
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 100
        assert (await ledger.check(db)).transactions == 1


async def test_unbalanced_or_fractional_transactions_are_refused(database: Database) -> None:
    async with database.session() as db, db.begin():
        with pytest.raises(ledger.LedgerError) as e:
            await ledger.post(db, "x", "k", "", [(ledger.HOUSE, 5), (ledger.MINT, -4)])
        assert e.value.code == "unbalanced"
        with pytest.raises(ledger.LedgerError) as e2:
            await ledger.post(db, "y", "k", "", [(ledger.HOUSE, 0.5), (ledger.MINT, -0.5)])  # type: ignore[list-item]
        assert e2.value.code == "not_integer_cents"


async def test_ledger_check_finds_tampering(database: Database) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "dave", "correct horse", 500)
    async with database.session() as db, db.begin():
        await db.execute(
            text("UPDATE balances SET balance = balance + 1 WHERE book = :b"),
            {"b": ledger.wallet(acc.id)},
        )
    async with database.session() as db:
        rep = await ledger.check(db)
    assert not rep.ok and any("entries sum to" in p for p in rep.problems)
    assert any("money was created" in p for p in rep.problems)


async def test_login_logout_and_tokens(database: Database) -> None:
    async with database.session() as db, db.begin():
        await accounts.sign_up(db, "erin", "correct horse", 0)
    async with database.session() as db, db.begin():
        acc, token = await accounts.log_in(db, "erin", "correct horse")
    async with database.session() as db:
        assert (await accounts.authenticate(db, token)).id == acc.id
    async with database.session() as db, db.begin():
        await accounts.log_out(db, token)
    async with database.session() as db:
        with pytest.raises(accounts.AuthError) as e:
            await accounts.authenticate(db, token)
        assert e.value.code == "bad_token"
    async with database.session() as db, db.begin():
        with pytest.raises(accounts.AuthError) as e2:
            await accounts.log_in(db, "erin", "wrong password")
        assert e2.value.code == "bad_credentials"


async def test_passwords_are_stored_as_argon2_hashes(database: Database) -> None:
    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "frank", "correct horse", 0)
    assert acc.password_hash.startswith("$argon2") and "correct horse" not in acc.password_hash


async def test_signup_rejects_taken_or_bad_names(database: Database) -> None:
    async with database.session() as db, db.begin():
        await accounts.sign_up(db, "gina", "correct horse", 0)
    async with database.session() as db, db.begin():
        with pytest.raises(accounts.AuthError) as e:
            await accounts.sign_up(db, "gina", "another pass", 0)
        assert e.value.code == "username_taken"
        with pytest.raises(accounts.AuthError):
            await accounts.sign_up(db, "x", "correct horse", 0)


async def test_a_refused_transaction_moves_nothing_even_if_the_caller_goes_on(
    database: Database,
) -> None:
    """A refusal comes before any write: with one book taken from, it is the first statement;
    with two, a savepoint undoes the first. A caller that catches the error and commits its
    other work commits no part of the refused transaction."""
    async with database.session() as db, db.begin():
        rich = await accounts.sign_up(db, "ivo", "correct horse", 1_000)
        poor = await accounts.sign_up(db, "jan", "correct horse", 10)
    two = [(ledger.wallet(rich.id), -50), (ledger.wallet(poor.id), -50), (ledger.HOUSE, 100)]
    one = [(ledger.wallet(poor.id), -50), (ledger.HOUSE, 50)]
    async with database.session() as db, db.begin():
        for key, moves in (("two", two), ("one", one)):
            with pytest.raises(ledger.InsufficientFunds):
                await ledger.post(db, key, "stake", "", moves)
        assert await ledger.post(
            db, "ok", "stake", "", [(ledger.wallet(rich.id), -1), (ledger.HOUSE, 1)]
        )
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(rich.id)) == 999
        assert await ledger.balance(db, ledger.wallet(poor.id)) == 10
        assert await ledger.balance(db, ledger.HOUSE) == 1
        rep = await ledger.check(db)
        assert rep.ok and rep.transactions == 3  # two sign-ups and "ok"


async def test_two_postings_racing_for_one_wallet_never_overdraw_it(database: Database) -> None:
    """Two transactions each take 80 of a wallet holding 100 at the same time: the second
    waits for the first's row lock, then sees what is left and is refused; nothing is lost."""
    import asyncio

    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "kim", "correct horse", 100)
    first_posted = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with database.session() as db, db.begin():
            moves = [(ledger.wallet(acc.id), -80), (ledger.HOUSE, 80)]
            assert await ledger.post(db, "a", "stake", "", moves)
            first_posted.set()
            await release.wait()

    async def second() -> None:
        await first_posted.wait()
        async with database.session() as db, db.begin():
            await ledger.post(
                db, "b", "stake", "", [(ledger.wallet(acc.id), -80), (ledger.HOUSE, 80)]
            )

    one = asyncio.create_task(first())
    two = asyncio.create_task(second())
    await first_posted.wait()
    await asyncio.sleep(0.3)  # the second is now waiting on the wallet's lock
    release.set()
    await one
    with pytest.raises(ledger.InsufficientFunds) as refused:
        await two
    assert "holds 20 cents; 80 needed" in str(refused.value)
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 20
        assert (await ledger.check(db)).ok


async def test_a_posting_is_one_statement_on_postgresql(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a posting is one round trip (ledger._POST_PG), a duplicate or a refusal
    included; SQLite runs the portable statements."""
    from mazziere.server.store import hot

    async with database.session() as db, db.begin():
        acc = await accounts.sign_up(db, "lea", "correct horse", 100)
    calls: list[str] = []
    real = hot.Hot.row

    async def counted(self: hot.Hot, db: object, params: object) -> object:
        calls.append(self.sql)
        return await real(self, db, params)  # type: ignore[arg-type]

    monkeypatch.setattr(hot.Hot, "row", counted)
    moves = [(ledger.wallet(acc.id), -30), (ledger.HOUSE, 30)]
    async with database.session() as db, db.begin():
        assert await ledger.post(db, "s1", "stake", "", moves)
        assert not await ledger.post(db, "s1", "stake", "", moves)
        with pytest.raises(ledger.InsufficientFunds):
            await ledger.post(
                db, "s2", "stake", "", [(ledger.wallet(acc.id), -71), (ledger.HOUSE, 71)]
            )
    expected = 0 if database.is_sqlite else 3
    assert len(calls) == expected
    async with database.session() as db:
        assert await ledger.balance(db, ledger.wallet(acc.id)) == 70
        assert await ledger.balance(db, ledger.HOUSE) == 30
        assert (await ledger.check(db)).ok
