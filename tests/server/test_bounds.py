"""Bounded everything (issue 25, finding 6 without the engine parts): players per event, events
per client, connections per client, request heads and bodies on a deadline, idle connections
closed, sockets per game and per client, the database pool's exhaustion a 503 with
Retry-After, and X-Forwarded-For believed from configured proxies only. Real `duiyi serve`
processes on SQLite (the bounds do not depend on the store)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, bearer, spectating
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


@pytest.fixture
def bounded(tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def start(**env: str) -> Server:
        server = Server(f"sqlite:///{tmp_path / 'b.sqlite3'}", None, env=env).start(tmp_path)
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


def _organiser(ev: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {ev['organiser_token']}"}


def test_an_event_holds_at_most_the_configured_players(bounded: Any) -> None:
    server = bounded(DUIYI_MAX_PLAYERS_PER_EVENT="10")
    ev = httpx.post(server.url + "/api/events", json={"name": "Cap", "rounds": 3}).json()
    url = f"{server.url}/api/events/{ev['id']}/players"
    r = httpx.post(url, json=[{"name": f"P{i}"} for i in range(8)], headers=_organiser(ev))
    assert r.status_code == 200, r.text
    csv = "name\n" + "".join(f"Q{i}\n" for i in range(5))
    r = httpx.post(url, content=csv, headers={**_organiser(ev), "content-type": "text/csv"})
    assert r.status_code == 409, r.text
    assert "at most 10 players" in r.json()["detail"]
    assert httpx.get(f"{server.url}/api/events/{ev['id']}").json()["players"] == 8
    r = httpx.post(url, json=[{"name": "R1"}, {"name": "R2"}], headers=_organiser(ev))
    assert r.status_code == 200, r.text


def test_a_client_creates_a_bounded_number_of_events(bounded: Any) -> None:
    server = bounded(DUIYI_MAX_EVENTS_PER_CLIENT="3")
    made = [
        httpx.post(server.url + "/api/events", json={"name": f"E{i}", "rounds": 1})
        for i in range(4)
    ]
    assert [r.status_code for r in made] == [201, 201, 201, 429], made[-1].text
    assert made[-1].headers["retry-after"]


def _raw(server: Server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return s


def _closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes ``s`` within ``seconds`` (and what it said first)."""
    s.settimeout(seconds)
    said = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return True, said
            said += chunk
    except TimeoutError:
        return False, said
    except ConnectionResetError:
        return True, said


def test_silent_and_half_sent_requests_are_closed(bounded: Any) -> None:
    server = bounded(DUIYI_HEADER_TIMEOUT="1", DUIYI_BODY_TIMEOUT="1", DUIYI_KEEP_ALIVE_TIMEOUT="1")
    silent, half_head, half_body, idle = (_raw(server) for _ in range(4))
    half_head.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
    half_body.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"size":'
    )
    idle.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")  # then nothing more
    closed = {
        name: _closed_within(s, 6)
        for name, s in (
            ("silent", silent),
            ("half_head", half_head),
            ("half_body", half_body),
            ("idle", idle),
        )
    }
    for name, (was_closed, _said) in closed.items():
        assert was_closed, f"the {name} connection is still open"
    assert closed["silent"][1].startswith(b"HTTP/1.1 408"), closed["silent"][1]
    assert b"HTTP/1.1 200" in closed["idle"][1]
    assert httpx.get(server.url + "/api/health").status_code == 200


def test_connections_per_client_are_capped(bounded: Any) -> None:
    server = bounded(DUIYI_MAX_CONNECTIONS_PER_CLIENT="5", DUIYI_HEADER_TIMEOUT="30")
    held = [_raw(server) for _ in range(5)]
    extra = _raw(server)
    was_closed, said = _closed_within(extra, 5)
    assert was_closed and said.startswith(b"HTTP/1.1 429"), said
    assert b"more than 5 open connections" in said
    held.pop().close()
    # a place is free once the server has seen the close: at once here, a moment later on a
    # loaded machine
    deadline = time.monotonic() + 15
    while (code := httpx.get(server.url + "/api/health").status_code) != 200:
        assert time.monotonic() < deadline, code
        time.sleep(0.1)
    for s in held:
        s.close()


def test_sockets_per_game_and_per_client_are_capped(bounded: Any) -> None:
    server = bounded(DUIYI_MAX_SOCKETS_PER_GAME="2", DUIYI_MAX_SOCKETS_PER_CLIENT="4")
    g = httpx.post(server.url + "/api/games", json={"size": 9}).json()
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    watchers = [connect(url, subprotocols=spectating(), legacy=True) for _ in range(2)]  # type: ignore[call-overload]
    for w in watchers:
        assert json.loads(w.recv(5))["type"] == "hello"
    with connect(url, subprotocols=spectating()) as third:
        answer = json.loads(third.recv(5))
        assert answer["type"] == "error" and answer["problem"]["status"] == 429
        with pytest.raises(ConnectionClosed) as closed:
            third.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # the players still sit down at their board
    black = connect(url, subprotocols=bearer(g["black_token"]), legacy=True)  # type: ignore[call-overload]
    assert json.loads(black.recv(5))["seat"] == "black"
    white = connect(url, subprotocols=bearer(g["white_token"]), legacy=True)  # type: ignore[call-overload]
    assert json.loads(white.recv(5))["seat"] == "white"
    # four sockets from this address: a fifth is refused, whichever game
    other = httpx.post(server.url + "/api/games", json={"size": 9}).json()
    with connect(
        f"{server.ws_url}/api/games/{other['id']}/socket", subprotocols=spectating()
    ) as fifth:
        assert json.loads(fifth.recv(5))["type"] == "error"
        with pytest.raises(ConnectionClosed) as closed:
            fifth.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    for s in (*watchers, black, white):
        s.close()


def test_x_forwarded_for_is_not_believed_by_default(bounded: Any) -> None:
    # a local client forging a new address per request stays one client: the limit holds
    server = bounded(DUIYI_RATE_PER_SECOND="1")  # bursts of 4
    refused = 0
    with httpx.Client() as client:
        for i in range(20):
            r = client.post(
                server.url + "/api/nothing-here",
                json={},
                headers={"X-Forwarded-For": f"10.9.{i // 250}.{i % 250}"},
            )
            refused += r.status_code == 429
            if refused:
                break
    assert refused > 0


def test_an_exhausted_database_pool_is_a_503_with_retry_after() -> None:
    from fastapi import FastAPI
    from sqlalchemy.exc import TimeoutError as PoolTimeout
    from starlette.testclient import TestClient

    from duiyi.server.problems import install_handlers

    app = FastAPI()
    install_handlers(app)

    @app.get("/busy")
    async def busy() -> None:
        raise PoolTimeout("QueuePool limit of size 20 overflow 20 reached")

    r = TestClient(app, raise_server_exceptions=False).get("/busy")
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] and r.headers["content-type"].startswith(
        "application/problem+json"
    )
    assert "QueuePool" not in r.text
