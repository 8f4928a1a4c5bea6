"""No secret in any log (issue 12): sockets authenticate without a query string, and a server at
its default log level prints no player token or arbiter key, whatever the clients do."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import Server, bearer, spectating
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def test_no_secret_in_the_log_at_the_default_level(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'd.sqlite3'}", None, log_level=None).start(tmp_path)
    try:
        g = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
        secrets = [g["black_token"], g["white_token"], g["arbiter_token"]]
        url = f"{server.ws_url}/api/games/{g['id']}/socket"
        with (
            connect(url, subprotocols=bearer(g["black_token"])) as black,
            connect(url, subprotocols=bearer(g["arbiter_token"])) as arbiter,
            connect(
                url,
                additional_headers={"Authorization": f"Bearer {g['white_token']}"},
                subprotocols=spectating(),
            ) as w,
        ):
            assert black.subprotocol == "duiyi"  # never the bearer one echoed back
            assert json.loads(black.recv(5))["seat"] == "black"
            assert json.loads(arbiter.recv(5))["seat"] is None
            assert json.loads(w.recv(5))["seat"] == "white"
            black.send(
                json.dumps({"type": "act", "ref": 1, "action": {"type": "move", "move": "E5"}})
            )
            while json.loads(black.recv(5))["type"] != "ack":
                pass
            arbiter.send(json.dumps({"type": "act", "ref": 2, "action": {"type": "pause"}}))
            while json.loads(arbiter.recv(5))["type"] != "ack":
                pass
        # an old client that still puts its token in the URL is refused (and not logged)
        with connect(f"{url}?token={g['white_token']}", subprotocols=spectating()) as legacy:
            err = json.loads(legacy.recv(5))
            assert err["type"] == "error" and err["problem"]["status"] == 422
            with pytest.raises(ConnectionClosed) as closed:
                legacy.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
        headers = {"Authorization": f"Bearer {g['arbiter_token']}"}
        r = httpx.post(
            f"{server.url}/api/games/{g['id']}/rulings",
            json={"kind": "warning", "color": "white", "article": "Go §24"},
            headers=headers,
        )
        assert r.status_code == 200, r.text
        httpx.get(f"{server.url}/api/games/{g['id']}?token={g['black_token']}")
        httpx.post(
            f"{server.url}/api/games/{g['id']}/actions",
            json={"type": "move", "move": "nowhere"},
            headers={"Authorization": f"Bearer {g['white_token']}"},
        )
    finally:
        server.stop()
    assert server.log is not None
    log = server.log.read_text()
    # the default level logs every request (the test could fail)
    assert "/socket" in log and "/rulings" in log and "token=***" in log
    for secret in secrets:
        assert secret not in log
