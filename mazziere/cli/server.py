"""``mazziere serve`` (the game server) and ``mazziere ledger check`` (reconciliation)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import fields
from pathlib import Path
from typing import Annotated

import typer

from mazziere.server.settings import default

server_help = "Start the game server (SQLite in --data by default, PostgreSQL with a URL)."


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    data: Annotated[Path, typer.Option(help="Folder for the SQLite database.")] = Path("data"),
    database_url: Annotated[
        str | None,
        typer.Option(help="e.g. postgresql://user@127.0.0.1:5432/db (default: SQLite in --data)"),
    ] = default("database_url"),
    demo_credit: Annotated[int, typer.Option(help="Cents credited on sign-up.")] = default(
        "demo_credit"
    ),
    casino_session_cap: Annotated[
        int,
        typer.Option(help="Most cents of stakes plus top-ups one casino credit session takes."),
    ] = default("casino_session_cap"),
    limit_raise_hours: Annotated[
        float,
        typer.Option(help="A player's raised or removed limit takes effect after this long."),
    ] = default("limit_raise_hours"),
    argon2_time_cost: Annotated[int, typer.Option(help="Argon2 iterations.")] = default(
        "argon2_time_cost"
    ),
    argon2_memory_kib: Annotated[int, typer.Option(help="Argon2 memory (KiB).")] = default(
        "argon2_memory_kib"
    ),
    token_idle_seconds: Annotated[
        float, typer.Option(help="A login session unused this long expires.")
    ] = default("token_idle_seconds"),
    token_absolute_seconds: Annotated[
        float, typer.Option(help="A login session expires this long after the login.")
    ] = default("token_absolute_seconds"),
    admin_idle_minutes: Annotated[
        float, typer.Option(help="A back-office login unused this long expires.")
    ] = default("admin_idle_minutes"),
    adjustment_approvals: Annotated[
        int,
        typer.Option(
            help="People a money adjustment needs: 2 (its requester and a second operator "
            "who approves it) or 1."
        ),
    ] = default("adjustment_approvals"),
    api_docs: Annotated[
        bool, typer.Option(help="Serve /docs and /openapi.json (off by default).")
    ] = default("api_docs"),
    metrics_token: Annotated[
        str | None,
        typer.Option(help="Let remote callers read /metrics with 'Authorization: Bearer <this>'."),
    ] = default("metrics_token"),
    metrics_public: Annotated[
        bool, typer.Option(help="Serve /metrics to anyone (default: loopback or the token).")
    ] = default("metrics_public"),
    behind_tls: Annotated[
        bool,
        typer.Option(
            help="Browsers reach this server only over HTTPS (e.g. through a TLS proxy): send "
            "Strict-Transport-Security, so that they never come back over plain HTTP."
        ),
    ] = default("behind_tls"),
    workers: Annotated[
        int,
        typer.Option(
            help="Processes on this machine, sharing the port (>1 needs PostgreSQL "
            "and --redis-url)."
        ),
    ] = default("workers"),
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="e.g. redis://127.0.0.1:6379/0: run as one of several processes "
            "(on this machine or others) against one PostgreSQL (docs/scaling.md)."
        ),
    ] = default("redis_url"),
    redis_prefix: Annotated[
        str, typer.Option(help="Prefix of the Redis keys (clusters sharing one Redis).")
    ] = default("redis_prefix"),
    lease_seconds: Annotated[
        float, typer.Option(help="Table lease: a dead process's tables move after this long.")
    ] = default("lease_seconds"),
    wallet: Annotated[
        str,
        typer.Option(
            help="builtin (the server's own wallet) or transfer (the operator's wallet at "
            "--wallet-url, debited and credited over signed HTTP; docs/wallet.md)."
        ),
    ] = default("wallet"),
    wallet_url: Annotated[
        str | None, typer.Option(help="The transfer wallet's base URL.")
    ] = default("wallet_url"),
    wallet_secret_file: Annotated[
        str | None,
        typer.Option(
            help="File whose first line is the secret shared with the transfer wallet "
            "(else the MAZZIERE_WALLET_SECRET environment variable)."
        ),
    ] = default("wallet_secret_file"),
    wallet_timeout_seconds: Annotated[
        float, typer.Option(help="Seconds the transfer wallet has to answer one call.")
    ] = default("wallet_timeout_seconds"),
    wallet_tries: Annotated[
        int, typer.Option(help="Tries of a top-up's debit before it is cancelled.")
    ] = default("wallet_tries"),
    head_seconds: Annotated[
        float,
        typer.Option(
            help="A connection that has not written its request's head (line and headers, "
            "a WebSocket's handshake) within this long is closed."
        ),
    ] = default("head_seconds"),
    max_heads_per_address: Annotated[
        int,
        typer.Option(
            help="Connections one address may have writing a request's head at once; more "
            "are closed as they open (0: no cap; raise it behind a proxy)."
        ),
    ] = default("max_heads_per_address"),
    rtp_watch_seconds: Annotated[
        float,
        typer.Option(
            help="How often one process reads the RTP watch into /metrics (0: never; "
            "GET /api/admin/rtp reads it on request)."
        ),
    ] = default("rtp_watch_seconds"),
    ledger_check_seconds: Annotated[
        float,
        typer.Option(help="How often one process runs the ledger check into /metrics (0: never)."),
    ] = default("ledger_check_seconds"),
    rtp_report: Annotated[
        str | None,
        typer.Option(
            help="The certification report (report.json of mazziere certify casino) whose "
            "payout distribution sets the RTP watch's bands."
        ),
    ] = default("rtp_report"),
    exclusion_register_url: Annotated[
        str | None,
        typer.Option(
            help="The external exclusion register asked at every login (GET ?username=&account=, "
            'answering {"excluded": bool, "until": ...}; docs/operators.md). Off by default.'
        ),
    ] = default("exclusion_register_url"),
    exclusion_register_timeout: Annotated[
        float,
        typer.Option(help="Seconds the exclusion register has to answer before it counts as down."),
    ] = default("exclusion_register_timeout"),
) -> None:
    """Start the server; the schema is migrated and unfinished tables resumed at start."""
    given = dict(locals())  # the options named as settings: their values, as typed
    import uvicorn

    from mazziere.server.app import create_app
    from mazziere.server.context import Settings
    from mazziere.server.settings import SettingsError
    from mazziere.server.transport import uvicorn_config

    known = {f.name for f in fields(Settings)}
    settings = Settings(data_dir=data, **{k: v for k, v in given.items() if k in known})
    if redis_url:  # the login throttle's counters are shared too
        settings.rate_limit_storage = redis_url
    try:
        settings.check()
    except SettingsError as e:
        typer.echo(f"mazziere serve: {e}", err=True)
        raise typer.Exit(2) from None
    where = f"http://{host}:{port} (database: {settings.url()}"
    where += f", redis: {redis_url}, {workers} processes)" if redis_url else ")"
    typer.echo(f"mazziere: serving on {where}", err=True)
    if workers == 1:
        uvicorn.Server(uvicorn_config(create_app(settings), settings, host, port)).run()
        return
    # several processes on one port, each with its own listening socket (the kernel spreads
    # the connections over them; see mazziere/server/workers.py), restarted if one dies
    from mazziere.server.workers import Supervisor

    try:
        Supervisor(json.dumps(settings.to_json()), host, port, workers).run()
    except OSError as e:
        typer.echo(f"mazziere serve: cannot listen on {host}:{port}: {e}", err=True)
        raise typer.Exit(2) from None


ledger_app = typer.Typer(help="Money records: reconciliation.", no_args_is_help=True)


@ledger_app.command("check")
def ledger_check(
    data: Annotated[Path, typer.Option(help="Folder of the SQLite database.")] = Path("data"),
    database_url: Annotated[str | None, typer.Option(help="A PostgreSQL URL instead.")] = None,
) -> None:
    """Prove that every account, session and the house balance to their entries and that the
    total is unchanged; exit 1 otherwise."""
    from mazziere.server.context import Settings
    from mazziere.server.store import ledger
    from mazziere.server.store.db import Database

    url = Settings(data_dir=data, database_url=database_url).url()
    if database_url is None and not (data / "mazziere.sqlite3").exists():
        typer.echo(f"error: no database in {data} (use --data or --database-url)", err=True)
        raise typer.Exit(2)

    async def run() -> ledger.LedgerReport:
        db = Database(url)
        try:
            await db.migrate()
            async with db.session() as s:
                return await ledger.check(s)
        finally:
            await db.close()

    rep = asyncio.run(run())
    typer.echo(
        f"transactions={rep.transactions} entries={rep.entries} books={rep.books} "
        f"issued={rep.issued} house={rep.house} total={rep.total}"
    )
    for p in rep.problems:
        typer.echo(f"PROBLEM: {p}")
    typer.echo("ledger: OK" if rep.ok else f"ledger: {len(rep.problems)} problem(s)")
    raise typer.Exit(0 if rep.ok else 1)
