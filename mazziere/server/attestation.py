"""The server checks its own files (docs/security.md "Attested software"): at start and every
``Settings.attest_seconds`` (a day by default) it builds the manifest of its package
(:mod:`mazziere.attest`) and compares it with the manifest accepted in the database; while they
differ, money tables do not open (:meth:`Attestation.require_for_money`: a new casino table,
a top-up or a stake is refused with ``software_unattested``) and the problem is logged. Tables
without money play on.

The accepted manifest lives in the database, not in the data folder: every process of a
deployment, on every machine, checks against the one manifest the operator accepted (a machine
with other files is refused money tables even if its own folder agrees with itself), and it is
kept, backed up and audited with the records it protects. The first start records it (there is
nothing to compare with yet); ``mazziere attest --record`` accepts a new install explicitly.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazziere import attest
from mazziere.attest import Difference, Manifest
from mazziere.server.store import manifests
from mazziere.server.table.errors import TableError

if TYPE_CHECKING:
    from mazziere.server.ports import Jobs

log = logging.getLogger("mazziere.server.attestation")

SHOWN_DIFFERENCES = 20
"""The differences a log line and ``/api/attest`` name (and how many more there are)."""


class SoftwareUnattested(TableError):
    """Money tables are closed: this server's files differ from the accepted manifest."""

    default_code = "software_unattested"


class Attestation:
    """The last check of this process's files against the accepted manifest."""

    def __init__(self, root: Path = attest.PACKAGE_DIR) -> None:
        self.root = root
        self.current: Manifest | None = None
        self.accepted_sha256: str | None = None
        self.accepted_at: datetime | None = None
        self.differences: list[Difference] = []
        self.checked_at: datetime | None = None
        self.failure: str | None = None
        """Why the last check could not run (the database, a file that cannot be read)."""
        self._timer: Any = None

    @property
    def status(self) -> str:
        """``unchecked`` (before the first check), ``ok``, ``differs`` or ``failed``."""
        if self.failure is not None:
            return "failed"
        if self.checked_at is None:
            return "unchecked"
        return "differs" if self.differences else "ok"

    def require_for_money(self) -> None:
        """Refuse to open money (a casino table, a top-up, a stake) unless the last check
        found this server's files as accepted."""
        if self.status in ("differs", "failed"):
            what = (
                f"{len(self.differences)} file(s) differ from the accepted manifest"
                if self.differences
                else f"the check of its files failed ({self.failure})"
            )
            raise SoftwareUnattested(
                f"money tables are closed: this server's software is not the accepted one "
                f"({what}); tables without money play on"
            )

    async def check(self, server: Jobs) -> None:
        """Build the manifest of the package's files and compare it with the accepted one,
        recording it if none is (the first start)."""
        try:
            current = await asyncio.to_thread(attest.build, self.root)
            async with server.db.write() as db:
                row = await manifests.accepted(db)
                if row is None:
                    row = await manifests.record(db, current, "first start")
                    log.info("attestation: manifest %s recorded at the first start", row.sha256)
                accepted = manifests.manifest_of(row)
                sha, at = row.sha256, row.recorded_at
        except Exception as e:  # any failure closes money tables, and is logged
            self.failure = f"{type(e).__name__}: {e}"
            self.checked_at = datetime.now(UTC)
            log.error("attestation: the check failed, money tables are closed: %s", self.failure)
            return
        self.current, self.accepted_sha256, self.accepted_at = current, sha, at
        self.differences = accepted.differences(current)
        self.failure = None
        self.checked_at = datetime.now(UTC)
        if self.differences:
            shown = ", ".join(str(d) for d in self.differences[:SHOWN_DIFFERENCES])
            more = len(self.differences) - SHOWN_DIFFERENCES
            log.error(
                "attestation: this server's files (%s) differ from the accepted manifest (%s), "
                "money tables are closed until the files are restored or accepted "
                "(`mazziere attest --record` after an upgrade): %s%s",
                current.sha256,
                sha,
                shown,
                f" and {more} more" if more > 0 else "",
            )
        else:
            log.info("attestation: files match the accepted manifest %s", sha)

    def schedule(self, server: Jobs) -> None:
        """Check again every ``attest_seconds`` of the server's clock."""

        async def again() -> None:
            await self.check(server)
            self.schedule(server)

        self._timer = server.later(server.settings.attest_seconds, again)

    def stop(self) -> None:
        """No more checks (the server stops)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def to_json(self) -> dict[str, Any]:
        """What ``GET /api/attest`` serves: this process's manifest, the accepted one's hash
        and the last check."""
        out: dict[str, Any] = (
            self.current.to_json() if self.current is not None else {"package": "mazziere"}
        )
        out["status"] = self.status
        out["checked_at"] = None if self.checked_at is None else self.checked_at.isoformat()
        out["accepted"] = (
            None
            if self.accepted_sha256 is None
            else {
                "sha256": self.accepted_sha256,
                "recorded_at": None if self.accepted_at is None else self.accepted_at.isoformat(),
            }
        )
        out["differences"] = [
            {"path": d.path, "kind": d.kind} for d in self.differences[:SHOWN_DIFFERENCES]
        ]
        out["differences_count"] = len(self.differences)
        if self.failure is not None:
            out["failure"] = self.failure
        return out
