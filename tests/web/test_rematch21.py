"""Issue 21, what session 5's note left: a rematch between two people. After a casual game
either player offers a rematch with the colours swapped and the same settings; the other
accepts from its page; both pages move to the new game, each player at its new colour with
the link it had (no new secret travels). Playwright in Debian's chromium against a real
server; the controls are found by their words."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, online_event_game
from tests.web.conftest import new_game, screenshot, state, wait_for_js
from tests.web.test_player import act, set_names

from duiyi.server.games.rematch import rematch_id

pytestmark = pytest.mark.browser

TIME = {"system": "moves-per-period", "base": 600, "moves": 10, "period": 300}


def _game_id(page: Any) -> str:
    return str(page.evaluate("location.hash").split("/game/")[1].split("?")[0])


def test_two_friends_play_a_rematch_with_the_colours_swapped(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "rematch with colours swapped" was built for engine games only; between two
    # people there was no rematch button
    g = new_game(server, game="go", size=13, rules="japanese", time_control=TIME)
    set_names(server, g, "Ke Jie", "Gu Li")
    act(server, g["id"], g["black_token"], {"type": "move", "move": "G7"})
    ke = context_factory().new_page()  # Black
    ke.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    gu = context_factory().new_page()  # White
    gu.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['white_token']}")
    watcher = context_factory().new_page()
    watcher.goto(f"{server.url}/ui/#/game/{g['id']}")
    ke.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    gu.wait_for_selector("[data-testid=game-page][data-connected=yes]")  # both seats are there
    assert ke.get_by_role("button", name="Offer a rematch, colours swapped").count() == 0
    act(server, g["id"], g["white_token"], {"type": "resign"})
    offer = ke.get_by_role("button", name="Offer a rematch, colours swapped")
    offer.click()
    ke.get_by_text("You offered a rematch; waiting for Gu Li").wait_for()
    # the opponent is asked on its page at once (the socket), in words
    gu.get_by_text("Ke Jie (Black) offers a rematch, colours swapped: you play Black").wait_for()
    screenshot(gu, "rematch-offered")
    assert watcher.get_by_role("button", name="Accept the rematch").count() == 0
    assert watcher.get_by_role("link", name="Watch the rematch").count() == 0
    gu.get_by_role("button", name="Accept the rematch").click()
    # both pages move to the rematch, whose id is fixed by the game's
    again = rematch_id(g["id"])
    for page in (ke, gu):
        wait_for_js(page, f"location.hash.includes('{again}')")
        page.wait_for_selector(
            f"[data-testid=game-page][data-game-id='{again}'][data-connected=yes]"
        )
    # each at the other colour, under its own name, with the link it had
    ke.get_by_test_id("name-white").get_by_text("Ke Jie").wait_for()
    assert "you" in ke.get_by_test_id("name-white").inner_text()
    assert "you" in gu.get_by_test_id("name-black").inner_text()
    # the link it had is this tab's, out of the address (issue 35: keys.js)
    assert g["black_token"] not in ke.evaluate("location.hash")
    assert ke.evaluate(f"sessionStorage.getItem('duiyi.game.token.{again}')") == g["black_token"]
    gu.click("[data-point='D4']")
    ke.wait_for_selector("[data-stone][data-color=black]")
    new, old = state(server, again), state(server, g["id"])
    assert new["moves"] == [["black", "D4"]]
    # the same settings: board, rules, time
    assert new["size"] == 13 and new["rules"] == old["rules"]
    assert new["time_control"] == old["time_control"]
    # the spectator is not moved (the socket carries no seat for it); it may follow a link
    assert _game_id(watcher) == g["id"]
    watcher.get_by_role("link", name="Watch the rematch").click()
    watcher.wait_for_selector(f"[data-testid=game-page][data-game-id='{again}'] [data-stone]")
    assert "token" not in watcher.evaluate("location.hash")
    screenshot(ke, "rematch-played")


def test_one_rematch_only_and_none_of_an_event_game(server: Server) -> None:
    # the store keeps one rematch per game: two accepts at once make one game
    g = new_game(server, game="go", size=9)
    act(server, g["id"], g["black_token"], {"type": "resign"})
    url = f"{server.url}/api/games/{g['id']}/rematch"

    def ask(token: str) -> httpx.Response:
        return httpx.post(url, headers={"Authorization": f"Bearer {token}"})

    r = ask(g["white_token"])
    assert r.status_code == 201 and r.json()["rematch"]["offered_by"] == "white", r.text
    assert r.json()["id"] is None
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(ask, [g["black_token"], g["black_token"]]))
    assert {a.json()["id"] for a in answers} == {rematch_id(g["id"])}
    assert ask(g["white_token"]).json()["id"] == rematch_id(g["id"])
    # nobody else offers: a spectator has no seat
    assert httpx.post(url).status_code == 401
    # a Renju game's rematch keeps its rules (Gomoku has no size or handicap to carry)
    k = new_game(
        server, game="gomoku", rules="free_renju", time_control={"system": "absolute", "base": 300}
    )
    act(server, k["id"], k["black_token"], {"type": "move", "move": "h8"})
    act(server, k["id"], k["white_token"], {"type": "resign"})
    kurl = f"{server.url}/api/games/{k['id']}/rematch"
    httpx.post(kurl, headers={"Authorization": f"Bearer {k['white_token']}"})
    r = httpx.post(kurl, headers={"Authorization": f"Bearer {k['black_token']}"})
    assert r.status_code == 201 and r.json()["seat"] == "white", r.text
    first, again = state(server, k["id"]), state(server, r.json()["id"])
    assert again["game"] == "gomoku" and again["rules"] == first["rules"]
    assert again["time_control"] == first["time_control"] and again["moves_list"] == []
    # a declined offer is said to the one who offered
    h = new_game(server, game="go", size=9)
    act(server, h["id"], h["black_token"], {"type": "resign"})
    hurl = f"{server.url}/api/games/{h['id']}/rematch"
    httpx.post(hurl, headers={"Authorization": f"Bearer {h['black_token']}"})
    r = httpx.delete(hurl, headers={"Authorization": f"Bearer {h['white_token']}"})
    assert r.json()["rematch"] == {"declined_by": "white"}
    # an event's game has none: its pairings decide the next game
    game = online_event_game(server.url)
    act(server, game["game_id"], game["black_token"], {"type": "resign"})
    r = httpx.post(
        f"{server.url}/api/games/{game['game_id']}/rematch",
        headers={"Authorization": f"Bearer {game['white_token']}"},
    )
    assert r.status_code == 409 and "event" in r.json()["detail"], r.text
