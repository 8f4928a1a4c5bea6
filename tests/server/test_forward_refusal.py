"""An action answered with an error is never applied later, without trusting clocks (issue 12).

Two processes on one PostgreSQL + Redis; a move sent through B is forwarded to A, the owner. The
test makes A's commit stall in the database (it holds a lock A's transaction needs) and pauses A
with SIGSTOP in the middle of that commit, so that B gives up waiting (FORWARD_TIMEOUT). The
database decides which came first: B's tombstone of the action's id, or A's commit of it (the
same key, game_action_ids). Both orders are played:

- the tombstone first: B answers 503, A resumes and its commit fails; the move is not in the log;
- the commit first: B's tombstone waits for A's transaction, fails on the key, and B answers the
  version the move reached instead of an error.

On the old design (a wall-clock deadline checked by the owner before it committed) both fail: a
commit that started before the deadline landed after B had answered 503.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend, Server

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]


def _dsn(backend: Backend) -> str:
    return backend.database.replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture
def db(backend: Backend) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(_dsn(backend), autocommit=True) as conn:
        yield conn


def _waiting(db: psycopg.Connection[Any], statement: str, within: float = 20.0) -> None:
    """Until a backend of the test database waits on a lock in ``statement`` (a LIKE pattern
    of its text: the group commit is one statement on PostgreSQL, ``WITH ... UPDATE games ...
    INSERT INTO game_action_ids ... INSERT INTO game_actions``)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND query ILIKE %s",
            (statement,),
        ).fetchone()
        if row and row[0]:
            return
        time.sleep(0.05)
    raise AssertionError(f"nobody waited in {statement!r}")


def _post(server: Server, gid: str, token: str, **action: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{gid}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )


def _moves(server: Server, gid: str) -> list[str | None]:
    log = httpx.get(f"{server.url}/api/games/{gid}/actions", timeout=10).json()["actions"]
    return [x.get("point") for x in log]


def _game(a: Server) -> dict[str, Any]:
    g: dict[str, Any] = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
    assert _post(a, g["id"], g["black_token"], type="move", move="E5").json()["version"] == 1
    return g


def _send_through(pool: ThreadPoolExecutor, b: Server, g: dict[str, Any], **action: Any) -> Any:
    future: Future[httpx.Response] = pool.submit(_post, b, g["id"], g["white_token"], **action)
    return future


def test_a_refused_forward_is_never_applied_by_a_commit_that_stalled(
    start_server: Any, db: psycopg.Connection[Any]
) -> None:
    a: Server = start_server()
    b: Server = start_server()
    assert a.proc is not None
    g = _game(a)  # A owns the game
    gid = g["id"]
    # the database is slow for A: a lock A's commit needs (the game's row) is held here
    blocker = psycopg.connect(db.info.dsn)
    blocker.execute("SELECT 1 FROM games WHERE id = %s FOR NO KEY UPDATE", (gid,))
    try:
        with ThreadPoolExecutor(1) as pool:
            # B forwards it to A as one attempt (Go §6: a move)
            answer = _send_through(pool, b, g, type="move", move="C3", action_id="w-c3")
            _waiting(db, "%UPDATE games%")  # A applied C3 and is committing it
            a.proc.send_signal(signal.SIGSTOP)  # ... and pauses in the middle
            try:
                response = answer.result(60)  # B gives up waiting
                assert response.status_code == 503, response.text
                assert response.headers["content-type"].startswith("application/problem+json")
                refused = db.execute(
                    "SELECT state FROM game_action_ids WHERE game_id = %s", (gid,)
                ).fetchall()
                assert refused == [("refused",)]
                blocker.rollback()  # the database answers A again
            finally:
                a.proc.send_signal(signal.SIGCONT)
    finally:
        blocker.close()
    # A's commit, which started long before B answered, fails on the tombstone: no C3, ever
    time.sleep(2.0)
    assert db.execute("SELECT version FROM games WHERE id = %s", (gid,)).fetchone() == (1,)
    for server in (a, b):
        assert _moves(server, gid) == ["E5"], server.url
    # the client sends it again with the same action_id (the browser UI does after a 503): a
    # new attempt, applied once, through either process
    for server in (b, a, b):
        again = _post(server, gid, g["white_token"], type="move", move="C3", action_id="w-c3")
        assert (again.status_code, again.json()["version"]) == (200, 2), again.text
    assert _moves(a, gid) == _moves(b, gid) == ["E5", "C3"]


def test_a_commit_that_lands_first_is_answered_with_its_version(
    start_server: Any, db: psycopg.Connection[Any]
) -> None:
    a: Server = start_server()
    b: Server = start_server()
    assert a.proc is not None
    g = _game(a)
    gid = g["id"]
    # A's commit will wait for this uncommitted log row (the version its move would take),
    # after it has written the action's id in the same transaction
    blocker = psycopg.connect(db.info.dsn)
    blocker.execute(
        "INSERT INTO game_actions (game_id, version, entry, wall) VALUES (%s, 2, '{}', 0)", (gid,)
    )
    try:
        with ThreadPoolExecutor(1) as pool:
            answer = _send_through(pool, b, g, type="move", move="C3")  # no action_id
            # A's commit (one statement, whose text PostgreSQL shows cut after 1 KiB) waits
            _waiting(db, "%UPDATE games%")
            a.proc.send_signal(signal.SIGSTOP)
            try:
                # B gives up waiting and tries to write the tombstone: the key is A's (not yet
                # committed), so the database makes B wait for A's transaction
                _waiting(db, "INSERT INTO game_action_ids%", within=30)
                blocker.rollback()
            finally:
                a.proc.send_signal(signal.SIGCONT)  # A commits first
            response = answer.result(60)
    finally:
        blocker.close()
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 2
    # the attempt's key, committed with the move, is what made B's tombstone fail
    assert db.execute(
        "SELECT state, version FROM game_action_ids WHERE game_id = %s", (gid,)
    ).fetchall() == [("committed", 2)]
    for server in (a, b):
        assert _moves(server, gid) == ["E5", "C3"], server.url
