"""Two server processes on one PostgreSQL + Redis: players connected to different processes
play a whole game, and every socket sees every move."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server, bearer
from websockets.sync.client import connect


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_players_on_different_processes(backend: Backend, start_server: Any) -> None:
    assert backend.redis is not None
    a: Server = start_server()
    b: Server = start_server()
    g = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
    url_a = f"{a.ws_url}/api/games/{g['id']}/socket"
    url_b = f"{b.ws_url}/api/games/{g['id']}/socket"
    moves = ["E5", "C3", "G7", "C7", "G3", "E3", "E7"]
    with (
        connect(url_a, subprotocols=bearer(g["black_token"])) as black,
        connect(url_b, subprotocols=bearer(g["white_token"])) as white,
    ):
        assert json.loads(black.recv(5))["seat"] == "black"
        hello = json.loads(white.recv(5))
        assert hello["seat"] == "white" and hello["version"] == 0
        for i, move in enumerate(moves):
            mover, other = (black, white) if i % 2 == 0 else (white, black)
            mover.send(
                json.dumps({"type": "act", "ref": i, "action": {"type": "move", "move": move}})
            )
            seen: dict[str, Any] = {}
            while "ack" not in seen or "update" not in seen:
                m = json.loads(mover.recv(10))
                seen[m["type"]] = m
            assert seen["ack"]["version"] == i + 1
            update = json.loads(other.recv(10))
            assert update["type"] == "update" and update["version"] == i + 1
            assert update["state"]["moves"][-1][1] == move
        # an illegal move through the other process is refused with the owner's problem
        white.send(json.dumps({"type": "act", "action": {"type": "move", "move": "E5"}}))
        err = json.loads(white.recv(10))
        assert err["type"] == "error" and err["problem"]["status"] == 409
        white.send(json.dumps({"type": "act", "ref": "r", "action": {"type": "resign"}}))
        while json.loads(white.recv(10))["type"] != "ack":
            pass
        final = json.loads(black.recv(10))
        assert final["type"] == "update" and final["state"]["outcome"]["winner"] == "black"
    for server in (a, b):
        state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
        assert [m[1] for m in state["moves"]] == moves
        assert state["outcome"]["winner"] == "black"


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_reads_on_another_process_leave_the_game_to_its_owner(
    backend: Backend, start_server: Any
) -> None:
    # issue 33: a finished game read on a process that did not host it was loaded and claimed
    # there, and the owner's sockets were closed with 4409 (236 times in a small event day).
    # Every read route on B answers from the store; A keeps both games and its sockets.
    import psycopg
    from tests.server.conftest import operator

    a: Server = start_server()
    b: Server = start_server()
    done = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
    live = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()

    def act(game: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {game[seat + '_token']}"}
        r = httpx.post(f"{a.url}/api/games/{game['id']}/actions", json=action, headers=headers)
        assert r.status_code == 200, r.text
        return dict(r.json())

    act(done, "black", {"type": "move", "move": "E5"})
    act(live, "black", {"type": "move", "move": "E5"})
    assert act(done, "white", {"type": "resign"})["state"]["outcome"]["winner"] == "black"  # §7
    url = f"{a.ws_url}/api/games/{{}}/socket"
    with (
        connect(url.format(done["id"]), subprotocols=bearer(done["black_token"])) as on_done,
        connect(url.format(live["id"]), subprotocols=bearer(live["white_token"])) as on_live,
    ):
        for ws in (on_done, on_live):
            assert json.loads(ws.recv(10))["type"] == "hello"
        for game in (done, live):
            for path in ("", "/actions", "/sgf", "/analysis", "/rulings", "/position?move=1"):
                r = httpx.get(f"{b.url}/api/games/{game['id']}{path}")
                assert r.status_code == 200, (path, r.text)
        dsn = backend.database.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(dsn) as db:
            owners = dict(db.execute("SELECT id, owner FROM games").fetchall())
        assert owners[done["id"]] == owners[live["id"]] == _process(a)
        # A's sockets are still served: a ping is answered, nothing told them to reconnect
        for ws in (on_done, on_live):
            ws.send(json.dumps({"type": "ping", "ref": "p"}))
            assert json.loads(ws.recv(10))["type"] == "pong"
    metrics_b = httpx.get(f"{b.url}/api/metrics", headers=operator()).json()
    metrics_a = httpx.get(f"{a.url}/api/metrics", headers=operator()).json()
    assert metrics_b["takeovers"] == {} and metrics_a["games_lost"] == 0
    assert metrics_a["sockets_moved"] == 0


def _process(server: Server) -> str:
    """The process id of ``server`` (its /api/metrics)."""
    from tests.server.conftest import operator

    return str(httpx.get(f"{server.url}/api/metrics", headers=operator()).json()["process"])
