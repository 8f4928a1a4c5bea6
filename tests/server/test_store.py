"""The store: versioned logs with compare-and-set, group commit, events, on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text, update
from sqlalchemy.exc import DBAPIError
from tests.server.conftest import PG_ADMIN, Backend, _pg_create, _pg_drop

from duiyi.server.events.results import ResultReader
from duiyi.store import Database, Repository
from duiyi.store.models import GameRow, OutboxRow
from duiyi.store.repository import ActionIdTaken, Append, Conflict
from duiyi.tournament.event import add_players, new_event, pair_next_round
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, Source


@pytest.fixture
async def repo(backend: Backend) -> Repository:
    db = Database(backend.database)
    db.migrate()
    yield Repository(db)  # type: ignore[misc]
    await db.dispose()


async def _game(repo: Repository) -> str:
    return await repo.create_game(
        kind="go", config={"v": 1}, black_token_hash="b", white_token_hash="w", wall=1.0
    )


async def test_append_is_compare_and_set(repo: Repository) -> None:
    gid = await _game(repo)
    assert await repo.append(gid, 0, [{"type": "move"}], 2.0) == 1
    with pytest.raises(Conflict):
        await repo.append(gid, 0, [{"type": "move"}], 2.0)  # somebody wrote version 1 first
    assert [a.version for a in await repo.actions(gid)] == [1]
    assert (await repo.game(gid)).version == 1


async def test_group_commit_keeps_the_others_when_one_conflicts(repo: Repository) -> None:
    ids = [await _game(repo) for _ in range(4)]
    assert await repo.append_many([Append(i, 0, [{"n": 1}, {"n": 2}], 1.0) for i in ids]) == [
        2,
        2,
        2,
        2,
    ]
    results = await repo.append_many(
        [
            Append(ids[0], 2, [{"n": 3}], 1.0),
            Append(ids[1], 0, [{"n": 3}], 1.0),  # stale: refused
            Append(ids[2], 2, [{"n": 3}], 1.0),
            Append(ids[3], 2, [{"n": 3}], 1.0, status="finished", outcome={"result": "win"}),
        ]
    )
    assert results[0] == 3 and results[2] == 3 and results[3] == 3
    assert isinstance(results[1], Conflict)
    assert [(await repo.game(i)).version for i in ids] == [3, 2, 3, 3]
    assert [a.entry for a in await repo.actions(ids[1])] == [{"n": 1}, {"n": 2}]
    finished = await repo.game(ids[3])
    assert finished.status == "finished" and finished.outcome == {"result": "win"}
    assert [g.id for g in await repo.live_games()].count(ids[3]) == 0


async def test_event_versions(repo: Repository) -> None:
    # a change of the whole event is a compare-and-set of its version
    event = new_event("e", "go", "swiss", 3).to_json()
    eid = await repo.create_event(
        name="e",
        data={"event": event, "x": 1},
        organiser_token_hash="o",
        arbiter_token_hash="a",
        wall=1.0,
    )
    assert await repo.save_event(eid, 1, {"event": event, "x": 2}, {"op": "t"}, 2.0) == 2
    with pytest.raises(Conflict):
        await repo.save_event(eid, 1, {"event": event, "x": 3}, {"op": "t"}, 3.0)
    stored = await repo.event(eid)
    assert stored.data == {"x": 2} and stored.event == Event.from_json(event)


async def test_a_fenced_out_owner_cannot_commit(repo: Repository) -> None:
    # the owner column is checked in the statement that commits: once another process claimed
    # the game, the old owner's entries are refused even at the right version
    gid = await repo.create_game(
        kind="go", config={}, black_token_hash="b", white_token_hash="w", wall=0.0, owner="A"
    )
    assert await repo.append_many([Append(gid, 0, [{"t": 1}], 0.0, owner="A")]) == [1]
    assert await repo.claim(gid, "A", "B", 1.0, 1.0)
    for item in (
        Append(gid, 1, [{"t": 2}], 0.0, owner="A"),
        Append(gid, 1, [{"t": 2}], 0.0, owner="A", status="finished"),
    ):
        (result,) = await repo.append_many([item])
        assert isinstance(result, Conflict)
    # in a group commit too, without harming the others
    other = await repo.create_game(
        kind="go", config={}, black_token_hash="b", white_token_hash="w", wall=0.0, owner="A"
    )
    results = await repo.append_many(
        [Append(gid, 1, [{"t": 2}], 0.0, owner="A"), Append(other, 0, [{"t": 1}], 0.0, owner="A")]
    )
    assert isinstance(results[0], Conflict) and results[1] == 1
    assert await repo.append_many([Append(gid, 1, [{"t": 2}], 0.0, owner="B")]) == [2]
    assert [a.version for a in await repo.actions(gid)] == [1, 2]


async def test_the_reports_of_one_event_enter_in_one_change(repo: Repository) -> None:
    """Finished online games of one event enter it in one event change (one version, one
    revision), each board recorded as online; a report that cannot be read waits in the outbox
    and does not hold the others back (a round of a large event is one write per pass)."""
    event = add_players(new_event("e", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    event, _ = pair_next_round(event, random.Random(1))
    eid = await repo.create_event(
        name="e",
        data={"event": event.to_json()},
        organiser_token_hash="o",
        arbiter_token_hash="a",
        wall=1.0,
    )
    sheets = [(1, {"result": "1-0"}), (2, {"result": "not a result"}), (2, {"result": "0-1"})]
    async with repo.db.session() as s, s.begin():
        for n, (board, sheet) in enumerate(sheets):
            s.add(
                OutboxRow(
                    event_id=eid,
                    game_id=f"g{n}",
                    version=9,
                    round=1,
                    board=board,
                    sheet=sheet,
                    wall=2.0,
                )
            )
    assert await ResultReader(repo).drain() == 2
    stored = await repo.event(eid)
    assert stored.version == 2  # one change for both results
    assert stored.event is not None
    games = stored.event.round(1).games
    assert [(g.result, g.source) for g in games] == [
        (GameResult.BLACK_WINS, Source.ONLINE),
        (GameResult.WHITE_WINS, Source.ONLINE),
    ]
    assert [r.game_id for r in await repo.reports()] == ["g1"]  # the unreadable one waits


async def test_the_first_of_a_commit_and_a_refusal_of_an_attempt_wins(repo: Repository) -> None:
    # issue 12: an action answered with an error is never applied later; the key decides
    gid = await _game(repo)
    assert await repo.refuse_action(gid, "late") is None  # the sender's tombstone first
    [result] = await repo.append_many(
        [Append(gid, 0, [{"n": 1}], 1.0, action_id="a-1", attempt="late")]
    )
    assert isinstance(result, ActionIdTaken) and result.version is None
    assert await repo.actions(gid) == [] and (await repo.game(gid)).version == 0
    # the commit first: the refusal answers the version it reached (and in a group commit,
    # an item whose id was refused fails alone; ids are per game)
    other = await _game(repo)
    assert await repo.refuse_action(other, "gone") is None
    results = await repo.append_many(
        [
            Append(gid, 0, [{"n": 1}, {"n": 2}], 1.0, action_id="a-1", attempt="on-time"),
            Append(other, 0, [{"n": 1}], 1.0, attempt="gone"),
            Append(other, 0, [{"n": 1}], 1.0, attempt="late"),
        ]
    )
    assert results[0] == 2 and isinstance(results[1], ActionIdTaken) and results[2] == 1
    assert await repo.refuse_action(gid, "on-time") == 2
    assert await repo.action_ids(gid) == {"a-1": 2, "on-time": 2}  # tombstones are not ids
    # the client's id, sent again in a new attempt: answered with its version, not applied
    [again] = await repo.append_many(
        [Append(gid, 2, [{"n": 3}], 1.0, action_id="a-1", attempt="retry")]
    )
    assert isinstance(again, ActionIdTaken) and again.version == 2
    assert await repo.refuse_action(gid, "retry") is None  # that attempt left nothing


def test_migration_0003_keeps_the_ids_older_logs_carried(tmp_path: Path) -> None:
    from duiyi.store.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade(url, "0002_i10a_outbox")
    engine = create_engine(url)
    with engine.begin() as conn:
        for gid, config in (("g1", '{"engine": {"seat": "white", "kind": "go"}}'), ("g2", "{}")):
            conn.execute(
                text(
                    "INSERT INTO games (id, kind, config, status, version, black_token_hash,"
                    " white_token_hash, created_at, anchor_wall, anchor_timeline)"
                    " VALUES (:id, 'go', :config, 'live', 2, 'b', 'w', 5.0, 5.0, 0.0)"
                ),
                {"id": gid, "config": config},
            )
        conn.execute(
            text(
                "INSERT INTO game_actions (game_id, version, entry, wall) VALUES"
                ' (\'g1\', 1, \'{"type": "pass", "action_id": "p-1"}\', 1.0),'
                " ('g1', 2, '{\"type\": \"pass\"}', 1.0)"
            )
        )
    upgrade(url)
    with engine.begin() as conn:
        ids = conn.execute(text("SELECT game_id, action_id, state, version FROM game_action_ids"))
        assert ids.all() == [("g1", "p-1", "committed", 1)]
        games = conn.execute(text("SELECT id, engine_client, active_at FROM games ORDER BY id"))
        assert games.all() == [("g1", "", 5.0), ("g2", None, 5.0)]
    engine.dispose()


@pytest.mark.postgres
async def test_a_transaction_left_idle_does_not_hold_a_game() -> None:
    """A process paused (SIGSTOP) between two statements of a commit holds the game's row lock;
    PostgreSQL ends its session after ``idle_in_transaction`` seconds, so another process can
    commit, and the paused one's transaction can never commit after it."""
    name = _pg_create()
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name
    paused_db, other_db = Database(url, idle_in_transaction=0.5), Database(url)
    try:
        paused_db.migrate()
        other = Repository(other_db)
        gid = await _game(other)
        paused = paused_db.session()
        await paused.begin()
        await paused.execute(update(GameRow).where(GameRow.id == gid).values(owner="paused"))
        await asyncio.sleep(1.5)  # the process stops here, the row locked
        # the other process's commit waits at most until PostgreSQL ends the idle session
        assert await asyncio.wait_for(other.append(gid, 0, [{"type": "move"}], 2.0), 5) == 1
        with pytest.raises(DBAPIError):
            await paused.commit()  # its session is gone: nothing of it is stored
        await paused.close()
        assert (await other.game(gid)).owner is None
    finally:
        await paused_db.dispose()
        await other_db.dispose()
        _pg_drop(name)


