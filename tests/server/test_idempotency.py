"""Idempotent actions (issue 12): a client sends an ``action_id``; a retried or forwarded action
is applied at most once and answered with the version it reached, even after the game left
memory or through another process."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server, bearer
from websockets.sync.client import connect


def _post(url: str, game: dict[str, Any], token: str, **action: Any) -> httpx.Response:
    return httpx.post(
        f"{url}/api/games/{game['id']}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )


def _log(url: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = httpx.get(f"{url}/api/games/{game['id']}/actions").json()[
        "actions"
    ]
    return actions


def test_a_retried_action_is_applied_once(server: Server) -> None:
    g = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
    b, w = g["black_token"], g["white_token"]
    first = _post(server.url, g, b, type="pass", action_id="b-1")
    again = _post(server.url, g, b, type="pass", action_id="b-1")
    assert first.status_code == again.status_code == 200
    assert first.json()["version"] == again.json()["version"] == 1
    # Go §7: had the retry been applied as a second pass... it is Black's single pass
    assert [a["type"] for a in _log(server.url, g)] == ["pass"]
    # the same id over the socket is recognised too
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(w)) as white:
        json.loads(white.recv(5))
        for _ in range(2):
            white.send(
                json.dumps(
                    {
                        "type": "act",
                        "ref": 1,
                        "action": {"type": "move", "move": "E5", "action_id": "w-1"},
                    }
                )
            )
            while (m := json.loads(white.recv(5)))["type"] != "ack":
                pass
            assert m["version"] == 2
    assert len(_log(server.url, g)) == 2
    # a refused action is not remembered: the next one with a fresh id plays
    assert _post(server.url, g, b, type="move", move="E5", action_id="b-2").status_code == 409
    assert _post(server.url, g, b, type="move", move="D4", action_id="b-3").json()["version"] == 3
    assert _post(server.url, g, b, type="move", move="D4", action_id="x" * 65).status_code == 422


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_an_action_or_ruling_forwarded_and_retried_elsewhere_is_applied_once(
    backend: Backend, start_server: Any
) -> None:
    a: Server = start_server()
    b: Server = start_server()
    g = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()  # A owns it
    # through B (forwarded to A), then retried through A: one pass
    r1 = _post(b.url, g, g["black_token"], type="pass", action_id="p-1")
    r2 = _post(a.url, g, g["black_token"], type="pass", action_id="p-1")
    r3 = _post(b.url, g, g["black_token"], type="pass", action_id="p-1")
    assert [r.status_code for r in (r1, r2, r3)] == [200, 200, 200]
    assert {r.json()["version"] for r in (r1, r2, r3)} == {1}
    for url in (a.url, b.url):
        assert [x["type"] for x in _log(url, g)] == ["pass"]
    # an arbiter's ruling the same way: one warning (Go §24.1)
    warn = {"kind": "warning", "color": "white", "article": "Go §24", "action_id": "w-1"}
    answers = [_rule(b.url, g, **warn), _rule(a.url, g, **warn), _rule(b.url, g, **warn)]
    assert [r.status_code for r in answers] == [200, 200, 200]
    assert {r.json()["version"] for r in answers} == {2}
    for url in (a.url, b.url):
        assert [x.get("ruling", {}).get("kind") for x in _log(url, g)] == [None, "warning"]


def _rule(url: str, g: dict[str, Any], **ruling: Any) -> httpx.Response:
    return httpx.post(
        f"{url}/api/games/{g['id']}/rulings",
        json=ruling,
        headers={"Authorization": f"Bearer {g['arbiter_token']}"},
    )


def test_a_retried_ruling_is_applied_once(server: Server) -> None:
    # a warning (Go §24.1) sent again after a lost answer is one warning, not two (the second
    # would lose the game, Go §24.2); the same ruling with a new id is a new ruling
    g = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
    warn = {"kind": "warning", "color": "black", "article": "Go §24"}
    r1 = _rule(server.url, g, **warn, action_id="w-1")
    r2 = _rule(server.url, g, **warn, action_id="w-1")
    assert [r.status_code for r in (r1, r2)] == [200, 200]
    assert r1.json()["version"] == r2.json()["version"] == 1
    state = r2.json()["state"]
    assert state["referee"]["black"]["warnings"] == 1 and state["outcome"] is None
    r3 = _rule(server.url, g, **warn, action_id="w-2")
    assert r3.json()["state"]["outcome"] is not None  # the second warning loses (Go §24.2)
    assert _rule(server.url, g, **warn, action_id="").status_code == 422
