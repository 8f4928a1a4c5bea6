"""Tables. A game is its configuration plus an ordered, versioned action log; an event is a
small head document (name, system, options, withdrawals, online settings) with a version, plus
its players, rounds, boards (each board's result record), audit trail and conflicts in tables of
their own, so that entering one board's result writes that board's rows, not the whole event.
A player's absences from rounds (OpenGotha's participation flags) are rows too.

>>> sorted(t for t in Base.metadata.tables if t.startswith("event_"))
['event_absences', 'event_audit', 'event_boards', 'event_conflicts', 'event_outbox', 'event_players', 'event_revisions', 'event_rounds']
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, MappedColumn, mapped_column

__all__ = [
    "ActionIdRow",
    "ActionRow",
    "Base",
    "EventAbsenceRow",
    "EventAuditRow",
    "EventBoardRow",
    "EventConflictRow",
    "EventPlayerRow",
    "EventRevisionRow",
    "EventRoundRow",
    "EventRow",
    "GameRow",
    "HeartbeatRow",
    "OutboxRow",
]


class Base(DeclarativeBase):
    """Declarative base of every duiyi table."""


def _key_of(owner: str) -> MappedColumn[str]:
    """The first key column of a row that belongs to a row of the table ``owner`` (a game's
    actions, an event's players...): its id, and the row goes when the owner goes."""
    return mapped_column(
        String(32), ForeignKey(f"{owner}.id", ondelete="CASCADE"), primary_key=True
    )


class GameRow(Base):
    """One hosted game: what it is, who may act, and where its clock stands."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True, default="live")
    version: Mapped[int] = mapped_column(Integer, default=0)
    black_token_hash: Mapped[str] = mapped_column(String(64))
    white_token_hash: Mapped[str] = mapped_column(String(64))
    arbiter_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    event_id: Mapped[str | None] = mapped_column(String(32), index=True, default=None)
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    board: Mapped[int | None] = mapped_column(Integer, default=None)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[float] = mapped_column(Float)
    # The game's timeline (seconds the server was up for it) at a wall-clock instant; used to
    # restore clocks after an outage without charging the outage to anybody (docs/server.md).
    anchor_wall: Mapped[float] = mapped_column(Float)
    anchor_timeline: Mapped[float] = mapped_column(Float)
    owner: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
    # the director's entry that closed this event game (its later actions are refused)
    closed: Mapped[str | None] = mapped_column(Text, default=None)
    # a game against an engine: a digest of the address that started it ("" when unknown);
    # None for games between people. With active_at (the last commit) it lets every process
    # count the live engine games of the cluster (caps per cluster, not per process).
    engine_client: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
    active_at: Mapped[float | None] = mapped_column(Float, default=None)


class ActionRow(Base):
    """One accepted action of a game, committed before it is acknowledged."""

    __tablename__ = "game_actions"

    game_id: Mapped[str] = _key_of("games")
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    wall: Mapped[float] = mapped_column(Float)


class ActionIdRow(Base):
    """A client's id of one action of a game, or the id of one forwarding attempt, and what
    became of it: ``committed`` with the version it reached (written in the transaction that
    appends the action), or ``refused`` (a tombstone: the process that forwarded that attempt
    answered an error, so it must never be applied). The key makes the first of the two win."""

    __tablename__ = "game_action_ids"

    game_id: Mapped[str] = _key_of("games")
    action_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    version: Mapped[int | None] = mapped_column(Integer, default=None)


class EventRow(Base):
    """A tournament event's head: the ``duiyi.tournament`` event JSON without its players and
    rounds (``data["event"]``) with the server's settings beside it, its version and its keys.

    ``version`` moves on with every change (a result too); ``head_version`` only with a change
    of the whole event (players, pairing, withdrawals, settings): a board's result is entered
    against the head it was checked with, and a change of the whole event against ``version``.
    """

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    head_version: Mapped[int] = mapped_column(Integer, default=1)
    organiser_token_hash: Mapped[str] = mapped_column(String(64))
    arbiter_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class EventPlayerRow(Base):
    """A player of an event (``extra`` holds any further columns; the participation flags are
    rows of ``event_absences``)."""

    __tablename__ = "event_players"

    event_id: Mapped[str] = _key_of("events")
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    rank: Mapped[str] = mapped_column(String(16), default="")
    rating: Mapped[int | None] = mapped_column(Integer, default=None)
    club: Mapped[str] = mapped_column(Text, default="")
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class EventAbsenceRow(Base):
    """A player absent from a round (a ``0`` of OpenGotha's participation flags, which the
    ``duiyi.tournament`` player keeps in its ``extra``: :mod:`duiyi.tournament.flags`); a round
    with no row: present. Written when the desk marks the absence, before the round is paired
    (or for a late entry, the rounds paired before it came)."""

    __tablename__ = "event_absences"

    event_id: Mapped[str] = _key_of("events")
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)


class EventRoundRow(Base):
    """A paired round: its byes (team matches and team byes for teams) and the explanation of
    its pairing."""

    __tablename__ = "event_rounds"

    event_id: Mapped[str] = _key_of("events")
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list[int]] = mapped_column(JSON)
    matches: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    team_byes: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    explanation: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class EventBoardRow(Base):
    """One board of a round with its result record (result, warnings, penalties, source);
    ``version`` moves on with every write of the board (a desk's compare-and-set)."""

    __tablename__ = "event_boards"

    event_id: Mapped[str] = _key_of("events")
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    black: Mapped[int] = mapped_column(Integer)
    white: Mapped[int] = mapped_column(Integer)
    result: Mapped[str | None] = mapped_column(String(16), default=None)
    black_warnings: Mapped[int] = mapped_column(Integer, default=0)
    white_warnings: Mapped[int] = mapped_column(Integer, default=0)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    penalty: Mapped[str] = mapped_column(String(16), default="")
    source: Mapped[str | None] = mapped_column(String(16), default=None)
    replays: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=1)


class EventAuditRow(Base):
    """One entry of a board's audit trail (who changed its result, when, from what)."""

    __tablename__ = "event_audit"

    event_id: Mapped[str] = _key_of("events")
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class EventConflictRow(Base):
    """A result that disagreed with the board's and waits for the director."""

    __tablename__ = "event_conflicts"

    event_id: Mapped[str] = _key_of("events")
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    conflict: Mapped[dict[str, Any]] = mapped_column(JSON)


class EventRevisionRow(Base):
    """Every accepted change of an event, kept so that nothing a director did is lost."""

    __tablename__ = "event_revisions"

    event_id: Mapped[str] = _key_of("events")
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    change: Mapped[dict[str, Any]] = mapped_column(JSON)
    wall: Mapped[float] = mapped_column(Float)


class HeartbeatRow(Base):
    """The last wall-clock instant a server process was known alive."""

    __tablename__ = "heartbeats"

    process: Mapped[str] = mapped_column(String(64), primary_key=True)
    wall: Mapped[float] = mapped_column(Float)


class OutboxRow(Base):
    """A finished event game's result sheet on its way to the event: written with the action
    that produced it, deleted with the event change that enters it, re-read at start-up."""

    __tablename__ = "event_outbox"
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_event_outbox_game_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(32), index=True)
    game_id: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    sheet: Mapped[dict[str, Any]] = mapped_column(JSON)
    wall: Mapped[float] = mapped_column(Float)
