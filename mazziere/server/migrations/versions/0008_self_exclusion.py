"""self-exclusion and the external exclusion register's answers

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "self_exclusions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("period_days", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lift_asked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_self_exclusions_account_id"), "self_exclusions", ["account_id"], unique=False
    )
    op.create_table(
        "exclusion_register_answers",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(length=20), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("detail", sa.String(length=200), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("account_id"),
    )


def downgrade() -> None:
    op.drop_table("exclusion_register_answers")
    op.drop_index(op.f("ix_self_exclusions_account_id"), table_name="self_exclusions")
    op.drop_table("self_exclusions")
