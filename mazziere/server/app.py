"""The ASGI application (FastAPI on uvicorn), assembled from one router per area
(:mod:`mazziere.server.routes`): REST for accounts, wallet, lobby and history; one WebSocket
per player for live tables; ``/health`` and ``/metrics``; the static web client.

At start the schema is migrated (Alembic), every table not closed is loaded and its
unfinished hand resumed (crash recovery); ``/health`` answers 200 only then.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mazziere.errors import MazziereError
from mazziere.poker.bots.registry import warm as warm_poker_bots
from mazziere.server.context import Server, Settings
from mazziere.server.roles import BackOfficeError
from mazziere.server.routes import (
    accounts,
    admin,
    admin_rtp,
    catalog,
    exclusion,
    history,
    live,
    lobby,
    ops,
    players,
    quick,
)
from mazziere.server.routes import attest as attest_routes
from mazziere.server.routes import limits as limits_routes
from mazziere.server.routes import verify as verify_routes
from mazziere.server.store import table_rows
from mazziere.server.store.accounts import AuthError, PolicyError, UsernameTaken
from mazziere.server.store.exclusion import ExclusionError
from mazziere.server.store.limits import LimitExceeded
from mazziere.server.table.actor import TableActor
from mazziere.server.throttle import Throttled

log = logging.getLogger("mazziere.server")

WEB = Path(__file__).resolve().parent / "web"


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
    (
        b"permissions-policy",
        b"accelerometer=(), browsing-topics=(), camera=(), display-capture=(), "
        b"encrypted-media=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), "
        b"magnetometer=(), microphone=(), midi=(), payment=(), publickey-credentials-get=(), "
        b"screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()",
    ),
]
"""On every HTTP response (pages, static files, API, errors): no inline script, no framing,
and none of the browser's devices, sensors, payments or tracking, which a card table never
uses (the web client's clipboard, sounds and full screen keep their defaults)."""

STRICT_TRANSPORT_SECURITY = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
"""With ``Settings.behind_tls``: browsers come back over HTTPS only, to this host and its
subdomains, for a year. Never sent otherwise: over plain HTTP it would be ignored, and a site
that drops TLS would lock its visitors out."""


def security_headers(settings: Settings) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP response of this server carries."""
    if settings.behind_tls:
        return [*SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY]
    return SECURITY_HEADERS


class SecurityHeaders:
    """Pure ASGI middleware adding :func:`security_headers` (no per-request task, unlike
    ``BaseHTTPMiddleware``; WebSockets pass untouched)."""

    def __init__(self, app: ASGIApp, headers: list[tuple[bytes, bytes]]) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


STATUS = {
    "not_logged_in": 401,
    "bad_token": 401,
    "token_expired": 401,
    "bad_credentials": 401,
    "username_taken": 409,
    "too_many_attempts": 429,
    "suspended": 403,
    "forbidden": 403,
    "not_found": 404,
    "hand_in_progress": 409,
    "software_unattested": 503,
    "wallet_unavailable": 503,
    "wallet_in_doubt": 409,
    "self_excluded": 403,
    "register_excluded": 403,
    "exclusion_register_unavailable": 403,
    "wrong_password": 403,
    "exclusion_timed": 409,
    "lift_too_early": 409,
    "lift_already_asked": 409,
    "not_excluded": 409,
    "already_excluded": 409,
    "limit_exceeded": 409,
    "reality_check_due": 409,
    "bad_limit": 422,
}
"""HTTP status of a typed error by its code (default 400)."""


class App(FastAPI):
    """The FastAPI application, with the live tables' WebSocket (``/ws``) served before the
    router and middleware (:mod:`mazziere.server.routes.live` says why), and the security
    headers added outside every other middleware, so that even the 500 answer to an unexpected
    exception carries them."""

    def __init__(self, headers: list[tuple[bytes, bytes]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.response_headers = headers

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack(), self.response_headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == live.PATH:
            scope["app"] = self
            await live.serve_socket(self.state.server, scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def from_environment() -> FastAPI:
    """The application built from ``MAZZIERE_SETTINGS`` (JSON of :class:`Settings`): what
    each process of ``mazziere serve --workers N`` runs."""
    import json
    import os

    return create_app(Settings.from_json(json.loads(os.environ["MAZZIERE_SETTINGS"])))


def create_app(settings: Settings | None = None, srv: Server | None = None) -> FastAPI:
    """The application; tests may pass a :class:`Server` built with a manual clock."""
    server = srv or Server(settings or Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.db.migrate()
        await server.attestation.check(server)  # its own files, before any table opens
        server.attestation.schedule(server)
        await asyncio.to_thread(warm_poker_bots)  # before any table runs (its docstring)
        if server.cluster is not None:  # several processes: take the tables no one holds
            await server.cluster.start()
            app.state.recovery = []
        else:
            app.state.recovery = await load_tables(server)
        server.accepting = True
        await server.wallet.start()  # the transfer wallet's outbox (docs/wallet.md)
        monitor = asyncio.create_task(server.monitor.run(), name="monitor")
        sweeper: asyncio.Task[None] | None = None
        if server.settings.settle_heap:
            settle_heap()
            server.metrics.time_gc()
            sweeper = asyncio.create_task(
                sweep_heap_every(server.settings.heap_sweep_seconds, server.metrics.swept.inc),
                name="heap-sweep",
            )
        yield
        server.accepting = False
        server.attestation.stop()
        monitor.cancel()
        await asyncio.gather(monitor, return_exceptions=True)
        if sweeper is not None:
            sweeper.cancel()
        await server.wallet.stop()
        if server.cluster is not None:
            await server.cluster.stop()
        await server.db.close()

    docs = server.settings.api_docs
    app = App(
        security_headers(server.settings),
        title="mazziere",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.state.server = server
    for area in (ops, accounts, catalog, lobby, quick, history, players, admin, admin_rtp):
        app.include_router(area.router)
    app.include_router(exclusion.router)  # self-exclusion (docs/rules/platform.md)
    app.include_router(attest_routes.router)  # the server's own files (docs/security.md)
    app.include_router(verify_routes.router)  # rounds anyone can verify (docs/verify.md)
    app.include_router(limits_routes.router)  # a player's limits, reality checks

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
        elif isinstance(exc, BackOfficeError):
            status = exc.status
        headers = {}
        if isinstance(exc, Throttled):
            headers["Retry-After"] = str(exc.retry_after)
        body: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if isinstance(exc, LimitExceeded):  # which limit, and what it still allows
            body.update(limit=exc.limit, left=exc.left)
        if isinstance(exc, ExclusionError):  # the exclusion's end, when a lift may be asked
            body.update(exc.details)
        return JSONResponse(body, status_code=status, headers=headers)

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

    if WEB.exists():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


def settle_heap() -> None:
    """Once started: move every object alive now (modules, compiled rules, tables) out of the
    garbage collector's reach, let it look for cycles less often, and from then on move what
    survives each of its young collections out of its reach too (:func:`_freeze_survivors`).

    A collection stops the event loop while it walks its generations, for a time that grows
    with the objects in them, and the server's steady work makes almost no cycles (a session's
    cache of its transaction is a weak reference: :mod:`mazziere.server.store.hot`). With
    nothing frozen, full collections stop the loop for long under load; with the heap frozen
    only once at start, the young generation still holds tens of thousands of objects at each
    collection, because Python's counter is lowered by every object freed, old or young, and
    each decision frees as much old state as it makes new: long young and middle collections
    that find nothing. Frozen after each collection, a generation holds only what was made
    since the last one. A cycle made of objects frozen while alive is not freed until
    :func:`sweep_heap`, which looks over everything now and then."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.insert(0, _freeze_survivors)


