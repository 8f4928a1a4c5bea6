"""Issue 25, finding 4: an ``action_id`` belongs to its sender (a seat or the arbiter) and its
game. White's move with the id Black used is White's own action (applied); the same sender's
id again with the same body is a retry (answered with its version, applied once); with another
body it is a 409 problem. Through one process and through two (the second forwards to the
owner, which decides in the store)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server

PROBLEM = "application/problem+json"


def _post(server: Server, gid: str, token: str, path: str = "actions", **body: Any) -> Any:
    return httpx.post(
        f"{server.url}/api/games/{gid}/{path}",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


def _points(server: Server, gid: str) -> list[Any]:
    log = httpx.get(f"{server.url}/api/games/{gid}/actions", timeout=10).json()["actions"]
    return [x.get("point") for x in log if x.get("type") == "move"]


def _check(owner: Server, other: Server) -> None:
    """The scenario of the finding: ``owner`` hosts the game, requests go through ``other``
    (the same process, or a second one that forwards them)."""
    g = httpx.post(owner.url + "/api/games", json={"game": "go", "size": 9}).json()
    gid, black, white = g["id"], g["black_token"], g["white_token"]
    # a bot that numbers its actions 1, 2, 3 ... and so does its opponent
    r = _post(other, gid, black, type="move", move="E5", action_id="1")
    assert (r.status_code, r.json()["version"]) == (200, 1), r.text
    r = _post(other, gid, white, type="move", move="C3", action_id="1")
    assert (r.status_code, r.json()["version"]) == (200, 2), r.text  # White's own action
    # the arbiter's id is the arbiter's (Go §24: a warning is a ruling)
    r = _post(
        other, gid, g["arbiter_token"], "rulings", kind="warning", color="white", action_id="1"
    )
    assert r.status_code == 200, r.text
    ruled = r.json()["version"]
    assert ruled == 3
    # retries, through either process: the version each reached, nothing applied twice
    for server in (other, owner):
        again = _post(server, gid, black, type="move", move="E5", action_id="1")
        assert (again.status_code, again.json()["version"]) == (200, 1), again.text
        again = _post(server, gid, white, type="move", move="C3", action_id="1")
        assert (again.status_code, again.json()["version"]) == (200, 2), again.text
    # the same id with another body: refused, and nothing changes (Black to move, Go §3)
    for server in (other, owner):
        reused = _post(server, gid, black, type="move", move="D4", action_id="1")
        assert reused.status_code == 409, reused.text
        assert reused.headers["content-type"].startswith(PROBLEM)
        assert "action_id" in reused.json()["detail"]
    assert _points(owner, gid) == _points(other, gid) == ["E5", "C3"]
    r = _post(other, gid, black, type="move", move="D4", action_id="2")
    assert (r.status_code, r.json()["version"]) == (200, ruled + 1), r.text
    assert _points(owner, gid) == ["E5", "C3", "D4"]


def test_action_ids_are_scoped_to_their_sender_in_one_process(server: Server) -> None:
    _check(server, server)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_action_ids_are_scoped_to_their_sender_through_two_processes(
    backend: Backend, start_server: Any
) -> None:
    a: Server = start_server()
    b: Server = start_server()
    _check(a, b)
