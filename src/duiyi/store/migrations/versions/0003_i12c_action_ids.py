"""Action ids decided by the database, and engine games counted across processes.

``game_action_ids`` holds one row per action id of a game (the client's, or a forwarding
attempt's), unique on (game_id, action_id), in one of two states: ``committed`` (inserted by
the owner in the same transaction as the log entries, with the version they reached) or
``refused`` (a tombstone inserted by a process that forwarded the attempt and gave up waiting,
before it answers an error). Whichever row is first
in the database wins; the other insert fails, so an action answered with an error is never
applied later and no clock is involved. The ids that older versions kept inside log entries are
copied into the table.

``games.engine_client`` marks a game against an engine (a digest of the address that started
it, empty when unknown) and ``games.active_at`` is the wall-clock instant of its last commit, so
that the caps on live engine games hold for all processes together.

Revision ID: 0003_i12c_action_ids
Revises: 0002_i10a_outbox
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003_i12c_action_ids"
down_revision = "0002_i10a_outbox"
branch_labels = None
depends_on = None


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    op.create_table(
        "game_action_ids",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("action_id", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("engine_client", sa.String(64), nullable=True))
        batch.add_column(sa.Column("active_at", sa.Float(), nullable=True))
    op.create_index("ix_games_engine_client", "games", ["engine_client"])
    conn = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("config", sa.JSON),
        sa.column("status", sa.String),
        sa.column("created_at", sa.Float),
        sa.column("engine_client", sa.String),
        sa.column("active_at", sa.Float),
    )
    conn.execute(sa.update(games).values(active_at=games.c.created_at))
    for game_id, config in conn.execute(
        sa.select(games.c.id, games.c.config).where(games.c.status == "live")
    ).all():
        if isinstance((_json(config) or {}).get("engine"), dict):
            conn.execute(sa.update(games).where(games.c.id == game_id).values(engine_client=""))
    # the ids older versions stored in log entries
    actions = sa.table(
        "game_actions",
        sa.column("game_id", sa.String),
        sa.column("version", sa.Integer),
        sa.column("entry", sa.JSON),
    )
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for game_id, version, entry in conn.execute(
        sa.select(actions.c.game_id, actions.c.version, actions.c.entry).where(
            sa.cast(actions.c.entry, sa.Text).like('%"action_id"%')
        )
    ).all():
        action_id = (_json(entry) or {}).get("action_id")
        if isinstance(action_id, str) and (game_id, action_id) not in rows:
            rows[game_id, action_id] = {
                "game_id": game_id,
                "action_id": action_id,
                "state": "committed",
                "version": version,
            }  # the first entry with an id is the one its retries were answered with
    if rows:
        ids = sa.table(
            "game_action_ids",
            sa.column("game_id", sa.String),
            sa.column("action_id", sa.String),
            sa.column("state", sa.String),
            sa.column("version", sa.Integer),
        )
        op.bulk_insert(ids, list(rows.values()))


def downgrade() -> None:
    op.drop_index("ix_games_engine_client", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("active_at")
        batch.drop_column("engine_client")
    op.drop_table("game_action_ids")
