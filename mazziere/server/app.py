"""The ASGI application (FastAPI on uvicorn): REST for accounts, wallet, lobby and history;
one WebSocket per player for live tables; ``/health`` and ``/metrics``.

At start the schema is migrated (Alembic), every table not closed is loaded and its
unfinished hand resumed (crash recovery); ``/health`` answers 200 only then.
"""

from __future__ import annotations

import ipaddress
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import desc, select
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mazziere.errors import MazziereError
from mazziere.game import find_game
from mazziere.server import protocol as P
from mazziere.server.context import Server, Settings
from mazziere.server.hub import Close
from mazziere.server.routes.catalog import router as catalog_router
from mazziere.server.store import accounts, ledger
from mazziere.server.store.accounts import AuthError, PolicyError, UsernameTaken
from mazziere.server.store.models import (
    Account,
    CasinoSession,
    GameTable,
    Hand,
    HandAction,
    HandPlayer,
    LedgerEntry,
    LedgerTxn,
)
from mazziere.server.tables import TableActor, TableError, new_table_config
from mazziere.server.throttle import LoginThrottle, Throttled

WEB = Path(__file__).resolve().parent / "web"


class _Body(BaseModel):
    """Request bodies are strict: an integer field takes a JSON integer only (not "500",
    500.0, 1e3 or true), unknown fields are refused; a refusal is 422 ``malformed``."""

    model_config = ConfigDict(strict=True, extra="forbid")


class Credentials(_Body):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class NewTable(_Body):
    game: str
    name: str = Field(default="", max_length=80)
    preset: str | None = None
    options: dict[str, Any] | None = None
    seats: int | None = None
    bots: str | None = None
    decision_seconds: float = Field(default=30.0, gt=0, le=3600)
    min_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    max_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    level: str | None = None
    deck: int | None = None


