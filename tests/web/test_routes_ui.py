"""The small server routes the browser UI needs (``duiyi.server.routes.ui``): who may name a
seat, call the arbiter, close a call or open the arbiter's room; what an unknown game answers.
No browser here: plain HTTP against a real server."""

from __future__ import annotations

import httpx
from tests.server.conftest import Server
from tests.web.conftest import new_game
from tests.web.test_demo_room import make_event


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_names_calls_and_the_room_ask_for_the_right_key(server: Server) -> None:
    g = new_game(server, game="go", size=9)
    url = f"{server.url}/api/games/{g['id']}"
    assert httpx.get(f"{server.url}/api/games/nope/info").status_code == 404
    # a player names its own seat only; the arbiter key (the creator) names both
    assert httpx.put(f"{url}/names", json={"name": "X"}).status_code == 401
    r = httpx.put(f"{url}/names", json={"name": "Bo"}, headers=bearer(g["white_token"]))
    assert r.json()["names"] == {"white": "Bo"}
    r = httpx.put(f"{url}/names", json={"black": "Al"}, headers=bearer(g["white_token"]))
    assert r.status_code == 403
    r = httpx.put(f"{url}/names", json={"black": "Al"}, headers=bearer(g["arbiter_token"]))
    assert r.json()["names"] == {"black": "Al", "white": "Bo"}
    assert (
        httpx.put(
            f"{url}/names", json={"name": "x" * 61}, headers=bearer(g["black_token"])
        ).status_code
        == 422
    )
    # calls: players only; three open at most; the arbiter closes them
    assert httpx.post(f"{url}/calls", json={"about": "foul"}).status_code == 401
    assert (
        httpx.post(
            f"{url}/calls", json={"about": "bribe"}, headers=bearer(g["black_token"])
        ).status_code
        == 422
    )
    for n in (1, 2, 3):
        made = httpx.post(
            f"{url}/calls", json={"about": "time"}, headers=bearer(g["black_token"])
        ).json()
        assert made["n"] == n and made["open"] and made["seat"] == "black"
    assert httpx.post(f"{url}/calls", json={}, headers=bearer(g["black_token"])).status_code == 409
    assert (
        httpx.post(f"{url}/calls/1/close", json={}, headers=bearer(g["white_token"])).status_code
        == 403
    )
    closed = httpx.post(
        f"{url}/calls/1/close", json={"ruling": "none needed"}, headers=bearer(g["arbiter_token"])
    )
    assert closed.json()["open"] is False
    assert (
        httpx.post(f"{url}/calls/9/close", json={}, headers=bearer(g["arbiter_token"])).status_code
        == 404
    )
    info = httpx.get(f"{url}/info").json()
    assert [c["open"] for c in info["calls"]] == [False, True, True]
    # a game that does not wait: "ready" changes nothing
    assert httpx.post(f"{url}/ready", headers=bearer(g["black_token"])).json()["waiting"] is False
    # the arbiter's room needs the event's arbiter key
    ev = make_event(server)
    room = f"{server.url}/api/events/{ev['id']}/room"
    assert httpx.get(room).status_code == 401
    assert httpx.get(room, headers=bearer(ev["organiser_token"])).status_code == 403
    boards = httpx.get(room, headers=bearer(ev["arbiter_token"])).json()["boards"]
    assert [b["board"] for b in boards] == [1, 2] and all(b["names"] for b in boards)
