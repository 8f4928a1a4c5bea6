"""Events a director can trust (issue 10) over HTTP: an online game never overwrites the
director's result, a disagreeing result waits as a conflict, a change after the next round is
paired needs confirmation, and a finished game's result survives a kill -9."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server, bearer
from websockets.sync.client import connect

PLAYERS_CSV = "name,rank,rating,club\nAn,3d,2300,A\nBo,2d,2200,B\nCe,1d,2100,C\nDi,1k,2000,D\n"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _event_with_games(server: Server) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Go Swiss of four with round 1 paired and its online games started."""
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "Trust", "game": "go", "system": "swiss", "rounds": 3, "online": {"size": 9}},
    ).json()
    eid, org = ev["id"], ev["organiser_token"]
    r = httpx.post(
        f"{server.url}/api/events/{eid}/players",
        content=PLAYERS_CSV,
        headers={**_auth(org), "content-type": "text/csv"},
    )
    assert r.status_code == 200, r.text
    assert (
        httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=_auth(org)).status_code == 200
    )
    games = httpx.post(f"{server.url}/api/events/{eid}/rounds/1/games", headers=_auth(org))
    assert games.status_code == 201, games.text
    return ev, games.json()


def _put(server: Server, ev: dict[str, Any], rnd: int, board: int, **body: Any) -> httpx.Response:
    return httpx.put(
        f"{server.url}/api/events/{ev['id']}/rounds/{rnd}/boards/{board}/result",
        json=body,
        headers=_auth(ev["organiser_token"]),
    )


def _round(server: Server, ev: dict[str, Any], rnd: int) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/events/{ev['id']}/rounds/{rnd}").json()
    return data


def _standings(server: Server, ev: dict[str, Any]) -> list[tuple[str, str]]:
    st = httpx.get(f"{server.url}/api/events/{ev['id']}/standings").json()
    return [(row["name"], row["points"]) for row in st["standings"]]


def test_an_online_game_never_overwrites_the_directors_result(server: Server) -> None:
    # The failure of issue 10: the director enters 1-0 on board 2 with a warning (Go §24.1),
    # pairs round 2; then a player resigns the still-running online game of board 2.
    ev, games = _event_with_games(server)
    org = ev["organiser_token"]
    b2 = games["games"][1]
    r = _put(server, ev, 1, 2, result="1-0", white_warnings=1)
    assert r.status_code == 200, r.text
    assert r.json()["closed_games"] == [b2["game_id"]]
    # the answer carries the board with its record, not the whole round (issue 26)
    assert r.json()["round"] == 1 and r.json()["board"]["board"] == 2
    assert r.json()["board"]["source"] == "director"
    assert _put(server, ev, 1, 1, result="0-1").status_code == 200
    assert httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=_auth(org)).is_success
    before = _standings(server, ev)
    resign = httpx.post(
        f"{server.url}/api/games/{b2['game_id']}/actions",
        json={"type": "resign"},
        headers=_auth(b2["black_token"]),
    )
    # refused with a problem that names the director's entry
    assert resign.status_code == 409, resign.text
    assert "the director entered 1-0" in resign.json()["detail"]
    assert "round 1 board 2" in resign.json()["detail"]
    time.sleep(0.5)  # nothing may arrive later either
    board = _round(server, ev, 1)["games"][1]
    assert board["result"] == "1-0" and board["warnings"] == {"black": 0, "white": 1}
    assert "conflict" not in board
    assert _standings(server, ev) == before
    state = httpx.get(f"{server.url}/api/games/{b2['game_id']}").json()
    assert state["outcome"] is None and "the director entered 1-0" in state["closed"]
    # a correction now needs the director's confirmation, and says what it affects
    r = _put(server, ev, 1, 2, result="0-1")
    assert r.status_code == 409 and "force" in r.json()["detail"], r.text
    r = _put(server, ev, 1, 2, result="0-1", force=True)
    assert r.status_code == 200, r.text
    affected = r.json()["affected"]
    assert affected and {a["round"] for a in affected} == {2}
    players = {b2["black"], b2["white"]}
    assert all(players & {a["black"], a["white"]} for a in affected)
    trail = _round(server, ev, 1)["games"][1]["trail"]
    assert [t["value"]["result"] for t in trail] == ["1-0", "0-1"]
    assert trail[1]["previous"]["result"] == "1-0" and trail[1]["by"] == "organiser"


def test_a_disagreeing_online_result_waits_as_a_conflict(
    start_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the game ends online while its sheet is on its way; the director enters another result
    # meanwhile: the online result is kept as the board's conflict, never applied silently
    monkeypatch.setenv("DUIYI_RESULT_DELAY", "1.5")
    server: Server = start_server()
    ev, games = _event_with_games(server)
    b1 = games["games"][0]
    resign = httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/actions",
        json={"type": "resign"},
        headers=_auth(b1["black_token"]),
    )
    assert resign.status_code == 200, resign.text
    assert _put(server, ev, 1, 1, result="1-0").json()["status"] == "entered"
    deadline = time.monotonic() + 15
    while "conflict" not in (board := _round(server, ev, 1)["games"][0]):
        assert time.monotonic() < deadline, board
        time.sleep(0.1)
    assert board["result"] == "1-0"
    assert board["conflict"]["sheet"]["result"] == "0-1"
    listed = httpx.get(f"{server.url}/api/events/{ev['id']}/conflicts").json()["conflicts"]
    assert [(c["round"], c["board"]) for c in listed] == [(1, 1)]
    assert board["conflict"]["by"] == f"game {b1['game_id']}"
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/rounds/1/boards/1/conflict",
        json={"accept": True},
        headers=_auth(ev["organiser_token"]),
    )
    assert r.status_code == 200, r.text
    board = _round(server, ev, 1)["games"][0]
    assert board["result"] == "0-1" and "conflict" not in board
    assert "accepted" in board["trail"][-1]["note"]