class Amount(_Body):
    amount: int = Field(ge=-P.MAX_CENTS, le=P.MAX_CENTS)
    key: str | None = Field(default=None, min_length=1, max_length=80)
    """Idempotency key: a retried request with the same key moves money once."""


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""On every HTTP response (pages, static files, API): no inline script, no framing."""


class SecurityHeaders:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` (no per-request task, unlike
    ``BaseHTTPMiddleware``; WebSockets pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


STATUS = {
    "not_logged_in": 401,
    "bad_token": 401,
    "token_expired": 401,
    "bad_credentials": 401,
    "username_taken": 409,
    "too_many_attempts": 429,
}


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bearer(authorization: str | None) -> str | None:
    return (authorization or "").removeprefix("Bearer ").strip() or None


async def current_account(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Account:
    """The account of the request's ``Authorization: Bearer <token>``, if that login session
    is live; a use is recorded at most once a minute (it extends the idle lifetime)."""
    server: Server = request.app.state.server
    now = datetime.now(UTC)
    async with server.db.session() as db:
        acc, row = await accounts.authenticate_token(db, bearer(authorization), server.tokens, now)
    if accounts.needs_touch(row, server.tokens, now):
        async with server.db.write() as db:
            await accounts.touch(db, row.token_hash, now)
    return acc


Me = Annotated[Account, Depends(current_account)]


def create_app(settings: Settings | None = None, srv: Server | None = None) -> FastAPI:
    """The application; tests may pass a :class:`Server` built with a manual clock."""
    server = srv or Server(settings or Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.db.migrate()
        app.state.recovery = await load_tables(server)
        server.accepting = True
        yield
        server.accepting = False
        await server.db.close()

    docs = server.settings.api_docs
    app = FastAPI(
        title="mazziere",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.include_router(catalog_router)
    app.state.server = server
    app.add_middleware(SecurityHeaders)
    throttle = LoginThrottle(
        server.settings.login_limit_account,
        server.settings.login_limit_address,
        server.settings.rate_limit_storage,
    )

    @app.exception_handler(MazziereError)
    async def _typed_error(_: Request, exc: MazziereError) -> JSONResponse:
        server.metrics.errors.labels(exc.code).inc()
        status = STATUS.get(exc.code, 400)
        if isinstance(exc, PolicyError):
            status = 422
        elif isinstance(exc, UsernameTaken):
            status = 409
        elif isinstance(exc, AuthError):
            status = STATUS.get(exc.code, 401)
        headers = {}
        if isinstance(exc, Throttled):
            headers["Retry-After"] = str(exc.retry_after)
        return JSONResponse(
            {"code": exc.code, "message": exc.message}, status_code=status, headers=headers
        )

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        server.metrics.errors.labels("malformed").inc()
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(
            {
                "code": "malformed",
                "message": f"{where}: {first.get('msg', 'invalid')}",
                "detail": [
                    {"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in errors
                ],
            },
            status_code=422,
        )

    def actor(table_id: int) -> TableActor:
        a = server.tables.get(table_id)
        if a is None:
            raise TableError(f"table {table_id} does not exist", "no_table")
        return a

    @app.get("/health")
    async def health() -> Response:
        if not server.accepting:
            return JSONResponse({"status": "starting"}, status_code=503)
        return JSONResponse({"status": "ok", "tables": len(server.tables)})

    @app.get("/metrics")
    async def metrics(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        s = server.settings
        host = request.client.host if request.client else ""
        allowed = (
            s.metrics_public
            or _is_loopback(host)
            or (s.metrics_token is not None and bearer(authorization) == s.metrics_token)
        )
        if not allowed:
            return JSONResponse(
                {"code": "forbidden", "message": "metrics are served to loopback or with a token"},
                status_code=403,
            )
        server.metrics.tables_open.set(len(server.tables))
        return Response(server.metrics.render(), media_type="text/plain; version=0.0.4")

    @app.post("/api/signup")
    async def signup(body: Credentials) -> dict[str, Any]:
        """422 for a name or password the policy refuses, 409 for a taken name."""
        digest = await accounts.hash_new_password(body.username, body.password, server.hasher)
        async with server.db.write() as db:  # the hash is made before the write opens
            acc = await accounts.create_account(
                db, body.username, digest, server.settings.demo_credit
            )
            token, _ = await accounts.open_session(db, acc)
        return {"account": acc.id, "username": acc.username, "token": token}

    @app.post("/api/login")
    async def login(body: Credentials, request: Request) -> dict[str, Any]:
        """401 for a wrong name or password (an unknown name costs the same time), 429 with
        ``Retry-After`` after too many failures for the account or the address. A login ends
        the account's other sessions: their tokens are revoked, their sockets closed."""
        address = request.client.host if request.client else "?"
        await throttle.check(body.username, address)
        async with server.db.session() as db:
            acc = await accounts.find_account(db, body.username)
        if not await server.verifier.verify(acc, body.password) or acc is None:
            await throttle.failed(body.username, address)
            raise AuthError("wrong username or password", "bad_credentials")
        await throttle.succeeded(body.username)
        async with server.db.write() as db:
            token, revoked = await accounts.open_session(db, acc)
        await server.hub.end_sessions(
            revoked, Close.REPLACED, "this account logged in elsewhere: this session has ended"
        )
        return {"account": acc.id, "username": acc.username, "token": token}

    @app.post("/api/logout")
    async def logout(authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Revoke the token and close every socket opened with it (4005)."""
        token = bearer(authorization)
        if token is None:
            raise AuthError("log in first", "not_logged_in")
        async with server.db.write() as db:
            revoked = await accounts.log_out(db, token)
        if revoked is not None:
            await server.hub.end_sessions([revoked], Close.LOGGED_OUT, "you logged out")
        return {"ok": True}

    @app.get("/api/me")
    async def whoami(account: Me) -> dict[str, Any]:
        async with server.db.session() as db:
            bal = await ledger.balance(db, ledger.wallet(account.id))
        return {"account": account.id, "username": account.username, "balance": bal}

    @app.get("/api/wallet")
    async def wallet(account: Me) -> dict[str, Any]:
        """The balance and every ledger line of one's own wallet and casino sessions."""
        async with server.db.session() as db:
            sids = (
                await db.scalars(
                    select(CasinoSession.id).where(CasinoSession.account_id == account.id)
                )
            ).all()
            books = [ledger.wallet(account.id), *(ledger.casino_book(s) for s in sids)]
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
                    .order_by(desc(LedgerTxn.id))
                    .limit(200)
                )
            ).all()
            bal = await ledger.balance(db, ledger.wallet(account.id))
        return {
            "balance": bal,
            "movements": [
                {
                    "txn": r.id,
                    "book": r.book,
                    "amount": r.amount,
                    "kind": r.kind,
                    "ref": r.ref,
                    "at": r.created_at.isoformat(),
                }
                for r in rows
            ],
        }

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        return [t.summary() for t in sorted(server.tables.values(), key=lambda t: t.id)]

    @app.post("/api/tables")
    async def create_table(body: NewTable, account: Me) -> dict[str, Any]:
        req = body.model_dump(exclude_none=True)
        config, seats = new_table_config(body.game, req)
        async with server.db.write() as db:
            row = GameTable(
                game=body.game,
                name=body.name or f"{body.game} table",
                config=config,
                seats=[None] * seats,
                status="open",
                created_by=account.id,
                decision_seconds=body.decision_seconds,
            )
            db.add(row)
            await db.flush()
        a = TableActor(server, row)
        server.tables[row.id] = a
        return a.summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: int, account: Me) -> dict[str, Any]:
        seat = await actor(table_id).join(account.id, account.username)
        return {"seat": seat, **actor(table_id).summary()}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: int, account: Me) -> dict[str, Any]:
        await actor(table_id).leave(account.id)
        return actor(table_id).summary()

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: int, account: Me) -> dict[str, Any]:
        await actor(table_id).start(account.id)
        return actor(table_id).summary()

    @app.post("/api/tables/{table_id}/topup")
    async def topup(table_id: int, body: Amount, account: Me) -> dict[str, Any]:
        key = None if body.key is None else f"topup:{account.id}:{body.key}"
        credit = await actor(table_id).top_up(account.id, body.amount, key)
        return {"credit": credit}

    @app.get("/api/history")
    async def history(account: Me, limit: int = 20) -> list[dict[str, Any]]:
        async with server.db.session() as db:
            rows = (
                await db.execute(
                    select(Hand, HandPlayer.seat)
                    .join(HandPlayer, HandPlayer.hand_id == Hand.id)
                    .where(HandPlayer.account_id == account.id)
                    .order_by(desc(Hand.id))
                    .limit(max(1, min(limit, 200)))
                )
            ).all()
        return [
            {
                "hand": h.id,
                "table": h.table_id,
                "game": h.game,
                "seat": seat,
                "status": h.status,
                "commitment": h.commitment,
                "result": h.result,
                "started_at": h.started_at.isoformat(),
                "ended_at": h.ended_at.isoformat() if h.ended_at else None,
            }
            for h, seat in rows
        ]

    @app.get("/api/history/{hand_id}")
    async def replay(hand_id: int, account: Me) -> dict[str, Any]:
        """A hand step by step as this player saw it; the seed only once the hand is over."""
        async with server.db.session() as db:
            seat = await db.scalar(
                select(HandPlayer.seat).where(
                    HandPlayer.hand_id == hand_id, HandPlayer.account_id == account.id
                )
            )
            hand = await db.get(Hand, hand_id)
            if seat is None or hand is None:
                raise TableError("no such hand of yours", "no_hand")
            steps = (
                await db.scalars(
                    select(HandAction).where(HandAction.hand_id == hand_id).order_by(HandAction.seq)
                )
            ).all()
        # the views this seat saw: rebuilt from the seed and the recorded actions
        game = find_game(hand.game).from_setup(hand.setup, hand.seed)
        initial = game.view(seat)
        out = []
        for st in steps:
            try:
                game.apply(st.seat, st.action, st.actor)
                seen: dict[str, Any] | None = game.view(seat)
            except MazziereError:  # cannot happen for a recorded hand; show the log anyway
                seen = None
            visible = [
                text
                for text, only, hidden_from in st.events
                if (only is None and hidden_from != seat) or only == seat
            ]
            out.append(
                {
                    "seq": st.seq,
                    "seat": st.seat,
                    "action": st.action,
                    "actor": st.actor,
                    "events": visible,
                    "view": seen,
                }
            )
        done = hand.status == "done"
        return {
            "hand": hand.id,
            "game": hand.game,
            "seat": seat,
            "commitment": hand.commitment,
            "seed": hand.seed if done else None,
            "players": hand.players,
            "result": hand.result,
            "initial": initial,
            "steps": out,
        }

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        """One socket per player; its first message is ``auth`` with the token."""
        await websocket.accept()
        await server.hub.serve(websocket)

    if WEB.exists():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


async def load_tables(server: Server) -> list[dict[str, Any]]:
    """Create an actor for every table not closed and resume its unfinished hand."""
    reports = []
    async with server.db.session() as db:
        rows = (await db.scalars(select(GameTable).where(GameTable.status != "closed"))).all()
    for row in rows:
        a = TableActor(server, row)
        server.tables[row.id] = a
        reports.append(await a.recover())
    return reports
