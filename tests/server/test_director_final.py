"""Issue 25, findings 2 and 3: a director's entry is final in the store (docs/server.md,
"Results"). Closing a board's online game is part of the transaction that stores the result,
and every commit of a game action checks ``closed`` in the statement that checks the version
and the owner: no process commits after the close, whatever the fan-out (Redis) does, and a
results sheet killed half-way leaves no board with a result and an open game.

Real processes on the machine's PostgreSQL; Redis is a private ``redis-server`` this test
starts on a free port and stops (never the machine's: other tests use it)."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend, PrivateRedis, Server

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]


def _dsn(backend: Backend) -> str:
    return backend.database.replace("postgresql+psycopg://", "postgresql://")


def _event(server: Server, players: int) -> tuple[str, dict[str, str], list[dict[str, Any]]]:
    """An event of ``players`` people, round 1 paired and its online games started (by
    ``server``, which hosts them): its id, the organiser's header and the boards' games."""
    r = httpx.post(
        server.url + "/api/events",
        json={"name": "cup", "game": "go", "system": "swiss", "rounds": 3, "online": {"size": 9}},
    )
    assert r.status_code == 201, r.text
    event_id = r.json()["id"]
    key = {"Authorization": f"Bearer {r.json()['organiser_token']}"}
    url = f"{server.url}/api/events/{event_id}"
    names = "\n".join(f"player {i}" for i in range(players))
    r = httpx.post(
        url + "/players",
        content=names,
        headers={**key, "Content-Type": "text/plain"},
        timeout=60,
    )
    assert r.status_code == 200, r.text
    assert httpx.post(url + "/rounds", headers=key, timeout=60).status_code == 200
    r = httpx.post(url + "/rounds/1/games", headers=key, timeout=300)
    assert r.status_code == 201, r.text
    return event_id, key, r.json()["games"]


def _act(server: Server, game_id: str, token: str, **action: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game_id}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


def test_a_closed_game_takes_no_action_in_any_process_whatever_redis_does(
    backend: Backend, redis: PrivateRedis, tmp_path: Path
) -> None:
    # Finding 2: Redis down, the director's 1-0 entered through process 2; Redis back;
    # process 1 (the game's owner, which never heard of the close) must refuse every later
    # action (409), and the game stays closed in the store.
    a = Server(backend.database, redis.url).start(tmp_path)
    b = Server(backend.database, redis.url).start(tmp_path)
    try:
        event_id, key, games = _event(a, 2)
        (game,) = games
        gid = game["game_id"]
        assert _act(a, gid, game["black_token"], type="move", move="E5").status_code == 200
        redis.stop()
        r = httpx.put(
            f"{b.url}/api/events/{event_id}/rounds/1/boards/1/result",
            json={"result": "1-0"},
            headers=key,
            timeout=60,
        )
        assert r.status_code == 200, r.text
        assert r.json()["closed_games"] == [gid]
        redis.start()
        time.sleep(2.0)  # both processes are back on Redis
        for server, token, action in (
            (a, game["white_token"], {"type": "move", "move": "C3"}),
            (a, game["black_token"], {"type": "resign"}),
            (b, game["white_token"], {"type": "pass"}),
            (a, game["white_token"], {"type": "move", "move": "D4"}),
        ):
            refused = _act(server, gid, token, **action)
            assert refused.status_code == 409, (server.url, refused.text)
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert "director" in refused.json()["detail"]
        with psycopg.connect(_dsn(backend)) as db:
            row = db.execute(
                "SELECT version, status, closed IS NOT NULL FROM games WHERE id = %s", (gid,)
            ).fetchone()
            stored = db.execute(
                "SELECT count(*) FROM game_actions WHERE game_id = %s", (gid,)
            ).fetchone()
        assert row == (1, "closed", True)
        assert stored == (1,)  # E5 only
        doc = httpx.get(f"{a.url}/api/events/{event_id}").json()
        board = doc["event"]["history"][0]["games"][0]
        assert (board["result"], board["source"]) == ("1-0", "director")
    finally:
        a.stop()
        b.stop()


def test_a_results_sheet_killed_half_way_leaves_no_result_with_an_open_game(
    backend: Backend, tmp_path: Path
) -> None:
    # Finding 3: kill -9 during a 200-board results sheet; after a restart every board with
    # a stored result has its game closed, and a resignation on one is refused as closed (409
    # naming the director), not answered as a conflict of results.
    server = Server(backend.database, None)
    server.start(tmp_path)
    try:
        event_id, key, games = _event(server, 400)
        assert len(games) == 200
        sheet = "round,board,result\n" + "".join(f"1,{g['board']},1-0\n" for g in games)
        by_board = {g["board"]: g for g in games}
        with psycopg.connect(_dsn(backend), autocommit=True) as db:
            (before,) = db.execute(
                "SELECT version FROM events WHERE id = %s", (event_id,)
            ).fetchone() or (0,)

            def send() -> None:
                with contextlib.suppress(httpx.HTTPError):  # killed under it
                    httpx.post(
                        f"{server.url}/api/events/{event_id}/results",
                        content=sheet,
                        headers={**key, "Content-Type": "text/csv"},
                        timeout=60,
                    )

            sender = threading.Thread(target=send)
            sender.start()
            # kill -9 the moment the sheet's change is committed: the old design closed the
            # games one by one after that, and most were still open
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                row = db.execute("SELECT version FROM events WHERE id = %s", (event_id,))
                if (row.fetchone() or (0,))[0] > before:
                    break
                time.sleep(0.002)
            server.kill9()
        sender.join(60)
        server.start(tmp_path, within=180)  # the live games are restored
        doc = httpx.get(f"{server.url}/api/events/{event_id}").json()
        stored = [b["board"] for b in doc["event"]["history"][0]["games"] if b.get("result")]
        # the sheet entered whole (one change) with every game of its boards closed
        assert len(stored) == 200
        with psycopg.connect(_dsn(backend)) as db:
            rows = db.execute(
                "SELECT board, status, closed IS NOT NULL FROM games WHERE event_id = %s",
                (event_id,),
            ).fetchall()
        assert len(rows) == 200
        assert [r for r in rows if r[0] in stored and (r[1], r[2]) != ("closed", True)] == []
        some = by_board[stored[len(stored) // 2]]
        refused = _act(server, some["game_id"], some["white_token"], type="resign")
        assert refused.status_code == 409, refused.text
        assert "director" in refused.json()["detail"]
        conflicts = httpx.get(f"{server.url}/api/events/{event_id}/conflicts", headers=key)
        assert conflicts.status_code == 200 and not conflicts.json().get("conflicts"), (
            conflicts.text
        )
    finally:
        server.stop()
