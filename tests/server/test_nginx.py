"""Three `duiyi serve` processes on one PostgreSQL + Redis behind a real nginx (the deployment of
docs/deploy.md, deploy/nginx-duiyi.conf): games played through nginx over HTTP and WebSocket
are stored once and seen the same way by every process."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend
from tests.server.nginx import Cluster, start_cluster
from websockets.sync.client import ClientConnection, connect

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Black fills rows 1-7, White rows 13-19 of a 19x19 board: the stones of the two colours never
# touch, so there is no capture and every move on an empty point is legal (Go §5).
POINTS = {
    "black": [f"{c}{r}" for r in range(1, 8) for c in COLUMNS],
    "white": [f"{c}{r}" for r in range(19, 12, -1) for c in COLUMNS],
}


@pytest.fixture
def cluster(backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    assert backend.redis is not None
    # every request reaches the processes from nginx's address: lift the per-client rate limit
    monkeypatch.setenv("DUIYI_RATE_PER_SECOND", "100000")
    monkeypatch.setenv("DUIYI_PROXY_HEADER", "X-Forwarded-For")
    c = start_cluster(backend.database, backend.redis, tmp_path)
    try:
        yield c
    finally:
        c.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored_log(backend: Backend, game_id: str) -> list[dict[str, Any]]:
    """The game's log as committed in PostgreSQL (the truth every process must serve)."""
    dsn = backend.database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT version, entry FROM game_actions WHERE game_id = %s ORDER BY version",
            (game_id,),
        ).fetchall()
    assert [v for v, _ in rows] == list(range(1, len(rows) + 1)), "versions without a gap"
    return [e if isinstance(e, dict) else json.loads(e) for _, e in rows]


def stored_moves(log: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["player"], e["point"]) for e in log if e["type"] == "move"]


def views_agree(cluster: Cluster, game_id: str, log: list[dict[str, Any]]) -> list[str]:
    """What each process answers for the game, compared with the stored log; [] when all agree."""
    moves = stored_moves(log)
    problems = []
    for i, server in enumerate(cluster.servers):
        state = httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json()
        seen = [(m[0], m[1]) for m in state["moves"]]
        if state["version"] != len(log) or seen != moves:
            problems.append(
                f"process {i} serves version {state['version']} with {len(seen)} moves; "
                f"stored: version {len(log)}, {len(moves)} moves"
            )
        actions = httpx.get(
            f"{server.url}/api/games/{game_id}/actions", params={"after": 0}, timeout=10
        ).json()
        if [(a["v"], a["type"], a.get("point")) for a in actions["actions"]] != [
            (e["v"], e["type"], e.get("point")) for e in log
        ]:
            problems.append(f"process {i} serves a log that is not the stored one")
    return problems


def upstreams_used(cluster: Cluster) -> set[str]:
    """The processes nginx sent requests to (its access log's last field)."""
    assert cluster.nginx.prefix is not None
    lines = (cluster.nginx.prefix / "access.log").read_text().splitlines()
    return {line.rsplit(" ", 1)[-1] for line in lines}


def play_http(url: str, game: dict[str, Any], moves: int) -> list[tuple[int, str]]:
    acked = []
    with httpx.Client(base_url=url, timeout=20) as client:
        for i in range(moves):
            color = "black" if i % 2 == 0 else "white"
            point = POINTS[color][i // 2]
            r = client.post(
                f"/api/games/{game['id']}/actions",
                json={"type": "move", "move": point},
                headers=auth(game[f"{color}_token"]),
            )
            assert r.status_code == 200, r.text
            acked.append((r.json()["version"], point))
    return acked


def recv_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(20))
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def play_ws(ws_url: str, game: dict[str, Any], moves: int) -> list[tuple[int, str]]:
    """Both players on their own socket through nginx (round robin: usually two processes);
    each move is acknowledged to the mover and pushed to the other player."""
    acked = []
    url = f"{ws_url}/api/games/{game['id']}/socket"
    with (
        connect(url, additional_headers=auth(game["black_token"])) as black,
        connect(url, additional_headers=auth(game["white_token"])) as white,
    ):
        assert recv_until(black, "hello")["seat"] == "black"
        assert recv_until(white, "hello")["seat"] == "white"
        for i in range(moves):
            color = "black" if i % 2 == 0 else "white"
            mover, other = (black, white) if color == "black" else (white, black)
            point = POINTS[color][i // 2]
            mover.send(
                json.dumps({"type": "act", "ref": i, "action": {"type": "move", "move": point}})
            )
            ack = recv_until(mover, "ack")
            assert ack["ref"] == i
            acked.append((ack["version"], point))
            # the opponent's socket (maybe on another process) sees the move, in order (after
            # the update of its own previous move)
            update = recv_until(other, "update")
            while update["version"] < ack["version"]:
                update = recv_until(other, "update")
            assert update["version"] == ack["version"]
            assert update["state"]["moves"][-1][1] == point
    return acked


def test_games_through_nginx(cluster: Cluster, backend: Backend) -> None:
    url = cluster.nginx.url
    games = [
        httpx.post(url + "/api/games", json={"game": "go", "size": 19}).json() for _ in range(6)
    ]
    acked: dict[str, list[tuple[int, str]]] = {}
    failures: list[BaseException] = []

    def play(game: dict[str, Any], transport: str) -> None:
        try:
            if transport == "http":
                acked[game["id"]] = play_http(url, game, 16)
            else:
                acked[game["id"]] = play_ws(cluster.nginx.ws_url, game, 16)
        except BaseException as exc:  # reported below with the processes' logs
            failures.append(exc)

    threads = [
        threading.Thread(target=play, args=(g, "http" if n % 2 else "ws"))
        for n, g in enumerate(games)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, f"{failures!r}\n{cluster.logs()}"
    for game in games:
        log = stored_log(backend, game["id"])
        # every acknowledged move is stored at the version its acknowledgement named
        for version, point in acked[game["id"]]:
            assert log[version - 1]["point"] == point
        assert len(stored_moves(log)) == 16
        assert views_agree(cluster, game["id"], log) == []
    # nginx spread the requests over the three processes
    assert len(upstreams_used(cluster) & {f"127.0.0.1:{s.port}" for s in cluster.servers}) == 3
