"""The browser UI driven by Playwright in Debian's chromium (headless), against a real server.

Each test talks to the server only through the pages; the server's state is read back through
the public API to check that what the pages did is what the rules recorded.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot, state, wait_for_js

pytestmark = pytest.mark.browser


def open_game(ctx: Any, server: Server, game_id: str, token: str | None = None) -> Any:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page._duiyi_errors = errors  # checked by the tests: no script error on any page
    query = f"?token={token}" if token else ""
    page.goto(f"{server.url}/ui/#/game/{game_id}{query}")
    page.wait_for_selector(f"[data-testid=game-page][data-connected=yes][data-game-id='{game_id}']")
    return page


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f"[data-testid=game-page][data-version='{version}']")


def clock_seconds(text: str) -> float:
    m = re.match(r"(?:(\d+):)?(\d+):(\d+)", text.strip())
    assert m, text
    h, mi, s = (int(x) if x else 0 for x in m.groups())
    return h * 3600 + mi * 60 + s


def shown_around(page: Any, server: Server, game_id: str, seat: str) -> tuple[float, float]:
    """The page's clock of ``seat`` read just before and just after the server's, and the
    server's: its time lies between the two readings (a second of rounding either way), however
    long a loaded machine takes between them."""
    before = clock_seconds(page.inner_text(f"[data-testid=clock-{seat}]"))
    base: float = state(server, game_id)["clocks"][seat]["base"]
    after = clock_seconds(page.inner_text(f"[data-testid=clock-{seat}]"))
    assert after - 1.5 <= base <= before + 1.5, (before, base, after)
    return after, base


def test_two_players_play_go_to_the_count_and_agree(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9, time_control={"system": "absolute", "base": 600})
    black = open_game(context_factory(), server, g["id"], g["black_token"])
    white = open_game(context_factory(), server, g["id"], g["white_token"])
    watcher = open_game(context_factory(), server, g["id"])
    # two walls; White's B5 is left alone inside Black's side
    black_moves = [f"E{r}" for r in range(1, 10)] + ["C3"]
    white_moves = [f"F{r}" for r in range(1, 10)] + ["B5"]
    moves = [m for pair in zip(black_moves, white_moves, strict=True) for m in pair]
    # Go §2: players alternate, Black first; each click is one move on the point clicked
    for n, point in enumerate(moves, start=1):
        page = black if n % 2 else white
        page.wait_for_selector("[data-testid=pass]")
        page.click(f"[data-point='{point}']")
        wait_version(black if page is white else white, n)
    wait_version(watcher, len(moves))
    for p in (black, white, watcher):
        assert p.locator("[data-stone]").count() == len(moves)
    assert white.locator("[data-last='B5']").count() == 1
    # a move out of turn is refused by the server, not by the page: the board is unchanged
    white.click("[data-point='A1']")
    assert white.locator("[data-stone='A1']").count() == 0
    # Go §7.3: two passes in a row end play and open the counting phase
    black.click("[data-testid=pass]")
    wait_version(white, 21)
    white.click("[data-testid=pass]")
    for p in (black, white, watcher):
        p.wait_for_selector("[data-testid=game-page][data-phase=counting]")
    # Go §8: the automatic proposal is shown first; a player applies it
    black.wait_for_selector("[data-proposal='B5']")
    black.click("[data-testid=apply-proposal]")
    white.wait_for_selector("[data-testid=game-page][data-version='23']")
    assert state(server, g["id"])["dead"] == ["B5"]
    # a click on a group toggles it: White says B5 lives, then marks it dead again
    white.click("[data-point='B5']")
    black.wait_for_selector("[data-testid=game-page][data-version='24']")
    assert state(server, g["id"])["dead"] == []
    white.click("[data-point='B5']")
    black.wait_for_selector("[data-testid=game-page][data-version='25']")
    black.wait_for_selector("[data-testid=score]:has-text('B+1.5')")
    screenshot(black, "game")
    # Go §9: both accept the marking; the game is counted
    black.click("[data-testid=accept]")
    wait_version(white, 26)
    white.click("[data-testid=accept]")
    for p in (black, white, watcher):
        p.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    final = state(server, g["id"])
    assert final["outcome"]["termination"] == "count"
    assert final["sgf_result"] == "B+1.5"
    for p in (black, white, watcher):
        assert "B+1.5" in p.locator("[data-testid=status]").inner_text()
        assert p._duiyi_errors == []
    # the move list navigates back through the record (positions come from the server)
    watcher.click("[data-testid=nav-first]")
    watcher.wait_for_selector("[data-testid=move-counter]:has-text('0/22')")
    wait_for_js(watcher, "document.querySelectorAll('[data-stone]').length === 0")
    watcher.click("[data-testid=nav-next]")
    wait_for_js(watcher, "document.querySelectorAll('[data-stone]').length === 1")
    assert watcher.locator("[data-stone='E1']").count() == 1
    sgf = httpx.get(server.url + watcher.get_attribute("[data-testid=sgf]", "href")).text
    assert "B[ei]" in sgf


def test_renju_opening_swap_and_two_dab(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="gomoku", rules="chinese_2013")
    opener = open_game(context_factory(), server, g["id"], g["black_token"])
    other = open_game(context_factory(), server, g["id"], g["white_token"])
    # Gomoku §3.2: the opener lays down h8, white 2 touching it, black 3, and declares N
    opener.wait_for_selector("[data-testid=opening-form]")
    for point in ("h8", "h9", "j10"):
        opener.click(f"[data-point='{point}']")
    opener.fill("[data-testid=fifth-n]", "2")
    opener.click("[data-testid=open]")
    wait_version(other, 1)
    # Gomoku §2.9: three-move swap: the other player takes Black
    other.click("[data-testid=swap]")
    wait_version(opener, 2)
    view = state(server, g["id"])
    assert view["to_act"] == "white" and view["to_move"] == "black"  # the opener now plays White
    # white 4 by the opener (now holding White)
    opener.click("[data-point='i9']")
    wait_version(other, 3)
    # Gomoku §2.10: the player now holding Black offers N = 2 different fifth moves
    other.wait_for_selector("[data-testid=propose]")
    other.click("[data-point='g10']")
    other.click("[data-point='k7']")
    other.click("[data-testid=propose]")
    wait_version(opener, 4)
    opener.wait_for_selector("[data-candidate='k7']")
    assert opener.locator("[data-candidate]").count() == 2
    # White keeps one of them as black 5
    opener.click("[data-point='k7']")
    for p in (opener, other):
        wait_version(p, 5)
        p.wait_for_selector("[data-stone='k7'][data-color='black']")
    final = state(server, g["id"])
    assert final["moves_list"] == ["h8", "h9", "j10", "i9", "k7"]
    assert final["phase"] == "play"
    # the forbidden points for Black are shown on request (computed by the server)
    other.click("[data-testid=forbidden]")
    other.wait_for_selector("[data-testid=forbidden][aria-pressed=true]")
    # Gomoku §10.3: a draw is offered right after one's own move; the opponent declines
    opener.click("[data-point='f6']")
    wait_version(other, 6)
    opener.click("[data-testid=offer-draw]")
    other.wait_for_selector("[data-testid=decline-draw]")
    assert state(server, g["id"])["draw_offer"] == "white"
    other.click("[data-testid=decline-draw]")
    wait_version(opener, 8)
    assert state(server, g["id"])["draw_offer"] is None
    assert opener._duiyi_errors == [] and other._duiyi_errors == []


def test_director_pairs_and_enters_a_round(server: Server, context_factory: Any) -> None:
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/new-event")
    page.fill("[data-testid=event-name]", "Spring Swiss")
    page.click("[data-testid=create-event]")
    page.click("[data-testid=open-desk]")
    page.wait_for_selector("[data-testid=desk]")
    csv = "name,rank,rating,club\nLi Wei,5d,2400,Beijing\nWang Fang,4d,2300,Shanghai\n"
    csv += "Zhang Min,3d,2200,Hangzhou\nLiu Yang,2d,2100,Chengdu\n"
    page.fill("[data-testid=csv]", csv)
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4)")
    page.click("[data-testid=tab-round]")
    page.click("[data-testid=pair]")
    # the desk draws the round, then opens its address (?round=1) and draws it again: the
    # second drawing may replace the first between two reads, so the cells are waited for
    page.wait_for_selector("[data-testid=round-1] td.reason")
    reasons = page.locator("[data-testid=round-1] td.reason").all_inner_texts()
    assert len(reasons) == 2 and all(r.strip() for r in reasons)  # why each pair was chosen
    # start the round's online games: each player's link is shown once
    page.click("[data-testid=start-1]")
    page.wait_for_selector("[data-testid=player-links]")
    assert page.locator("[data-testid=player-links] a").count() == 4
    # Go §24: a warning given over the board is entered with the result
    # (the warning first: choosing the result enters it with the warnings shown)
    page.fill("[data-testid=warn-white-1-1]", "1")
    page.select_option("[data-testid=result-1-1]", "1-0")
    page.wait_for_selector(
        "[data-testid=result-1-1] option[value='1-0'][selected]", state="attached"
    )
    page.select_option("[data-testid=result-1-2]", "0-1")
    page.wait_for_selector(
        "[data-testid=result-1-2] option[value='0-1'][selected]", state="attached"
    )
    page.click("[data-testid=tab-players]")
    page.click("[data-testid=withdraw-4]")
    page.click("[data-testid=withdraw-yes]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4):has-text('withdrew')")
    # table cards for an over-the-board round
    page.click("[data-testid=tab-round]")
    page.click("[data-testid=cards-1]")
    page.wait_for_selector("[data-testid=table-cards] .card:nth-child(2)")
    event_id = page.url.split("#/desk/")[1].split("?")[0].split("/")[0]
    rounds = httpx.get(f"{server.url}/api/events/{event_id}/rounds/1").json()
    assert sorted(str(gm.get("result")) for gm in rounds["games"]) == ["0-1", "1-0"]
    board1 = next(gm for gm in rounds["games"] if gm["board"] == 1)
    assert board1["warnings"] == {"black": 0, "white": 1}, board1
    # the public page: standings with the system's tiebreak columns, crosstable, results
    page.goto(f"{server.url}/ui/#/event/{event_id}")
    page.wait_for_selector("[data-testid=standings]")
    st = httpx.get(f"{server.url}/api/events/{event_id}/standings").json()
    headers = page.locator("[data-testid=standings] th").all_inner_texts()
    titles = page.locator("[data-testid=standings] th").evaluate_all("e => e.map(x => x.title)")
    for tb in st["tiebreaks"]:  # each column names its article (points have their own)
        assert tb["name"] == "points" or any(tb["article"] in x for x in titles), tb
    # an English page names its columns in English only (issue 20: not "总得分 total score")
    assert "Total score" in headers and not any("总" in h for h in headers)
    first = page.locator("[data-testid=standings] tbody tr:first-child").inner_text()
    assert st["standings"][0]["name"] in first
    assert page.locator("[data-testid=crosstable] tbody tr").count() == 4
    screenshot(page, "standings")
    # a spectator follows the link of an online game: the page names the event's players
    page.click("[data-testid=round-1] tbody tr:first-child a:has-text('watch')")
    page.wait_for_selector("[data-testid=event-line]")
    black_no = next(gm["black"] for gm in rounds["games"] if gm["board"] == 1)
    black_name = next(p["name"] for p in st["standings"] if p["number"] == black_no)
    page.wait_for_selector(f"[data-testid=name-black]:has-text('{black_name}')")


def test_reload_mid_game_restores_position_and_clocks(server: Server, context_factory: Any) -> None:
    tc = {"system": "chinese-byoyomi", "base": 120, "reserved_minutes": 1}
    g = new_game(server, game="go", size=13, time_control=tc)
    ctx = context_factory()
    page = open_game(ctx, server, g["id"], g["black_token"])
    page.click("[data-point='D4']")
    wait_version(page, 1)
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": "K10"},
        headers={"Authorization": f"Bearer {g['white_token']}"},
    )
    assert r.status_code == 200
    wait_version(page, 2)
    time.sleep(1.5)  # Black's clock runs
    page.reload()
    page.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='2']")
    for point in ("D4", "K10"):
        assert page.locator(f"[data-stone='{point}']").count() == 1
    shown, _ = shown_around(page, server, g["id"], "black")
    assert shown < 119  # the time Black used before the reload is still charged
    white_shown, white = shown_around(page, server, g["id"], "white")
    assert abs(white_shown - white) <= 1.0  # White's clock stands
    assert page.locator("[data-testid=player-black].running").count() == 1
    # the page keeps working after the reload: Black plays on
    page.click("[data-point='E5']")
    wait_version(page, 3)
    assert page._duiyi_errors == []


def test_speech_is_harmless_without_synthesis(server: Server, context_factory: Any) -> None:
    g = new_game(
        server,
        game="go",
        size=9,
        time_control={"system": "chinese-byoyomi", "base": 60, "reserved_minutes": 1},
    )
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    # on by default for Chinese byo-yomi (Go §12.3), one click mutes
    page.wait_for_selector("[data-testid=sound][aria-pressed=true]")
    page.click("[data-testid=sound]")
    page.wait_for_selector("[data-testid=sound][aria-pressed=false]")
    spoken = page.evaluate("import('/ui/game.js').then(m => m.speak('三十秒'))")
    assert spoken in (True, False)
    assert page._duiyi_errors == []


def test_phone_screen_and_chinese(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=19)
    ctx = context_factory(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = open_game(ctx, server, g["id"], g["black_token"])
    assert "虚着" in page.inner_text("[data-testid=pass]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone's screen
    # keyboard: type a point in the move box...
    page.focus("[data-testid=move-input]")
    page.keyboard.type("c3")
    page.keyboard.press("Enter")
    wait_version(page, 1)
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "pass"},
        headers={"Authorization": f"Bearer {g['white_token']}"},
    )
    assert r.status_code == 200
    wait_version(page, 2)
    # ...or focus the board, move the cursor with the arrows (from the centre), play with Enter
    page.focus("svg.board")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    wait_version(page, 3)
    moves = state(server, g["id"])["moves"]
    assert moves == [["black", "C3"], ["white", None], ["black", "J11"]]


def test_a_tap_before_the_position_is_analysed_is_played(
    server: Server, context_factory: Any
) -> None:
    """The page learns what it may do from /analysis, fetched after each new position: a tap in
    between (the opponent has just moved) is kept and played once the analysis is in, not lost."""
    g = new_game(server, game="go", size=9)
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    page.click("[data-point='C3']")
    wait_version(page, 1)
    held: list[Any] = []
    page.route("**/analysis", lambda route: held.append(route))
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "pass"},
        headers={"Authorization": f"Bearer {g['white_token']}"},
    )
    assert r.status_code == 200
    wait_version(page, 2)  # the position is shown; its analysis is held back
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the route handler runs while Playwright waits
    assert held, "the page asks for the new position's analysis"
    page.click("[data-point='D4']")
    for route in held:
        route.continue_()
    page.unroute("**/analysis")
    wait_version(page, 3)
    assert state(server, g["id"])["moves"] == [["black", "C3"], ["white", None], ["black", "D4"]]
    assert not page._duiyi_errors


def test_two_taps_before_the_position_is_analysed_both_count(
    server: Server, context_factory: Any
) -> None:
    """Gomoku §2.10: Black proposes N = 2 fifth moves by tapping two points. Both taps made while
    the new position's analysis is on its way are kept, in order (the first was lost)."""
    g = new_game(server, game="gomoku", rules="chinese_2013")
    act = f"{server.url}/api/games/{g['id']}/actions"
    opening = {"type": "open", "moves": ["h8", "h9", "h10"], "fifth_n": 2}
    r = httpx.post(act, json=opening, headers={"Authorization": f"Bearer {g['black_token']}"})
    assert r.status_code == 200, r.text
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    wait_version(page, 1)
    held: list[Any] = []
    page.route("**/analysis", lambda route: held.append(route))
    white4 = {"type": "move", "move": "h6"}
    r = httpx.post(act, json=white4, headers={"Authorization": f"Bearer {g['white_token']}"})
    assert r.status_code == 200, r.text
    wait_version(page, 2)  # Black to propose; the analysis is held back
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the route handler runs while Playwright waits
    assert held, "the page asks for the new position's analysis"
    page.click("[data-point='g9']")
    page.click("[data-point='j7']")
    for route in held:
        route.continue_()
    page.unroute("**/analysis")
    page.wait_for_selector("[data-testid=propose]")
    assert sorted(page.eval_on_selector_all("[data-pick]", "e => e.map(x => x.dataset.pick)")) == [
        "g9",
        "j7",
    ]
    page.click("[data-testid=propose]")
    wait_version(page, 3)
    assert state(server, g["id"])["fifth_candidates"] == ["g9", "j7"]
    assert not page._duiyi_errors


