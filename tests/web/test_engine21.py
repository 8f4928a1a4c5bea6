"""Issue 21, playing the computer, in the browser against real GNU Go (the server's
``--gnugo`` entry): a takeback by agreement, a rematch with the colours swapped, and the count
where GNU Go's dead stones stand beside duiyi's proposal, each found on the page by its words.
Playwright in Debian's chromium against a real server."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, online_event_game
from tests.server.test_engine_casual import engine_game, wait_for
from tests.web.conftest import new_game, screenshot, state, wait_for_js
from tests.web.test_player import act

from duiyi.server.engines.driver import gnugo_command

pytestmark = [
    pytest.mark.browser,
    pytest.mark.gnugo,
    pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # GNU Go offered (--gnugo); a few engine games at once from this test's one address
    tmp = tmp_path_factory.mktemp("web-engine")
    env = {"DUIYI_MAX_ENGINE_GAMES_PER_CLIENT": "6"}
    s = Server(f"sqlite:///{tmp / 'duiyi.sqlite3'}", None, extra=("--gnugo",), env=env)
    s.start(tmp)
    yield s
    s.stop()


def test_a_takeback_the_engine_agrees_to_and_a_friend_is_asked(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "no takeback" against the computer; build "takeback by agreement in casual
    # games (the engine agrees)"
    g = engine_game(server, time_control={"system": "absolute", "base": 900})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['token']}")
    page.wait_for_selector("[data-testid=pass]")
    page.click("[data-point='E5']")
    page.wait_for_selector("[data-stone][data-color=white]", timeout=30_000)
    page.get_by_role("button", name="Take back my last move").click()
    # GNU Go agrees at once: both stones leave the board, Black (the human) to move again
    page.wait_for_selector("[data-testid=move-counter]:has-text('0/0')")
    assert page.locator("[data-stone]").count() == 0
    assert "You (Black) to move" in page.get_by_test_id("status").inner_text()
    s = state(server, g["id"])
    assert s["moves"] == [] and s["clock_running"] == "black" and s["takeback"] is None
    # the game goes on from there: GNU Go answers a new move
    page.click("[data-point='C3']")
    page.wait_for_selector("[data-stone][data-color=white]", timeout=30_000)
    assert state(server, g["id"])["moves"][0] == ["black", "C3"]
    act(server, g["id"], g["token"], {"type": "resign"})

    # between two friends the opponent is asked, in words, and answers with a button
    f = new_game(server, game="go", size=9)
    act(server, f["id"], f["black_token"], {"type": "move", "move": "E5"})
    act(server, f["id"], f["white_token"], {"type": "move", "move": "D5"})
    black = context_factory().new_page()
    black.goto(f"{server.url}/ui/#/game/{f['id']}?token={f['black_token']}")
    white = context_factory().new_page()
    white.goto(f"{server.url}/ui/#/game/{f['id']}?token={f['white_token']}")
    black.get_by_role("button", name="Take back my last move").click()
    black.get_by_test_id("takeback-asked").get_by_text("waiting for White").wait_for()
    white.get_by_text("Black asks to take back their last move").wait_for()
    screenshot(white, "takeback-asked")
    white.get_by_role("button", name="Refuse").click()
    black.wait_for_selector("[data-testid=takeback-asked]", state="detached")
    # White's page has dropped the answered question before Black asks again (else a loaded
    # machine lets "Agree" be clicked on the old question, which is refused as answered)
    white.get_by_text("Black asks to take back their last move").wait_for(state="detached")
    assert len(state(server, f["id"])["moves"]) == 2
    black.get_by_role("button", name="Take back my last move").click()
    white.get_by_text("Black asks to take back their last move").wait_for()
    white.get_by_role("button", name="Agree").click()
    black.wait_for_selector("[data-testid=move-counter]:has-text('0/0')")


def test_no_takeback_in_an_event_game_nor_after_the_end(
    server: Server, context_factory: Any
) -> None:
    # issue 21: nothing decided is undone; an event's game is played as it stands
    f = new_game(server, game="go", size=9)
    act(server, f["id"], f["black_token"], {"type": "move", "move": "E5"})
    act(server, f["id"], f["white_token"], {"type": "resign"})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{f['id']}?token={f['black_token']}")
    page.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    assert page.get_by_role("button", name="Take back my last move").count() == 0
    eg = online_event_game(server.url)
    act(server, eg["game_id"], eg["black_token"], {"type": "move", "move": "E5"})
    page.goto(f"{server.url}/ui/#/game/{eg['game_id']}?token={eg['black_token']}")
    page.wait_for_selector("[data-testid=game-page][data-version='1'][data-connected=yes]")
    page.wait_for_selector("[data-testid=resign]")
    assert page.get_by_role("button", name="Take back my last move").count() == 0


def test_a_rematch_with_the_colours_swapped(server: Server, context_factory: Any) -> None:
    # issue 21: "rematch with colours swapped": one button after the game ends, the same
    # engine, level and rules, the player seated at the other colour
    # the game made on the home page: GNU Go at level 2 (the strength offered, issue 21),
    # 13×13, Japanese rules
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.get_by_text("Play against the computer").click()
    box = page.get_by_test_id("engine-box")
    box.get_by_label("Level").select_option("2")
    box.get_by_label("Board size").select_option("13")
    box.get_by_label("Rules").select_option(label="Japanese")
    page.click("[data-testid=play-engine]")
    page.wait_for_selector("[data-testid=pass]")
    g = {"id": page.evaluate("location.hash").split("/game/")[1].split("?")[0]}
    assert state(server, g["id"])["size"] == 13
    # the level is applied: GNU Go runs with --level 2
    page.click("[data-point='G7']")
    page.wait_for_selector("[data-stone][data-color=white]", timeout=30_000)
    assert [a[a.index("--level") + 1] for a in _engine_argvs(server)] == ["2"]
    assert page.get_by_role("button", name="Rematch, colours swapped").count() == 0
    page.get_by_role("button", name="Resign").click()
    page.get_by_test_id("resign-yes").click()
    rematch = page.get_by_role("button", name="Rematch, colours swapped")
    rematch.wait_for()
    assert "you play White" in page.get_by_test_id("game-page").inner_text()
    screenshot(page, "engine-rematch")
    rematch.click()
    wait_for_js(page, f"!location.hash.includes('{g['id']}')")
    new_id = page.evaluate("location.hash").split("/game/")[1].split("?")[0]
    # seated at White: GNU Go opens as Black, and the page names "You" at White
    page.wait_for_selector("[data-stone][data-color=black]", timeout=30_000)
    page.get_by_test_id("name-white").get_by_text("You").wait_for()
    assert "GNU Go" in page.get_by_test_id("name-black").inner_text()
    page.wait_for_selector("[data-testid=pass]")
    new = state(server, new_id)
    old = state(server, g["id"])
    assert new["size"] == 13 and new["rules"] == old["rules"]
    assert old["rules"]["name"] == "japanese"
    analysis = httpx.get(f"{server.url}/api/games/{new_id}/analysis").json()
    assert analysis["engine"]["seat"] == "black"
    # the level: the rematch's GNU Go runs at level 2 like the first game's (whose engine
    # stopped with its game)
    levels = [a[a.index("--level") + 1] for a in _engine_argvs(server)]
    assert levels == ["2"], levels
    page.get_by_role("button", name="Resign").click()
    page.get_by_test_id("resign-yes").click()
    page.wait_for_selector("[data-testid=game-page][data-phase=finished]")


def _engine_argvs(server: Server) -> list[list[str]]:
    """The command lines of the engines the server runs now (its child processes)."""
    assert server.proc is not None
    out = subprocess.run(
        ["ps", "-o", "args=", "--ppid", str(server.proc.pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return [line.split() for line in out.splitlines() if "gnugo" in line]


def gnugo_dead(moves: list[list[Any]], size: int = 9) -> list[str]:
    """GNU Go's own ``final_status_list dead`` for the game's moves, asked apart."""
    script = [f"boardsize {size}", "clear_board", "komi 7.5"]
    script += [f"play {c} {p or 'pass'}" for c, p in moves]
    script += ["final_status_list dead", "quit"]
    gnugo = gnugo_command()
    assert gnugo is not None
    out = subprocess.run(
        gnugo, input="\n".join(script) + "\n", capture_output=True, text=True, timeout=60
    ).stdout
    answers = [a for a in out.split("\n\n") if a.strip()]
    return sorted(answers[-2].lstrip("= ").split())


def to_count(server: Server, g: dict[str, Any], stones: list[str]) -> dict[str, Any]:
    """The human (Black) plays ``stones``, then passes until GNU Go passes too."""
    plan = list(stones)
    for _ in range(100):
        s = state(server, g["id"])
        if s["phase"] != "playing":
            return s
        if s["to_move"] != "black":
            time.sleep(0.1)
            continue
        n = len(s["moves"])
        r = None
        while plan and (r is None or r.status_code != 200):
            r = httpx.post(
                f"{server.url}/api/games/{g['id']}/actions",
                json={"type": "move", "move": plan.pop(0)},
                headers={"Authorization": f"Bearer {g['token']}"},
            )
        if r is None or r.status_code != 200:
            act(server, g["id"], g["token"], {"type": "pass"})
        wait_for(
            lambda n=n: (
                len((v := state(server, g["id"]))["moves"]) > n + 1 or v["phase"] != "playing"
            ),
            "GNU Go's answer",
            within=60.0,
        )
    raise AssertionError("GNU Go did not pass")


def test_the_count_shows_where_gnugo_and_duiyi_disagree(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "GNU Go marked the player's 12-stone group dead, then accepted the correction
    # at once"; build "the dead-stone marking of an engine game uses both the engine's
    # final_status_list and duiyi's proposal and shows where they disagree". Two lone black
    # stones in GNU Go's side: the two views often differ on them (GNU Go plays differently
    # from game to game, so a few games are tried until they do).
    for _attempt in range(4):
        g = engine_game(server)
        s = to_count(server, g, ["C3", "G7"])
        a = wait_for(
            lambda g=g: (
                (x := httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()).get(
                    "dead_views"
                )
                and x
            ),
            "the engine's dead stones",
            within=60.0,
        )
        views = a["dead_views"]
        if views["engine_only"] or views["duiyi_only"]:
            break
        act(server, g["id"], g["token"], {"type": "accept"})
    else:
        pytest.skip("GNU Go agreed with duiyi's proposal in four games")
    # the engine's view is GNU Go's own final_status_list on the game's moves
    assert a["engine"]["dead"] == gnugo_dead(s["moves"])
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['token']}")
    page.wait_for_selector("[data-testid=dead-views]")
    text = page.get_by_test_id("dead-views").inner_text()
    squares = {
        p: page.get_attribute(f"[data-disagree='{p}']", "data-thinks-dead")
        for p in views["engine_only"] + views["duiyi_only"]
    }
    assert page.locator("[data-disagree]").count() == len(squares)
    for group in (views["engine_only"], views["duiyi_only"]):
        if group:  # "(1 stone)", "(12 stones)"
            assert (f"({len(group)} stone" + ("s)" if len(group) > 1 else ")")) in text, text
    for p in views["engine_only"]:
        assert squares[p] == "engine"
        assert "GNU Go thinks dead, duiyi's proposal alive" in text and p in text, text
        # the engine's view of the human's stones is shown, never marked for it
        assert p in s["stones"]["white"] or p not in state(server, g["id"])["dead"]
    for p in views["duiyi_only"]:
        assert squares[p] == "duiyi"
        assert "duiyi's proposal dead, GNU Go thinks alive" in text and p in text, text
    screenshot(page, "engine-count-views")
    # the same in Chinese: which side thinks what, in the page's language
    zh = context_factory(locale="zh-CN").new_page()
    zh.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['token']}")
    words = zh.get_by_test_id("dead-views")
    words.wait_for()
    assert ("认为是死子、duiyi判断为活棋" if views["engine_only"] else "duiyi判断为死子") in (
        words.inner_text()
    )
    assert "thinks" not in words.inner_text()
    # the human accepts the marking: GNU Go had accepted it, the game is counted
    page.get_by_role("button", name="Accept the count").click()
    page.wait_for_selector("[data-testid=game-page][data-phase=finished]")


def test_gnugo_dead_stones_shown_again_after_a_restart_during_the_count(
    tmp_path: Any, context_factory: Any
) -> None:
    # session 5's note: "GNU Go's dead-stone view is kept in memory: after a restart during a
    # count it is not shown"; it is stored with the game now
    s = Server(f"sqlite:///{tmp_path / 'duiyi.sqlite3'}", None, extra=("--gnugo",))
    s.start(tmp_path)
    try:
        g = engine_game(s)
        to_count(s, g, ["C3", "G7"])

        def views() -> Any:
            a = httpx.get(f"{s.url}/api/games/{g['id']}/analysis").json()
            return a.get("dead_views") and a

        before = wait_for(views, "the engine's dead stones", within=60.0)
        page = context_factory().new_page()
        page.goto(f"{s.url}/ui/#/game/{g['id']}?token={g['token']}")
        shown = page.get_by_test_id("dead-views")
        shown.wait_for()
        words = shown.inner_text()
        s.stop()
        page.wait_for_selector("[data-testid=game-page][data-connected=no]")
        s.start(tmp_path)
        # the page reconnects by itself and shows GNU Go's view again, the same words
        page.wait_for_selector("[data-testid=game-page][data-connected=yes]", timeout=30_000)
        after = wait_for(views, "the engine's dead stones after the restart", within=30.0)
        assert after["engine"]["dead"] == before["engine"]["dead"]
        assert after["dead_views"] == before["dead_views"]
        page.reload()
        shown.wait_for()
        assert shown.inner_text() == words
        assert "GNU Go" in words
        screenshot(page, "engine-count-after-restart")
        page.get_by_role("button", name="Accept the count").click()
        page.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    finally:
        s.stop()
