"""responsible-gaming limits, the sign-up choice and reality checks

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_limits",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("pending", sa.BigInteger(), nullable=True),
        sa.Column("pending_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("account_id", "kind"),
    )
    op.create_table(
        "player_protection",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("limits_choice", sa.String(length=10), nullable=True),
        sa.Column("reality_minutes", sa.Integer(), server_default=sa.text("60"), nullable=False),
        sa.Column("reality_seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("account_id"),
    )


def downgrade() -> None:
    op.drop_table("player_protection")
    op.drop_table("player_limits")
