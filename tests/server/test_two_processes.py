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
