"""``mazziere wallet reconcile`` (every transfer of a day with the operator's wallet) and
``mazziere wallet-demo`` (the reference transfer wallet service), docs/wallet.md."""

from __future__ import annotations

import asyncio
import csv
import os
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

wallet_app = typer.Typer(
    help="The operator's transfer wallet: reconciliation.", no_args_is_help=True
)


@wallet_app.command("reconcile")
def reconcile(
    day: Annotated[str, typer.Option(help="The day (UTC), YYYY-MM-DD.", metavar="YYYY-MM-DD")] = "",
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV on standard output.")] = False,
    data: Annotated[Path, typer.Option(help="Folder of the SQLite database.")] = Path("data"),
    database_url: Annotated[str | None, typer.Option(help="A PostgreSQL URL instead.")] = None,
) -> None:
    """List every transfer of a day with the operator's wallet: request id, account, session,
    direction, amount, status and the wallet's reference; then the day's totals."""
    from mazziere.server.context import Settings
    from mazziere.server.store import transfers
    from mazziere.server.store.db import Database

    try:
        when = date.fromisoformat(day) if day else datetime.now(UTC).date()
    except ValueError:
        typer.echo(f"error: --day takes YYYY-MM-DD, not {day!r}", err=True)
        raise typer.Exit(2) from None
    if database_url is None and not (data / "mazziere.sqlite3").exists():
        typer.echo(f"error: no database in {data} (use --data or --database-url)", err=True)
        raise typer.Exit(2)
    url = Settings(data_dir=data, database_url=database_url).url()

    async def run() -> list[dict[str, Any]]:
        db = Database(url)
        try:
            await db.migrate()
            async with db.session() as s:
                return await transfers.of_day(s, when)
        finally:
            await db.close()

    lines = asyncio.run(run())
    if as_csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(transfers.COLUMNS)
        for line in lines:
            out.writerow(["" if line[c] is None else line[c] for c in transfers.COLUMNS])
        return
    for line in lines:
        typer.echo(
            f"{line['request_id']}  {line['created_at'][:19]}  account={line['account']}  "
            f"session={line['session'] or '-'}  {line['direction']:<6}  {line['amount']:>10}  "
            f"{line['status']:<10}  ref={line['wallet_ref'] or '-'}"
        )
    for direction in (transfers.DEBIT, transfers.CREDIT, transfers.CANCEL):
        done = [x for x in lines if x["direction"] == direction]
        sums = {s: sum(x["amount"] for x in done if x["status"] == s) for s in _statuses(done)}
        listed = ", ".join(f"{s} {n}" for s, n in sorted(sums.items())) or "none"
        typer.echo(f"{direction}s: {len(done)} ({listed})")


def _statuses(lines: list[dict[str, Any]]) -> set[str]:
    return {str(x["status"]) for x in lines}


def wallet_demo(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8700,
    state: Annotated[
        Path, typer.Option(help="The SQLite file holding its state (kept across restarts).")
    ] = Path("wallet-demo.sqlite3"),
    secret_file: Annotated[
        Path | None,
        typer.Option(
            help="File whose first line is the shared secret (else the "
            "MAZZIERE_WALLET_SECRET environment variable)."
        ),
    ] = None,
    opening_balance: Annotated[
        int, typer.Option(help="Cents a player it has not seen yet starts with.")
    ] = 100_000,
    slow: Annotated[float, typer.Option(help="Seconds to wait before each answer.")] = 0.0,
    slow_first_only: Annotated[
        bool, typer.Option(help="Only a request id's first call is slow.")
    ] = False,
    fail_share: Annotated[
        float, typer.Option(help="Share of calls answered 503 unavailable (0-1).")
    ] = 0.0,
    answer_twice: Annotated[
        bool,
        typer.Option(help="Lose each movement's first answer: the retry is answered again."),
    ] = False,
) -> None:
    """Run the reference transfer wallet (docs/wallet.md), for trying ``--wallet transfer``."""
    import uvicorn

    from mazziere.server.wallet.contract import WALLET_SECRET_ENV, read_secret
    from mazziere.server.wallet.demo import DemoWallet, Faults

    try:
        secret = read_secret(
            str(secret_file) if secret_file else None, os.environ.get(WALLET_SECRET_ENV)
        )
    except (OSError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    faults = Faults(slow, slow_first_only, fail_share, answer_twice)
    wallet = DemoWallet(state, secret, opening_balance, faults)
    typer.echo(f"wallet-demo: serving on http://{host}:{port} (state: {state})", err=True)
    uvicorn.run(wallet.app(), host=host, port=port, log_level="warning")
