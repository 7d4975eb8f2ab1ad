"""Server settings: everything an operator may set, in one place (``mazziere serve --help``
lists the common ones)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazziere.server.wallet.contract import WALLET_SECRET_ENV, read_secret

if TYPE_CHECKING:  # imported where used: the command line reads the defaults without them
    from mazziere.server.store.accounts import TokenPolicy


def default(name: str) -> Any:
    """The default of setting ``name`` (``mazziere serve``'s options take theirs from here).

    >>> default("limit_raise_hours")
    24.0
    """
    found = next(f for f in fields(Settings) if f.name == name)
    return found.default_factory() if callable(found.default_factory) else found.default


class SettingsError(ValueError):
    """Settings that cannot work together (``mazziere serve`` prints the message)."""


@dataclass
class Settings:
    """Everything an operator may set (``mazziere serve --help`` lists the common ones)."""

    data_dir: Path = field(default_factory=lambda: Path("data"))
    database_url: str | None = None
    demo_credit: int = 100_000
    """Cents credited on sign-up (play money)."""
    hold_seconds: float = 120.0
    """A dropped player's seat is held this long (platform.md)."""
    quickplay_fill_seconds: float = 10.0
    """A quick-play table not full this long after its first player sat down starts with
    computer players in its free seats."""
    rematch_seconds: float = 30.0
    """A rematch's table waits this long for the players it invited, then starts with
    computer players in the seats still free."""
    casino_close_seconds: float = 180.0
    """A disconnected casino session with no pending decision closes after this long (000)."""
    casino_session_cap: int = 100_000
    """Most cents of stakes plus top-ups one casino credit session takes (EUR 1,000), for
    every player (docs/rules/platform.md "Limits and reality checks")."""
    limit_raise_hours: float = 24.0
    """A player's raised or removed limit takes effect this long after it was asked (a new or
    lowered one at once)."""
    inactivity_seconds: float = 1200.0
    """No game action for this long: warning, then disconnection (000)."""
    inactivity_warning_seconds: float = 60.0
    """How long before the disconnection the warning comes."""
    max_messages_per_second: float = 20.0
    """Messages a connection may send per second; more get one ``rate_limited`` error, then
    are dropped, and a connection still over the limit after ``flood_grace_seconds`` is
    closed with 1008."""
    flood_grace_seconds: float = 2.0
    auth_seconds: float = 10.0
    """A new connection must send ``auth`` within this long (else closed, 4003)."""
    silent_seconds: float = 90.0
    """A connection that sends nothing for this long is closed (4007); clients ping every
    25 s."""
    ws_ping_seconds: float = 20.0
    """WebSocket ping interval (and pong timeout): dead peers are found and dropped."""
    head_seconds: float = 5.0
    """A connection must send its request's head (request line and headers, a WebSocket's
    handshake) within this long of opening, or of its previous answer, else it is closed: a
    half-written request holds no socket for long (docs/security.md)."""
    max_heads_per_address: int = 64
    """Connections from one address still sending a request's head at once; one more is
    closed as it opens (0: no cap). Behind a proxy every connection comes from the proxy's
    address: raise it there, or cap at the proxy."""
    ws_max_bytes: int = 65536
    """Transport limit of one WebSocket message; a larger one closes the socket with 1009."""
    token_idle_seconds: float = 3600.0
    """A login session unused this long expires (1 hour)."""
    token_absolute_seconds: float = 12 * 3600.0
    """A login session expires this long after the login whatever its use (12 hours)."""
    token_touch_seconds: float = 60.0
    """A token's use is recorded at most this often (one write a minute, not one a request)."""
    login_limit_account: str = "5 per 5 minutes"
    """Login attempts allowed per account (``limits`` notation), each counted before its
    password is verified; more get 429. A right password clears the account's count, so in
    effect these are failures (:class:`~mazziere.server.throttle.LoginThrottle`)."""
    login_limit_address: str = "30 per 5 minutes"
    """Login attempts allowed per client address, successes included; more get 429."""
    rate_limit_storage: str = "memory://"
    """Where login counters live (``limits`` storage URL; ``redis://...`` for several
    processes)."""
    api_docs: bool = False
    """Serve ``/docs`` and ``/openapi.json`` (off in production)."""
    metrics_token: str | None = None
    """If set, ``/metrics`` also answers remote callers that send ``Bearer <token>``."""
    metrics_public: bool = False
    """Serve ``/metrics`` to anyone (default: loopback callers, or the metrics token)."""
    behind_tls: bool = False
    """Browsers reach this server only over HTTPS (its own TLS or a proxy's in front): every
    answer then carries Strict-Transport-Security (:mod:`mazziere.server.app`)."""
    argon2_time_cost: int = 3
    """Argon2 iterations for new password hashes."""
    argon2_memory_kib: int = 65536
    """Argon2 memory for new password hashes (KiB)."""
    admin_idle_minutes: float = 15.0
    """A back-office account's login unused this long expires (its players' limit is
    ``token_idle_seconds``)."""
    adjustment_approvals: int = 2
    """People an adjustment needs before it posts: 2, its requester and a second operator or
    admin who approves it; 1, its requester may approve it."""

    redis_url: str | None = None
    """Several processes (docs/scaling.md): the Redis that holds table leases, presence and
    seating and carries messages between processes; needs PostgreSQL (``database_url``)."""
    redis_prefix: str = "mz:"
    """Prefix of every Redis key and channel (several clusters may share one Redis)."""
    lease_seconds: float = 5.0
    """A table's lease: renewed every third of this; a dead process's tables are taken over
    by another this long after its last renewal."""
    workers: int = 1
    """Processes ``mazziere serve`` starts on this machine (sharing its port)."""

    settle_heap: bool = True
    """Once started, freeze the objects alive and collect cycles less often
    (:func:`mazziere.server.app.settle_heap`); tests running many servers in one process turn
    it off."""
    heap_sweep_seconds: float = 600.0
    """With ``settle_heap``: how often the whole heap is looked over for cycles
    (:func:`mazziere.server.app.sweep_heap`)."""

    rtp_watch_seconds: float = 60.0
    """How often one process reads the RTP watch into the metrics (``mazziere_rtp_*``); 0:
    never (``GET /api/admin/rtp`` still reads it on request). Each reading sums every settled
    round once (:mod:`mazziere.server.monitoring`)."""
    ledger_check_seconds: float = 900.0
    """How often one process runs the ledger check (``mazziere ledger check``) into the
    metrics (``mazziere_check_*{check="ledger"}``); 0: never. It reads the whole ledger."""
    rtp_report: str | None = None
    """The certification report (``report.json`` of ``mazziere certify casino``) whose payout
    distribution sets the RTP watch's bands; default the source tree's, else the widest
    volatility the payouts allow (:mod:`mazziere.server.rtp_monitor`)."""

    wallet: str = "builtin"
    """Where a casino session's money comes from (docs/wallet.md): ``builtin`` (the server's
    own wallet, demo credit at sign-up) or ``transfer`` (the operator's wallet at
    ``wallet_url``: a session's opening and every top-up debit it over signed HTTP, its close
    credits it, retried from the outbox until confirmed)."""
    wallet_url: str | None = None
    """The transfer wallet's base URL (``http://`` or ``https://``)."""
    wallet_secret_file: str | None = None
    """A file whose first line is the secret shared with the transfer wallet (it signs every
    request and answer); else the ``MAZZIERE_WALLET_SECRET`` environment variable. Never a
    command-line value, which any process list would show."""
    wallet_timeout_seconds: float = 5.0
    """Seconds the transfer wallet has to answer one call."""
    wallet_tries: int = 3
    """Tries of a top-up's debit (the same request id) before it counts as unanswered and is
    cancelled."""
    wallet_retry_seconds: float = 0.5
    """The first pause between tries, doubled at each one (a top-up's, the outbox's)."""
    wallet_retry_max_seconds: float = 300.0
    """The longest pause between two tries of an outbox row."""
    wallet_poll_seconds: float = 5.0
    """How often each process looks for due outbox rows when none was just added."""

    attest_seconds: float = 86400.0
    """How often the server checks its own files against the accepted manifest (also at
    start); while they differ money tables do not open (:mod:`mazziere.server.attestation`)."""

    exclusion_register_url: str | None = None
    """The external exclusion register asked at every login and sign-up (off when unset):
    ``GET <url>?username=...&account=...`` answered ``{"excluded": bool, "until": ...}``
    (:mod:`mazziere.server.register`, docs/operators.md). Excluded there, the login is
    refused; no clear answer, the player may log in but not play for money."""
    exclusion_register_timeout: float = 3.0
    """Seconds the register has to answer a login's question before it counts as
    unavailable."""

    def check(self) -> None:
        """Refuse settings that cannot work together, with a clear message."""
        sqlite = self.url().startswith("sqlite")
        if self.workers < 1:
            raise SettingsError("--workers is at least 1")
        if self.adjustment_approvals not in (1, 2):
            raise SettingsError("--adjustment-approvals is 1 or 2")
        if self.exclusion_register_url and not self.exclusion_register_url.startswith(
            ("http://", "https://")
        ):
            raise SettingsError("--exclusion-register-url is an http:// or https:// URL")
        if self.exclusion_register_timeout <= 0:
            raise SettingsError("--exclusion-register-timeout is above 0")
        if self.casino_session_cap < 1 or self.limit_raise_hours < 0:
            raise SettingsError(
                "--casino-session-cap is at least 1 cent, --limit-raise-hours 0 or more"
            )
        if self.wallet not in ("builtin", "transfer"):
            raise SettingsError("--wallet is builtin or transfer")
        if self.wallet == "transfer" and not (self.wallet_url or "").startswith(
            ("http://", "https://")
        ):
            raise SettingsError("--wallet transfer needs --wallet-url http(s)://...")
        if self.wallet_tries < 1 or self.wallet_timeout_seconds <= 0:
            raise SettingsError("--wallet-tries is at least 1, --wallet-timeout-seconds above 0")
        if self.wallet == "transfer":
            try:
                read_secret(self.wallet_secret_file, os.environ.get(WALLET_SECRET_ENV))
            except (OSError, ValueError) as e:
                raise SettingsError(
                    f"--wallet transfer needs the shared secret in --wallet-secret-file or "
                    f"{WALLET_SECRET_ENV}: {e}"
                ) from None
        if self.admin_idle_minutes <= 0:
            raise SettingsError("--admin-idle-minutes is above 0")
        if self.rtp_watch_seconds < 0 or self.ledger_check_seconds < 0:
            raise SettingsError("--rtp-watch-seconds and --ledger-check-seconds are 0 or more")
        if self.rtp_report is not None and not Path(self.rtp_report).is_file():
            raise SettingsError(f"--rtp-report: no certification report at {self.rtp_report}")
        if self.workers > 1 and sqlite:
            raise SettingsError(
                "--workers > 1 needs PostgreSQL: SQLite is a file one process writes; pass "
                "--database-url postgresql://... and --redis-url redis://..."
            )
        if self.workers > 1 and not self.redis_url:
            raise SettingsError(
                "--workers > 1 needs Redis for table leases, presence and messages between "
                "processes: pass --redis-url redis://..."
            )
        if self.redis_url and sqlite:
            raise SettingsError(
                "--redis-url runs several processes on one database: use PostgreSQL "
                "(--database-url postgresql://...), not SQLite"
            )

    def to_json(self) -> dict[str, object]:
        """Every setting, for the worker processes (:meth:`from_json` reads it back)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["data_dir"] = str(self.data_dir)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["data_dir"] = Path(values.get("data_dir", "data"))
        return cls(**values)

    def url(self) -> str:
        from mazziere.server.store.db import sqlite_url

        return self.database_url or sqlite_url(self.data_dir)

    def token_policy(self) -> TokenPolicy:
        from mazziere.server.store.accounts import TokenPolicy

        return TokenPolicy(
            idle=self.token_idle_seconds,
            absolute=self.token_absolute_seconds,
            touch=self.token_touch_seconds,
            staff_idle=self.admin_idle_minutes * 60.0,
        )
