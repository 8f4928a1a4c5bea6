"""The arbiter's room reads its event once, not once a board (issue 33: the event day's room of
31 boards took 7-50 s on a loaded machine, over nginx's 10 s read timeout, and nginx then took
the processes out and answered 502 to every desk request)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import event

from duiyi.server.app import create_app
from duiyi.server.settings import Settings
from duiyi.store import Repository


async def test_the_room_of_many_boards_reads_its_event_once(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}"))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://room") as client,
    ):
        made = (
            await client.post(
                "/api/events",
                json={"name": "Cup", "rounds": 2, "online": {"size": 9}},
            )
        ).json()
        eid = made["id"]
        org = {"Authorization": f"Bearer {made['organiser_token']}"}
        body = "name\n" + "".join(f"P{c}\n" for c in "ABCDEFGHIJKL")
        r = await client.post(
            f"/api/events/{eid}/players", content=body, headers={**org, "Content-Type": "text/csv"}
        )
        assert r.status_code == 200, r.text
        assert (await client.post(f"/api/events/{eid}/rounds", headers=org)).status_code == 200
        started = await client.post(f"/api/events/{eid}/rounds/1/games", headers=org)
        assert started.status_code == 201, started.text
        reads: list[str] = []
        event = Repository.event

        async def counted(self: Repository, event_id: str) -> Any:
            reads.append(event_id)
            return await event(self, event_id)

        monkeypatch.setattr(Repository, "event", counted)
        room = await client.get(
            f"/api/events/{eid}/room", headers={"Authorization": f"Bearer {made['arbiter_token']}"}
        )
        assert room.status_code == 200, room.text
        boards = room.json()["boards"]
        # six boards, each with its players' names (from the round's pairing)
        assert len(boards) == 6
        assert all(set(b["names"]) == {"black", "white"} for b in boards)
        assert reads == [eid]


async def test_the_room_reads_games_another_process_hosts_from_the_store_at_once(
    tmp_path: Any,
) -> None:
    """Issue 33: the room read every board through its host, so a process asked for the room
    of games another one hosts took each one over (or read and replayed it several times):
    the room of 31 boards took 2-20 s on the event day. Now the boards it does not host come
    from the store, their logs in one query whatever their number, and nobody's game moves."""
    database = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    host_app = create_app(Settings(database_url=database))
    room_app = create_app(Settings(database_url=database))  # a second process, same store
    async with (
        host_app.router.lifespan_context(host_app),
        room_app.router.lifespan_context(room_app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=host_app), base_url="http://a") as a,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=room_app), base_url="http://b") as b,
    ):
        counts = []
        for players in (12, 24):
            made = (
                await a.post(
                    "/api/events", json={"name": "Cup", "rounds": 2, "online": {"size": 9}}
                )
            ).json()
            eid, org = made["id"], {"Authorization": f"Bearer {made['organiser_token']}"}
            body = "name\n" + "".join(f"P{i}\n" for i in range(players))
            await a.post(
                f"/api/events/{eid}/players",
                content=body,
                headers={**org, "Content-Type": "text/csv"},
            )
            await a.post(f"/api/events/{eid}/rounds", headers=org)
            started = (await a.post(f"/api/events/{eid}/rounds/1/games", headers=org)).json()
            for g in started["games"]:  # a move on every board, through its host
                r = await a.post(
                    f"/api/games/{g['game_id']}/actions",
                    json={"type": "move", "move": "E5"},
                    headers={"Authorization": f"Bearer {g['black_token']}"},
                )
                assert r.status_code == 200, r.text
            statements: list[str] = []

            def seen(
                _conn: Any, _cursor: Any, statement: str, *_args: Any, out: list[str] = statements
            ) -> None:
                if "heartbeats" not in statement:  # the process's own beat, every second
                    out.append(statement)

            engine = room_app.state.duiyi.repo.db.engine.sync_engine
            event.listen(engine, "before_cursor_execute", seen)
            try:
                room = await b.get(
                    f"/api/events/{eid}/room",
                    headers={"Authorization": f"Bearer {made['arbiter_token']}"},
                )
            finally:
                event.remove(engine, "before_cursor_execute", seen)
            assert room.status_code == 200, room.text
            boards = room.json()["boards"]
            assert len(boards) == players // 2
            # each board as stored: Black's move, White to play
            assert all(
                bd["state"]["version"] == 1 and bd["state"]["to_move"] == "white" for bd in boards
            )
            # nobody's game moved to the process that read the room
            assert room_app.state.duiyi.games.hosts == {}
            for g in started["games"]:
                stored = await host_app.state.duiyi.repo.game(g["game_id"])
                assert stored.owner == host_app.state.duiyi.settings.process_id
            counts.append(len(statements))
        # twice the boards, the same statements
        assert counts[0] == counts[1], counts
