"""Accounts: sign up, log in (throttled), log out, who am I."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import Field

from mazziere.server import admission
from mazziere.server.context import Server
from mazziere.server.hub import Close
from mazziere.server.routes.deps import Body, Me, Srv, bearer
from mazziere.server.store import accounts, audit, ledger
from mazziere.server.store.accounts import AuthError
from mazziere.server.store.audit import Actor
from mazziere.server.store.exclusion import ExclusionError
from mazziere.server.store.models import Account
from mazziere.server.store.staff import SUSPENDED
from mazziere.server.wallet.client import WalletUnavailable

router = APIRouter(prefix="/api")


class Credentials(Body):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


@router.post("/signup")
async def signup(body: Credentials, request: Request, server: Srv) -> dict[str, Any]:
    """422 for a name or password the policy refuses, 409 for a taken name, 403
    ``register_excluded`` for a name the exclusion register lists (a ``signup_refused`` line in
    the audit log). The new account is logged in at once: the audit log has its ``signup``, as
    it has every login."""
    digest = await accounts.hash_new_password(body.username, body.password, server.hasher)
    address = request.client.host if request.client else "?"
    try:
        answer = await admission.check_login(server, body.username, None)
    except ExclusionError as e:
        async with server.db.write() as db:
            who = Actor(None, body.username, address)
            target = f"username:{body.username}"
            await audit.record(db, who, "signup_refused", target, None, {"code": e.code})
        raise
    async with server.db.write() as db:  # the hash is made before the write opens
        acc = await accounts.create_account(db, body.username, digest, server.wallet.signup_credit)
        token, _ = await accounts.open_session(db, acc)
        await audit.record(db, Actor.of(acc, address), "signup", f"account:{acc.id}")
        await admission.remember(db, acc.id, answer)
    return {"account": acc.id, "username": acc.username, "token": token}


@router.post("/login")
async def login(body: Credentials, request: Request, server: Srv) -> dict[str, Any]:
    """401 for a wrong name or password (an unknown name costs the same time), 403
    ``suspended`` for a suspended account and ``self_excluded`` or ``register_excluded`` for
    an excluded one, with the exclusion's end (:mod:`mazziere.server.admission`; after its
    password is verified), 429 with
    ``Retry-After`` after too many attempts for the account or the address: the attempt takes
    its slot before the password is verified (:class:`~mazziere.server.throttle.LoginThrottle`),
    so parallel attempts are verified no more than the limit allows. A login ends the
    account's other sessions: their tokens are revoked, their sockets closed. Every login
    whose password was verified, let in or refused, is in the audit log (a throttled attempt,
    refused before that, is counted by the throttle only)."""
    address = request.client.host if request.client else "?"
    await server.throttle.attempt(body.username, address)
    async with server.db.session() as db:
        acc = await accounts.find_account(db, body.username)
    if not await server.verifier.verify(acc, body.password) or acc is None:
        await _refused(server, body.username, acc, address, "bad_credentials")
        raise AuthError("wrong username or password", "bad_credentials")
    await server.throttle.succeeded(body.username)
    if acc.status == SUSPENDED:
        await _refused(server, body.username, acc, address, "suspended")
        raise AuthError("this account is suspended", "suspended")
    try:
        answer = await admission.check_login(server, acc.username, acc.id)
    except ExclusionError as e:
        await _refused(server, body.username, acc, address, e.code)
        raise
    async with server.db.write() as db:
        token, revoked = await accounts.open_session(db, acc, idle=server.tokens.idle_of(acc.role))
        await audit.record(db, Actor.of(acc, address), "login", f"account:{acc.id}")
        await admission.remember(db, acc.id, answer)
    await server.hub.end_logins(
        revoked, Close.REPLACED, "this account logged in elsewhere: this session has ended"
    )
    return {"account": acc.id, "username": acc.username, "token": token}


async def _refused(
    server: Server, username: str, acc: Account | None, address: str, code: str
) -> None:
    """A refused login in the audit log (on the account when the name is one's)."""
    target = f"account:{acc.id}" if acc is not None else f"username:{username}"
    async with server.db.write() as db:
        who = Actor(acc.id if acc is not None else None, username, address)
        await audit.record(db, who, "login_refused", target, None, {"code": code})


@router.post("/logout")
async def logout(
    server: Srv, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Revoke the token and close every socket opened with it (4005)."""
    token = bearer(authorization)
    if token is None:
        raise AuthError("log in first", "not_logged_in")
    async with server.db.write() as db:
        revoked = await accounts.log_out(db, token)
    if revoked is not None:
        await server.hub.end_logins([revoked], Close.LOGGED_OUT, "you logged out")
    return {"ok": True}


@router.get("/me")
async def whoami(account: Me, server: Srv) -> dict[str, Any]:
    """The account and its wallet balance (``None`` while the operator's transfer wallet
    does not answer: the page shows a dash)."""
    try:
        bal: int | None = await server.wallet.balance(account.id)
    except WalletUnavailable:
        bal = None
    return {"account": account.id, "username": account.username, "balance": bal}


@router.get("/wallet")
async def wallet(account: Me, server: Srv) -> dict[str, Any]:
    """The balance (the operator's wallet's, with the transfer wallet: 503
    ``wallet_unavailable`` while it does not answer) and the latest ledger lines of one's
    wallet and casino sessions; ``wallet`` says which wallet (docs/wallet.md)."""
    from mazziere.server.store import money

    bal = await server.wallet.balance(account.id)
    async with server.db.session() as db:
        books = [ledger.wallet(account.id)]
        books += [ledger.casino_book(s) for s in await money.credit_sessions_of(db, account.id)]
        lines = await ledger.movements(db, books)
    return {"balance": bal, "movements": lines, "wallet": server.wallet.kind}
