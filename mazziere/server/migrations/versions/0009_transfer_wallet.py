"""the operator's transfer wallet: every transfer and the outbox of credits

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 08:30:00
"""

from __future__ import annotations

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
