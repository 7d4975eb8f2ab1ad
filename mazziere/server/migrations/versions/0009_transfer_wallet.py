"""the operator's transfer wallet: every transfer and the outbox of credits

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

BOUNDED_BEFORE = "balance >= 0 OR book = 'house' OR book = 'mint'"
BOUNDED_AFTER = "balance >= 0 OR book = 'house' OR book = 'mint' OR book = 'operator'"
"""The ``operator`` book (the operator's wallet seen from the ledger) goes below zero as the
``mint`` does: money that came in from outside."""


def _bounded(check: str) -> None:
    with op.batch_alter_table("balances") as batch_op:
        batch_op.drop_constraint("ck_balance_nonnegative", type_="check")
        batch_op.create_check_constraint("ck_balance_nonnegative", check)


def upgrade() -> None:
    op.create_table(
        "wallet_transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("direction", sa.String(length=10), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("client_key", sa.String(length=200), nullable=True),
        sa.Column("refers_to", sa.String(length=64), nullable=True),
        sa.Column("wallet_ref", sa.String(length=100), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(length=80), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["session_id"], ["casino_sessions.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("refers_to"),
        sa.UniqueConstraint("request_id"),
    )
    op.create_index(
        op.f("ix_wallet_transfers_account_id"), "wallet_transfers", ["account_id"], unique=False
    )
    op.create_index(
        op.f("ix_wallet_transfers_client_key"), "wallet_transfers", ["client_key"], unique=False
    )
    op.create_index(
        "ix_wallet_transfers_created_at", "wallet_transfers", ["created_at"], unique=False
    )
    op.create_index(
        "ix_wallet_transfers_due", "wallet_transfers", ["status", "next_attempt_at"], unique=False
    )
    _bounded(BOUNDED_AFTER)


def downgrade() -> None:
    _bounded(BOUNDED_BEFORE)
    op.drop_index("ix_wallet_transfers_due", table_name="wallet_transfers")
    op.drop_index("ix_wallet_transfers_created_at", table_name="wallet_transfers")
    op.drop_index(op.f("ix_wallet_transfers_client_key"), table_name="wallet_transfers")
    op.drop_index(op.f("ix_wallet_transfers_account_id"), table_name="wallet_transfers")
    op.drop_table("wallet_transfers")
