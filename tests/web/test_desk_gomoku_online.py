"""A desk entry and its online game never drift apart (issue 20), seen from the players' pages
in Chinese: after the director enters a result the player's page shows it and its clock stops;
a knockout game drawn online is replayed with colours reversed (Go §27.3, Gomoku §18.3(1)C)
and the player's own link leads to the replay."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _event(server: Server) -> tuple[str, str, dict[int, dict[str, Any]]]:
    r = httpx.post(
        server.url + "/api/events",
        json={
            "name": "网络淘汰赛",
            "game": "gomoku",
            "system": "knockout",
            "options": {"lines": "numbers"},
            "online": {"rules": "free", "time_control": {"system": "absolute", "base": 900}},
        },
    ).json()
    eid, org = r["id"], r["organiser_token"]
    names = [{"name": n} for n in ["甲", "乙", "丙", "丁"]]
    httpx.post(f"{server.url}/api/events/{eid}/players", json=names, headers=_auth(org))
    httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=_auth(org))
    games = httpx.post(f"{server.url}/api/events/{eid}/rounds/1/games", headers=_auth(org))
    assert games.status_code == 201, games.text
    return eid, org, {g["board"]: g for g in games.json()["games"]}


def test_the_players_page_follows_the_desk_and_the_replay(
    server: Server, context_factory: Any
) -> None:
    eid, org, boards = _event(server)
    b1, b2 = boards[1], boards[2]
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/game/{b1['game_id']}?token={b1['black_token']}")
    page.get_by_role("button", name="认输").wait_for()
    # White's move starts Black's clock? Black moves first: play one stone so a clock runs
    httpx.post(
        f"{server.url}/api/games/{b1['game_id']}/actions",
        json={"type": "move", "point": "h8"},
        headers=_auth(b1["black_token"]),
    )
    # the director enters 1-0 at the desk: the page says so in Chinese and its clocks stop
    r = httpx.put(
        f"{server.url}/api/events/{eid}/rounds/1/boards/1/result",
        json={"result": "1-0"},
        headers=_auth(org),
    )
    assert r.status_code == 200, r.text
    page.get_by_text("编排台已录入本局结果：黑胜（1-0）").wait_for()
    clocks = page.locator("[data-testid=clock-white]")
    first = clocks.inner_text()
    time.sleep(1.5)
    assert clocks.inner_text() == first  # stopped
    assert page.get_by_role("button", name="认输").count() == 0
    assert "未到场" not in page.inner_text("body")
    screenshot(page, "game-zh-closed-by-desk")
    # board 2 is drawn by agreement online (Gomoku §10.3): the replay starts for the players
    act = f"{server.url}/api/games/{b2['game_id']}/actions"
    httpx.post(act, json={"type": "move", "point": "h8"}, headers=_auth(b2["black_token"]))
    httpx.post(act, json={"type": "offer_draw"}, headers=_auth(b2["black_token"]))
    httpx.post(act, json={"type": "accept_draw"}, headers=_auth(b2["white_token"]))
    other = context_factory(locale="zh-CN").new_page()
    other.goto(f"{server.url}/ui/#/game/{b2['game_id']}?token={b2['black_token']}")
    other.get_by_role("link", name="交换先后手加赛：进入加赛对局").click()
    # the same link seats the player again, now with White
    other.get_by_test_id("player-white").get_by_text("你").wait_for()
    assert b2["game_id"] not in other.url
    screenshot(other, "game-zh-knockout-replay")
    g = httpx.get(f"{server.url}/api/events/{eid}/rounds/1").json()["games"][1]
    assert g.get("result") is None and g.get("conflict") is None and g["replays"] == 1
