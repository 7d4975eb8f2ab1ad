"""The accepted manifests of the package's files (docs/security.md "Attested software"): the
newest row is the one every process of the deployment checks its own files against."""

from __future__ import annotations

import socket

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.attest import Manifest
from mazziere.server.store.models import SoftwareManifest


async def accepted(db: AsyncSession) -> SoftwareManifest | None:
    """The manifest recorded last (``None``: none yet, a first start)."""
    return await db.scalar(select(SoftwareManifest).order_by(SoftwareManifest.id.desc()).limit(1))


async def record(db: AsyncSession, manifest: Manifest, how: str) -> SoftwareManifest:
    """Accept ``manifest`` as this deployment's software (``how``: ``first start`` or
    ``mazziere attest --record``; the host's name is added)."""
    row = SoftwareManifest(
        sha256=manifest.sha256,
        version=manifest.version,
        files=manifest.to_json()["files"],
        recorded_by=f"{how} on {socket.gethostname()}"[:80],
    )
    db.add(row)
    await db.flush()
    return row


def manifest_of(row: SoftwareManifest) -> Manifest:
    return Manifest.from_json({"files": row.files, "version": row.version})
