"""The demo that teaches (``duiyi serve --demo``: games that wait for their players, a "sit
here" link per seat, a finished game of each kind, an event with rounds played) and the
arbiter's room (every board of a round; a ruling made there lands in the game and the event at
once). Playwright in Debian's chromium against a real server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import CORNER_TAKEN, play, screenshot, state
from tests.web.test_player import act

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("demo")
    s = Server(f"sqlite:///{tmp / 'duiyi.sqlite3'}", None, extra=("--demo",)).start(tmp)
    yield s
    s.stop()


def test_the_demo_waits_for_its_players_and_teaches(demo: Server, context_factory: Any) -> None:
    seats = httpx.get(demo.url + "/api/demo").json()["seats"]
    kinds = sorted({s["game"] for s in seats})
    assert kinds == ["go", "gomoku"] and len(seats) >= 4
    # nobody sat down: no clock runs (the arbiter's pause, Go §14 / Gomoku §9)
    first = {s["game_id"]: state(demo, s["game_id"]) for s in seats}
    time.sleep(1.2)
    for gid, before in first.items():
        now = state(demo, gid)
        assert now["paused"] and now["clock_running"] is None
        assert now["clocks"] == before["clocks"]
    # the home page: a "sit here" link per seat, finished games to review, the demo event
    home = context_factory().new_page()
    home.goto(f"{demo.url}/ui/#/")
    home.wait_for_selector("[data-testid=demo-seats] [data-testid=sit-black]")
    assert home.locator("[data-testid=sit-black]").count() == len(seats)
    assert home.locator("[data-testid=sit-white]").count() == len(seats)
    assert home.locator("[data-testid=finished-games] li[data-game-id]").count() == 2
    events = httpx.get(demo.url + "/api/events").json()["events"]
    assert events[0]["current_round"] == 3  # two rounds played, the third paired
    ev = httpx.get(f"{demo.url}/api/events/{events[0]['id']}").json()["event"]
    played = [g for r in ev["history"][:2] for g in r["games"] if g.get("result")]
    assert len(played) == 8
    # an event's seat names its players as the live list does, rank included (issue 32: the
    # sit-here row read "Gu Li – Ke Jie", the live list "Gu Li 7d – Ke Jie 7d")
    board = next(s for s in seats if s["round"])
    black = board["seats"]["black"]
    assert black["rank"], board
    sit = home.locator(f"[data-testid=demo-seats] li[data-game-id='{board['game_id']}']")
    assert f"{black['name']} {black['rank']}" in sit.inner_text(), sit.inner_text()
    screenshot(home, "home")
    # a visitor sits down at the Renju game as Black; a friend takes White in another window
    renju = next(s for s in seats if s["game"] == "gomoku")
    row = f"[data-testid=demo-seats] li[data-game-id='{renju['game_id']}']"
    home.click(f"{row} [data-testid=sit-black]")
    home.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    home.wait_for_selector("[data-testid=waiting]")
    assert state(demo, renju["game_id"])["paused"]
    friend = context_factory().new_page()
    friend.goto(f"{demo.url}/ui/#/game/{renju['game_id']}?token={renju['tokens']['white']}")
    friend.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # both seated: the pause is lifted and Black's clock starts (Gomoku §8)
    deadline = time.monotonic() + 10
    while state(demo, renju["game_id"])["paused"] and time.monotonic() < deadline:
        time.sleep(0.2)
    now = state(demo, renju["game_id"])
    assert not now["paused"] and now["clock_running"] == "black"
    home.wait_for_selector("[data-testid=waiting]", state="detached")
    assert renju["names"]["black"] in home.inner_text("[data-testid=name-black]")
    # the seat taken is no longer offered on the home page
    again = httpx.get(demo.url + "/api/demo").json()["seats"]
    assert all(s["game_id"] != renju["game_id"] for s in again if s["tokens"])


def test_the_demo_reviews_a_finished_game_of_each_kind(demo: Server, context_factory: Any) -> None:
    reviews = httpx.get(demo.url + "/api/demo").json()["reviews"]
    page = context_factory().new_page()
    go_id, renju_id = reviews
    page.goto(f"{demo.url}/ui/#/game/{go_id}")
    page.wait_for_selector("[data-testid=final-count]")
    assert "B+1.5" in page.inner_text("[data-testid=status]")
    assert page.locator("[data-testid=move-list] li").count() == 22
    page.click("[data-testid=nav-first]")
    page.wait_for_selector("[data-testid=move-counter]:text-is('0/22')")
    assert page.locator("[data-stone]").count() == 0
    assert httpx.get(f"{demo.url}/api/games/{go_id}/sgf").text.startswith("(;")
    page.goto(f"{demo.url}/ui/#/game/{renju_id}")
    page.wait_for_selector("[data-five]")
    assert page.locator("[data-five]").count() == 5


def make_event(server: Server, game: str = "go") -> dict[str, Any]:
    tc = {"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 1}
    online: dict[str, Any] = {"size": 9, "time_control": tc}
    if game == "gomoku":
        online = {"rules": "free", "time_control": {"system": "absolute", "base": 600}}
    r = httpx.post(
        server.url + "/api/events",
        json={"name": "Hall cup", "game": game, "system": "swiss", "rounds": 3, "online": online},
    )
    assert r.status_code == 201, r.text
    ev = r.json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    players = [
        {"name": n, "rank": "3d", "rating": 2200 - i * 10, "club": "X"}
        for i, n in enumerate(["Ai", "Bo", "Cai", "Du"])
    ]
    assert httpx.post(
        f"{server.url}/api/events/{ev['id']}/players", json=players, headers=org
    ).is_success
    assert httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=org).is_success
    started = httpx.post(f"{server.url}/api/events/{ev['id']}/rounds/1/games", headers=org)
    assert started.status_code == 201, started.text
    ev["games"] = started.json()["games"]
    return ev


def test_the_arbiter_rules_on_a_claim_while_two_games_run(
    server: Server, context_factory: Any
) -> None:
    ev = make_event(server)
    one, two = ev["games"]
    # both boards are under way
    act(server, one["game_id"], one["black_token"], {"type": "move", "move": "E5"})
    act(server, two["game_id"], two["black_token"], {"type": "move", "move": "C3"})
    tablet = context_factory(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    tablet.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    tablet.wait_for_selector("[data-testid=room-board-1]")
    tablet.wait_for_selector("[data-testid=room-board-2]")
    # a move on board 2 reaches the room at once
    act(server, two["game_id"], two["white_token"], {"type": "move", "move": "G7"})
    tablet.wait_for_selector("[data-testid=room-board-2][data-version='2']")
    # on board 1, White calls the arbiter from the game page: Black moved stones (Go §17)
    player = context_factory().new_page()
    player.goto(f"{server.url}/ui/#/game/{one['game_id']}?token={one['white_token']}")
    player.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    player.click("[data-testid=call-arbiter]")
    player.select_option("[data-testid=call-about]", "foul")
    player.fill("[data-testid=call-text]", "stones moved")
    player.click("[data-testid=call-send]")
    player.wait_for_selector("[data-testid=call-1]")
    tablet.wait_for_selector("[data-testid=pending-call-1-1]", timeout=10_000)
    assert "stones moved" in tablet.inner_text("[data-testid=pending-1]")
    screenshot(tablet, "arbiter-room")
    # a spectator follows the event's public page
    wall = context_factory().new_page()
    wall.goto(f"{server.url}/ui/#/event/{ev['id']}")
    wall.wait_for_selector("[data-testid=shown-result-1-1]")
    assert wall.inner_text("[data-testid=shown-result-1-1]").strip() == ""
    # the arbiter rules: Black loses the game (Go §23.3)
    tablet.select_option("[data-testid=rule-kind-1]", "forfeit")
    tablet.select_option("[data-testid=rule-who-1]", "black")
    tablet.fill("[data-testid=rule-note-1]", "moved stones after a warning")
    tablet.select_option("[data-testid=rule-call-1]", "1")  # the call this ruling answers
    tablet.tap("[data-testid=rule-1]")
    tablet.tap("[data-testid=rule-yes-1]")
    tablet.wait_for_selector("[data-testid=rulings-1]")
    # the ruling is in the game at once ...
    s1 = state(server, one["game_id"])
    assert s1["outcome"]["winner"] == "white" and s1["outcome"]["termination"] == "forfeit"
    player.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    # ... and in the event's results
    deadline = time.monotonic() + 10
    result = None
    while time.monotonic() < deadline:
        e = httpx.get(f"{server.url}/api/events/{ev['id']}").json()["event"]
        result = next(g for g in e["history"][0]["games"] if g["board"] == 1).get("result")
        if result:
            break
        time.sleep(0.2)
    assert result == "0-1", result  # White wins by forfeit
    # the public page shows the result by itself (no reload)
    wall.wait_for_selector(
        "[data-testid=shown-result-1-1]:text-is('White wins (0-1)')", timeout=15_000
    )
    # the call is answered, and board 2 plays on
    tablet.wait_for_selector("[data-testid=pending-call-1-1]", state="detached")
    player.wait_for_selector("[data-testid=call-1]:has-text('answered')", timeout=10_000)
    act(server, two["game_id"], two["black_token"], {"type": "move", "move": "D4"})
    tablet.wait_for_selector("[data-testid=room-board-2][data-version='3']")
    assert state(server, two["game_id"])["outcome"] is None


def _rule_in_the_room(page: Any, board: int, option: str, who: str, points: str = "") -> None:
    if page.input_value(f"[data-testid=rule-kind-{board}]") != option:
        page.select_option(f"[data-testid=rule-kind-{board}]", option)
    page.select_option(f"[data-testid=rule-who-{board}]", who)
    if points:
        page.fill(f"[data-testid=rule-points-{board}]", points)
    page.click(f"[data-testid=rule-{board}]")
    page.click(f"[data-testid=rule-yes-{board}]")


def test_the_room_puts_stones_back_by_the_book(server: Server, context_factory: Any) -> None:
    # Go §18.1 "误提对方有气之子，被判警告一次，并应将有关之子放回原处": the arbiter names the
    # stones White wrongly removed; they go back, White is warned, no article to type.
    ev = make_event(server)
    one = ev["games"][0]
    play(server, one, CORNER_TAKEN)  # White takes A1-A3
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    page.wait_for_selector(f"[data-testid=room-board-1][data-version='{len(CORNER_TAKEN)}']")
    assert not page.is_visible("[data-testid=rule-points-1]")  # a warning names no stones
    page.select_option("[data-testid=rule-kind-1]", "stones_restored")
    assert page.is_visible("[data-testid=rule-points-1]")
    assert page.input_value("[data-testid=rule-article-1]") == "Go §18.1"
    assert page.get_attribute("[data-testid=rule-article-1]", "readonly") is not None
    _rule_in_the_room(page, 1, "stones_restored", "white", "a1, A3")
    page.wait_for_selector("[data-testid=rulings-1]:has-text('Go §18.1')")
    s = state(server, one["game_id"])
    assert {"A1", "A3"} <= set(s["stones"]["black"])
    assert s["referee"]["white"]["warnings"] == 1 and s["to_move"] == "black"


def test_the_room_corrects_or_accepts_an_irregular_gomoku_stone(
    server: Server, context_factory: Any
) -> None:
    # Gomoku §6.1(5) 推盘: the pushed stone goes back to the first point it touched; §6.1: the
    # opponent may accept the act instead, and then it is not corrected any more.
    ev = make_event(server, "gomoku")
    one, two = ev["games"][:2]
    act(server, one["game_id"], one["black_token"], {"type": "move", "move": "h8"})
    act(server, two["game_id"], two["black_token"], {"type": "move", "move": "h8"})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    page.wait_for_selector("[data-testid=room-board-2][data-version='1']")
    _rule_in_the_room(page, 1, "replace_pushed", "black", "i9")
    page.wait_for_selector("[data-testid=rulings-1]:has-text('Gomoku §6.1(5)')")
    assert state(server, one["game_id"])["moves_list"] == ["i9"]
    page.select_option("[data-testid=rule-kind-2]", "irregular_accepted")
    page.fill("[data-testid=rule-article-2]", "Gomoku §6.1(5)")
    _rule_in_the_room(page, 2, "irregular_accepted", "black")
    page.wait_for_selector("[data-testid=rulings-2]:has-text('Gomoku §6.1(5)')")
    _rule_in_the_room(page, 2, "replace_lifted", "black", "j10")
    page.wait_for_selector("#banner.error:has-text('accepted')")
    assert state(server, two["game_id"])["moves_list"] == ["h8"]


def test_a_room_read_on_its_way_keeps_what_the_sockets_brought(
    server: Server, context_factory: Any
) -> None:
    """The room reads the event's boards again after a ruling; each board's socket brings its
    moves and calls meanwhile. A read that was on its way when board 2's move and board 1's call
    came is older than them: the room keeps them (it showed board 2 a move back, the call
    gone)."""
    ev = make_event(server)
    one, two = ev["games"]
    arbiter = {"Authorization": f"Bearer {ev['arbiter_token']}"}
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    page.wait_for_selector("[data-testid=room-board-2][data-version='0']")
    # the read is answered as of now, and its answer held back until the test lets it go
    held: list[tuple[Any, Any]] = []
    page.route("**/api/events/*/room", lambda route: held.append((route, route.fetch())))
    # a ruling on board 1 (Go §24) comes over its socket: the room reads the boards again
    r = httpx.post(
        f"{server.url}/api/games/{one['game_id']}/rulings",
        json={"kind": "warning", "color": "black", "article": "Go §24"},
        headers=arbiter,
    )
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 15
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the route handler runs while Playwright waits
    assert held, "the room reads its boards again after a ruling"
    # while that read is on its way: a move on board 2, a call on board 1
    act(server, two["game_id"], two["black_token"], {"type": "move", "move": "C3"})
    r = httpx.post(
        f"{server.url}/api/games/{one['game_id']}/calls",
        json={"about": "time", "text": "my clock"},
        headers={"Authorization": f"Bearer {one['white_token']}"},
    )
    assert r.status_code < 300, r.text
    page.wait_for_selector("[data-testid=room-board-2][data-version='1']")
    page.wait_for_selector("[data-testid=pending-call-1-1]")
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_selector("[data-testid=rulings-1]")  # the read's answer is shown
    assert page.get_attribute("[data-testid=room-board-2]", "data-version") == "1"
    assert page.locator("[data-testid=pending-call-1-1]").count() == 1
    page.unroute("**/api/events/*/room")
