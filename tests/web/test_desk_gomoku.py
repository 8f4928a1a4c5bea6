"""A Chinese Gomoku director at the desk (issue 20), in Chinese, finding every control by its
words: an 8-player knockout whose drawn game is settled by the book (Go §27.3, Gomoku
§18.3(1)C: 加赛 with colours reversed, then 抽签), a team round robin of 4 teams × 3 boards
(Gomoku §18.3(2): match points, game points) and a 12-player Swiss with the 2013 designated
openings whose §18.4 tiebreaks are shown and explained; the prints in both languages."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser

KNOCKOUT = "\n".join(
    ["姓名,段位,单位", *(f"选手{i},{i}段,{'甲乙丙丁'[i % 4]}队" for i in range(1, 9))]
)
TEAMS = "\n".join(
    ["姓名,等级分,队伍"]
    + [
        f"{team}{board}号,{1800 - 10 * board},{team}队"
        for team in "东南西北"
        for board in (1, 2, 3)
    ]
)
SWISS = "\n".join(
    ["姓名,段位,等级分,单位"]
    + [
        f"棋手{i:02d},{(i % 5) + 1}段,{2100 - 20 * i},{'北京上海天津重庆'[i % 4 * 2 : i % 4 * 2 + 2]}"
        for i in range(1, 13)
    ]
)


def new_event(page: Any, server: Server, name: str, system: str, **kw: Any) -> None:
    """The new-event form, in Chinese: name, 五子棋, the system by its name, then the desk."""
    page.goto(f"{server.url}/ui/#/new-event")
    page.get_by_label("比赛名称").fill(name)
    page.get_by_label("棋类").select_option(label="五子棋")
    page.get_by_label("编排制度").select_option(label=system)
    if "rounds" in kw:
        page.get_by_label("轮数").fill(str(kw["rounds"]))
    if kw.get("team"):
        page.get_by_label("参赛方式").select_option(label="团体赛")
        page.get_by_label("每场台数").fill(str(kw["team"]))
    if "rules" in kw:
        page.get_by_label("规则").select_option(label=kw["rules"])
    # a Gomoku event is never offered Go §22.2's same-site lateness
    assert page.locator("option", has_text="同一驻地").count() == 0
    page.get_by_role("button", name="创建").click()
    page.get_by_role("link", name="编排台", exact=True).click()


def tab(page: Any, word: str) -> None:
    page.get_by_role("navigation", name="编排台").get_by_role("link", name=word, exact=True).click()
    # the tab is drawn once the desk has read the event: wait for it (never read the old page)
    page.get_by_role("navigation", name="编排台").get_by_role("link", name=word, exact=True).and_(
        page.locator("[aria-current=page]")
    ).wait_for()


def add_players(page: Any, table: str) -> None:
    tab(page, "棋手")
    page.get_by_role("textbox", name=re.compile("粘贴棋手")).fill(table)
    page.get_by_role("button", name="导入", exact=True).click()
    page.get_by_text(re.compile(r"已添加 \d+ 名棋手")).wait_for()  # entered: the desk says so


def pair(page: Any, n: int) -> None:
    tab(page, "轮次")
    page.get_by_role("button", name=f"编排第 {n} 轮").click()
    page.get_by_role("heading", name=f"第{n}轮", exact=True).wait_for()


def enter(page: Any, rnd: int, board: int, result: str) -> None:
    """Choose a result by its words and enter it (once the desk has drawn what it last got)."""
    page.wait_for_load_state("networkidle")
    # choosing the result enters it (the desk's 录入 button is for changed warnings)
    page.get_by_label(f"结果 台次 {board}", exact=True).select_option(label=result)
    page.wait_for_load_state("networkidle")


def entered(page: Any, rnd: int, board: int) -> None:
    page.locator(f"[data-testid=trail-{rnd}-{board}]").wait_for()


def board_players(server: Server, eid: str, rnd: int, board: int) -> tuple[int, int]:
    g = httpx.get(f"{server.url}/api/events/{eid}/rounds/{rnd}").json()["games"][board - 1]
    return g["black"], g["white"]


def event_id(page: Any) -> str:
    m = re.search(r"#/desk/([^/?]+)", page.url)
    assert m, page.url
    return m.group(1)


def test_a_knockout_draw_is_settled_by_the_book_from_the_desk(
    server: Server, context_factory: Any
) -> None:
    page = context_factory(locale="zh-CN").new_page()
    new_event(page, server, "八人淘汰赛", "单淘汰")
    add_players(page, KNOCKOUT)
    page.get_by_role("cell", name="选手8", exact=True).wait_for()
    eid = event_id(page)
    pair(page, 1)
    # Gomoku §14.1(6): round 1's lines are drawn by lot, and the desk says so in Chinese, citing
    # the Gomoku book (never Go's appendix 一.3)
    page.get_by_text("第1轮签位抽签决定（五子棋§14.1(6)）").wait_for()
    before = board_players(server, eid, 1, 1)
    # 和棋 on board 1: the desk asks how the book settles it
    enter(page, 1, 1, "和棋")
    dialog = page.get_by_role("alertdialog", name=re.compile("淘汰赛和棋"))
    dialog.get_by_text("淘汰赛须决出胜者").wait_for()
    # the question's heading ends in the full-width colon on a Chinese page (issue 32)
    heading = dialog.locator("#ko-q strong").inner_text()
    assert heading == "淘汰赛和棋：", heading
    screenshot(page, "desk-zh-knockout-draw")
    dialog.get_by_role("button", name="交换先后手加赛").click()
    page.get_by_text("交换先后手加赛（第 1 局加赛）").first.wait_for()
    assert board_players(server, eid, 1, 1) == (before[1], before[0])  # colours reversed
    # the replay is drawn too: this time the director draws lots
    enter(page, 1, 1, "和棋")
    page.get_by_role("alertdialog").get_by_role("button", name="抽签决定").click()
    page.get_by_text(re.compile("抽签决定：.+晋级")).wait_for()
    screenshot(page, "desk-zh-knockout-lot")
    rows = httpx.get(f"{server.url}/api/events/{eid}/rounds/1").json()["games"]
    assert rows[0]["result"] == "draw" and rows[0]["lot"] and rows[0]["replays"] == 1
    for board in (2, 3, 4):
        enter(page, 1, board, "黑胜（1-0）")
        entered(page, 1, board)
    for n, boards in ((2, 2), (3, 1)):
        pair(page, n)
        for board in range(1, boards + 1):
            enter(page, n, board, "白胜（0-1）")
            entered(page, n, board)
    tab(page, "名次")
    page.locator("[data-testid=standings]").wait_for()
    # the system is named in words, never its slug
    assert "(knockout)" not in page.inner_text("body")
    assert "单淘汰" in page.locator(".desk-head").inner_text()


def test_a_team_round_robin_of_four_teams_by_three_boards(
    server: Server, context_factory: Any
) -> None:
    page = context_factory(locale="zh-CN").new_page()
    new_event(page, server, "四队团体赛", "单循环", team=3)
    add_players(page, TEAMS)
    eid = event_id(page)
    # the 队伍 column made the teams (never the club): the teams tab lists them by board
    tab(page, "队伍")
    table = page.locator("[data-testid=teams]")
    table.get_by_text("东队").wait_for()
    assert "第1台 东1号" in table.inner_text()
    ev = httpx.get(f"{server.url}/api/events/{eid}").json()
    assert [t["name"] for t in ev["event"]["teams"]] == ["东队", "南队", "西队", "北队"]
    assert all(not p["club"] for p in ev["event"]["players"])
    screenshot(page, "desk-zh-teams")
    # Berger table over 4 teams: 3 rounds of 2 matches × 3 boards
    results = ["黑胜（1-0）", "白胜（0-1）", "和棋"]
    for n in (1, 2, 3):
        pair(page, n)
        for board in range(1, 7):
            enter(page, n, board, results[(n + board) % 3])
            entered(page, n, board)
    tab(page, "队伍")
    page.get_by_role("heading", name="团体名次").wait_for()
    st = httpx.get(f"{server.url}/api/events/{eid}/standings").json()
    # Gomoku §18.3(2): match points, then game points, then the team SB
    chain = [t["name"] for t in st["tiebreaks"]]
    assert st["teams"] is True and chain[:3] == ["points", "game-points", "team-sb"]
    text = page.locator("[data-testid=standings]").inner_text()
    assert "场分" in text and "局分" in text and "/" not in text  # decimals, never 15/2
    heads = page.locator("[data-testid=standings] th").all_inner_texts()
    assert heads[2] == "队伍" and "段位" not in heads and "单位" not in heads
    screenshot(page, "desk-zh-team-standings")


CITIES = "\n".join(
    ["姓名,等级分,队伍"]
    + [
        f"{name},{1900 - 10 * i},{team}"
        for i, (name, team) in enumerate(
            (n, t)
            for t, names in (
                ("北京队", "王一 李二 赵三"),
                ("上海队", "张二 陈四 周五"),
                ("杭州队", "孙六 吴七 郑八"),
                ("广州队", "冯九 卫十 蒋十一"),
            )
            for n in names.split()
        )
    ]
)


def test_drawing_the_numbers_keeps_every_team(server: Server, context_factory: Any) -> None:
    # Go appendix 五.2(1): round 1's lot numbers "全体棋手(或队)"; Gomoku §16.2(1) 分台定人制: the
    # teams and their board order are fixed at entry ("不得更改台次"): the lot never moves a player
    page = context_factory(locale="zh-CN").new_page()
    new_event(page, server, "城市团体赛", "单循环", team=3)
    add_players(page, CITIES)
    eid = event_id(page)
    page.get_by_role("button", name="抽签确定序号（第1轮）").click()
    page.get_by_text(re.compile(r"已为 4 支队伍抽签确定序号；12 名棋手留在本队")).first.wait_for()
    tab(page, "队伍")
    table = page.locator("[data-testid=teams]")
    table.get_by_text("北京队").wait_for()
    rows = {
        r.locator("td").nth(1).inner_text(): r.locator("td").nth(2).inner_text()
        for r in table.locator("tbody tr").all()
    }
    assert rows == {
        "北京队": "第1台 王一 · 第2台 李二 · 第3台 赵三",
        "上海队": "第1台 张二 · 第2台 陈四 · 第3台 周五",
        "杭州队": "第1台 孙六 · 第2台 吴七 · 第3台 郑八",
        "广州队": "第1台 冯九 · 第2台 卫十 · 第3台 蒋十一",
    }
    screenshot(page, "desk-zh-teams-after-lot")
    # round 1 pairs teams against teams: no two players of one team meet
    pair(page, 1)
    ev = httpx.get(f"{server.url}/api/events/{eid}").json()["event"]
    team_of = {m: t["name"] for t in ev["teams"] for m in t["members"]}
    games = httpx.get(f"{server.url}/api/events/{eid}/rounds/1").json()["games"]
    assert len(games) == 6
    assert all(team_of[g["black"]] != team_of[g["white"]] for g in games)


def test_a_gomoku_swiss_of_twelve_with_the_2013_openings_and_the_prints(
    server: Server, context_factory: Any
) -> None:
    page = context_factory(locale="zh-CN").new_page()
    new_event(
        page,
        server,
        "五子棋公开赛",
        "积分编排制（瑞士制）",
        rounds=5,
        rules="中国五子棋竞赛规则（2013年，指定开局）",  # one bracket, not "（2013）（指定开局）"
    )
    add_players(page, SWISS)
    page.get_by_role("cell", name="棋手12", exact=True).wait_for()
    eid = event_id(page)
    ev = httpx.get(f"{server.url}/api/events/{eid}").json()
    assert ev["online"]["rules"] == "chinese_2013"
    outcomes = [
        "黑胜（1-0）",
        "白胜（0-1）",
        "黑胜（1-0）",
        "和棋",
        "白胜（0-1）",
        "黑方弃权（白胜）",
    ]
    for n in range(1, 6):
        pair(page, n)
        if n == 1:  # Gomoku §2.14: a finished game is won or drawn; the menu has no 无胜负
            menu = page.get_by_test_id("result-1-1").locator("option").all_inner_texts()
            assert "和棋" in menu and not any("无胜负" in o or "无结果" in o for o in menu), menu
        if n == 2:  # the reasons of the pairing read in Chinese
            page.get_by_text(re.compile("积分组 .+：\\d+ 对 \\d+")).first.wait_for()
            screenshot(page, "desk-zh-swiss-round")
        for board in range(1, 7):
            enter(page, n, board, outcomes[(n + board) % 6])
            entered(page, n, board)
        if n == 2:
            page.get_by_role("button", name="打印对阵表（积分、单位）").click()
            sheet = page.locator("[data-testid=pairing-sheet]")
            sheet.wait_for()
            text = sheet.inner_text()
            assert "积分" in text and "单位" in text and "null" not in text
            screenshot(page, "print-zh-pairings")
            page.get_by_role("link", name="返回编排台").click()
            page.get_by_role("button", name="打印成绩记录单").click()
            slips = page.locator("[data-testid=result-slips]")
            slips.wait_for()
            first = slips.locator("section").first.inner_text()
            # a box for each result, 和 included, and signature lines (Gomoku §10.1(1)F, §12.5(3))
            for word in ("黑胜", "白胜", "和", "黑方签字", "白方签字", "裁判员签字"):
                assert word in first, word
            screenshot(page, "print-zh-slips")
            page.get_by_role("link", name="返回编排台").click()
    # §18.4(1): points, then average opponents' rating, Buchholz, median Buchholz, wins
    tab(page, "名次")
    page.locator("[data-testid=standings] th", has_text="对手平均等级分").wait_for()
    heads = page.locator("[data-testid=standings] th").all_inner_texts()
    at = heads.index("积分") + 1
    assert heads[at : at + 4] == ["对手平均等级分", "对手分", "中间对手分", "胜局"]
    body = page.locator("[data-testid=standings]").inner_text()
    assert not re.search(r"\d+/\d+", body)  # decimals, never 6725/3
    assert "5段" in body and "5d" not in body
    screenshot(page, "desk-zh-swiss-standings")
    # 成绩公告 with what each column means, and the crosstable in words
    tab(page, "导出与打印")
    page.get_by_role("button", name="成绩公告").click()
    legend = page.locator("[data-testid=print-legend]")
    legend.wait_for()
    assert "所遇对手的平均等级分（五子棋§18.4(1)A）" in legend.inner_text()
    cross = page.locator("[data-testid=print-crosstable]").inner_text()
    assert "胜" in cross and not re.search(r"\d+[bw][+-]", cross)
    screenshot(page, "print-zh-standings")
    # the same prints in English
    key = page.evaluate(f"sessionStorage.getItem('duiyi.event.key.{eid}')")
    en = context_factory(locale="en-US").new_page()
    en.goto(f"{server.url}/ui/#/desk/{eid}/round?key={key}")
    en.get_by_role("button", name="Print the result slips").click()
    en.locator("[data-testid=result-slips]").get_by_text("Black's signature").first.wait_for()
    assert "Draw" in en.locator("[data-testid=result-slips] section").first.inner_text()
    screenshot(en, "print-en-slips")
    en.goto(f"{server.url}/ui/#/desk/{eid}/export")
    en.get_by_role("button", name="Standings", exact=True).click()
    en.locator("[data-testid=print-legend]").get_by_text("Avg. opp. rating").wait_for()
    screenshot(en, "print-en-standings")


def test_a_knockout_draw_is_asked_after_a_reload_and_no_replay_past_the_book(
    server: Server, context_factory: Any
) -> None:
    # Gomoku §18.3(1)C: a drawn knockout game is replayed, then the lot decides; here the event
    # allows one replay: after it, the desk offers the lot only
    ev = httpx.post(
        f"{server.url}/api/events",
        json={
            "name": "一局加赛",
            "game": "gomoku",
            "system": "knockout",
            "options": {"draw_replays": 1, "lines": "numbers"},
        },
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    names = "姓名\n" + "".join(f"选手{i}\n" for i in range(1, 5))
    url = f"{server.url}/api/events/{ev['id']}"
    r = httpx.post(f"{url}/players", content=names, headers={**org, "Content-Type": "text/csv"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    enter(page, 1, 1, "和棋")
    dialog = page.get_by_role("alertdialog")
    dialog.get_by_text("淘汰赛须决出胜者").wait_for()
    # the question is still asked after a reload, until it is answered
    page.reload()
    dialog.get_by_text("淘汰赛须决出胜者").wait_for()
    dialog.get_by_role("button", name="交换先后手加赛").click()
    page.get_by_test_id("ko-replays").wait_for()
    enter(page, 1, 1, "和棋")
    dialog.get_by_text("本台已加赛 1 局仍和：现在抽签决定。").wait_for()
    assert dialog.get_by_role("button", name="交换先后手加赛").count() == 0
    dialog.get_by_role("button", name="抽签决定").click()
    page.get_by_text(re.compile("抽签决定：.+晋级")).wait_for()