def test_an_older_analysis_answering_late_changes_nothing(
    server: Server, context_factory: Any
) -> None:
    """Two reads of /analysis on their way at once may answer in either order: an older answer
    arriving after a newer one is not taken (it took the moves away until the next position)."""
    g = new_game(server, game="go", size=9)
    page = open_game(context_factory(), server, g["id"], g["black_token"])
    page.click("[data-point='C3']")
    wait_version(page, 1)
    late: list[tuple[Any, Any]] = []

    def first_answers_late(route: Any) -> None:
        if late:
            route.continue_()
        else:  # answered as of now, handed to the page when the test says
            late.append((route, route.fetch()))

    def play(seat: str, action: dict[str, Any]) -> None:
        r = httpx.post(
            f"{server.url}/api/games/{g['id']}/actions",
            json=action,
            headers={"Authorization": f"Bearer {g[seat]}"},
        )
        assert r.status_code == 200, r.text

    page.route("**/analysis", first_answers_late)
    play("white_token", {"type": "pass"})
    wait_version(page, 2)
    deadline = time.monotonic() + 10
    while not late and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the route handler runs (and reads) while Playwright waits
    assert late, "the page asks for the new position's analysis"
    play("black_token", {"type": "move", "move": "D4"})
    play("white_token", {"type": "pass"})
    wait_version(page, 4)  # analysed at once: Black to move
    page.wait_for_selector("[data-testid=pass]")
    route, answer = late[0]
    with page.expect_request_finished(lambda req: req is route.request):
        route.fulfill(response=answer)
    page.wait_for_timeout(300)  # the page reads the late answer (before: the moves vanished)
    page.click("[data-point='E5']")
    wait_version(page, 5)
    assert state(server, g["id"])["moves"][-1] == ["black", "E5"]
    page.unroute("**/analysis")