def test_a_result_committed_before_a_crash_reaches_the_event(
    start_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Failure 3: the game's finishing action is acknowledged, the server dies before the
    # result enters the event (held back by DUIYI_RESULT_DELAY); after the restart it is there
    monkeypatch.setenv("DUIYI_RESULT_DELAY", "60")
    server: Server = start_server()
    ev, games = _event_with_games(server)
    b1 = games["games"][0]
    warned = httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/rulings",
        json={"kind": "warning", "color": "white", "article": "Go §24"},
        headers=_auth(ev["arbiter_token"]),
    )
    assert warned.status_code == 200, warned.text
    resign = httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/actions",
        json={"type": "resign"},
        headers=_auth(b1["black_token"]),
    )
    assert resign.status_code == 200, resign.text
    assert "result" not in _round(server, ev, 1)["games"][0]
    server.kill9()
    monkeypatch.delenv("DUIYI_RESULT_DELAY")
    server.proc = None
    assert server.log is not None
    restarted = Server(server.database, server.redis, port=server.port).start(server.log.parent)
    try:
        deadline = time.monotonic() + 15
        while "result" not in (board := _round(restarted, ev, 1)["games"][0]):
            assert time.monotonic() < deadline, board
            time.sleep(0.1)
        assert board["result"] == "0-1" and board["source"] == "online"
        assert board["warnings"] == {"black": 0, "white": 1}
    finally:
        restarted.stop()


def test_a_disciplinary_loss_after_the_result_reaches_the_standings(server: Server) -> None:
    # Failure 4, Gomoku §2.20(3): after the result is confirmed the chief arbiter gives the
    # winner a disciplinary loss: the board keeps its result for the opponent (a loss here),
    # the offender scores a loss too; the tournament reads it from the game's result sheet
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "Renju", "game": "gomoku", "system": "swiss", "rounds": 3,
              "online": {"rules": "free"}},
    ).json()  # fmt: skip
    org = ev["organiser_token"]
    url = f"{server.url}/api/events/{ev['id']}"
    httpx.post(
        f"{url}/players", content=PLAYERS_CSV, headers={**_auth(org), "content-type": "text/csv"}
    )
    httpx.post(f"{url}/rounds", headers=_auth(org))
    games = httpx.post(f"{url}/rounds/1/games", headers=_auth(org)).json()
    b1 = games["games"][0]
    resign = httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/actions",
        json={"type": "resign"},
        headers=_auth(b1["black_token"]),
    )
    assert resign.status_code == 200, resign.text
    ruling = httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/rulings",
        json={"kind": "disciplinary_loss", "color": "white", "decided": True},
        headers=_auth(ev["arbiter_token"]),
    )
    assert ruling.status_code == 200, ruling.text
    deadline = time.monotonic() + 10
    while "penalty" not in (board := _round(server, ev, 1)["games"][0]):
        assert time.monotonic() < deadline, board
        time.sleep(0.1)
    assert board["result"] == "0-1" and board["penalty"] == ["white"]
    assert board["source"] == "arbiter"
    assert _put(server, ev, 1, 2, result="draw").status_code == 200
    points = dict(_standings(server, ev))
    names = {1: "An", 2: "Bo", 3: "Ce", 4: "Di"}
    assert points[names[b1["black"]]] == "0" and points[names[b1["white"]]] == "0"


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_the_directors_entry_closes_a_game_hosted_by_another_process(
    backend: Backend, start_server: Any
) -> None:
    # two processes on PostgreSQL + Redis: the games live in process A, the director enters
    # board 1's result through process B; a player's action through A is then refused
    assert backend.redis is not None
    a: Server = start_server()
    b: Server = start_server()
    ev, games = _event_with_games(a)
    b1 = games["games"][0]
    r = _put(b, ev, 1, 1, result="1-0")
    assert r.status_code == 200 and r.json()["closed_games"] == [b1["game_id"]], r.text
    deadline = time.monotonic() + 5
    while True:
        move = httpx.post(
            f"{a.url}/api/games/{b1['game_id']}/actions",
            json={"type": "move", "move": "E5"},
            headers=_auth(b1["black_token"]),
        )
        if move.status_code == 409:
            break
        assert move.status_code == 200 and time.monotonic() < deadline, move.text
        time.sleep(0.1)
    assert "the director entered 1-0" in move.json()["detail"]


def test_players_connected_to_a_closed_game_are_told(server: Server) -> None:
    # the director's entry reaches the board's sockets at once, with the reason
    ev, games = _event_with_games(server)
    b1 = games["games"][0]
    url = f"{server.ws_url}/api/games/{b1['game_id']}/socket"
    with connect(url, subprotocols=bearer(b1["black_token"])) as black:
        assert json.loads(black.recv(5))["type"] == "hello"
        assert _put(server, ev, 1, 1, result="0-1").status_code == 200
        while (message := json.loads(black.recv(5)))["type"] != "closed-by-director":
            pass
        assert "the director entered 0-1" in message["reason"]
        assert message["state"]["closed"] == message["reason"]
