"""Issue 33: "A PostgreSQL restart gives 500s and a phantom move". While the store is down every
route answers 503 with Retry-After (nothing was accepted, try again), a socket's move gets a
retryable error, the log has one warning line and no traceback; and the move whose commit
failed is never served afterwards (memory at version 3, store at 2), whatever reads the game.

The outage is the test's own: its server reaches the machine's PostgreSQL through a relay
(tests/server/outage.py) that is cut and restored, which looks to the server as a restart does
(every connection ends, new ones are refused), without stopping the PostgreSQL other tests use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import REDIS_URL, Server, bearer
from tests.server.nginx import start_cluster
from tests.server.outage import StoreRelay, relayed_database, relayed_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

pytestmark = pytest.mark.postgres


@pytest.fixture
def outage(tmp_path: Path) -> Iterator[tuple[Server, StoreRelay]]:
    """A server whose PostgreSQL (a fresh database) is reached through a relay the test cuts."""
    with relayed_server(tmp_path) as both:
        yield both


def _move(server: Server, game: dict[str, Any], seat: str, point: str, aid: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game['id']}/actions",
        json={"type": "move", "move": point, "action_id": aid},
        headers={"Authorization": f"Bearer {game[seat + '_token']}"},
        timeout=30,
    )


def _unavailable(r: httpx.Response) -> None:
    """A 503 problem document that says when to try again, never a 500."""
    assert r.status_code == 503, (r.status_code, r.text)
    assert r.headers["retry-after"].isdigit()
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["status"] == 503


def _event(server: Server) -> tuple[str, dict[str, str]]:
    """A one-round online Swiss of two, its round paired and its game started."""
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "Cup", "game": "go", "system": "swiss", "rounds": 1, "online": {"size": 9}},
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    base = f"{server.url}/api/events/{ev['id']}"
    httpx.post(base + "/players", content="A\nB\n", headers={**org, "Content-Type": "text/plain"})
    assert httpx.post(base + "/rounds", headers=org).status_code < 300
    assert httpx.post(base + "/rounds/1/games", headers=org).status_code < 300
    return base, org


def test_an_outage_is_a_503_everywhere_and_no_unstored_move_is_served(
    outage: tuple[Server, StoreRelay],
) -> None:
    server, relay = outage
    game = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
    gid = game["id"]
    assert _move(server, game, "black", "E5", "m1").status_code == 200
    assert _move(server, game, "white", "C3", "m2").json()["version"] == 2
    event, org = _event(server)
    socket_url = f"{server.ws_url}/api/games/{gid}/socket?version=2"
    with connect(socket_url, subprotocols=bearer(game["black_token"])) as black:
        assert json.loads(black.recv(10))["version"] == 2  # hello

        relay.cut()  # PostgreSQL goes away (a restart, as the server sees it)

        # Black's third move, on the socket, cannot be stored: a retryable error (503) for its
        # ref; then the socket is asked to reconnect (4409): the game left memory, whose
        # truth the store holds
        black.send(json.dumps({"type": "act", "ref": 7, "action": {"type": "move", "move": "G7"}}))
        answer = json.loads(black.recv(30))
        assert answer["type"] == "error" and answer["ref"] == 7, answer
        assert answer["problem"]["status"] == 503
        with pytest.raises(ConnectionClosed):
            black.recv(30)
        assert black.close_code == 4409
    # and over HTTP, as the page sends it again: 503, nothing accepted (the phantom)
    _unavailable(_move(server, game, "black", "G7", "m3"))
    # nothing reads version 3: the game is read from the store again, which is down
    _unavailable(httpx.get(f"{server.url}/api/games/{gid}", timeout=30))
    _unavailable(httpx.get(f"{server.url}/api/games/{gid}/actions", timeout=30))
    # a route of the desk, and the director's result entry (not a try in each route)
    _unavailable(httpx.get(event, headers=org, timeout=30))
    _unavailable(
        httpx.put(
            event + "/rounds/1/boards/1/result", json={"result": "1-0"}, headers=org, timeout=30
        )
    )
    _unavailable(httpx.post(server.url + "/api/games", json={"game": "go"}, timeout=30))
    # a socket opened during the outage is told to try later (1013), not "not found" (4404)
    with connect(socket_url, subprotocols=bearer(game["white_token"])) as white:
        refused = json.loads(white.recv(30))
        assert refused["type"] == "error" and refused["problem"]["status"] == 503
        with pytest.raises(ConnectionClosed):
            white.recv(30)
        assert white.close_code == 1013

    relay.restore()  # PostgreSQL is back

    # the store holds version 2, and so does every read: the failed move never appears
    state = httpx.get(f"{server.url}/api/games/{gid}", timeout=30).json()
    assert state["version"] == 2 and state["to_move"] == "black"
    moves = httpx.get(f"{server.url}/api/games/{gid}/actions", timeout=30).json()["actions"]
    assert [a["point"] for a in moves] == ["E5", "C3"]
    # the client's retry, same action id, is applied once, now
    assert _move(server, game, "black", "G7", "m3").json()["version"] == 3
    assert _move(server, game, "black", "G7", "m3").json()["version"] == 3
    assert httpx.get(f"{server.url}/api/games/{gid}", timeout=30).json()["version"] == 3

    assert server.log is not None
    text = server.log.read_text(errors="replace")
    assert "Traceback" not in text and " 500 " not in text, text
    warnings = [line for line in text.splitlines() if "the store cannot be reached" in line]
    # one line when the outage began (then at most one per 10 s), not one per request
    assert 1 <= len(warnings) <= 4, warnings


def test_health_says_503_while_the_store_is_down(outage: tuple[Server, StoreRelay]) -> None:
    server, relay = outage
    assert httpx.get(server.url + "/api/health").status_code == 200
    relay.cut()
    assert httpx.get(server.url + "/api/health", timeout=30).status_code == 503
    relay.restore()
    assert httpx.get(server.url + "/api/health", timeout=30).status_code == 200


def test_through_nginx_an_outage_stays_a_503(tmp_path: Path) -> None:
    # the event day (issue 33): every process answered the outage 503, nginx took each 503 for
    # a failed process (proxy_next_upstream http_503, max_fails=1), found no live upstream and
    # answered 502 to everything for 3 s. A 503 is an answer from a live process: nginx passes
    # it on, with its Retry-After, and keeps the process
    with relayed_database() as (url, relay):
        cluster = start_cluster(url, REDIS_URL, tmp_path, processes=2)
        try:
            ev = httpx.post(
                cluster.nginx.url + "/api/events",
                json={"name": "Cup", "game": "go", "system": "swiss", "rounds": 1},
            ).json()
            relay.cut()
            for _ in range(4):
                _unavailable(httpx.get(f"{cluster.nginx.url}/api/events/{ev['id']}", timeout=30))
            relay.restore()
            assert httpx.get(f"{cluster.nginx.url}/api/events/{ev['id']}", timeout=30).is_success
        finally:
            cluster.stop()