def test_reconnects_after_a_network_cut(
    tmp_path_factory: pytest.TempPathFactory, context_factory: Any
) -> None:
    tmp = tmp_path_factory.mktemp("cut")
    server = Server(f"sqlite:///{tmp / 'cut.sqlite3'}", None).start(tmp)
    try:
        g = new_game(server, game="go", size=9, time_control={"system": "absolute", "base": 300})
        page = open_game(context_factory(), server, g["id"], g["black_token"])
        page.click("[data-point='C7']")
        wait_version(page, 1)
        server.kill9()  # the connection drops: the page says so and keeps trying
        page.wait_for_selector("[data-testid=game-page][data-connected=no]")
        server.start(tmp)
        # while the page was cut off (or before it is back), White moved
        r = httpx.post(
            f"{server.url}/api/games/{g['id']}/actions",
            json={"type": "move", "move": "G3"},
            headers={"Authorization": f"Bearer {g['white_token']}"},
        )
        assert r.status_code == 200
        page.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='2']")
        assert page.locator("[data-stone='G3'][data-color='white']").count() == 1
        shown_around(page, server, g["id"], "black")
        page.click("[data-point='D4']")
        wait_version(page, 3)
    finally:
        server.stop()


@pytest.mark.gnugo
def test_one_person_plays_gnugo_from_the_home_page(server: Server, context_factory: Any) -> None:
    from duiyi.server.engines.driver import gnugo_command

    if gnugo_command() is None:
        pytest.skip("GNU Go is not installed (.ci/run installs it)")
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.wait_for_selector("[data-testid=live-games] li")
    page.click("[data-testid=engine-box] summary")  # the form folds away on the home page
    page.click("[data-testid=play-engine]")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.wait_for_selector("[data-testid=pass]")
    page.click("[data-point='E5']")
    # GNU Go answers as White by itself
    page.wait_for_selector("[data-testid=game-page][data-version='2']", timeout=30_000)
    page.wait_for_selector("[data-stone][data-color=white]")
    assert "engine" in page.inner_text("[data-testid=player-white]")
    # spectators find the game among the live games
    game_id = page.get_attribute("[data-testid=game-page]", "data-game-id")
    # a spectator (another browser: the player's own tab keeps its seat) finds the game among
    # the live games and cannot play
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.click(f"[data-testid=live-games] a[href='#/game/{game_id}']")
    page.wait_for_selector(f"[data-testid=game-page][data-game-id='{game_id}'][data-connected=yes]")
    assert page.locator("[data-testid=pass]").count() == 0  # a spectator cannot play