@pytest.mark.postgres
async def test_connections_that_died_while_idle_are_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool pings a connection only when it sat unused (not at every checkout), and the
    group commit's own connection likewise: a connection PostgreSQL ended meanwhile (a restart,
    an administrator) is replaced before anything is sent on it, so no action and no heartbeat
    fails for it."""
    import psycopg

    monkeypatch.setattr(Database, "POOL_IDLE", 0.2)
    monkeypatch.setattr(Database, "WRITER_IDLE", 0.2)
    name = _pg_create()
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name
    db = Database(url)
    try:
        db.migrate()
        repo = Repository(db)
        gid = await _game(repo)
        assert await repo.append(gid, 0, [{"type": "move"}], 2.0) == 1
        await repo.heartbeat("p-1", 3.0)
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            ).fetchone()
        assert ended is not None and ended[0] >= 2  # the pool's and the writer's
        await asyncio.sleep(0.5)
        assert await repo.append(gid, 1, [{"type": "move"}], 4.0) == 2
        await repo.heartbeat("p-1", 5.0)
        assert await repo.last_heartbeat("p-1") == 5.0
        assert [a.version for a in await repo.actions(gid)] == [1, 2]
    finally:
        await db.dispose()
        _pg_drop(name)


async def test_many_games_are_read_and_claimed_at_once(repo: Repository) -> None:
    """Start-up reads the logs and action ids of all live games in a few queries and claims
    them in one statement; a claim is a compare-and-set on the owner of each game, so a game
    another process took meanwhile is left to it (and its version is what was committed)."""
    ids = [await _game(repo) for _ in range(3)]
    await repo.append_many(
        [Append(ids[0], 0, [{"n": 1}, {"n": 2}], 1.0, action_id="id:a", action_body="body:a")]
    )
    await repo.append_many([Append(ids[1], 0, [{"n": 1}], 1.0)])
    logs = await repo.logs(ids)
    assert [[a.version for a in logs[g]] for g in ids] == [[1, 2], [1], []]
    assert logs[ids[0]][1].entry == {"n": 2}
    assert (await repo.action_ids_of(ids))[ids[0]] == {"id:a": 2, "body:a": 2}
    assert await repo.claim(ids[2], None, "other", 5.0, 0.0)  # taken first by another process
    taken = await repo.claim_many([(g, None, 7.0, 3.5) for g in ids], "me")
    assert taken == {ids[0]: 2, ids[1]: 1}
    assert [(await repo.game(g)).owner for g in ids] == ["me", "me", "other"]
    assert (await repo.game(ids[0])).anchor_timeline == 3.5
    await repo.heartbeat("me", 9.0)
    await repo.heartbeat("other", 8.0)
    await repo.heartbeat("me", 10.0)
    assert await repo.heartbeats(0.0) == {"me": 10.0, "other": 8.0}
