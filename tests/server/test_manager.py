"""The game manager in-process: hosting, forgetting idle games, reloading them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import Move, Pass, Resign
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.server.problems import Unavailable
from duiyi.store import Database, Repository


async def test_idle_games_leave_memory_and_come_back(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    db.migrate()
    manager = GameManager(Repository(db), "p-test")
    try:
        timed, _ = await manager.create(
            NewGame(
                {
                    "game": "go",
                    "size": 9,
                    "time_control": {"system": "absolute", "base": 600},
                    "start": "scheduled",  # its clock runs from the start
                }
            )
        )
        untimed, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        done, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        await untimed.act(BLACK, Move("E5"))
        await done.act(BLACK, Resign())
        # a finished game and a live game with nothing due leave memory; a live game whose
        # clock runs stays (its timer must see the flag fall)
        assert await manager.sweep(idle_seconds=0) == 2
        assert set(manager.hosts) == {timed.id}
        # the store keeps them: asking loads them again as they were (Go §7 resignation)
        again = await manager.get(done.id)
        assert again.view()["outcome"]["termination"] == "resignation"
        assert again.version == 1
        back = await manager.get(untimed.id)
        assert back.version == 1 and back.view()["to_move"] == "white"
        # not idle long enough: they stay
        assert await manager.sweep(idle_seconds=3600) == 0
        assert await manager.sweep(idle_seconds=0) == 2
        assert set(manager.hosts) == {timed.id}
    finally:
        await manager.close()
        await db.dispose()


async def test_readers_never_see_an_action_before_its_commit(tmp_path: Path) -> None:
    # an action is acknowledged only once stored; nobody may see it earlier, since a crash
    # before the commit would take it back
    import asyncio

    db = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    db.migrate()
    repo = Repository(db)
    manager = GameManager(repo, "p-test")
    release = asyncio.Event()
    real_append_many = repo.append_many

    async def slow_append_many(items):  # type: ignore[no-untyped-def]
        await release.wait()
        return await real_append_many(items)

    repo.append_many = slow_append_many  # type: ignore[method-assign]
    try:
        release.set()
        host, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        release.clear()
        move = asyncio.create_task(host.act(BLACK, Move("E5")))
        await asyncio.sleep(0.05)
        assert not move.done()
        reader = asyncio.create_task(host.read(0))
        await asyncio.sleep(0.05)
        assert not reader.done()  # waits for the commit instead of showing E5 early
        release.set()
        assert await move == 1
        actions, state = await reader
        assert [a["point"] for a in actions] == ["E5"] and state["version"] == 1
    finally:
        release.set()
        await manager.close()
        await db.dispose()


async def test_action_ids_survive_leaving_memory(tmp_path: Path) -> None:
    # the ids are stored with the log: a retry after a reload is still answered, not replayed
    db = Database(f"sqlite:///{tmp_path / 'i.sqlite3'}")
    db.migrate()
    manager = GameManager(Repository(db), "p-test")
    try:
        host, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        assert await host.act(BLACK, Pass(), "one") == 1
        assert await manager.sweep(idle_seconds=0) == 1
        back = await manager.get(host.id)
        assert await back.act(BLACK, Pass(), "one") == 1
        assert back.version == 1
    finally:
        await manager.close()
        await db.dispose()


async def test_start_up_takes_every_live_game_at_once(tmp_path: Path) -> None:
    # after a crash the next process loads every live game (and only those) as it was: its
    # log, whose turn it is, the action ids already answered; a game a request loaded first
    # is not loaded twice
    import asyncio

    from duiyi import WHITE

    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    db.migrate()
    repo = Repository(db)
    crashed = GameManager(repo, "p-crashed")
    played, _ = await crashed.create(NewGame({"game": "go", "size": 9}))
    fresh, _ = await crashed.create(NewGame({"game": "go", "size": 9}))
    early, _ = await crashed.create(NewGame({"game": "go", "size": 9}))
    done, _ = await crashed.create(NewGame({"game": "go", "size": 9}))
    await played.act(BLACK, Move("E5"), "a1")
    await played.act(WHITE, Move("C3"))
    await done.act(BLACK, Resign())
    for host in (played, fresh, early, done):
        await host.stop()
    await crashed.committer.close()
    manager = GameManager(repo, "p-new")
    try:
        request = asyncio.create_task(manager.get(early.id))  # a request during start-up
        restored = await manager.restore()
        loaded = await request
        assert set(manager.hosts) == {played.id, fresh.id, early.id}  # not the finished one
        assert manager.hosts[early.id] is loaded  # one host, whoever loaded it first
        assert restored in (2, 3)
        back = manager.hosts[played.id]
        assert back.version == 2 and back.view()["to_move"] == "black"
        assert (await repo.game(played.id)).owner == "p-new"
        # the id already answered is answered again with its version, not played twice
        assert await back.act(BLACK, Move("E5"), "a1") == 1
        assert await back.act(BLACK, Move("D4")) == 3
        assert await manager.restore() == 0  # nothing left to take
    finally:
        await manager.close()
        await db.dispose()


async def test_a_failed_commit_is_never_read_even_when_the_reload_fails(tmp_path: Path) -> None:
    # issue 33: the commit of move 3 fails (the store went away), and so does the reload
    # after it; memory was left at version 3, the store at 2, and reads served the move the
    # store never took. Now it leaves memory before anything reads it, and the game, which
    # cannot be read again yet, leaves this process: the next access loads the store's truth.
    db = Database(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    db.migrate()
    repo = Repository(db)
    manager = GameManager(repo, "p-test")
    real_append_many, real_game = repo.append_many, repo.game
    failing = asyncio.Event()
    reached = asyncio.Event()
    down = False

    async def append_many(items):  # type: ignore[no-untyped-def]
        if not down:
            return await real_append_many(items)
        reached.set()
        await failing.wait()
        raise ConnectionRefusedError(111, "Connection refused")

    async def game(game_id):  # type: ignore[no-untyped-def]
        if down:
            raise ConnectionRefusedError(111, "Connection refused")
        return await real_game(game_id)

    repo.append_many = append_many  # type: ignore[method-assign]
    repo.game = game  # type: ignore[method-assign]
    try:
        host, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        await host.act(BLACK, Move("E5"))
        await host.act(WHITE, Move("C3"))
        down = True
        move = asyncio.create_task(host.act(BLACK, Move("G7")))
        await reached.wait()
        readers = [
            asyncio.create_task(host.read(0)),
            asyncio.create_task(host.current_session()),
        ]
        failing.set()
        with pytest.raises(Unavailable, match="nothing was changed"):
            await move
        for reader in readers:  # waited for the commit, then found the game gone from here
            with pytest.raises(Unavailable):
                await reader
        assert host.id not in manager.hosts and host.version == 2
        with pytest.raises(ConnectionRefusedError):
            await manager.get(host.id)  # the store is still down: a 503 for the routes
        down = False
        await manager.sweep(idle_seconds=3600)  # loaded again once the store answers
        again = manager.hosts[host.id]
        assert await manager.get(host.id) is again is not host and again.version == 2
        actions, state = await again.read(0)
        assert [a["point"] for a in actions] == ["E5", "C3"] and state["to_move"] == "black"
    finally:
        failing.set()
        await manager.close()
        await db.dispose()


async def test_a_commit_that_reached_the_store_before_its_connection_failed_is_kept(
    tmp_path: Path,
) -> None:
    # the connection may fail after PostgreSQL committed: the reload after the failure reads
    # the store, which has the move, so memory follows the store (never ahead, never behind)
    db = Database(f"sqlite:///{tmp_path / 'k.sqlite3'}")
    db.migrate()
    repo = Repository(db)
    manager = GameManager(repo, "p-test")
    real_append_many = repo.append_many

    async def append_then_fail(items):  # type: ignore[no-untyped-def]
        await real_append_many(items)
        raise ConnectionResetError(104, "Connection reset by peer")

    try:
        host, _ = await manager.create(NewGame({"game": "go", "size": 9}))
        repo.append_many = append_then_fail  # type: ignore[method-assign]
        with pytest.raises(Unavailable):
            await host.act(BLACK, Move("E5"))
        assert manager.hosts[host.id] is host and host.version == 1
        assert [a.version for a in await repo.actions(host.id)] == [1]
    finally:
        await manager.close()
        await db.dispose()


@pytest.mark.postgres
async def test_a_process_back_from_a_lapse_serves_no_stale_copy() -> None:
    # issue 33: a process asked directly after a failover served its old copy of a game
    # (version 24 against 39 stored): it was paused, another process took the game over and
    # played on, and the message saying so never reached it. After a lapse of its heartbeat
    # (stale_after without one stored) it asks the store before serving from memory.
    from tests.server.conftest import PG_ADMIN, _pg_create, _pg_drop

    name = _pg_create()
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name
    db_a, db_b = Database(url), Database(url)
    db_a.migrate()
    a, b = GameManager(Repository(db_a), "p-a"), GameManager(Repository(db_b), "p-b")
    try:
        host, _ = await a.create(NewGame({"game": "go", "size": 9}))
        await host.act(BLACK, Move("E5"))
        a.beaten(time.monotonic())
        assert await a.get(host.id) is host  # no lapse: served from memory, no question
        # A stops (SIGSTOP) for longer than stale_after; B takes the game over and plays on
        a.beat_at = time.monotonic() - 2 * a.stale_after
        taken = await b.local(host.id)
        await taken.act(WHITE, Move("C3"))
        await taken.act(BLACK, Move("G7"))
        # A, asked directly, answers what the store holds, never its version 1
        again = await a.get(host.id)
        assert again is not host and again.version == 3
        assert [e["point"] for e in (await again.read(0))[0]] == ["E5", "C3", "G7"]
        # whoever still holds the old copy (a socket) is refused, and told to reconnect
        assert host.abandoned
        with pytest.raises(Unavailable):
            await host.read()
    finally:
        await a.close()
        await b.close()
        await db_a.dispose()
        await db_b.dispose()
        _pg_drop(name)
