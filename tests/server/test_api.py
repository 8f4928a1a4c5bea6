"""The HTTP API and the live socket against a real server process (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from tests.server.conftest import Server, bearer, spectating
from websockets.sync.client import connect


def new_game(server: Server, **spec: Any) -> dict[str, Any]:
    # these tests expect the clock to start at creation; the start rules (issue 21) are
    # tested with an explicit "start"
    body = {"game": "go", "size": 9, "rules": "chinese", "start": "scheduled", **spec}
    r = httpx.post(server.url + "/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def act(server: Server, game: dict[str, Any], token: str, **action: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game['id']}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
    )


def test_health_and_openapi(server: Server) -> None:
    assert httpx.get(server.url + "/api/health").json()["status"] == "ok"
    paths = httpx.get(server.url + "/openapi.json").json()["paths"]
    assert "/api/games" in paths and "/api/games/{game_id}/actions" in paths


def test_play_a_go_game_to_the_count(server: Server) -> None:
    g = new_game(server, time_control={"system": "absolute", "base": 600})
    b, w = g["black_token"], g["white_token"]
    assert act(server, g, b, type="move", move="E5").json()["version"] == 1
    assert act(server, g, w, type="move", move="C3").json()["version"] == 2
    act(server, g, b, type="pass")
    r = act(server, g, w, type="pass")
    assert r.status_code == 200
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    # Go §7: two consecutive passes end play and open the counting phase
    assert state["phase"] == "counting"
    assert state["moves"] == [["black", "E5"], ["white", "C3"], ["black", None], ["white", None]]
    act(server, g, b, type="accept")
    act(server, g, w, type="accept")
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["phase"] == "finished"
    assert state["outcome"]["termination"] == "count"
    sgf = httpx.get(f"{server.url}/api/games/{g['id']}/sgf").text
    assert sgf.startswith("(;") and "B[ee]" in sgf


def test_bad_input_is_a_problem_and_changes_nothing(server: Server) -> None:
    g = new_game(server)
    b, w = g["black_token"], g["white_token"]
    act(server, g, b, type="move", move="E5")
    # Go §2: an occupied point; the problem names the reason and the article
    r = act(server, g, w, type="move", move="E5")
    assert r.status_code == 409
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["reason"] == "point is occupied"
    # out of turn: only the player to move may play (Go §2.3)
    assert act(server, g, b, type="move", move="D4").status_code == 409
    # no token, wrong token
    assert (
        httpx.post(f"{server.url}/api/games/{g['id']}/actions", json={"type": "pass"}).status_code
        == 401
    )
    assert act(server, g, "nonsense", type="pass").status_code == 403  # a key, not this game's
    # malformed JSON, unknown game, a coordinate off the board, oversized payload
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        content=b"{not json",
        headers={"Authorization": f"Bearer {w}", "content-type": "application/json"},
    )
    assert r.status_code == 422
    assert httpx.get(f"{server.url}/api/games/nope").status_code == 404
    # Z99 has the books' form (the schema allows it) and is on no board: the board refuses it
    # (409, issue 35); a point not in that form is malformed (422)
    assert act(server, g, w, type="move", move="Z99").status_code == 409
    assert act(server, g, w, type="move", move="Z999").status_code == 422
    big = {"type": "move", "move": "A1", "pad": "x" * 100_000}
    assert act(server, g, w, **big).status_code == 413
    # players may not send arbiter actions
    assert act(server, g, w, type="ruling", ruling={}).status_code == 403
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["version"] == 1 and state["moves"] == [["black", "E5"]]


def test_socket_play_and_resync(server: Server) -> None:
    g = new_game(server)
    b, w = g["black_token"], g["white_token"]
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with (
        connect(url, subprotocols=bearer(b)) as black,
        connect(url, subprotocols=bearer(w)) as white,
    ):
        hello = json.loads(black.recv(5))
        assert hello["type"] == "hello" and hello["seat"] == "black" and hello["version"] == 0
        json.loads(white.recv(5))
        black.send(json.dumps({"type": "act", "ref": 1, "action": {"type": "move", "move": "E5"}}))
        # the mover gets its ack (after the commit) and everybody gets the update
        got = [json.loads(black.recv(5)) for _ in range(2)]
        assert {m["type"] for m in got} == {"ack", "update"}
        update = json.loads(white.recv(5))
        assert update["type"] == "update" and update["version"] == 1
        assert update["state"]["stones"]["black"] == ["E5"]
        white.send(json.dumps({"type": "act", "action": {"type": "move", "move": "E5"}}))
        err = json.loads(white.recv(5))
        assert err["type"] == "error" and err["problem"]["status"] == 409
        white.send("{broken")
        assert json.loads(white.recv(5))["problem"]["status"] == 422
    # a client that reconnects with its last version receives exactly what it missed
    act(server, g, w, type="move", move="C3")
    act(server, g, b, type="move", move="G7")
    with connect(f"{url}?version=1", subprotocols=spectating()) as spectator:
        hello = json.loads(spectator.recv(5))
        assert hello["seat"] is None
        assert [a["point"] for a in hello["actions"]] == ["C3", "G7"]
        spectator.send(json.dumps({"type": "resync", "version": 2}))
        again = json.loads(spectator.recv(5))
        assert [a["point"] for a in again["actions"]] == ["G7"]
        # spectators read only
        spectator.send(json.dumps({"type": "act", "action": {"type": "pass"}}))
        assert json.loads(spectator.recv(5))["problem"]["status"] == 401


def test_flag_falls_with_nobody_sending_anything(server: Server) -> None:
    # Go §22 / DECISIONS (absolute time): time runs out, the game is lost; the server's timer
    # decides without any client message. The clocks start with Black's first move, made once
    # the spectator listens (a clock started with the game could run out before a loaded
    # machine had connected it).
    g = new_game(server, time_control={"system": "absolute", "base": 1}, start="first_move")
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=spectating()) as spectator:
        json.loads(spectator.recv(5))
        assert act(server, g, g["black_token"], type="move", move="E5").status_code == 200
        msg = json.loads(spectator.recv(5))
        assert msg["type"] == "update" and msg["state"]["outcome"] is None  # the move
        msg = json.loads(spectator.recv(5))
        assert msg["type"] == "update"
        assert msg["state"]["outcome"]["termination"] == "time"
        assert msg["state"]["outcome"]["winner"] == "black"
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["outcome"]["winner"] == "black"
    log = httpx.get(f"{server.url}/api/games/{g['id']}/actions").json()["actions"]
    assert [a["type"] for a in log] == ["move", "flag"]


def test_byoyomi_calls_are_pushed(server: Server) -> None:
    # Go §12.3: in the last period the arbiter counts the seconds; the server pushes each call
    # as an event while White thinks, with nobody sending anything.
    # The clocks start with Black's first move, made once the spectator listens (the first
    # call, a second after a clock started with the game, was missed by a slow connection).
    tc = {"system": "japanese-byoyomi", "base": 0, "periods": 1, "period": 10}
    g = new_game(server, time_control=tc, start="first_move")
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=spectating()) as spectator:
        json.loads(spectator.recv(5))
        assert act(server, g, g["black_token"], type="move", move="E5").status_code == 200
        assert json.loads(spectator.recv(5))["type"] == "update"  # the move
        calls = [json.loads(spectator.recv(5)) for _ in range(2)]
        assert [(c["type"], c["player"], c["zh"]) for c in calls] == [
            ("call", "white", "1"),
            ("call", "white", "2"),
        ]


def test_gomoku_game_over_the_api(server: Server) -> None:
    g = new_game(server, game="gomoku", rules="free")
    b, w = g["black_token"], g["white_token"]
    moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"]
    for i, m in enumerate(moves):
        r = act(server, g, b if i % 2 == 0 else w, type="move", move=m)
        assert r.status_code == 200, r.text
    r = act(server, g, b, type="move", move="h12")
    assert r.status_code == 200, r.text
    # Gomoku §10.1: five in a row wins
    outcome = r.json()["state"]["outcome"]
    assert outcome["winner"] == "black" and outcome["termination"] == "five"
    # the record in the Renju dialect of SGF (GM[4]), written by the game's own adapter
    sgf = httpx.get(f"{server.url}/api/games/{g['id']}/sgf")
    assert sgf.status_code == 200 and "GM[4]" in sgf.text and ";B[hh]" in sgf.text, sgf.text


def test_lateness_players_arrive_by_connecting(server: Server) -> None:
    # Go §22.1: late time is taken twice from the late player's own time; while Black is
    # still absent its own clock runs (the present White is not charged for it).
    created = time.monotonic()
    g = new_game(
        server,
        time_control={"system": "absolute", "base": 600},
        lateness={"limit": 60},
    )
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["absent"] == ["black", "white"]
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["white_token"])) as white:
        hello = json.loads(white.recv(5))
        assert hello["state"]["absent"] == ["black"]  # White sat down by connecting
    late = time.monotonic() - created  # at most (a loaded machine takes seconds)
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["absent"] == ["black"]
    assert state["clock_running"] == "black"
    charged = 600 - state["clocks"]["white"]["total"]
    assert 0 < charged <= 2 * late, (charged, late)  # twice the moment of lateness


def test_a_no_show_forfeits_past_the_limit(server: Server) -> None:
    # Gomoku §8.5: a player later than the event's limit loses by forfeit
    g = new_game(server, game="gomoku", rules="free", lateness={"limit": 1})
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["white_token"])) as white:
        deadline = time.monotonic() + 10
        while True:
            msg = json.loads(white.recv(10))
            if msg.get("state", {}).get("outcome"):
                break
            assert time.monotonic() < deadline
    assert msg["state"]["outcome"]["winner"] == "white"
    assert msg["state"]["outcome"]["termination"] == "forfeit"
