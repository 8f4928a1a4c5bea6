"""An event's absences in a table of their own (issue 26).

A player's participation flags (OpenGotha's ``participating``: one character per round, ``0``
absent) leave the player's ``extra`` column: each round a player is absent from is a row of
``event_absences``. The store gives the flags back to the assembled player in the form the
desk writes them (one character per round of the event, last in ``extra``), so the absences,
the pairings and the standings of an old event are those it had (tests/server/test_event_rows.py).
The downgrade writes the flags back into ``extra`` in that form.

Like 0004, the migration works on the rows as they are (no import of today's classes).

Revision ID: 0005_i26_event_absences
Revises: 0004_i26_event_rows
"""

import json
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005_i26_event_absences"
down_revision = "0004_i26_event_rows"
branch_labels = None
depends_on = None

FLAGS = "participating"

PLAYERS = sa.table(
    "event_players", sa.column("event_id"), sa.column("number"), sa.column("extra", sa.JSON)
)
ABSENCES = sa.table(
    "event_absences", sa.column("event_id"), sa.column("player"), sa.column("round")
)
ROUNDS = sa.table("event_rounds", sa.column("event_id"), sa.column("number"))
EVENTS = sa.table("events", sa.column("id"), sa.column("data", sa.JSON))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    op.create_table(
        "event_absences",
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player", sa.Integer(), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
    )
    conn = op.get_bind()
    found = conn.execute(
        sa.select(PLAYERS.c.event_id, PLAYERS.c.number, PLAYERS.c.extra).where(
            PLAYERS.c.extra.is_not(None)
        )
    ).all()
    rows: list[dict[str, Any]] = []
    for event_id, number, raw in found:
        extra = _json(raw)
        if not isinstance(extra, dict) or FLAGS not in extra:
            continue
        flags = str(extra.pop(FLAGS))
        rows.extend(
            {"event_id": event_id, "player": number, "round": i}
            for i, c in enumerate(flags, start=1)
            if c == "0"
        )
        conn.execute(
            sa.update(PLAYERS)
            .where(PLAYERS.c.event_id == event_id, PLAYERS.c.number == number)
            .values(extra=extra or None)
        )
    for start in range(0, len(rows), 5000):
        conn.execute(sa.insert(ABSENCES), rows[start : start + 5000])


def downgrade() -> None:
    conn = op.get_bind()
    absent: dict[tuple[str, int], set[int]] = defaultdict(set)
    for event_id, player, r in conn.execute(
        sa.select(ABSENCES.c.event_id, ABSENCES.c.player, ABSENCES.c.round)
    ).all():
        absent[event_id, player].add(r)
    widths: dict[str, int] = {}
    for event_id in {e for e, _ in absent}:
        data = _json(conn.execute(sa.select(EVENTS.c.data).where(EVENTS.c.id == event_id)).scalar())
        paired = conn.execute(
            sa.select(sa.func.count()).select_from(ROUNDS).where(ROUNDS.c.event_id == event_id)
        ).scalar()
        widths[event_id] = max(int(data["event"]["rounds"]), int(paired or 0), 1)
    for (event_id, player), gone in sorted(absent.items()):
        raw = conn.execute(
            sa.select(PLAYERS.c.extra).where(
                PLAYERS.c.event_id == event_id, PLAYERS.c.number == player
            )
        ).scalar()
        extra = dict(_json(raw) or {})
        width = max(widths[event_id], max(gone))
        extra.pop(FLAGS, None)
        extra[FLAGS] = "".join("0" if r in gone else "1" for r in range(1, width + 1))
        conn.execute(
            sa.update(PLAYERS)
            .where(PLAYERS.c.event_id == event_id, PLAYERS.c.number == player)
            .values(extra=extra)
        )
    op.drop_table("event_absences")
