"""Go §22.5 through the server: the pass on overtime asked for at the overrun or in advance."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from tests.server.conftest import Server, bearer
from tests.server.test_api import act, new_game
from websockets.sync.client import connect

FAST = {"system": "japanese-byoyomi", "base": 0, "periods": 1, "period": 2}


def _state(server: Server, game_id: str) -> dict[str, object]:
    state: dict[str, object] = httpx.get(f"{server.url}/api/games/{game_id}").json()
    return state


def _once(server: Server, game_id: str, done: Any, within: float = 20.0) -> dict[str, object]:
    """The game's state once ``done(state)`` holds: the server's timer rules an overrun a
    moment after it, later on a loaded machine (CI runs the whole suite on two cores)."""
    deadline = time.monotonic() + within
    state = _state(server, game_id)
    while not done(state) and time.monotonic() < deadline:
        time.sleep(0.1)
        state = _state(server, game_id)
    return state


def test_request_at_the_overrun_is_one_pass_without_a_warning(server: Server) -> None:
    # Go §22.5: Black overruns its last period (2 s) and asks before the loss is ruled: the
    # overrun is one pass, no warning, play goes on under the same byo-yomi.
    g = new_game(server, time_control=FAST, overrun_grace=30)
    time.sleep(2.5)
    r = act(server, g, g["black_token"], type="request_overtime_pass")
    assert r.status_code == 200, r.text
    state = _state(server, g["id"])
    assert state["outcome"] is None and state["moves"] == [["black", None]]
    assert state["to_move"] == "white"
    assert state["referee"] == {
        "black": {"warnings": 0, "violations": 0},
        "white": {"warnings": 0, "violations": 0},
    }
    assert act(server, g, g["white_token"], type="move", move="E5").status_code == 200


def test_standing_request_over_the_socket(server: Server) -> None:
    # Go §22.5: asked in advance (over the live socket), the overrun is a pass at once.
    g = new_game(server, time_control=FAST, overrun_grace=0)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["black_token"])) as black:
        json.loads(black.recv(5))  # hello
        black.send(
            json.dumps({"type": "act", "ref": 1, "action": {"type": "request_overtime_pass"}})
        )
        while json.loads(black.recv(5))["type"] != "ack":
            pass
    time.sleep(2.0)  # Black's period runs out
    state = _once(server, g["id"], lambda s: s["moves"] or s["outcome"])
    moves = state["moves"]
    assert isinstance(moves, list) and moves[:1] == [["black", None]]
    # White's own period (2 s from Black's pass) may run out by now: never a Black loss
    outcome = state["outcome"]
    assert outcome is None or (isinstance(outcome, dict) and outcome["winner"] == "black")


def test_without_a_request_the_overrun_loses(server: Server) -> None:
    # Go §22.5 "原则上应按判负裁决": no request within the grace, the game is lost on time.
    g = new_game(server, time_control=FAST, overrun_grace=0.5)
    time.sleep(2.5)  # Black's period and the grace run out
    state = _once(server, g["id"], lambda s: s["outcome"] or s["moves"])
    outcome = state["outcome"]
    assert isinstance(outcome, dict) and outcome["winner"] == "white"
    r = act(server, g, g["black_token"], type="request_overtime_pass")
    assert r.status_code >= 400


def test_the_analysis_says_who_may_still_ask(server: Server) -> None:
    # Go §22.5 "经被读秒方申请": under byo-yomi each player may ask (the page shows the button
    # from the analysis, the page knows no rules); once asked, that seat's overrun is a pass.
    g = new_game(
        server, time_control={"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 1}
    )

    def analysis() -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
        return data

    a = analysis()
    assert "request_overtime_pass" in a["allowed"]["black"]
    assert "request_overtime_pass" in a["allowed"]["white"]  # also out of turn, in advance
    assert a["overtime_pass"] == []
    assert act(server, g, g["black_token"], type="request_overtime_pass").status_code == 200
    a = analysis()
    assert "request_overtime_pass" not in a["allowed"]["black"]
    assert "request_overtime_pass" in a["allowed"]["white"]
    assert a["overtime_pass"] == ["black"]
    # granted to both by the event: nobody needs to ask
    both = new_game(server, time_control=FAST, overtime_pass=True)
    a = httpx.get(f"{server.url}/api/games/{both['id']}/analysis").json()
    assert a["overtime_pass"] == ["black", "white"]
    assert not any("request_overtime_pass" in acts for acts in a["allowed"].values())
    # no byo-yomi, no pass on overtime: nothing to ask for
    plain = new_game(server, time_control={"system": "absolute", "base": 600})
    a = httpx.get(f"{server.url}/api/games/{plain['id']}/analysis").json()
    assert "overtime_pass" not in a and a["allowed"]["black"] == ["move", "pass", "resign"]
