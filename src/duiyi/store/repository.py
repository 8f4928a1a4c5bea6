"""Repositories: the only code that reads or writes rows.

Every write that accepts a player's action is one transaction that also bumps the game's version
with a compare-and-set, so two writers can never both append version N.

>>> StoredAction(3, {"type": "move"}, 0.0).version
3
"""

from __future__ import annotations

import contextlib
import json
import math
import secrets
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import bindparam, case, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

import duiyi.store.event_rows as rows
from duiyi.errors import DuiyiError
from duiyi.store.db import Database
from duiyi.store.models import (
    ActionIdRow,
    ActionRow,
    EventRevisionRow,
    EventRow,
    GameRow,
    HeartbeatRow,
    OutboxRow,
)
from duiyi.tournament.model import Event

__all__ = [
    "COMMITTED",
    "REFUSED",
    "ActionIdTaken",
    "Append",
    "BoardWrite",
    "Conflict",
    "EventRecord",
    "NotFound",
    "Report",
    "ReportGone",
    "Repository",
    "StoredAction",
    "StoredGame",
]


class NotFound(DuiyiError):
    """No row with that id."""


class Conflict(DuiyiError):
    """Somebody else wrote that version first (optimistic concurrency)."""


class ReportGone(Conflict):
    """The outbox row was already consumed (by another process): nothing was written."""


# the states of an action id (game_action_ids.state)
COMMITTED = "committed"
REFUSED = "refused"


class ActionIdTaken(Conflict):
    """The action's id already has a row: the action was committed (``version``) or refused by
    the process that forwarded it (``version`` None); nothing was written."""

    def __init__(self, action_id: str, version: int | None) -> None:
        what = f"was committed at version {version}" if version is not None else "was refused"
        super().__init__(f"action {action_id!r} {what}")
        self.action_id = action_id
        self.version = version


def new_id() -> str:
    """A short random id for games and events."""
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


@dataclass(frozen=True)
class StoredAction:
    """One entry of a game's log as stored."""

    version: int
    entry: dict[str, Any]
    wall: float


