"""``mazziere verify HAND_FILE`` (a hand replayed from its revealed seed, docs/verify.md) and
``mazziere attest`` (the manifest of the package's files, docs/security.md "Attested
software")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer


def verify(
    hand_file: Annotated[
        Path,
        typer.Argument(
            help="A hand's file (the history page's download, or GET /api/hands/ID/file)."
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Replay a hand from its revealed seed and recorded actions through the game's engine:
    check the commitment, print every card dealt; exit 1 if anything differs, 2 if the file
    is not a hand's file."""
    from mazziere import verify as V
    from mazziere.errors import MalformedAction

    try:
        record = V.read_hand_file(hand_file.read_text())
    except OSError as e:
        typer.echo(f"mazziere verify: cannot read {hand_file}: {e.strerror}", err=True)
        raise typer.Exit(2) from None
    except MalformedAction as e:
        typer.echo(f"mazziere verify: {hand_file}: {e.message}")
        raise typer.Exit(2) from None
    result = V.verify(record)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
    else:
        for line in V.report_lines(result, record.get("players")):
            typer.echo(line)
    raise typer.Exit(0 if result.ok else 1)


def attest(
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Accept this install's manifest in the database as the deployment's software "
            "(the server checks its files against it).",
        ),
    ] = False,
    check: Annotated[
        bool,
        typer.Option("--check", help="Compare with the accepted manifest; exit 1 if they differ."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
    data: Annotated[Path, typer.Option(help="Folder of the SQLite database.")] = Path("data"),
    database_url: Annotated[str | None, typer.Option(help="A PostgreSQL URL instead.")] = None,
) -> None:
    """Print a SHA-256 manifest of every file of the installed package (sha256sum's format:
    check it with `sha256sum -c` from the package's folder) and the hash of the whole."""
    from mazziere import attest as A

    manifest = A.build()
    if as_json:
        typer.echo(json.dumps(manifest.to_json(), indent=1))
    else:
        typer.echo(manifest.text(), nl=False)
        typer.echo(
            f"# {manifest.sha256}  the whole: SHA-256 of the {len(manifest.files)} lines above"
        )
    if not (record or check):
        return
    from mazziere.server.context import Settings

    url = Settings(data_dir=data, database_url=database_url).url()
    if database_url is None and not record and not (data / "mazziere.sqlite3").exists():
        typer.echo(f"error: no database in {data} (use --data or --database-url)", err=True)
        raise typer.Exit(2)
    differences = asyncio.run(_record_or_check(url, manifest, record))
    if record:
        typer.echo(f"# recorded {manifest.sha256} as the accepted manifest", err=True)
        return
    for d in differences:
        typer.echo(f"# DIFFERS {d}", err=True)
    typer.echo(
        "# attest: OK, the accepted manifest"
        if not differences
        else f"# attest: {len(differences)} file(s) differ from the accepted manifest",
        err=True,
    )
    raise typer.Exit(1 if differences else 0)


async def _record_or_check(url: str, manifest: object, record: bool) -> list[object]:
    from mazziere.attest import Manifest
    from mazziere.server.store import manifests
    from mazziere.server.store.db import Database

    assert isinstance(manifest, Manifest)
    db = Database(url)
    try:
        await db.migrate()
        async with db.write() as s:
            if record:
                await manifests.record(s, manifest, "mazziere attest --record")
                return []
            row = await manifests.accepted(s)
            if row is None:
                return ["no accepted manifest in the database (run mazziere attest --record)"]
            return list(manifests.manifest_of(row).differences(manifest))
    finally:
        await db.close()
