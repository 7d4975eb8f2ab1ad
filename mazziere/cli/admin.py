"""``mazziere admin create-user`` and ``mazziere admin set-role``: back-office accounts from
the command line, the first admin included (docs/operators.md). There is no default password:
it is asked twice without echo, or read from standard input with ``--password-stdin``."""

from __future__ import annotations

import asyncio
import getpass
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from mazziere.server.store.audit import Actor

T = TypeVar("T")

admin_app = typer.Typer(
    help="Back-office accounts: create one, change a role.", no_args_is_help=True
)

Data = Annotated[Path, typer.Option(help="Folder of the SQLite database.")]
DatabaseUrl = Annotated[str | None, typer.Option(help="A PostgreSQL URL instead.")]


def _run(data: Path, database_url: str | None, job: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``job`` in one transaction of the database (migrated first), a refusal printed as
    one line with exit code 1."""
    from mazziere.errors import MazziereError
    from mazziere.server.context import Settings
    from mazziere.server.store.db import Database

    url = Settings(data_dir=data, database_url=database_url).url()
    if database_url is None:
        data.mkdir(parents=True, exist_ok=True)

    async def run() -> T:
        db = Database(url)
        try:
            await db.migrate()
            async with db.write() as s:
                return await job(s)
        finally:
            await db.close()

    try:
        return asyncio.run(run())
    except MazziereError as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(1) from None


def _actor() -> Actor:
    """The command line's person, as the audit log names it."""
    from mazziere.server.store.audit import Actor

    return Actor(None, f"cli:{getpass.getuser()}", "command line")


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(typer.prompt("Password", hide_input=True, confirmation_prompt=True))


@admin_app.command("create-user")
def create_user(
    name: Annotated[str, typer.Argument(help="The new account's username.")],
    role: Annotated[
        str, typer.Option(help="player, support, operator, auditor or admin.")
    ] = "admin",
    password_stdin: Annotated[
        bool, typer.Option(help="Read the password from standard input (one line).")
    ] = False,
    data: Data = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """Create an account with a role (no demo credit); the password follows the server's
    policy (10 characters at least, not common, not guessable)."""
    from mazziere.server import roles
    from mazziere.server.store import accounts, audit

    try:
        roles.check_role(role)
        password = _password(password_stdin)
        digest = asyncio.run(accounts.hash_new_password(name, password))
    except (roles.UnknownRole, accounts.PolicyError) as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(1) from None

    async def job(db: AsyncSession) -> int:
        acc = await accounts.create_account(db, name, digest, demo_credit=0)
        acc.role = role
        await db.flush()
        after = {"username": name, "role": role}
        await audit.record(db, _actor(), "account_created", f"account:{acc.id}", None, after)
        return acc.id

    account_id = _run(data, database_url, job)
    typer.echo(f"created {name} (account {account_id}) with the role {role}")


@admin_app.command("set-role")
def set_role(
    name: Annotated[str, typer.Argument(help="The account's username.")],
    role: Annotated[str, typer.Argument(help="player, support, operator, auditor or admin.")],
    data: Data = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """Give an account another role (``player`` takes every back-office permission away)."""
    from mazziere.server.store import audit, staff

    async def job(db: AsyncSession) -> str:
        acc = await staff.by_name(db, name)
        before = await staff.set_role(db, acc, role)
        await audit.record(
            db, _actor(), "role_set", f"account:{acc.id}", {"role": before}, {"role": role}
        )
        return before

    before = _run(data, database_url, job)
    typer.echo(f"{name}: role {before} -> {role}")
