"""Issue 32, the pages walked in Chinese as users do (home, a Go game between two friends to the
count, a Gomoku game with its opening, the arbiter's room at 1024×768): no English word, no space
after a full-width bracket, no rank cut in two. Playwright in Debian's chromium against a real
server, read by visible words.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game
from tests.web.test_arbiter import card, make_event
from tests.web.test_browser import open_game
from tests.web.test_player import act, set_names

pytestmark = pytest.mark.browser


def test_the_skip_link_and_the_navigation_speak_the_pages_language(
    server: Server, context_factory: Any
) -> None:
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/")
    page.get_by_test_id("new-game").wait_for()
    # before: "Skip to content · 跳到正文" and a navigation named "main" on a Chinese page
    assert page.locator("a.skip").text_content() == "跳到正文"
    assert page.get_by_role("navigation", name="主导航").is_visible()
    english = context_factory(locale="en-US").new_page()
    english.goto(f"{server.url}/ui/#/")
    english.get_by_test_id("new-game").wait_for()
    assert english.locator("a.skip").text_content() == "Skip to content"


def test_a_go_game_between_friends_reads_in_chinese_to_the_count(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    set_names(server, g, "林海", "周宇")
    page = open_game(context_factory(locale="zh-CN"), server, g["id"], g["black_token"])
    status = page.get_by_test_id("status")
    # who is to move, without a space after the bracket (before: "林海（黑方） 行棋")
    status.get_by_text("林海（黑方）行棋").wait_for()
    # Go §9 (area counting): Black takes column E, White column F, both pass
    for r in range(1, 10):
        act(server, g["id"], g["black_token"], {"type": "move", "move": f"E{r}"})
        act(server, g["id"], g["white_token"], {"type": "move", "move": f"F{r}"})
    act(server, g["id"], g["black_token"], {"type": "pass"})
    act(server, g["id"], g["white_token"], {"type": "pass"})
    page.wait_for_selector("[data-testid=game-page][data-version='20']")
    moves = page.get_by_test_id("move-list").inner_text()
    # a pass in the move list in the page's words (before: "19. pass")
    assert "19. 虚着" in moves and "pass" not in moves, moves
    for token in (g["black_token"], g["white_token"]):
        act(server, g["id"], token, {"type": "accept"})
    status.get_by_text("林海（黑方）胜（数子）").wait_for()
    assert "） 胜" not in status.inner_text(), status.inner_text()
    assert "黑胜3/4子" in status.inner_text(), status.inner_text()
    # the home page's finished game says the same margin (before: "B+1.5" beside the game
    # page's 黑胜3/4子)
    page.goto(f"{server.url}/ui/#/")
    row = page.locator(f"[data-testid=finished-games] li[data-game-id='{g['id']}']")
    row.wait_for()
    assert "林海 · 数子 · 黑胜3/4子" in row.inner_text() and "B+" not in row.inner_text(), (
        row.inner_text()
    )


@pytest.mark.parametrize(
    ("locale", "first", "submit"),
    [("zh-CN", "D1 寒星", "摆出开局"), ("en-US", "D1 寒星 (Kansei)", None)],
)
def test_a_gomoku_opening_is_named_in_the_pages_language(
    server: Server, context_factory: Any, locale: str, first: str, submit: str | None
) -> None:
    g = new_game(server, game="gomoku", rules="chinese_2013")
    page = open_game(context_factory(locale=locale), server, g["id"], g["black_token"])
    options = page.get_by_test_id("opening-select").locator("option").all_inner_texts()
    # Gomoku §3.2 names the 26 openings in Chinese: a Chinese page showed the Japanese beside
    # them ("D1 寒星 Kansei")
    assert options[1] == first, options[:3]
    if submit is None:
        return
    assert not any("getsu" in o or "sei" in o for o in options), options
    page.get_by_test_id("opening-select").select_option(index=4)
    page.get_by_role("button", name=submit).click()
    white = open_game(context_factory(locale=locale), server, g["id"], g["white_token"])
    line = white.get_by_test_id("opening-line")
    line.wait_for()
    assert line.inner_text() == "开局：D4 花月 · 五手1打", line.inner_text()


def test_the_gomoku_rules_name_has_one_bracket(server: Server, context_factory: Any) -> None:
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/")
    page.select_option("[data-testid=new-kind]", "gomoku")
    rules = page.get_by_test_id("new-rules").locator("option").all_inner_texts()
    # before: "中国五子棋竞赛规则（2013）（指定开局）", two brackets one after the other
    assert "中国五子棋竞赛规则（2013年，指定开局）" in rules, rules
    assert not any("）（" in r for r in rules), rules


# whether a rank ("5段") lies on one line: the range over its characters has one box
RANK_WHOLE = r"""e => {
  const out = [];
  const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/\d+段/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      out.push([m[0], new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size]);
    }
  }
  return out;
}"""


def test_a_rank_is_never_cut_in_two_in_the_room_on_a_tablet(
    server: Server, context_factory: Any
) -> None:
    names = ["Yu Zhiying", "Fan Tingyu", "Ouyang Mingzhe", "Lian Xiao", "Chen Yaoye", "Mi Yuting"]
    go = make_event(server, "go", 6, size=19, names=names, rank="5d")
    tablet = context_factory(locale="zh-CN", viewport={"width": 1024, "height": 768}).new_page()
    tablet.goto(f"{server.url}/ui/#/room/{go['id']}?arbiter={go['arbiter_token']}")
    card(tablet, 3).locator(".seat-line").first.get_by_text("5段").wait_for()
    seen = []
    for board in (1, 2, 3):
        for line in card(tablet, board).locator(".seat-line > span:first-child").all():
            seen += line.evaluate(RANK_WHOLE)
    # before: "Yu Zhiying 5" on one line and "段" on the next
    assert len(seen) == 6 and all(lines == 1 for _rank, lines in seen), seen


def test_an_events_round_and_players_are_said_in_words(
    server: Server, context_factory: Any
) -> None:
    go = make_event(server, "go", 4)  # 3 rounds, round 1 paired and online
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/")
    row = page.get_by_test_id("events").locator(
        "li", has=page.locator(f"a[href='#/event/{go['id']}']")
    )
    row.wait_for()
    # before: "围棋 · 积分编排制（瑞士制） · 1/3 · 4 编排台": two bare numbers
    assert "第 1 轮（共 3 轮） · 4 名棋手 · 编排台" in row.inner_text(), row.inner_text()
    page.goto(f"{server.url}/ui/#/event/{go['id']}")
    meta = page.locator("p.meta").first
    meta.get_by_text("第 1 轮（共 3 轮）", exact=False).wait_for()
    assert "1/3" not in meta.inner_text(), meta.inner_text()


@pytest.mark.parametrize(("game", "egd"), [("go", True), ("gomoku", False)])
def test_the_events_days_and_place_name_the_egd_file_for_go_only(
    server: Server, context_factory: Any, game: str, egd: bool
) -> None:
    ev = make_event(server, game, 2)
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/settings?key={ev['organiser_token']}")
    help_ = page.get_by_test_id("about-help")
    help_.wait_for()
    # the EGD file is a Go file (the Gomoku export offers none): before, a Gomoku desk said
    # "写入 EGD 成绩文件（DT、PC）"
    assert ("EGD" in help_.inner_text()) is egd, help_.inner_text()
    assert "OpenGotha" in help_.inner_text()


def test_the_desks_file_picker_speaks_the_pages_language(
    server: Server, context_factory: Any
) -> None:
    ev = make_event(server, "go", 2)
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/players?key={ev['organiser_token']}")
    pick = page.get_by_test_id("file-pick")
    pick.wait_for()
    # before: the browser's "Choose File · No file chosen" beside the Chinese form
    assert pick.inner_text().startswith("或选择文件（CSV"), pick.inner_text()
    assert page.get_by_test_id("file-chosen").inner_text() == "未选择文件"
    page.get_by_label("或选择文件", exact=False).set_input_files(
        files=[{"name": "名单.csv", "mimeType": "text/csv", "buffer": "姓名\n甲\n".encode()}]
    )
    page.get_by_test_id("file-chosen").get_by_text("名单.csv").wait_for()
