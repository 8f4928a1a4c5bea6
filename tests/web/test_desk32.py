"""The desk's and the tournament's side of issue 32, in Chinese, by the words on the page: a
knockout lot shown as a lot, a Gomoku event's fouls and hints, online violations in the ⚠ counts."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

pytestmark = pytest.mark.browser


def _knockout(server: Server, options: dict[str, Any]) -> tuple[str, str]:
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "抽签淘汰赛", "game": "gomoku", "system": "knockout", "options": options},
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    names = "姓名\n" + "".join(f"选手{i}\n" for i in range(1, 5))
    url = f"{server.url}/api/events/{ev['id']}"
    r = httpx.post(f"{url}/players", content=names, headers={**org, "Content-Type": "text/csv"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    return ev["id"], ev["organiser_token"]


def _enter(page: Any, board: int, result: str) -> None:
    page.wait_for_load_state("networkidle")
    page.get_by_label(f"结果 台次 {board}", exact=True).select_option(label=result)
    page.wait_for_load_state("networkidle")


def test_a_knockout_lot_is_shown_as_a_lot_with_its_whole_seed(
    server: Server, context_factory: Any
) -> None:
    # Gomoku §18.3(1)C 加赛快棋或抽签: the lot decides who goes through; the game was drawn.
    # Issue 32: the desk showed the lot as "白胜（0-1）" and its seed rounded (…918000).
    eid, key = _knockout(server, {"draw_replays": 0, "lines": "numbers"})
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{eid}/round?key={key}")
    _enter(page, 1, "和棋")
    page.get_by_role("alertdialog").get_by_role("button", name="抽签决定").click()
    done = page.get_by_test_id("ko-done")
    done.get_by_text(re.compile("抽签决定：.+晋级")).wait_for()
    board = httpx.get(f"{server.url}/api/events/{eid}/rounds/1").json()["games"][0]
    assert board["result"] == "draw"
    winner = board["black"] if board["lot"]["winner"] == "black" else board["white"]
    seed = board["lot"]["seed"]
    # no space before 晋级 (before: "抽签决定：选手1（1） 晋级。")
    assert done.inner_text() == f"抽签决定：选手{winner}（{winner}）晋级。", done.inner_text()
    assert isinstance(seed, str) and len(seed) > 15  # a 64-bit seed, whole
    # after a reload the board still says it: the lot, who goes through, the seed digit for digit
    page.reload()
    line = page.get_by_test_id("lot-1")
    line.get_by_text(re.compile(f"^抽签：选手{winner}（{winner}）胜出$")).wait_for()
    # no space inside the Chinese line (before: "抽签：选手1（1） 胜出 （对局仍为和棋…）")
    assert line.inner_text() == f"抽签：选手{winner}（{winner}）胜出（对局仍为和棋；种子 {seed}）"
    # the board's result is the draw, not a won game
    chosen = page.get_by_label("结果 台次 1", exact=True).evaluate(
        "s => s.options[s.selectedIndex].text"
    )
    assert chosen == "和棋"
    # the event's public page says it too
    page.goto(f"{server.url}/ui/#/event/{eid}")
    shown = page.get_by_test_id("shown-result-1-1")
    shown.get_by_text(re.compile(f"抽签：选手{winner}（{winner}）胜出")).wait_for()
    assert " 胜出" not in shown.inner_text(), shown.inner_text()


def test_a_gomoku_events_foul_policy_and_hints_are_its_settings(
    server: Server, context_factory: Any
) -> None:
    # Gomoku §10.1(2): Black's foul stands if White points it out at once (or the referee
    # rules it); Gomoku §12.2(7): no aid that may benefit a player. Issue 32: the event's foul
    # policy and hints were not settings on the form or the desk.
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/new-event")
    page.get_by_label("比赛名称").fill("禁手设置赛")
    page.get_by_label("棋类").select_option(label="五子棋")
    page.get_by_label("黑方禁手").select_option(label="裁判即时判定")
    page.get_by_label("向棋手显示禁手点").select_option(label="显示")
    page.get_by_role("button", name="创建").click()
    page.get_by_role("link", name="编排台", exact=True).click()
    m = re.search(r"#/desk/([^/?]+)", page.url)
    assert m, page.url
    eid = m.group(1)
    online = httpx.get(f"{server.url}/api/events/{eid}").json()["online"]
    assert (online["foul_policy"], online["hints"]) == ("auto", True)
    # the desk's settings show them, and change them
    page.get_by_role("navigation", name="编排台").get_by_role(
        "link", name="设置", exact=True
    ).click()
    summary = page.get_by_test_id("online-summary")
    summary.get_by_text(re.compile("裁判即时判定.*显示")).wait_for()
    fouls = page.get_by_label("黑方禁手")
    assert fouls.evaluate("s => s.options[s.selectedIndex].text") == "裁判即时判定"
    fouls.select_option(label="须由白方指出（五子棋§10.1(2)）")
    page.get_by_label("向棋手显示禁手点").select_option(
        label="不显示（不得使用对局获益的资料，五子棋§12.2(7)）"
    )
    page.get_by_role("button", name="保存").first.click()
    page.get_by_text("已保存。").wait_for()
    online = httpx.get(f"{server.url}/api/events/{eid}").json()["online"]
    assert (online["foul_policy"], online["hints"]) == ("claim", False)


def test_the_events_foul_policy_and_hints_reach_its_online_games(server: Server) -> None:
    # the settings stored with the event are those of its online games: White claims the foul
    # (Gomoku §10.1(2)) or it is ruled at once; the forbidden points shown or not (§12.2(7))
    for policy, hints in (("auto", True), ("claim", False)):
        ev = httpx.post(
            f"{server.url}/api/events",
            json={
                "name": "网络禁手",
                "game": "gomoku",
                "system": "swiss",
                "rounds": 1,
                "online": {"rules": "chinese_2013", "foul_policy": policy, "hints": hints},
            },
        ).json()
        org = {"Authorization": f"Bearer {ev['organiser_token']}"}
        url = f"{server.url}/api/events/{ev['id']}"
        names = {"Content-Type": "text/csv", **org}
        assert httpx.post(f"{url}/players", content="姓名\n甲\n乙\n", headers=names).is_success
        assert httpx.post(f"{url}/rounds", headers=org).is_success
        r = httpx.post(f"{url}/rounds/1/games", headers=org)
        assert r.status_code == 201, r.text
        game_id = r.json()["games"][0]["game_id"]
        st = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert st["rules"]["foul_policy"] == policy
        analysis = httpx.get(f"{server.url}/api/games/{game_id}/analysis").json()
        assert analysis.get("hints") is (None if hints else False)
    # a value the books do not know is refused when stored
    bad = httpx.post(
        f"{server.url}/api/events",
        json={"name": "x", "game": "gomoku", "system": "swiss", "online": {"hints": "yes"}},
    )
    assert bad.status_code in (409, 422)


def test_the_gomoku_desk_counts_the_online_games_violations(
    server: Server, context_factory: Any
) -> None:
    # Gomoku §12.3(4): the second violation (违例) in one game loses it; Gomoku has no warnings
    # (§12.3(2)). Issue 32: the desk's column read "结果与警告" and its ⚠ counted only what the
    # desk entered, not the violations the arbiter ruled in the online game.
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "违例计数", "game": "gomoku", "system": "swiss", "rounds": 1},
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    url = f"{server.url}/api/events/{ev['id']}"
    names = {"Content-Type": "text/csv", **org}
    assert httpx.post(f"{url}/players", content="姓名\n甲\n乙\n", headers=names).is_success
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    r = httpx.post(f"{url}/rounds/1/games", headers=org)
    assert r.status_code == 201, r.text
    game_id = r.json()["games"][0]["game_id"]
    ruled = httpx.post(
        f"{server.url}/api/games/{game_id}/rulings",
        json={"kind": "violation", "color": "black", "article": "Gomoku §12.3(4)"},
        headers={"Authorization": f"Bearer {ev['arbiter_token']}"},
    )
    assert ruled.status_code == 200, ruled.text
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    table = page.get_by_test_id("round-1")
    table.get_by_role("columnheader", name="结果与违例").wait_for()
    assert "结果与警告" not in table.inner_text()
    table.get_by_text("网上对局已判违例：黑方 1 次、白方 0 次（五子棋§12.3(4)）").wait_for()
    assert page.get_by_label("黑方 违例 台次 1").input_value() == "1"
    assert page.get_by_label("白方 违例 台次 1").input_value() == "0"
    # the director's result keeps the online violation on the board
    page.get_by_label("结果 台次 1", exact=True).select_option(label="白胜（0-1）")
    page.wait_for_load_state("networkidle")
    board = httpx.get(f"{url}/rounds/1").json()["games"][0]
    assert board["result"] == "0-1" and board["warnings"] == {"black": 1, "white": 0}


def test_the_desks_standings_after_a_late_entry(server: Server, context_factory: Any) -> None:
    # Go §27.1(1)C: the last ties go to the lot. Issue 32: after a late entry the standings
    # tab answered "no lot drawn for 5" until the lots were drawn again for everybody
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "晚到名次", "game": "go", "system": "swiss", "rounds": 3},
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    url = f"{server.url}/api/events/{ev['id']}"
    csv = {"Content-Type": "text/csv", **org}
    assert httpx.post(f"{url}/players", content="姓名\n甲\n乙\n丙\n丁\n", headers=csv).is_success
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    for board in (1, 2):
        # the losers stay at 0 with the late entrant: a tie only the lot settles
        r = httpx.put(f"{url}/rounds/1/boards/{board}/result", json={"result": "1-0"}, headers=org)
        assert r.is_success, r.text
    assert httpx.post(f"{url}/lots", json={}, headers=org).is_success
    assert httpx.post(f"{url}/players", content="姓名\n戊\n", headers=csv).is_success
    assert httpx.post(f"{url}/rounds", headers=org).is_success  # 戊 has the bye
    for board in (1, 2):
        r = httpx.put(f"{url}/rounds/2/boards/{board}/result", json={"result": "0-1"}, headers=org)
        assert r.is_success, r.text
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/standings?key={ev['organiser_token']}")
    table = page.get_by_test_id("standings")
    table.get_by_role("cell", name="戊", exact=True).wait_for()
    assert "no lot drawn" not in page.inner_text("body")
    assert len(table.locator("tbody tr").all()) == 5


def test_the_export_tab_names_the_boards_the_archive_lacks(
    server: Server, context_factory: Any
) -> None:
    # issue 32: a mixed event's desk-only boards were left out of the SGF archive silently
    ev = httpx.post(
        f"{server.url}/api/events",
        json={
            "name": "混合棋谱",
            "game": "go",
            "system": "swiss",
            "rounds": 2,
            "online": {"size": 9},
        },
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    url = f"{server.url}/api/events/{ev['id']}"
    csv = {"Content-Type": "text/csv", **org}
    assert httpx.post(f"{url}/players", content="姓名\n甲\n乙\n丙\n丁\n", headers=csv).is_success
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    r = httpx.put(f"{url}/rounds/1/boards/2/result", json={"result": "1-0"}, headers=org)
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds/1/games", headers=org).status_code == 201
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/export?key={ev['organiser_token']}")
    box = page.get_by_test_id("export-sgf-missing")
    box.get_by_text("棋谱未收录 1 个台次").wait_for()
    line = box.get_by_role("listitem").first.inner_text()
    assert "台次 2" in line and "丙" in line and "丁" in line, line
    assert "编排台录入成绩，未在网上对局：没有着手记录" in line
    assert page.get_by_role("link", name="棋谱（SGF，zip）").count() == 1
