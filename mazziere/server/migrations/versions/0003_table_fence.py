"""table fence: the fencing token of the process that owns a table (docs/scaling.md)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("fence", sa.BigInteger(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_column("fence")
