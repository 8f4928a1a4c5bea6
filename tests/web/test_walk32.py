"""Issue 32, a director's Go Swiss walked on a Chinese page ("nothing on the screen misleads"):
the arbiter's room and the player's page say a ruling with full-width brackets and colons and
the article as 围棋§ (what the record holds, Go §24, is what the article field sends); the
room's clocks say 秒 and a board the desk closed says so; the count shown after one side
accepted is the marking's (1/2), not "not accepted yet"; the desk's player links and the
public crosstable in Chinese words, the public standings saying which rounds they count.
Playwright in Debian's chromium against a real server, read by visible words.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, state
from tests.web.test_arbiter import rulings_of
from tests.web.test_browser import open_game
from tests.web.test_player import act

pytestmark = pytest.mark.browser

NAMES = ["李明", "王芳", "张伟", "刘洋"]
RANKS = ["3d", "2k", "1d", "5k"]
# ASCII brackets or a colon followed by a space: English punctuation on a Chinese page
ASCII = re.compile(r"[()]|: ")


def go_event(server: Server, *, start: bool = True) -> dict[str, Any]:
    """A 9×9 Go Swiss of four ranked players (ten minutes and three reserved minutes of
    byo-yomi, Go §22.7), round 1 paired and, with ``start``, its online games started."""
    online = {
        "size": 9,
        "time_control": {"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 3},
    }
    body = {"name": "春季围棋积分赛", "game": "go", "system": "swiss", "rounds": 3}
    r = httpx.post(server.url + "/api/events", json={**body, "online": online})
    assert r.status_code == 201, r.text
    ev: dict[str, Any] = r.json()
    ev["org"] = {"Authorization": f"Bearer {ev['organiser_token']}"}
    roster = [{"name": n, "rank": k} for n, k in zip(NAMES, RANKS, strict=True)]
    r = httpx.post(f"{server.url}/api/events/{ev['id']}/players", json=roster, headers=ev["org"])
    assert r.is_success, r.text
    r = httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=ev["org"])
    assert r.status_code == 200, r.text
    if start:
        r = httpx.post(f"{server.url}/api/events/{ev['id']}/rounds/1/games", headers=ev["org"])
        assert r.status_code == 201, r.text
        ev["games"] = sorted(r.json()["games"], key=lambda g: g["board"])
    return ev


def test_a_ruling_in_the_room_and_on_the_players_page_in_chinese(
    server: Server, context_factory: Any
) -> None:
    ev = go_event(server)
    g1 = ev["games"][0]
    act(server, g1["game_id"], g1["black_token"], {"type": "move", "move": "C3"})
    r = httpx.post(
        f"{server.url}/api/games/{g1['game_id']}/calls",
        json={"about": "time", "text": "对方的钟多走了一分钟"},
        headers={"Authorization": f"Bearer {g1['black_token']}"},
    )
    assert r.status_code == 201, r.text
    # board 2: the director enters its result at the desk (the online game is closed)
    r = httpx.put(
        f"{server.url}/api/events/{ev['id']}/rounds/1/boards/2/result",
        json={"result": "0-1"},
        headers=ev["org"],
    )
    assert r.status_code == 200, r.text
    player = open_game(context_factory(locale="zh-CN"), server, g1["game_id"], g1["white_token"])
    room = context_factory(locale="zh-CN", viewport={"width": 1024, "height": 768}).new_page()
    room.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    board1 = room.get_by_test_id("room-board-1")
    board1.wait_for()
    # Go §22.7: three periods of 60 seconds, said in Chinese (before "9:58 + 3×60s")
    clock = board1.locator("[data-clock='1-white']").inner_text()
    assert clock.endswith("+ 3×60秒"), clock
    # Go §24: a warning to White, answering Black's call
    board1.get_by_label("裁决种类").select_option(label="警告（第24条）")
    who = board1.get_by_label("棋手")
    options = who.locator("option").all_inner_texts()
    assert "王芳 2级（白方）" in options, options  # before "王芳 2级 (白方)"
    who.select_option(label="王芳 2级（白方）")
    article = board1.get_by_label("条款")
    assert article.input_value() == "围棋§24"  # before "Go §24" on a Chinese page
    calls = board1.get_by_label("答复的申诉").locator("option").all_inner_texts()
    assert "1. 李明 3段：计时钟 — “对方的钟多走了一分钟”" in calls, calls  # before "3段: "
    board1.get_by_label("答复的申诉").select_option(index=1)
    board1.get_by_label("备注").fill("多次敲击棋钟")
    board1.get_by_role("button", name="裁决…").click()
    words = board1.get_by_test_id("rule-words-1").inner_text()
    # before "… · 棋手: 王芳 2级 (白方) · Go §24 · …"
    assert "棋手：王芳 2级（白方） · 围棋§24" in words and not ASCII.search(words), words
    board1.get_by_role("button", name="确认裁决").click()
    line = board1.get_by_test_id("rulings-1").locator("li").first
    line.wait_for()
    said = line.inner_text()
    assert said == "警告 · 王芳 2级（白方） · 围棋§24 — 多次敲击棋钟", said
    # the record holds the server's article and the one warning the pages count
    (made,) = rulings_of(server, g1["game_id"])
    assert made["article"] == "Go §24" and made["color"] == "white", made
    assert state(server, g1["game_id"])["referee"]["white"]["warnings"] == 1
    # the player's page says the same ruling in the same words
    mine = player.get_by_text("警告 · 王芳 2级（白方） · 围棋§24 — 多次敲击棋钟").first
    mine.wait_for()
    assert "Go §" not in player.get_by_test_id("game-page").inner_text()
    # board 2 was closed by the desk: the room says so, not "对局中 · 0手", and offers no ruling
    board2 = room.get_by_test_id("room-status-2").inner_text()
    assert board2 == "编排台已录入本局结果：白胜（0-1）。本局结束。", board2
    assert room.get_by_test_id("room-board-2").get_by_label("裁决种类").count() == 0


def test_the_count_after_one_side_accepts_is_the_marking(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    # Black walls off columns A–E, White F–J: nothing dead, both pass (Go §7.3)
    moves = [p for i in range(1, 10) for p in (f"E{i}", f"F{i}")] + ["pass", "pass"]
    for i, point in enumerate(moves):
        token = g["black_token"] if i % 2 == 0 else g["white_token"]
        act(
            server,
            g["id"],
            token,
            {"type": "pass"} if point == "pass" else {"type": "move", "move": point},
        )
    page = open_game(context_factory(locale="zh-CN"), server, g["id"], g["white_token"])
    score = page.get_by_test_id("score")
    score.wait_for()
    assert score.inner_text() == "按自动判断数子（尚未同意）：黑方 45 · 白方 36 → 黑胜3/4子"
    # Go §21.4: a dispute is the claim that the opponent's group is dead (play resumes); the
    # hint says so (before "请点击有异议的棋块。", and a click on one's own group was refused)
    page.get_by_role("button", name="对棋块有异议").click()
    hint = page.get_by_test_id("dispute")
    assert hint.inner_text() == "请点击你认为已死的对方棋块（围棋§21.4）", hint.inner_text()
    hint.click()
    page.get_by_role("button", name="对棋块有异议").wait_for()
    act(server, g["id"], g["black_token"], {"type": "accept", "dead": []})
    page.get_by_text("已同意 1/2").wait_for()
    # before "按自动判断数子（尚未同意）: …" although Black had accepted
    text = score.inner_text()
    assert text == "按当前死活数子（已同意 1/2）：黑方 45 · 白方 36 → 黑胜3/4子", text
    page.get_by_role("button", name="同意数子结果").click()
    final = page.get_by_test_id("final-count")
    final.wait_for()
    # Go §9: the count shown before accepting is the one recorded
    st = state(server, g["id"])
    assert st["result_zh"] == "黑胜3/4子" and st["sgf_result"] == "B+1.5", st
    assert final.inner_text() == "数子：黑方 45 · 白方 36 · 贴子 3.75 → 黑胜3/4子", (
        final.inner_text()
    )


def test_the_desks_links_and_the_public_crosstable_in_chinese(
    server: Server, context_factory: Any
) -> None:
    ev = go_event(server, start=False)
    page = context_factory(locale="zh-CN").new_page()
    # the home page's 新建比赛: the name offered is Chinese (before "Club Swiss")
    page.goto(f"{server.url}/ui/#/")
    page.get_by_role("link", name="新建比赛").click()
    assert page.get_by_label("比赛名称").input_value() == "俱乐部积分赛"
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    page.get_by_role("button", name="开始网络对局").click()
    links = page.get_by_text(re.compile("^台次 1"))
    links.wait_for()
    said = links.inner_text()
    # before "台次 1: 黑方 李明 (1)复制链接 · …"
    assert said.startswith("台次 1：黑方 李明（1）"), said
    assert not ASCII.search(said), said
    # the rank's example in the page's words (the server takes 3段 as 3d)
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/players")
    assert page.get_by_test_id("add-rank").get_attribute("placeholder") == "3段"
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/settings")
    country = page.get_by_label("国家（两个字母，如 CN）")
    assert country.get_attribute("placeholder") == "CN"  # before "FR" beside "如 CN"
    # the public crosstable: a game without its result yet (before "2b?")
    public = context_factory(locale="zh-CN").new_page()
    public.goto(f"{server.url}/ui/#/event/{ev['id']}")
    public.get_by_text("●2 待定").wait_for()
    assert not re.search(r"\b\d[bw]\?", public.locator("main").inner_text())
    # the standings count no round yet, and say so (before: "成绩排名" over four 1st places)
    title = public.get_by_test_id("standings-title").inner_text()
    assert title == "名次（还没有一轮成绩全部录入）", title
    public.get_by_text("第 1 轮的成绩全部录入后才计入名次，此前对谁都不计。").wait_for()
    places = public.locator("[data-testid=standings] tbody tr td:first-child").all_inner_texts()
    assert places == ["1="] * 4, places  # Go §27.1(1)C: a shared place, as on the desk
