"""An event's data in tables of its own (issue 26).

The event document (``events.data["event"]``) loses its players and rounds: each player is a
row of ``event_players``, each paired round a row of ``event_rounds`` (its byes, team matches
and the explanation of its pairing, moved out of ``events.data["explanations"]``), each board a
row of ``event_boards`` with its result record, each entry of a board's audit trail a row of
``event_audit`` and each conflict a row of ``event_conflicts``. ``events.head_version`` moves
on with changes of the whole event only (a board's result is entered against it).

The migration works on the JSON as older versions wrote it (no import of today's classes), so
an old event's standings are those of its document (tests/server/test_event_rows.py).

Revision ID: 0004_i26_event_rows
Revises: 0003_i12c_action_ids
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_i26_event_rows"
down_revision = "0003_i12c_action_ids"
branch_labels = None
depends_on = None


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _key(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.Integer(), primary_key=True)


def _event_id() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "event_id", sa.String(32), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )


PLAYERS = sa.table(
    "event_players",
    *(sa.column(c) for c in ("event_id", "number", "name", "rank", "rating", "club")),
    sa.column("extra", sa.JSON),
)
ROUNDS = sa.table(
    "event_rounds",
    sa.column("event_id"),
    sa.column("number"),
    *(sa.column(c, sa.JSON) for c in ("byes", "matches", "team_byes", "explanation")),
)
BOARDS_COLUMNS = (
    "event_id",
    "round",
    "board",
    "black",
    "white",
    "result",
    "black_warnings",
    "white_warnings",
    "handicap",
    "penalty",
    "source",
    "replays",
    "version",
)
BOARDS = sa.table("event_boards", *(sa.column(c) for c in BOARDS_COLUMNS))
AUDIT = sa.table(
    "event_audit",
    *(sa.column(c) for c in ("event_id", "round", "board", "seq")),
    sa.column("entry", sa.JSON),
)
CONFLICTS = sa.table(
    "event_conflicts",
    *(sa.column(c) for c in ("event_id", "round", "board")),
    sa.column("conflict", sa.JSON),
)
EVENTS = sa.table("events", sa.column("id"), sa.column("data", sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("head_version", sa.Integer(), nullable=False, server_default="1")
        )
    op.create_table(
        "event_players",
        _event_id(),
        _key("number"),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("rank", sa.String(16), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("club", sa.Text(), nullable=False),
        sa.Column("extra", sa.JSON(), nullable=True),
    )
    op.create_table(
        "event_rounds",
        _event_id(),
        _key("number"),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("matches", sa.JSON(), nullable=True),
        sa.Column("team_byes", sa.JSON(), nullable=True),
        sa.Column("explanation", sa.JSON(), nullable=True),
    )
    op.create_table(
        "event_boards",
        _event_id(),
        _key("round"),
        _key("board"),
        sa.Column("black", sa.Integer(), nullable=False),
        sa.Column("white", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(16), nullable=True),
        sa.Column("black_warnings", sa.Integer(), nullable=False),
        sa.Column("white_warnings", sa.Integer(), nullable=False),
        sa.Column("handicap", sa.Integer(), nullable=False),
        sa.Column("penalty", sa.String(16), nullable=False),
        sa.Column("source", sa.String(16), nullable=True),
        sa.Column("replays", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_table(
        "event_audit",
        _event_id(),
        _key("round"),
        _key("board"),
        _key("seq"),
        sa.Column("entry", sa.JSON(), nullable=False),
    )
    op.create_table(
        "event_conflicts",
        _event_id(),
        _key("round"),
        _key("board"),
        sa.Column("conflict", sa.JSON(), nullable=False),
    )
    conn = op.get_bind()
    for event_id, data in conn.execute(sa.select(EVENTS.c.id, EVENTS.c.data)).all():
        _split(conn, event_id, dict(_json(data)))


def _split(conn: Any, event_id: str, data: dict[str, Any]) -> None:
    event = dict(data["event"])
    players = event.pop("players", [])
    history = event.pop("history", [])
    explanations = dict(data.get("explanations") or {})
    rows: dict[Any, list[dict[str, Any]]] = {t: [] for t in (PLAYERS, ROUNDS, BOARDS)}
    rows[AUDIT], rows[CONFLICTS] = [], []
    for p in players:
        extra = p.get("extra") or None
        rating = p.get("rating")
        rows[PLAYERS].append(
            {
                "event_id": event_id,
                "number": int(p["number"]),
                "name": str(p["name"]),
                "rank": str(p.get("rank", "")),
                "rating": None if rating is None else int(rating),
                "club": str(p.get("club", "")),
                "extra": None if not extra else {str(k): str(v) for k, v in extra.items()},
            }
        )
    for r in history:
        number = int(r["round"])
        teams = "matches" in r or "team_byes" in r
        rows[ROUNDS].append(
            {
                "event_id": event_id,
                "number": number,
                "byes": [int(b) for b in r.get("byes", [])],
                "matches": list(r.get("matches", [])) if teams else None,
                "team_byes": list(r.get("team_byes", [])) if teams else None,
                "explanation": explanations.pop(str(number), None),
            }
        )
        for g in r.get("games", []):
            board = int(g["board"])
            warnings = dict(g.get("warnings", {}))
            rows[BOARDS].append(
                {
                    "event_id": event_id,
                    "round": number,
                    "board": board,
                    "black": int(g["black"]),
                    "white": int(g["white"]),
                    "result": g.get("result"),
                    "black_warnings": int(warnings.get("black", 0)),
                    "white_warnings": int(warnings.get("white", 0)),
                    "handicap": int(g.get("handicap", 0)),
                    "penalty": ",".join(sorted(str(c) for c in g.get("penalty", []))),
                    "source": g.get("source"),
                    "replays": int(g.get("replays", 0)),
                    "version": 1,
                }
            )
            key = {"event_id": event_id, "round": number, "board": board}
            for seq, entry in enumerate(g.get("trail", [])):
                rows[AUDIT].append({**key, "seq": seq, "entry": entry})
            if g.get("conflict") is not None:
                rows[CONFLICTS].append({**key, "conflict": g["conflict"]})
    for table in (PLAYERS, ROUNDS, BOARDS, AUDIT, CONFLICTS):
        for start in range(0, len(rows[table]), 5000):
            conn.execute(sa.insert(table), rows[table][start : start + 5000])
    head = {k: v for k, v in data.items() if k not in ("event", "explanations")}
    if explanations:  # of rounds not paired: kept in the head
        head["explanations"] = explanations
    event.setdefault("teams", [])
    head["event"] = event
    conn.execute(sa.update(EVENTS).where(EVENTS.c.id == event_id).values(data=head))


def downgrade() -> None:
    conn = op.get_bind()
    for event_id, data in conn.execute(sa.select(EVENTS.c.id, EVENTS.c.data)).all():
        conn.execute(
            sa.update(EVENTS)
            .where(EVENTS.c.id == event_id)
            .values(data=_document(conn, event_id, dict(_json(data))))
        )
    for name in ("event_conflicts", "event_audit", "event_boards", "event_rounds", "event_players"):
        op.drop_table(name)
    with op.batch_alter_table("events") as batch:
        batch.drop_column("head_version")


def _document(conn: Any, event_id: str, head: dict[str, Any]) -> dict[str, Any]:
    """The whole document again from the rows (the form versions before 0004 read)."""

    def of(table: Any, *order: str) -> list[Any]:
        return list(
            conn.execute(
                sa.select(table).where(table.c.event_id == event_id).order_by(*order)
            ).mappings()
        )

    event = dict(head["event"])
    event["players"] = [
        {
            "number": p["number"],
            "name": p["name"],
            "rank": p["rank"],
            "rating": p["rating"],
            "club": p["club"],
            **({"extra": _json(p["extra"])} if p["extra"] else {}),
        }
        for p in of(PLAYERS, "number")
    ]
    trails: dict[tuple[int, int], list[Any]] = {}
    for a in of(AUDIT, "round", "board", "seq"):
        trails.setdefault((a["round"], a["board"]), []).append(_json(a["entry"]))
    conflicts = {(c["round"], c["board"]): _json(c["conflict"]) for c in of(CONFLICTS, "round")}
    games: dict[int, list[dict[str, Any]]] = {}
    for b in of(BOARDS, "round", "board"):
        g: dict[str, Any] = {"board": b["board"], "black": b["black"], "white": b["white"]}
        if b["result"] is not None:
            g["result"] = b["result"]
        if b["black_warnings"] or b["white_warnings"]:
            g["warnings"] = {"black": b["black_warnings"], "white": b["white_warnings"]}
        if b["handicap"]:
            g["handicap"] = b["handicap"]
        if b["penalty"]:
            g["penalty"] = b["penalty"].split(",")
        if b["source"] is not None:
            g["source"] = b["source"]
        key = (b["round"], b["board"])
        if key in trails:
            g["trail"] = trails[key]
        if key in conflicts:
            g["conflict"] = conflicts[key]
        if b["replays"]:
            g["replays"] = b["replays"]
        games.setdefault(b["round"], []).append(g)
    explanations = dict(head.get("explanations") or {})
    history = []
    for r in of(ROUNDS, "number"):
        rnd: dict[str, Any] = {
            "round": r["number"],
            "games": games.get(r["number"], []),
            "byes": _json(r["byes"]),
        }
        if r["matches"] is not None:
            rnd["matches"] = _json(r["matches"])
            rnd["team_byes"] = _json(r["team_byes"]) or []
        if r["explanation"] is not None:
            explanations[str(r["number"])] = _json(r["explanation"])
        history.append(rnd)
    event["history"] = history
    out = {k: v for k, v in head.items() if k != "explanations"}
    if explanations:
        out["explanations"] = explanations
    out["event"] = event
    return out
