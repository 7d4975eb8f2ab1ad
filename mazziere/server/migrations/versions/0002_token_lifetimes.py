"""token lifetimes: when a login session was last used, and why it ended

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("revoked_reason", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.drop_column("revoked_reason")
        batch_op.drop_column("last_used_at")
