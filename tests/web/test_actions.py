"""What the page sends (issue 12): every action carries an ``action_id`` made once per user
action and sent again unchanged when the page retries (a lost answer, the server down and back),
so a retried move is applied once; and the Go §22.5 request for a pass on overtime has its
button. Playwright in Debian's chromium against a real server; what the page did is checked
through the public API.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, state
from tests.web.test_browser import open_game, wait_version
from tests.web.test_player import act

pytestmark = pytest.mark.browser

ACTIONS = "**/api/games/*/actions"


def _log(server: Server, game_id: str) -> list[dict[str, Any]]:
    data = httpx.get(f"{server.url}/api/games/{game_id}/actions?after=0").json()
    actions: list[dict[str, Any]] = data["actions"]
    return actions


def test_a_move_whose_answer_was_lost_is_sent_again_and_applied_once(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    page = open_game(context_factory(), server, g["id"], g["black_token"])
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
    wait_version(page, 1)  # the socket's update came; the page still waits for its answer
    for _ in range(100):
        if len(sent) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(sent) >= 2
    first = sent[0]
    assert first["type"] == "move" and first["move"] == "E5"
    assert isinstance(first["action_id"], str) and 1 <= len(first["action_id"]) <= 64
    assert all(s == first for s in sent)  # the same action, the same id, every time
    assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "E5")]
    page.wait_for_selector("#banner.warn", state="detached")  # "trying again" is gone
    # the next user action is another action: a new id
    act(server, g["id"], g["white_token"], {"type": "move", "move": "D5"})
    wait_version(page, 2)
    page.click("[data-testid=pass]")
    wait_version(page, 3)
    assert sent[-1]["type"] == "pass" and sent[-1]["action_id"] != first["action_id"]
    assert [e["type"] for e in _log(server, g["id"])] == ["move", "move", "pass"]
    assert page._duiyi_errors == []


def test_a_503_is_not_an_answer_the_action_is_sent_again(
    server: Server, context_factory: Any
) -> None:
    # a process that did not answer in time (503, e.g. during a failover) applied nothing
    g = new_game(server, game="go", size=9)
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    sent: list[dict[str, Any]] = []

    def busy_once(route: Any) -> None:
        sent.append(route.request.post_data_json)
        if len(sent) == 1:
            problem = '{"status": 503, "title": "Service unavailable", "detail": "try again"}'
            route.fulfill(status=503, body=problem, content_type="application/problem+json")
        else:
            route.continue_()

    page.route(ACTIONS, busy_once)
    page.click("[data-point='D4']")
    wait_version(page, 1)
    assert len(sent) == 2 and sent[0] == sent[1]
    assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "D4")]
    assert page.locator("#banner.error").count() == 0


def test_a_refused_action_is_not_retried(server: Server, context_factory: Any) -> None:
    # Go §2: an occupied point is refused (409); that is an answer, not a network error
    g = new_game(server, game="go", size=9)
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    page = open_game(context_factory(), server, g["id"], g["white_token"])
    sent: list[dict[str, Any]] = []
    page.route(
        ACTIONS, lambda route: (sent.append(route.request.post_data_json), route.continue_())
    )
    page.click("[data-point='E5']")
    page.wait_for_selector("#banner.error")
    time.sleep(1.0)
    assert len(sent) == 1 and state(server, g["id"])["version"] == 1


def test_a_move_made_while_the_server_is_down_lands_once_when_it_is_back(
    tmp_path_factory: pytest.TempPathFactory, context_factory: Any
) -> None:
    tmp = tmp_path_factory.mktemp("retry")
    server = Server(f"sqlite:///{tmp / 'retry.sqlite3'}", None).start(tmp)
    try:
        g = new_game(server, game="go", size=9, time_control={"system": "absolute", "base": 600})
        page = open_game(context_factory(), server, g["id"], g["black_token"])
        sent: list[dict[str, Any]] = []

        def record(route: Any) -> None:
            sent.append(route.request.post_data_json)
            route.continue_()

        page.route(ACTIONS, record)
        server.kill9()
        page.wait_for_selector("[data-testid=game-page][data-connected=no]")
        page.click("[data-point='C3']")  # sent into the void: the page keeps it and retries
        page.wait_for_function("() => (document.querySelector('#banner')||{}).className === 'warn'")
        time.sleep(1.0)
        server.start(tmp)
        page.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='1']")
        assert [(e["type"], e.get("point")) for e in _log(server, g["id"])] == [("move", "C3")]
        assert len(sent) >= 2 and len({s["action_id"] for s in sent}) == 1
        assert page._duiyi_errors == []
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
