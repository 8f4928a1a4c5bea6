"""Initial schema: games, their action logs, events and their revisions, heartbeats.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("black_token_hash", sa.String(64), nullable=False),
        sa.Column("white_token_hash", sa.String(64), nullable=False),
        sa.Column("arbiter_token_hash", sa.String(64), nullable=True),
        sa.Column("event_id", sa.String(32), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("anchor_wall", sa.Float(), nullable=False),
        sa.Column("anchor_timeline", sa.Float(), nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_event_id", "games", ["event_id"])
    op.create_index("ix_games_owner", "games", ["owner"])
    op.create_table(
        "game_actions",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("wall", sa.Float(), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("organiser_token_hash", sa.String(64), nullable=False),
        sa.Column("arbiter_token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "event_revisions",
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("change", sa.JSON(), nullable=False),
        sa.Column("wall", sa.Float(), nullable=False),
    )
    op.create_table(
        "heartbeats",
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("wall", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
    op.drop_table("event_revisions")
    op.drop_table("events")
    op.drop_table("game_actions")
    op.drop_index("ix_games_owner", "games")
    op.drop_index("ix_games_event_id", "games")
    op.drop_index("ix_games_status", "games")
    op.drop_table("games")
