"""Issue 32, the pages' side ("nothing on the screen misleads"): the player's box against the
computer says "You · Black" once; the live list names the players ("1 move", "7 moves");
each call about the game is said in its own game's words; the public page of an unknown
event says there is none; a spectator's spoken calls start off; the desk's Chinese strings
(colour histories 黑0 白1, 组织者, 尚未编排, full-width colons, the wall chart's articles,
knockout matches in words). Playwright in Debian's chromium against a real server, read by
visible words.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game
from tests.web.test_browser import open_game
from tests.web.test_player import act, set_names

pytestmark = pytest.mark.browser


def engine_game(server: Server) -> dict[str, Any]:
    """A casual 9×9 Go game against GNU Go, the human at Black."""
    body = {"game": "go", "size": 9, "engine": "gnugo", "level": 1, "human": "black"}
    r = httpx.post(server.url + "/api/engine-games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def gnugo_label(server: Server) -> str:
    engines = httpx.get(server.url + "/api/engines").json()["engines"]
    go = [e for e in engines if e["game"] == "go"]
    assert go, "the test server offers GNU Go (conftest: --gnugo)"
    return str(go[0].get("label") or go[0]["name"])


@pytest.mark.parametrize(
    ("locale", "you", "black"), [("en-US", "You", "Black"), ("zh-CN", "你", "黑方")]
)
def test_the_players_box_says_you_once(
    server: Server, context_factory: Any, locale: str, you: str, black: str
) -> None:
    g = engine_game(server)
    page = context_factory(locale=locale).new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['token']}")
    box = page.get_by_test_id("name-black")
    box.wait_for()
    page.wait_for_selector("[data-testid=pass]")
    text = box.inner_text().strip()
    # before: "You · Black (you)": the name already says who sits there
    assert text == f"{you} · {black}", text
    assert gnugo_label(server) in page.get_by_test_id("name-white").inner_text()
    act(server, g["id"], g["token"], {"type": "resign"})  # the client's engine places back


def test_the_live_list_names_the_players_and_counts_moves_in_words(
    server: Server, context_factory: Any
) -> None:
    g = engine_game(server)  # nothing played yet: the engine waits for Black
    label = gnugo_label(server)
    # two games between named friends, one move and seven moves in
    one = new_game(server, game="go", size=9)
    set_names(server, one, "Lin Hai", "Zhou Yu")
    act(server, one["id"], one["black_token"], {"type": "move", "move": "E5"})
    seven = new_game(server, game="go", size=9)
    set_names(server, seven, "Wu Qing", "Ma Li")
    for i, p in enumerate(("C3", "G7", "C7", "G3", "E5", "E3", "E7")):
        token = seven["black_token" if i % 2 == 0 else "white_token"]
        act(server, seven["id"], token, {"type": "move", "move": p})
    cases = (("en-US", "1 move", "7 moves", "Black"), ("zh-CN", "1手", "7手", "黑方"))
    for locale, a_move, moves, black in cases:
        page = context_factory(locale=locale).new_page()
        page.goto(f"{server.url}/ui/#/")

        def row(game: dict[str, Any], page: Any = page) -> str:
            li = page.locator(f"[data-testid=live-games] li[data-game-id='{game['id']}']")
            li.wait_for()
            text: str = li.inner_text()
            return text

        # before: "Go 9×9 · 1 Moves"
        assert "Lin Hai – Zhou Yu" in row(one) and f" · {a_move}" in row(one), row(one)
        assert "Moves" not in row(one) and "1 moves" not in row(one), row(one)
        assert "Wu Qing – Ma Li" in row(seven) and f" · {moves}" in row(seven), row(seven)
        # the engine game: before "Go 9×9 · 0 Moves · engine" with no names; now the engine's
        # name at its seat, the human's seat by its colour (no name was given)
        assert f"{black} – {label}" in row(g), row(g)
    act(server, g["id"], g["token"], {"type": "resign"})


def test_each_call_is_said_in_its_own_games_words(server: Server, context_factory: Any) -> None:
    from tests.web.test_arbiter import make_event

    # a Go player's "About" list: no forbidden move (Go has none; Gomoku §2.19 has)
    go = new_game(server, game="go", size=9)
    page = open_game(context_factory(), server, go["id"], go["black_token"])
    page.get_by_role("button", name="Call the arbiter").click()
    about = page.get_by_test_id("call-about")
    options = about.locator("option").all_inner_texts()
    assert not any("forbidden" in o for o in options), options
    assert any(o.startswith("a foul") for o in options), options
    # a Gomoku player's: the forbidden move, and no count of dead stones (Gomoku has no count)
    gomoku = new_game(server, game="gomoku", rules="free")
    gpage = open_game(context_factory(), server, gomoku["id"], gomoku["black_token"])
    gpage.get_by_role("button", name="Call the arbiter").click()
    goptions = gpage.get_by_test_id("call-about").locator("option").all_inner_texts()
    assert any("forbidden move" in o for o in goptions), goptions
    assert not any("dead stones" in o for o in goptions), goptions
    # the arbiter's room of a Go event: the call's item in Go's words, on the list and in the
    # ruling form's "Answers the call"
    ev = make_event(server, "go", 2)
    g1 = ev["games"][0]
    act(server, g1["game_id"], g1["black_token"], {"type": "move", "move": "E5"})
    r = httpx.post(
        f"{server.url}/api/games/{g1['game_id']}/calls",
        json={"about": "foul", "text": "a stone moved"},
        headers={"Authorization": f"Bearer {g1['white_token']}"},
    )
    assert r.status_code == 201, r.text
    room = context_factory(viewport={"width": 1024, "height": 768}).new_page()
    room.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    item = room.get_by_text("a foul (stones moved, an illegal move)").first
    item.wait_for()
    assert "forbidden" not in room.locator("main").inner_text()


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "There is no event with the id nosuchevent"),
        ("zh-CN", "没有编号为 nosuchevent 的比赛"),
    ],
)
def test_an_unknown_events_page_says_there_is_none(
    server: Server, context_factory: Any, locale: str, words: str
) -> None:
    page = context_factory(locale=locale).new_page()
    page.goto(f"{server.url}/ui/#/event/nosuchevent")
    # before: "Loading…" for ever
    page.get_by_text(words).wait_for()
    page.wait_for_timeout(300)
    assert page.get_by_text("Loading…").count() == 0 and page.get_by_text("加载中").count() == 0


def test_a_spectators_spoken_calls_start_off(server: Server, context_factory: Any) -> None:
    # Go §22.7: the byo-yomi is called to the player; a phone in the hall stays quiet unless
    # its owner turns the calls on
    g = new_game(
        server,
        game="go",
        size=9,
        time_control={"system": "chinese-byoyomi", "base": 0, "reserved_minutes": 10},
    )
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    watcher = open_game(context_factory(**phone), server, g["id"])
    sound = watcher.get_by_test_id("sound")
    sound.wait_for()
    assert sound.get_attribute("aria-pressed") == "false", sound.inner_text()
    assert "off" in sound.inner_text()
    player = open_game(context_factory(), server, g["id"], g["black_token"])
    psound = player.get_by_test_id("sound")
    psound.wait_for()
    assert psound.get_attribute("aria-pressed") == "true"  # the player's, as before
    sound.click()
    assert watcher.get_by_test_id("sound").get_attribute("aria-pressed") == "true"


def _event(server: Server, game: str, system: str, players: int, rounds: int = 3) -> dict[str, Any]:
    r = httpx.post(
        server.url + "/api/events",
        json={"name": f"{game} {system}", "game": game, "system": system, "rounds": rounds},
    )
    assert r.status_code == 201, r.text
    ev: dict[str, Any] = r.json()
    ev["org"] = {"Authorization": f"Bearer {ev['organiser_token']}"}
    roster = [{"name": f"棋手{i}", "rank": "3d", "rating": 2400 - i * 10} for i in range(players)]
    r = httpx.post(f"{server.url}/api/events/{ev['id']}/players", json=roster, headers=ev["org"])
    assert r.is_success, r.text
    return ev


def _pair(server: Server, ev: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=ev["org"])
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _result(server: Server, ev: dict[str, Any], rnd: int, board: int, result: str) -> None:
    r = httpx.put(
        f"{server.url}/api/events/{ev['id']}/rounds/{rnd}/boards/{board}/result",
        json={"result": result},
        headers=ev["org"],
    )
    assert r.status_code == 200, r.text


def _desk(context_factory: Any, server: Server, ev: dict[str, Any], tab: str) -> Any:
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/{tab}?key={ev['organiser_token']}")
    page.get_by_test_id("desk").wait_for()
    return page


def test_the_desks_chinese_strings(server: Server, context_factory: Any) -> None:
    ev = _event(server, "gomoku", "swiss", 6)
    # no round paired yet: before "已编排第 0 轮（共 3 轮）"
    page = _desk(context_factory, server, ev, "players")
    page.get_by_text("尚未编排（共 3 轮）").wait_for()
    assert "已编排第 0 轮" not in page.locator("main").inner_text()
    _pair(server, ev)
    for board, result in ((1, "1-0"), (2, "1-0"), (3, "0-1")):
        _result(server, ev, 1, board, result)
    second = _pair(server, ev)
    assert any("(B0 W1)" in p["reason"] for p in second["pairings"]), second  # the server's
    page = _desk(context_factory, server, ev, "round")
    page.get_by_text("已编排第 2 轮（共 3 轮）").wait_for()
    main = page.locator("main")
    # round 1's trail: who entered the result in Chinese, a full-width colon
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?round=1")
    trail = page.get_by_test_id("trail-1-1")
    trail.wait_for()
    trail.locator("summary").click()
    line = trail.locator("li").first.inner_text()
    assert "编排台 · 组织者：" in line and "organiser" not in line, line
    assert trail.locator("summary").inner_text() == "修改记录（1）"  # before: "修改记录 (1)"
    # round 2's reasons: the colour histories in Chinese (before "B0 W1")
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?round=2")
    page.get_by_text("黑0 白1").first.wait_for()
    text = main.inner_text()
    assert not re.search(r"\bB\d+ W\d+\b", text), text
    # pairing by hand: a colour warning's history in Chinese (before "B2 W0 (BB)")
    board1 = second["pairings"][0]
    page.get_by_role("button", name="手工调整对阵").click()
    page.get_by_label("第 1 台黑方", exact=True).select_option(str(board1["white"]))
    page.get_by_label("第 1 台白方", exact=True).select_option(str(board1["black"]))
    page.get_by_role("button", name="检查并保存对阵").click()
    warning = page.locator("[data-testid=hand-warnings] li[data-kind=colour]").first
    warning.wait_for()
    said = warning.inner_text()
    assert "黑2 白0（黑黑）" in said and "先后手不平衡：" in said, said
    assert not re.search(r"\bB\d|\(BB\)", said), said
    page.get_by_role("button", name="继续修改").click()
    # the exports' buttons name their round in full-width brackets
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/export")
    page.get_by_role("button", name="打印对阵表（第2轮）").wait_for()
    page.get_by_role("button", name="打印台签（第2轮）").wait_for()
    # the settings' summary: a full-width colon
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/settings")
    summary = page.get_by_test_id("online-summary")
    summary.wait_for()
    assert "网络对局设置：" in summary.inner_text() and ": " not in summary.inner_text()
    # the wall chart's column titles cite 五子棋§, never "Gomoku §" (before: "Gomoku §18.4(1)A")
    chart = httpx.get(f"{server.url}/api/events/{ev['id']}/standings.html?lang=zh").text
    assert 'title="五子棋§18.4(1)A"' in chart and "Gomoku §" not in chart, chart[:2000]
    go = _event(server, "go", "swiss", 4)
    _pair(server, go)
    go_chart = httpx.get(f"{server.url}/api/events/{go['id']}/standings.html?lang=zh").text
    assert "围棋§" in go_chart and "Go §" not in go_chart


def test_a_seats_own_tag_in_chinese_has_full_width_brackets(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    set_names(server, g, "林海", "周瑜")
    page = open_game(context_factory(locale="zh-CN"), server, g["id"], g["white_token"])
    box = page.get_by_test_id("name-white")
    box.get_by_text("（你）").wait_for()
    assert box.inner_text().strip() == "周瑜 · 白方（你）", box.inner_text()


def test_a_finished_games_result_has_a_full_width_colon_on_a_chinese_page(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    act(server, g["id"], g["white_token"], {"type": "resign"})
    page = open_game(context_factory(locale="zh-CN"), server, g["id"])
    status = page.get_by_test_id("status")
    status.get_by_text("结果：").wait_for()
    assert "结果: " not in status.inner_text(), status.inner_text()


def test_knockout_matches_are_said_in_words_on_a_chinese_page(
    server: Server, context_factory: Any
) -> None:
    ev = _event(server, "gomoku", "knockout", 4, rounds=2)
    paired = _pair(server, ev)
    assert paired["pairings"][0]["reason"].startswith("R1.1")  # the bracket's id, as stored
    page = _desk(context_factory, server, ev, "round")
    page.get_by_text("第1轮第1场：上位线执黑").wait_for()
    text = page.locator("main").inner_text()
    # before: "R1.1：上位线执黑", "阶段 R1"
    assert not re.search(r"\bR\d", text), text
    public = context_factory(locale="zh-CN").new_page()
    public.goto(f"{server.url}/ui/#/event/{ev['id']}")
    public.get_by_test_id("event-page").wait_for()
    assert not re.search(r"\bR\d\.\d", public.locator("main").inner_text())


def test_the_chinese_room_says_the_fifth_move_phase_seconds_and_parentheses_in_chinese(
    server: Server, context_factory: Any
) -> None:
    # Issue 32: the room of a Gomoku event in Chinese read "五手打点：黑方提出{n}个点" (the
    # number never filled in), "3×60s", "周七 1段 (黑方)" and "（第12.3条）" where the book's
    # article is Gomoku §12.3(4).
    online = {
        "rules": "chinese_2013",
        "time_control": {"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 3},
    }
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "冬季赛", "game": "gomoku", "system": "swiss", "rounds": 1, "online": online},
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    url = f"{server.url}/api/events/{ev['id']}"
    players = "姓名,段位\n周七,1d\n张三,3d\n"
    r = httpx.post(f"{url}/players", content=players, headers={**org, "Content-Type": "text/csv"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    g = httpx.post(f"{url}/rounds/1/games", headers=org).json()["games"][0]
    opening = {"type": "open", "moves": ["h8", "h9", "h10"], "fifth_n": 2}
    act(server, g["game_id"], g["black_token"], opening)  # Gomoku §3.2: 寒星, N = 2
    act(server, g["game_id"], g["white_token"], {"type": "move", "move": "h6"})
    room = context_factory(locale="zh-CN", viewport={"width": 1024, "height": 768}).new_page()
    room.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    room.get_by_text("五手打点：黑方提出2个点").first.wait_for()
    room.get_by_test_id("rule-kind-1").wait_for()  # the ruling form, once its table is read
    text = room.locator("main").inner_text()
    assert "{n}" not in text and "×60秒" in text and "×60s" not in text, text
    assert "（黑方）" in text and " (黑方)" not in text, text
    assert "五子棋§12.3(4)" in text and "第12.3条" not in text, text
