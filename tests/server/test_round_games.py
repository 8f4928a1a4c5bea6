"""Starting a round's online games costs the store the same whatever the number of boards
(issue 33: on the event day ``POST /api/events/{id}/rounds/{n}/games`` created 31 Go games one
by one, an insert and a read back each, and took longer than nginx's 10 s on a loaded
machine: the director never got the players' links)."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import event

from duiyi.server.app import create_app
from duiyi.server.settings import Settings


async def _statements_to_start(client: httpx.AsyncClient, app: Any, players: int) -> list[str]:
    """The SQL statements the store runs while round 1 of a new Swiss of ``players`` has its
    online games started; checks every board got its game and its players' links."""
    made = (
        await client.post("/api/events", json={"name": "Cup", "rounds": 2, "online": {"size": 9}})
    ).json()
    eid = made["id"]
    org = {"Authorization": f"Bearer {made['organiser_token']}"}
    body = "name\n" + "".join(f"P{i}\n" for i in range(players))
    r = await client.post(
        f"/api/events/{eid}/players", content=body, headers={**org, "Content-Type": "text/csv"}
    )
    assert r.status_code == 200, r.text
    assert (await client.post(f"/api/events/{eid}/rounds", headers=org)).status_code == 200
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = app.state.duiyi.repo.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        started = await client.post(f"/api/events/{eid}/rounds/1/games", headers=org)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert started.status_code == 201, started.text
    games = started.json()["games"]
    assert len(games) == players // 2
    # every board is a game being played: its players' links work
    for g in games:
        state = (await client.get(f"/api/games/{g['game_id']}")).json()
        assert state["event"] == {"id": eid, "round": 1, "board": g["board"]}
        move = await client.post(
            f"/api/games/{g['game_id']}/actions",
            json={"type": "move", "move": "E5"},
            headers={"Authorization": f"Bearer {g['black_token']}"},
        )
        assert move.status_code == 200, move.text
    return statements


async def test_a_rounds_games_are_stored_in_one_statement_whatever_their_number(
    tmp_path: Any,
) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}"))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://desk") as client,
    ):
        six = await _statements_to_start(client, app, 12)
        twelve = await _statements_to_start(client, app, 24)
    inserts = [s for s in twelve if s.lstrip().upper().startswith("INSERT INTO GAMES")]
    assert len(inserts) == 1, inserts
    # nothing is done once a board: twice the boards, the same statements
    assert len(twelve) == len(six), (len(six), len(twelve))
