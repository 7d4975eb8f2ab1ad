"""Database schema (platform.md "Money and records"). Changed only through Alembic migrations
(mazziere/server/migrations); a test checks that the models and the migrations agree."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class Account(Base):
    """A player's account (its money lives in the ledger, book ``wallet:<id>``)."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    role: Mapped[str] = mapped_column(String(20), default="player", server_default=text("'player'"))
    """``player``, ``support``, ``operator``, ``auditor`` or ``admin``: what each may do in the
    back office is :data:`mazziere.server.roles.PERMISSIONS`."""
    status: Mapped[str] = mapped_column(
        String(20), default="active", server_default=text("'active'")
    )
    """``active`` or ``suspended`` (a suspended account cannot log in)."""


class AuthToken(Base):
    """A login session. Only the token's SHA-256 is stored. It ends when revoked (logout, a
    newer login) or when unused for the idle lifetime or older than the absolute one."""

    __tablename__ = "auth_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Last request or game action made with it (``None``: not since it was issued)."""
    revoked_reason: Mapped[str | None] = mapped_column(String(20), nullable=True)
    """``logout``, ``replaced`` (a newer login of the account), ``suspended``."""
    idle_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """This login's own idle lifetime (a back-office account's, shorter), else the policy's."""


class LedgerTxn(Base):
    """One money movement: its entries sum to zero. The idempotency key makes a retried
    request post nothing twice."""

    __tablename__ = "ledger_txns"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(40))
    ref: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LedgerEntry(Base):
    """An append-only line of a transaction: ``amount`` cents to (or from, if negative) a
    book: ``wallet:<account>``, ``casino:<session>``, ``house`` or ``mint``."""

    __tablename__ = "ledger_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txns.id"), index=True)
    book: Mapped[str] = mapped_column(String(80), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class Balance(Base):
    """The running balance of a book, updated in the same transaction as its entries. Only
    ``house``, ``mint`` and ``operator`` (the operator's transfer wallet, docs/wallet.md) may
    go below zero."""

    __tablename__ = "balances"
    __table_args__ = (
        CheckConstraint(
            "balance >= 0 OR book = 'house' OR book = 'mint' OR book = 'operator'",
            name="ck_balance_nonnegative",
        ),
    )
    book: Mapped[str] = mapped_column(String(80), primary_key=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class GameTable(Base):
    """A table in the lobby: its game, options, seats and status."""

    __tablename__ = "game_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(80))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), default="open")
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decision_seconds: Mapped[float] = mapped_column(Float, default=30.0)
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    """The fencing token of the process that last took this table (docs/scaling.md): every
    write of the table's actor checks it, so a process that lost the table writes nothing."""
    rematch_of: Mapped[int | None] = mapped_column(
        ForeignKey("game_tables.id"), nullable=True, unique=True
    )
    """The table whose players this one's rematch reseats: at most one rematch a table (the
    unique key settles two players asking at once, on any process)."""


class Hand(Base):
    """One hand (UNO match, casino round, poker deal): seed kept server-side, its commitment,
    result and money, and every action in :class:`HandAction`."""

    __tablename__ = "hands"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    game: Mapped[str] = mapped_column(String(20))
    seed: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(64))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), default="playing")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class HandAction(Base):
    """An action applied to a hand, in order, with the events it caused (as text)."""

    __tablename__ = "hand_actions"
    __table_args__ = (UniqueConstraint("hand_id", "seq", name="uq_hand_action_seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(80))
    actor: Mapped[str] = mapped_column(String(20))
    events: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class HandPlayer(Base):
    """Which account sat at which seat of a hand (for "my last hands")."""

    __tablename__ = "hand_players"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)


Index("ix_hand_players_account", HandPlayer.account_id)


class CreditSession(Base):
    """A casino table session: credit moved from the wallet, stakes and payouts, closed back."""

    __tablename__ = "casino_sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")


