"""The game manager in-process: hosting, forgetting idle games, reloading them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
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
        # read, they are answered from the store, not loaded (Go §7 resignation)
        read = await manager.find(done.id)
        assert (await read.read())[1]["outcome"]["termination"] == "resignation"
        assert set(manager.hosts) == {timed.id}
        # served (an action, a socket), they load again as they were
        again = await manager.serve(done.id)
        assert again.view()["outcome"]["termination"] == "resignation"
        assert again.version == 1
        back = await manager.serve(untimed.id)
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
        back = await manager.serve(host.id)
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
        request = asyncio.create_task(manager.serve(early.id))  # a request during start-up
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
            await manager.serve(host.id)  # the store is still down: a 503 for the routes
        down = False
        await manager.sweep(idle_seconds=3600)  # loaded again once the store answers
        again = manager.hosts[host.id]
        assert await manager.serve(host.id) is again is not host and again.version == 2
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


@contextlib.asynccontextmanager
async def _two_processes() -> AsyncIterator[tuple[GameManager, GameManager]]:
    """Two processes' managers, "p-a" and "p-b", on one new PostgreSQL database (a cluster's
    store), closed and the database dropped after."""
    from tests.server.conftest import PG_ADMIN, _pg_create, _pg_drop

    name = _pg_create()
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name
    db_a, db_b = Database(url), Database(url)
    db_a.migrate()
    a, b = GameManager(Repository(db_a), "p-a"), GameManager(Repository(db_b), "p-b")
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()
        await db_a.dispose()
        await db_b.dispose()
        _pg_drop(name)


@pytest.mark.postgres
async def test_a_process_back_from_a_lapse_serves_no_stale_copy() -> None:
    # issue 33: a process asked directly after a failover served its old copy of a game
    # (version 24 against 39 stored): it was paused, another process took the game over and
    # played on, and the message saying so never reached it. After a lapse of its heartbeat
    # (stale_after without one stored) it asks the store before serving from memory.
    async with _two_processes() as (a, b):
        host, _ = await a.create(NewGame({"game": "go", "size": 9}))
        await host.act(BLACK, Move("E5"))
        a.beaten(time.monotonic())
        assert await a.serve(host.id) is host  # no lapse: served from memory, no question
        # A stops (SIGSTOP) for longer than stale_after; B takes the game over and plays on
        a.beat_at = time.monotonic() - 2 * a.stale_after
        taken = await b.local(host.id)
        await taken.act(WHITE, Move("C3"))
        await taken.act(BLACK, Move("G7"))
        # A, asked directly, answers what the store holds, never its version 1
        again = await a.find(host.id)
        assert again is not host and again.version == 3
        assert [e["point"] for e in (await again.read(0))[0]] == ["E5", "C3", "G7"]
        # whoever still holds the old copy (a socket) is refused, and told to reconnect
        assert host.abandoned
        with pytest.raises(Unavailable):
            await host.read()


async def test_a_late_takeover_message_never_drops_a_game_taken_back() -> None:
    # issue 33: A hosts a game; paused, B takes it over and tells A (Redis). A, resumed, is
    # the game's ring owner again and takes it back before it reads B's message; read then,
    # that message must not make A forget the game it owns again (nobody would serve it: its
    # clock would never fall, its sockets would be sent to a process that left it). A message
    # whose takeover the store confirms is still obeyed.
    async with _two_processes() as (a, b):
        host, _ = await a.create(NewGame({"game": "go", "size": 9}))
        await host.act(BLACK, Move("E5"))
        taken = await b.local(host.id)  # B takes the game over (A was paused) ...
        a.taken_over(host.id, "p-b")  # ... and says so: the store agrees, A lets it go
        await asyncio.gather(*a._background)
        assert host.abandoned and host.id not in a.hosts
        await taken.act(WHITE, Move("C3"))
        # A takes it back (its ring owner again) before B's second message, sent earlier, is
        # read (B's takeover is told to the old owner and to the game's watchers)
        a.beat_at = time.monotonic() - 2 * a.stale_after  # A's lapse: ask the store
        back = await a.local(host.id)
        assert back is not host and back.version == 2
        a.taken_over(host.id, "p-b")  # late: the store names A
        await asyncio.gather(*a._background)
        assert a.hosts.get(host.id) is back and not back.abandoned
        # A serves the game: Go §8, Black's move, stored after White's
        assert await back.act(BLACK, Move("G7")) == 3
        assert taken.abandoned or (await b.repo.game(host.id)).owner == "p-a"


async def test_a_remote_games_read_never_says_a_version_behind_its_entries(
    tmp_path: Path,
) -> None:
    # issue 33 (the event day: "served at another version"): a socket on a process that does
    # not host its game is greeted with the state and the stored entries after its version,
    # read one after the other; the owner committed in between, and the hello said version 1
    # with 2 entries. The entries end at the state's version (the rest comes as an update).
    from duiyi.server.games.hosted import rebuild_session
    from duiyi.server.games.remote import RemoteGame, stored_state

    db = Database(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    db.migrate()
    repo = Repository(db)
    owner = GameManager(repo, "p-owner")
    try:
        host, _ = await owner.create(NewGame({"game": "go", "size": 9}))
        await host.act(BLACK, Move("E5"))
        record = await repo.game(host.id)
        state = stored_state(record, rebuild_session(record, await repo.actions(host.id)))

        class OwnerMovesBetween:
            """The store as the remote process reads it; the owner commits White's C3 (Go §8)
            between the state's read and the entries' read."""

            forward = None

            def __init__(self) -> None:
                self.repo = self
                self.moved = False

            async def game(self, game_id: str):  # type: ignore[no-untyped-def]
                return await repo.game(game_id)

            async def actions(self, game_id: str, after: int = 0):  # type: ignore[no-untyped-def]
                if not self.moved:
                    self.moved = True
                    await host.act(WHITE, Move("C3"))
                return await repo.actions(game_id, after=after)

        remote = RemoteGame(OwnerMovesBetween(), record, state)  # type: ignore[arg-type]
        entries, seen = await remote.read(0)
        assert seen["version"] == 1
        assert [e["point"] for e in entries] == ["E5"]
        # read again: caught up with the store, both moves at version 2
        entries, seen = await remote.read(0)
        assert seen["version"] == 2 and [e["point"] for e in entries] == ["E5", "C3"]
    finally:
        await owner.close()
        await db.dispose()


def _join(*managers: GameManager) -> None:
    """What the Redis fan-out hooks into each manager, in-process: an action forwarded to a
    game's holder is applied there, every process listens (alive), and a takeover is told to
    the old holder (which then asks the store, as on Redis's message)."""
    from duiyi.actions import SESSION_ACTIONS
    from duiyi.codec import action_from_json
    from duiyi.server.games.action_ids import ACTION_ID

    by_id = {m.process_id: m for m in managers}

    async def forward(owner, game_id, seat, kind, data):  # type: ignore[no-untyped-def]
        host = await by_id[owner].local(game_id)
        return await host.act(seat, action_from_json(data, SESSION_ACTIONS), data.get(ACTION_ID))

    async def alive(process: str) -> bool:
        return process in by_id

    for m in managers:
        m.forward = forward
        m.alive = alive
        m.on_takeover = lambda game_id, old, m=m: by_id[old].taken_over(game_id, m.process_id)


@pytest.mark.postgres
async def test_a_read_on_another_process_never_takes_the_game_over() -> None:
    # issue 33: a finished game read on a process that did not host it was loaded there and
    # claimed, and its owner, told it was taken over, closed its sockets (4409): 50 times at
    # the rounds' ends (each board's game told that its round ended) and 186 by the reads
    # after the day. A read is answered from the store; an action on a game whose holder is
    # alive, finished or not, is forwarded to it; the holder keeps its games and its sockets.
    from duiyi.actions import RoundEnded
    from duiyi.server.cluster.ownership import Ownership
    from duiyi.server.games.remote import RemoteGame

    async with _two_processes() as (a, b):
        _join(a, b)
        for m in (a, b):
            await m.repo.heartbeat(m.process_id, time.time())
        done, _ = await a.create(NewGame({"game": "go", "size": 9}))
        live, _ = await a.create(NewGame({"game": "go", "size": 9}))
        await done.act(BLACK, Move("E5"))
        await done.act(WHITE, Resign())  # Go §7: the game is over
        await live.act(BLACK, Move("E5"))
        heard: dict[str, list[str]] = {done.id: [], live.id: []}  # a socket of each, on A
        for host in (done, live):
            host.listeners.add(heard[host.id].append)

        for host in (done, live):
            seen = await b.find(host.id)
            entries, state = await seen.read(0)
            assert [e["type"] for e in entries] == [e["type"] for e in (await host.read(0))[0]]
            assert state["version"] == host.version
        # the round's end told from B (tell_round_ended): forwarded to A, which applies it
        told = await b.serve(done.id)
        assert isinstance(told, RemoteGame)
        assert await told.act(None, RoundEnded(), "round-ended-1") == 3
        # B the ring owner of every game now (nginx sends it their requests): a read still
        # takes nothing over (a socket or an action there would hand the live game over)
        b.ownership = Ownership(("b:1",), "p-b@b:1", stale_after=5.0)
        assert b.ownership.mine(live.id)
        assert (await (await b.find(live.id)).read())[1]["version"] == 1
        await asyncio.gather(*a._background, *b._background)

        assert a.hosts == {done.id: done, live.id: live}
        assert not done.abandoned and not live.abandoned
        assert (await a.repo.owners([done.id, live.id])) == {done.id: "p-a", live.id: "p-a"}
        assert not any('"reconnect"' in m for m in heard[done.id] + heard[live.id])
        assert b.takeovers == {} and a.lost == 0 and not b.hosts
        # A keeps hosting: White's move (Go §8) and the told round's end are in its log
        assert await live.act(WHITE, Move("C3")) == 2
        assert done.version == 3 and done.session.round_end is not None