@dataclass(frozen=True)
class StoredGame:
    """A game row as plain data."""

    id: str
    kind: str
    config: dict[str, Any]
    status: str
    version: int
    black_token_hash: str
    white_token_hash: str
    arbiter_token_hash: str | None
    event_id: str | None
    round: int | None
    board: int | None
    outcome: dict[str, Any] | None
    created_at: float
    anchor_wall: float
    anchor_timeline: float
    owner: str | None
    closed: str | None = None
    engine_client: str | None = None

    @classmethod
    def of(cls, row: Any) -> StoredGame:
        """The plain data of a row."""
        return cls(**{f.name: getattr(row, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class EventRecord:
    """An event as stored: its head row's fields, the server's settings beside the event
    (``data``: ``online``, ``explanations`` of the rounds' pairings, ...) and the event
    assembled from its rows (``event``)."""

    id: str
    name: str
    data: dict[str, Any]
    version: int
    organiser_token_hash: str
    arbiter_token_hash: str
    created_at: float
    updated_at: float
    event: Event | None = None


class _BatchConflict(Exception):
    pass


@dataclass(frozen=True)
class Append:
    """Entries to append to one game's log after version ``expected``."""

    game_id: str
    expected: int
    entries: list[dict[str, Any]]
    wall: float
    status: str | None = None
    outcome: dict[str, Any] | None = None
    # an event game's result sheet for the event (outbox row), committed with the entries
    report: dict[str, Any] | None = None
    # fencing: the process that must still own the game when the entries commit (checked in
    # the same statement); None: no check
    owner: str | None = None
    # the client's id of the action (the last entry) and, for a forwarded action, the id of
    # this attempt to deliver it: their rows are inserted in the same transaction, so the id
    # already committed, or the attempt's tombstone written first by the process that forwarded
    # it, makes the whole append fail
    action_id: str | None = None
    attempt: str | None = None
    # the client's id with the action's body (its retries carry the same body: an id used
    # again with another body is refused); see duiyi.server.games.action_ids.action_keys
    action_body: str | None = None

    @property
    def new_version(self) -> int:
        """The game's version once the entries are in."""
        return self.expected + len(self.entries)

    def values(self) -> dict[str, Any]:
        """The game row's new values."""
        values: dict[str, Any] = {"version": self.new_version, "active_at": self.wall}
        if self.status is not None:
            values["status"] = self.status
        if self.outcome is not None:
            values["outcome"] = self.outcome
        return values

    def rows(self) -> list[dict[str, Any]]:
        """The log rows."""
        return [
            {"game_id": self.game_id, "version": i, "entry": e, "wall": self.wall}
            for i, e in enumerate(self.entries, start=self.expected + 1)
        ]

    def action_id_rows(self) -> list[dict[str, Any]]:
        """The rows that record the action's ids (the client's, the attempt's) as committed."""
        return [
            {
                "game_id": self.game_id,
                "action_id": i,
                "state": COMMITTED,
                "version": self.new_version,
            }
            for i in (self.action_body, self.action_id, self.attempt)
            if i is not None
        ]

    def outbox_row(self) -> dict[str, Any] | None:
        """The outbox row of the report, or None."""
        if self.report is None:
            return None
        return {
            "event_id": self.report["event_id"],
            "game_id": self.game_id,
            "version": self.new_version,
            "round": self.report["round"],
            "board": self.report["board"],
            "sheet": self.report["sheet"],
            "wall": self.wall,
        }


@dataclass(frozen=True)
class Report:
    """An outbox row: a finished event game's result sheet waiting to enter its event."""

    id: int
    event_id: str
    game_id: str
    version: int
    round: int
    board: int
    sheet: dict[str, Any]
    wall: float

    @classmethod
    def of(cls, row: Any) -> Report:
        """The plain data of a row."""
        return cls(**{f.name: getattr(row, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class BoardWrite:
    """What to write for one board: the slice's event after the change (only that board
    differs), the change for the event's revisions, when, and the reason given to the board's
    online games closed by it (from the event's new version; None: they stay open)."""

    after: Event
    change: dict[str, Any]
    wall: float
    closing: Callable[[int], str | None] | None = None


def _head_data(meta: Mapping[str, Any], event: Event) -> tuple[dict[str, Any], dict[str, Any]]:
    """The head document of an event (its settings ``meta``, the event without players and
    rounds) and the explanations that go to the rounds' rows (those of rounds not paired stay
    in the head)."""
    head = {k: v for k, v in meta.items() if k != "explanations"}
    explanations = dict(meta.get("explanations") or {})
    paired = {str(r.number) for r in event.history}
    left = {k: v for k, v in explanations.items() if k not in paired}
    if left:
        head["explanations"] = left
    head["event"] = rows.head_of(event)
    return head, {k: v for k, v in explanations.items() if k in paired}


def _record(loaded: rows.Loaded) -> EventRecord:
    head = loaded.head
    data = {k: v for k, v in head.data.items() if k not in ("event", "explanations")}
    if loaded.explanations:
        data["explanations"] = loaded.explanations
    return EventRecord(
        head.id,
        head.name,
        data,
        head.version,
        head.organiser_token_hash,
        head.arbiter_token_hash,
        head.created_at,
        head.updated_at,
        loaded.event,
    )


async def _close(conn: Any, close: Mapping[str, str]) -> None:
    """Close the games of ``close`` (game id -> the director's entry that decided the board)."""
    games = GameRow.__table__
    await conn.execute(
        update(games)  # type: ignore[arg-type]
        .where(games.c.id == bindparam("b_id"), games.c.closed.is_(None))
        .values(
            closed=bindparam("b_reason"),
            status=case((games.c.status == "live", "closed"), else_=games.c.status),
        ),
        [{"b_id": g, "b_reason": r} for g, r in close.items()],
    )


@contextlib.contextmanager
def _deadlock_is_conflict(event_id: str) -> Iterator[None]:
    """PostgreSQL's refusal of a deadlock (a board's result and a change of the whole event
    that met on one board, locking in opposite orders) as a Conflict: retried, nothing written."""
    try:
        yield
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) != "40P01":
            raise
        raise Conflict(f"event {event_id} changed meanwhile (deadlock refused)") from exc


@contextlib.asynccontextmanager
async def _deadlock_async(event_id: str) -> AsyncIterator[None]:
    """:func:`_deadlock_is_conflict` inside an ``async with``."""
    with _deadlock_is_conflict(event_id):
        yield


# PostgreSQL: a group commit's batch as ONE statement, sent in autocommit (one round trip,
# prepared by psycopg after a few runs: its text never changes with the batch's size). Every
# game of the batch moves from its expected version, not closed and still owned by the item's
# owner (when given), or the statement fails and writes nothing: ``fenced`` turns a short count
# into an error (the text cast fails at run time; its message carries _PG_CONFLICT). The
# action ids, the log rows and the result reports go in with it; an id already there (a
# tombstone, the same id committed) is a unique violation, which also writes nothing. The
# order is the transaction's of old: the games' rows, then the ids (``ids`` runs after
# ``fenced``, the log rows after ``ids``: each reads the one before), then the log rows, so a
# forward's tombstone waits for an id written by a commit still under way (and vice versa).
_PG_CONFLICT = "duiyi-batch-conflict"
_compact_json = json.JSONEncoder(separators=(",", ":")).encode
# a process's heartbeat and its read of the others' (Repository.beat); the read sees the table
# as it was before this statement's upsert
_PG_BEAT = """
WITH beat AS (
    INSERT INTO heartbeats (process, wall) VALUES (%(process)s, %(wall)s)
    ON CONFLICT (process) DO UPDATE SET wall = EXCLUDED.wall
)
SELECT process, wall FROM heartbeats WHERE wall >= %(since)s
"""
_PG_APPEND = f"""
WITH batch AS (
    SELECT * FROM json_to_recordset(%(games)s::json) AS b(
        id text, expected int, new int, wall float8, owner text, status text, outcome json
    )
), moved AS (
    UPDATE games AS g
    SET version = b.new, active_at = b.wall,
        status = coalesce(b.status, g.status),
        outcome = coalesce(b.outcome, g.outcome)
    FROM batch AS b
    WHERE g.id = b.id AND g.version = b.expected AND g.closed IS NULL
        AND (b.owner IS NULL OR g.owner = b.owner)
    RETURNING g.id
), fenced AS (
    SELECT CASE WHEN count(*) = %(n)s THEN 1
        ELSE ('{_PG_CONFLICT} ' || count(*))::int END AS ok
    FROM moved
), ids AS (
    INSERT INTO game_action_ids (game_id, action_id, state, version)
    SELECT i.game_id, i.action_id, '{COMMITTED}', i.version
    FROM json_to_recordset(%(ids)s::json) AS i(game_id text, action_id text, version int)
    WHERE (SELECT ok FROM fenced) = 1
    RETURNING 1
), reports AS (
    INSERT INTO event_outbox (event_id, game_id, version, round, board, sheet, wall)
    SELECT r.event_id, r.game_id, r.version, r.round, r.board, r.sheet, r.wall
    FROM json_to_recordset(%(reports)s::json) AS r(
        event_id text, game_id text, version int, round int, board int, sheet json, wall float8
    )
    WHERE (SELECT ok FROM fenced) = 1
)
INSERT INTO game_actions (game_id, version, entry, wall)
SELECT a.game_id, a.version, a.entry, a.wall
FROM json_to_recordset(%(actions)s::json) AS a(game_id text, version int, entry json, wall float8)
WHERE (SELECT count(*) FROM ids) >= 0 AND (SELECT ok FROM fenced) = 1
"""


# PostgreSQL: many claims (start-up) in one statement; the games taken and their versions.
_PG_CLAIM = """
UPDATE games AS g
SET owner = %(owner)s, anchor_wall = c.wall, anchor_timeline = c.timeline
FROM unnest(%(ids)s::text[], %(olds)s::text[], %(walls)s::float8[], %(timelines)s::float8[])
    AS c(id, old, wall, timeline)
WHERE g.id = c.id AND g.owner IS NOT DISTINCT FROM c.old
RETURNING g.id, g.version
"""


class Repository:
    """Async reads and writes of games, their logs, events and heartbeats."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._organiser_hashes: dict[str, str] = {}

    # ---------------------------------------------------------------- games

    async def create_game(
        self,
        *,
        kind: str,
        config: dict[str, Any],
        black_token_hash: str,
        white_token_hash: str,
        wall: float,
        arbiter_token_hash: str | None = None,
        owner: str | None = None,
        event_id: str | None = None,
        round: int | None = None,
        board: int | None = None,
        engine_client: str | None = None,
        game_id: str | None = None,
    ) -> str:
        """Insert a new live game at version 0 and return its id (``engine_client``: a game
        against an engine, started by that client; ``game_id``: the id chosen by the caller,
        for a process that picks the id first to know its owner)."""
        chosen, game_id = game_id is not None, game_id or new_id()
        try:
            await self._insert_game(
                GameRow(
                    id=game_id,
                    kind=kind,
                    config=config,
                    status="live",
                    version=0,
                    black_token_hash=black_token_hash,
                    white_token_hash=white_token_hash,
                    arbiter_token_hash=arbiter_token_hash,
                    event_id=event_id,
                    round=round,
                    board=board,
                    outcome=None,
                    created_at=wall,
                    anchor_wall=wall,
                    anchor_timeline=0.0,
                    owner=owner,
                    engine_client=engine_client,
                    active_at=wall,
                )
            )
        except IntegrityError:
            if not chosen:
                raise
            raise Conflict(f"a game with id {game_id!r} exists already") from None
        return game_id

    async def create_games(self, games: Sequence[StoredGame]) -> None:
        """Insert new games (version 0, as given: ids chosen by the caller) in one transaction
        and one statement: an event round's boards. Conflict (nothing inserted) if an id is
        taken. The rows are not read back: ``games`` is what the store holds."""
        if not games:
            return
        values = [
            {f.name: getattr(g, f.name) for f in fields(StoredGame)} | {"active_at": g.created_at}
            for g in games
        ]
        try:
            async with self.db.session() as s, s.begin():
                await s.execute(insert(GameRow), values)
        except IntegrityError:
            raise Conflict(
                f"a game with one of the ids {[g.id for g in games][:5]} exists already"
            ) from None

    async def games(self, game_ids: Sequence[str]) -> list[StoredGame]:
        """The rows of ``game_ids`` that exist, in one query per 500 games."""
        ids = list(game_ids)
        out: list[StoredGame] = []
        async with self.db.session() as s:
            for start in range(0, len(ids), 500):
                rows = await s.scalars(
                    select(GameRow).where(GameRow.id.in_(ids[start : start + 500]))
                )
                out.extend(StoredGame.of(r) for r in rows)
        return out

    async def _insert_game(self, row: GameRow) -> None:
        async with self.db.session() as s, s.begin():
            s.add(row)

    async def delete_game(self, game_id: str) -> None:
        """Remove a game that was never played (its creation was refused after the insert)."""
        async with self.db.session() as s, s.begin():
            await s.execute(delete(GameRow).where(GameRow.id == game_id, GameRow.version == 0))

    async def engine_games(self, client: str, active_since: float) -> tuple[int, int]:
        """How many live games against an engine were active since ``active_since`` (wall
        clock), in all processes, and how many of them ``client`` started."""
        counts = await self.engine_game_counts(active_since)
        return sum(counts.values()), counts.get(client, 0)

    async def engine_game_counts(self, active_since: float) -> dict[str, int]:
        """The live games against an engine active since ``active_since`` (wall clock), in all
        processes, counted by the key of the client that started them."""
        async with self.db.session() as s:
            rows = (
                await s.execute(
                    select(GameRow.engine_client, func.count())
                    .where(
                        GameRow.engine_client.is_not(None),
                        GameRow.status == "live",
                        GameRow.closed.is_(None),
                        GameRow.active_at >= active_since,
                    )
                    .group_by(GameRow.engine_client)
                )
            ).all()
        return {str(c): int(n) for c, n in rows}

    async def game(self, game_id: str) -> StoredGame:
        """The game row, or NotFound."""
        async with self.db.session() as s:
            row = await s.get(GameRow, game_id)
            if row is None:
                raise NotFound(f"no game with id {game_id!r}")
            return StoredGame.of(row)

    async def update_config(
        self, game_id: str, change: Callable[[dict[str, Any]], None]
    ) -> dict[str, Any]:
        """Read-modify-write of a game's stored configuration under the row's lock (no lost
        update between processes): ``change`` edits a copy, which is written back and
        returned. Names, calls, a rematch offer and an engine's view of the count live
        there; no commit of the action log rewrites them."""
        async with self.db.session() as s, s.begin():
            row = await s.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise NotFound(f"no game with id {game_id!r}")
            config = dict(row.config or {})
            change(config)
            row.config = config
        return config

    async def actions(self, game_id: str, after: int = 0) -> list[StoredAction]:
        """The log entries with a version greater than ``after``, in order."""
        async with self.db.session() as s:
            rows = await s.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.version > after)
                .order_by(ActionRow.version)
            )
            return [StoredAction(r.version, r.entry, r.wall) for r in rows]

    async def action_ids(self, game_id: str) -> dict[str, int]:
        """The committed action ids of a game and the versions they reached."""
        async with self.db.session() as s:
            rows = await s.execute(
                select(ActionIdRow.action_id, ActionIdRow.version).where(
                    ActionIdRow.game_id == game_id, ActionIdRow.state == COMMITTED
                )
            )
            return {a: v for a, v in rows.all() if v is not None}

    async def action_id(self, game_id: str, action_id: str) -> tuple[str, int | None] | None:
        """The state of one action id (and the version a committed one reached), or None."""
        async with self.db.session() as s:
            row = await s.get(ActionIdRow, (game_id, action_id))
            return None if row is None else (row.state, row.version)

    async def refuse_action(self, game_id: str, attempt: str) -> int | None:
        """Write the tombstone of one attempt to deliver an action (a forward) whose sender is
        about to answer an error, unless the attempt was committed first: then the version it
        reached (answer that instead).

        The key (game_id, attempt) decides which came first; a commit still in progress is
        waited for. None means this attempt is refused for good (never applied later); the
        client may send the action again, with the same action_id: that is a new attempt.
        """
        try:
            async with self.db.session() as s, s.begin():
                s.add(ActionIdRow(game_id=game_id, action_id=attempt, state=REFUSED))
        except IntegrityError:
            found = await self.action_id(game_id, attempt)
            if found is not None and found[0] == COMMITTED:
                return found[1]
        return None

    async def append(
        self,
        game_id: str,
        expected_version: int,
        entries: list[dict[str, Any]],
        wall: float,
        *,
        status: str | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> int:
        """Append entries after ``expected_version`` in one transaction; return the new version.

        Raises Conflict when the stored version is not ``expected_version``.
        """
        item = Append(game_id, expected_version, entries, wall, status, outcome)
        result = (await self.append_many([item]))[0]
        if isinstance(result, Exception):
            raise result
        return result

    async def append_many(self, items: list[Append]) -> list[int | Exception]:
        """Append to several games in one transaction (group commit); each item gets its new
        version, or the Conflict that refused it (the others are still committed).

        On PostgreSQL the whole batch is one statement (:data:`_PG_APPEND`); on SQLite a few
        statements in one transaction."""
        import psycopg

        try:
            if self.db.is_sqlite:
                await self._append_sqlite(items)
            else:
                await self._append_postgres(items)
        except (_BatchConflict, IntegrityError, psycopg.IntegrityError):
            if len(items) == 1:
                item = items[0]
                # the id with this body first: a retry of the same action answers its version
                for key in (item.action_body, item.action_id, item.attempt):
                    taken = None if key is None else await self.action_id(item.game_id, key)
                    if key is not None and taken is not None:
                        state, version = taken
                        return [ActionIdTaken(key, version if state == COMMITTED else None)]
                return [
                    Conflict(
                        f"game {item.game_id} is no longer at version {item.expected}"
                        + ("" if item.owner is None else f" or hosted by {item.owner}")
                    )
                ]
            # somebody else wrote one of these games: commit the others one by one
            out: list[int | Exception] = []
            for item in items:
                out.extend(await self.append_many([item]))
            return out
        return [item.new_version for item in items]

    async def _append_postgres(self, items: list[Append]) -> None:
        """The batch as one autocommit statement (:data:`_PG_APPEND`): every game moves from
        its expected version (not closed, still owned by the item's owner), or nothing is
        written. The batch's rows travel as four JSON documents (one encoding each, read by
        ``json_to_recordset``), not as arrays dumped value by value."""
        import psycopg

        games: list[dict[str, Any]] = []
        ids: list[dict[str, Any]] = []
        actions: list[dict[str, Any]] = []
        reports: list[dict[str, Any]] = []
        for item in items:
            new = item.new_version
            games.append(
                {
                    "id": item.game_id,
                    "expected": item.expected,
                    "new": new,
                    "wall": item.wall,
                    "owner": item.owner,
                    "status": item.status,
                    "outcome": item.outcome,
                }
            )
            for key in (item.action_body, item.action_id, item.attempt):
                if key is not None:
                    ids.append({"game_id": item.game_id, "action_id": key, "version": new})
            for version, entry in enumerate(item.entries, start=item.expected + 1):
                actions.append(
                    {"game_id": item.game_id, "version": version, "entry": entry, "wall": item.wall}
                )
            report = item.outbox_row()
            if report is not None:
                reports.append(report)
        dumps = _compact_json
        params = {
            "games": dumps(games),
            "ids": dumps(ids),
            "actions": dumps(actions),
            "reports": dumps(reports),
            "n": len(items),
        }
        try:
            async with self.db.writer() as conn:
                await conn.execute(_PG_APPEND, params)
        except psycopg.errors.InvalidTextRepresentation as exc:
            if _PG_CONFLICT not in str(exc):
                raise
            raise _BatchConflict() from exc

    async def _append_sqlite(self, items: list[Append]) -> None:
        """The batch in one transaction: one UPDATE for the plain items and one read to check
        them, one fenced UPDATE per finishing item, then the inserts."""
        games = GameRow.__table__
        plain: list[Append] = []
        finishing: list[Append] = []
        for i in items:
            quiet = i.status is None and i.outcome is None and i.report is None
            (plain if quiet else finishing).append(i)
        async with self.db.engine.begin() as conn:
            if len(plain) == 1:
                finishing.append(plain.pop())
            if plain:
                # one statement for the whole batch (executemany: pipelined by psycopg),
                # then one read to check that every game was at its expected version
                await conn.execute(
                    update(games)  # type: ignore[arg-type]
                    .where(
                        games.c.id == bindparam("b_id"),
                        games.c.version == bindparam("b_expected"),
                        # the director's entry closed it: nothing commits after that
                        games.c.closed.is_(None),
                    )
                    .values(version=bindparam("b_new"), active_at=bindparam("b_wall")),
                    [
                        {
                            "b_id": i.game_id,
                            "b_expected": i.expected,
                            "b_new": i.new_version,
                            "b_wall": i.wall,
                        }
                        for i in plain
                    ],
                )
                found = {
                    row[0]: (row[1], row[2])
                    for row in (
                        await conn.execute(
                            select(games.c.id, games.c.version, games.c.owner).where(
                                games.c.id.in_([i.game_id for i in plain])
                            )
                        )
                    ).all()
                }
                for i in plain:
                    version, owner = found.get(i.game_id, (None, None))
                    if version != i.new_version or (i.owner is not None and owner != i.owner):
                        raise _BatchConflict(i.game_id)  # rolls the whole batch back
            for item in finishing:
                fence = [
                    games.c.id == item.game_id,
                    games.c.version == item.expected,
                    games.c.closed.is_(None),  # a closed game takes no action
                ]
                if item.owner is not None:
                    fence.append(games.c.owner == item.owner)
                result = await conn.execute(
                    update(games)  # type: ignore[arg-type]
                    .where(*fence)
                    .values(**item.values())
                )
                if result.rowcount != 1:
                    raise _BatchConflict(item.game_id)
            ids = [r for item in items for r in item.action_id_rows()]
            if ids:
                # a row already there (a tombstone, or the same id committed) fails it all
                await conn.execute(insert(ActionIdRow.__table__), ids)  # type: ignore[arg-type]
            rows = [row for item in items for row in item.rows()]
            await conn.execute(insert(ActionRow.__table__), rows)  # type: ignore[arg-type]
            reports = [r for r in (item.outbox_row() for item in finishing) if r is not None]
            if reports:
                await conn.execute(insert(OutboxRow.__table__), reports)  # type: ignore[arg-type]

    async def set_anchor(self, game_id: str, wall: float, timeline: float, owner: str) -> None:
        """Record where the game's timeline stands at a wall-clock instant, and who hosts it."""
        async with self.db.session() as s, s.begin():
            await s.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(anchor_wall=wall, anchor_timeline=timeline, owner=owner)
            )

    async def claim(
        self, game_id: str, old_owner: str | None, owner: str, wall: float, timeline: float
    ) -> bool:
        """Take over hosting a game from ``old_owner`` (compare-and-set) and anchor its
        timeline; False when another process took it first."""
        async with self.db.session() as s, s.begin():
            result = await s.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.owner.is_(None) if old_owner is None else GameRow.owner == old_owner,
                )
                .values(anchor_wall=wall, anchor_timeline=timeline, owner=owner)
            )
            return getattr(result, "rowcount", 1) == 1

    async def claim_many(
        self, claims: Sequence[tuple[str, str | None, float, float]], owner: str
    ) -> dict[str, int]:
        """:meth:`claim` for many games at once (start-up): ``claims`` are (game id, old owner,
        wall, timeline); the games taken (compare-and-set on the owner, each on its own) and
        their versions then. One statement on PostgreSQL."""
        if not claims:
            return {}
        if not self.db.is_sqlite:
            async with self.db.writer() as conn:
                cursor = await conn.execute(
                    _PG_CLAIM,
                    {
                        "ids": [c[0] for c in claims],
                        "olds": [c[1] for c in claims],
                        "walls": [c[2] for c in claims],
                        "timelines": [c[3] for c in claims],
                        "owner": owner,
                    },
                )
                return {str(i): int(v) for i, v in await cursor.fetchall()}
        taken: dict[str, int] = {}
        games = GameRow.__table__
        async with self.db.engine.begin() as conn:
            for game_id, old, wall, timeline in claims:
                found = await conn.execute(
                    update(games)  # type: ignore[arg-type]
                    .where(
                        games.c.id == game_id,
                        games.c.owner.is_(None) if old is None else games.c.owner == old,
                    )
                    .values(anchor_wall=wall, anchor_timeline=timeline, owner=owner)
                    .returning(games.c.version)
                )
                version = found.scalar()
                if version is not None:
                    taken[game_id] = int(version)
        return taken

    async def logs(self, game_ids: Sequence[str]) -> dict[str, list[StoredAction]]:
        """The logs of several games (start-up), read in one query per 500 games."""
        out: dict[str, list[StoredAction]] = {g: [] for g in game_ids}
        ids = list(game_ids)
        async with self.db.session() as s:
            for start in range(0, len(ids), 500):
                rows = await s.execute(
                    select(ActionRow.game_id, ActionRow.version, ActionRow.entry, ActionRow.wall)
                    .where(ActionRow.game_id.in_(ids[start : start + 500]))
                    .order_by(ActionRow.game_id, ActionRow.version)
                )
                for game_id, version, entry, wall in rows:
                    out[game_id].append(StoredAction(version, entry, wall))
        return out

    async def owners(self, game_ids: Sequence[str]) -> dict[str, str | None]:
        """The stored owner of each of ``game_ids`` (a game not in the store is left out),
        in one query per 500 games: a process resumed after a lapse checks all its games."""
        out: dict[str, str | None] = {}
        ids = list(game_ids)
        async with self.db.session() as s:
            for start in range(0, len(ids), 500):
                rows = await s.execute(
                    select(GameRow.id, GameRow.owner).where(
                        GameRow.id.in_(ids[start : start + 500])
                    )
                )
                out.update({str(g): None if o is None else str(o) for g, o in rows})
        return out

    async def action_ids_of(self, game_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """:meth:`action_ids` of several games, in one query per 500 games."""
        out: dict[str, dict[str, int]] = {g: {} for g in game_ids}
        ids = list(game_ids)
        async with self.db.session() as s:
            for start in range(0, len(ids), 500):
                rows = await s.execute(
                    select(ActionIdRow.game_id, ActionIdRow.action_id, ActionIdRow.version).where(
                        ActionIdRow.game_id.in_(ids[start : start + 500]),
                        ActionIdRow.state == COMMITTED,
                    )
                )
                for game_id, action_id, version in rows:
                    if version is not None:
                        out[game_id][action_id] = version
        return out

    async def live_games(self) -> list[StoredGame]:
        """Every game still being played."""
        async with self.db.session() as s:
            rows = await s.scalars(select(GameRow).where(GameRow.status == "live"))
            return [StoredGame.of(r) for r in rows]

    async def games_of_event(self, event_id: str) -> list[StoredGame]:
        """The online games started for an event."""
        async with self.db.session() as s:
            rows = await s.scalars(
                select(GameRow).where(GameRow.event_id == event_id).order_by(GameRow.created_at)
            )
            return [StoredGame.of(r) for r in rows]

    # ---------------------------------------------------------------- heartbeats

    async def heartbeat(self, process: str, wall: float) -> None:
        """Record that ``process`` is alive at ``wall``."""
        # one autocommit upsert (no BEGIN, no COMMIT): every process runs this every second
        table = HeartbeatRow.__table__
        upsert: Any
        if self.db.is_sqlite:
            from sqlalchemy.dialects.sqlite import insert as upsert
        else:
            from sqlalchemy.dialects.postgresql import insert as upsert
        statement = upsert(table).values(process=process, wall=wall)
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.process], set_={"wall": statement.excluded.wall}
        )
        async with self.db.engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(statement)

    async def beat(self, process: str, wall: float, since: float | None) -> dict[str, float]:
        """:meth:`heartbeat`, and with a ``since`` the processes that beat at ``since`` or
        later (:meth:`heartbeats`, as stored before this beat): every process of a cluster
        runs this every second, so on PostgreSQL it is ONE autocommit statement on the group
        commit's connection (no pool checkout, no BEGIN/ROLLBACK, prepared by psycopg), where
        it was an upsert and a read in a transaction through SQLAlchemy (issue 26: idle cost)."""
        if self.db.is_sqlite:
            others = {} if since is None else await self.heartbeats(since)
            await self.heartbeat(process, wall)
            return others
        params = {"process": process, "wall": wall, "since": math.inf if since is None else since}
        async with self.db.writer() as conn:
            cur = await conn.execute(_PG_BEAT, params)
            rows = await cur.fetchall()
        return {str(p): float(w) for p, w in rows}

    async def heartbeats(self, since: float) -> dict[str, float]:
        """The processes that beat at ``since`` or later, with their last beat."""
        async with self.db.session() as s:
            rows = await s.execute(
                select(HeartbeatRow.process, HeartbeatRow.wall).where(HeartbeatRow.wall >= since)
            )
            return {process: wall for process, wall in rows}

    async def last_heartbeat(self, process: str) -> float | None:
        """The last wall-clock instant ``process`` was known alive."""
        async with self.db.session() as s:
            row = await s.get(HeartbeatRow, process)
            return None if row is None else row.wall

    # ---------------------------------------------------------------- events

    async def create_event(
        self,
        *,
        name: str,
        data: dict[str, Any],
        organiser_token_hash: str,
        arbiter_token_hash: str,
        wall: float,
    ) -> str:
        """Insert an event at version 1 (``data["event"]``: its JSON; the rest: the server's
        settings beside it) and return its id: the head row, then its players' and rounds'
        rows."""
        event_id = new_id()
        meta = dict(data)
        event = Event.from_json(meta.pop("event"))
        head, explanations = _head_data(meta, event)
        async with self.db.engine.begin() as conn:
            await conn.execute(
                insert(EventRow.__table__),  # type: ignore[arg-type]
                [
                    {
                        "id": event_id,
                        "name": name,
                        "data": head,
                        "version": 1,
                        "head_version": 1,
                        "organiser_token_hash": organiser_token_hash,
                        "arbiter_token_hash": arbiter_token_hash,
                        "created_at": wall,
                        "updated_at": wall,
                    }
                ],
            )
            await rows.insert_all(conn, event_id, event, explanations)
            await conn.execute(
                insert(EventRevisionRow.__table__),  # type: ignore[arg-type]
                [{"event_id": event_id, "version": 1, "change": {"op": "create"}, "wall": wall}],
            )
        return event_id

    async def event(self, event_id: str) -> EventRecord:
        """The event assembled from its rows (once per stored version), or NotFound."""
        loaded: rows.Loaded | None = None
        for _attempt in range(3):
            async with self.db.engine.connect() as conn:
                if not self.db.is_sqlite:
                    # one snapshot for the head and every row
                    conn = await conn.execution_options(isolation_level="REPEATABLE READ")
                async with conn.begin():
                    head = await self._head(conn, event_id)
                    loaded = rows.cache_get(self.db.url, head)
                    if loaded is not None:
                        return _record(loaded)
                    loaded = await rows.load(conn, event_id, head)
                    if self.db.is_sqlite and await self._head(conn, event_id) != head:
                        continue  # written meanwhile (no snapshot across statements): again
            rows.cache_put(self.db.url, loaded)
            return _record(loaded)
        assert loaded is not None
        return _record(loaded)  # still changing: this reading, not kept

    async def _head(self, conn: Any, event_id: str) -> rows.Head:
        found = (
            await conn.execute(
                select(EventRow.__table__).where(EventRow.__table__.c.id == event_id)
            )
        ).first()
        if found is None:
            raise NotFound(f"no event with id {event_id!r}")
        return rows.Head.of(found)

    async def event_organiser_hash(self, event_id: str) -> str:
        """The hash of the event's organiser key (without its document), or NotFound. An
        event's keys never change: each is read once per process."""
        known = self._organiser_hashes.get(event_id)
        if known is not None:
            return known
        found = await self._organiser_hash(event_id)
        if len(self._organiser_hashes) > 10_000:
            self._organiser_hashes.clear()
        self._organiser_hashes[event_id] = found
        return found

    async def _organiser_hash(self, event_id: str) -> str:
        async with self.db.session() as s:
            found = await s.scalar(
                select(EventRow.organiser_token_hash).where(EventRow.id == event_id)
            )
            if found is None:
                raise NotFound(f"no event with id {event_id!r}")
            return str(found)

    async def events(self) -> list[EventRecord]:
        """Every event, newest first."""
        async with self.db.session() as s:
            ids = list(await s.scalars(select(EventRow.id).order_by(EventRow.created_at.desc())))
        out = []
        for event_id in ids:
            try:
                out.append(await self.event(event_id))
            except NotFound:  # deleted meanwhile
                continue
        return out

    async def save_event(
        self,
        event_id: str,
        expected_version: int,
        data: dict[str, Any],
        change: dict[str, Any],
        wall: float,
        *,
        reports: Sequence[int] = (),
        close: Mapping[str, str] | None = None,
        event: Event | None = None,
        before: EventRecord | None = None,
    ) -> int:
        """Store a new version of the whole event; Conflict if it moved on meanwhile.

        ``event`` is the new event (else ``data["event"]``, its JSON), ``data`` the server's
        settings beside it (with ``explanations`` of the rounds' pairings); ``before`` the
        record it was changed from (at ``expected_version``): only the rows that differ are
        written (without it, the stored rows are read to compare).

        The outbox rows ``reports`` (the result sheets this version enters) are deleted in the
        same transaction; ReportGone (and nothing written) when one of them is already gone.
        The games of ``close`` (game id -> reason: the director's entry decided their boards)
        are closed in the same transaction, so a result entered is never without its game
        closed, whatever happens after (a crash, a fan-out that is down): every commit of a
        game action checks ``closed``."""
        new_version = expected_version + 1
        meta = dict(data)
        doc = meta.pop("event", None)
        new: Event | None = event
        if new is None and doc is not None:
            new = Event.from_json(doc)
        elif new is None and before is not None:
            new = before.event  # the settings changed, not the event
        table = EventRow.__table__
        try:
            async with self.db.engine.begin() as conn, _deadlock_async(event_id):
                if reports:
                    gone = await conn.execute(delete(OutboxRow).where(OutboxRow.id.in_(reports)))
                    if getattr(gone, "rowcount", len(reports)) != len(reports):
                        raise ReportGone(f"a result report of {list(reports)} was already entered")
                # the event's row first (a board's result locks it first too): its version is
                # checked, then nothing else writes this event until the commit
                result = await conn.execute(
                    update(table)  # type: ignore[arg-type]
                    .where(table.c.id == event_id, table.c.version == expected_version)
                    .values(
                        version=new_version,
                        head_version=table.c.head_version + 1,
                        updated_at=wall,
                    )
                )
                if getattr(result, "rowcount", 1) != 1:
                    raise Conflict(f"event {event_id} changed meanwhile; reload and try again")
                if before is not None and before.version == expected_version and before.event:
                    old_event, old_explanations = before.event, before.data.get("explanations")
                else:
                    old = await rows.load(conn, event_id, await self._head(conn, event_id))
                    old_event, old_explanations = old.event, old.explanations
                if new is None:
                    new = old_event
                head, explanations = _head_data(meta, new)
                await conn.execute(
                    update(table)  # type: ignore[arg-type]
                    .where(table.c.id == event_id)
                    .values(name=new.name, data=head)
                )
                new = await rows.write_diff(
                    conn, event_id, old_event, new, old_explanations or {}, explanations
                )
                if close:
                    await _close(conn, close)
                await conn.execute(
                    insert(EventRevisionRow.__table__),  # type: ignore[arg-type]
                    [
                        {
                            "event_id": event_id,
                            "version": new_version,
                            "change": change,
                            "wall": wall,
                        }
                    ],
                )
                stored = await self._head(conn, event_id)
        except IntegrityError as exc:
            raise Conflict(f"event {event_id}: version {new_version} exists") from exc
        rows.cache_put(self.db.url, rows.Loaded(stored, new, explanations))
        return new_version

    async def board(self, event_id: str, round_number: int, board: int) -> rows.BoardSlice:
        """What a board's result needs and nothing more (see :class:`rows.BoardSlice`), or
        NotFound."""
        async with self.db.engine.connect() as conn:
            found = await rows.load_board(conn, event_id, round_number, board)
            await conn.rollback()
        if found is None:
            raise NotFound(f"no event with id {event_id!r}")
        return found

    async def save_board(
        self,
        piece: rows.BoardSlice,
        after: Event,
        change: dict[str, Any],
        wall: float,
        *,
        close: Mapping[str, str] | None = None,
    ) -> int:
        """Store the board of ``piece`` as ``after`` has it (its row, its audit entry, its
        conflict), its games of ``close`` closed and the change in the event's revisions, in
        one transaction; the event's new version. Conflict (nothing written) when the board or
        the event's head moved on since ``piece`` was read: another desk wrote the same board,
        or the whole event changed."""
        with _deadlock_is_conflict(piece.head.id):
            async with self.db.engine.begin() as conn:
                version, _closed = await self._write_board(
                    conn, piece, BoardWrite(after, change, wall), close
                )
        return version

    async def change_board(
        self,
        event_id: str,
        round_number: int,
        board: int,
        decide: Callable[[rows.BoardSlice], BoardWrite | None],
    ) -> tuple[rows.BoardSlice, BoardWrite | None, int, list[str]]:
        """Read one board's slice, ``decide`` what to write (a pure function of the slice; None:
        nothing), write it, in one transaction: the slice, the write, the event's version
        after it and the ids of the board's online games the write closed. Conflict (nothing
        written) when the board or the event's head moved on meanwhile; NotFound.

        On PostgreSQL the slice is one statement and the write another, both in autocommit
        (two round trips, no BEGIN or COMMIT: :func:`_change_board_pg`)."""
        if not self.db.is_sqlite:
            return await self._change_board_pg(event_id, round_number, board, decide)
        with _deadlock_is_conflict(event_id):
            async with self.db.engine.begin() as conn:
                piece = await rows.load_board(conn, event_id, round_number, board)
                if piece is None:
                    raise NotFound(f"no event with id {event_id!r}")
                plan = decide(piece)
                if plan is None:
                    return piece, None, piece.head.version, []
                version, closed = await self._write_board(conn, piece, plan, None)
        return piece, plan, version, closed

    async def _change_board_pg(
        self,
        event_id: str,
        round_number: int,
        board: int,
        decide: Callable[[rows.BoardSlice], BoardWrite | None],
    ) -> tuple[rows.BoardSlice, BoardWrite | None, int, list[str]]:
        """:meth:`change_board` on PostgreSQL: the slice read by one statement
        (:data:`rows.PG_READ_BOARD`) and the board written by one more
        (:data:`rows.PG_WRITE_BOARD`), each atomic on its own, on a pooled connection in
        autocommit, through psycopg itself (no statement built per call). Nothing is held
        between them: the write is a compare-and-set of the board's version and the event's
        head, so a write read before another desk's (or a change of the whole event) writes
        nothing and is Conflict. A write one statement cannot say (online games to close, a
        trail written again) goes through the transaction of :meth:`_write_board`."""
        import psycopg
        from psycopg.rows import dict_row

        key = {"id": event_id, "round": round_number, "board": board}
        async with self.db.engine.connect() as conn:
            auto = await conn.execution_options(isolation_level="AUTOCOMMIT")
            pg = (await auto.get_raw_connection()).driver_connection
            assert pg is not None
            async with pg.cursor(row_factory=dict_row) as cur:
                await cur.execute(rows.PG_READ_BOARD, key, prepare=True)
                piece = rows.pg_slice(await cur.fetchone(), round_number, board)
                if piece is None:
                    raise NotFound(f"no event with id {event_id!r}")
                plan = decide(piece)
                if plan is None:
                    return piece, None, piece.head.version, []
                params = None
                if not piece.open_games:
                    params = rows.pg_write_params(piece, plan.after, plan.wall, plan.change)
                if params is not None:
                    try:
                        await cur.execute(rows.PG_WRITE_BOARD, params, prepare=True)
                        found = await cur.fetchone()
                    except (
                        psycopg.errors.InvalidTextRepresentation,  # the fence: moved on
                        psycopg.errors.DeadlockDetected,
                        psycopg.errors.UniqueViolation,
                    ) as exc:
                        fence = isinstance(exc, psycopg.errors.InvalidTextRepresentation)
                        if fence and rows.PG_BOARD_MOVED not in str(exc):
                            raise
                        raise Conflict(
                            f"event {event_id} round {round_number} board {board} changed meanwhile"
                        ) from exc
                    assert found is not None
                    version = int(found["version"])
                    g = plan.after.round(round_number).game(board)
                    rows.cache_board(self.db.url, event_id, version, plan.wall, round_number, g)
                    return piece, plan, version, []
        with _deadlock_is_conflict(event_id):
            async with self.db.engine.begin() as conn:
                version, closed = await self._write_board(conn, piece, plan, None)
        return piece, plan, version, closed

    async def _write_board(
        self,
        conn: Any,
        piece: rows.BoardSlice,
        plan: BoardWrite,
        close: Mapping[str, str] | None,
    ) -> tuple[int, list[str]]:
        event_id = piece.head.id
        version = await rows.write_board(
            conn, piece, plan.after, plan.wall, plan.change, postgres=not self.db.is_sqlite
        )
        if version is None:  # the transaction is rolled back
            raise Conflict(
                f"event {event_id} round {piece.round} board {piece.board} changed meanwhile"
            )
        closed: list[str] = []
        if close:
            await _close(conn, close)
            closed = list(close)
        reason = None if plan.closing is None else plan.closing(version)
        if reason is not None and piece.open_games:
            games = GameRow.__table__
            done = await conn.execute(
                update(games)  # type: ignore[arg-type]
                .where(
                    games.c.event_id == event_id,
                    games.c.round == piece.round,
                    games.c.board == piece.board,
                    games.c.closed.is_(None),
                )
                .values(
                    closed=reason,
                    status=case((games.c.status == "live", "closed"), else_=games.c.status),
                )
                .returning(games.c.id)
            )
            closed = [str(i) for i in done.scalars()]
        g = plan.after.round(piece.round).game(piece.board)
        rows.cache_board(self.db.url, event_id, version, plan.wall, piece.round, g)
        return version, closed

    async def games_of_board(
        self, event_id: str, round_number: int, board: int
    ) -> list[StoredGame]:
        """The online games started for one board of an event."""
        async with self.db.session() as s:
            found = await s.scalars(
                select(GameRow).where(
                    GameRow.event_id == event_id,
                    GameRow.round == round_number,
                    GameRow.board == board,
                )
            )
            return [StoredGame.of(r) for r in found]

    # ---------------------------------------------------------------- result outbox

    async def reports(self, limit: int = 100) -> list[Report]:
        """The oldest result reports not yet entered in their events."""
        async with self.db.session() as s:
            rows = await s.scalars(select(OutboxRow).order_by(OutboxRow.id).limit(limit))
            return [Report.of(r) for r in rows]

    async def drop_report(self, report: int) -> bool:
        """Delete a report that needs no event change; False when it was already gone."""
        async with self.db.session() as s, s.begin():
            gone = await s.execute(delete(OutboxRow).where(OutboxRow.id == report))
            return getattr(gone, "rowcount", 1) == 1

    async def close_game(self, game_id: str, reason: str) -> None:
        """Close an event game for the director's entry ``reason``: a live game stops being
        live (it is not restored), and every later action is refused."""
        async with self.db.session() as s, s.begin():
            await s.execute(update(GameRow).where(GameRow.id == game_id).values(closed=reason))
            await s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == "live")
                .values(status="closed")
            )