def unsettle_heap(threshold: tuple[int, int, int]) -> None:
    """Undo :func:`settle_heap` (tests that run it in their own process)."""
    if _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """After a young or middle collection: what it found alive leaves the collector's reach
    (what it found unreachable is already freed)."""
    if phase == "stop" and info["generation"] < 2:
        gc.freeze()


def sweep_heap() -> int:
    """Look over the whole heap once (what every earlier collection froze included), free the
    cycles found, and freeze the rest again; the number of objects freed. One stop of the loop
    for a full collection, long on a loaded server; a cycle among objects that were alive when
    frozen waits for it."""
    gc.unfreeze()
    try:
        return gc.collect()
    finally:
        gc.freeze()


async def sweep_heap_every(seconds: float, freed: Callable[[int], object]) -> None:
    """:func:`sweep_heap` every ``seconds`` (``Settings.heap_sweep_seconds``); ``freed`` is
    told how many objects each sweep freed (the ``mazziere_gc_swept_objects`` metric; its
    pause is in ``mazziere_gc_pause_seconds``, generation 2)."""
    while True:
        await asyncio.sleep(seconds)
        n = sweep_heap()
        log.debug("heap sweep: %d objects freed, %d kept", n, gc.get_freeze_count())
        freed(n)


GC_THRESHOLDS = (2_000, 5, 20)
"""Young collections every 2,000 allocations (net of objects freed) rather than Python's 700,
with survivors frozen after each collection (:func:`_freeze_survivors`): the lowest latency tail
under the load benchmark (``benchmarks/bench_server.py``, p99 to the acknowledgement); larger
thresholds make fewer but longer collections and a worse tail for little CPU saved. With
survivors frozen, only young collections run."""


async def load_tables(server: Server) -> list[dict[str, Any]]:
    """Create an actor for every table not closed and resume its unfinished hand."""
    reports = []
    async with server.db.session() as db:
        rows = await table_rows.not_closed(db)
    for row in rows:
        a = TableActor(server, row)
        server.tables[row.id] = a
        reports.append(await a.recover())
    return reports