class WalletTransfer(Base):
    """One call to the operator's transfer wallet (docs/wallet.md): a casino top-up's
    ``debit``, a closing session's ``credit``, or the ``cancel`` that undoes a debit left in
    doubt. Written before the call (``pending``) and updated once the wallet answers, so no
    call is ever made that the database does not know of. The pending credits and cancels
    are the outbox (:mod:`mazziere.server.wallet.outbox`), retried until the wallet confirms."""

    __tablename__ = "wallet_transfers"
    __table_args__ = (
        Index("ix_wallet_transfers_due", "status", "next_attempt_at"),
        Index("ix_wallet_transfers_created_at", "created_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    request_id: Mapped[str] = mapped_column(String(64), unique=True)
    """The call's unique id (``X-Request-Id``): a retry sends the same one."""
    direction: Mapped[str] = mapped_column(String(10))
    """``debit`` (wallet -> casino session), ``credit`` (session -> wallet) or ``cancel``."""
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    session_id: Mapped[int | None] = mapped_column(ForeignKey("casino_sessions.id"), nullable=True)
    """The casino session (a first top-up's is known once its debit is recorded)."""
    table_id: Mapped[int | None] = mapped_column(ForeignKey("game_tables.id"), nullable=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20))
    """A debit: ``pending``, ``confirmed``, ``refused``, ``cancelling`` or ``cancelled``; a
    credit or a cancel: ``pending`` or ``confirmed``."""
    client_key: Mapped[str | None] = mapped_column(String(200), nullable=True, index=True)
    """The top-up's idempotency key (a retried top-up calls the wallet once)."""
    refers_to: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """A cancel's debit (its request id): at most one cancel a debit."""
    wallet_ref: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """The wallet's own reference of the movement, from its signed answer."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The process draining this outbox row, until ``claimed_until`` (a lease)."""
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AuditEntry(Base):
    """One line of the append-only audit log: a back-office action or a login, who did it,
    when, from which address, on what, and the state before and after. Written in the same
    transaction as the action it records; a trigger refuses UPDATE and DELETE (migration
    0004)."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    actor: Mapped[str] = mapped_column(String(64))
    """The actor's username as typed (a refused login's name may match no account)."""
    address: Mapped[str] = mapped_column(String(64), default="")
    action: Mapped[str] = mapped_column(String(40), index=True)
    target: Mapped[str] = mapped_column(String(120), default="", index=True)
    """What the action was on: ``account:<id>``, ``table:<id>``, ``adjustment:<id>``,
    ``game:<name>[/<preset>]``..."""
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)


class Adjustment(Base):
    """A manual money adjustment: requested with a reason, posted as one balanced ledger
    transaction between the account's wallet and a house book once approved (by a second
    operator unless a setting says one is enough), or rejected; nothing moves before."""

    __tablename__ = "adjustments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    """Cents into the wallet (negative: out of it), never zero."""
    house_account: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="pending", index=True)
    """``pending``, ``posted`` or ``rejected``."""
    requested_by: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decision_reason: Mapped[str] = mapped_column(Text, default="")
    txn_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_txns.id"), nullable=True)


class GameSwitch(Base):
    """A game (``preset`` empty) or one of its presets switched on or off for new tables; a
    game or preset without a row is on."""

    __tablename__ = "game_switches"
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean)
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SoftwareManifest(Base):
    """A manifest of the package's files accepted as this deployment's software (docs/security.md
    "Attested software"): recorded at the first start, or by ``mazziere attest --record``; the
    newest row is the one every process checks its own files against. Rows are only added."""

    __tablename__ = "software_manifests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sha256: Mapped[str] = mapped_column(String(64))
    """The hash of the whole manifest (:attr:`mazziere.attest.Manifest.sha256`)."""
    version: Mapped[str] = mapped_column(String(40))
    files: Mapped[list[Any]] = mapped_column(JSON)
    """``[{"path", "sha256"}, ...]``, sorted by path."""
    recorded_by: Mapped[str] = mapped_column(String(80))
    """``first start`` or ``mazziere attest --record``, with the host's name."""


class MatchResult(Base):
    """One seat's result in a finished match (a UNO match, a poker game), written in the
    transaction that records the match's end: the leaderboards and the player pages are sums
    over these rows, so they are right after a crash and whichever process serves the table
    (platform.md "Leaderboards")."""

    __tablename__ = "match_results"
    __table_args__ = (
        UniqueConstraint("hand_id", "seat", name="uq_match_result_seat"),
        Index("ix_match_results_game_ended", "game", "ended_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    game: Mapped[str] = mapped_column(String(20))
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    """The player (``None``: a computer player's seat)."""
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The computer player of the seat from the start (``None``: a player's seat)."""
    humans_only: Mapped[bool] = mapped_column(Boolean)
    """Every seat had a player when the match started."""
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    """The player left before the end (the computer finished the seat): no win, no points."""
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Final place, 1 first (``None``: the game ranks only its winner)."""
    won: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[int] = mapped_column(Integer, default=0)
    """Victory points (UNO, the online operator's scale); 0 where none."""
    chips: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Chips won (lost, if negative) over the game (poker); ``None`` where none."""
    level: Mapped[str | None] = mapped_column(String(20), nullable=True)
    """The computer opponent's level (poker)."""
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SelfExclusion(Base):
    """A player's self-exclusion (docs/rules/platform.md "Self-exclusion"): no login and no
    play from ``started_at`` until ``ends_at`` (``None``: without end). A timed one never
    changes; an endless one changes once, when its lift is asked (``lift_asked_at``), which
    sets ``ends_at`` to 7 days later."""

    __tablename__ = "self_exclusions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    period_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """30, 60 or 90 (``None``: without end)."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lift_asked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RegisterAnswer(Base):
    """The external exclusion register's answer about an account at its last login
    (:mod:`mazziere.server.register`): ``clear``, ``excluded`` or ``unavailable``. Real-money
    play waits for a ``clear`` one while the register is configured."""

    __tablename__ = "exclusion_register_answers"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    answer: Mapped[str] = mapped_column(String(20))
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """The end of the exclusion the register named, if any."""
    detail: Mapped[str] = mapped_column(String(200), default="")
    """Why the register could not answer (an error, a time-out, a malformed answer)."""
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# ------------------------------------------------------------------ player limits (platform.md)
class PlayerLimit(Base):
    """One responsible-gaming limit a player set (docs/rules/platform.md "Limits and reality
    checks"): ``kind`` is one of :data:`mazziere.server.store.limits.KINDS`. A lowered or new
    limit replaces ``amount`` at once; a raised or removed one waits in ``pending`` until
    ``pending_from``."""

    __tablename__ = "player_limits"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The limit in force: cents (top-ups, losses) or minutes (the login's play time);
    ``None``: none."""
    pending: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The raised value waiting for ``pending_from`` (``None`` with a ``pending_from``: the
    limit's removal)."""
    pending_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the pending raise or removal takes effect (``None``: nothing pending)."""
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerProtection(Base):
    """A player's answer to the sign-up question on limits and the reality-check rhythm."""

    __tablename__ = "player_protection"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    limits_choice: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """``set`` (limits chosen) or ``skipped``; ``None``: not answered yet, the client asks."""
    reality_minutes: Mapped[int] = mapped_column(Integer, default=60, server_default=text("60"))
    """Minutes of play between two reality checks."""
    reality_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the player last answered a reality check with "continue" (the next is due
    ``reality_minutes`` after it, or after the login if that is later)."""
