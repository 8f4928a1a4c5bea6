"""The arbiter's room reads its event once, not once a board (issue 33: the event day's room of
31 boards took 7-50 s on a loaded machine, over nginx's 10 s read timeout, and nginx then took
the processes out and answered 502 to every desk request)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

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