def test_arbiter_pauses_and_warns(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9, time_control={"system": "absolute", "base": 300})
    ctx = context_factory()
    page = ctx.new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?arbiter={g['arbiter_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # the arbiter has no seat: no move buttons, only the arbiter's panel
    assert page.locator("[data-testid=pass]").count() == 0
    page.click("[data-testid=pause]")
    wait_version(page, 1)
    assert state(server, g["id"])["paused"] is True
    page.click("[data-testid=resume]")
    wait_version(page, 2)
    # Go §24: a warning, with its article, through the ruling form (shown in words first)
    panel = page.get_by_role("region", name="Arbiter")
    panel.get_by_label("Ruling", exact=True).select_option(label="Warning (Go §24)")
    panel.get_by_role("button", name="Rule…").click()
    assert "Go §24" in panel.get_by_role("alertdialog").inner_text()
    panel.get_by_role("button", name="Confirm the ruling").click()
    wait_version(page, 3)
    view = state(server, g["id"])
    assert view["referee"]["black"]["warnings"] == 1 and view["paused"] is False
    page.wait_for_selector("[data-testid=player-black]:has-text('⚠ 1')")


FAKE_SPEECH = """
window.__spoken = [];
class FakeUtterance { constructor(text) { this.text = text; this.lang = ""; } }
window.SpeechSynthesisUtterance = window.SpeechSynthesisUtterance || FakeUtterance;
Object.defineProperty(window, "speechSynthesis", {
  configurable: true,
  value: { speak(u) { window.__spoken.push([u.text, u.lang]); }, getVoices() { return []; } },
});
"""


def test_the_arbiters_calls_are_spoken_in_chinese(server: Server, context_factory: Any) -> None:
    # Go §12.3: the count of the last seconds of a byo-yomi period, pushed by the server; the
    # clocks start with Black's first move, once the page is open (a loaded machine takes
    # seconds to open it: a clock started with the game had run out by then)
    tc = {"system": "japanese-byoyomi", "base": 0, "periods": 1, "period": 12}
    g = new_game(server, game="go", size=9, time_control=tc, start="first_move")
    ctx = context_factory()
    ctx.add_init_script(FAKE_SPEECH)
    page = open_game(ctx, server, g["id"], g["black_token"])
    # the clock shows the byo-yomi state: time left in the period and periods left
    clock = page.inner_text("[data-testid=clock-white]")
    assert clock == "byo-yomi 0:12 (1 left)", clock
    # not a Chinese byo-yomi: the calls are shown, spoken after one click
    page.wait_for_selector("[data-testid=sound][aria-pressed=false]")
    page.click("[data-testid=sound]")
    page.wait_for_selector("[data-testid=sound][aria-pressed=true]")
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": "E5"},
        headers={"Authorization": f"Bearer {g['black_token']}"},
    )
    assert r.status_code == 200, r.text  # White's period runs
    wait_for_js(page, "window.__spoken.length > 0", timeout=15.0)
    (text, lang), shown = page.evaluate(
        "[window.__spoken.at(-1), document.querySelector('[data-testid=last-call]').textContent]"
    )
    assert lang == "zh-CN" and text.isdigit()
    assert shown.startswith(text)  # the same call, shown as it is spoken
    assert page._duiyi_errors == []


def test_a_disputed_group_resumes_play(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9)
    black = open_game(context_factory(), server, g["id"], g["black_token"])
    white = open_game(context_factory(), server, g["id"], g["white_token"])
    black.click("[data-point='E5']")
    wait_version(white, 1)
    white.click("[data-testid=pass]")
    wait_version(black, 2)
    black.click("[data-testid=pass]")
    white.wait_for_selector("[data-testid=game-page][data-phase=counting]")
    # Go §21.4: White claims E5 dead, Black does not agree: play resumes, White to move
    white.click("[data-testid=dispute]")
    white.wait_for_selector("[data-testid=dispute][aria-pressed=true]")
    white.click("[data-point='E5']")
    for p in (black, white):
        p.wait_for_selector("[data-testid=game-page][data-phase=playing]")
    view = state(server, g["id"])
    assert view["to_move"] == "white" and view["phase"] == "playing"
    white.wait_for_selector("[data-testid=pass]")
