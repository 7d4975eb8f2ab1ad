"""match results: one row per seat of each finished match, for leaderboards and player pages;
a table's rematch

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.Column("humans_only", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=True),
        sa.Column("level", sa.String(length=20), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("hand_id", "seat", name="uq_match_result_seat"),
    )
    op.create_index("ix_match_results_account_id", "match_results", ["account_id"], unique=False)
    op.create_index(
        "ix_match_results_game_ended", "match_results", ["game", "ended_at"], unique=False
    )
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch_op.create_unique_constraint("uq_game_tables_rematch_of", ["rematch_of"])
        batch_op.create_foreign_key(
            "fk_game_tables_rematch_of", "game_tables", ["rematch_of"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_constraint("fk_game_tables_rematch_of", type_="foreignkey")
        batch_op.drop_constraint("uq_game_tables_rematch_of", type_="unique")
        batch_op.drop_column("rematch_of")
    op.drop_index("ix_match_results_game_ended", table_name="match_results")
    op.drop_index("ix_match_results_account_id", table_name="match_results")
    op.drop_table("match_results")
