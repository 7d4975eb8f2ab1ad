"""responsible-gaming limits, the sign-up choice and reality checks

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
