"""A Redis restart while games are played on two processes (issue 33, the event day's fault):
a socket on a process that does not host its game forwards each act through Redis to the owner.
Right after Redis is back the owner may not have subscribed again yet; the act must still be
acknowledged (the forwarder waits for the owner to listen again), never answered 503 "not
listening", and the owner keeps its game (a process not yet back on Redis is not dead).

Real processes on the machine's PostgreSQL and a private ``redis-server`` (conftest.PrivateRedis:
never the machine's, which other tests use)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend, PrivateRedis, Server, bearer
from websockets.sync.client import ClientConnection, connect

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]


def _send(ws: ClientConnection, ref: str, move: str) -> float:
    """Send a move with an action id (``ref``); when it was sent."""
    action = {"type": "move", "move": move, "action_id": ref}
    ws.send(json.dumps({"type": "act", "ref": ref, "action": action}))
    return time.monotonic()


def _answer(ws: ClientConnection, ref: str, sent: float) -> tuple[dict[str, Any], float]:
    """The answer (ack or error) to the act ``ref`` sent at ``sent``, and how long it took."""
    while True:
        m: dict[str, Any] = json.loads(ws.recv(30))
        if m["type"] in ("ack", "error") and m.get("ref") == ref:
            return m, time.monotonic() - sent


def _act(ws: ClientConnection, ref: str, move: str) -> tuple[dict[str, Any], float]:
    return _answer(ws, ref, _send(ws, ref, move))


def _owner(backend: Backend, game_id: str) -> str:
    dsn = backend.database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT owner FROM games WHERE id = %s", (game_id,)).fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize(
    ("down", "late"),
    [(0.0, 0.0), (1.5, 0.0), (0.0, 1.5)],
    ids=["restart", "down-1.5s", "owner-back-1.5s-later"],
)
def test_an_act_forwarded_right_after_a_redis_restart_is_acknowledged(
    backend: Backend, redis: PrivateRedis, tmp_path: Path, down: float, late: float
) -> None:
    # A hosts the game (its creator, no DUIYI_PEERS); both players' sockets are on B, which
    # forwards their acts through Redis. Redis restarts (down for ``down`` seconds; with
    # ``late`` the owner A is stopped across the restart and runs again ``late`` seconds
    # after it, so it subscribes again that much later than B: the event day's 503s "the
    # process hosting game ... is not listening"). The next acts, the first sent the moment
    # Redis is back, are acknowledged in order (Go §8: one move per turn, stored once), none
    # answered 503, and A still owns the game: nobody took it over while it was not listening.
    a = Server(backend.database, redis.url).start(tmp_path)
    b = Server(backend.database, redis.url).start(tmp_path)
    try:
        g = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
        gid = g["id"]
        owner = _owner(backend, gid)
        url = f"{b.ws_url}/api/games/{gid}/socket"
        with (
            connect(url, subprotocols=bearer(g["black_token"])) as black,
            connect(url, subprotocols=bearer(g["white_token"])) as white,
        ):
            for ws in (black, white):
                assert json.loads(ws.recv(10))["type"] == "hello"
            ack, _ = _act(black, "b1", "E5")
            assert ack["type"] == "ack" and ack["version"] == 1, ack
            time.sleep(1.0)  # B listens to the game (its watcher runs every 0.5 s)
            assert a.proc is not None
            if late:
                os.kill(a.proc.pid, signal.SIGSTOP)
            try:
                redis.stop()
                time.sleep(down)
                redis.start()
                first = _send(white, "w1", "C3")
                time.sleep(late)
            finally:
                if late:
                    os.kill(a.proc.pid, signal.SIGCONT)
            answers = [
                _answer(white, "w1", first),
                _act(black, "b2", "G7"),
                _act(white, "w2", "C7"),
            ]
        for (m, took), version in zip(answers, (2, 3, 4), strict=True):
            assert m["type"] == "ack", (m, took)
            assert m["version"] == version, m
            assert took < late + 3.0, (m, took)
        assert _owner(backend, gid) == owner  # not taken over: A was never dead
        stored = httpx.get(f"{a.url}/api/games/{gid}/actions?after=0").json()
        assert [e["point"] for e in stored["actions"]] == ["E5", "C3", "G7", "C7"]
    finally:
        a.stop()
        b.stop()
