"""back office: account roles, suspension, audit log, adjustments awaiting approval, game switches

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

APPEND_ONLY = "the audit log is append-only"

SQLITE_TRIGGERS = [
    f"""CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END""",
    f"""CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END""",
]
POSTGRESQL_TRIGGERS = [
    f"""CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$""",
    """CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()""",
    """CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()""",
]


def upgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "role", sa.String(length=20), nullable=False, server_default=sa.text("'player'")
            )
        )
        batch_op.add_column(
            sa.Column(
                "status", sa.String(length=20), nullable=False, server_default=sa.text("'active'")
            )
        )
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("idle_seconds", sa.Float(), nullable=True))
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=120), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["actor_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_action"), ["action"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_log_target"), ["target"], unique=False)
    op.create_table(
        "adjustments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("house_account", sa.String(length=80), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("requested_by", sa.Integer(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=False),
        sa.Column("txn_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["requested_by"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["decided_by"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["txn_id"], ["ledger_txns.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("adjustments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_adjustments_account_id"), ["account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_adjustments_status"), ["status"], unique=False)
    op.create_table(
        "game_switches",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("changed_by", sa.Integer(), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["changed_by"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("game", "preset"),
    )
    triggers = SQLITE_TRIGGERS if op.get_bind().dialect.name == "sqlite" else POSTGRESQL_TRIGGERS
    for statement in triggers:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
    else:
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log")
        op.execute("DROP FUNCTION IF EXISTS audit_log_append_only()")
    op.drop_table("game_switches")
    with op.batch_alter_table("adjustments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_adjustments_status"))
        batch_op.drop_index(batch_op.f("ix_adjustments_account_id"))
    op.drop_table("adjustments")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_target"))
        batch_op.drop_index(batch_op.f("ix_audit_log_action"))
    op.drop_table("audit_log")
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.drop_column("idle_seconds")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("status")
        batch_op.drop_column("role")
