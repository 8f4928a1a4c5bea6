"""Event results that cannot be lost: the result outbox, and games closed by the director.

``event_outbox`` holds a finished event game's result sheet, written in the same transaction as
the action that finished the game and deleted in the same transaction as the event change that
enters it; a server re-reads it at start-up. ``games.closed`` names the director's entry that
closed an online game (its later actions are refused).

Revision ID: 0002_i10a_outbox
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_i10a_outbox"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), nullable=False, index=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("wall", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="uq_event_outbox_game_version"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("closed", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("closed")
    op.drop_table("event_outbox")
