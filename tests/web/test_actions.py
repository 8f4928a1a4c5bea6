"""What the page sends (issue 12): every action carries an ``action_id`` made once per user
action and sent again unchanged when the page retries (a lost answer, the server down and back),
so a retried move is applied once; and the Go §22.5 request for a pass on overtime has its
button. Playwright in Debian's chromium against a real server; what the page did is checked
through the public API.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, state, wait_for_js
from tests.web.test_browser import open_game, wait_version
from tests.web.test_player import act

pytestmark = pytest.mark.browser

ACTIONS = "**/api/games/*/actions"


def _log(server: Server, game_id: str) -> list[dict[str, Any]]:
    data = httpx.get(f"{server.url}/api/games/{game_id}/actions?after=0").json()
    actions: list[dict[str, Any]] = data["actions"]
    return actions


def _pipe(ws: Any, to_server: Any = None, to_page: Any = None) -> Any:
    """Connect a routed socket to the real server; ``to_server(message)`` and
    ``to_page(message)`` return False to drop a message."""
    server = ws.connect_to_server()
    ws.on_message(lambda m: server.send(m) if to_server is None or to_server(m) else None)
    server.on_message(lambda m: ws.send(m) if to_page is None or to_page(m) else None)
    return server


def _keeping(into: list[str]) -> Any:
    """A ``to_server`` that records every message and drops none."""

    def keep(message: str) -> bool:
        into.append(message)
        return True

    return keep


def _acts(messages: list[str]) -> list[dict[str, Any]]:
    decoded = [json.loads(m) for m in messages]
    return [m for m in decoded if m.get("type") == "act"]


def _wait_for(page: Any, done: Any) -> None:
    for _ in range(150):
        if done():
            return
        page.wait_for_timeout(100)
    raise AssertionError("timed out")


def test_a_move_whose_ack_was_lost_is_sent_again_after_a_4409(
    server: Server, context_factory: Any
) -> None:
    # the brief's failover: the move is applied, the ack never reaches the page, the socket is
    # closed with 4409 (reconnect); the page reconnects and sends the same action, same id
    g = new_game(server, game="go", size=9)
    page = context_factory().new_page()
    sent: list[str] = []
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        sockets.append(ws)
        first = len(sockets) == 1

        def to_page(m: str) -> bool:
            if first and json.loads(m).get("type") == "ack":
                ws.close(code=4409, reason="reconnect")  # the ack is lost with the socket
                return False
            return True

        _pipe(ws, _keeping(sent), to_page)

    page.route_web_socket("**/socket*", route)
    posted: list[dict[str, Any]] = []  # a retry before the socket is back goes over HTTP

    def record(r: Any) -> None:
        posted.append(r.request.post_data_json)
        r.continue_()

    page.route(ACTIONS, record)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.click("[data-point='E5']")
    _wait_for(page, lambda: len(_acts(sent)) + len(posted) >= 2)
    wait_version(page, 1)
    page.wait_for_selector("#banner.warn", state="detached")  # answered, reconnected
    tries = [a["action"] for a in _acts(sent)] + posted
    first = tries[0]
    assert first["type"] == "move" and first["move"] == "E5"
    assert isinstance(first["action_id"], str) and 1 <= len(first["action_id"]) <= 64
    assert all(t == first for t in tries)  # the same action, the same id, every time
    assert len(sockets) >= 2  # the page reconnected after the 4409
    assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "E5")]
    # the next user action is another action: a new id
    act(server, g["id"], g["white_token"], {"type": "move", "move": "D5"})
    wait_version(page, 2)
    page.click("[data-testid=pass]")
    wait_version(page, 3)
    last = [a["action"] for a in _acts(sent)][-1]
    assert last["type"] == "pass" and last["action_id"] != first["action_id"]
    assert [e["type"] for e in _log(server, g["id"])] == ["move", "move", "pass"]
    assert errors == []


def test_a_503_is_not_an_answer_the_action_is_sent_again(
    server: Server, context_factory: Any
) -> None:
    # a process that did not answer in time (503, e.g. during a failover) applied nothing
    g = new_game(server, game="go", size=9)
    page = context_factory().new_page()
    acts: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        def to_server(m: str) -> bool:
            msg = json.loads(m)
            if msg.get("type") != "act":
                return True
            acts.append(msg)
            if len(acts) > 1:
                return True
            busy = {"status": 503, "title": "Service unavailable", "detail": "try again"}
            ws.send(json.dumps({"type": "error", "ref": msg["ref"], "problem": busy}))
            return False

        _pipe(ws, to_server)

    page.route_web_socket("**/socket*", route)
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.click("[data-point='D4']")
    wait_version(page, 1)
    assert len(acts) == 2 and acts[0]["action"] == acts[1]["action"]
    assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "D4")]
    assert page.locator("#banner.error").count() == 0


def test_a_refused_action_is_not_retried(server: Server, context_factory: Any) -> None:
    # Go §2: an occupied point is refused (409); that is an answer, not a network error
    g = new_game(server, game="go", size=9)
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    page = context_factory().new_page()
    sent: list[str] = []
    page.route_web_socket("**/socket*", lambda ws: _pipe(ws, _keeping(sent)))
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['white_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.click("[data-point='E5']")
    page.wait_for_selector("#banner.error")
    page.wait_for_timeout(1000)
    assert len(_acts(sent)) == 1 and state(server, g["id"])["version"] == 1


def test_over_http_a_lost_answer_is_sent_again_with_the_same_id(
    server: Server, context_factory: Any
) -> None:
    # the socket is down (the page says so), so the move goes over HTTP; its answer is lost
    # after the server applied it: the page sends it again, same id, and it is applied once
    g = new_game(server, game="go", size=9)
    page = context_factory().new_page()
    cut: list[Any] = []

    def route(ws: Any) -> None:
        if cut:
            ws.close(code=4000, reason="cut")
        else:
            cut.append(None)
            _pipe(ws)
            cut.append(ws)

    page.route_web_socket("**/socket*", route)
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.wait_for_selector("[data-testid=pass]")
    cut[-1].close(code=4000, reason="cut")
    page.wait_for_selector("[data-testid=game-page][data-connected=no]")
    sent: list[dict[str, Any]] = []

    def lose_first_answer(route: Any) -> None:
        sent.append(route.request.post_data_json)
        if len(sent) == 1:
            route.fetch()  # the server applies the move...
            route.abort("connectionreset")  # ...and its answer never reaches the page
        else:
            route.continue_()

    page.route(ACTIONS, lose_first_answer)
    page.click("[data-point='E5']")
    wait_version(page, 1)  # from the HTTP answer of the retry: the socket stays down
    assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["move"] == "E5"
    assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "E5")]


def test_a_move_made_while_the_server_is_down_lands_once_when_it_is_back(
    tmp_path_factory: pytest.TempPathFactory, context_factory: Any
) -> None:
    tmp = tmp_path_factory.mktemp("retry")
    server = Server(f"sqlite:///{tmp / 'retry.sqlite3'}", None).start(tmp)
    try:
        g = new_game(server, game="go", size=9, time_control={"system": "absolute", "base": 600})
        page = context_factory().new_page()
        frames: list[str] = []
        page.route_web_socket("**/socket*", lambda ws: _pipe(ws, _keeping(frames)))
        sent: list[dict[str, Any]] = []

        def record(route: Any) -> None:
            sent.append(route.request.post_data_json)
            route.continue_()

        page.route(ACTIONS, record)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
        page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
        # the position's analysis is in (the moves shown): a tap before it would wait for it
        # and be sent once, after the restart
        page.wait_for_selector("[data-testid=pass]")
        server.kill9()
        page.wait_for_selector("[data-testid=game-page][data-connected=no]")
        page.click("[data-point='C3']")  # sent into the void: the page keeps it and retries
        wait_for_js(page, "() => (document.querySelector('#banner')||{}).className === 'warn'")
        page.wait_for_timeout(1000)
        server.start(tmp)
        page.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='1']")
        assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "C3")]
        # over HTTP while the server was down, then (maybe) over the socket once it was back
        tries = sent + [a["action"] for a in _acts(frames)]
        assert len(tries) >= 2 and len({t["action_id"] for t in tries}) == 1
        assert errors == []
    finally:
        server.stop()


def test_the_pass_on_overtime_is_asked_for_with_a_button(
    server: Server, context_factory: Any
) -> None:
    # Go §22.5 "经被读秒方申请，可改判弃权一次": Black asks in advance; Black's overrun of the last
    # period is then one pass without a warning, and play goes on.
    fast = {"system": "japanese-byoyomi", "base": 5, "periods": 1, "period": 2}
    g = new_game(server, game="go", size=9, time_control=fast, overrun_grace=30)
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    white = open_game(context_factory(locale="zh-CN"), server, g["id"], g["white_token"])
    button = page.locator("[data-testid=overtime-pass]")
    button.wait_for()
    assert "§22.5" in (button.get_attribute("title") or "")
    assert page.locator("#ot-pass-help").count() == 1  # described for screen readers
    button.click()
    page.wait_for_selector("[data-testid=overtime-pass-asked]")
    assert button.count() == 0
    log = _log(server, g["id"])
    assert [(e["type"], e["player"]) for e in log] == [("request_overtime_pass", "black")]
    # White never asked: White still has the button (in Chinese here)
    assert "虚着" in white.inner_text("[data-testid=overtime-pass]")
    # Black's 5 s and last period run out: a pass, no warning, no loss
    page.wait_for_selector("[data-testid=move-list] li", timeout=15_000)
    view = state(server, g["id"])
    assert view["moves"][:1] == [["black", None]] and view["outcome"] is None
    assert view["referee"]["black"]["warnings"] == 0
    # Gomoku has no such pass (Go §22.5 is a Go rule): no button
    renju = new_game(
        server, game="gomoku", rules="free", time_control={"system": "absolute", "base": 600}
    )
    other = open_game(context_factory(), server, renju["id"], renju["black_token"])
    other.wait_for_selector("[data-testid=resign]")
    assert other.locator("[data-testid=overtime-pass]").count() == 0
    assert page._duiyi_errors == [] and white._duiyi_errors == []
