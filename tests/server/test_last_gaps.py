"""The server's last gaps (issue 35): the operator's metrics behind the operator's key, the
socket's subprotocol required, one validation layer that normalises what it accepts and refuses
the rest naming the field, and the statuses of a refusal as the API documents them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, bearer, operator, spectating
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("gaps")
    s = Server(f"sqlite:///{tmp / 'gaps.sqlite3'}", None).start(tmp)
    yield s
    s.stop()


def _game(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9, **spec})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


# -- 1. the operator's data stays the operator's ------------------------------------------------


def test_metrics_answer_only_the_operators_key(server: Server) -> None:
    anyone = httpx.get(server.url + "/api/metrics")
    assert anyone.status_code == 401, anyone.text
    assert anyone.headers["content-type"].startswith(PROBLEM)
    assert "process" not in anyone.json() and "operator" in anyone.json()["detail"]
    player = _game(server)["black_token"]
    other = httpx.get(server.url + "/api/metrics", headers={"Authorization": f"Bearer {player}"})
    assert other.status_code == 403, other.text
    assert "DUIYI_OPERATOR_KEY" in other.json()["detail"]
    mine = httpx.get(server.url + "/api/metrics", headers=operator())
    assert mine.status_code == 200, mine.text
    assert mine.json()["games_hosted"] >= 1


def test_without_an_operator_key_metrics_answer_nobody(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'n.sqlite3'}", None, env={"DUIYI_OPERATOR_KEY": ""})
    s.start(tmp_path)
    try:
        for guess in ("None", "null", "-"):
            r = httpx.get(s.url + "/api/metrics", headers={"Authorization": f"Bearer {guess}"})
            assert r.status_code == 403, r.text
    finally:
        s.stop()


# -- 3. the socket speaks its subprotocol or refuses ---------------------------------------------


def test_a_socket_without_the_duiyi_subprotocol_is_refused(server: Server) -> None:
    g = _game(server)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10)
    assert refused.value.response.status_code == 422
    assert b"'duiyi'" in refused.value.response.body
    with pytest.raises(InvalidStatus):  # a token alone is not the protocol either
        connect(url, subprotocols=bearer(g["black_token"])[1:], open_timeout=10)
    with connect(url, subprotocols=spectating()) as watcher:
        assert watcher.subprotocol == "duiyi"
    with connect(url, subprotocols=bearer(g["black_token"])) as black:
        assert black.subprotocol == "duiyi"


# -- 5. a key that came but does not allow this is a 403, not a 401 ----------------------------


def _key(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_key_that_does_not_allow_the_request_is_a_403(server: Server) -> None:
    g, other = _game(server), _game(server)
    base = f"{server.url}/api/games/{g['id']}"
    warning = {"kind": "warning", "color": "black", "article": "Go §24"}
    # another game's arbiter rules here; this game's arbiter asks for a player's rematch
    r = httpx.post(base + "/rulings", json=warning, headers=_key(other["arbiter_token"]))
    assert r.status_code == 403, r.text
    for method in ("POST", "DELETE"):
        r = httpx.request(method, base + "/rematch", headers=_key(g["arbiter_token"]))
        assert r.status_code == 403, (method, r.text)
        assert "player's token" in r.json()["detail"]
    r = httpx.post(base + "/calls", json={"about": "foul"}, headers=_key(g["arbiter_token"]))
    assert r.status_code == 403, r.text
    r = httpx.post(base + "/actions", json={"type": "pass"}, headers=_key(other["black_token"]))
    assert r.status_code == 403, r.text
    # without any key: 401, as before
    assert httpx.post(base + "/rematch").status_code == 401
    assert httpx.post(base + "/rulings", json=warning).status_code == 401
    # the arbiter's own ruling is made
    r = httpx.post(base + "/rulings", json=warning, headers=_key(g["arbiter_token"]))
    assert r.status_code == 200, r.text
