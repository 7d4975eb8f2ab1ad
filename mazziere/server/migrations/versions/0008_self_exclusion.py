"""self-exclusion and the external exclusion register's answers

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
