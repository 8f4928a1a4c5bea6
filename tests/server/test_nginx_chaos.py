"""nginx in front of three processes on one PostgreSQL + Redis (issue 12, docs/deploy.md): games
are played through nginx while processes are paused (SIGSTOP) and killed (-9) at random, then
restarted; every move that was acknowledged is in the store at its version, and every process
serves the same log. Bounded in time (about 30 s of chaos)."""

from __future__ import annotations

import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Nginx, Server

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Black fills rows 1-4, White rows 16-19: no capture, every move legal (Go §2-§5)
BLACK = [f"{c}{r}" for r in range(1, 5) for c in COLUMNS]
WHITE = [f"{c}{r}" for r in range(19, 15, -1) for c in COLUMNS]
CHAOS_SECONDS = 30.0
GAMES = 4


def _play(base: str, game: dict[str, Any], acked: dict[int, str], stop: threading.Event) -> None:
    """Play alternate moves through nginx; record every acknowledged (200) move by version.
    After an error the client looks at the stored log before trying again (the move may have
    been committed by a process that died before answering)."""
    gid = game["id"]
    tokens = {"black": game["black_token"], "white": game["white_token"]}
    version = 0
    with httpx.Client(base_url=base, timeout=20) as client:
        while not stop.is_set() and version < 60:
            seat = "black" if version % 2 == 0 else "white"
            move = (BLACK if seat == "black" else WHITE)[version // 2]
            try:
                r = client.post(
                    f"/api/games/{gid}/actions",
                    json={"type": "move", "move": move},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
            except httpx.HTTPError:
                r = None
            if r is not None and r.status_code == 200:
                got = r.json()["version"]
                assert got == version + 1, (got, version)
                acked[got] = move
                version = got
                continue
            time.sleep(0.3)
            try:
                log = client.get(f"/api/games/{gid}/actions").json()
                version = log["version"]
            except (httpx.HTTPError, KeyError, ValueError):
                pass


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_nothing_acknowledged_is_lost_through_nginx(
    backend: Backend, start_server: Any, tmp_path: Path
) -> None:
    servers: list[Server] = [start_server() for _ in range(3)]
    nginx = Nginx([s.port for s in servers]).start(tmp_path)
    rng = random.Random(12)
    restarted: list[Server] = []
    try:
        games = [
            httpx.post(nginx.url + "/api/games", json={"game": "go", "size": 19}).json()
            for _ in range(GAMES)
        ]
        acked: list[dict[int, str]] = [{} for _ in games]
        stop = threading.Event()
        players = [
            threading.Thread(target=_play, args=(nginx.url, g, acked[i], stop), daemon=True)
            for i, g in enumerate(games)
        ]
        for t in players:
            t.start()
        deadline = time.monotonic() + CHAOS_SECONDS
        events = []
        while time.monotonic() < deadline:
            time.sleep(rng.uniform(1.0, 2.5))
            i = rng.randrange(3)
            victim = servers[i]
            assert victim.proc is not None
            if rng.random() < 0.5:
                events.append(f"pause {victim.port}")
                victim.proc.send_signal(signal.SIGSTOP)
                time.sleep(rng.uniform(1.0, 7.0))
                victim.proc.send_signal(signal.SIGCONT)
            else:
                events.append(f"kill -9 {victim.port}")
                victim.kill9()
                time.sleep(rng.uniform(0.5, 2.0))
                again = Server(victim.database, victim.redis, port=victim.port).start(tmp_path)
                restarted.append(again)
                servers[i] = again
        stop.set()
        for t in players:
            t.join(40)
        time.sleep(1.0)
        total = sum(len(a) for a in acked)
        assert total >= 10, f"too little was played to judge: {total} moves ({events})"
        for g, moves in zip(games, acked, strict=True):
            logs = []
            for s in servers:
                log = httpx.get(f"{s.url}/api/games/{g['id']}/actions", timeout=20).json()
                logs.append([a.get("point") for a in log["actions"]])
            # every process serves the same stored log
            assert all(log == logs[0] for log in logs), logs
            # nothing acknowledged is lost, at its version
            for version, move in moves.items():
                assert logs[0][version - 1] == move, (version, move, logs[0], events)
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.proc.send_signal(signal.SIGCONT)
        for s in restarted:
            s.stop()
        nginx.stop()
